/* SPDX-License-Identifier: GPL-2.0 */
/* chain-stats.h - chain statistics of a chained hash table. */
#ifndef CHAIN_STATS_H
#define CHAIN_STATS_H

#include <stdint.h>

struct chain_stats {
	uint32_t nslot;
	uint32_t entries;
	uint32_t used;		/* buckets used */
	uint32_t longest;	/* longest chain */
	uint32_t q1, med, q3;	/* quartiles of the non-zero chain lengths */
	uint64_t sumsq;		/* sum of chain length^2 */
};

/*
 * Statistics of @n entries in buckets @bucket[0..n-1] of a @nslot-slot
 * table.  @count is scratch space of @nslot u32s.  The quartiles are lower
 * nearest-rank: with the k non-zero chain lengths sorted ascending as
 * L[0..k-1], q1 = L[(k-1)/4], med = L[(k-1)/2], q3 = L[3(k-1)/4].
 */
void chain_stats(const uint32_t *bucket, uint32_t n, uint32_t nslot,
		 uint32_t *count, struct chain_stats *st);

#endif /* CHAIN_STATS_H */
