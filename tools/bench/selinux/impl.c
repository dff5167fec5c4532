// SPDX-License-Identifier: GPL-2.0
/*
 * impl.c - one column of the model: a hash implementation together with the
 * kernel's avtab code, compiled once per column (see the Makefile):
 *   IMPL_KIND 1: an OLD/NEW tree, hashes and avtab code all from the tree
 *   IMPL_KIND 2: mainline av_hash() (upstream/) with the OLD tree's avtab code
 *   IMPL_KIND 3: a CANDIDATE (candidates.h) with the OLD tree's avtab code
 * IMPL_TYPES/IMPL_HASH/IMPL_CODE name the gen-tree.sh headers, IMPL_NAME the
 * column.  Exports `const struct hash_impl impl_<IMPL_NAME>`.
 */
#include <stdio.h>
#include <stddef.h>

#include "model.h"
#include "tsc.h"

#define CAT_(a, b) a##b
#define CAT(a, b) CAT_(a, b)
#define STR_(a) #a
#define STR(a) STR_(a)
#define KIMPL_PFX(name) CAT(CAT(IMPL_NAME, _), name)

#include IMPL_TYPES
#if IMPL_KIND == 1
#include IMPL_HASH
#define IMPL_TEXT KTREE_DESC
#elif IMPL_KIND == 2
#include "upstream/hash.h"
#include "upstream/mainline-callsites.h"
#define IMPL_TEXT "mainline av_hash() (upstream/hash.h), avtab code from " KTREE_DESC
#elif IMPL_KIND == 3
#include "candidates.h"
#define IMPL_TEXT "CANDIDATE " CAND_TEXT
#ifndef IMPL_LABEL
#define IMPL_LABEL CAND_NAME
#endif
#else
#error "IMPL_KIND must be 1, 2 or 3"
#endif

_Static_assert(sizeof(struct avtab_key) == sizeof(struct model_key) &&
	       offsetof(struct avtab_key, source_type) == offsetof(struct model_key, source_type) &&
	       offsetof(struct avtab_key, target_type) == offsetof(struct model_key, target_type) &&
	       offsetof(struct avtab_key, target_class) == offsetof(struct model_key, target_class) &&
	       offsetof(struct avtab_key, specified) == offsetof(struct model_key, specified),
	       "struct avtab_key layout changed: update struct model_key");

/* avtab_hash()'s second argument for a table of 2^bits slots */
static inline u32 kimpl_arg(unsigned int bits)
{
#if defined(KTREE_AVTAB_HASH_ARG_MASK)
	return bits >= 32 ? U32_MAX : (1u << bits) - 1;
#elif defined(KTREE_AVTAB_HASH_ARG_BITS)
	return bits;
#else
#error "does avtab_hash() take a mask or bits?"
#endif
}

static inline u32 kimpl_avtab_hash(const struct avtab_key *k, u32 arg)
{
	return avtab_hash(k, arg);
}

#if IMPL_KIND == 3
/* The OLD code passes h->mask; a candidate takes the bit count, which a
 * patched struct avtab keeps in h->bits: one load either way. */
static u32 kimpl_bits;
#define avtab_hash(k, m) avtab_hash((k), kimpl_bits)
#endif

#include IMPL_CODE

static u32 avtab_bucket(const struct model_key *k, unsigned int bits)
{
	return kimpl_avtab_hash((const struct avtab_key *)k, kimpl_arg(bits));
}

static u32 avc_bucket(u32 ssid, u32 tsid, u16 tclass)
{
	return avc_hash(ssid, tsid, tclass);
}

static u32 avtab_nslot(u32 nrules)
{
	struct avtab h;
	u32 n;

	avtab_init(&h);
	if (avtab_alloc(&h, nrules)) {
		fprintf(stderr, "%s: avtab_alloc(%u) failed\n", STR(IMPL_NAME), nrules);
		exit(1);
	}
	n = h.nslot;
	kvfree(h.htable);
	return n;
}

static u32 avtab_arg(unsigned int bits)
{
	return kimpl_arg(bits);
}

__attribute__((noinline)) static u32 cost_avtab(const void *key, u32 arg)
{
	return kimpl_avtab_hash(key, arg);
}

