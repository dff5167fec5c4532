// SPDX-License-Identifier: GPL-2.0
/*
 * sec-avc.c - AVC hash quality: synthetic key sets of AVC_FILL entries in
 * the 512-slot AVC, averaged over the samples, against the ideal
 * m(1 - e^(-n/m)) buckets used and a keyed random hash.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "avc-keys.h"
#include "chain-stats.h"
#include "keyed-random.h"
#include "report.h"

#define AVC_FILL 500	/* entries: just under AVC_DEF_CACHE_THRESHOLD (512) */
#define AVC_NSIDS 1024	/* SIDs in use: sidtab hands them out from 1 */

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

static void row(const char *name, const struct acc *a, unsigned int samples,
		double ideal)
{
	char q[40];

	snprintf(q, sizeof(q), "%.2f/%.2f/%.2f", a->q1 / samples,
		 a->med / samples, a->q3 / samples);
	printf("  %-10s %8.1f %7.1f%% %8.2f %6u %16s %9.1f\n", name,
	       a->used / samples, 100.0 * a->used / samples / ideal,
	       a->longest / samples, a->max_longest, q, a->sumsq / samples);
}

void sec_avc(struct model_ctx *ctx)
{
	uint32_t slots = ctx->impl[ctx->old]->avc_slots;
	unsigned int bits = ilog2u(slots);
	double ideal = slots * (1 - exp(-(double)AVC_FILL / slots));
	struct avc_key keys[AVC_FILL];
	uint32_t bucket[AVC_FILL];
	uint32_t *count = calloc(slots, sizeof(*count));

	if (!count) {
		fprintf(stderr, "sec-avc: out of memory\n");
		exit(1);
	}
	section("AVC: buckets used and chains, synthetic key sets");
	printf("%u distinct entries in %u slots (AVC_CACHE_SLOTS), %u samples per set (fixed seeds),\n"
	       "SIDs 1..%u, classes 1..%u (the policy's); ideal buckets used m(1-e^(-n/m)) = %.1f.\n"
	       "Columns are means over the samples; max = the longest chain seen in any sample.\n",
	       AVC_FILL, slots, ctx->avc_samples, AVC_NSIDS, ctx->pk.nclasses, ideal);
	for (int i = 0; i < ctx->nimpl; i++) {
		ctx->v[i].avc_worst_ideal = 1e9;
		if (ctx->impl[i]->avc_slots != slots)
			printf("NOTE: %s has %u AVC slots\n", ctx->impl[i]->name,
			       ctx->impl[i]->avc_slots);
	}
	for (int set = 0; set < AVC_NSETS; set++) {
		struct acc a[MAX_IMPL + 1] = { 0 };

		for (unsigned int s = 0; s < ctx->avc_samples; s++) {
			struct chain_stats st;

			avc_keys(set, s, AVC_FILL, AVC_NSIDS, ctx->pk.nclasses, keys);
			for (int i = 0; i < ctx->nimpl; i++) {
				for (int k = 0; k < AVC_FILL; k++)
					bucket[k] = ctx->impl[i]->avc_bucket(keys[k].ssid,
							keys[k].tsid, keys[k].tclass);
				chain_stats(bucket, AVC_FILL, slots, count, &st);
				add(&a[i], &st);
			}
			for (int k = 0; k < AVC_FILL; k++)
				bucket[k] = keyed_random_avc(keys[k].ssid, keys[k].tsid,
							     keys[k].tclass, s, bits);
			chain_stats(bucket, AVC_FILL, slots, count, &st);
			add(&a[ctx->nimpl], &st);
		}
		printf("\n  set %s: %s\n", avc_set_name(set), avc_set_text(set));
		printf("  %-10s %8s %8s %8s %6s %16s %9s\n", "hash", "used",
		       "of ideal", "longest", "max", "q1/med/q3", "sumsq");
		for (int i = 0; i < ctx->nimpl; i++) {
			double r = 100.0 * a[i].used / ctx->avc_samples / ideal;

			row(ctx->impl[i]->name, &a[i], ctx->avc_samples, ideal);
			if (r < ctx->v[i].avc_worst_ideal)
				ctx->v[i].avc_worst_ideal = r;
		}
		row("random", &a[ctx->nimpl], ctx->avc_samples, ideal);
	}
	printf("\n  worst set, buckets used of ideal (criterion >= 98%%):");
	for (int i = 0; i < ctx->nimpl; i++)
		printf(" %s %.1f%%%s", ctx->impl[i]->name, ctx->v[i].avc_worst_ideal,
		       ctx->v[i].avc_worst_ideal >= 98.0 ? "" : " FAIL");
	printf("\n");
	free(count);
}
