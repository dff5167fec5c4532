// SPDX-License-Identifier: GPL-2.0
/*
 * stress-uaccess: a copy_user fault storm.
 *
 * usage: stress-uaccess [-t SECONDS] [-j THREADS] [-s SEED]
 *
 * THREADS workers (default: online CPUs, at least 2) each own two 2-page
 * windows, a source and a destination.  The second page of every window
 * (page B) is a MAP_SHARED mapping of a memfd page; a toggler thread keeps
 * munmap()ing and mmap()ing it again at the same address (MAP_FIXED_NOREPLACE,
 * so that a foreign mapping in the hole is detected, never clobbered),
 * mprotect()ing it PROT_NONE, PROT_READ or back to read-write, and dropping
 * its page table entries (MADV_DONTNEED).  The workers never touch the
 * windows themselves: they fill and check them through a second, always
 * mapped alias of the same memfd pages, and the kernel alone accesses the
 * windows, in short copies (1..128 bytes) that start k bytes before the
 * boundary of page B (0 <= k <= length):
 *
 *   write-pipe  write() from the source window into an empty pipe
 *   write-file  pwrite() from the source window into a tmpfs (memfd) file
 *   read-pipe   read() from a pipe holding the bytes into the destination
 *   read-file   pread() from a tmpfs file into the destination
 *
 * Each result must be the full length, an exact short count (a tmpfs file
 * stops at the first byte that faults: k when page B was inaccessible
 * throughout, more when it went away during the copy; a pipe never returns
 * a short count) or -1/EFAULT (for a file only when the first byte faults,
 * for a pipe whenever any byte faults: pipes copy all or nothing).  Every
 * result is checked against the data: what the kernel took from the source
 * window (read back from the pipe or the file) equals the pattern, byte for
 * byte, for exactly the bytes reported; what it wrote to the destination
 * equals the pattern for the bytes reported, every byte past a short count
 * (and every byte of the file past a short pwrite) is untouched, as
 * include/linux/uaccess.h asks ("All data past to + size - N must be left
 * unmodified"), nothing outside the buffer was written; an EFAULT leaves the
 * pipe or the file as it was.  A byte past the count that already holds the
 * source's byte is counted apart, as "ahead" (a copy routine that stored it
 * before a later fault and then reported less: the contract broken, the
 * data not corrupted); any other wrong value is a corruption.  Both must be
 * 0.  Fresh random data for every copy.
 *
 * TAP output: the counts of iterations, of faults induced (EFAULT and short
 * counts, by operation) and of corruptions, which must be 0.  Exit status 0
 * pass, 1 fail, 2 usage.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "tap.h"
#include "util.h"

#ifndef MAP_FIXED_NOREPLACE
#define MAP_FIXED_NOREPLACE	0x100000
#endif

#define MAX_LEN		128	/* longest copy */
#define GUARD		16	/* bytes checked on each side of the buffer */
#define FILE_SPAN	256	/* bytes of the data file that are checked */
#define MAX_THREADS	64
#define MAX_REPORTS	5	/* corruptions described per worker */

enum op { W_PIPE, W_FILE, R_PIPE, R_FILE, NR_OPS };
static const char * const op_name[NR_OPS] = {
	"write-pipe", "write-file", "read-pipe", "read-file",
};

/* How a copy ended. */
enum res { FULL, SHORT_EXACT, SHORT_MID, EFAULTED, INVALID, NR_RES };

struct counts {
	uint64_t iters[NR_OPS];
	uint64_t res[NR_OPS][NR_RES];
	uint64_t corrupt[NR_OPS];
	uint64_t ahead[NR_OPS];
	uint64_t setup_errors;
};

struct worker {
	pthread_t thread;
	unsigned int idx;
	int memfd;		/* pages: 0,1 source window; 2,3 destination */
	unsigned char *alias;	/* the 4 memfd pages, always mapped */
	unsigned char *src;	/* source window: page A, then page B */
	unsigned char *dst;	/* destination window */
	int pipe_r, pipe_w;
	int datafd;		/* a memfd: a tmpfs file */
	uint64_t rng;
	unsigned int reports;
	struct counts c;
};

