// SPDX-License-Identifier: GPL-2.0
/*
 * inj-check.c - the input range over which the NEW tree's hash3() maps
 * distinct (a, b, c) to distinct 64-bit words before its final hash_64(),
 * for a hash3() of the form
 *
 *	x = ((u64)b << 32 | a) * GOLDEN_RATIO_64 + c;
 *	return hash_64(x ^ (x >> 32), bits);
 *
 * The fold x ^ (x >> 32) is invertible, so two triples meet exactly when
 * (P - P') * GOLDEN_RATIO_64 == c' - c (mod 2^64), P = (u64)b << 32 | a.
 * For every difference d = c' - c with |d| < 2^16 this computes P - P' =
 * d * GOLDEN_RATIO_64^-1 and its smallest split into (db << 32) + da, and
 * reports the smallest max(|da|, |db|) over all d: below it, a and b
 * cannot meet.  It first checks that the tree's hash3() has that form (on
 * random triples, all 32 result bits), and shows with the tree's own
 * hash3() that the closest pair found does collide.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include IMPL_TYPES
#include IMPL_HASH

#if !KTREE_HAS_HASH3
#error "the NEW tree has no security/selinux/include/hash3.h"
#endif

static u64 splitmix(u64 *s)
{
	u64 x = (*s += 0x9e3779b97f4a7c15ull);

	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
	return x ^ (x >> 31);
}

/* the analysed form, written out independently of the tree */
static u32 form(u32 a, u32 b, u32 c)
{
	u64 x = ((u64)b << 32 | a) * GOLDEN_RATIO_64 + c;

	x ^= x >> 32;
	return (u32)((x * GOLDEN_RATIO_64) >> 32);
}

int main(void)
{
	u64 inv = GOLDEN_RATIO_64, s = 1, best = ~0ull;
	s64 bd = 0, bda = 0, bdb = 0;
	u32 a1, b1, c1, a2, b2, c2;

	for (int i = 0; i < 1000000; i++) {
		u64 r = splitmix(&s);
		u32 a = (u32)r, b = (u32)(r >> 32), c = (u32)splitmix(&s);

		if (i & 1) {	/* half of them in the claimed range */
			a &= (1u << 22) - 1;
			b &= (1u << 22) - 1;
			c &= 0xffff;
		}
		if (hash3(a, b, c, 32) != form(a, b, c)) {
			printf("inj-check: hash3() of the NEW tree is not of the form\n"
			       "  x = ((u64)b << 32 | a) * GOLDEN_RATIO_64 + c; hash_64(x ^ (x >> 32), bits)\n"
			       "  (hash3(%u, %u, %u, 32) = %#x): no injectivity range computed\n",
			       a, b, c, hash3(a, b, c, 32));
			return 0;
		}
	}
	for (int i = 0; i < 6; i++)	/* Newton: the inverse mod 2^64 */
		inv *= 2 - GOLDEN_RATIO_64 * inv;
	if (inv * GOLDEN_RATIO_64 != 1) {
		fprintf(stderr, "inj-check: no inverse of GOLDEN_RATIO_64\n");
		return 1;
	}
	for (s64 d = -65535; d <= 65535; d++) {
		u64 v = (u64)d * inv, lo = v & 0xffffffffu;

		if (!d)
			continue;
		for (int o = 0; o < 2; o++) {	/* da = lo or lo - 2^32 */
			s64 da = o ? (s64)lo - (1ll << 32) : (s64)lo;
			s64 db = (s32)(u32)((v - (u64)da) >> 32);
			u64 m = (u64)llabs(da) > (u64)llabs(db) ? (u64)llabs(da) : (u64)llabs(db);

			if (m < best) {
				best = m;
				bd = d;
				bda = da;
				bdb = db;
			}
		}
	}
	/* the pair: P' = P + (db << 32) + da and c' = c - d, all non-negative */
	a1 = (u32)(bda < 0 ? -bda : 0);
	b1 = (u32)(bdb < 0 ? -bdb : 0);
	c1 = (u32)(bd > 0 ? bd : 0);
	a2 = (u32)(a1 + bda);
	b2 = (u32)(b1 + bdb);
	c2 = (u32)(c1 - bd);
	printf("inj-check: hash3() has the form x = ((u64)b << 32 | a) * GOLDEN_RATIO_64 + c;\n"
	       "  hash_64(x ^ (x >> 32), bits) (1000000 random triples, all 32 bits)\n");
	printf("  with c < 2^16, distinct triples meet only if a or b differs by >= %llu (2^%.2f):\n"
	       "  injective for a, b < %llu; a, b < 2^22: %s\n",
	       (unsigned long long)best, log2((double)best), (unsigned long long)best,
	       best >= (1ull << 22) ? "injective" : "NOT injective");
	printf("  the closest pair: hash3(%u, %u, %u, 32) = %#x, hash3(%u, %u, %u, 32) = %#x (%s)\n",
	       a1, b1, c1, hash3(a1, b1, c1, 32), a2, b2, c2, hash3(a2, b2, c2, 32),
	       hash3(a1, b1, c1, 32) == hash3(a2, b2, c2, 32) ? "collide" : "DIFFER: check the analysis");
	return best >= (1ull << 22) ? 0 : 1;
}
