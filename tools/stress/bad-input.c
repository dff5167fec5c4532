// SPDX-License-Identifier: GPL-2.0
/*
 * bad-input: malformed input for the interfaces the series adds or changes.
 *
 * usage: bad-input [-t SECONDS]
 *
 * cpu.core_tag (sched, issue 7): a table of malformed values (empty,
 * spaces, signs, leading zeros, other digits, values that truncate to 0 or
 * 1 in 8, 32 or 64 bits, non-digits, NUL and control bytes, a multibyte
 * digit, 4096 bytes and more), each written with one write() to the file of
 * a test cgroup holding a parked task, once with the tag at 0 and once at
 * 1: the write fails with EINVAL (E2BIG for more than a page, which kernfs
 * refuses before the file sees it) and the value read back and the task's
 * cookie (PR_SCHED_CORE_GET) are unchanged.  Only "0", "1", "0\n" and "1\n"
 * succeed; a write of 0 bytes returns 0 (cgroup_file_write() returns
 * before the file's handler) and changes nothing either.  Also: no cpu.core_tag on the root cgroup, and one fd written
 * twice ("1" then "\n") takes each write alone.
 *
 * /sys/fs/selinux/avc/hash_stats (selinux, issue 3): read until EOF with
 * reads of 1, 2, 3, 7, 13, 64, 4095 and 4096 bytes: no error, and the
 * concatenation parses (each read regenerates the text, so a piece may come
 * from a different state: retried a few times).  Reads into a NULL or a
 * PROT_NONE buffer fail with EFAULT; a read whose buffer ends at a PROT_NONE
 * page returns exactly the bytes before it; reads of 0 bytes and past the
 * end return 0; a negative seek fails with EINVAL; a write fails and
 * changes nothing.
 *
 * Parts whose interface is absent are skipped (exit 4 when all are).
 * -t bounds the run time (default 120 s; an alarm ends a hung run).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "hashstats.h"
#include "tap.h"
#include "util.h"

#ifndef PR_SCHED_CORE
#define PR_SCHED_CORE		62
#define PR_SCHED_CORE_GET	0
#endif
#define PIDTYPE_PID		0
#ifndef CGROUP2_SUPER_MAGIC
#define CGROUP2_SUPER_MAGIC	0x63677270
#endif
#define CGROOT			"/sys/fs/cgroup"

/* What a write must do. */
enum expect {
	SET,		/* succeed and set the value */
	BAD,		/* EINVAL (E2BIG above a page, from kernfs), nothing changed */
	NOOP,		/* 0 bytes: cgroup_file_write() returns 0 before the file sees it */
};

struct row {
	const char *desc;
	const char *val;	/* NULL: longbuf, "1" and spaces */
	size_t len;		/* bytes written */
	enum expect expect;
};

#define S(d, v)		{ d, v, sizeof(v) - 1, BAD }
#define GOOD(d, v)	{ d, v, sizeof(v) - 1, SET }
#define LONG(d, n)	{ d, NULL, n, BAD }