enum bstate { B_RW, B_RO, B_NONE, B_UNMAPPED };

struct window {
	unsigned char *b;	/* address of page B */
	int memfd;
	off_t off;		/* of page B in the memfd */
	enum bstate state;
};

static size_t page;
static atomic_int stop;
static atomic_int toggler_failed;
static struct worker workers[MAX_THREADS];
static unsigned int nr_workers;
static struct window *windows;
static unsigned int nr_windows;
static uint64_t toggles[5];	/* unmap, map, prot none, prot ro, prot rw... */
static const char * const toggle_name[5] = {
	"munmap", "mmap", "mprotect(PROT_NONE|PROT_READ)", "mprotect(rw)",
	"madvise(DONTNEED)",
};
static uint64_t toggle_conflicts;

static void usage(void)
{
	fprintf(stderr,
		"usage: stress-uaccess [-t SECONDS] [-j THREADS] [-s SEED]\n"
		"  -t  run time, 1..3600 s (default 20)\n"
		"  -j  copying threads, 1..%d (default: online CPUs, at least 2)\n"
		"  -s  random seed (default: from the clock; printed)\n",
		MAX_THREADS);
	exit(KSFT_USAGE);
}

/* Describe a bad copy (the first MAX_REPORTS of each worker); false. */
__attribute__((format(printf, 3, 4)))
static bool report(struct worker *w, enum op op, const char *fmt, ...)
{
	char line[512];
	va_list ap;
	int n;

	if (w->reports++ >= MAX_REPORTS)
		return false;
	n = snprintf(line, sizeof(line), "# worker %u %s: ", w->idx, op_name[op]);
	va_start(ap, fmt);
	vsnprintf(line + n, sizeof(line) - (size_t)n, fmt, ap);
	va_end(ap);
	/* One fputs: lines of different threads do not interleave. */
	strncat(line, "\n", sizeof(line) - strlen(line) - 1);
	fputs(line, stdout);
	fflush(stdout);
	return false;
}

/*
 * Classify result @r (errno @e) of a copy of @len bytes that starts @k
 * bytes before page B.  Pipes copy all or nothing; a tmpfs file stops at
 * the first faulting byte, which is at or after the page boundary.
 */
static enum res classify(bool pipe, ssize_t r, int e, size_t len, size_t k)
{
	if (r == (ssize_t)len)
		return FULL;
	if (r < 0)
		return e == EFAULT && (pipe || k == 0) ? EFAULTED : INVALID;
	if (pipe || r == 0 || (size_t)r < k || (size_t)r > len)
		return INVALID;
	return (size_t)r == k ? SHORT_EXACT : SHORT_MID;
}

/* Read everything the (non-blocking) pipe holds; bytes read. */
static size_t drain(int fd, unsigned char *buf, size_t size)
{
	size_t n = 0;
	ssize_t r;

	for (;;) {
		r = read(fd, buf + n, size - n);
		if (r <= 0)
			break;
		n += (size_t)r;
		if (n == size)
			break;
	}
	return n;
}

/*
 * The destination bytes around a copy, seen through the alias: @got bytes
 * of the pattern, then (for an EFAULT, where the kernel may have copied a
 * prefix without reporting it) possibly more pattern bytes, then poison;
 * past a short count, each byte poison (the source's byte there sets
 * *@ahead: stored past the count); the guard bytes on both sides poison.
 * Returns the index of the first
 * wrong byte in the buffer (relative to its start; negative in the front
 * guard), or INT32_MAX if all are right.
 */
