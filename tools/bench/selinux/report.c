// SPDX-License-Identifier: GPL-2.0
/* report.c - small helpers shared by the report sections. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"

void section(const char *title)
{
	printf("\n==== %s ====\n", title);
}

int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

void quartiles(double *v, unsigned int n, double *q1, double *med, double *q3)
{
	qsort(v, n, sizeof(*v), cmp_double);
	*q1 = v[n / 4];
	*med = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
	*q3 = v[(3 * n) / 4 < n ? (3 * n) / 4 : n - 1];
}

unsigned int ilog2u(uint32_t v)
{
	return 31 - (unsigned int)__builtin_clz(v);
}

int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

void sample_line(const struct model_ctx *ctx, int impl, const char *metric,
		 const char *unit, double value)
{
	const char *name = ctx->impl[impl]->name;

	if (!ctx->sample_lines || (strcmp(name, "old") && strcmp(name, "new")))
		return;
	printf("SAMPLE,%s,%s,%s,%.6g\n", name, metric, unit, value);
}

int impl_index(const struct model_ctx *ctx, const char *name)
{
	for (int i = 0; i < ctx->nimpl; i++)
		if (!strcmp(ctx->impl[i]->name, name))
			return i;
	return -1;
}
