// SPDX-License-Identifier: GPL-2.0
/*
 * sec-avc-sizes.c - AVC hash quality at every size mainline allows
 * (CONFIG_SECURITY_SELINUX_AVC_HASH_BITS 9..14) and at Hongru Zhang's
 * nodes/buckets points: 6.12's shift-xor (old), mainline's av_hash and the
 * NEW tree's hash3, each compiled from its tree at each size (avc-impl.c),
 * against a keyed random hash, on every AVC key set (avc-keys.c) and the
 * policy-derived set.  Checks the claim "hash3 stays within 1% of a keyed
 * random hash's sum of squared chain lengths at every size and key set".
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "avc-model.h"
#include "chain-stats.h"
#include "keyed-random.h"
#include "report.h"

#define CLAIM_PCT 1.0

static int cmp_triple(const void *a, const void *b)
{
	const struct avc_key *x = a, *y = b;

	if (x->ssid != y->ssid)
		return x->ssid < y->ssid ? -1 : 1;
	if (x->tsid != y->tsid)
		return x->tsid < y->tsid ? -1 : 1;
	return (x->tclass > y->tclass) - (x->tclass < y->tclass);
}

/* the distinct (source, target, class) of te_avtab's access-vector rules */
static void policy_triples(struct model_ctx *ctx)
{
	const struct policy_keys *pk = &ctx->pk;
	struct avc_key *t = malloc((pk->navtab ? pk->navtab : 1) * sizeof(*t));
	uint32_t n = 0, k = 0;

	if (!t) {
		fprintf(stderr, "sec-avc-sizes: out of memory\n");
		exit(1);
	}
	for (uint32_t i = 0; i < pk->navtab; i++) {
		const struct model_key *key = &pk->avtab[i].key;

		if (!(key->specified & 0x0007))	/* AVTAB_AV: allowed, auditallow, auditdeny */
			continue;
		t[n].ssid = key->source_type;
		t[n].tsid = key->target_type;
		t[n].tclass = key->target_class;
		n++;
	}
	qsort(t, n, sizeof(*t), cmp_triple);
	for (uint32_t i = 0; i < n; i++)
		if (!k || cmp_triple(&t[k - 1], &t[i]))
			t[k++] = t[i];
	ctx->avc_triples = t;
	ctx->navc_triples = k;
}

void avc_set_keys(struct model_ctx *ctx, int set, uint32_t sample, uint32_t n,
		  struct avc_key *out)
{
	if (set == AVC_SET_POLICY) {
		if (!ctx->avc_triples)
			policy_triples(ctx);
		avc_policy_keys(ctx->avc_triples, ctx->navc_triples, ctx->pk.ntypes,
				sample, n, AVC_NSIDS, out);
	} else {
		avc_keys((enum avc_set)set, sample, n, AVC_NSIDS, ctx->pk.nclasses, out);
	}
}

struct acc {
	double used, longest, sumsq, sumsq2;	/* sums over the samples */
	double d, d2;		/* sumsq minus random's on the same keys: sum, sum of squares */
	double max_sumsq;
	uint32_t max_longest;
};

struct cell {
	double use_ideal, use_slots, longest, sumsq;
	double excess, ci;	/* sumsq vs random's mean (%), 95% CI half-width of it */
	double sd;		/* sd of sumsq across samples, % of its mean */
	double worst;		/* the worst sample's sumsq vs random's mean (%) */
	double p95;		/* the 95th percentile of the samples' sumsq vs random's mean (%) */
	uint32_t max_longest;
};

static void add(struct acc *a, const struct chain_stats *st, double rsumsq)
{
	double q = (double)st->sumsq, d = q - rsumsq;

	a->used += st->used;
	a->longest += st->longest;
	a->sumsq += q;
	a->sumsq2 += q * q;
	a->d += d;
	a->d2 += d * d;
	if (q > a->max_sumsq)
		a->max_sumsq = q;
	if (st->longest > a->max_longest)
		a->max_longest = st->longest;
}