static const struct row rows[] = {
	GOOD("\"0\"", "0"),
	GOOD("\"1\"", "1"),
	GOOD("\"0\\n\"", "0\n"),
	GOOD("\"1\\n\"", "1\n"),
	{ "empty (a write of 0 bytes)", "", 0, NOOP },
	S("\" \"", " "),
	S("\"\\n\"", "\n"),
	S("\"  1\"", "  1"),
	S("\"\\t1\"", "\t1"),
	S("\"1 \"", "1 "),
	S("\"1\\t\"", "1\t"),
	S("\"1 \\n\"", "1 \n"),
	S("\"1\\r\\n\"", "1\r\n"),
	S("\"1\\n\\n\"", "1\n\n"),
	S("\"\\n1\"", "\n1"),
	S("\"1\\n1\"", "1\n1"),
	S("\"1\\0\"", "1\0"),
	S("\"\\0\"", "\0"),
	S("\"\\x01\"", "\x01"),
	S("\"+1\"", "+1"),
	S("\"-1\"", "-1"),
	S("\"+0\"", "+0"),
	S("\"-0\"", "-0"),
	S("\"00\"", "00"),
	S("\"01\"", "01"),
	S("\"10\"", "10"),
	S("\"11\"", "11"),
	S("\"2\"", "2"),
	S("\"9\"", "9"),
	S("\"256\" (1 << 8)", "256"),
	S("\"257\" (1 in 8 bits)", "257"),
	S("\"65537\" (1 in 16 bits)", "65537"),
	S("\"4294967296\" (0 in 32 bits)", "4294967296"),
	S("\"4294967297\" (1 in 32 bits)", "4294967297"),
	S("\"-4294967295\" (1 in 32 bits)", "-4294967295"),
	S("\"18446744073709551616\" (0 in 64 bits)", "18446744073709551616"),
	S("\"18446744073709551617\" (1 in 64 bits)", "18446744073709551617"),
	S("\"99999999999999999999\"", "99999999999999999999"),
	S("\"0x1\"", "0x1"),
	S("\"0x0\"", "0x0"),
	S("\"0b1\"", "0b1"),
	S("\"1x\"", "1x"),
	S("\"1.0\"", "1.0"),
	S("\"1e0\"", "1e0"),
	S("\"a\"", "a"),
	S("\"y\"", "y"),
	S("\"on\"", "on"),
	S("\"true\"", "true"),
	S("fullwidth digit one (UTF-8)", "\xef\xbc\x91"),
	LONG("4095 bytes: \"1\" and spaces", 4095),
	LONG("4096 bytes: \"1\" and spaces", 4096),
	LONG("4097 bytes: \"1\" and spaces", 4097),
	LONG("65536 bytes: \"1\" and spaces", 65536),
};

static const size_t chunks[] = { 1, 2, 3, 7, 13, 64, 4095, 4096 };

/* Tests: core_tag root, each row, split write, end state; hash_stats reads and edges. */
#define NR_TAG_TESTS	(1 + ARRAY_SIZE(rows) + 2)
#define NR_HS_EDGES	5
#define NR_TESTS	(NR_TAG_TESTS + ARRAY_SIZE(chunks) + NR_HS_EDGES)

static char cg[128];
static char tagfile[160];
static pid_t parked;
static int park_w = -1;
static char *longbuf;

static void usage(void)
{
	fprintf(stderr, "usage: bad-input [-t SECONDS]\n"
		"  -t  time limit, 10..3600 s (default 120)\n");
	exit(KSFT_USAGE);
}

static const char *value_of(const struct row *r)
{
	return r->val ? r->val : longbuf;
}