__attribute__((noinline)) static u32 cost_avc(u32 ssid, u32 tsid, u32 tclass)
{
	return avc_hash(ssid, tsid, (u16)tclass);
}

static volatile u64 sink;

#define TIME_KEYS 1024	/* 8 KiB of keys: L1-resident */

static u32 xorshift(u32 *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 17;
	*s ^= *s << 5;
	return *s;
}

static u64 time_avtab_hash(u32 iters, int dependent)
{
	static struct avtab_key keys[TIME_KEYS];
	const u32 arg = kimpl_arg(15);
	u64 c0, c1;
	u32 x = 0x12345, acc = 0;

	if (!keys[0].specified)
		for (u32 i = 0, s = 1; i < TIME_KEYS; i++) {
			keys[i].source_type = xorshift(&s) & 0xfff;
			keys[i].target_type = xorshift(&s) & 0xfff;
			keys[i].target_class = xorshift(&s) & 0x7f;
			keys[i].specified = 1;
		}
	c0 = tsc_start();
	if (dependent) {
		for (u32 i = 0; i < iters; i++) {
			struct avtab_key k = {
				.source_type = x & 0xfff,
				.target_type = (x >> 12) & 0xfff,
				.target_class = (x >> 24) & 0x7f,
				.specified = 1,
			};
			x += kimpl_avtab_hash(&k, arg) + 0x9e3779b9u;
		}
	} else {
		for (u32 i = 0; i < iters; i++)
			acc += kimpl_avtab_hash(&keys[i & (TIME_KEYS - 1)], arg);
	}
	c1 = tsc_stop();
	sink = x + acc;
	return c1 - c0;
}

static u64 time_avc_hash(u32 iters, int dependent)
{
	static u32 ssid[TIME_KEYS], tsid[TIME_KEYS];
	static u16 tclass[TIME_KEYS];
	u64 c0, c1;
	u32 x = 0x12345, acc = 0;

	if (!tclass[0])
		for (u32 i = 0, s = 1; i < TIME_KEYS; i++) {
			ssid[i] = xorshift(&s) & 0x3ff;
			tsid[i] = xorshift(&s) & 0x3ff;
			tclass[i] = (xorshift(&s) & 0x7f) | 1;
		}
	c0 = tsc_start();
	if (dependent) {
		for (u32 i = 0; i < iters; i++)
			x += avc_hash(x & 0x3ff, (x >> 10) & 0x3ff,
				      (u16)((x >> 20) & 0x7f)) + 0x9e3779b9u;
	} else {
		for (u32 i = 0; i < iters; i++) {
			u32 j = i & (TIME_KEYS - 1);

			acc += avc_hash(ssid[j], tsid[j], tclass[j]);
		}
	}
	c1 = tsc_stop();
	sink = x + acc;
	return c1 - c0;
}

struct ktable {
	struct avtab h;
	struct kmem_cache nodes;
	struct kmem_cache xperms;
	u32 n;
	u32 *order;		/* record id of the i-th allocated node */
};

static struct avtab_extended_perms zero_xperms;

static struct ktable *table_build(const struct model_rec *recs, u32 n,
				  const u32 *order)
{
	struct ktable *t = calloc(1, sizeof(*t));
	size_t cap = ((size_t)n * sizeof(struct avtab_node) + 4095) & ~(size_t)4095;
	size_t xcap = ((size_t)n * sizeof(struct avtab_extended_perms) + 4095) & ~(size_t)4095;

	if (!t)
		goto nomem;
	t->n = n;
	t->order = malloc(n * sizeof(*t->order));
	t->nodes.size = sizeof(struct avtab_node);
	t->nodes.cap = cap;
	t->nodes.base = aligned_alloc(4096, cap);
	t->xperms.size = sizeof(struct avtab_extended_perms);
	t->xperms.cap = xcap;
	t->xperms.base = aligned_alloc(4096, xcap);
	if (!t->order || !t->nodes.base || !t->xperms.base)
		goto nomem;
	memcpy(t->order, order, n * sizeof(*order));
	KIMPL_PFX(set_caches)(&t->nodes, &t->xperms);
	avtab_init(&t->h);
	if (avtab_alloc(&t->h, n))
		goto nomem;
#if IMPL_KIND == 3
	kimpl_bits = (u32)__builtin_ctz(t->h.nslot);
#endif
	for (u32 i = 0; i < n; i++) {
		const struct model_rec *r = &recs[order[i]];
		struct avtab_key key;
		struct avtab_datum datum;
		int rc;

		memcpy(&key, &r->key, sizeof(key));
		if (r->xperms)
			datum.u.xperms = &zero_xperms;
		else
			datum.u.data = r->data;
		rc = avtab_insert(&t->h, &key, &datum);
		if (rc) {
			fprintf(stderr, "%s: avtab_insert of record %u failed: %d\n",
				STR(IMPL_NAME), order[i], rc);
			exit(1);
		}
	}
	return t;
nomem:
	fprintf(stderr, "%s: table_build: out of memory\n", STR(IMPL_NAME));
	exit(1);
}