static struct cell finish(const struct acc *a, const struct acc *rnd, uint32_t samples,
			  double ideal, uint32_t slots)
{
	double rmean = rnd->sumsq / samples, dmean = a->d / samples;
	double dvar = samples > 1 ? (a->d2 - samples * dmean * dmean) / (samples - 1) : 0;
	double m = a->sumsq / samples;
	double var = samples > 1 ? (a->sumsq2 - samples * m * m) / (samples - 1) : 0;
	struct cell c = {
		.use_ideal = 100.0 * a->used / samples / ideal,
		.use_slots = 100.0 * a->used / samples / slots,
		.longest = a->longest / samples,
		.sumsq = m,
		.excess = 100.0 * dmean / rmean,
		.ci = 100.0 * 1.96 * sqrt(dvar > 0 ? dvar : 0) / sqrt(samples) / rmean,
		.sd = 100.0 * sqrt(var > 0 ? var : 0) / m,
		.worst = 100.0 * (a->max_sumsq / rmean - 1),
		.max_longest = a->max_longest,
	};
	return c;
}

/* results[point][set][col], col AVC_MAX_COLS = random */
static struct cell res[AVC_NPOINTS][AVC_NSETS_ALL][AVC_MAX_COLS + 1];
static uint32_t res_samples[AVC_NPOINTS];

static uint32_t samples_at(const struct model_ctx *ctx, uint32_t nodes)
{
	uint32_t keys = ctx->quick ? 1u << 16 : 1u << 21, s = keys / nodes;

	return s < 8 ? 8 : s;
}

static void evaluate(struct model_ctx *ctx, int p, const struct avc_impl **col, int ncol)
{
	const struct avc_point *pt = &avc_points[p];
	uint32_t slots = 1u << pt->bits, n = pt->nodes, samples = samples_at(ctx, n);
	double ideal = slots * (1 - exp(-(double)n / slots));
	struct avc_key *keys = malloc(n * sizeof(*keys));
	uint32_t *bucket = malloc(n * sizeof(*bucket)), *count = malloc(slots * sizeof(*count));
	double *per[AVC_MAX_COLS + 1];	/* each sample's sumsq, per column */
	int fail = !keys || !bucket || !count;

	for (int c = 0; c <= AVC_MAX_COLS; c++)
		fail |= !(per[c] = malloc(samples * sizeof(double)));
	if (fail) {
		fprintf(stderr, "sec-avc-sizes: out of memory\n");
		exit(1);
	}
	res_samples[p] = samples;
	for (int set = 0; set < AVC_NSETS_ALL; set++) {
		struct acc a[AVC_MAX_COLS + 1];

		memset(a, 0, sizeof(a));
		for (uint32_t s = 0; s < samples; s++) {
			struct chain_stats rst, st;
			uint64_t seed = (uint64_t)p << 40 | (uint64_t)set << 32 | s;

			avc_set_keys(ctx, set, s, n, keys);
			for (uint32_t k = 0; k < n; k++)
				bucket[k] = keyed_random_avc(keys[k].ssid, keys[k].tsid,
							     keys[k].tclass, seed, pt->bits);
			chain_stats(bucket, n, slots, count, &rst);
			add(&a[AVC_MAX_COLS], &rst, (double)rst.sumsq);
			per[AVC_MAX_COLS][s] = (double)rst.sumsq;
			for (int c = 0; c < ncol; c++) {
				for (uint32_t k = 0; k < n; k++) {
					bucket[k] = col[c]->bucket(keys[k].ssid, keys[k].tsid,
								   keys[k].tclass);
					if (bucket[k] >= slots) {
						fprintf(stderr, "sec-avc-sizes: %s avc_hash() gave %u, not below %u\n",
							col[c]->name, bucket[k], slots);
						exit(1);
					}
				}
				chain_stats(bucket, n, slots, count, &st);
				add(&a[c], &st, (double)rst.sumsq);
				per[c][s] = (double)st.sumsq;
			}
		}
		for (int c = 0; c < ncol; c++)
			res[p][set][c] = finish(&a[c], &a[AVC_MAX_COLS], samples, ideal, slots);
		res[p][set][AVC_MAX_COLS] = finish(&a[AVC_MAX_COLS], &a[AVC_MAX_COLS],
						   samples, ideal, slots);
		for (int c = 0; c <= AVC_MAX_COLS; c++) {
			double rmean = a[AVC_MAX_COLS].sumsq / samples;
			uint32_t k = (uint32_t)ceil(0.95 * samples) - 1;

			if (c >= ncol && c < AVC_MAX_COLS)
				continue;
			qsort(per[c], samples, sizeof(double), cmp_double);
			res[p][set][c].p95 = 100.0 * (per[c][k] / rmean - 1);
		}
	}
	for (int c = 0; c <= AVC_MAX_COLS; c++)
		free(per[c]);
	free(keys);
	free(bucket);
	free(count);
}

