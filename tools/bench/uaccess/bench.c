// SPDX-License-Identifier: GPL-2.0
/*
 * bench: the kernel's rep_movs_alternative (arch/x86/lib/copy_user_64.S),
 * assembled unchanged from the OLD and the NEW tree (see Makefile, shim/),
 * against an inline "rep movsb" (what copy_user_generic() does on FSRM CPUs).
 *
 *   bench [options]     timing tables (fixed length, random length, return
 *                       thunks, large copies, FSRM designs; with --replay
 *                       DIR the recorded length sequences DIR/\*.len)
 *   bench --check       fault semantics: exact "bytes not copied", correct
 *                       prefix, nothing written beyond, for every length,
 *                       misalignment and fault offset; and the same when
 *                       the user buffer vanishes after any instruction of
 *                       the copy (a racing munmap)
 *   bench --icount      run every routine at every length with callgrind
 *                       client requests (run.sh runs it under valgrind)
 *
 * Timing method: a sample is one batch of --batch back-to-back copies between
 * "lfence; rdtsc; lfence" and "lfence; rdtsc" (loops.S).  The routines are
 * interleaved sample by sample, in rotating order, with a no-copy loop whose
 * median is subtracted; ticks per copy = (median - median(no copy)) / batch.
 * Source and destination stay L1-hot.  Pin the process (taskset) yourself.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>
#include <x86intrin.h>

#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#define HAVE_CALLGRIND 1
#else
#define HAVE_CALLGRIND 0
#endif

typedef uint64_t loop_fn(void *dst, const void *src, const uint64_t *lens,
			 uint64_t n);
typedef uint64_t wrap_fn(void *dst, const void *src, uint64_t len);

#define ROUTINE(x) \
	extern loop_fn loop_##x, loopf_##x, loopb_##x; \
	extern wrap_fn wrap_##x
ROUTINE(null);
ROUTINE(movsb);
ROUTINE(old);
ROUTINE(new);
ROUTINE(old_srso);
ROUTINE(new_srso);
ROUTINE(old_its);
ROUTINE(new_its);
ROUTINE(lt64);
ROUTINE(lt64_srso);
ROUTINE(lt64_its);

/* (c) of the FSRM designs: const<N> copies exactly N bytes (loops.S) */
#define CONSTS(X) \
	X(0) X(1) X(2) X(3) X(4) X(5) X(6) X(7) X(8) X(9) X(10) X(11) X(12) \
	X(13) X(14) X(15) X(16) X(17) X(18) X(19) X(20) X(21) X(22) X(23) \
	X(24) X(25) X(26) X(27) X(28) X(29) X(30) X(31) X(32) X(33) X(34) \
	X(35) X(36) X(37) X(38) X(39) X(40) X(41) X(42) X(43) X(44) X(45) \
	X(46) X(47) X(48) X(49) X(50) X(51) X(52) X(53) X(54) X(55) X(56) \
	X(57) X(58) X(59) X(60) X(61) X(62) X(63)
#define NR_CONSTS 64
#define CONST_DECL(n) ROUTINE(const##n);
CONSTS(CONST_DECL)

enum { R_NULL, R_MOVSB, R_OLD, R_NEW, R_OLD_SRSO, R_NEW_SRSO, R_OLD_ITS,
       R_NEW_ITS, R_LT64, R_LT64_SRSO, R_LT64_ITS, NR_ROUTINES,
       R_CONST0 = NR_ROUTINES, NR_ALL = R_CONST0 + NR_CONSTS };

static const struct routine {
	const char *name;
	loop_fn *loop, *loopf, *loopb;
	wrap_fn *wrap;
} routines[NR_ALL] = {
#define R(x) { #x, loop_##x, loopf_##x, loopb_##x, wrap_##x },
	R(null) R(movsb) R(old) R(new) R(old_srso) R(new_srso)
	R(old_its) R(new_its) R(lt64) R(lt64_srso) R(lt64_its)
#define RC(n) R(const##n)
	CONSTS(RC)
#undef RC
#undef R
};

/* _ASM_EXTABLE_UA() entries of the shim: relative offsets, like the kernel's */
struct extable_entry {
	int32_t insn, fixup;
};
extern const struct extable_entry __start_shim_extable[];
extern const struct extable_entry __stop_shim_extable[];

/*
 * ALTERNATIVE() entries of the shim: the original instruction in place,
 * padded to the replacement's length; the replacement elsewhere; use_new
 * = the feature is set (decided when assembling, for this host).
 */
struct alt_entry {
	int32_t instr, repl;
	uint8_t len, oldlen, repllen, use_new;
};
extern const struct alt_entry __start_shim_altinstr[];
extern const struct alt_entry __stop_shim_altinstr[];
/* the assembled routines (Makefile: -Drep_movs_alternative=<r>_...) */
extern const uint8_t old_rep_movs_alternative[], new_rep_movs_alternative[],
	old_srso_rep_movs_alternative[], new_srso_rep_movs_alternative[],
	old_its_rep_movs_alternative[], new_its_rep_movs_alternative[];

/* the parts of the timing run (--only) */
enum { S_FIXED = 1, S_RANDOM = 2, S_SRSO = 4, S_ITS = 8, S_LARGE = 16,
       S_DESIGNS = 32, S_REPLAY = 64, S_ALL = 127, S_PAIRED = 128 };
static const char *const section_names[] = {
	"fixed", "random", "srso", "its", "large", "designs", "replay",
	"paired", NULL
};

static struct {
	unsigned int samples, batch, seed;
	unsigned int src_off, dst_off;
	int quick, lfence;	/* lfence: 1 after every copy, 2 before */
	int no_warm;
	unsigned int only;
	const char *replay;
} opt = {
	.samples = 2001, .batch = 64, .seed = 1,
	.src_off = 0, .dst_off = 2048, .only = S_ALL,
};

static const char *prog = "bench";

static void usage(FILE *f)
{
	fprintf(f,
		"usage: %s [--quick] [--lfence | --lfence-before] [--samples N] [--batch N]\n"
		"          [--seed N] [--src-off N] [--dst-off N] [--replay DIR] [--only LIST]\n"
		"          [--no-warm]\n"
		"  --lfence      an lfence after every copy (latency, not throughput)\n"
		"  --lfence-before  an lfence before every copy, after its length is\n"
		"                loaded (each copy starts with its arguments ready)\n"
		"  --replay DIR  also time the length sequences DIR/*.len (one length\n"
		"                a line, '#' comments; a file per workload)\n"
		"  --only LIST   comma-separated parts: fixed,random,srso,its,large,\n"
		"                designs,replay (default: all of these; replay needs\n"
		"                --replay), paired (only when named: old and new at\n"
		"                0..63, paired differences, all lengths interleaved)\n"
		"  --no-warm     skip warm_predictors() (each table then starts with\n"
		"                the branches only the lengths before it have taken)\n"
		"       %s --check\n"
		"       %s --icount     (under valgrind --tool=callgrind, see run.sh)\n"
		"       %s --alternatives  (each ALTERNATIVE() site after patching)\n",
		prog, prog, prog, prog);
}

static void die(const char *fmt, const char *arg)
{
	fprintf(stderr, "%s: ", prog);
	fprintf(stderr, fmt, arg);
	fputc('\n', stderr);
	exit(2);
}

static unsigned int parse_uint(const char *name, const char *s,
			       unsigned int min, unsigned int max)
{
	unsigned long v;
	char *end;

	if (!s)
		die("%s needs a value", name);
	errno = 0;
	v = strtoul(s, &end, 0);
	if (errno || end == s || *end || s[0] == '-' || v < min || v > max) {
		fprintf(stderr, "%s: %s: '%s' is not a number in %u..%u\n",
			prog, name, s, min, max);
		exit(2);
	}
	return v;
}

/* "fixed,random,..." -> S_* mask */
static unsigned int parse_only(const char *list)
{
	unsigned int mask = 0;
	const char *p = list;

	if (!list || !*list)
		die("%s needs a list", "--only");
	while (*p) {
		size_t n = strcspn(p, ",");
		int k;

		for (k = 0; section_names[k]; k++)
			if (strlen(section_names[k]) == n &&
			    !strncmp(p, section_names[k], n))
				break;
		if (!section_names[k])
			die("--only: unknown part in '%s' (fixed, random, srso, its, "
			    "large, designs, replay, paired)", list);
		mask |= 1u << k;
		p += n;
		if (*p == ',')
			p++;
	}
	return mask;
}

