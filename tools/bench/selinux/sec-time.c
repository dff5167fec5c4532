// SPDX-License-Identifier: GPL-2.0
/*
 * sec-time.c - speed on this CPU: ns per hash (inlined as in the kernel) and
 * ns per avtab_search_node() in the kernel's avtab built by the kernel's own
 * avtab_alloc()/avtab_insert(), with nodes in the policy file's order (what
 * the kernel allocates at policy load) and in each hash's own bucket order;
 * ns per avc_search_node() in each tree's AVC at 2^9..2^14 slots and at
 * Hongru Zhang's nodes/buckets points (sec_avc_lookup()).
 * All measurements are interleaved round-robin; medians are reported.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "avc-model.h"
#include "chain-stats.h"
#include "keyed-random.h"
#include "report.h"
#include "tsc.h"

struct series {
	double *v;
	double q1, med, q3;
};

static void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size);

	if (!p) {
		fprintf(stderr, "sec-time: out of memory\n");
		exit(1);
	}
	return p;
}

static void finish(struct series *s, unsigned int rounds)
{
	quartiles(s->v, rounds, &s->q1, &s->med, &s->q3);
}

static const char *fmt(const struct series *s)
{
	static char buf[8][32];
	static int k;
	char *b = buf[k++ & 7];
	double spread = s->med > 0 ? 100.0 * (s->q3 - s->q1) / (2 * s->med) : 0;

	snprintf(b, 32, "%6.1f ±%.0f%%", s->med, spread);
	return b;
}

/*
 * The machine is shared: a sample (warm-up plus timed run) during which this
 * thread was preempted is thrown away and taken again, up to MAX_RETRY
 * times.  @disturbed counts the samples that never ran undisturbed.
 */
#define MAX_RETRY 30
#define MAX_RETRY_QUICK 5

static int max_retry = MAX_RETRY;
static unsigned int retakes;

static long nivcsw(void)
{
	struct rusage ru;

	getrusage(RUSAGE_THREAD, &ru);
	return ru.ru_nivcsw;
}

struct job {
	int what;			/* J_* */
	const struct hash_impl *h;
	int dep;
	struct ktable *t;
	const struct model_key *keys;
	uint32_t start, n;
	const struct avc_impl *avc;	/* J_AVC_*: the AVC, its table and keys */
	const struct avc_table *avt;
	const struct avc_key *akeys;
};

enum { J_AVTAB_HASH, J_AVC_HASH, J_LOOKUP, J_DEP, J_AVC_HIT, J_AVC_DEP };

static uint64_t run_job(const struct job *j)
{
	switch (j->what) {
	case J_AVTAB_HASH:
		return j->h->time_avtab_hash(j->n, j->dep);
	case J_AVC_HASH:
		return j->h->time_avc_hash(j->n, j->dep);
	case J_LOOKUP:
		return j->h->bench_lookup(j->t, j->keys, j->n);
	case J_AVC_HIT:
		return j->avc->bench_hit(j->akeys, j->n);
	case J_AVC_DEP:
		return j->avc->bench_dep(j->akeys, j->start, j->n);
	default:
		return j->h->bench_dep(j->t, j->keys, j->start, j->n);
	}
}

/* ns per operation: a warm-up run, then the timed run, undisturbed */
static double sample(const struct job *j, double per_ns, unsigned int *disturbed)
{
	uint64_t c = 0;

	for (int tries = 0; tries < max_retry; tries++) {
		long before = nivcsw();

		if (j->avt)	/* the AVC's slot heads: one static selinux_avc per build */
			j->avc->load(j->avt);
		run_job(j);
		c = run_job(j);
		if (nivcsw() == before)
			return c / per_ns / j->n;
		retakes++;
	}
	++*disturbed;
	return c / per_ns / j->n;
}

enum { T_AVTAB_LAT, T_AVTAB_THR, T_AVC_LAT, T_AVC_THR, T_KINDS };

