/* SPDX-License-Identifier: GPL-2.0 */
/* tsc.h - serialised TSC reads for timing loops. */
#ifndef TSC_H
#define TSC_H

#include <stdint.h>

/* GCC/Clang builtins rather than <x86intrin.h>, which costs ~0.4 s per
 * compile and the model compiles impl.c/avc-impl.c some thirty times */
static inline uint64_t tsc_start(void)
{
	__builtin_ia32_lfence();
	return __builtin_ia32_rdtsc();
}

static inline uint64_t tsc_stop(void)
{
	unsigned int aux;
	uint64_t t = __builtin_ia32_rdtscp(&aux);

	__builtin_ia32_lfence();
	return t;
}

/* TSC ticks per nanosecond, measured against CLOCK_MONOTONIC (tsc.c) */
double tsc_per_ns(void);

#endif /* TSC_H */
