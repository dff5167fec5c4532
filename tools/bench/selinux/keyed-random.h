/* SPDX-License-Identifier: GPL-2.0 */
/*
 * keyed-random.h - the random ideal: a strong keyed hash (splitmix64's
 * finaliser over key and seed), one independent function per seed.
 */
#ifndef KEYED_RANDOM_H
#define KEYED_RANDOM_H

#include <stdint.h>

static inline uint64_t splitmix64(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ull;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
	return x ^ (x >> 31);
}

/* bucket of the injective 64-bit key encoding @key in 2^bits slots */
static inline uint32_t keyed_random(uint64_t key, uint64_t seed,
				    unsigned int bits)
{
	return (uint32_t)(splitmix64(key ^ splitmix64(seed)) >> (64 - bits));
}

/* an AVC key (u32, u32, u16) is 80 bits: hash it in two rounds */
static inline uint32_t keyed_random_avc(uint32_t ssid, uint32_t tsid,
					uint16_t tclass, uint64_t seed,
					unsigned int bits)
{
	uint64_t h = splitmix64(((uint64_t)ssid << 32 | tsid) ^ splitmix64(seed));

	return (uint32_t)(splitmix64(h ^ tclass) >> (64 - bits));
}

#endif /* KEYED_RANDOM_H */