void sec_hash_time(struct model_ctx *ctx)
{
	uint32_t iters = 1u << 16;
	unsigned int nconf = ctx->nimpl * T_KINDS;
	struct series *s = xcalloc(nconf, sizeof(*s));
	double per_ns = tsc_per_ns();
	unsigned int disturbed = 0;

	max_retry = ctx->quick ? MAX_RETRY_QUICK : MAX_RETRY;
	retakes = 0;
	for (unsigned int c = 0; c < nconf; c++)
		s[c].v = xcalloc(ctx->rounds, sizeof(double));
	for (unsigned int r = 0; r < ctx->rounds; r++) {
		for (unsigned int k = 0; k < nconf; k++) {
			unsigned int c = (k + r) % nconf;
			int kind = c % T_KINDS;
			struct job j = {
				.what = kind < T_AVC_LAT ? J_AVTAB_HASH : J_AVC_HASH,
				.h = ctx->impl[c / T_KINDS],
				.dep = kind == T_AVTAB_LAT || kind == T_AVC_LAT,
				.n = iters,
			};

			s[c].v[r] = sample(&j, per_ns, &disturbed);
		}
	}
	section("Hash cost: ns per hash on this CPU (inlined, as in the kernel)");
	printf("TSC %.3f GHz; %u hashes per measurement, %u interleaved rounds; median ±half the interquartile range;\n"
	       "samples disturbed by preemption are retaken (retakes: %u; still disturbed after %d tries: %u of %u).\n"
	       "lat = each key depends on the previous hash (latency, incl. ~2 cycles of loop feedback);\n"
	       "thr = independent keys from an L1-resident array (throughput). avtab at 2^15 slots, AVC at 512.\n",
	       per_ns, iters, ctx->rounds, retakes, max_retry, disturbed, nconf * ctx->rounds);
	printf("  %-10s %14s %14s %14s %14s\n", "hash", "avtab lat", "avtab thr",
	       "avc lat", "avc thr");
	for (int i = 0; i < ctx->nimpl; i++) {
		for (int k = 0; k < T_KINDS; k++)
			finish(&s[i * T_KINDS + k], ctx->rounds);
		printf("  %-10s %14s %14s %14s %14s\n", ctx->impl[i]->name,
		       fmt(&s[i * T_KINDS + T_AVTAB_LAT]),
		       fmt(&s[i * T_KINDS + T_AVTAB_THR]),
		       fmt(&s[i * T_KINDS + T_AVC_LAT]),
		       fmt(&s[i * T_KINDS + T_AVC_THR]));
	}
	for (int i = 0; i < ctx->nimpl; i++) {
		sample_line(ctx, i, "ns per avtab hash (latency)", "ns (median)",
			    s[i * T_KINDS + T_AVTAB_LAT].med);
		sample_line(ctx, i, "ns per AVC hash (latency)", "ns (median)",
			    s[i * T_KINDS + T_AVC_LAT].med);
	}
	for (unsigned int c = 0; c < nconf; c++)
		free(s[c].v);
	free(s);
}

enum { L_HIT, L_DEP, L_DEPBIG, L_MISS, L_KINDS };
#define DEPBIG_STEPS 32768	/* keys, buckets and nodes touched: ~7 MiB, beyond L2 */
enum { LAY_FILE, LAY_OWN, LAY_N };

/* 1: not above old; 0: above, but the interquartile ranges overlap (noise);
 * -1: above and separated */
static int judge(const struct series *x, const struct series *old)
{
	if (x->med <= old->med)
		return 1;
	return x->q1 <= old->q3 ? 0 : -1;
}

static const char *judged(int j)
{
	return j > 0 ? "ok" : j == 0 ? "tie" : "FAIL";
}

