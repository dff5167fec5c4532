/* SPDX-License-Identifier: GPL-2.0 */
/*
 * avc-model.h - the AVC of one tree (or mainline) at one size: the tree's
 * avc_hash() and avc_search_node() and its structs, compiled by avc-impl.c
 * once per (column, CONFIG_SECURITY_SELINUX_AVC_HASH_BITS); and the
 * nodes/buckets points that the AVC sections evaluate.
 */
#ifndef AVC_MODEL_H
#define AVC_MODEL_H

#include <stdint.h>

#include "avc-keys.h"

#define AVC_BITS_MIN 9		/* mainline's Kconfig range, default 9 */
#define AVC_BITS_MAX 14
#define AVC_NSIZES (AVC_BITS_MAX - AVC_BITS_MIN + 1)
#define AVC_MAX_COLS 3		/* old, mainline (av_hash), new (hash3) */

struct avc_table;		/* one filled AVC: its nodes and slot heads */

struct avc_impl {
	const char *name;	/* column: old, mainline, new */
	const char *label;	/* in the AVC tables: old, av_hash, hash3 */
	const char *text;	/* where the code comes from */
	unsigned int bits;	/* CONFIG_SECURITY_SELINUX_AVC_HASH_BITS */
	uint32_t slots;		/* AVC_CACHE_SLOTS */
	uint32_t node_size;	/* sizeof(struct avc_node) */
	const char *slots_form;	/* how the tree spells AVC_CACHE_SLOTS */

	/* avc_hash() */
	uint32_t (*bucket)(uint32_t ssid, uint32_t tsid, uint16_t tclass);
	/* A filled AVC: keys[i] in node i (nodes back to back, as a slab
	 * hands them out), inserted in order at the head of its chain (as
	 * avc_insert() does); node i's avd.allowed holds next[i] (i when
	 * @next is NULL), the dependent walk's next key.  Keys must be
	 * distinct. */
	struct avc_table *(*build)(const struct avc_key *keys,
				   const uint32_t *next, uint32_t n);
	/* make @t the live selinux_avc (copies the slot heads in) */
	void (*load)(const struct avc_table *t);
	/* avc_search_node() on every key of the loaded table; returns how
	 * many were found, exits on a wrong node */
	uint32_t (*check)(const struct avc_key *keys, uint32_t n);
	/* TSC cycles for @n avc_search_node() calls on the loaded table:
	 * hit: keys[0..n-1], independent; dep: start at key @start, the next
	 * key is keys[node->ae.avd.allowed] */
	uint64_t (*bench_hit)(const struct avc_key *keys, uint32_t n);
	uint64_t (*bench_dep)(const struct avc_key *keys, uint32_t start,
			      uint32_t n);
	void (*free)(struct avc_table *t);
};

/* the columns at 2^@bits slots (old first); returns the count */
int avc_impl_list(unsigned int bits, const struct avc_impl **out, int max);

/* the nodes/buckets points: every size at its default threshold (nodes =
 * slots), then Hongru Zhang's 2048 nodes in 512 buckets */
struct avc_point {
	unsigned int bits;
	uint32_t nodes;
	/* Zhang's phone data (bucket use %, longest chain) for 6.12's
	 * shift-xor and av_hash; 0 where he gave none */
	double zhang_old_use, zhang_old_longest, zhang_av_use, zhang_av_longest;
};

#define AVC_NPOINTS (AVC_NSIZES + 1)
extern const struct avc_point avc_points[AVC_NPOINTS];

#endif /* AVC_MODEL_H */