static const char *pname(int p)
{
	static char buf[4][32];
	static int k;
	char *b = buf[k++ & 3];

	snprintf(b, 32, "%u/%u", avc_points[p].nodes, 1u << avc_points[p].bits);
	return b;
}

static const char *excess(const struct cell *c)
{
	static char buf[8][32];
	static int k;
	char *b = buf[k++ & 7];

	snprintf(b, 32, "%+.1f±%.1f%s", c->excess, c->ci, c->excess > CLAIM_PCT ? "!" : " ");
	return b;
}

void sec_avc_sizes(struct model_ctx *ctx)
{
	const struct avc_impl *col[AVC_NPOINTS][AVC_MAX_COLS];
	int ncol = 0, inew = -1, iav = -1;

	for (int p = 0; p < AVC_NPOINTS; p++)
		ncol = avc_impl_list(avc_points[p].bits, col[p], AVC_MAX_COLS);
	for (int c = 0; c < ncol; c++) {
		if (!strcmp(col[0][c]->name, "new"))
			inew = c;
		if (!strcmp(col[0][c]->name, "mainline"))
			iav = c;
	}

	if (!ctx->avc_triples)
		policy_triples(ctx);
	section("AVC at every size (2^9..2^14 slots): old, av_hash and hash3 against a keyed random hash");
	printf("Each column's avc_hash() compiled from its tree once per CONFIG_SECURITY_SELINUX_AVC_HASH_BITS\n"
	       "(9..14, mainline's Kconfig range, default 9):\n");
	for (int c = 0; c < ncol; c++)
		printf("  %-8s %s; AVC_CACHE_SLOTS: %s\n", col[0][c]->label, col[0][c]->text,
		       col[0][c]->slots_form);
	if (inew < 0)
		printf("  (no hash3 column: no NEW tree with security/selinux/include/hash3.h)\n");
	printf("Points: nodes = slots at every size (mainline's default threshold, AVC_DEF_CACHE_THRESHOLD =\n"
	       "AVC_CACHE_SLOTS), and Hongru Zhang's 2048 nodes in 512 buckets (threshold raised). Key sets:\n");
	for (int set = 0; set < AVC_NSETS_ALL; set++)
		printf("  %-11s %s\n", avc_set_name(set), avc_set_text(set));
	printf("SIDs from 1..%u (the strided sets and policy may run past it), classes 1..%u (the policy's);\n"
	       "the policy set draws from the %u distinct allow/auditallow/dontaudit triples of te_avtab.\n"
	       "With SIDs below 1024 and classes below 256, 6.12's shift-xor never exceeds 4095: at 2^13 and\n"
	       "2^14 slots it cannot reach most buckets, whatever the set (a system with more SIDs fares better).\n",
	       AVC_NSIDS, ctx->pk.nclasses, ctx->navc_triples);
	printf("Samples per (point, set): %s keys in all, at least 8 samples; each sample new keys and a new\n"
	       "random-hash seed. use = buckets used, of the ideal m(1-e^(-n/m)); longest = mean longest chain\n"
	       "(max over samples); sumsq = sum of chain length^2 (each successful lookup walks (sumsq/n+1)/2\n"
	       "nodes on average); vs random = (mean sumsq - random's mean sumsq) / random's mean, paired on\n"
	       "the same keys, ± the 95%% confidence half-width (1.96 sd/sqrt(samples)); '!' = above +%.0f%%.\n"
	       "random: its mean sumsq, its sd across samples (%% of mean) and its use of ideal.\n",
	       ctx->quick ? "2^16" : "2^21", CLAIM_PCT);

	for (int p = 0; p < AVC_NPOINTS; p++) {
		const struct avc_point *pt = &avc_points[p];
		uint32_t slots = 1u << pt->bits;
		double ideal = slots * (1 - exp(-(double)pt->nodes / slots));

		evaluate(ctx, p, col[p], ncol);
		printf("\n  %s (2^%u slots, %u nodes), %u samples per set; ideal use %.1f (%.1f%% of slots)\n",
		       pname(p), pt->bits, pt->nodes, res_samples[p], ideal, 100.0 * ideal / slots);
		printf("  %-11s|", "set");
		printf(" %-*s|", 8 * ncol, " use % of ideal");
		printf(" %-*s|", 12 * ncol, " longest mean (max)");
		printf(" %-*s|", 14 * ncol, " sumsq vs random, % ±CI");
		printf(" random\n");
		printf("  %-11s|", "");
		for (int c = 0; c < ncol; c++)
			printf(" %7s", col[p][c]->label);
		printf("|");
		for (int c = 0; c < ncol; c++)
			printf(" %11s", col[p][c]->label);
		printf("|");
		for (int c = 0; c < ncol; c++)
			printf(" %13s", col[p][c]->label);
		printf("| %8s %5s %6s\n", "sumsq", "sd%", "use");
		for (int set = 0; set < AVC_NSETS_ALL; set++) {
			const struct cell *r = &res[p][set][AVC_MAX_COLS];

			printf("  %-11s|", avc_set_name(set));
			for (int c = 0; c < ncol; c++)
				printf(" %6.1f%%", res[p][set][c].use_ideal);
			printf("|");
			for (int c = 0; c < ncol; c++) {
				char b[32];

				snprintf(b, sizeof(b), "%.1f (%u)", res[p][set][c].longest,
					 res[p][set][c].max_longest);
				printf(" %11s", b);
			}
			printf("|");
			for (int c = 0; c < ncol; c++)
				printf(" %13s", excess(&res[p][set][c]));
			printf("| %8.1f %4.1f%% %5.1f%%\n", r->sumsq, r->sd, r->use_ideal);
		}
	}

	/* the claim, per hash: excess over random at every point and set */
	section("AVC claim check: sumsq within 1% of the keyed random hash at every size and key set");
	printf("Cells: mean sumsq vs random's (%%), '!' above +%.0f%%; the 95%% CI half-widths are in the tables\n"
	       "above. Negative = fewer collisions than random (a structured set the hash spreads well).\n",
	       CLAIM_PCT);
	for (int c = 0; c < ncol; c++) {
		int over = 0, cells = 0, over_sig = 0, wp = 0, ws = 0;
		double worst = -1e9;

		printf("\n  %s (%s)\n  %-11s", col[0][c]->label, col[0][c]->name, "set");
		for (int p = 0; p < AVC_NPOINTS; p++)
			printf(" %11s", pname(p));
		printf("\n");
		for (int set = 0; set < AVC_NSETS_ALL; set++) {
			printf("  %-11s", avc_set_name(set));
			for (int p = 0; p < AVC_NPOINTS; p++) {
				const struct cell *x = &res[p][set][c];
				char b[32];

				snprintf(b, sizeof(b), "%+.1f%s", x->excess,
					 x->excess > CLAIM_PCT ? "!" : " ");
				printf(" %11s", b);
				cells++;
				if (x->excess > CLAIM_PCT) {
					over++;
					if (x->excess - x->ci > CLAIM_PCT)
						over_sig++;
				}
				if (x->excess > worst) {
					worst = x->excess;
					wp = p;
					ws = set;
				}
			}
			printf("\n");
		}
		printf("  %s: %d of %d cells above +%.0f%% (%d of them with the whole 95%% CI above); worst %+.2f%% ±%.2f\n"
		       "  (set %s at %s)\n",
		       col[0][c]->label, over, cells, CLAIM_PCT, over_sig, worst, res[wp][ws][c].ci,
		       avc_set_name(ws), pname(wp));
		{
			double wr = 0;
			int rp = 0, rset = 0;

			for (int p = 0; p < AVC_NPOINTS; p++)
				for (int set = 0; set < AVC_NSETS_ALL; set++) {
					double r = res[p][set][c].sd / res[p][set][AVC_MAX_COLS].sd;

					if (r > wr) {
						wr = r;
						rp = p;
						rset = set;
					}
				}
			printf("  spread: sd of sumsq across samples, worst ratio to random's: %.2fx (set %s at %s:\n"
			       "  %.1f%% against %.1f%%); there, the worst sample's sumsq is %+.1f%% of random's mean, random's\n"
			       "  own worst sample %+.1f%% (a mean at random's can hide tables worse than random)\n",
			       wr, avc_set_name(rset), pname(rp), res[rp][rset][c].sd,
			       res[rp][rset][AVC_MAX_COLS].sd, res[rp][rset][c].worst,
			       res[rp][rset][AVC_MAX_COLS].worst);
		}
		{
			double wgap = -1e9;
			int gp = 0, gs = 0;

			for (int p = 0; p < AVC_NPOINTS; p++)
				for (int set = 0; set < AVC_NSETS_ALL; set++) {
					double g = res[p][set][c].p95 - res[p][set][AVC_MAX_COLS].p95;

					if (g > wgap) {
						wgap = g;
						gp = p;
						gs = set;
					}
				}
			printf("CLAIM %s cells=%d above=%d above_ci=%d worst=%+.2f p95gap=%+.1f@%s@%s\n",
			       col[0][c]->label, cells, over, over_sig, worst, wgap,
			       avc_set_name(gs), pname(gp));
		}
		if (strcmp(col[0][c]->name, "old")) {
			double wgap = -1e9;
			int gp = 0, gs = 0;

			printf("  per table: the 95th percentile of the samples' sumsq vs random's mean, %s/random (%%):\n"
			       "  %-11s", col[0][c]->label, "set");
			for (int p = 0; p < AVC_NPOINTS; p++)
				printf(" %11s", pname(p));
			printf("\n");
			for (int set = 0; set < AVC_NSETS_ALL; set++) {
				printf("  %-11s", avc_set_name(set));
				for (int p = 0; p < AVC_NPOINTS; p++) {
					const struct cell *x = &res[p][set][c], *r = &res[p][set][AVC_MAX_COLS];
					char b[32];

					snprintf(b, sizeof(b), "%+.1f/%+.1f", x->p95, r->p95);
					printf(" %11s", b);
					if (x->p95 - r->p95 > wgap) {
						wgap = x->p95 - r->p95;
						gp = p;
						gs = set;
					}
				}
				printf("\n");
			}
			printf("  largest gap over random's: %+.1f points (set %s at %s: %+.1f%% against %+.1f%%)\n",
			       wgap, avc_set_name(gs), pname(gp), res[gp][gs][c].p95,
			       res[gp][gs][AVC_MAX_COLS].p95);
		}
	}
	if (inew >= 0 && iav >= 0) {
		int better = 0, worse = 0, cells = 0;

		printf("\n  av_hash vs hash3 (sumsq, paired through the same random reference): cells where one is\n"
		       "  lower by more than both CIs together:\n");
		for (int p = 0; p < AVC_NPOINTS; p++)
			for (int set = 0; set < AVC_NSETS_ALL; set++) {
				const struct cell *h = &res[p][set][inew], *a = &res[p][set][iav];
				double gap = h->excess - a->excess;

				cells++;
				if (fabs(gap) <= h->ci + a->ci)
					continue;
				if (gap > 0)
					better++;
				else
					worse++;
				printf("    %-11s %-11s av_hash %+6.2f%%  hash3 %+6.2f%%  -> %s lower\n",
				       pname(p), avc_set_name(set), a->excess, h->excess,
				       gap > 0 ? "av_hash" : "hash3");
			}
		printf("  av_hash lower in %d, hash3 lower in %d, within noise in %d of %d cells\n",
		       better, worse, cells - better - worse, cells);
	}

	/* Zhang's three points, in his units */
	section("AVC at Hongru Zhang's nodes/buckets points (bucket use = buckets used / buckets)");
	printf("His numbers are a phone's AVC (his v4 3/3 message), ours the model's key sets (means over\n"
	       "the samples above): the same hashes, not the same keys.\n");
	printf("  %-10s %-11s | %-*s | %s\n", "point", "set", 8 * (ncol + 1), "bucket use",
	       "longest chain (mean)");
	printf("  %-10s %-11s |", "", "");
	for (int c = 0; c < ncol; c++)
		printf(" %7s", col[0][c]->label);
	printf(" %7s |", "random");
	for (int c = 0; c < ncol; c++)
		printf(" %7s", col[0][c]->label);
	printf(" %7s\n", "random");
	for (int p = 0; p < AVC_NPOINTS; p++) {
		const struct avc_point *pt = &avc_points[p];

		if (!pt->zhang_old_use)
			continue;
		for (int set = 0; set < AVC_NSETS_ALL; set++) {
			printf("  %-10s %-11s |", set ? "" : pname(p), avc_set_name(set));
			for (int c = 0; c <= AVC_MAX_COLS; c++) {
				if (c >= ncol && c < AVC_MAX_COLS)
					continue;
				printf(" %6.1f%%", res[p][set][c].use_slots);
			}
			printf(" |");
			for (int c = 0; c <= AVC_MAX_COLS; c++) {
				if (c >= ncol && c < AVC_MAX_COLS)
					continue;
				printf(" %7.2f", res[p][set][c].longest);
			}
			printf("\n");
		}
		printf("  %-10s %-11s | old %.1f%%, av_hash %.1f%% | old %.1f, av_hash %.1f\n", "",
		       "Zhang phone", pt->zhang_old_use, pt->zhang_av_use, pt->zhang_old_longest,
		       pt->zhang_av_longest);
	}

	/* SAMPLE lines: old and new (hash3) only, the harness compares kernels */
	for (int c = 0; c < ncol; c++) {
		const char *kernel = !strcmp(col[0][c]->name, "old") ? "old" :
				     !strcmp(col[0][c]->name, "new") ? "new" : NULL;

		if (!ctx->sample_lines || !kernel)
			continue;
		for (int p = 0; p < AVC_NPOINTS; p++) {
			double worst = -1e9;

			if (avc_points[p].bits != 9 && avc_points[p].bits != 14)
				continue;
			if (avc_points[p].nodes != 1u << avc_points[p].bits)
				continue;
			for (int set = 0; set < AVC_NSETS_ALL; set++)
				if (res[p][set][c].excess > worst)
					worst = res[p][set][c].excess;
			printf("SAMPLE,%s,AVC %s sumsq vs random (worst set),%%,%.6g\n", kernel,
			       pname(p), worst);
			printf("SAMPLE,%s,AVC %s sumsq vs random (policy set),%%,%.6g\n", kernel,
			       pname(p), res[p][AVC_SET_POLICY][c].excess);
			printf("SAMPLE,%s,AVC %s sumsq vs random (dominant set),%%,%.6g\n", kernel,
			       pname(p), res[p][AVC_DOMINANT][c].excess);
		}
	}
}