static long check_dst(const unsigned char *seen, const unsigned char *pat,
		      size_t len, size_t got, bool prefix_ok, bool *ahead)
{
	size_t i;

	for (i = 0; i < len + 2 * GUARD; i++) {
		unsigned char want = pat[i];
		size_t b = i - GUARD;	/* index in the buffer, if inside */

		if (i < GUARD || i >= GUARD + len) {
			want ^= 0xA5;
		} else if (b >= got) {
			if (prefix_ok && seen[i] == pat[i])
				continue;
			prefix_ok = false;
			/*
			 * Past a short count: must be untouched.  The source's
			 * byte here is a copy that stored it and then reported
			 * less (counted as "ahead", a failure of its own).
			 */
			if (seen[i] == pat[i]) {
				*ahead = true;
				continue;
			}
			want ^= 0xA5;
		}
		if (seen[i] != want)
			return (long)i - GUARD;
	}
	return INT32_MAX;
}

static void one_copy(struct worker *w)
{
	unsigned char pat[MAX_LEN + 2 * GUARD], buf[4096];
	unsigned char poison[FILE_SPAN];
	enum op op = (enum op)rnd(&w->rng, NR_OPS);
	size_t len = 1 + rnd(&w->rng, MAX_LEN);
	size_t k = rnd(&w->rng, (unsigned int)len + 1);
	bool write_op = op == W_PIPE || op == W_FILE;
	size_t start = page - k;		/* offset of the buffer in the window */
	unsigned char *al = w->alias + (write_op ? 0 : 2 * page) + start - GUARD;
	unsigned char *win = (write_op ? w->src : w->dst) + start;
	size_t i, got, n;
	bool good = true, ahead = false;
	ssize_t r;
	enum res res;
	long bad;
	int e;

	for (i = 0; i < sizeof(pat); i += 8) {
		uint64_t x = rnd64(&w->rng);

		memcpy(pat + i, &x, 8);
	}
	if (write_op) {
		memcpy(al, pat, len + 2 * GUARD);
	} else {
		for (i = 0; i < len + 2 * GUARD; i++)
			al[i] = pat[i] ^ 0xA5;
	}

	switch (op) {
	case W_PIPE:
		r = write(w->pipe_w, win, len);
		e = errno;
		n = drain(w->pipe_r, buf, sizeof(buf));
		res = classify(true, r, e, len, k);
		got = r > 0 ? (size_t)r : 0;
		if (n != got || memcmp(buf, pat + GUARD, got))
			good = report(w, op, "len %zu k %zu: write returned %zd, pipe holds %zu bytes%s",
			       len, k, r, n, n == got ? " that differ from the source" : "");
		break;
	case W_FILE:
		for (i = 0; i < FILE_SPAN; i++)
			poison[i] = (i < len ? pat[GUARD + i] : pat[i % sizeof(pat)]) ^ 0xA5;
		if (pwrite(w->datafd, poison, FILE_SPAN, 0) != FILE_SPAN) {
			w->c.setup_errors++;
			return;
		}
		r = pwrite(w->datafd, win, len, 0);
		e = errno;
		res = classify(false, r, e, len, k);
		got = r > 0 ? (size_t)r : 0;
		if (pread(w->datafd, buf, FILE_SPAN, 0) != FILE_SPAN) {
			w->c.setup_errors++;
			return;
		}
		bad = -1;
		for (i = 0; bad < 0 && i < got; i++)
			if (buf[i] != pat[GUARD + i])
				bad = i;
		/*
		 * Past the count: the old bytes.  The source's byte there
		 * (copy_from_user() stored it into the page cache, then
		 * reported less) counts as "ahead", as for a read.
		 */
		for (i = got; bad < 0 && i < FILE_SPAN; i++) {
			if (buf[i] == poison[i])
				continue;
			if (i < len && buf[i] == pat[GUARD + i])
				ahead = true;
			else
				bad = i;
		}
		if (bad >= 0)
			good = report(w, op, "len %zu k %zu: pwrite returned %zd, the file differs at %ld",
			       len, k, r, bad);
		break;
	case R_PIPE:
		if (write(w->pipe_w, pat + GUARD, len) != (ssize_t)len) {
			w->c.setup_errors++;
			drain(w->pipe_r, buf, sizeof(buf));
			return;
		}
		r = read(w->pipe_r, win, len);
		e = errno;
		n = drain(w->pipe_r, buf, sizeof(buf));
		res = classify(true, r, e, len, k);
		got = r > 0 ? (size_t)r : 0;
		if (got <= len && (n != len - got || memcmp(buf, pat + GUARD + got, n)))
			good = report(w, op, "len %zu k %zu: read returned %zd, %zu bytes left in the pipe",
			       len, k, r, n);
		bad = check_dst(al, pat, len, got, res == EFAULTED, &ahead);
		if (bad != INT32_MAX)
			good = report(w, op, "len %zu k %zu: read returned %zd, wrong byte at %ld",
			       len, k, r, bad);
		break;
	default:	/* R_FILE */
		if (pwrite(w->datafd, pat + GUARD, len, 0) != (ssize_t)len) {
			w->c.setup_errors++;
			return;
		}
		r = pread(w->datafd, win, len, 0);
		e = errno;
		res = classify(false, r, e, len, k);
		got = r > 0 ? (size_t)r : 0;
		bad = check_dst(al, pat, len, got, res == EFAULTED, &ahead);
		if (bad != INT32_MAX)
			good = report(w, op, "len %zu k %zu: pread returned %zd, wrong byte at %ld",
			       len, k, r, bad);
		break;
	}
	w->c.iters[op]++;
	w->c.res[op][res]++;
	if (!good)
		w->c.corrupt[op]++;
	if (ahead)
		w->c.ahead[op]++;
	if (res == INVALID)
		report(w, op, "len %zu k %zu: returned %zd (%s): not a full count, exact short count or EFAULT",
		       len, k, r, r < 0 ? strerror(e) : "short");
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	unsigned int i;

	while (!atomic_load_explicit(&stop, memory_order_relaxed))
		for (i = 0; i < 64; i++)
			one_copy(w);
	return NULL;
}

