// SPDX-License-Identifier: GPL-2.0
/*
 * sec-avtab.c - avtab hash quality on the real policy's keys: chain
 * statistics per column at the kernel's size and at 2^14..2^20 slots against
 * a keyed random hash, full 32-bit collisions, and the order in which the
 * policy file stores its records.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chain-stats.h"
#include "keyed-random.h"
#include "report.h"

#define MIN_BITS 14
#define MAX_BITS 20

static uint64_t pack48(const struct model_key *k)
{
	return (uint64_t)k->source_type << 32 | (uint64_t)k->target_type << 16 |
	       k->target_class;
}

static void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p) {
		fprintf(stderr, "sec-avtab: out of memory\n");
		exit(1);
	}
	return p;
}

void sec_file_order(struct model_ctx *ctx)
{
	const struct policy_keys *pk = &ctx->pk;
	const struct hash_impl *old = ctx->impl[ctx->old];
	uint32_t nslot = old->avtab_nslot(pk->navtab);

	section("Policy file record order (kernel node allocation order)");
	printf("te_avtab records start at file offset %ld; the kernel allocates one node per record in this order.\n",
	       pk->avtab_offset);
	printf("Share of adjacent records whose OLD-hash bucket does not decrease, at 2^b slots:\n");
	printf("   b  slots    in-order%%  (1.0 = file sorted by old bucket)\n");
	for (unsigned int b = MIN_BITS; b <= MAX_BITS; b++) {
		uint32_t prev = 0, ok = 0;

		for (uint32_t i = 0; i < pk->navtab; i++) {
			uint32_t h = old->avtab_bucket(&pk->avtab[i].key, b);

			if (i && h >= prev)
				ok++;
			prev = h;
		}
		printf("  %2u %7u   %8.4f%s\n", b, 1u << b,
		       100.0 * ok / (pk->navtab - 1),
		       (1u << b) == nslot ? "   <- kernel avtab_alloc() size" : "");
	}
}

struct rstat {
	double used, longest, q1, med, q3, sumsq, sumsq_sd;
};

static void random_ideal(const struct model_rec *recs, uint32_t n,
			 unsigned int bits, unsigned int seeds, uint32_t *bucket,
			 uint32_t *count, struct rstat *rs)
{
	double s = 0, ss = 0;

	memset(rs, 0, sizeof(*rs));
	for (unsigned int seed = 0; seed < seeds; seed++) {
		struct chain_stats st;

		for (uint32_t i = 0; i < n; i++)
			bucket[i] = keyed_random(pack48(&recs[i].key), seed, bits);
		chain_stats(bucket, n, 1u << bits, count, &st);
		rs->used += st.used;
		rs->longest += st.longest;
		rs->q1 += st.q1;
		rs->med += st.med;
		rs->q3 += st.q3;
		s += (double)st.sumsq;
		ss += (double)st.sumsq * st.sumsq;
	}
	rs->used /= seeds;
	rs->longest /= seeds;
	rs->q1 /= seeds;
	rs->med /= seeds;
	rs->q3 /= seeds;
	rs->sumsq = s / seeds;
	rs->sumsq_sd = sqrt((ss - s * s / seeds) / (seeds - 1));
}

/* distinct (source, target, class) triples */
static uint32_t distinct_triples(const struct model_rec *recs, uint32_t n)
{
	uint64_t *v = xmalloc(n * sizeof(*v));
	uint32_t d = 0;

	for (uint32_t i = 0; i < n; i++)
		v[i] = pack48(&recs[i].key);
	qsort(v, n, sizeof(*v), (int (*)(const void *, const void *))cmp_u64_keys);
	for (uint32_t i = 0; i < n; i++)
		d += !i || v[i] != v[i - 1];
	free(v);
	return d;
}