/* ---------------------------------------------------------------- timing */

static unsigned char *srcbuf, *dstbuf;	/* 128 KiB + 4 KiB each */
#define BUF_SIZE (132 << 10)

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

struct result {
	double ticks;	/* per copy, loop overhead subtracted */
	double iqr;	/* interquartile range of a sample, per copy */
};

/* the timing loop of routine r for the --lfence mode */
static loop_fn *timing_loop(const struct routine *r)
{
	return opt.lfence == 2 ? r->loopb : opt.lfence ? r->loopf : r->loop;
}

/*
 * Time routines rs[0..nr) (rs[0] is R_NULL), interleaved.  Sample s uses the
 * batch of lengths starting at lens[(s * batch) % (nlens - batch + 1)].
 */
static void timeit(const int *rs, int nr, const uint64_t *lens, size_t nlens,
		   unsigned int batch, unsigned int samples, struct result *res)
{
	uint64_t *t = malloc(sizeof(*t) * nr * samples);
	const unsigned char *src = srcbuf + opt.src_off;
	unsigned char *dst = dstbuf + opt.dst_off;
	size_t span = nlens - batch + 1;
	double null_med = 0;
	unsigned int s;
	int i;

	if (!t) {
		perror("malloc");
		exit(1);
	}
	for (s = 0; s < 20; s++)	/* warm up caches and predictors */
		for (i = 0; i < nr; i++)
			routines[rs[i]].loop(dst, src, lens, batch);
	for (s = 0; s < samples; s++) {
		const uint64_t *l = lens + (size_t)s * batch % span;

		for (i = 0; i < nr; i++) {
			int k = (i + s) % nr;
			const struct routine *r = &routines[rs[k]];

			t[k * samples + s] = timing_loop(r)(dst, src, l, batch);
		}
	}
	for (i = 0; i < nr; i++) {
		uint64_t *v = t + i * samples;
		double med;

		qsort(v, samples, sizeof(*v), cmp_u64);
		med = v[samples / 2];
		if (i == 0)
			null_med = med;
		res[i].ticks = (med - null_med) / batch;
		res[i].iqr = (double)(v[samples * 3 / 4] - v[samples / 4]) / batch;
	}
	free(t);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double pct(double from, double to)
{
	return from > 0 ? (to - from) * 100.0 / from : 0.0;
}

struct avg {
	double old, new, movsb, noise_old, noise_new, noise_movsb;
	int n, worse;	/* lengths where new > old + noise */
};

static void print_head(const char *title)
{
	printf("\n== %s ==\n", title);
	printf("%6s | %9s | %9s | %15s | %7s\n",
	       "len", "old ticks", "new ticks", "rep movsb ticks", "delta%");
}

static void print_row(const char *len, double o, double n, double m)
{
	printf("%6s | %9.2f | %9.2f | %15.2f | %+6.1f%%\n",
	       len, o, n, m, pct(o, n));
}

/* Fixed-length table for (old, new) routines r_old, r_new and rep movsb. */
static void fixed_table(const char *title, int r_old, int r_new,
			struct avg *a, int long_tail)
{
	int rs[4] = { R_NULL, r_old, r_new, R_MOVSB };
	uint64_t *lens = malloc(sizeof(*lens) * opt.batch);
	unsigned int len, j, n_mid = 0;
	double noise_sum[3] = { 0, 0, 0 }, mid[3] = { 0, 0, 0 };

	if (!lens) {
		perror("malloc");
		exit(1);
	}
	memset(a, 0, sizeof(*a));
	print_head(title);
	for (len = 0; len <= 256; ) {
		struct result res[4];
		char buf[16];

		for (j = 0; j < opt.batch; j++)
			lens[j] = len;
		timeit(rs, 4, lens, opt.batch, opt.batch, opt.samples, res);
		snprintf(buf, sizeof(buf), "%u", len);
		print_row(buf, res[1].ticks, res[2].ticks, res[3].ticks);
		if (len < 64) {
			double noise = res[1].iqr > res[2].iqr ?
				       res[1].iqr : res[2].iqr;

			a->old += res[1].ticks;
			a->new += res[2].ticks;
			a->movsb += res[3].ticks;
			noise_sum[0] += res[1].iqr;
			noise_sum[1] += res[2].iqr;
			noise_sum[2] += res[3].iqr;
			if (res[2].ticks > res[1].ticks + noise)
				a->worse++;
			a->n++;
		} else if (len < 128) {
			mid[0] += res[1].ticks;
			mid[1] += res[2].ticks;
			mid[2] += res[3].ticks;
			n_mid++;
		}
		if (len < 64)
			len++;
		else if (!long_tail)
			break;
		else if (len == 64)
			len = 72;
		else
			len += opt.quick ? 32 : 8;
	}
	a->old /= a->n;
	a->new /= a->n;
	a->movsb /= a->n;
	a->noise_old = noise_sum[0] / a->n;
	a->noise_new = noise_sum[1] / a->n;
	a->noise_movsb = noise_sum[2] / a->n;
	printf("%6s | %9.2f | %9.2f | %15.2f | %+6.1f%%\n", "avg<64",
	       a->old, a->new, a->movsb, pct(a->old, a->new));
	if (n_mid)
		printf("%6s | %9.2f | %9.2f | %15.2f | %+6.1f%%   (lengths 64..127 in the table)\n",
		       "avg64+", mid[0] / n_mid, mid[1] / n_mid, mid[2] / n_mid,
		       pct(mid[0], mid[1]));
	printf("# 0..63: new vs rep movsb %+.1f%%; new slower than old by more than "
	       "the noise at %d of 64 lengths; noise (mean IQR of a sample, per copy): "
	       "old %.2f, new %.2f, rep movsb %.2f ticks\n",
	       pct(a->movsb, a->new), a->worse, a->noise_old, a->noise_new,
	       a->noise_movsb);
	free(lens);
}

#define NR_RANDOM_LENS (1 << 16)

/* A fixed pseudo-random sequence of NR_RANDOM_LENS lengths, uniform 0..max */
static uint64_t *random_lens(unsigned int max)
{
	uint64_t *lens = malloc(sizeof(*lens) * NR_RANDOM_LENS);
	uint64_t x = 0x9e3779b97f4a7c15ULL * (opt.seed + max);
	size_t i;

	if (!lens) {
		perror("malloc");
		exit(1);
	}
	for (i = 0; i < NR_RANDOM_LENS; i++) {	/* xorshift64* */
		x ^= x >> 12;
		x ^= x << 25;
		x ^= x >> 27;
		lens[i] = ((x * 0x2545f4914f6cdd1dULL) >> 32) % (max + 1);
	}
	return lens;
}

/* Random lengths, uniform 0..max, a fresh length for every call. */
static void random_row(const char *label, int r_old, int r_new,
		       unsigned int max, struct avg *a)
{
	int rs[4] = { R_NULL, r_old, r_new, R_MOVSB };
	uint64_t *lens = random_lens(max);
	struct result res[4];

	timeit(rs, 4, lens, NR_RANDOM_LENS, opt.batch, opt.samples * 2, res);
	print_row(label, res[1].ticks, res[2].ticks, res[3].ticks);
	memset(a, 0, sizeof(*a));
	a->old = res[1].ticks;
	a->new = res[2].ticks;
	a->movsb = res[3].ticks;
	a->noise_old = res[1].iqr;
	a->noise_new = res[2].iqr;
	a->noise_movsb = res[3].iqr;
	free(lens);
}

static void large_guard(void)
{
	static const unsigned int sizes[] = { 4096, 65536 };
	int rs[4] = { R_NULL, R_OLD, R_NEW, R_MOVSB };
	unsigned int i, j;

	print_head("large copies, plain ret (old vs new must not regress)");
	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		unsigned int batch = sizes[i] > 4096 ? 2 : 16;
		uint64_t lens[16];
		struct result res[4];
		char buf[16];

		for (j = 0; j < batch; j++)
			lens[j] = sizes[i];
		timeit(rs, 4, lens, batch, batch,
		       opt.quick ? 101 : 501, res);
		snprintf(buf, sizeof(buf), "%u", sizes[i]);
		print_row(buf, res[1].ticks, res[2].ticks, res[3].ticks);
		printf("# %u: noise (IQR per copy) old %.1f, new %.1f, rep movsb %.1f ticks\n",
		       sizes[i], res[1].iqr, res[2].iqr, res[3].iqr);
	}
}

