// SPDX-License-Identifier: GPL-2.0
/*
 * avc-impl.c - one column of the AVC sections at one size: the tree's
 * avc_hash(), struct avc_node/avc_cache/selinux_avc, avc_node_populate() and
 * avc_search_node() (gen-tree.sh: gen/<tree>-avc.h, verbatim), compiled with
 * -DCONFIG_SECURITY_SELINUX_AVC_HASH_BITS=N for N = 9..14 (see the Makefile):
 *   IMPL_KIND 1: an OLD/NEW tree, everything from the tree
 *   IMPL_KIND 2: mainline's av_hash() (upstream/) with the OLD tree's AVC
 * A tree whose AVC_CACHE_SLOTS is a literal (6.12's 512) is resized the way
 * mainline's "selinux: make the AVC hash table size configurable" does it,
 * AVC_CACHE_SLOTS = 1 << CONFIG_SECURITY_SELINUX_AVC_HASH_BITS: 6.12's
 * shift-xor then masks with AVC_CACHE_SLOTS - 1, which is what mainline ran
 * between that patch and av_hash.  Exports avc_impl_<IMPL_NAME>_<N>.
 *
 * The fill is the model's, not the kernel's: avc_insert() also takes the
 * slot lock, checks the notification sequence number, copies xperms and
 * may reclaim; here each key gets the next node of a bump-allocated arena,
 * avc_node_populate(), and the head of its chain (hlist_add_head_rcu(), as
 * avc_insert() does after its duplicate scan).
 */
#include <stdio.h>
#include <stdlib.h>

#define KMODEL_AVC_RESIZE 1
#include IMPL_TYPES
#if IMPL_KIND == 1
#include IMPL_HASH
#elif IMPL_KIND == 2
#include "upstream/hash.h"
#include "upstream/mainline-callsites.h"
#else
#error "IMPL_KIND must be 1 or 2"
#endif
#include IMPL_AVC

#include "avc-model.h"
#include "tsc.h"

#define CAT_(a, b) a##b
#define CAT(a, b) CAT_(a, b)
#define CAT3(a, b, c) CAT(CAT(a, b), c)
#define STR_(a) #a
#define STR(a) STR_(a)

_Static_assert(AVC_CACHE_SLOTS == 1 << CONFIG_SECURITY_SELINUX_AVC_HASH_BITS,
	       "AVC_CACHE_SLOTS is not 1 << CONFIG_SECURITY_SELINUX_AVC_HASH_BITS");

#if defined(KTREE_AVC_SLOTS_KCONFIG)
#define SLOTS_FORM "1 << CONFIG_SECURITY_SELINUX_AVC_HASH_BITS (the tree's)"
#else
#define SLOTS_FORM "literal " STR(KTREE_AVC_SLOTS_LITERAL) " in the tree, resized as mainline does"
#endif

struct avc_table {
	struct avc_node *nodes;
	uint32_t n;
	struct hlist_head heads[AVC_CACHE_SLOTS];
};

static volatile uintptr_t sink;

static u32 bucket(u32 ssid, u32 tsid, u16 tclass)
{
	return avc_hash(ssid, tsid, tclass);
}

static struct avc_table *build(const struct avc_key *keys, const u32 *next, u32 n)
{
	struct avc_table *t = calloc(1, sizeof(*t));
	size_t cap = ((size_t)n * sizeof(struct avc_node) + 4095) & ~(size_t)4095;

	if (!t || !(t->nodes = aligned_alloc(4096, cap ? cap : 4096))) {
		fprintf(stderr, "avc-impl %s: out of memory\n", STR(IMPL_NAME));
		exit(1);
	}
	memset(t->nodes, 0, cap);
	t->n = n;
	for (u32 i = 0; i < AVC_CACHE_SLOTS; i++)
		INIT_HLIST_HEAD(&selinux_avc.avc_cache.slots[i]);
	for (u32 i = 0; i < n; i++) {
		struct av_decision avd = { .allowed = next ? next[i] : i };
		struct avc_node *node = &t->nodes[i], *pos;
		struct hlist_head *head;

		avc_node_populate(node, keys[i].ssid, keys[i].tsid, keys[i].tclass, &avd);
		head = &selinux_avc.avc_cache.slots[avc_hash(keys[i].ssid,
							      keys[i].tsid,
							      keys[i].tclass)];
		hlist_for_each_entry(pos, head, list)
			if (pos->ae.ssid == keys[i].ssid &&
			    pos->ae.tsid == keys[i].tsid &&
			    pos->ae.tclass == keys[i].tclass) {
				fprintf(stderr, "avc-impl %s: duplicate key %u (%u, %u, %u)\n",
					STR(IMPL_NAME), i, keys[i].ssid, keys[i].tsid,
					keys[i].tclass);
				exit(1);
			}
		hlist_add_head_rcu(&node->list, head);
	}
	memcpy(t->heads, selinux_avc.avc_cache.slots, sizeof(t->heads));
	return t;
}

static void load(const struct avc_table *t)
{
	memcpy(selinux_avc.avc_cache.slots, t->heads, sizeof(t->heads));
}

static u32 check(const struct avc_key *keys, u32 n)
{
	u32 found = 0;

	for (u32 i = 0; i < n; i++) {
		struct avc_node *node = avc_search_node(keys[i].ssid, keys[i].tsid,
							keys[i].tclass);

		if (!node)
			continue;
		if (node->ae.ssid != keys[i].ssid || node->ae.tsid != keys[i].tsid ||
		    node->ae.tclass != keys[i].tclass) {
			fprintf(stderr, "avc-impl %s: avc_search_node returned the wrong node\n",
				STR(IMPL_NAME));
			exit(1);
		}
		found++;
	}
	return found;
}

static u64 bench_hit(const struct avc_key *keys, u32 n)
{
	uintptr_t acc = 0;
	u64 c0, c1;

	c0 = tsc_start();
	for (u32 i = 0; i < n; i++)
		acc += (uintptr_t)avc_search_node(keys[i].ssid, keys[i].tsid,
						  keys[i].tclass);
	c1 = tsc_stop();
	sink = acc;
	return c1 - c0;
}

static u64 bench_dep(const struct avc_key *keys, u32 start, u32 n)
{
	u32 k = start;
	u64 c0, c1;

	c0 = tsc_start();
	for (u32 i = 0; i < n; i++) {
		struct avc_node *node = avc_search_node(keys[k].ssid, keys[k].tsid,
							keys[k].tclass);

		if (!node)
			abort();
		k = node->ae.avd.allowed;
	}
	c1 = tsc_stop();
	sink = k;
	return c1 - c0;
}

static void table_free(struct avc_table *t)
{
	if (!t)
		return;
	free(t->nodes);
	free(t);
}

#if IMPL_KIND == 1
#define AVC_TEXT KTREE_DESC
#else
#define AVC_TEXT "mainline av_hash() (upstream/hash.h) with the AVC code of " KTREE_DESC
#endif

const struct avc_impl CAT3(avc_impl_, IMPL_NAME, CAT(_, CONFIG_SECURITY_SELINUX_AVC_HASH_BITS)) = {
	.name = STR(IMPL_NAME),
	.label = IMPL_LABEL,
	.text = AVC_TEXT,
	.bits = CONFIG_SECURITY_SELINUX_AVC_HASH_BITS,
	.slots = AVC_CACHE_SLOTS,
	.node_size = sizeof(struct avc_node),
	.slots_form = SLOTS_FORM,
	.bucket = bucket,
	.build = build,
	.load = load,
	.check = check,
	.bench_hit = bench_hit,
	.bench_dep = bench_dep,
	.free = table_free,
};
