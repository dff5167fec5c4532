/* SPDX-License-Identifier: GPL-2.0 */
/* report.h - state shared by the model's report sections. */
#ifndef REPORT_H
#define REPORT_H

#include <stdint.h>

#include "avc-keys.h"
#include "model.h"
#include "policy-keys.h"

#define MAX_IMPL 16

/* the "Done when" criteria, per column */
struct verdict {
	double avtab_worst_pct;		/* max over 2^14..2^20 of sumsq vs random, % */
	double cond_worst_pct;		/* the same for te_cond_avtab */
	double avc_worst_ideal;		/* min over key sets of used / ideal, % */
	int lookup_file[2];		/* hit, worse of dep/dep-big vs old, kernel (file) order: 1 pass, 0 tie, -1 fail */
	int lookup_own[2];		/* the same with nodes in the column's own bucket order */
	int have_lookup;
};

struct model_ctx {
	const struct hash_impl *impl[MAX_IMPL];
	int nimpl;
	int old;			/* index of the OLD tree's column */
	struct policy_keys pk;
	int quick;
	unsigned int seeds;		/* random-ideal seeds */
	unsigned int rounds;		/* interleaved timing rounds */
	unsigned int avc_samples;
	struct verdict v[MAX_IMPL];
	const char *plot_dir;		/* --plot-dir: histogram data and gnuplot scripts */
	int sample_lines;		/* --sample-lines: SAMPLE,<old|new>,... lines */
	struct avc_key *avc_triples;	/* the policy set's triples (avc_set_keys) */
	uint32_t navc_triples;
};

void sec_file_order(struct model_ctx *ctx);
void sec_avtab(struct model_ctx *ctx);
void sec_collisions(struct model_ctx *ctx);
void sec_avc(struct model_ctx *ctx);
void sec_hash_time(struct model_ctx *ctx);
void sec_lookup(struct model_ctx *ctx);
void sec_avc_sizes(struct model_ctx *ctx);
void sec_avc_lookup(struct model_ctx *ctx);

/* @n keys of AVC set @set (0..AVC_NSETS_ALL-1, the policy set included),
 * deterministic in (@set, @sample): SIDs from 1..AVC_NSIDS (sec-avc-sizes.c) */
#define AVC_NSIDS 1024
void avc_set_keys(struct model_ctx *ctx, int set, uint32_t sample, uint32_t n,
		  struct avc_key *out);

/* helpers (report.c) */
void section(const char *title);
int cmp_double(const void *a, const void *b);
int cmp_u64(const void *a, const void *b);
/* median and quartiles of @v[0..n-1] (sorted in place) */
void quartiles(double *v, unsigned int n, double *q1, double *med, double *q3);
unsigned int ilog2u(uint32_t v);
/* with --sample-lines, for the OLD and NEW columns only:
 * SAMPLE,<old|new>,<metric>,<unit>,<value> (no commas in metric or unit) */
void sample_line(const struct model_ctx *ctx, int impl, const char *metric,
		 const char *unit, double value);
/* the index of the column named @name, or -1 */
int impl_index(const struct model_ctx *ctx, const char *name);

#endif /* REPORT_H */