/*
 * The smallest step of the TSC as this process sees it: the least nonzero
 * difference of two reads in a row.  In a guest it can be many ticks (the
 * hypervisor scales or traps the TSC), and a median of a batch of N copies
 * then moves in steps of step / N ticks per copy: the table's resolution.
 */
static uint64_t tsc_step(void)
{
	uint64_t best = UINT64_MAX;
	int i;

	for (i = 0; i < 100000; i++) {
		uint64_t a = __rdtsc(), b = __rdtsc();

		if (b > a && b - a < best)
			best = b - a;
	}
	return best;
}

static void print_machine(void)
{
	FILE *f = fopen("/proc/cpuinfo", "r");
	char line[4096], model[256] = "?", family[32] = "?", mnum[32] = "?";
	char mhz[64] = "?";
	int erms = 0, fsrm = 0, got_flags = 0;
	uint64_t step;
	cpu_set_t set;

	if (f) {
		while (fgets(line, sizeof(line), f)) {
			char *v = strchr(line, ':');

			if (!v)
				continue;
			v += 2;
			v[strcspn(v, "\n")] = 0;
			if (!strncmp(line, "model name", 10) && model[0] == '?')
				snprintf(model, sizeof(model), "%s", v);
			else if (!strncmp(line, "cpu family", 10) && family[0] == '?')
				snprintf(family, sizeof(family), "%s", v);
			else if (!strncmp(line, "model\t", 6) && mnum[0] == '?')
				snprintf(mnum, sizeof(mnum), "%s", v);
			else if (!strncmp(line, "cpu MHz", 7) && mhz[0] == '?')
				snprintf(mhz, sizeof(mhz), "%s", v);
			else if (!strncmp(line, "flags", 5) && !got_flags) {
				got_flags = 1;
				erms = !!strstr(v, " erms");
				fsrm = !!strstr(v, " fsrm");
			}
		}
		fclose(f);
	}
	printf("# cpu: %s (family %s model %s, %s MHz), erms=%d fsrm=%d\n",
	       model, family, mnum, mhz, erms, fsrm);
	if (sched_getaffinity(0, sizeof(set), &set) == 0)
		printf("# pinned to %d cpu(s)%s\n", CPU_COUNT(&set),
		       CPU_COUNT(&set) == 1 ? "" : " (NOT pinned: use taskset)");
	printf("# %u samples of %u copies per point (random: %u samples), median, "
	       "no-copy loop subtracted, %s; src page offset %u, dst page offset %u; "
	       "ticks are TSC ticks\n",
	       opt.samples, opt.batch, opt.samples * 2,
	       opt.lfence == 2 ? "lfence before every copy, its arguments loaded" :
	       opt.lfence ? "lfence after every copy" : "copies back to back",
	       opt.src_off, opt.dst_off);
	step = tsc_step();
	printf("# TSC step: %llu ticks between two reads in a row, so a median moves "
	       "in steps of %.2f ticks per copy at %u copies per sample\n",
	       (unsigned long long)step, (double)step / opt.batch, opt.batch);
}

/*
 * Fixed lengths 0..63, old and new: every sample times, for every length in
 * turn, the two routines back to back (order alternating), so a slow drift
 * of the clock (a VM's core frequency moves under the constant TSC) hits
 * all lengths alike and cancels in the paired difference new - old of one
 * sample.  Prints the medians, the median paired difference and its IQR.
 */
static void paired_table(const char *title, int r_old, int r_new)
{
	enum { NL = 64 };
	unsigned int samples = opt.samples, s, len, j;
	uint64_t *lens = malloc(sizeof(*lens) * NL * opt.batch);
	uint64_t *t = malloc(sizeof(*t) * NL * 3 * samples);
	double *d = malloc(sizeof(*d) * samples);
	const unsigned char *src = srcbuf + opt.src_off;
	unsigned char *dst = dstbuf + opt.dst_off;
	const int rs[3] = { R_NULL, r_old, r_new };
	double sum_o = 0, sum_n = 0, sum_d = 0;
	int slower = 0, faster = 0, i;

	if (!lens || !t || !d) {
		perror("malloc");
		exit(1);
	}
	for (len = 0; len < NL; len++)
		for (j = 0; j < opt.batch; j++)
			lens[len * opt.batch + j] = len;
	for (s = 0; s < 20; s++)
		for (len = 0; len < NL; len++)
			for (i = 0; i < 3; i++)
				routines[rs[i]].loop(dst, src, lens + len * opt.batch,
						     opt.batch);
	for (s = 0; s < samples; s++)
		for (len = 0; len < NL; len++)
			for (i = 0; i < 3; i++) {
				int k = (i + s + len) % 3;
				const struct routine *r = &routines[rs[k]];
				const uint64_t *l = lens + len * opt.batch;

				t[(len * 3 + k) * samples + s] =
					timing_loop(r)(dst, src, l, opt.batch);
			}
	printf("\n== %s ==\n", title);
	printf("# paired: old and new back to back in each of %u samples, all "
	       "lengths interleaved; delta = median of (new - old) per sample, "
	       "IQR of it\n", samples);
	printf("%6s | %9s | %9s | %9s | %9s | %7s\n", "len", "old ticks",
	       "new ticks", "new-old", "IQR", "ratio");
	for (len = 0; len < NL; len++) {
		uint64_t *tn = t + (len * 3 + 0) * samples;
		uint64_t *to = t + (len * 3 + 1) * samples;
		uint64_t *tw = t + (len * 3 + 2) * samples;
		double o, n, dm, iqr, z;

		for (s = 0; s < samples; s++)
			d[s] = ((double)tw[s] - (double)to[s]) / opt.batch;
		qsort(d, samples, sizeof(*d), cmp_double);
		dm = d[samples / 2];
		iqr = d[samples * 3 / 4] - d[samples / 4];
		qsort(tn, samples, sizeof(*tn), cmp_u64);
		qsort(to, samples, sizeof(*to), cmp_u64);
		qsort(tw, samples, sizeof(*tw), cmp_u64);
		z = tn[samples / 2];
		o = (to[samples / 2] - z) / opt.batch;
		n = (tw[samples / 2] - z) / opt.batch;
		printf("%6u | %9.2f | %9.2f | %+9.2f | %9.2f | %7.3f\n", len, o, n,
		       dm, iqr, o > 0 ? (o + dm) / o : 0);
		sum_o += o;
		sum_n += n;
		sum_d += dm;
		slower += dm > iqr / 2;
		faster += dm < -iqr / 2;
	}
	printf("%6s | %9.2f | %9.2f | %+9.2f | %9s | %7.3f\n", "avg<64",
	       sum_o / NL, sum_n / NL, sum_d / NL, "", (sum_o + sum_d) / sum_o);
	printf("# new slower than old by more than half the IQR of the paired "
	       "difference at %d of 64 lengths, faster at %d\n", slower, faster);
	free(lens);
	free(t);
	free(d);
}

/* ---------------------------------------------------------------- replay */

#define REPLAY_MAX_LEN (128u << 10)	/* what the buffers hold */

/* The routines a replay times, interleaved, and their column names */
static const int replay_rs[] = {
	R_NULL, R_OLD, R_NEW, R_MOVSB, R_OLD_SRSO, R_NEW_SRSO, R_OLD_ITS,
	R_NEW_ITS, R_LT64, R_LT64_SRSO, R_LT64_ITS,
};
#define NR_REPLAY_RS (int)(sizeof(replay_rs) / sizeof(replay_rs[0]))
enum { RP_OLD = 1, RP_NEW, RP_MOVSB, RP_OLD_SRSO, RP_NEW_SRSO, RP_OLD_ITS,
       RP_NEW_ITS, RP_LT64, RP_LT64_SRSO, RP_LT64_ITS };

struct workload {
	char name[64];
	uint64_t *lens;		/* the recorded sequence, tiled to >= 4 batches */
	size_t n;		/* recorded lengths */
	size_t nlens;		/* after tiling */
	size_t n_short;		/* recorded lengths below 64 */
	size_t clamped;		/* lengths above REPLAY_MAX_LEN, clamped */
	double mean;
	struct result res[NR_REPLAY_RS];
};