void sec_lookup(struct model_ctx *ctx)
{
	const struct policy_keys *pk = &ctx->pk;
	uint32_t n = pk->navtab, nlook = 1u << 14;
	struct model_rec *recs = xcalloc(n, sizeof(*recs));
	struct model_key *bykey = xcalloc(n, sizeof(*bykey));
	struct model_key *hit = xcalloc(nlook, sizeof(*hit));
	struct model_key *miss = xcalloc(nlook, sizeof(*miss));
	uint32_t *order = xcalloc(n, sizeof(*order)), *cyc = xcalloc(n, sizeof(*cyc));
	struct ktable *t[MAX_IMPL][LAY_N];
	unsigned int nconf = ctx->nimpl * LAY_N * L_KINDS;
	struct series *s = xcalloc(nconf, sizeof(*s));
	uint64_t rs = 0x10c4u;
	uint32_t ncyc = 0, start, got;
	unsigned int disturbed = 0;
	double per_ns = tsc_per_ns();
	const struct hash_impl *old = ctx->impl[ctx->old];

	max_retry = ctx->quick ? MAX_RETRY_QUICK : MAX_RETRY;
	retakes = 0;
	/* the dependent walk: a random cycle (Sattolo) through the records
	 * whose datum is a u32, the next record id stored in datum.u.data */
	memcpy(recs, pk->avtab, n * sizeof(*recs));
	for (uint32_t i = 0; i < n; i++) {
		bykey[i] = recs[i].key;
		if (!recs[i].xperms)
			cyc[ncyc++] = i;
	}
	for (uint32_t i = ncyc - 1; i > 0; i--) {
		uint32_t j = (uint32_t)(((splitmix64(rs++) >> 32) * i) >> 32), x = cyc[i];

		cyc[i] = cyc[j];
		cyc[j] = x;
	}
	for (uint32_t i = 0; i < ncyc; i++)
		recs[cyc[i]].data = cyc[(i + 1) % ncyc];
	start = cyc[0];
	for (uint32_t i = 0; i < nlook; i++)
		hit[i] = recs[(splitmix64(rs++) >> 32) * n >> 32].key;

	for (int i = 0; i < ctx->nimpl; i++) {
		const struct hash_impl *h = ctx->impl[i];

		for (uint32_t k = 0; k < n; k++)
			order[k] = k;
		t[i][LAY_FILE] = h->table_build(recs, n, order);
		h->table_walk(t[i][LAY_FILE], order);
		t[i][LAY_OWN] = h->table_build(recs, n, order);
		for (int l = 0; l < LAY_N; l++) {
			got = h->table_check(t[i][l], bykey, n);
			if (got != n) {
				fprintf(stderr, "sec-time: %s finds %u of %u records\n",
					h->name, got, n);
				exit(1);
			}
		}
	}
	for (uint32_t i = 0; i < nlook;) {
		struct model_key k = {
			.source_type = 1 + (uint16_t)((splitmix64(rs++) >> 32) * pk->ntypes >> 32),
			.target_type = 1 + (uint16_t)((splitmix64(rs++) >> 32) * pk->ntypes >> 32),
			.target_class = 1 + (uint16_t)((splitmix64(rs++) >> 32) * pk->nclasses >> 32),
			.specified = 1,		/* AVTAB_ALLOWED */
		};

		if (!old->table_check(t[ctx->old][LAY_FILE], &k, 1))
			miss[i++] = k;
	}
	for (int i = 0; i < ctx->nimpl; i++)
		if (ctx->impl[i]->table_check(t[i][LAY_FILE], miss, nlook)) {
			fprintf(stderr, "sec-time: %s finds a key that OLD does not\n",
				ctx->impl[i]->name);
			exit(1);
		}

	for (unsigned int c = 0; c < nconf; c++)
		s[c].v = xcalloc(ctx->rounds, sizeof(double));
	for (unsigned int r = 0; r < ctx->rounds; r++) {
		for (unsigned int k = 0; k < nconf; k++) {
			unsigned int c = (k + r) % nconf;
			int i = c / (LAY_N * L_KINDS), l = c / L_KINDS % LAY_N;
			int kind = c % L_KINDS;
			int dep = kind == L_DEP || kind == L_DEPBIG;
			struct job j = {
				.what = dep ? J_DEP : J_LOOKUP,
				.h = ctx->impl[i],
				.t = t[i][l],
				.keys = dep ? bykey : kind == L_HIT ? hit : miss,
				.start = start,
				.n = kind == L_DEPBIG ? DEPBIG_STEPS :
				     kind == L_DEP ? nlook / 4 : nlook,
			};

			s[c].v[r] = sample(&j, per_ns, &disturbed);
		}
	}
	for (unsigned int c = 0; c < nconf; c++)
		finish(&s[c], ctx->rounds);

	section("avtab lookups: ns per avtab_search_node() on this CPU");
	printf("The kernel's avtab (avtab_alloc: %u slots) and avtab_insert()/avtab_search_node() from the\n"
	       "OLD tree (from NEW for the NEW column), %zu-byte struct avtab_node objects allocated back to back.\n"
	       "file order = nodes allocated in the order the policy file stores the records (what the kernel\n"
	       "does at policy load); own order = nodes allocated in the column's own bucket order (a relayout).\n"
	       "hit: %u random existing keys, independent; dep: %u lookups, each key taken from the previous\n"
	       "result (datum), working set within L2; dep-big: the same walk for %u steps, working set beyond\n"
	       "L2; miss: %u absent (source, target, class). Each sample: a warm-up pass, then the timed pass.\n"
	       "Median ±half IQR of %u interleaved rounds; samples disturbed by preemption are retaken\n"
	       "(retakes: %u; still disturbed after %d tries: %u of %u).\n",
	       old->table_nslot(t[ctx->old][LAY_FILE]), (size_t)old->node_size, nlook,
	       nlook / 4, DEPBIG_STEPS, nlook, ctx->rounds, retakes, max_retry, disturbed,
	       nconf * ctx->rounds);
	printf("  %-10s %-10s %13s %13s %13s %13s  vs old, file order: hit dep dep-big\n",
	       "hash", "layout", "hit ns", "dep ns", "dep-big ns", "miss ns");
	for (int i = 0; i < ctx->nimpl; i++) {
		for (int l = 0; l < LAY_N; l++) {
			const struct series *x = &s[(i * LAY_N + l) * L_KINDS];
			const struct series *o = &s[(ctx->old * LAY_N + LAY_FILE) * L_KINDS];
			int jh = judge(&x[L_HIT], &o[L_HIT]), jd = judge(&x[L_DEP], &o[L_DEP]);
			int jb = judge(&x[L_DEPBIG], &o[L_DEPBIG]);
			int *v = l == LAY_FILE ? ctx->v[i].lookup_file : ctx->v[i].lookup_own;

			printf("  %-10s %-10s %13s %13s %13s %13s  %+4.0f%% %s %+4.0f%% %s %+4.0f%% %s\n",
			       l ? "" : ctx->impl[i]->name,
			       l == LAY_FILE ? "file order" : "own order",
			       fmt(&x[L_HIT]), fmt(&x[L_DEP]), fmt(&x[L_DEPBIG]),
			       fmt(&x[L_MISS]),
			       100 * (x[L_HIT].med / o[L_HIT].med - 1), judged(jh),
			       100 * (x[L_DEP].med / o[L_DEP].med - 1), judged(jd),
			       100 * (x[L_DEPBIG].med / o[L_DEPBIG].med - 1), judged(jb));
			v[0] = jh;
			v[1] = jd < jb ? jd : jb;
		}
		ctx->v[i].have_lookup = 1;
	}
	printf("  ok: median not above old's (file order); tie: above, interquartile ranges overlap; FAIL: above, separated.\n");
	for (int i = 0; i < ctx->nimpl; i++) {
		static const char *const what[L_KINDS] = {
			"hit", "dependent", "dependent beyond L2", "miss",
		};

		for (int l = 0; l < LAY_N; l++)
			for (int k = 0; k < L_KINDS; k++) {
				char metric[128];

				snprintf(metric, sizeof(metric),
					 "ns per avtab lookup %s (%s)", what[k],
					 l == LAY_FILE ? "file order" : "bucket order");
				sample_line(ctx, i, metric, "ns (median)",
					    s[(i * LAY_N + l) * L_KINDS + k].med);
			}
	}

	for (int i = 0; i < ctx->nimpl; i++)
		for (int l = 0; l < LAY_N; l++)
			ctx->impl[i]->table_free(t[i][l]);
	for (unsigned int c = 0; c < nconf; c++)
		free(s[c].v);
	free(s);
	free(recs);
	free(bykey);
	free(hit);
	free(miss);
	free(order);
	free(cyc);
}

