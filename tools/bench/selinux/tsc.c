// SPDX-License-Identifier: GPL-2.0
/* tsc.c - calibrate the TSC against CLOCK_MONOTONIC. */
#include <time.h>

#include "tsc.h"

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

double tsc_per_ns(void)
{
	static double ratio;
	double t0, t1;
	uint64_t c0, c1;

	if (ratio)
		return ratio;
	t0 = now_ns();
	c0 = tsc_start();
	do
		t1 = now_ns();
	while (t1 - t0 < 50e6);
	c1 = tsc_stop();
	ratio = (double)(c1 - c0) / (t1 - t0);
	return ratio;
}