static int cmp_name(const void *a, const void *b)
{
	return strcmp(((const struct workload *)a)->name,
		      ((const struct workload *)b)->name);
}

/* Read one DIR/<name>.len file: one length a line, '#' comments, blanks */
static void load_lens(const char *path, struct workload *w)
{
	FILE *f = fopen(path, "r");
	size_t cap = 4096, lineno = 0, i;
	char line[256];
	double sum = 0;

	if (!f) {
		fprintf(stderr, "%s: %s: %s\n", prog, path, strerror(errno));
		exit(2);
	}
	w->lens = malloc(sizeof(*w->lens) * cap);
	if (!w->lens) {
		perror("malloc");
		exit(1);
	}
	while (fgets(line, sizeof(line), f)) {
		char *p = line, *end;
		unsigned long long v;

		lineno++;
		while (*p == ' ' || *p == '\t')
			p++;
		if (*p == '#' || *p == '\n' || !*p)
			continue;
		errno = 0;
		v = strtoull(p, &end, 10);
		while (*end == ' ' || *end == '\t' || *end == '\r' || *end == '\n')
			end++;
		if (errno || end == p || *end || *p == '-') {
			fprintf(stderr, "%s: %s:%zu: not a length: %s", prog, path,
				lineno, line);
			exit(2);
		}
		if (v > REPLAY_MAX_LEN) {
			v = REPLAY_MAX_LEN;
			w->clamped++;
		}
		if (w->n == cap) {
			cap *= 2;
			w->lens = realloc(w->lens, sizeof(*w->lens) * cap);
			if (!w->lens) {
				perror("realloc");
				exit(1);
			}
		}
		w->lens[w->n++] = v;
		w->n_short += v < 64;
		sum += v;
	}
	if (ferror(f)) {
		fprintf(stderr, "%s: %s: read error\n", prog, path);
		exit(2);
	}
	fclose(f);
	if (!w->n)
		return;
	w->mean = sum / w->n;
	/* tile short sequences so that every sample has a full batch */
	w->nlens = w->n;
	while (w->nlens < 4 * (size_t)opt.batch)
		w->nlens += w->n;
	if (w->nlens > w->n) {
		w->lens = realloc(w->lens, sizeof(*w->lens) * w->nlens);
		if (!w->lens) {
			perror("realloc");
			exit(1);
		}
		for (i = w->n; i < w->nlens; i++)
			w->lens[i] = w->lens[i - w->n];
	}
}

/* Every DIR/<name>.len, sorted by name; returns how many */
static int load_replay(const char *dir, struct workload **out)
{
	DIR *d = opendir(dir);
	struct workload *w = NULL;
	struct dirent *e;
	int n = 0, cap = 0;

	if (!d) {
		fprintf(stderr, "%s: --replay %s: %s\n", prog, dir, strerror(errno));
		exit(2);
	}
	while ((e = readdir(d))) {
		size_t len = strlen(e->d_name);
		char path[4096];

		if (len <= 4 || strcmp(e->d_name + len - 4, ".len"))
			continue;
		if (len - 4 >= sizeof(w->name)) {
			fprintf(stderr, "%s: %s/%s: name too long\n", prog, dir,
				e->d_name);
			exit(2);
		}
		if (n == cap) {
			cap = cap ? 2 * cap : 8;
			w = realloc(w, sizeof(*w) * cap);
			if (!w) {
				perror("realloc");
				exit(1);
			}
		}
		memset(&w[n], 0, sizeof(w[n]));
		memcpy(w[n].name, e->d_name, len - 4);
		w[n].name[len - 4] = 0;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		load_lens(path, &w[n]);
		if (!w[n].n) {
			fprintf(stderr, "%s: %s: no lengths, skipped\n", prog, path);
			free(w[n].lens);
			continue;
		}
		n++;
	}
	closedir(d);
	if (!n) {
		fprintf(stderr, "%s: --replay %s: no non-empty *.len files\n", prog,
			dir);
		exit(2);
	}
	qsort(w, n, sizeof(*w), cmp_name);
	*out = w;
	return n;
}

static void time_replay(struct workload *w, int nw)
{
	int i;

	for (i = 0; i < nw; i++)
		timeit(replay_rs, NR_REPLAY_RS, w[i].lens, w[i].nlens, opt.batch,
		       opt.samples * 2, w[i].res);
}

static void print_replay(const struct workload *w, int nw)
{
	static const struct { const char *ret; int o, n; } rows[] = {
		{ "plain", RP_OLD, RP_NEW },
		{ "SRSO", RP_OLD_SRSO, RP_NEW_SRSO },
		{ "ITS", RP_OLD_ITS, RP_NEW_ITS },
	};
	int i, k;

	printf("\n== replay %s: recorded length sequences, the sequence in order, "
	       "ticks per copy, median [IQR] ==\n", opt.replay);
	printf("# IQR: of the per-batch means; the batches are different windows "
	       "of the sequence, so it shows the workload's spread, not only noise\n");
	printf("%-20s | %7s | %6s | %7s | %-5s | %14s | %14s | %14s | %7s\n",
	       "workload", "lengths", "<64", "mean", "ret", "old", "new",
	       "rep movsb", "delta%");
	for (i = 0; i < nw; i++) {
		if (w[i].clamped)
			printf("# %s: %zu lengths above %u clamped to it\n",
			       w[i].name, w[i].clamped, REPLAY_MAX_LEN);
		for (k = 0; k < 3; k++) {
			const struct result *o = &w[i].res[rows[k].o];
			const struct result *n = &w[i].res[rows[k].n];
			const struct result *m = &w[i].res[RP_MOVSB];

			if (k == 0)
				printf("%-20s | %7zu | %5.1f%% | %7.1f", w[i].name,
				       w[i].n, 100.0 * w[i].n_short / w[i].n,
				       w[i].mean);
			else
				printf("%-20s | %7s | %6s | %7s", "", "", "", "");
			printf(" | %-5s | %7.2f [%4.2f] | %7.2f [%4.2f] | %7.2f [%4.2f] | %+6.1f%%\n",
			       rows[k].ret, o->ticks, o->iqr, n->ticks, n->iqr,
			       m->ticks, m->iqr, pct(o->ticks, n->ticks));
		}
	}
}

/* ---------------------------------------------------------- FSRM designs */

/*
 * Designs for CPUs with FSRM, which today inline "rep movsb" and never call
 * rep_movs_alternative(): (a) that; (b) an inline length test calling the
 * short path below 64 bytes, every ret plain or through a thunk; (c) call
 * sites with a constant length expanded inline (fixed lengths only: a site
 * whose length varies is not constant and takes (a) or (b)).
 */
enum { D_A, D_B, D_B_SRSO, D_B_ITS, D_C, NR_D };
static const char *const design_names[NR_D] = {
	"(a) rep movsb", "(b) lt64", "(b) lt64 SRSO", "(b) lt64 ITS",
	"(c) const",
};

struct design_row {
	char label[48];
	double t[NR_D], iqr[NR_D];	/* t < 0: not applicable */
};

static void print_design_head(const char *first)
{
	int d;

	printf("%-22s", first);
	for (d = 0; d < NR_D; d++)
		printf(" | %13s", design_names[d]);
	printf(" | %6s | %s\n", "noise", "fastest (b vs a)");
}

static void print_design_row(const struct design_row *r, const char *extra)
{
	double noise = 0;
	int d, best = D_A, nn = 0;

	printf("%-22s", r->label);
	for (d = 0; d < NR_D; d++) {
		if (r->t[d] < 0) {
			printf(" | %13s", "-");
			continue;
		}
		printf(" | %13.2f", r->t[d]);
		noise += r->iqr[d];
		nn++;
		if (r->t[d] < r->t[best])
			best = d;
	}
	printf(" | %6.2f | %s (%+.1f%%)%s\n", noise / nn, design_names[best],
	       pct(r->t[D_A], r->t[D_B]), extra ? extra : "");
}