/*
 * AVC lookups: ns per avc_search_node() (the tree's, inlined as in
 * avc_lookup()) in each column's AVC at every point of avc_points[], filled
 * with the first sample of a key set, interleaved round-robin.
 */
#define AVC_LOOKUPS 16384	/* lookups per measurement */
enum { A_HIT, A_DEP, A_KINDS };

static const int avc_time_sets[] = { AVC_SET_POLICY, AVC_DOMINANT, AVC_UNIFORM, AVC_STRIDE2 };
#define AVC_TIME_SETS_QUICK 2	/* the first two */

struct avc_conf {
	const struct avc_impl *impl;
	struct avc_table *t;
	struct chain_stats st;
};

static const char *iqr(const struct series *s)
{
	static char buf[16][48];
	static int k;
	char *b = buf[k++ & 15];

	snprintf(b, 48, "%.2f [%.2f..%.2f]", s->med, s->q1, s->q3);
	return b;
}

static const char *versus(const struct series *x, const struct series *ref)
{
	static char buf[8][32];
	static int k;
	char *b = buf[k++ & 7];
	int j = judge(x, ref);

	snprintf(b, 32, "%+.0f%% %s", 100 * (x->med / ref->med - 1),
		 j > 0 ? "ok" : j == 0 ? "tie" : "slower");
	return b;
}

