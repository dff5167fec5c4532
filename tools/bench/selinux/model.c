// SPDX-License-Identifier: GPL-2.0
/*
 * model.c - the SELinux hash model: evaluates the avtab and AVC hashes of
 * the OLD tree, the NEW tree (when it has security/selinux/include/hash3.h),
 * mainline's av_hash() and the hash3() candidates on the real policy's avtab
 * keys and synthetic AVC key sets, and times them.  Instruction counts come
 * from hashcost under callgrind (see the run script).
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"

#include "impls.h"

static void usage(const char *prog)
{
	fprintf(stderr,
		"usage: %s [--quick] [--policy FILE] [--seeds N] [--rounds N] [--samples N] [--only LIST]\n"
		"          [--plot-dir DIR] [--sample-lines] [--columns LIST]\n"
		"  LIST: comma-separated sections: order,avtab,collisions,avc,avcsizes,time,lookup,avclookup\n"
		"        (default: all)\n"
		"  --plot-dir DIR: chain-length histograms (old, new, random) as DIR/*.dat and gnuplot DIR/*.gp\n"
		"  --sample-lines: also print SAMPLE,<old|new>,<metric>,<unit>,<value> lines (tools/run)\n"
		"  --columns LIST: only these comma-separated columns (old is always first)\n",
		prog);
	exit(2);
}

static unsigned int number(const char *prog, const char *opt, const char *arg,
			   unsigned int min)
{
	char *end;
	unsigned long v = strtoul(arg ? arg : "", &end, 10);

	if (!arg || !*arg || *end || v < min || v > 100000) {
		fprintf(stderr, "%s: %s needs a number >= %u (got '%s')\n", prog,
			opt, min, arg ? arg : "");
		usage(prog);
	}
	return (unsigned int)v;
}

static int wanted(const char *only, const char *name)
{
	const char *p = only;
	size_t n = strlen(name);

	if (!only)
		return 1;
	while ((p = strstr(p, name))) {
		if ((p == only || p[-1] == ',') && (p[n] == ',' || !p[n]))
			return 1;
		p += n;
	}
	return 0;
}

static void machine(void)
{
	char line[256], model[256] = "unknown CPU";
	FILE *f = fopen("/proc/cpuinfo", "r");
	cpu_set_t set;

	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, "model name", 10) && strchr(line, ':')) {
			snprintf(model, sizeof(model), "%s", strchr(line, ':') + 2);
			model[strcspn(model, "\n")] = 0;
			break;
		}
	if (f)
		fclose(f);
	printf("machine: %s, user space;", model);
	if (!sched_getaffinity(0, sizeof(set), &set) && CPU_COUNT(&set) == 1) {
		for (int c = 0; c < CPU_SETSIZE; c++)
			if (CPU_ISSET(c, &set))
				printf(" pinned to CPU %d\n", c);
	} else {
		printf(" NOT pinned to one CPU (timings are noisier)\n");
	}
}

static void verdicts(const struct model_ctx *ctx, int have_quality,
		     int have_avc, int have_lookup)
{
	section("Verdict on the model criteria (instruction counts: see the callgrind section)");
	printf("  %-10s %22s %20s %16s %22s %22s\n", "hash", "avtab worst vs random",
	       "cond worst vs random", "AVC worst ideal", "lookup file hit/dep",
	       "lookup own hit/dep");
	for (int i = 0; i < ctx->nimpl; i++) {
		const struct verdict *v = &ctx->v[i];
		static const char *const j[] = { "FAIL", "tie", "ok" };
		char a[32] = "-", c[32] = "-", avc[32] = "-", lf[32] = "-", lo[32] = "-";

		if (have_quality) {
			snprintf(a, sizeof(a), "%+.2f%% %s", v->avtab_worst_pct,
				 v->avtab_worst_pct <= 1.0 ? "ok" : "FAIL");
			snprintf(c, sizeof(c), "%+.2f%% %s", v->cond_worst_pct,
				 v->cond_worst_pct <= 1.0 ? "ok" : "FAIL");
		}
		if (have_avc)
			snprintf(avc, sizeof(avc), "%.1f%% %s", v->avc_worst_ideal,
				 v->avc_worst_ideal >= 98.0 ? "ok" : "FAIL");
		if (have_lookup && v->have_lookup) {
			snprintf(lf, sizeof(lf), "%s/%s", j[v->lookup_file[0] + 1],
				 j[v->lookup_file[1] + 1]);
			snprintf(lo, sizeof(lo), "%s/%s", j[v->lookup_own[0] + 1],
				 j[v->lookup_own[1] + 1]);
		}
		printf("  %-10s %22s %20s %16s %22s %22s\n", ctx->impl[i]->name, a,
		       c, avc, lf, lo);
		printf("VERDICT %s avtab=%s avc=%s lookup_file=%s lookup_own=%s\n",
		       ctx->impl[i]->name,
		       !have_quality ? "-" : v->avtab_worst_pct <= 1.0 ? "ok" : "FAIL",
		       !have_avc ? "-" : v->avc_worst_ideal >= 98.0 ? "ok" : "FAIL", lf, lo);
	}
}

int main(int argc, char **argv)
{
	static struct model_ctx ctx;
	const char *policy = "/etc/selinux/default/policy/policy.33";
	const char *only = NULL, *columns = NULL;
	int seeds = -1, rounds = -1, samples = -1;

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (!strcmp(a, "--quick")) {
			ctx.quick = 1;
		} else if (!strcmp(a, "--policy") && v) {
			policy = v;
			i++;
		} else if (!strcmp(a, "--seeds")) {
			seeds = number(argv[0], a, v, 3);
			i++;
		} else if (!strcmp(a, "--rounds")) {
			rounds = number(argv[0], a, v, 3);
			i++;
		} else if (!strcmp(a, "--samples")) {
			samples = number(argv[0], a, v, 1);
			i++;
		} else if (!strcmp(a, "--plot-dir") && v) {
			ctx.plot_dir = v;
			i++;
		} else if (!strcmp(a, "--columns") && v) {
			columns = v;
			i++;
		} else if (!strcmp(a, "--sample-lines")) {
			ctx.sample_lines = 1;
		} else if (!strcmp(a, "--only") && v) {
			only = v;
			i++;
		} else {
			fprintf(stderr, "%s: bad argument '%s'\n", argv[0], a);
			usage(argv[0]);
		}
	}
	if (only) {
		static const char *const known[] = { "order", "avtab", "collisions",
						     "avc", "avcsizes", "time", "lookup",
						     "avclookup" };
		char *copy = strdup(only), *tok, *save = NULL;

		for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
			size_t k;

			for (k = 0; k < sizeof(known) / sizeof(known[0]); k++)
				if (!strcmp(tok, known[k]))
					break;
			if (k == sizeof(known) / sizeof(known[0])) {
				fprintf(stderr, "%s: unknown section '%s'\n", argv[0], tok);
				usage(argv[0]);
			}
		}
		free(copy);
	}
	ctx.seeds = seeds > 0 ? (unsigned int)seeds : ctx.quick ? 30 : 200;
	ctx.rounds = rounds > 0 ? (unsigned int)rounds : ctx.quick ? 9 : 31;
	ctx.avc_samples = samples > 0 ? (unsigned int)samples : 100;

	ctx.nimpl = impl_list(ctx.impl, MAX_IMPL);
	ctx.old = 0;
	if (columns) {
		int n = 1;	/* old stays */

		for (int i = 1; i < ctx.nimpl; i++)
			if (wanted(columns, ctx.impl[i]->name))
				ctx.impl[n++] = ctx.impl[i];
		ctx.nimpl = n;
	}

	policy_keys_load(policy, &ctx.pk);

	section("SELinux hash model");
	machine();
	printf("policy: %s (version %u): %u types, %u classes, te_avtab %u entries, te_cond_avtab %u entries\n",
	       policy, ctx.pk.policyvers, ctx.pk.ntypes, ctx.pk.nclasses,
	       ctx.pk.navtab, ctx.pk.ncond);
	printf("mode: %s (random ideal: %u seeds; timing: %u rounds; AVC: %u samples per set)\n",
	       ctx.quick ? "quick" : "full", ctx.seeds, ctx.rounds, ctx.avc_samples);
	printf("columns:\n");
	for (int i = 0; i < ctx.nimpl; i++)
		printf("  %-10s %s\n", ctx.impl[i]->name, ctx.impl[i]->text);
	if (!impl_have_new())
		printf("  (no NEW column: no NEW tree with security/selinux/include/hash3.h was given)\n");

	if (wanted(only, "order"))
		sec_file_order(&ctx);
	if (wanted(only, "avtab"))
		sec_avtab(&ctx);
	if (wanted(only, "collisions"))
		sec_collisions(&ctx);
	if (wanted(only, "avc"))
		sec_avc(&ctx);
	if (wanted(only, "avcsizes"))
		sec_avc_sizes(&ctx);
	if (wanted(only, "time"))
		sec_hash_time(&ctx);
	if (wanted(only, "lookup"))
		sec_lookup(&ctx);
	if (wanted(only, "avclookup"))
		sec_avc_lookup(&ctx);
	verdicts(&ctx, wanted(only, "avtab"), wanted(only, "avc"),
		 wanted(only, "lookup"));
	return 0;
}