static void designs(const struct workload *w, int nw)
{
	static const unsigned int extra_lens[] = { 64, 128, 256 };
	static const unsigned int rmax[] = { 63, 127, 255 };
	struct design_row sum[3 + 64], avg = { .label = "fixed, avg 0..63" };
	uint64_t *lens = malloc(sizeof(*lens) * opt.batch);
	unsigned int len, j, nsum = 0;
	int d, i;

	if (!lens) {
		perror("malloc");
		exit(1);
	}
	printf("\n== FSRM designs: (a) inline rep movsb, (b) inline cmp $64 + call "
	       "of NEW's short path (ret plain / SRSO / ITS thunk) else rep movsb, "
	       "(c) a constant-length call site expanded inline; ticks per copy ==\n");
	printf("# (c) only where the length is a compile-time constant: fixed "
	       "lengths below 64; noise: mean IQR of a sample, per copy\n");
	print_design_head("fixed length");
	for (len = 0; len < 64 + 3; len++) {
		unsigned int l = len < 64 ? len : extra_lens[len - 64];
		int rs[6] = { R_NULL, R_MOVSB, R_LT64, R_LT64_SRSO, R_LT64_ITS,
			      R_CONST0 + (l < 64 ? l : 0) };
		struct result res[6];
		struct design_row r;

		for (j = 0; j < opt.batch; j++)
			lens[j] = l;
		timeit(rs, l < 64 ? 6 : 5, lens, opt.batch, opt.batch,
		       opt.samples, res);
		snprintf(r.label, sizeof(r.label), "%u", l);
		for (d = 0; d < NR_D; d++) {
			r.t[d] = d == D_C && l >= 64 ? -1 : res[d + 1].ticks;
			r.iqr[d] = d == D_C && l >= 64 ? 0 : res[d + 1].iqr;
			if (l < 64) {
				avg.t[d] += r.t[d] / 64;
				avg.iqr[d] += r.iqr[d] / 64;
			}
		}
		print_design_row(&r, NULL);
	}
	print_design_row(&avg, NULL);
	sum[nsum++] = avg;
	free(lens);

	printf("\n");
	print_design_head("random length");
	for (i = 0; i < 3; i++) {
		int rs[5] = { R_NULL, R_MOVSB, R_LT64, R_LT64_SRSO, R_LT64_ITS };
		uint64_t *rl = random_lens(rmax[i]);
		struct result res[5];
		struct design_row r;

		timeit(rs, 5, rl, NR_RANDOM_LENS, opt.batch, opt.samples * 2, res);
		snprintf(r.label, sizeof(r.label), "random 0..%u", rmax[i]);
		for (d = 0; d < NR_D; d++) {
			r.t[d] = d == D_C ? -1 : res[d + 1].ticks;
			r.iqr[d] = d == D_C ? 0 : res[d + 1].iqr;
		}
		print_design_row(&r, NULL);
		sum[nsum++] = r;
		free(rl);
	}

	for (i = 0; i < nw && nsum < sizeof(sum) / sizeof(sum[0]); i++) {
		struct design_row r;
		static const int map[NR_D] = { RP_MOVSB, RP_LT64, RP_LT64_SRSO,
					       RP_LT64_ITS, -1 };

		snprintf(r.label, sizeof(r.label), "replay %.40s", w[i].name);
		for (d = 0; d < NR_D; d++) {
			r.t[d] = map[d] < 0 ? -1 : w[i].res[map[d]].ticks;
			r.iqr[d] = map[d] < 0 ? 0 : w[i].res[map[d]].iqr;
		}
		sum[nsum++] = r;
	}

	printf("\n== FSRM designs summary, ticks per copy ==\n");
	print_design_head("regime");
	for (j = 0; j < nsum; j++)
		print_design_row(&sum[j], NULL);
}

/*
 * Before any table: every routine copies every length 0..256 a few times,
 * so that each of its branches that some length takes has been taken.  A
 * kernel copies all of these lengths all the time (the traced histograms
 * have 64..127 and 4 KiB copies among the most common ones), so its branch
 * predictor knows all of the routine's branches.  Without this, a table
 * that times only 0..63 leaves "jae .Llarge" never taken.  On an AMD
 * Zen 5 a conditional branch that was never taken costs nothing and one
 * that has been taken costs throughput on every path through it, so that
 * made the old routine's 1-byte copy a cycle cheaper than it is in a
 * kernel (results/2026-12-06-x86-zen5 in the repository).
 */
static void warm_predictors(void)
{
	const unsigned char *src = srcbuf + opt.src_off;
	unsigned char *dst = dstbuf + opt.dst_off;
	uint64_t lens[257];
	int r, pass;

	for (r = 0; r <= 256; r++)
		lens[r] = r;
	for (pass = 0; pass < 4; pass++)
		for (r = R_MOVSB; r < NR_ROUTINES; r++)
			routines[r].loop(dst, src, lens, 257);
}

static int bench(void)
{
	struct avg fx = { 0 }, rnd = { 0 }, fx_srso = { 0 }, rnd_srso = { 0 };
	struct avg fx_its = { 0 }, rnd_its = { 0 }, tmp;
	struct workload *wl = NULL;
	int nwl = 0;

	if (opt.replay)
		nwl = load_replay(opt.replay, &wl);
	print_machine();
	memset(srcbuf, 0x5a, BUF_SIZE);
	memset(dstbuf, 0xa5, BUF_SIZE);
	if (!opt.no_warm)
		warm_predictors();

	if (opt.only & S_PAIRED) {
		paired_table("fixed length, paired, plain ret", R_OLD, R_NEW);
		if (opt.only & S_SRSO)
			paired_table("fixed length, paired, SRSO return thunk",
				     R_OLD_SRSO, R_NEW_SRSO);
		if (opt.only & S_ITS)
			paired_table("fixed length, paired, ITS return thunk",
				     R_OLD_ITS, R_NEW_ITS);
		return 0;
	}
	if (opt.only & S_FIXED)
		fixed_table("fixed length, plain ret", R_OLD, R_NEW, &fx, 1);

	if (opt.only & S_RANDOM) {
		printf("\n== random length (a new length every call, uniform 0..max), plain ret ==\n");
		printf("%6s | %9s | %9s | %15s | %7s\n",
		       "lens", "old ticks", "new ticks", "rep movsb ticks", "delta%");
		random_row("0..63", R_OLD, R_NEW, 63, &rnd);
		random_row("0..127", R_OLD, R_NEW, 127, &tmp);
		random_row("0..255", R_OLD, R_NEW, 255, &tmp);
	}

	if (opt.only & S_SRSO) {
		fixed_table("fixed length, every ret through the SRSO return thunk "
			    "(rep movsb: inline, no call)",
			    R_OLD_SRSO, R_NEW_SRSO, &fx_srso, !opt.quick);
		printf("\n== random length uniform 0..63, SRSO return thunk ==\n");
		printf("%6s | %9s | %9s | %15s | %7s\n",
		       "lens", "old ticks", "new ticks", "rep movsb ticks", "delta%");
		random_row("0..63", R_OLD_SRSO, R_NEW_SRSO, 63, &rnd_srso);
	}

	if (opt.only & S_ITS) {
		fixed_table("fixed length, every ret through the ITS return thunk",
			    R_OLD_ITS, R_NEW_ITS, &fx_its, 0);
		printf("\n== random length uniform 0..63, ITS return thunk ==\n");
		printf("%6s | %9s | %9s | %15s | %7s\n",
		       "lens", "old ticks", "new ticks", "rep movsb ticks", "delta%");
		random_row("0..63", R_OLD_ITS, R_NEW_ITS, 63, &rnd_its);
	}

	if (opt.only & S_LARGE)
		large_guard();

	if (opt.only & (S_FIXED | S_RANDOM | S_SRSO | S_ITS)) {
		printf("\n== summary, average ticks per copy over lengths 0..63 ==\n");
		printf("%-26s | %6s | %6s | %9s | %11s | %13s\n", "regime", "old",
		       "new", "rep movsb", "new vs old", "new vs movsb");
#define SUM(part, label, a) \
	if (opt.only & (part)) \
		printf("%-26s | %6.2f | %6.2f | %9.2f | %+10.1f%% | %+12.1f%%\n", \
		       label, (a).old, (a).new, (a).movsb, pct((a).old, (a).new), \
		       pct((a).movsb, (a).new))
		SUM(S_FIXED, "fixed, plain ret", fx);
		SUM(S_RANDOM, "random 0..63, plain ret", rnd);
		SUM(S_SRSO, "fixed, SRSO thunk", fx_srso);
		SUM(S_SRSO, "random 0..63, SRSO thunk", rnd_srso);
		SUM(S_ITS, "fixed, ITS thunk", fx_its);
		SUM(S_ITS, "random 0..63, ITS thunk", rnd_its);
#undef SUM
	}

	if (nwl && (opt.only & (S_REPLAY | S_DESIGNS)))
		time_replay(wl, nwl);
	if (nwl && (opt.only & S_REPLAY))
		print_replay(wl, nwl);
	if (opt.only & S_DESIGNS)
		designs(wl, nwl);
	return 0;
}