/* Change page B of one window; the toggler is the only thread that maps there. */
static void toggle(struct window *win, uint64_t *rng)
{
	unsigned int a = rnd(rng, 8);
	void *p;

	if (win->state == B_UNMAPPED) {
		p = mmap(win->b, page, PROT_READ | PROT_WRITE,
			 MAP_SHARED | MAP_FIXED_NOREPLACE, win->memfd, win->off);
		if (p != win->b) {
			/* Something else took the hole: stop, touch nothing. */
			if (p != MAP_FAILED)
				munmap(p, page);
			toggle_conflicts++;
			atomic_store(&toggler_failed, 1);
			return;
		}
		win->state = B_RW;
		toggles[1]++;
		return;
	}
	if (a < 3) {
		if (!munmap(win->b, page)) {
			win->state = B_UNMAPPED;
			toggles[0]++;
		}
	} else if (a < 5) {
		bool none = a == 3;

		if (!mprotect(win->b, page, none ? PROT_NONE : PROT_READ)) {
			win->state = none ? B_NONE : B_RO;
			toggles[2]++;
		}
	} else if (a < 7) {
		if (!mprotect(win->b, page, PROT_READ | PROT_WRITE)) {
			win->state = B_RW;
			toggles[3]++;
		}
	} else if (!madvise(win->b, page, MADV_DONTNEED)) {
		toggles[4]++;
	}
}

static void *toggler_main(void *arg)
{
	uint64_t rng = *(uint64_t *)arg;

	while (!atomic_load_explicit(&stop, memory_order_relaxed) &&
	       !atomic_load_explicit(&toggler_failed, memory_order_relaxed))
		toggle(&windows[rnd(&rng, nr_windows)], &rng);
	return NULL;
}

/*
 * Map the windows: each is 2 pages of the worker's memfd in a 4-page
 * PROT_NONE reservation (so the page after B stays inaccessible).
 */
