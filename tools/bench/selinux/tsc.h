/* SPDX-License-Identifier: GPL-2.0 */
/* tsc.h - serialised TSC reads for timing loops. */
#ifndef TSC_H
#define TSC_H

#include <stdint.h>
#include <x86intrin.h>

static inline uint64_t tsc_start(void)
{
	_mm_lfence();
	return __rdtsc();
}

static inline uint64_t tsc_stop(void)
{
	unsigned int aux;
	uint64_t t = __rdtscp(&aux);

	_mm_lfence();
	return t;
}

/* TSC ticks per nanosecond, measured against CLOCK_MONOTONIC (tsc.c) */
double tsc_per_ns(void);

#endif /* TSC_H */
