// SPDX-License-Identifier: GPL-2.0
/*
 * sec-avc.c - AVC hash quality: synthetic key sets of AVC_FILL entries in
 * the 512-slot AVC, averaged over the samples, against the ideal
 * m(1 - e^(-n/m)) buckets used and a keyed random hash; then a scan of
 * strided-SID grids over strides 1..SCAN_STRIDES.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "avc-keys.h"
#include "chain-stats.h"
#include "keyed-random.h"
#include "plot.h"
#include "report.h"

#define AVC_FILL 500	/* entries: just under AVC_DEF_CACHE_THRESHOLD (512) */
/* AVC_NSIDS (report.h): SIDs in use, sidtab hands them out from 1 */
#define SCAN_STRIDES 128

struct acc {
	double used, longest, q1, med, q3, sumsq;
	uint32_t max_longest;
};

static void add(struct acc *a, const struct chain_stats *st)
{
	a->used += st->used;
	a->longest += st->longest;
	a->q1 += st->q1;
	a->med += st->med;
	a->q3 += st->q3;
	a->sumsq += (double)st->sumsq;
	if (st->longest > a->max_longest)
		a->max_longest = st->longest;
}

/* one sample: every column and (last) the keyed random hash of @seed;
 * chain-length histograms into @h[0..nimpl] unless NULL */
static void sample(const struct model_ctx *ctx, const struct avc_key *keys,
		   uint32_t slots, uint32_t *count, uint64_t seed, struct acc *a,
		   struct hist *h)
{
	unsigned int bits = ilog2u(slots);
	uint32_t bucket[AVC_FILL];
	struct chain_stats st;

	for (int i = 0; i < ctx->nimpl; i++) {
		for (int k = 0; k < AVC_FILL; k++)
			bucket[k] = ctx->impl[i]->avc_bucket(keys[k].ssid,
					keys[k].tsid, keys[k].tclass);
		chain_stats(bucket, AVC_FILL, slots, count, &st);
		add(&a[i], &st);
		if (h)
			hist_add(&h[i], count, slots);
	}
	for (int k = 0; k < AVC_FILL; k++)
		bucket[k] = keyed_random_avc(keys[k].ssid, keys[k].tsid,
					     keys[k].tclass, seed, bits);
	chain_stats(bucket, AVC_FILL, slots, count, &st);
	add(&a[ctx->nimpl], &st);
	if (h)
		hist_add(&h[ctx->nimpl], count, slots);
}

static void row(const char *name, const struct acc *a, unsigned int samples,
		double ideal, const struct acc *rnd)
{
	char q[40];

	snprintf(q, sizeof(q), "%.2f/%.2f/%.2f", a->q1 / samples,
		 a->med / samples, a->q3 / samples);
	printf("  %-10s %8.1f %7.1f%% %8.2f %6u %16s %9.1f %+8.1f%%\n", name,
	       a->used / samples, 100.0 * a->used / samples / ideal,
	       a->longest / samples, a->max_longest, q, a->sumsq / samples,
	       100.0 * (a->sumsq / rnd->sumsq - 1));
}

/* The scan's grid shapes, each at strides 1..SCAN_STRIDES. */
static const struct {
	const char *name, *text;
	struct avc_grid g;	/* 1 in a stride field: the scanned stride */
} shapes[] = {
	{ "T1", "one ssid, one class, tsid = base + s*k, k < n",
	  { 0, 1, 1, 0, 1 } },
	{ "T4", "one ssid, 4 classes, tsid = base + s*k, k < n/4",
	  { 0, 1, 1, 0, 4 } },
	{ "ST", "ssid = base + s*i (i < 20), tsid = base + s*j (j < n/20), one class",
	  { 1, 20, 1, 0, 1 } },
	{ "S1", "ssid = base + s*i, i < n; one tsid, one class",
	  { 1, 0, 0, 1, 1 } },
};
#define NSHAPES (sizeof(shapes) / sizeof(shapes[0]))

struct worst {
	double used, sumsq;		/* min used of ideal, max sumsq vs random (%) */
	uint32_t used_s, sumsq_s;	/* at these strides */
	const char *sumsq_shape;
};

