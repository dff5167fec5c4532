/* SPDX-License-Identifier: GPL-2.0 */
/*
 * candidates.h - CANDIDATE hash3() formulas, selected at compile time with
 * -DHASH3_CANDIDATE=N.  These are proposals evaluated by the model, not
 * kernel code: the kernel's own hashes (OLD, NEW, mainline) are compiled from
 * the trees (gen-tree.sh) and upstream/.  Each candidate provides
 *   CAND_NAME, CAND_TEXT           column name and exact formula text
 *   avtab_hash(keyp, bits)         the avtab call site (takes bits)
 *   avc_hash(ssid, tsid, tclass)   the AVC call site
 * built on hash_32()/hash_64()/rol32()/jhash_3words() from the OLD tree.
 */
#ifndef CANDIDATES_H
#define CANDIDATES_H

#ifndef HASH3_CANDIDATE
#error "define HASH3_CANDIDATE"
#endif

#define KTREE_AVTAB_HASH_ARG_BITS 1
#define CAND_AVC_BITS ((unsigned int)__builtin_ctz(AVC_CACHE_SLOTS))

#if HASH3_CANDIDATE == 0
/* The 2020 patch (Siarhei Liakh, "SELinux: Introduce hash3() as
 * alternative to shift-xor"), with its call sites. */
#define CAND_NAME "2020"
#define CAND_TEXT "hash_32(a + rol32(b, 11) + rol32(c, 22), bits); " \
	"avtab (class, target, source), AVC (ssid, tsid, tclass)"
static inline u32 hash3(u32 a, u32 b, u32 c, int bits)
{
	return hash_32(a + rol32(b, 11) + rol32(c, 22), bits);
}
#define AVTAB_ARGS(k) (k)->target_class, (k)->target_type, (k)->source_type

#elif HASH3_CANDIDATE == 1
/* Lossless 64-bit packing, one multiply: injective while b, c < 2^16 (all
 * avtab keys; AVC keys while tsid < 65536). */
#define CAND_NAME "c-pack64"
#define CAND_TEXT "hash_64(((u64)a << 32 | b) ^ ((u64)c << 16), bits); " \
	"avtab (source, target, class), AVC (ssid, tsid, tclass)"
static inline u32 hash3(u32 a, u32 b, u32 c, unsigned int bits)
{
	return hash_64(((u64)a << 32 | b) ^ ((u64)c << 16), bits);
}
#define AVTAB_ARGS(k) (k)->source_type, (k)->target_type, (k)->target_class

#elif HASH3_CANDIDATE == 2
/* The 2020 structure widened to 64 bits: adds instead of rotates, so
 * fields below 2^21 cannot overlap. */
#define CAND_NAME "c-add64"
#define CAND_TEXT "hash_64(a + ((u64)b << 21) + ((u64)c << 42), bits); " \
	"avtab (class, target, source), AVC (ssid, tsid, tclass)"
static inline u32 hash3(u32 a, u32 b, u32 c, unsigned int bits)
{
	return hash_64(a + ((u64)b << 21) + ((u64)c << 42), bits);
}
#define AVTAB_ARGS(k) (k)->target_class, (k)->target_type, (k)->source_type

#elif HASH3_CANDIDATE == 3
/* pack64 with a second multiply after folding the high half down. */
#define CAND_NAME "c-pack2m"
#define CAND_TEXT "x = (((u64)a << 32 | b) ^ ((u64)c << 16)) * GOLDEN_RATIO_64; " \
	"hash_64(x ^ (x >> 32), bits); avtab (source, target, class), AVC (ssid, tsid, tclass)"
static inline u32 hash3(u32 a, u32 b, u32 c, unsigned int bits)
{
	u64 x = (((u64)a << 32 | b) ^ ((u64)c << 16)) * GOLDEN_RATIO_64;

	return hash_64(x ^ (x >> 32), bits);
}
#define AVTAB_ARGS(k) (k)->source_type, (k)->target_type, (k)->target_class

#elif HASH3_CANDIDATE == 4
/* Reference: the kernel's jhash_3words() (include/linux/jhash.h). */
#include KTREE_JHASH_H	/* the OLD tree's include/linux/jhash.h */
#define CAND_NAME "jhash"
#define CAND_TEXT "jhash_3words(a, b, c, 0) & ((1 << bits) - 1); " \
	"avtab (class, target, source), AVC (ssid, tsid, tclass)"
static inline u32 hash3(u32 a, u32 b, u32 c, unsigned int bits)
{
	return jhash_3words(a, b, c, 0) & (u32)((1ULL << bits) - 1);
}
#define AVTAB_ARGS(k) (k)->target_class, (k)->target_type, (k)->source_type

#elif HASH3_CANDIDATE == 5
/* The 2020 formula with the avtab fields in AVC order (source, target,
 * class), as the preliminary study evaluated it. */
#define CAND_NAME "2020-stc"
#define CAND_TEXT "hash_32(a + rol32(b, 11) + rol32(c, 22), bits); " \
	"avtab (source, target, class), AVC (ssid, tsid, tclass)"
static inline u32 hash3(u32 a, u32 b, u32 c, int bits)
{
	return hash_32(a + rol32(b, 11) + rol32(c, 22), bits);
}
#define AVTAB_ARGS(k) (k)->source_type, (k)->target_type, (k)->target_class

#elif HASH3_CANDIDATE == 6
/* The first version of the kernel patch's hash3(): a lossless packing
 * (a rotated to bits 40-63), two multiplies with a fold in between. */
#define CAND_NAME "c-rol2m"
#define CAND_TEXT "x = (rol64(a, 40) + ((u64)b << 16) + c) * GOLDEN_RATIO_64; " \
	"hash_64(x ^ (x >> 32), bits); avtab (source, target, class), AVC (ssid, tsid, tclass)"
static inline u32 hash3(u32 a, u32 b, u32 c, unsigned int bits)
{
	u64 x = (rol64(a, 40) + ((u64)b << 16) + c) * GOLDEN_RATIO_64;

	return hash_64(x ^ (x >> 32), bits);
}
#define AVTAB_ARGS(k) (k)->source_type, (k)->target_type, (k)->target_class

#elif HASH3_CANDIDATE == 7
/* Multiply-add, fold, multiply: (a, b) packed losslessly, c added to the
 * product; injective while a, b < 2^22 and c < 2^16 (see inj-check.c). */
#define CAND_NAME "c-mad"
#define CAND_TEXT "x = ((u64)b << 32 | a) * GOLDEN_RATIO_64 + c; " \
	"hash_64(x ^ (x >> 32), bits); avtab (source, target, class), AVC (ssid, tsid, tclass)"
static inline u32 hash3(u32 a, u32 b, u32 c, unsigned int bits)
{
	u64 x = ((u64)b << 32 | a) * GOLDEN_RATIO_64 + c;

	return hash_64(x ^ (x >> 32), bits);
}
#define AVTAB_ARGS(k) (k)->source_type, (k)->target_type, (k)->target_class

#else
#error "unknown HASH3_CANDIDATE"
#endif

static inline u32 avtab_hash(const struct avtab_key *keyp, u32 bits)
{
	return hash3(AVTAB_ARGS(keyp), bits);
}

static inline u32 avc_hash(u32 ssid, u32 tsid, u16 tclass)
{
	return hash3(ssid, tsid, tclass, CAND_AVC_BITS);
}

#endif /* CANDIDATES_H */
