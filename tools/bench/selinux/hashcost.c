// SPDX-License-Identifier: GPL-2.0
/*
 * hashcost.c - the callgrind driver: calls one column's avtab or AVC hash
 * (a non-inlined function around the inlined kernel hash) ITERS times, or a
 * null function with the same signature that returns its argument.  The run
 * script runs it under callgrind at two iteration counts and takes the
 * difference per call, hash minus null, so that start-up and loop overhead
 * cancel.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "impls.h"

#define NKEYS 256

__attribute__((noinline)) static uint32_t null_avtab(const void *key, uint32_t arg)
{
	(void)key;
	return arg;
}

__attribute__((noinline)) static uint32_t null_avc(uint32_t ssid, uint32_t tsid,
						   uint32_t tclass)
{
	(void)tsid;
	(void)tclass;
	return ssid;
}

static void usage(const char *prog)
{
	fprintf(stderr, "usage: %s COLUMN avtab|avc|null-avtab|null-avc ITERS\n"
		"       %s --list\n", prog, prog);
	exit(2);
}

int main(int argc, char **argv)
{
	const struct hash_impl *impl[16], *h = NULL;
	int n = impl_list(impl, 16);
	static struct model_key keys[NKEYS];
	static uint32_t ssid[NKEYS], tsid[NKEYS], tclass[NKEYS];
	uint32_t (*fa)(const void *, uint32_t) = NULL;
	uint32_t (*fc)(uint32_t, uint32_t, uint32_t) = NULL;
	uint32_t acc = 0, arg, s = 1;
	unsigned long iters;
	char *end;

	if (argc == 2 && !strcmp(argv[1], "--list")) {
		for (int i = 0; i < n; i++)
			printf("%s\n", impl[i]->name);
		return 0;
	}
	if (argc != 4)
		usage(argv[0]);
	for (int i = 0; i < n; i++)
		if (!strcmp(impl[i]->name, argv[1]))
			h = impl[i];
	if (!h) {
		fprintf(stderr, "%s: no column '%s'; columns:", argv[0], argv[1]);
		for (int i = 0; i < n; i++)
			fprintf(stderr, " %s", impl[i]->name);
		fprintf(stderr, "\n");
		return 2;
	}
	iters = strtoul(argv[3], &end, 10);
	if (!*argv[3] || *end || !iters || iters > 1000000000ul) {
		fprintf(stderr, "%s: bad ITERS '%s'\n", argv[0], argv[3]);
		usage(argv[0]);
	}
	if (!strcmp(argv[2], "avtab"))
		fa = h->cost_avtab;
	else if (!strcmp(argv[2], "null-avtab"))
		fa = null_avtab;
	else if (!strcmp(argv[2], "avc"))
		fc = h->cost_avc;
	else if (!strcmp(argv[2], "null-avc"))
		fc = null_avc;
	else
		usage(argv[0]);

	for (int i = 0; i < NKEYS; i++) {
		s = s * 1103515245u + 12345u;
		keys[i].source_type = ssid[i] = 1 + (s >> 8) % 4153;
		s = s * 1103515245u + 12345u;
		keys[i].target_type = tsid[i] = 1 + (s >> 8) % 4153;
		s = s * 1103515245u + 12345u;
		keys[i].target_class = tclass[i] = 1 + (s >> 8) % 134;
		keys[i].specified = 1;
	}
	arg = h->avtab_arg(15);
	if (fa)
		for (unsigned long i = 0; i < iters; i++)
			acc += fa(&keys[i & (NKEYS - 1)], arg);
	else
		for (unsigned long i = 0; i < iters; i++) {
			unsigned long j = i & (NKEYS - 1);

			acc += fc(ssid[j], tsid[j], tclass[j]);
		}
	printf("%u\n", acc);
	return 0;
}