void sec_avc_lookup(struct model_ctx *ctx)
{
	int nsets = ctx->quick ? AVC_TIME_SETS_QUICK :
		    (int)(sizeof(avc_time_sets) / sizeof(avc_time_sets[0]));
	const struct avc_impl *cols[AVC_MAX_COLS];
	int ncol = avc_impl_list(AVC_BITS_MIN, cols, AVC_MAX_COLS);
	unsigned int nconf = AVC_NPOINTS * nsets * ncol;
	struct avc_conf *conf = xcalloc(nconf, sizeof(*conf));
	struct series *s = xcalloc(nconf * A_KINDS, sizeof(*s));
	struct avc_key **hit = xcalloc(AVC_NPOINTS * nsets, sizeof(*hit));
	struct avc_key **bykey = xcalloc(AVC_NPOINTS * nsets, sizeof(*bykey));
	double per_ns = tsc_per_ns();
	unsigned int disturbed = 0;
	uint64_t rs = 0xa7c0u;

	max_retry = ctx->quick ? MAX_RETRY_QUICK : MAX_RETRY;
	retakes = 0;
	for (int p = 0; p < AVC_NPOINTS; p++) {
		const struct avc_point *pt = &avc_points[p];
		uint32_t n = pt->nodes, slots = 1u << pt->bits;
		uint32_t *next = xcalloc(n, sizeof(*next)), *cyc = xcalloc(n, sizeof(*cyc));
		uint32_t *count = xcalloc(slots, sizeof(*count)), *bucket = xcalloc(n, sizeof(*bucket));
		const struct avc_impl *pc[AVC_MAX_COLS];

		if (avc_impl_list(pt->bits, pc, AVC_MAX_COLS) != ncol) {
			fprintf(stderr, "sec-time: the AVC columns differ between sizes\n");
			exit(1);
		}
		for (int si = 0; si < nsets; si++) {
			struct avc_key *keys = xcalloc(n, sizeof(*keys));
			struct avc_key *h = xcalloc(AVC_LOOKUPS, sizeof(*h));
			uint32_t *perm = xcalloc(n, sizeof(*perm));

			avc_set_keys(ctx, avc_time_sets[si], 0, n, keys);
			/* the dependent walk: a random cycle (Sattolo) through the keys */
			for (uint32_t i = 0; i < n; i++)
				cyc[i] = i;
			for (uint32_t i = n - 1; i > 0; i--) {
				uint32_t j = (uint32_t)(((splitmix64(rs++) >> 32) * i) >> 32), x = cyc[i];

				cyc[i] = cyc[j];
				cyc[j] = x;
			}
			for (uint32_t i = 0; i < n; i++)
				next[cyc[i]] = cyc[(i + 1) % n];
			/* hit: every key once per pass, each pass shuffled anew */
			for (uint32_t i = 0; i < AVC_LOOKUPS; i++) {
				uint32_t k = i % n;

				if (!k) {
					for (uint32_t a = 0; a < n; a++)
						perm[a] = a;
					for (uint32_t a = n - 1; a > 0; a--) {
						uint32_t b = (uint32_t)(((splitmix64(rs++) >> 32) * (a + 1)) >> 32);
						uint32_t x = perm[a];

						perm[a] = perm[b];
						perm[b] = x;
					}
				}
				h[i] = keys[perm[k]];
			}
			hit[p * nsets + si] = h;
			bykey[p * nsets + si] = keys;
			for (int c = 0; c < ncol; c++) {
				struct avc_conf *x = &conf[(p * nsets + si) * ncol + c];
				uint32_t got;

				x->impl = pc[c];
				x->t = pc[c]->build(keys, next, n);
				pc[c]->load(x->t);
				got = pc[c]->check(keys, n);
				if (got != n || pc[c]->check(h, AVC_LOOKUPS) != AVC_LOOKUPS) {
					fprintf(stderr, "sec-time: %s AVC at %u slots finds %u of %u keys\n",
						pc[c]->name, slots, got, n);
					exit(1);
				}
				for (uint32_t k = 0; k < n; k++)
					bucket[k] = pc[c]->bucket(keys[k].ssid, keys[k].tsid, keys[k].tclass);
				chain_stats(bucket, n, slots, count, &x->st);
			}
			free(perm);
		}
		free(next);
		free(cyc);
		free(count);
		free(bucket);
	}

	for (unsigned int c = 0; c < nconf * A_KINDS; c++)
		s[c].v = xcalloc(ctx->rounds, sizeof(double));
	for (unsigned int r = 0; r < ctx->rounds; r++) {
		for (unsigned int k = 0; k < nconf * A_KINDS; k++) {
			unsigned int c = (k + r) % (nconf * A_KINDS), ci = c / A_KINDS;
			int kind = c % A_KINDS, ps = ci / ncol;
			struct job j = {
				.what = kind == A_HIT ? J_AVC_HIT : J_AVC_DEP,
				.avc = conf[ci].impl,
				.avt = conf[ci].t,
				.akeys = kind == A_HIT ? hit[ps] : bykey[ps],
				.start = 0,
				.n = AVC_LOOKUPS,
			};

			s[c].v[r] = sample(&j, per_ns, &disturbed);
		}
	}
	for (unsigned int c = 0; c < nconf * A_KINDS; c++)
		finish(&s[c], ctx->rounds);

	section("AVC lookups: ns per avc_search_node() on this CPU, in the form of Zhang's table");
	printf("Each column's avc_search_node() and struct avc_node (%u bytes) from its tree (av_hash: the OLD\n"
	       "tree's code with mainline's avc_hash()), compiled at each size; inlined into the timing loop as\n"
	       "avc_lookup() inlines it. Chains filled with the first sample of a key set at each point (the\n"
	       "nodes allocated back to back in insertion order, each at the head of its chain as\n"
	       "avc_insert() puts it). hit: %u lookups of present keys, every key once per pass, each pass\n"
	       "shuffled, independent (overlap allowed: throughput-like); dep: %u lookups, each key taken\n"
	       "from the previous lookup's node (a random cycle through all keys: latency). Each sample: the\n"
	       "table's slot heads copied into the static selinux_avc, a warm-up pass, the timed pass.\n"
	       "ns: median [q1..q3] of %u interleaved rounds; samples disturbed by preemption are retaken\n"
	       "(retakes: %u; still disturbed after %d tries: %u of %u). bucket use = used / buckets;\n"
	       "longest = this table's longest chain; cmp/hit = mean nodes compared per successful lookup,\n"
	       "(sumsq/n + 1)/2: a random hash gives about 1.5 at nodes = buckets, 3.0 at 2048/512. The\n"
	       "timed table is one sample of the set: its bucket use and cmp/hit can sit in the tails of\n"
	       "the quality section's distribution. vs: median change, ok = not above, tie = above with\n"
	       "overlapping IQRs, slower = above with separate IQRs.\n",
	       cols[0]->node_size, AVC_LOOKUPS, AVC_LOOKUPS, ctx->rounds, retakes, max_retry,
	       disturbed, nconf * A_KINDS * ctx->rounds);
	printf("NOTE: one pinned CPU in user space, the AVC hot in its caches between lookups: this is not a\n"
	       "phone under load. Left out: RCU (rcu_read_lock() and the grace periods of avc_node_delete),\n"
	       "cache and TLB pressure from the rest of the kernel and other tasks, the slot spinlocks and\n"
	       "reclaim of avc_insert()/avc_reclaim_node() under concurrent misses, the avc_has_perm() path\n"
	       "around the lookup (audit, xperms), and the slab placement of nodes allocated over time.\n");
	for (int si = 0; si < nsets; si++) {
		printf("\n  set %s: %s\n", avc_set_name(avc_time_sets[si]), avc_set_text(avc_time_sets[si]));
		printf("  %-13s %-8s %10s %7s %7s  %-24s %-24s %-12s %-12s\n", "nodes/buckets", "hash",
		       "bucket use", "longest", "cmp/hit", "hit ns median [q1..q3]",
		       "dep ns median [q1..q3]", "hit vs old", "dep vs old");
		for (int p = 0; p < AVC_NPOINTS; p++) {
			const struct avc_point *pt = &avc_points[p];
			unsigned int base = (p * nsets + si) * ncol;
			const struct series *o = &s[base * A_KINDS];
			char pn[32];

			snprintf(pn, sizeof(pn), "%u/%u", pt->nodes, 1u << pt->bits);
			for (int c = 0; c < ncol; c++) {
				const struct avc_conf *x = &conf[base + c];
				const struct series *v = &s[(base + c) * A_KINDS];

				printf("  %-13s %-8s %9.1f%% %7u %7.2f  %-24s %-24s %-12s %-12s\n",
				       c ? "" : pn, x->impl->label,
				       100.0 * x->st.used / x->st.nslot, x->st.longest,
				       ((double)x->st.sumsq / x->st.entries + 1) / 2,
				       iqr(&v[A_HIT]), iqr(&v[A_DEP]),
				       c ? versus(&v[A_HIT], &o[A_HIT]) : "",
				       c ? versus(&v[A_DEP], &o[A_DEP]) : "");
			}
			for (int c = 0; c < ncol; c++) {
				int a = -1;

				if (strcmp(conf[base + c].impl->name, "new"))
					continue;
				for (int d = 0; d < ncol; d++)
					if (!strcmp(conf[base + d].impl->name, "mainline"))
						a = d;
				if (a < 0)
					continue;
				printf("  %-13s %-8s %-77s %-12s %-12s\n", "", "", "hash3 vs av_hash:",
				       versus(&s[(base + c) * A_KINDS + A_HIT], &s[(base + a) * A_KINDS + A_HIT]),
				       versus(&s[(base + c) * A_KINDS + A_DEP], &s[(base + a) * A_KINDS + A_DEP]));
			}
			if (pt->zhang_old_use)
				printf("  %-13s %-8s Zhang's phone: old %.1f%% / %.1f, av_hash %.1f%% / %.1f (bucket use / longest)\n",
				       "", "", pt->zhang_old_use, pt->zhang_old_longest, pt->zhang_av_use,
				       pt->zhang_av_longest);
		}
	}
	if (ctx->sample_lines)
		for (int p = 0; p < AVC_NPOINTS; p++) {
			const struct avc_point *pt = &avc_points[p];

			if (!pt->zhang_old_use)
				continue;
			for (int c = 0; c < ncol; c++) {
				const char *name = cols[c]->name;
				const struct series *v = &s[(p * nsets * ncol + c) * A_KINDS];

				if (strcmp(name, "old") && strcmp(name, "new"))
					continue;
				printf("SAMPLE,%s,ns per AVC lookup hit at %u/%u (policy set),ns (median),%.6g\n",
				       name, pt->nodes, 1u << pt->bits, v[A_HIT].med);
				printf("SAMPLE,%s,ns per AVC lookup dependent at %u/%u (policy set),ns (median),%.6g\n",
				       name, pt->nodes, 1u << pt->bits, v[A_DEP].med);
			}
		}

	for (unsigned int c = 0; c < nconf; c++)
		conf[c].impl->free(conf[c].t);
	for (unsigned int c = 0; c < nconf * A_KINDS; c++)
		free(s[c].v);
	for (int k = 0; k < AVC_NPOINTS * nsets; k++) {
		free(hit[k]);
		free(bykey[k]);
	}
	free(hit);
	free(bykey);
	free(s);
	free(conf);
}
