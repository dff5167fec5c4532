// SPDX-License-Identifier: GPL-2.0
/* avc-keys.c - synthetic AVC key sets (ssid, tsid, tclass). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "avc-keys.h"
#include "keyed-random.h"

#define SEQ_SUBJECTS 32
#define SEQ_TARGETS 64
#define GRID_MAX_CLASSES 4

static const struct avc_grid grids[AVC_NSETS] = {
	[AVC_STRIDE2] = { 0, 1, 2, 0, 1 },
	[AVC_STRIDE3] = { 0, 1, 3, 0, 1 },
	[AVC_STRIDE4] = { 0, 1, 4, 0, 1 },
	[AVC_STRIDE8] = { 0, 1, 8, 0, 1 },
	[AVC_STRIDE16] = { 0, 1, 16, 0, 1 },
	[AVC_STRIDE64] = { 0, 1, 64, 0, 1 },
	[AVC_STRIDE2_4C] = { 0, 1, 2, 0, 4 },
	[AVC_STRIDE4_4C] = { 0, 1, 4, 0, 4 },
	[AVC_SUBJ2] = { 2, 20, 2, 0, 1 },
	[AVC_SUBJ4] = { 4, 20, 4, 0, 1 },
	[AVC_SUBJ2_ONE] = { 2, 0, 0, 1, 1 },
};

const char *avc_set_name(int set)
{
	static const char *const names[AVC_NSETS_ALL] = {
		"uniform", "zipf", "dominant", "sequential",
		"stride2", "stride3", "stride4", "stride8", "stride16", "stride64",
		"stride2x4c", "stride4x4c", "subj2", "subj4", "subj2-one",
		"policy",
	};

	return names[set];
}

const char *avc_set_text(int set)
{
	static const char *const text[AVC_NSETS_ALL] = {
		"ssid, tsid uniform in 1..NSIDS",
		"ssid Zipf(s=1) over a random ranking of 1..NSIDS, tsid uniform",
		"one ssid (random per sample), tsid uniform",
		"ssid in base..base+31, tsid in base..base+63 (consecutive SIDs)",
		"one ssid, one class, tsid = base + 2k, k = 0..n-1 (every 2nd SID)",
		"one ssid, one class, tsid = base + 3k, k = 0..n-1",
		"one ssid, one class, tsid = base + 4k, k = 0..n-1",
		"one ssid, one class, tsid = base + 8k, k = 0..n-1",
		"one ssid, one class, tsid = base + 16k, k = 0..n-1",
		"one ssid, one class, tsid = base + 64k, k = 0..n-1",
		"one ssid, 4 classes, tsid = base + 2k, k = 0..n/4-1",
		"one ssid, 4 classes, tsid = base + 4k, k = 0..n/4-1",
		"ssid = base + 2i (i < 20), tsid = base + 2j (j < n/20), one class",
		"ssid = base + 4i (i < 20), tsid = base + 4j (j < n/20), one class",
		"ssid = base + 2i, i = 0..n-1 (strided subjects); one tsid, one class",
		"te_avtab allow/auditallow/dontaudit (source, target, class) triples at random,"
		" types as SIDs in order of first use",
	};

	return text[set];
}

struct rng {
	uint64_t s;
};

static uint64_t next(struct rng *r)
{
	r->s += 0x9e3779b97f4a7c15ull;
	return splitmix64(r->s);
}

static uint32_t below(struct rng *r, uint32_t n)
{
	return (uint32_t)(((next(r) >> 32) * n) >> 32);
}

static double unit(struct rng *r)
{
	return (next(r) >> 11) * (1.0 / 9007199254740992.0);
}

/* Zipf(s = 1) rank in 0..n-1 by inverting the cumulative weights */
static uint32_t zipf(struct rng *r, const double *cdf, uint32_t n)
{
	double u = unit(r) * cdf[n - 1];
	uint32_t lo = 0, hi = n - 1;

	while (lo < hi) {
		uint32_t mid = (lo + hi) / 2;

		if (cdf[mid] < u)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static void grid_keys(const struct avc_grid *g, struct rng *r, uint32_t n,
		      uint32_t nsids, uint32_t nclasses, struct avc_key *out)
{
	uint32_t nsubj = g->nsubj, ntarg = g->ntarg, ncls = g->ncls;
	uint32_t cls[GRID_MAX_CLASSES], sbase, tbase;

	if (!nsubj)
		nsubj = (n + ntarg * ncls - 1) / (ntarg * ncls);
	if (!ntarg)
		ntarg = (n + nsubj * ncls - 1) / (nsubj * ncls);
	if (ncls > GRID_MAX_CLASSES || ncls > nclasses) {
		fprintf(stderr, "avc-keys: %u classes in a strided set\n", ncls);
		exit(1);
	}
	for (uint32_t c = 0; c < ncls; c++) {
		uint32_t k, dup;

		do {	/* distinct classes */
			k = 1 + below(r, nclasses);
			dup = 0;
			for (uint32_t d = 0; d < c; d++)
				dup |= cls[d] == k;
		} while (dup);
		cls[c] = k;
	}
	sbase = 1 + below(r, nsids);
	tbase = g->sstride && g->tstride ? sbase : 1 + below(r, nsids);
	for (uint32_t k = 0; k < n; k++) {
		uint32_t j = k % ntarg, rest = k / ntarg;

		out[k].ssid = sbase + g->sstride * (rest / ncls);
		out[k].tsid = tbase + g->tstride * j;
		out[k].tclass = (uint16_t)cls[rest % ncls];
	}
}

void avc_grid_keys(const struct avc_grid *g, uint32_t seed, uint32_t sample,
		   uint32_t n, uint32_t nsids, uint32_t nclasses,
		   struct avc_key *out)
{
	struct rng r = { 0x9a1d0000ull + seed * 1000003ull + sample };

	grid_keys(g, &r, n, nsids, nclasses, out);
}

void avc_keys(enum avc_set set, uint32_t sample, uint32_t n, uint32_t nsids,
	      uint32_t nclasses, struct avc_key *out)
{
	struct rng r = { 0x5eed0000ull + set * 1000003ull + sample };
	uint32_t setsize = 1, *perm = NULL, fixed = 0, base = 0;
	uint64_t *seen;
	double *cdf = NULL;
	uint32_t got = 0;

	while (setsize < 4 * n)
		setsize <<= 1;
	seen = calloc(setsize, sizeof(*seen));
	if (set == AVC_ZIPF) {
		double acc = 0;

		cdf = malloc(nsids * sizeof(*cdf));
		perm = malloc(nsids * sizeof(*perm));
		if (!cdf || !perm)
			goto nomem;
		for (uint32_t i = 0; i < nsids; i++) {
			acc += 1.0 / (i + 1);
			cdf[i] = acc;
			perm[i] = i + 1;
		}
		for (uint32_t i = nsids - 1; i > 0; i--) {
			uint32_t j = below(&r, i + 1), t = perm[i];

			perm[i] = perm[j];
			perm[j] = t;
		}
	}
	if (!seen)
		goto nomem;
	fixed = 1 + below(&r, nsids);
	base = 1 + below(&r, nsids - SEQ_TARGETS);
	if (grids[set].ncls) {
		grid_keys(&grids[set], &r, n, nsids, nclasses, out);
		free(seen);
		return;
	}

	while (got < n) {
		struct avc_key k;
		uint64_t packed, h;

		switch (set) {
		case AVC_UNIFORM:
			k.ssid = 1 + below(&r, nsids);
			break;
		case AVC_ZIPF:
			k.ssid = perm[zipf(&r, cdf, nsids)];
			break;
		case AVC_DOMINANT:
			k.ssid = fixed;
			break;
		default:
			k.ssid = base + below(&r, SEQ_SUBJECTS);
			break;
		}
		k.tsid = set == AVC_SEQUENTIAL ? base + below(&r, SEQ_TARGETS) :
						 1 + below(&r, nsids);
		k.tclass = (uint16_t)(1 + below(&r, nclasses));
		packed = (uint64_t)k.ssid << 40 ^ (uint64_t)k.tsid << 16 ^ k.tclass;
		for (h = splitmix64(packed) & (setsize - 1); seen[h];
		     h = (h + 1) & (setsize - 1))
			if (seen[h] == packed + 1)
				break;
		if (seen[h])
			continue;	/* already present: the AVC holds it once */
		seen[h] = packed + 1;
		out[got++] = k;
	}
	free(seen);
	free(cdf);
	free(perm);
	return;
nomem:
	fprintf(stderr, "avc-keys: out of memory\n");
	exit(1);
}

void avc_policy_keys(const struct avc_key *triples, uint32_t ntriples,
		     uint32_t ntypes, uint32_t sample, uint32_t n,
		     uint32_t nsids, struct avc_key *out)
{
	struct rng r = { 0x9011c700ull + sample * 1000003ull };
	uint32_t *idx = malloc(ntriples * sizeof(*idx));
	uint32_t *sid = calloc(ntypes + 1, sizeof(*sid));
	uint32_t base, used = 0;

	if (!idx || !sid)
		goto nomem;
	if (n > ntriples) {
		fprintf(stderr, "avc-keys: %u policy keys asked, the policy has %u triples\n",
			n, ntriples);
		exit(1);
	}
	base = 1 + below(&r, nsids);
	for (uint32_t i = 0; i < ntriples; i++)
		idx[i] = i;
	for (uint32_t i = 0; i < n; i++) {	/* a partial Fisher-Yates shuffle */
		uint32_t j = i + below(&r, ntriples - i), t = idx[i];
		const struct avc_key *k;

		idx[i] = idx[j];
		idx[j] = t;
		k = &triples[idx[i]];
		if (k->ssid > ntypes || k->tsid > ntypes) {
			fprintf(stderr, "avc-keys: type value above %u in a policy triple\n", ntypes);
			exit(1);
		}
		if (!sid[k->ssid])
			sid[k->ssid] = base + used++;
		if (!sid[k->tsid])
			sid[k->tsid] = base + used++;
		out[i].ssid = sid[k->ssid];
		out[i].tsid = sid[k->tsid];
		out[i].tclass = k->tclass;
	}
	free(idx);
	free(sid);
	return;
nomem:
	fprintf(stderr, "avc-keys: out of memory\n");
	exit(1);
}