/* ---------------------------------------------------------- alternatives */

/* x86_nops[] of arch/x86/kernel/alternative.c: the NOPs of 1..8 bytes */
static const uint8_t x86_nops[9][8] = {
	{ 0 },
	{ 0x90 },
	{ 0x66, 0x90 },
	{ 0x0f, 0x1f, 0x00 },
	{ 0x0f, 0x1f, 0x40, 0x00 },
	{ 0x0f, 0x1f, 0x44, 0x00, 0x00 },
	{ 0x66, 0x0f, 0x1f, 0x44, 0x00, 0x00 },
	{ 0x0f, 0x1f, 0x80, 0x00, 0x00, 0x00, 0x00 },
	{ 0x0f, 0x1f, 0x84, 0x00, 0x00, 0x00, 0x00, 0x00 },
};

/*
 * add_nop() of the kernel: one NOP, or above 8 bytes a jmp over int3s
 * (rel8 below 128 bytes, rel32 from 128 on; len is at most 255 here)
 */
static void add_nop(uint8_t *buf, unsigned int len)
{
	unsigned int i;
	int32_t rel;

	if (len <= 8) {
		memcpy(buf, x86_nops[len], len);
		return;
	}
	if (len < 128) {
		buf[0] = 0xeb;
		buf[1] = len - 2;
		i = 2;
	} else {
		buf[0] = 0xe9;
		rel = len - 5;
		memcpy(buf + 1, &rel, sizeof(rel));
		i = 5;
	}
	for (; i < len; i++)
		buf[i] = 0xcc;
}

/* does the instruction at p (n bytes) start with a relative jmp, jcc or call? */
static int rel_branch(const uint8_t *p, unsigned int n)
{
	unsigned int i = 0;

	/* legacy prefixes and REX */
	while (i < n && (p[i] == 0x66 || p[i] == 0xf2 || p[i] == 0xf3 ||
			 p[i] == 0x2e || p[i] == 0x3e || (p[i] & 0xf0) == 0x40))
		i++;
	if (i >= n)
		return 0;
	if (p[i] == 0xe8 || p[i] == 0xe9 || p[i] == 0xeb ||
	    (p[i] & 0xf0) == 0x70 || (p[i] >= 0xe0 && p[i] <= 0xe3))
		return 1;
	return i + 1 < n && p[i] == 0x0f && (p[i + 1] & 0xf0) == 0x80;
}

/*
 * What apply_alternatives() does at boot, for the shim's ALTERNATIVE()s:
 * the replacement over the original and NOPs after it, or NOPs over the
 * original's padding.  The replacement is copied as it is, so it must not
 * hold a relative jump or call (the kernel would relocate it; the one in
 * copy_user_64.S is "rep movsb").
 */
static void apply_alternatives(void)
{
	const struct alt_entry *a;
	long page = sysconf(_SC_PAGESIZE);

	for (a = __start_shim_altinstr; a < __stop_shim_altinstr; a++) {
		uint8_t *instr = (uint8_t *)&a->instr + a->instr;
		const uint8_t *repl = (const uint8_t *)&a->repl + a->repl;
		uintptr_t lo = (uintptr_t)instr & -page;
		size_t span = (uintptr_t)instr + a->len - lo;

		if (a->use_new && rel_branch(repl, a->repllen))
			die("an ALTERNATIVE() replacement starts with a relative jump or call (%s)",
			    "not modelled");
		if (mprotect((void *)lo, span, PROT_READ | PROT_WRITE | PROT_EXEC)) {
			perror("mprotect (apply_alternatives)");
			exit(1);
		}
		if (a->use_new) {
			memcpy(instr, repl, a->repllen);
			add_nop(instr + a->repllen, a->len - a->repllen);
		} else {
			add_nop(instr + a->oldlen, a->len - a->oldlen);
		}
		if (mprotect((void *)lo, span, PROT_READ | PROT_EXEC)) {
			perror("mprotect (apply_alternatives)");
			exit(1);
		}
	}
}

/*
 * --alternatives: each ALTERNATIVE() site as it is after patching, named
 * by the routine it lies in: "<routine>+0x<offset>: <n> bytes: xx xx ..."
 */
static void print_alternatives(void)
{
	static const struct {
		const char *name;
		const uint8_t *start;
	} sym[] = {
		{ "old_rep_movs_alternative", old_rep_movs_alternative },
		{ "new_rep_movs_alternative", new_rep_movs_alternative },
		{ "old_srso_rep_movs_alternative", old_srso_rep_movs_alternative },
		{ "new_srso_rep_movs_alternative", new_srso_rep_movs_alternative },
		{ "old_its_rep_movs_alternative", old_its_rep_movs_alternative },
		{ "new_its_rep_movs_alternative", new_its_rep_movs_alternative },
	};
	const struct alt_entry *a;
	unsigned int i, j, best;

	for (a = __start_shim_altinstr; a < __stop_shim_altinstr; a++) {
		const uint8_t *instr = (const uint8_t *)&a->instr + a->instr;

		/* the routine that starts nearest below the site */
		best = 0;
		for (i = 1; i < sizeof(sym) / sizeof(sym[0]); i++)
			if (sym[i].start <= instr &&
			    (sym[best].start > instr || sym[i].start > sym[best].start))
				best = i;
		if (sym[best].start > instr)
			die("an ALTERNATIVE() site outside the routines (%s)", "?");
		printf("%s+0x%lx: %u bytes:", sym[best].name,
		       (unsigned long)(instr - sym[best].start), a->len);
		for (j = 0; j < a->len; j++)
			printf(" %02x", instr[j]);
		putchar('\n');
	}
}

/* ------------------------------------------------------- fault semantics */

static volatile sig_atomic_t nr_faults, bad_faults;
static uintptr_t guard_lo, guard_hi;

static void on_segv(int sig, siginfo_t *si, void *ctx)
{
	ucontext_t *uc = ctx;
	uintptr_t ip = uc->uc_mcontext.gregs[REG_RIP];
	uintptr_t addr = (uintptr_t)si->si_addr;
	const struct extable_entry *e;

	(void)sig;
	for (e = __start_shim_extable; e < __stop_shim_extable; e++) {
		if ((uintptr_t)&e->insn + e->insn != ip)
			continue;
		if (addr < guard_lo || addr >= guard_hi)
			bad_faults++;
		nr_faults++;
		uc->uc_mcontext.gregs[REG_RIP] = (uintptr_t)&e->fixup + e->fixup;
		return;
	}
	/* not an exception-table instruction: a real crash */
	signal(SIGSEGV, SIG_DFL);
}

/* install fn as the SA_SIGINFO handler of sig; 0 or -1 (perror'd) */
static int catch_signal(int sig, void (*fn)(int, siginfo_t *, void *))
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = fn;
	sa.sa_flags = SA_SIGINFO;
	sigemptyset(&sa.sa_mask);
	if (sigaction(sig, &sa, NULL)) {
		perror("sigaction");
		return -1;
	}
	return 0;
}

static unsigned char pattern(size_t i)
{
	return 1 + (i * 7) % 250;	/* never 0, distinct over 250 bytes */
}

#define CHECK_MAX 256	/* lengths 0..CHECK_MAX */

static int fail(const struct routine *r, const char *what, unsigned int len,
		unsigned int f, unsigned int smis, unsigned int dmis,
		uint64_t ret, uint64_t want)
{
	printf("FAIL %s: %s: len %u, accessible %u, src mis %u, dst mis %u: "
	       "returned %llu, want %llu\n", r->name, what, len, f, smis, dmis,
	       (unsigned long long)ret, (unsigned long long)want);
	return 1;
}

/*
 * Check routine r at lengths lo..hi; adds the cases and faults to *cases and
 * *faults and prints a line unless quiet.  Returns the errors.
 */
