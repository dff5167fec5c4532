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
#include "plot.h"
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
	for (unsigned int b = MIN_BITS; b <= MAX_BITS + 2; b++) {
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

#define LONGEST_MAX 256

struct rstat {
	double used, longest, q1, med, q3, sumsq, sumsq_sd;
	uint32_t longest_hist[LONGEST_MAX + 1];	/* seeds by longest chain */
};

/* share of the random seeds whose longest chain is at least @len, % */
static double longest_share(const struct rstat *rs, uint32_t len, unsigned int seeds)
{
	uint32_t n = 0;

	for (uint32_t l = len < LONGEST_MAX ? len : LONGEST_MAX; l <= LONGEST_MAX; l++)
		n += rs->longest_hist[l];
	return 100.0 * n / seeds;
}

static void random_ideal(const struct model_rec *recs, uint32_t n,
			 unsigned int bits, unsigned int seeds, uint32_t *bucket,
			 uint32_t *count, struct rstat *rs, struct hist *hist)
{
	double s = 0, ss = 0;

	memset(rs, 0, sizeof(*rs));
	for (unsigned int seed = 0; seed < seeds; seed++) {
		struct chain_stats st;

		for (uint32_t i = 0; i < n; i++)
			bucket[i] = keyed_random(pack48(&recs[i].key), seed, bits);
		chain_stats(bucket, n, 1u << bits, count, &st);
		if (hist)
			hist_add(hist, count, 1u << bits);
		rs->used += st.used;
		rs->longest += st.longest;
		rs->longest_hist[st.longest < LONGEST_MAX ? st.longest : LONGEST_MAX]++;
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
	qsort(v, n, sizeof(*v), cmp_u64);
	for (uint32_t i = 0; i < n; i++)
		d += !i || v[i] != v[i - 1];
	free(v);
	return d;
}

static void quality(struct model_ctx *ctx, const char *label,
		    const struct model_rec *recs, uint32_t n, uint32_t real_nslot,
		    int is_cond)
{
	double pct[MAX_IMPL][MAX_BITS + 1], z[MAX_IMPL][MAX_BITS + 1], worst[MAX_IMPL];
	uint32_t *bucket = xmalloc(n * sizeof(*bucket));
	uint32_t *count = xmalloc(((size_t)1 << MAX_BITS) * sizeof(*count));
	uint32_t distinct = distinct_triples(recs, n);
	int io = ctx->old, in = impl_index(ctx, "new");
	/* chain-length histograms at the kernel's size: old, new, random */
	struct hist hist[3] = { 0 };
	struct chain_stats real[MAX_IMPL] = { 0 };
	unsigned int real_bits = ilog2u(real_nslot);
	char metric[128];

	printf("\n%s: %u entries, %u distinct (source, target, class); kernel size %u slots\n",
	       label, n, distinct, real_nslot);
	for (unsigned int bits = MIN_BITS; bits <= MAX_BITS; bits++) {
		uint32_t nslot = 1u << bits;
		struct rstat rs;

		random_ideal(recs, n, bits, ctx->seeds, bucket, count, &rs,
			     nslot == real_nslot ? &hist[2] : NULL);
		printf("\n  %s, 2^%u = %u slots%s\n", label, bits, nslot,
		       nslot == real_nslot ? "  [the kernel's size: avtab_alloc()]" : "");
		printf("  %-10s %8s %7s %11s %10s %9s %8s %7s\n", "hash", "used",
		       "longest", "q1/med/q3", "sumsq", "vs random", "z", "rnd>=");
		for (int i = 0; i < ctx->nimpl; i++) {
			const struct hash_impl *h = ctx->impl[i];
			struct chain_stats st;
			char q[32];

			for (uint32_t k = 0; k < n; k++)
				bucket[k] = h->avtab_bucket(&recs[k].key, bits);
			chain_stats(bucket, n, nslot, count, &st);
			pct[i][bits] = 100.0 * ((double)st.sumsq / rs.sumsq - 1);
			z[i][bits] = ((double)st.sumsq - rs.sumsq) / rs.sumsq_sd;
			if (nslot == real_nslot) {
				real[i] = st;
				if (i == io || i == in)
					hist_add(&hist[i == io ? 0 : 1], count, nslot);
			}
			snprintf(q, sizeof(q), "%u/%u/%u", st.q1, st.med, st.q3);
			printf("  %-10s %8u %7u %11s %10llu %+8.2f%% %+8.1f %6.1f%%\n",
			       h->name, st.used, st.longest, q,
			       (unsigned long long)st.sumsq, pct[i][bits],
			       z[i][bits], longest_share(&rs, st.longest, ctx->seeds));
		}
		{
			char q[40];

			snprintf(q, sizeof(q), "%.1f/%.1f/%.1f", rs.q1, rs.med, rs.q3);
			printf("  %-10s %8.1f %7.1f %11s %10.1f  sd %.1f (%u seeds)\n",
			       "random", rs.used, rs.longest, q, rs.sumsq,
			       rs.sumsq_sd, ctx->seeds);
		}
	}

	printf("\n  %s summary: sum of chain length^2 vs the random ideal, %% (z)\n", label);
	printf("  %-6s", "slots");
	for (int i = 0; i < ctx->nimpl; i++)
		printf(" %16s", ctx->impl[i]->name);
	printf("\n");
	for (unsigned int bits = MIN_BITS; bits <= MAX_BITS; bits++) {
		printf("  2^%-4u", bits);
		for (int i = 0; i < ctx->nimpl; i++) {
			char c[32];

			snprintf(c, sizeof(c), "%+.2f%% (%+.1f)", pct[i][bits], z[i][bits]);
			printf(" %16s", c);
		}
		printf("\n");
	}
	printf("  %-6s", "worst");
	for (int i = 0; i < ctx->nimpl; i++) {
		double w = -1e9;
		char c[32];

		for (unsigned int bits = MIN_BITS; bits <= MAX_BITS; bits++)
			if (pct[i][bits] > w)
				w = pct[i][bits];
		if (is_cond)
			ctx->v[i].cond_worst_pct = w;
		else
			ctx->v[i].avtab_worst_pct = w;
		worst[i] = w;
		snprintf(c, sizeof(c), "%+.2f%% %s", w, w <= 1.0 ? "ok" : "FAIL");
		printf(" %16s", c);
	}
	printf("\n  (criterion: within 1%% of random at every size 2^%u..2^%u)\n",
	       MIN_BITS, MAX_BITS);
	for (int i = 0; i < ctx->nimpl; i++) {
		snprintf(metric, sizeof(metric),
			 "%s worst sumsq vs random at 2^%u..2^%u slots", label,
			 MIN_BITS, MAX_BITS);
		sample_line(ctx, i, metric, "%", worst[i]);
		if (real_bits < MIN_BITS || real_bits > MAX_BITS)
			continue;
		snprintf(metric, sizeof(metric),
			 "%s sum of chain length^2 at %u slots", label, real_nslot);
		sample_line(ctx, i, metric, "sum", (double)real[i].sumsq);
		snprintf(metric, sizeof(metric), "%s sumsq vs random at %u slots",
			 label, real_nslot);
		sample_line(ctx, i, metric, "%", pct[i][real_bits]);
		snprintf(metric, sizeof(metric), "%s longest chain at %u slots",
			 label, real_nslot);
		sample_line(ctx, i, metric, "entries", real[i].longest);
	}
	if (ctx->plot_dir) {
		char name[64], title[256];
		struct hist h[3];
		const char *l[3];
		int k = 0;

		h[k] = hist[0];
		l[k++] = "old";
		if (in >= 0) {
			h[k] = hist[1];
			l[k++] = "new";
		}
		h[k] = hist[2];
		l[k++] = "random";
		snprintf(name, sizeof(name), "%s-chains", label);
		snprintf(title, sizeof(title),
			 "%s of the policy: %u entries in %u slots (random: mean of %u seeds)",
			 label, n, real_nslot, ctx->seeds);
		plot_hists(ctx->plot_dir, name, title, k, l, h);
	}
	free(bucket);
	free(count);
}

void sec_avtab(struct model_ctx *ctx)
{
	const struct policy_keys *pk = &ctx->pk;
	uint32_t real = ctx->impl[ctx->old]->avtab_nslot(pk->navtab);

	section("avtab: chain statistics on the real policy's keys");
	printf("used = buckets used; q1/med/q3 = lower nearest-rank quartiles of the non-zero chain lengths;\n"
	       "vs random = sum of chain length^2 relative to the mean over %u seeds of a keyed random hash\n"
	       "(splitmix64 of the packed key and the seed); z = (sumsq - mean) / sd of those seeds;\n"
	       "rnd>= = share of those seeds whose longest chain is at least as long as this one.\n"
	       "The hash never sees `specified`: entries differing only in it always share a chain.\n",
	       ctx->seeds);
	for (int i = 0; i < ctx->nimpl; i++) {
		uint32_t ns = ctx->impl[i]->avtab_nslot(pk->navtab);

		if (ns != real)
			printf("NOTE: %s sizes te_avtab at %u slots, OLD at %u\n",
			       ctx->impl[i]->name, ns, real);
	}
	quality(ctx, "te_avtab", pk->avtab, pk->navtab, real, 0);
	/* conditional.c: avtab_alloc(&p->te_cond_avtab, p->te_avtab.nel) */
	quality(ctx, "te_cond_avtab", pk->cond, pk->ncond, real, 1);
}

struct hk {
	uint32_t h;
	uint64_t key;
};

static int cmp_hk(const void *a, const void *b)
{
	const struct hk *x = a, *y = b;

	if (x->h != y->h)
		return x->h < y->h ? -1 : 1;
	return x->key < y->key ? -1 : x->key > y->key;
}

/* triples sharing their full 32-bit hash with another triple */
static void collisions(const char *name, const struct hash_impl *h,
		       const struct model_rec *recs, uint32_t n)
{
	struct hk *v = xmalloc(n * sizeof(*v));
	uint32_t m = 0, colliding = 0, values = 0;

	for (uint32_t i = 0; i < n; i++) {
		v[m].h = h->avtab_bucket(&recs[i].key, 32);
		v[m].key = pack48(&recs[i].key);
		m++;
	}
	qsort(v, m, sizeof(*v), cmp_hk);
	/* drop duplicate triples (same key, other `specified`) */
	n = 0;
	for (uint32_t i = 0; i < m; i++)
		if (!n || v[i].key != v[n - 1].key || v[i].h != v[n - 1].h)
			v[n++] = v[i];
	for (uint32_t i = 0; i < n;) {
		uint32_t j = i + 1;

		while (j < n && v[j].h == v[i].h)
			j++;
		values++;
		if (j - i > 1)
			colliding += j - i;
		i = j;
	}
	printf("  %-10s %9u %9u %9u %10u\n", name, n, values, n - values,
	       colliding);
	free(v);
}

void sec_collisions(struct model_ctx *ctx)
{
	const struct policy_keys *pk = &ctx->pk;

	section("avtab: full 32-bit hash collisions (2^32 slots) on te_avtab");
	printf("  %-10s %9s %9s %9s %10s\n", "hash", "triples", "values", "excess",
	       "colliding");
	for (int i = 0; i < ctx->nimpl; i++)
		collisions(ctx->impl[i]->name, ctx->impl[i], pk->avtab,
			   pk->navtab);
	printf("  triples = distinct (source, target, class); values = distinct 32-bit hash values;\n"
	       "  excess = triples - values (triples lost to an earlier one); colliding = triples sharing\n"
	       "  their value with another triple (a random 32-bit hash: excess ~%.1f, colliding ~%.1f)\n",
	       (double)pk->navtab * pk->navtab / 8589934592.0,
	       (double)pk->navtab * pk->navtab / 4294967296.0);
	printf("  types: %u (values up to %u); 2020 is not injective once values reach 2048\n",
	       pk->ntypes, pk->ntypes);
}