static int setup_worker(struct worker *w, unsigned char *resv, uint64_t seed)
{
	int fds[2];
	unsigned int i;

	w->memfd = memfd_create("stress-uaccess-window", MFD_CLOEXEC);
	w->datafd = memfd_create("stress-uaccess-data", MFD_CLOEXEC);
	if (w->memfd < 0 || w->datafd < 0)
		return -1;
	if (ftruncate(w->memfd, (off_t)(4 * page)) ||
	    ftruncate(w->datafd, FILE_SPAN))
		return -1;
	w->alias = mmap(NULL, 4 * page, PROT_READ | PROT_WRITE, MAP_SHARED,
			w->memfd, 0);
	if (w->alias == MAP_FAILED)
		return -1;
	w->src = resv;
	w->dst = resv + 4 * page;
	for (i = 0; i < 2; i++) {
		unsigned char *win = i ? w->dst : w->src;

		if (mmap(win, 2 * page, PROT_READ | PROT_WRITE,
			 MAP_SHARED | MAP_FIXED, w->memfd,
			 (off_t)(2 * i * page)) != win)
			return -1;
		windows[nr_windows].b = win + page;
		windows[nr_windows].memfd = w->memfd;
		windows[nr_windows].off = (off_t)((2 * i + 1) * page);
		windows[nr_windows].state = B_RW;
		nr_windows++;
	}
	if (pipe2(fds, O_CLOEXEC | O_NONBLOCK))
		return -1;
	w->pipe_r = fds[0];
	w->pipe_w = fds[1];
	w->rng = rnd_seed(seed, w->idx + 1);
	return 0;
}