static int check_routine(const struct routine *r, unsigned char *user,
			 size_t page, unsigned char *kbuf, unsigned int lo,
			 unsigned int hi, unsigned long *ncases,
			 unsigned long *nfaults, int quiet)
{
	unsigned char *boundary = user + 2 * page;	/* PROT_NONE from here */
	unsigned int len, f, smis, dmis, dir, errors = 0;
	unsigned long cases = 0, faults0 = nr_faults;
	size_t i;

	/* no faults: every length, source and destination misalignment */
	for (len = lo; len <= hi; len++)
		for (smis = 0; smis < 8; smis++)
			for (dmis = 0; dmis < 8; dmis++) {
				unsigned char *src = user + 64 + smis;
				unsigned char *dst = kbuf + 64 + dmis;
				uint64_t ret;

				for (i = 0; i < len; i++)
					src[i] = pattern(i + smis);
				memset(kbuf, 0, 64 + CHECK_MAX + 128);
				ret = r->wrap(dst, src, len);
				cases++;
				if (ret != 0)
					errors += fail(r, "no fault", len, len, smis,
						       dmis, ret, 0);
				if (memcmp(dst, src, len))
					errors += fail(r, "wrong data", len, len,
						       smis, dmis, ret, 0);
				for (i = 0; i < 64 + CHECK_MAX + 128; i++)
					if ((kbuf + i < dst || kbuf + i >= dst + len)
					    && kbuf[i]) {
						errors += fail(r, "wrote outside",
							       len, len, smis, dmis,
							       ret, 0);
						break;
					}
				if (errors > 10)
					return errors;
			}

	/*
	 * A fault at every offset: the user side (source for dir 0, i.e.
	 * copy_from_user; destination for dir 1, copy_to_user) has only f
	 * accessible bytes before the PROT_NONE page.  The kernel side's
	 * misalignment is 0..7 for every case up to 80 bytes (the short paths
	 * and the threshold), and rotates with len + f above.
	 */
	for (dir = 0; dir < 2; dir++)
		for (len = lo; len <= hi; len++)
			for (f = 0; f <= len; f++) {
				unsigned int k0 = len <= 80 ? 0 : (len + f) % 8;
				unsigned int k1 = len <= 80 ? 8 : k0 + 1;
				unsigned int kmis;

				for (kmis = k0; kmis < k1; kmis++) {
					unsigned char *u = boundary - f;
					unsigned char *k = kbuf + 64 + kmis;
					uint64_t want = len - f, ret;
					unsigned char *d, *s;
					size_t dsz;

					if (dir == 0) {
						for (i = 0; i < f; i++)
							u[i] = pattern(i + f);
						memset(kbuf, 0, 64 + CHECK_MAX + 128);
						d = k;
						s = u;
					} else {
						for (i = 0; i < len; i++)
							k[i] = pattern(i + kmis);
						memset(boundary - CHECK_MAX - 64, 0,
						       CHECK_MAX + 64);
						d = u;
						s = k;
					}
					ret = r->wrap(d, s, len);
					cases++;
					if (ret != want)
						errors += fail(r, dir ? "to user" :
							       "from user", len, f,
							       kmis, kmis, ret, want);
					if (memcmp(d, s, len - want))
						errors += fail(r, "wrong prefix", len,
							       f, kmis, kmis, ret,
							       want);
					/* nothing beyond the copied prefix */
					if (dir == 0) {
						dsz = 64 + CHECK_MAX + 128;
						for (i = 0; i < dsz; i++)
							if ((kbuf + i < d ||
							     kbuf + i >= d + len - want) &&
							    kbuf[i])
								break;
					} else {
						unsigned char *lo = boundary - CHECK_MAX - 64;

						dsz = CHECK_MAX + 64;
						for (i = 0; i < dsz; i++)
							if ((lo + i < d ||
							     lo + i >= d + len - want) &&
							    lo[i])
								break;
					}
					if (i < dsz)
						errors += fail(r, "wrote beyond", len,
							       f, kmis, kmis, ret,
							       want);
					if (bad_faults)
						errors += fail(r, "fault outside the guard page",
							       len, f, kmis, kmis,
							       ret, want);
					if (errors > 10)
						return errors;
				}
			}
	*ncases += cases;
	*nfaults += nr_faults - faults0;
	if (!quiet)
		printf("%-9s %s: %lu cases, %lu faults handled\n", r->name,
		       errors ? "FAIL" : "ok", cases,
		       (unsigned long)(nr_faults - faults0));
	return errors;
}

static int race_check(void);

