// SPDX-License-Identifier: GPL-2.0
/* avc-keys.c - synthetic AVC key sets (ssid, tsid, tclass). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "avc-keys.h"
#include "keyed-random.h"

#define SEQ_SUBJECTS 32
#define SEQ_TARGETS 64

const char *avc_set_name(enum avc_set set)
{
	static const char *const names[AVC_NSETS] = {
		"uniform", "zipf", "dominant", "sequential",
	};

	return names[set];
}

const char *avc_set_text(enum avc_set set)
{
	static const char *const text[AVC_NSETS] = {
		"ssid, tsid uniform in 1..NSIDS",
		"ssid Zipf(s=1) over a random ranking of 1..NSIDS, tsid uniform",
		"one ssid (random per sample), tsid uniform",
		"ssid in base..base+31, tsid in base..base+63 (consecutive SIDs)",
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