int main(int argc, char **argv)
{
	unsigned long secs = 20, threads = 0, seed = 0;
	struct counts sum = { 0 };
	uint64_t trng, faults = 0, iters = 0, corrupt = 0, invalid = 0, ahead = 0;
	uint64_t t0, elapsed;
	unsigned char *resv;
	pthread_t toggler;
	unsigned int i, j;
	bool kinds_ok = true;
	long ncpu;
	int opt;

	while ((opt = getopt(argc, argv, "t:j:s:h")) != -1) {
		switch (opt) {
		case 't':
			if (parse_uint(optarg, 1, 3600, &secs))
				usage();
			break;
		case 'j':
			if (parse_uint(optarg, 1, MAX_THREADS, &threads))
				usage();
			break;
		case 's':
			if (parse_uint(optarg, 1, UINT32_MAX, &seed))
				usage();
			break;
		default:
			usage();
		}
	}
	if (optind != argc)
		usage();

	page = (size_t)sysconf(_SC_PAGESIZE);
	ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	if (!threads)
		threads = ncpu < 2 ? 2 : ncpu > MAX_THREADS ? MAX_THREADS : (unsigned long)ncpu;
	if (!seed)
		seed = (now_ns() & 0x7fffffff) | 1;
	nr_workers = (unsigned int)threads;

	tap_plan(6);
	tap_diag("stress-uaccess: %u copying threads, 1 toggler, %lu s, seed %lu, page %zu",
		 nr_workers, secs, seed, page);

	/* Not expected; a kernel bug that hangs a copy must not hang the run. */
	alarm((unsigned int)secs + 120);

	windows = calloc(2 * nr_workers, sizeof(*windows));
	resv = mmap(NULL, 8 * page * nr_workers, PROT_NONE,
		    MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (!windows || resv == MAP_FAILED) {
		tap_ok(0, "setup: reserve the windows: %s", strerror(errno));
		tap_skip_rest("setup failed");
		tap_finish();
	}
	for (i = 0; i < nr_workers; i++) {
		workers[i].idx = i;
		if (setup_worker(&workers[i], resv + 8 * page * i, seed)) {
			tap_ok(0, "setup: worker %u: %s", i, strerror(errno));
			tap_skip_rest("setup failed");
			tap_finish();
		}
	}
	trng = rnd_seed(seed, 0);
	t0 = now_ns();
	for (i = 0; i < nr_workers; i++) {
		if (pthread_create(&workers[i].thread, NULL, worker_main, &workers[i])) {
			atomic_store(&stop, 1);
			tap_ok(0, "setup: start worker %u", i);
			tap_skip_rest("setup failed");
			tap_finish();
		}
	}
	if (pthread_create(&toggler, NULL, toggler_main, &trng)) {
		atomic_store(&stop, 1);
		tap_ok(0, "setup: start the toggler");
		tap_skip_rest("setup failed");
		tap_finish();
	}
	tap_ok(1, "setup: %u workers with 2 windows each, 1 toggler", nr_workers);

	{
		struct timespec ts = { .tv_sec = (time_t)secs };

		while (nanosleep(&ts, &ts) && errno == EINTR)
			;
	}
	atomic_store(&stop, 1);
	for (i = 0; i < nr_workers; i++)
		pthread_join(workers[i].thread, NULL);
	pthread_join(toggler, NULL);
	elapsed = now_ns() - t0;

	for (i = 0; i < nr_workers; i++) {
		for (j = 0; j < NR_OPS; j++) {
			unsigned int r;

			sum.iters[j] += workers[i].c.iters[j];
			sum.corrupt[j] += workers[i].c.corrupt[j];
			sum.ahead[j] += workers[i].c.ahead[j];
			for (r = 0; r < NR_RES; r++)
				sum.res[j][r] += workers[i].c.res[j][r];
		}
		sum.setup_errors += workers[i].c.setup_errors;
	}
	tap_diag("%-10s %10s %10s %10s %10s %10s %8s %8s %8s",
		 "op", "copies", "full", "short=k", "short>k", "EFAULT", "invalid", "corrupt",
		 "ahead");
	for (j = 0; j < NR_OPS; j++) {
		uint64_t f = sum.res[j][SHORT_EXACT] + sum.res[j][SHORT_MID] +
			     sum.res[j][EFAULTED];

		tap_diag("%-10s %10" PRIu64 " %10" PRIu64 " %10" PRIu64 " %10" PRIu64
			 " %10" PRIu64 " %8" PRIu64 " %8" PRIu64 " %8" PRIu64,
			 op_name[j], sum.iters[j], sum.res[j][FULL],
			 sum.res[j][SHORT_EXACT], sum.res[j][SHORT_MID],
			 sum.res[j][EFAULTED], sum.res[j][INVALID], sum.corrupt[j],
			 sum.ahead[j]);
		iters += sum.iters[j];
		faults += f;
		invalid += sum.res[j][INVALID];
		corrupt += sum.corrupt[j];
		ahead += sum.ahead[j];
		if (!f)
			kinds_ok = false;
	}
	for (j = 0; j < ARRAY_SIZE(toggles); j++)
		tap_diag("toggler: %s %" PRIu64, toggle_name[j], toggles[j]);
	tap_diag("%.1f s, %" PRIu64 " copies (%.0f/s), %" PRIu64 " faults induced, %" PRIu64
		 " invalid results, %" PRIu64 " corruptions, %" PRIu64 " setup errors",
		 elapsed / 1e9, iters, iters / (elapsed / 1e9), faults, invalid,
		 corrupt, sum.setup_errors);

	tap_ok(!toggler_failed && !sum.setup_errors,
	       "toggler and helpers: no foreign mapping in a hole (%" PRIu64
	       "), no failed helper call (%" PRIu64 ")",
	       toggle_conflicts, sum.setup_errors);
	tap_ok(invalid == 0,
	       "every result is a full count, an exact short count or EFAULT (%" PRIu64
	       " of %" PRIu64 " invalid)", invalid, iters);
	tap_ok(corrupt == 0,
	       "no corruption: the reported bytes copied, the rest of the buffer untouched or holding the source's bytes, nothing outside it (%" PRIu64
	       " corruptions)", corrupt);
	tap_ok(ahead == 0,
	       "nothing stored past a short count (uaccess.h: data past to + size - N left unmodified): %" PRIu64
	       " copies with source bytes past their count", ahead);
	tap_ok(iters > 0 && kinds_ok,
	       "faults induced in every operation: %" PRIu64 " faults in %" PRIu64 " copies",
	       faults, iters);
	tap_diag("stress-uaccess: iterations %" PRIu64 ", faults %" PRIu64
		 ", corruptions %" PRIu64, iters, faults, corrupt + invalid);
	tap_finish();
}