static int check(void)
{
	size_t page = sysconf(_SC_PAGESIZE);
	unsigned char *user, *kbuf;
	int r, errors = 0;

	user = mmap(NULL, 3 * page, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (user == MAP_FAILED || mprotect(user + 2 * page, page, PROT_NONE)) {
		perror("mmap/mprotect");
		return 1;
	}
	guard_lo = (uintptr_t)user + 2 * page;
	guard_hi = guard_lo + page;
	kbuf = malloc(64 + CHECK_MAX + 128);
	if (!kbuf) {
		perror("malloc");
		return 1;
	}
	if (catch_signal(SIGSEGV, on_segv))
		return 1;
	printf("# lengths 0..%d; no fault: src/dst misalignment 0..7 x 0..7; "
	       "fault at every offset, from and to the user side\n", CHECK_MAX);
	for (r = R_MOVSB; r < NR_ROUTINES; r++) {
		unsigned long c = 0, f = 0;

		errors += check_routine(&routines[r], user, page, kbuf, 0,
					CHECK_MAX, &c, &f, 0);
	}
	{	/* (c): const<N> only copies N bytes */
		unsigned long c = 0, f = 0;
		int e = 0;

		for (r = 0; r < NR_CONSTS; r++)
			e += check_routine(&routines[R_CONST0 + r], user, page,
					   kbuf, r, r, &c, &f, 1);
		printf("%-9s %s: %lu cases, %lu faults handled (const0..const%d, "
		       "each at its own length)\n", "const<N>", e ? "FAIL" : "ok",
		       c, f, NR_CONSTS - 1);
		errors += e;
	}
	errors += race_check();
	printf("%s\n", errors ? "check: FAILED" : "check: all ok");
	return errors ? 1 : 0;
}

/* ----------------------------------------------- a racing munmap (race) */

/*
 * The user pages vanish in the middle of a copy (another thread's munmap or
 * mprotect): the copy runs single-stepped (stepped_call() sets EFLAGS.TF) and
 * after its k-th instruction the SIGTRAP handler makes the whole user buffer
 * PROT_NONE; every k from 1 to the instructions of the copy.  A load or store
 * that had succeeded before stays done, the next user access faults.  What
 * include/linux/uaccess.h asks of raw_copy_{to,from}_user() must still hold:
 * if it returns N, the first len - N bytes of the destination are the
 * source's, and nothing past them has been written.  (On the kernel side,
 * "past them" is a page-cache page under write(2), so a byte written there
 * and not counted reaches the file.)
 */
extern uint64_t stepped_call(wrap_fn *w, void *dst, const void *src,
			     uint64_t len);

static volatile sig_atomic_t steps, revoke_at;
static unsigned char *race_user;
static size_t race_size;

static void on_trap(int sig, siginfo_t *si, void *ctx)
{
	ucontext_t *uc = ctx;

	(void)sig;
	(void)si;
	if (++steps != revoke_at)
		return;
	if (mprotect(race_user, race_size, PROT_NONE))
		_exit(3);
	uc->uc_mcontext.gregs[REG_EFL] &= ~0x100UL;	/* stop stepping */
}

#define RACE_MAX 80	/* the short paths, the threshold, the first large */

static int rfail(const struct routine *r, const char *what, unsigned int len,
		 unsigned int k, unsigned int umis, unsigned int kmis,
		 uint64_t ret)
{
	printf("FAIL %s: %s: len %u, user side revoked after instruction %u, "
	       "user mis %u, kernel mis %u: returned %llu\n", r->name, what,
	       len, k, umis, kmis, (unsigned long long)ret);
	return 1;
}

/* one copy of len bytes, the user side revoked after instruction k (0: never) */
static int race_one(const struct routine *r, unsigned int dir,
		    unsigned int len, unsigned int umis, unsigned int kmis,
		    unsigned char *kbuf, unsigned int k, unsigned int *nsteps)
{
	unsigned char *u = race_user + race_size / 2 - RACE_MAX / 2 + umis;
	unsigned char *kk = kbuf + 64 + kmis, *d, *s, *dbuf;
	size_t i, dsz;
	uint64_t ret, c;

	memset(race_user, 0, race_size);
	memset(kbuf, 0, 64 + RACE_MAX + 128);
	if (dir == 0) {
		for (i = 0; i < len; i++)
			u[i] = pattern(i + umis);
		d = kk, s = u, dbuf = kbuf, dsz = 64 + RACE_MAX + 128;
	} else {
		for (i = 0; i < len; i++)
			kk[i] = pattern(i + kmis);
		d = u, s = kk, dbuf = race_user, dsz = race_size;
	}
	steps = 0;
	revoke_at = k;
	ret = stepped_call(r->wrap, d, s, len);
	*nsteps = steps;
	if (mprotect(race_user, race_size, PROT_READ | PROT_WRITE)) {
		perror("mprotect");
		exit(1);
	}
	if (ret > len)
		return rfail(r, "race: returned more than len", len, k, umis,
			     kmis, ret);
	if (!k && ret)
		return rfail(r, "race: no revoke, not all copied", len, k, umis,
			     kmis, ret);
	c = len - ret;
	if (memcmp(d, s, c))
		return rfail(r, "race: wrong prefix", len, k, umis, kmis, ret);
	for (i = 0; i < dsz; i++)
		if ((dbuf + i < d || dbuf + i >= d + c) && dbuf[i])
			return rfail(r, dir ? "race: to user: wrote past the count" :
				     "race: from user: wrote past the count",
				     len, k, umis, kmis, ret);
	if (bad_faults)
		return rfail(r, "race: fault outside the user buffer", len, k,
			     umis, kmis, ret);
	return 0;
}

static int race_routine(const struct routine *r, unsigned char *kbuf,
			unsigned int lo, unsigned int hi, unsigned long *ncases,
			int quiet)
{
	unsigned int dir, len, umis, k, n, dummy;
	unsigned long cases = 0;
	int errors = 0;

	for (dir = 0; dir < 2; dir++)
		for (len = lo; len <= hi; len++)
			for (umis = 0; umis < 8; umis += opt.quick ? 8 : 3) {
				unsigned int kmis = (umis * 3 + len) % 8;

				errors += race_one(r, dir, len, umis, kmis, kbuf,
						   0, &n);
				for (k = 1; k <= n && errors <= 10; k++) {
					errors += race_one(r, dir, len, umis, kmis,
							   kbuf, k, &dummy);
					cases++;
				}
				if (errors > 10)
					return errors;
			}
	*ncases += cases;
	if (!quiet)
		printf("%-9s %s: %lu revoke points\n", r->name,
		       errors ? "FAIL" : "ok", cases);
	return errors;
}

static int race_check(void)
{
	size_t page = sysconf(_SC_PAGESIZE);
	unsigned long c = 0;
	unsigned char *kbuf;
	int r, e, errors = 0;

	race_size = 2 * page;
	race_user = mmap(NULL, race_size, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	kbuf = malloc(64 + RACE_MAX + 128);
	if (race_user == MAP_FAILED || !kbuf) {
		perror("mmap/malloc");
		return 1;
	}
	guard_lo = (uintptr_t)race_user;
	guard_hi = guard_lo + race_size;
	if (catch_signal(SIGTRAP, on_trap))
		return 1;
	printf("# race: the user buffer revoked after every instruction of the "
	       "copy; lengths 0..%d, user misalignment %s, both directions\n",
	       RACE_MAX, opt.quick ? "0" : "0, 3, 6");
	for (r = R_MOVSB; r < NR_ROUTINES; r++)
		errors += race_routine(&routines[r], kbuf, 0, RACE_MAX, &c, 0);
	c = 0;
	e = 0;
	for (r = 0; r < NR_CONSTS; r++)
		e += race_routine(&routines[R_CONST0 + r], kbuf, r, r, &c, 1);
	printf("%-9s %s: %lu revoke points (const0..const%d, each at its own "
	       "length)\n", "const<N>", e ? "FAIL" : "ok", c, NR_CONSTS - 1);
	errors += e;
	free(kbuf);
	munmap(race_user, race_size);
	return errors;
}

/* ------------------------------------------------------------ callgrind */

/*
 * For every routine and length: 2 calls, dump, 10 calls, dump.  The
 * difference of the two dumps over 8 is the instructions of one call
 * through wrap_X; run.sh subtracts wrap_null's count.
 */
static int icount(void)
{
#if HAVE_CALLGRIND
	static const int rs[] = { R_NULL, R_OLD, R_NEW, R_OLD_SRSO, R_NEW_SRSO };
	static const unsigned int reps[] = { 2, 10 };
	unsigned int i, j, len, k;
	char desc[64];

	if (!RUNNING_ON_VALGRIND) {
		fprintf(stderr, "%s: --icount must run under valgrind --tool=callgrind "
			"--collect-atstart=no (see run.sh)\n", prog);
		return 2;
	}
	memset(srcbuf, 0x5a, BUF_SIZE);
	for (i = 0; i < sizeof(rs) / sizeof(rs[0]); i++) {
		const struct routine *r = &routines[rs[i]];

		/* the first dump after a routine change counts a few extra */
		CALLGRIND_TOGGLE_COLLECT;
		r->wrap(dstbuf, srcbuf, 0);
		CALLGRIND_TOGGLE_COLLECT;
		CALLGRIND_DUMP_STATS_AT("warmup");

		for (len = 0; len <= 256; len = len < 64 ? len + 1 : len * 2)
			for (j = 0; j < 2; j++) {
				CALLGRIND_TOGGLE_COLLECT;
				for (k = 0; k < reps[j]; k++)
					r->wrap(dstbuf + opt.dst_off,
						srcbuf + opt.src_off, len);
				CALLGRIND_TOGGLE_COLLECT;
				snprintf(desc, sizeof(desc), "%s %u %u", r->name,
					 len, reps[j]);
				CALLGRIND_DUMP_STATS_AT(desc);
			}
	}
	return 0;
#else
	fprintf(stderr, "%s: built without <valgrind/callgrind.h>\n", prog);
	return 2;
#endif
}

int main(int argc, char **argv)
{
	int mode = 0, i;

	prog = argv[0];
	apply_alternatives();
	for (i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "--check"))
			mode = 1;
		else if (!strcmp(a, "--alternatives"))
			mode = 3;
		else if (!strcmp(a, "--icount"))
			mode = 2;
		else if (!strcmp(a, "--quick"))
			opt.quick = 1;
		else if (!strcmp(a, "--lfence"))
			opt.lfence = 1;
		else if (!strcmp(a, "--no-warm"))
			opt.no_warm = 1;
		else if (!strcmp(a, "--lfence-before"))
			opt.lfence = 2;
		else if (!strcmp(a, "--samples"))
			opt.samples = parse_uint(a, argv[++i], 11, 1000001);
		else if (!strcmp(a, "--batch"))
			opt.batch = parse_uint(a, argv[++i], 1, 4096);
		else if (!strcmp(a, "--seed"))
			opt.seed = parse_uint(a, argv[++i], 0, UINT_MAX);
		else if (!strcmp(a, "--src-off"))
			opt.src_off = parse_uint(a, argv[++i], 0, 4095);
		else if (!strcmp(a, "--dst-off"))
			opt.dst_off = parse_uint(a, argv[++i], 0, 4095);
		else if (!strcmp(a, "--replay")) {
			if (!argv[i + 1])
				die("%s needs a directory", a);
			opt.replay = argv[++i];
		} else if (!strcmp(a, "--only"))
			opt.only = parse_only(argv[++i]);
		else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			usage(stdout);
			return 0;
		} else {
			fprintf(stderr, "%s: unknown argument '%s'\n", prog, a);
			usage(stderr);
			return 2;
		}
	}
	if (opt.quick && opt.samples == 2001)
		opt.samples = 301;

	srcbuf = aligned_alloc(4096, BUF_SIZE);
	dstbuf = aligned_alloc(4096, BUF_SIZE);
	if (!srcbuf || !dstbuf) {
		perror("aligned_alloc");
		return 1;
	}
	switch (mode) {
	case 1:
		return check();
	case 2:
		return icount();
	case 3:
		print_alternatives();
		return 0;
	default:
		return bench();
	}
}