static u32 table_nslot(const struct ktable *t)
{
	return t->h.nslot;
}

static void table_walk(const struct ktable *t, u32 *order)
{
	u32 k = 0;

	for (u32 i = 0; i < t->h.nslot; i++)
		for (struct avtab_node *cur = t->h.htable[i]; cur; cur = cur->next)
			order[k++] = t->order[((char *)cur - t->nodes.base) /
					      sizeof(*cur)];
	if (k != t->n) {
		fprintf(stderr, "%s: table_walk found %u of %u nodes\n",
			STR(IMPL_NAME), k, t->n);
		exit(1);
	}
}

static u32 table_check(struct ktable *t, const struct model_key *keys, u32 n)
{
	u32 found = 0;

	for (u32 i = 0; i < n; i++) {
		const struct avtab_key *k = (const struct avtab_key *)&keys[i];
		struct avtab_node *node = avtab_search_node(&t->h, k);

		if (!node)
			continue;
		if (node->key.source_type != k->source_type ||
		    node->key.target_type != k->target_type ||
		    node->key.target_class != k->target_class) {
			fprintf(stderr, "%s: avtab_search_node returned the wrong node\n",
				STR(IMPL_NAME));
			exit(1);
		}
		found++;
	}
	return found;
}

static void table_free(struct ktable *t)
{
	kvfree(t->h.htable);
	free(t->nodes.base);
	free(t->xperms.base);
	free(t->order);
	free(t);
}

static u64 bench_lookup(struct ktable *t, const struct model_key *keys, u32 n)
{
	uintptr_t acc = 0;
	u64 c0, c1;

#if IMPL_KIND == 3
	kimpl_bits = (u32)__builtin_ctz(t->h.nslot);
#endif
	c0 = tsc_start();
	for (u32 i = 0; i < n; i++)
		acc += (uintptr_t)avtab_search_node(&t->h,
				(const struct avtab_key *)&keys[i]);
	c1 = tsc_stop();
	sink = acc;
	return c1 - c0;
}

static u64 bench_dep(struct ktable *t, const struct model_key *keys, u32 start,
		     u32 n)
{
	u32 r = start;
	u64 c0, c1;

#if IMPL_KIND == 3
	kimpl_bits = (u32)__builtin_ctz(t->h.nslot);
#endif
	c0 = tsc_start();
	for (u32 i = 0; i < n; i++) {
		struct avtab_node *node = avtab_search_node(&t->h,
				(const struct avtab_key *)&keys[r]);

		if (!node)
			abort();
		r = node->datum.u.data;
	}
	c1 = tsc_stop();
	sink = r;
	return c1 - c0;
}

const struct hash_impl CAT(impl_, IMPL_NAME) = {
	.name = IMPL_LABEL,
	.text = IMPL_TEXT,
	.avc_slots = AVC_CACHE_SLOTS,
	.node_size = sizeof(struct avtab_node),
	.avtab_bucket = avtab_bucket,
	.avc_bucket = avc_bucket,
	.avtab_nslot = avtab_nslot,
	.avtab_arg = avtab_arg,
	.cost_avtab = cost_avtab,
	.cost_avc = cost_avc,
	.time_avtab_hash = time_avtab_hash,
	.time_avc_hash = time_avc_hash,
	.table_build = table_build,
	.table_nslot = table_nslot,
	.table_walk = table_walk,
	.table_check = table_check,
	.table_free = table_free,
	.bench_lookup = bench_lookup,
	.bench_dep = bench_dep,
};