static void scan(struct model_ctx *ctx, uint32_t slots, uint32_t *count,
		 double ideal)
{
	struct worst w[MAX_IMPL + 1][NSHAPES];
	struct avc_key keys[AVC_FILL];

	section("AVC: strided SIDs, a scan of strides 1..128");
	printf("%u samples per (shape, stride), %u entries each, bases and classes random per sample.\n"
	       "Per shape: the worst mean buckets used of ideal over the strides (and the stride).\n"
	       "worst sumsq: the worst mean sum of chain length^2 vs the keyed random hash over all\n"
	       "shapes and strides. random: the keyed random hash itself (sampling noise of the worst).\n",
	       ctx->avc_samples, AVC_FILL);
	for (unsigned int sh = 0; sh < NSHAPES; sh++)
		printf("  %s: %s\n", shapes[sh].name, shapes[sh].text);
	for (int i = 0; i <= ctx->nimpl; i++)
		for (unsigned int sh = 0; sh < NSHAPES; sh++)
			w[i][sh] = (struct worst){ .used = 1e9, .sumsq = -1e9 };
	for (unsigned int sh = 0; sh < NSHAPES; sh++) {
		for (uint32_t s = 1; s <= SCAN_STRIDES; s++) {
			struct acc a[MAX_IMPL + 1] = { 0 };
			struct avc_grid g = shapes[sh].g;

			g.sstride *= s;
			g.tstride *= s;
			for (unsigned int k = 0; k < ctx->avc_samples; k++) {
				avc_grid_keys(&g, sh * 1000 + s, k, AVC_FILL,
					      AVC_NSIDS, ctx->pk.nclasses, keys);
				sample(ctx, keys, slots, count,
				       (uint64_t)(sh * 1000 + s) << 20 | k, a, NULL);
			}
			for (int i = 0; i <= ctx->nimpl; i++) {
				double u = 100.0 * a[i].used / ctx->avc_samples / ideal;
				double q = 100.0 * (a[i].sumsq / a[ctx->nimpl].sumsq - 1);
				struct worst *x = &w[i][sh];

				if (u < x->used) {
					x->used = u;
					x->used_s = s;
				}
				if (q > x->sumsq) {
					x->sumsq = q;
					x->sumsq_s = s;
				}
			}
		}
	}
	printf("  %-10s", "hash");
	for (unsigned int sh = 0; sh < NSHAPES; sh++)
		printf(" %13s", shapes[sh].name);
	printf(" %13s %18s\n", "worst used", "worst sumsq");
	for (int i = 0; i <= ctx->nimpl; i++) {
		double wu = 1e9, wq = -1e9;
		char c[64], cq[64] = "";

		printf("  %-10s", i < ctx->nimpl ? ctx->impl[i]->name : "random");
		for (unsigned int sh = 0; sh < NSHAPES; sh++) {
			snprintf(c, sizeof(c), "%.1f%% s%u", w[i][sh].used,
				 w[i][sh].used_s);
			printf(" %13s", c);
			if (w[i][sh].used < wu)
				wu = w[i][sh].used;
			if (w[i][sh].sumsq > wq) {
				wq = w[i][sh].sumsq;
				snprintf(cq, sizeof(cq), "%+.1f%% %s s%u", wq,
					 shapes[sh].name, w[i][sh].sumsq_s);
			}
		}
		if (i == ctx->nimpl)
			snprintf(cq, sizeof(cq), "-");
		printf(" %12.1f%% %18s\n", wu, cq);
		if (i < ctx->nimpl && wu < ctx->v[i].avc_worst_ideal)
			ctx->v[i].avc_worst_ideal = wu;
	}
}

/* chain-length histograms of one set: old, new (if present), random */
static void avc_plot(const struct model_ctx *ctx, int set, const struct hist *h)
{
	int in = impl_index(ctx, "new"), k = 0;
	char name[64], title[256];
	struct hist p[3];
	const char *l[3];

	p[k] = h[ctx->old];
	l[k++] = "old";
	if (in >= 0) {
		p[k] = h[in];
		l[k++] = "new";
	}
	p[k] = h[ctx->nimpl];
	l[k++] = "random";
	snprintf(name, sizeof(name), "avc-%s-chains", avc_set_name(set));
	snprintf(title, sizeof(title),
		 "AVC, set %s: %u entries in %u slots, mean of %u samples",
		 avc_set_name(set), AVC_FILL, ctx->impl[ctx->old]->avc_slots,
		 ctx->avc_samples);
	plot_hists(ctx->plot_dir, name, title, k, l, p);
}

