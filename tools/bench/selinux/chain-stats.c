// SPDX-License-Identifier: GPL-2.0
/* chain-stats.c - chain statistics of a chained hash table. */
#include <string.h>

#include "chain-stats.h"

#define MAXLEN 256

/* the length at 0-based rank @rank of the sorted non-zero lengths */
static uint32_t rank_len(const uint32_t *hist, uint32_t top, uint64_t rank)
{
	uint64_t seen = 0;

	for (uint32_t len = 1; len <= top; len++) {
		seen += hist[len];
		if (rank < seen)
			return len;
	}
	return top;
}

void chain_stats(const uint32_t *bucket, uint32_t n, uint32_t nslot,
		 uint32_t *count, struct chain_stats *st)
{
	uint32_t hist[MAXLEN + 1] = { 0 };
	uint64_t k;

	memset(count, 0, nslot * sizeof(*count));
	for (uint32_t i = 0; i < n; i++)
		count[bucket[i]]++;
	memset(st, 0, sizeof(*st));
	st->nslot = nslot;
	st->entries = n;
	for (uint32_t i = 0; i < nslot; i++) {
		uint32_t c = count[i];

		if (!c)
			continue;
		st->used++;
		st->sumsq += (uint64_t)c * c;
		if (c > st->longest)
			st->longest = c;
		hist[c < MAXLEN ? c : MAXLEN]++;
	}
	k = st->used;
	if (!k)
		return;
	st->q1 = rank_len(hist, MAXLEN, (k - 1) / 4);
	st->med = rank_len(hist, MAXLEN, (k - 1) / 2);
	st->q3 = rank_len(hist, MAXLEN, 3 * (k - 1) / 4);
}