/* Write @len bytes with one write() on a fresh fd; 0 or -errno. */
static int write_tag(const void *buf, size_t len)
{
	ssize_t n;
	int fd, e;

	fd = open(tagfile, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = write(fd, buf, len);
	e = errno;
	close(fd);
	if (n < 0)
		return -e;
	return (size_t)n == len ? 0 : -EIO;
}

/* The tag read back: 0, 1, or -1 when the file does not read "0\n"/"1\n". */
static int read_tag(void)
{
	char buf[16];

	if (read_file(tagfile, buf, sizeof(buf)) != 2 || buf[1] != '\n')
		return -1;
	return buf[0] == '0' ? 0 : buf[0] == '1' ? 1 : -1;
}

static uint64_t cookie(void)
{
	uint64_t c = 0;

	if (prctl(PR_SCHED_CORE, PR_SCHED_CORE_GET, parked, PIDTYPE_PID, (unsigned long)&c))
		return UINT64_MAX;
	return c;
}

static void cleanup(void)
{
	if (park_w >= 0) {
		close(park_w);		/* the parked task exits */
		park_w = -1;
	}
	if (parked > 0) {
		waitpid(parked, NULL, 0);
		parked = 0;
	}
	if (cg[0]) {
		/* The task has left; the cgroup goes. */
		if (rmdir(cg))
			tap_diag("rmdir %s: %s", cg, strerror(errno));
		cg[0] = '\0';
	}
}

/* NULL if the core_tag tests can run, else why not (after cleaning up). */
static const char *setup_tag(void)
{
	static char why[256];
	char buf[512], num[24];
	struct statfs sfs;
	int p[2], r;

	if (geteuid())
		return "needs root";
	if (statfs(CGROOT, &sfs) || sfs.f_type != CGROUP2_SUPER_MAGIC)
		return "no cgroup v2 at " CGROOT;
	if (read_file(CGROOT "/cgroup.controllers", buf, sizeof(buf)) < 0 || !strstr(buf, "cpu"))
		return "no cpu controller";
	r = write_str(CGROOT "/cgroup.subtree_control", "+cpu");
	if (r) {
		snprintf(why, sizeof(why), "cannot enable the cpu controller: %s", strerror(-r));
		return why;
	}
	snprintf(cg, sizeof(cg), CGROOT "/bad-input.%d", (int)getpid());
	if (mkdir(cg, 0755)) {
		snprintf(why, sizeof(why), "mkdir %s: %s", cg, strerror(errno));
		cg[0] = '\0';
		return why;
	}
	snprintf(tagfile, sizeof(tagfile), "%s/cpu.core_tag", cg);
	if (access(tagfile, F_OK)) {
		cleanup();
		return "no cpu.core_tag (kernel without the cgroup core scheduling interface)";
	}
	r = write_tag("1", 1);
	if (r == -ENODEV) {
		cleanup();
		return "core scheduling needs SMT (cpu.core_tag: ENODEV)";
	}
	if (r || write_tag("0", 1)) {
		snprintf(why, sizeof(why), "cannot set cpu.core_tag: %s", strerror(-r));
		cleanup();
		return why;
	}
	/* A task in the cgroup, whose cookie must follow only good writes. */
	if (pipe2(p, O_CLOEXEC)) {
		cleanup();
		return "pipe failed";
	}
	parked = fork();
	if (parked == 0) {
		char c;

		prctl(PR_SET_PDEATHSIG, SIGKILL);
		close(p[1]);
		if (read(p[0], &c, 1) < 0)
			_exit(1);
		_exit(0);
	}
	close(p[0]);
	park_w = p[1];
	snprintf(buf, sizeof(buf), "%s/cgroup.procs", cg);
	snprintf(num, sizeof(num), "%d", (int)parked);
	if (parked < 0 || write_str(buf, num)) {
		cleanup();
		return "cannot put a task into the test cgroup";
	}
	return NULL;
}

static void test_rows(void)
{
	unsigned int i;
	int s;

	for (i = 0; i < ARRAY_SIZE(rows); i++) {
		const struct row *r = &rows[i];
		bool pass = true;
		char got[160] = "";
		size_t off = 0;

		for (s = 0; s <= 1; s++) {
			uint64_t c0, c1;
			int err, now, want;

			if (write_tag(s ? "1" : "0", 1) || read_tag() != s) {
				pass = false;
				snprintf(got + off, sizeof(got) - off, "cannot set %d; ", s);
				off = strlen(got);
				continue;
			}
			c0 = cookie();
			err = write_tag(value_of(r), r->len);
			now = read_tag();
			c1 = cookie();
			if (r->expect == SET) {
				want = value_of(r)[0] - '0';
				if (err || now != want || (c1 == 0) != (want == 0) ||
				    (want == s && c1 != c0)) {
					pass = false;
					snprintf(got + off, sizeof(got) - off,
						 "at %d: %s, reads %d, cookie %s; ", s,
						 err ? strerror(-err) : "ok", now,
						 c1 ? "set" : "none");
				}
			} else if ((r->expect == NOOP ? err != 0 :
				    !(err == -EINVAL || (r->len > 4096 && err == -E2BIG))) ||
				   now != s || c1 != c0) {
				pass = false;
				snprintf(got + off, sizeof(got) - off,
					 "at %d: %s, reads %d, cookie %s; ", s,
					 err ? strerror(-err) : "accepted", now,
					 c1 == c0 ? "unchanged" : "changed");
			}
			off = strlen(got);
		}
		if (pass)
			tap_ok(1, "core_tag: %s %s", r->desc,
			       r->expect == SET ? "accepted" :
			       r->expect == NOOP ? "writes nothing, nothing changed" :
			       r->len > 4096 ? "refused (EINVAL or E2BIG), nothing changed" :
			       "refused with EINVAL, nothing changed");
		else
			tap_ok(0, "core_tag: %s: %s", r->desc, got);
	}
}

static void test_tag(void)
{
	const char *why = setup_tag();
	unsigned int i;
	uint64_t c0;
	ssize_t n1, n2;
	int fd, e1, e2;

	if (why) {
		for (i = 0; i < NR_TAG_TESTS; i++)
			tap_skip("core_tag", "%s", why);
		return;
	}
	tap_ok(access(CGROOT "/cpu.core_tag", F_OK) && errno == ENOENT,
	       "core_tag: no cpu.core_tag on the root cgroup");
	test_rows();

	/* One fd, two writes: each stands alone ("1" ok, then "\n" refused). */
	write_tag("0", 1);
	fd = open(tagfile, O_WRONLY | O_CLOEXEC);
	n1 = fd < 0 ? -1 : write(fd, "1", 1);
	e1 = errno;
	n2 = fd < 0 ? -1 : write(fd, "\n", 1);
	e2 = errno;
	if (fd >= 0)
		close(fd);
	tap_ok(n1 == 1 && n2 == -1 && e2 == EINVAL && read_tag() == 1,
	       "core_tag: \"1\" then \"\\n\" on one fd: %zd (%s), %zd (%s), reads %d",
	       n1, n1 < 0 ? strerror(e1) : "ok", n2, n2 < 0 ? strerror(e2) : "ok", read_tag());

	/* And the file still works both ways. */
	c0 = cookie();
	tap_ok(c0 && c0 != UINT64_MAX && !write_tag("0\n", 2) && read_tag() == 0 &&
	       cookie() == 0 && !write_tag("1\n", 2) && read_tag() == 1 && cookie() &&
	       !write_tag("0", 1) && cookie() == 0,
	       "core_tag: after the bad writes, 0 and 1 still untag and tag the task");
	cleanup();
}

/*
 * Read hash_stats with reads of @chunk bytes until EOF; the text or NULL
 * (errno set) on an error.  At most 4 pages, and 8192 reads.
 */
static char *read_chunked(size_t chunk, char *buf, size_t size)
{
	size_t len = 0, want;
	int fd, reads = 0;
	ssize_t r;

	fd = open(HASH_STATS, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	while (reads++ < 8192) {
		want = size - 1 - len < chunk ? size - 1 - len : chunk;
		if (!want) {
			errno = EFBIG;
			break;
		}
		r = read(fd, buf + len, want);
		if (r < 0)
			break;
		if (!r) {
			close(fd);
			buf[len] = '\0';
			return buf;
		}
		len += (size_t)r;
	}
	if (reads > 8192)
		errno = ELOOP;
	close(fd);
	return NULL;
}

static void test_hash_stats(void)
{
	char text[4 * HS_TEXT_SIZE], why[256], first[HS_TEXT_SIZE];
	struct hash_stats hs;
	unsigned int i, tries;
	size_t pg = (size_t)sysconf(_SC_PAGESIZE);
	unsigned char *m;
	ssize_t r;
	int fd;

	if (access(HASH_STATS, R_OK)) {
		for (i = 0; i < ARRAY_SIZE(chunks) + NR_HS_EDGES; i++)
			tap_skip("hash_stats", "no %s (SELinux off?)", HASH_STATS);
		return;
	}
	for (i = 0; i < ARRAY_SIZE(chunks); i++) {
		const char *err = NULL;

		for (tries = 0; tries < 5; tries++) {
			if (!read_chunked(chunks[i], text, sizeof(text))) {
				err = strerror(errno);
				break;
			}
			if (!hs_parse(text, &hs, why, sizeof(why)) && !hs_check(&hs, why, sizeof(why)))
				break;
			/* Pieces of different states (the AVC changed between reads). */
		}
		if (err)
			tap_ok(0, "hash_stats: %zu-byte reads: %s", chunks[i], err);
		else
			tap_ok(tries < 5, "hash_stats: %zu-byte reads until EOF give a well-formed text%s%s",
			       chunks[i], tries < 5 ? "" : ": ", tries < 5 ? "" : why);
	}

	fd = open(HASH_STATS, O_RDONLY | O_CLOEXEC);
	m = mmap(NULL, 2 * pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (fd < 0 || m == MAP_FAILED || mprotect(m + pg, pg, PROT_NONE)) {
		for (i = 0; i < NR_HS_EDGES; i++)
			tap_ok(0, "hash_stats: setup: %s", strerror(errno));
		return;
	}
	{
		ssize_t a, b;
		int ea, eb;

		a = syscall(SYS_pread64, fd, NULL, 64, 0);	/* not pread(): glibc's nonnull */
		ea = errno;
		b = pread(fd, m + pg, 64, 0);
		eb = errno;
		tap_ok(a == -1 && ea == EFAULT && b == -1 && eb == EFAULT,
		       "hash_stats: reads into NULL and into a PROT_NONE page fail with EFAULT (%zd %s, %zd %s)",
		       a, a < 0 ? strerror(ea) : "", b, b < 0 ? strerror(eb) : "");
	}
	/* A buffer whose last 5 bytes precede the PROT_NONE page. */
	for (tries = 0; tries < 5; tries++) {
		if (read_file(HASH_STATS, first, sizeof(first)) < 5)
			break;
		r = pread(fd, m + pg - 5, 64, 0);
		if (r == 5 && !memcmp(m + pg - 5, first, 5))
			break;
	}
	tap_ok(tries < 5, "hash_stats: a read whose buffer runs into a PROT_NONE page returns the 5 bytes before it");
	{
		ssize_t z = pread(fd, text, 0, 0), past = pread(fd, text, 64, 1LL << 40);

		tap_ok(z == 0 && past == 0, "hash_stats: reads of 0 bytes and past the end return 0 (%zd, %zd)",
		       z, past);
	}
	{
		off_t o = lseek(fd, -1, SEEK_SET);
		int e = errno;

		tap_ok(o == -1 && e == EINVAL, "hash_stats: a negative seek fails with EINVAL (%lld %s)",
		       (long long)o, o < 0 ? strerror(e) : "");
	}
	close(fd);
	munmap(m, 2 * pg);
	{
		int w = open(HASH_STATS, O_WRONLY | O_CLOEXEC);
		ssize_t n = w < 0 ? -1 : write(w, "entries: 0\n", 11);
		int e = errno;

		if (w >= 0)
			close(w);
		tap_ok(n < 0 && read_file(HASH_STATS, text, sizeof(text)) > 0 &&
		       !hs_parse(text, &hs, why, sizeof(why)),
		       "hash_stats: a write fails (%s) and the file still parses", n < 0 ? strerror(e) : "accepted");
	}
}

int main(int argc, char **argv)
{
	unsigned long secs = 120;
	int opt;

	while ((opt = getopt(argc, argv, "t:h")) != -1) {
		if (opt != 't' || parse_uint(optarg, 10, 3600, &secs))
			usage();
	}
	if (optind != argc)
		usage();
	alarm((unsigned int)secs);

	longbuf = malloc(65536);
	if (!longbuf)
		return KSFT_FAIL;
	memset(longbuf, ' ', 65536);
	longbuf[0] = '1';

	tap_plan((unsigned int)NR_TESTS);
	tap_diag("bad-input: %zu cpu.core_tag values, hash_stats with %zu read sizes",
		 ARRAY_SIZE(rows), ARRAY_SIZE(chunks));
	test_tag();
	test_hash_stats();
	tap_finish();
}