void sec_avc(struct model_ctx *ctx)
{
	uint32_t slots = ctx->impl[ctx->old]->avc_slots;
	double ideal = slots * (1 - exp(-(double)AVC_FILL / slots));
	struct avc_key keys[AVC_FILL];
	uint32_t *count = calloc(slots, sizeof(*count));

	if (!count) {
		fprintf(stderr, "sec-avc: out of memory\n");
		exit(1);
	}
	section("AVC: buckets used and chains, synthetic key sets");
	printf("%u distinct entries in %u slots (AVC_CACHE_SLOTS), %u samples per set (fixed seeds),\n"
	       "SIDs 1..%u, classes 1..%u (the policy's); ideal buckets used m(1-e^(-n/m)) = %.1f.\n"
	       "Columns are means over the samples; max = the longest chain seen in any sample;\n"
	       "vs random = sumsq relative to the keyed random hash's on the same keys.\n"
	       "The stride* and subj* sets are full grids of strided SIDs (sidtab allocates SIDs in\n"
	       "order, so one workload's targets often lie at a fixed stride): a multiplicative hash\n"
	       "of a linear packing maps them onto a lattice, which can use far more or far fewer\n"
	       "buckets than random.\n",
	       AVC_FILL, slots, ctx->avc_samples, AVC_NSIDS, ctx->pk.nclasses, ideal);
	for (int i = 0; i < ctx->nimpl; i++) {
		ctx->v[i].avc_worst_ideal = 1e9;
		if (ctx->impl[i]->avc_slots != slots)
			printf("NOTE: %s has %u AVC slots\n", ctx->impl[i]->name,
			       ctx->impl[i]->avc_slots);
	}
	for (int set = 0; set < AVC_NSETS; set++) {
		struct acc a[MAX_IMPL + 1] = { 0 };
		struct hist h[MAX_IMPL + 1];
		int plot = ctx->plot_dir && (set == AVC_DOMINANT || set == AVC_STRIDE2);
		char metric[128];

		memset(h, 0, sizeof(h));
		for (unsigned int s = 0; s < ctx->avc_samples; s++) {
			avc_keys(set, s, AVC_FILL, AVC_NSIDS, ctx->pk.nclasses, keys);
			sample(ctx, keys, slots, count, s, a, plot ? h : NULL);
		}
		if (plot)
			avc_plot(ctx, set, h);
		printf("\n  set %s: %s\n", avc_set_name(set), avc_set_text(set));
		printf("  %-10s %8s %8s %8s %6s %16s %9s %9s\n", "hash", "used",
		       "of ideal", "longest", "max", "q1/med/q3", "sumsq",
		       "vs random");
		for (int i = 0; i < ctx->nimpl; i++) {
			double r = 100.0 * a[i].used / ctx->avc_samples / ideal;

			row(ctx->impl[i]->name, &a[i], ctx->avc_samples, ideal,
			    &a[ctx->nimpl]);
			if (r < ctx->v[i].avc_worst_ideal)
				ctx->v[i].avc_worst_ideal = r;
		}
		row("random", &a[ctx->nimpl], ctx->avc_samples, ideal,
		    &a[ctx->nimpl]);
		if (set != AVC_DOMINANT && set != AVC_STRIDE2)
			continue;
		for (int i = 0; i < ctx->nimpl; i++) {
			snprintf(metric, sizeof(metric),
				 "AVC %s set buckets used of ideal", avc_set_name(set));
			sample_line(ctx, i, metric, "%",
				    100.0 * a[i].used / ctx->avc_samples / ideal);
			snprintf(metric, sizeof(metric),
				 "AVC %s set longest chain (mean)", avc_set_name(set));
			sample_line(ctx, i, metric, "entries",
				    a[i].longest / ctx->avc_samples);
			snprintf(metric, sizeof(metric),
				 "AVC %s set sumsq vs random", avc_set_name(set));
			sample_line(ctx, i, metric, "%",
				    100.0 * (a[i].sumsq / a[ctx->nimpl].sumsq - 1));
		}
	}
	printf("\n  worst set, buckets used of ideal:");
	for (int i = 0; i < ctx->nimpl; i++)
		printf(" %s %.1f%%", ctx->impl[i]->name, ctx->v[i].avc_worst_ideal);
	printf("\n");
	scan(ctx, slots, count, ideal);
	printf("\n  worst of sets and scan, buckets used of ideal (criterion >= 98%%):");
	for (int i = 0; i < ctx->nimpl; i++)
		printf(" %s %.1f%%%s", ctx->impl[i]->name, ctx->v[i].avc_worst_ideal,
		       ctx->v[i].avc_worst_ideal >= 98.0 ? "" : " FAIL");
	printf("\n");
	for (int i = 0; i < ctx->nimpl; i++)
		sample_line(ctx, i, "AVC worst buckets used of ideal (sets and stride scan)",
			    "%", ctx->v[i].avc_worst_ideal);
	free(count);
}
