/* SPDX-License-Identifier: GPL-2.0 */
/*
 * model.h - types shared by the SELinux hash model: the avtab records read
 * from the binary policy and the interface of one hash implementation
 * (impl.c, compiled once per column).
 */
#ifndef MODEL_H
#define MODEL_H

#include <stdint.h>

/* Same layout as the kernel's struct avtab_key (impl.c asserts it). */
struct model_key {
	uint16_t source_type;
	uint16_t target_type;
	uint16_t target_class;
	uint16_t specified;
};

struct model_rec {
	struct model_key key;
	uint32_t data;		/* datum.u.data; the model stores a record id */
	uint8_t xperms;		/* specified has AVTAB_XPERMS: datum is a pointer */
};

#define MODEL_AVTAB_XPERMS 0x0700
#define MODEL_AVTAB_ENABLED 0x8000

struct ktable;

struct hash_impl {
	const char *name;	/* column name */
	const char *text;	/* what it is: formula or source */
	uint32_t avc_slots;	/* the tree's AVC_CACHE_SLOTS */
	uint32_t node_size;	/* sizeof(struct avtab_node) */

	/* avtab bucket of @k in a table of 2^bits slots (bits <= 32) */
	uint32_t (*avtab_bucket)(const struct model_key *k, unsigned int bits);
	/* AVC slot */
	uint32_t (*avc_bucket)(uint32_t ssid, uint32_t tsid, uint16_t tclass);
	/* the kernel's avtab_alloc() sizing for @nrules rules */
	uint32_t (*avtab_nslot)(uint32_t nrules);

	/* callgrind: one hash per call, never inlined into the caller */
	uint32_t (*avtab_arg)(unsigned int bits);	/* mask or bits */
	uint32_t (*cost_avtab)(const void *key, uint32_t arg);
	uint32_t (*cost_avc)(uint32_t ssid, uint32_t tsid, uint32_t tclass);

	/* TSC cycles for @iters hashes, inlined as in the kernel:
	 * @dependent: each key depends on the previous hash (latency),
	 * otherwise independent keys from a small array (throughput) */
	uint64_t (*time_avtab_hash)(uint32_t iters, int dependent);
	uint64_t (*time_avc_hash)(uint32_t iters, int dependent);

	/* a kernel avtab (the tree's avtab_alloc/avtab_insert) holding @recs,
	 * nodes allocated in the order @order[0..n-1] */
	struct ktable *(*table_build)(const struct model_rec *recs, uint32_t n,
				      const uint32_t *order);
	uint32_t (*table_nslot)(const struct ktable *t);
	/* record ids in bucket order (bucket 0 chain, bucket 1 chain, ...) */
	void (*table_walk)(const struct ktable *t, uint32_t *order);
	/* avtab_search_node() on every key; returns how many were found */
	uint32_t (*table_check)(struct ktable *t, const struct model_key *keys,
				uint32_t n);
	void (*table_free)(struct ktable *t);
	/* TSC cycles for @n avtab_search_node() calls:
	 * hit: keys[0..n-1] in order, independent;
	 * dep: start at record @start, the next key is keys[datum.u.data] */
	uint64_t (*bench_lookup)(struct ktable *t, const struct model_key *keys,
				 uint32_t n);
	uint64_t (*bench_dep)(struct ktable *t, const struct model_key *keys,
			      uint32_t start, uint32_t n);
};

#endif /* MODEL_H */
