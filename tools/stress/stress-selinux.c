// SPDX-License-Identifier: GPL-2.0
/*
 * stress-selinux: SELinux policy reloads while the AVC churns.
 *
 * usage: stress-selinux [-n RELOADS] [-t SECONDS] [-w WORKERS] [-c THRESHOLD]
 *
 * Files on a private tmpfs are labelled (security.selinux) with as many
 * types of the loaded policy as the program's own domain may relabel to,
 * stat, open and read, and that may be put on tmpfs, without a denial (so
 * no audit messages flood the console): at
 * least twice /sys/fs/selinux/avc/cache_threshold of them and at most four
 * times (2048 with the default threshold of 512), so that WORKERS
 * processes that stat() and open() them in turn keep the AVC above its
 * threshold, reclaiming all the time.  -c sets cache_threshold to
 * THRESHOLD for the run (restored afterwards): a smaller AVC needs fewer
 * files and fewer access computations per pass, for kernels that make each
 * of them slow (KASAN and lockdep under emulation).  Meanwhile the policy is reloaded
 * RELOADS times (the image of $STRESS_SELINUX_POLICY, /etc/selinux/policy.33,
 * /etc/selinux/default/policy/policy.33 or else /sys/fs/selinux/policy; it
 * is loaded first if no policy is).  After each reload, once every worker
 * has made a full pass over the files (the AVC is full again), the workers
 * are parked and:
 *
 *  - /sys/fs/selinux/avc/hash_stats parses (the 6.12 lines byte for byte,
 *    the quartile line if any) and is consistent: entries <= cache_threshold
 *    (after at most a few more lookups, since reclaim works in batches),
 *    buckets used <= entries and <= 512, longest chain >= 1 when there are
 *    entries, 1 <= q1 <= med <= q3 <= longest chain;
 *  - the access decisions of ~50 (source context, target context, class)
 *    triples, computed through /sys/fs/selinux/access, are those recorded
 *    before the first reload (all fields but the policy sequence number).
 *
 * While the workers run, hash_stats is read again and again and must always
 * parse, and reading on to EOF after the whole text must add nothing (one
 * text per open; a kernel without the series makes a new text per read(),
 * reported as XFAIL).  With CONFIG_SECURITY_SELINUX_AVC_STATS the AVC's reclaim count
 * (/sys/fs/selinux/avc/cache_stats) proves the churn; the fill level at each
 * check does too.  The run stops after SECONDS at the latest, which fails
 * the test if not all reloads were done.  SKIP (exit 4) without SELinux, a
 * policy, root, or enough usable types.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "hashstats.h"
#include "tap.h"
#include "util.h"
#include "../include/readfile.h"

#define SELINUXFS	"/sys/fs/selinux"
#ifndef SELINUX_MAGIC
#define SELINUX_MAGIC	0xf97cff8c
#endif
#define MAX_WORKERS	16
#define MAX_FILES	2048
#define CTX_SIZE	256
#define NR_TRIPLES	50
#define AVC_RECLAIM	16	/* AVC_CACHE_RECLAIM */
#define NUDGE_MAX	512	/* lookups allowed to bring entries under the threshold */
#define MAX_REPORTS	5

struct shared {
	atomic_int pause;
	atomic_int stop;
	atomic_uint epoch;		/* bumped after each reload */
	atomic_uint_least64_t stats[MAX_WORKERS];
	atomic_uint_least64_t opens[MAX_WORKERS];
};

struct triple {
	char scon[CTX_SIZE];
	char tcon[CTX_SIZE];
	unsigned int tclass;
	char answer[128];	/* without the sequence number */
};

static struct shared *sh;
static char dir[64];
static char level[8];
static char own[CTX_SIZE];
static int nr_files, max_files, nr_workers;
static char threshold_saved[32];	/* cache_threshold before -c, if changed */
static pid_t pids[MAX_WORKERS];
static int go_w[MAX_WORKERS];		/* controller -> worker: resume */
static int ack_r, pass_r;		/* workers -> controller */
static struct triple triples[NR_TRIPLES];
static int nr_triples;

static void usage(void)
{
	fprintf(stderr,
		"usage: stress-selinux [-n RELOADS] [-t SECONDS] [-w WORKERS] [-c THRESHOLD]\n"
		"  -n  policy reloads, 1..10000 (default 100)\n"
		"  -t  time limit, 10..7200 s (default 1800); fails if reached first\n"
		"  -w  worker processes, 1..%d (default 4)\n"
		"  -c  AVC cache_threshold for the run, 16..%d (default: as set)\n",
		MAX_WORKERS, MAX_FILES / 4);
	exit(KSFT_USAGE);
}

static bool policy_loaded(void)
{
	return !access(SELINUXFS "/class/process/index", R_OK);
}

static bool context_valid(const char *ctx)
{
	ssize_t r;
	int fd;

	fd = open(SELINUXFS "/context", O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return false;
	r = write(fd, ctx, strlen(ctx));
	close(fd);
	return r == (ssize_t)strlen(ctx);
}

/* The decision for a triple, without the sequence number (5th field). */
static int compute_access(const char *scon, const char *tcon, unsigned int tclass,
			  char *out, size_t out_len)
{
	unsigned int allowed, decided, aa, ad, seq, flags;
	char q[2 * CTX_SIZE + 16], a[256];
	ssize_t r;
	int fd;

	snprintf(q, sizeof(q), "%s %s %u", scon, tcon, tclass);
	fd = open(SELINUXFS "/access", O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (write(fd, q, strlen(q)) != (ssize_t)strlen(q)) {
		r = -errno;
		close(fd);
		return (int)r;
	}
	r = read(fd, a, sizeof(a) - 1);
	close(fd);
	if (r <= 0)
		return r < 0 ? -errno : -EIO;
	a[r] = '\0';
	if (sscanf(a, "%x %x %x %x %u %x", &allowed, &decided, &aa, &ad, &seq,
		   &flags) != 6)
		return -EPROTO;
	snprintf(out, out_len, "allowed %x decided %x auditallow %x auditdeny %x flags %x",
		 allowed, decided, aa, ad, flags);
	return 0;
}

static int class_index(const char *class)
{
	char path[128], buf[32];

	snprintf(path, sizeof(path), SELINUXFS "/class/%s/index", class);
	if (read_file(path, buf, sizeof(buf)) <= 0)
		return -1;
	return atoi(buf);
}

static unsigned int perm_bit(const char *class, const char *perm)
{
	char path[160], buf[32];
	int v;

	snprintf(path, sizeof(path), SELINUXFS "/class/%s/perms/%s", class, perm);
	if (read_file(path, buf, sizeof(buf)) <= 0)
		return 0;
	v = atoi(buf);
	return v >= 1 && v <= 32 ? 1U << (v - 1) : 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char * const *)a, *(char * const *)b);
}

/*
 * Type name candidates: the binary policy stores names as counted strings,
 * so the printable runs ending in "_t" include every type name; the rest
 * are weeded out by checking the contexts made of them.
 */
static char **type_candidates(const char *policy, size_t len, size_t *nr)
{
	char **names = NULL, **tmp;
	size_t i, n = 0, cap = 0, start, u;

	for (i = 0; i < len; i++) {
		start = i;
		while (i < len && (isalnum((unsigned char)policy[i]) || policy[i] == '_'))
			i++;
		if (i - start < 3 || i - start > 100 || policy[i - 2] != '_' ||
		    policy[i - 1] != 't')
			continue;
		if (n == cap) {
			cap = cap ? 2 * cap : 1024;
			tmp = realloc(names, cap * sizeof(*names));
			if (!tmp)
				break;
			names = tmp;
		}
		names[n] = strndup(policy + start, i - start);
		if (names[n])
			n++;
	}
	if (!n) {
		free(names);
		return NULL;
	}
	qsort(names, n, sizeof(*names), cmp_str);
	for (i = 1, u = 1; i < n; i++) {
		if (strcmp(names[i], names[u - 1]))
			names[u++] = names[i];
		else
			free(names[i]);
	}
	*nr = u;
	return names;
}

static void file_path(char *buf, size_t len, int i)
{
	snprintf(buf, len, "%s/f%04d", dir, i);
}

/* One lookup that is probably an AVC miss: stat the next file. */
static void touch_file(int i, bool open_too)
{
	char path[96], c;
	struct stat st;
	int fd;

	file_path(path, sizeof(path), i);
	if (stat(path, &st))
		return;
	if (!open_too)
		return;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	if (read(fd, &c, 1) < 0)
		c = 0;
	close(fd);
}

/*
 * A worker: stat (and every 4th time open and read) the files in an order
 * of its own, forever.  Reports a completed pass over all the files since
 * the last reload (epoch) on the pass pipe; parks when asked to.
 */
static void worker(int idx, int go_r, int ack_w, int pass_w)
{
	unsigned int epoch = atomic_load(&sh->epoch), e;
	uint64_t rng = rnd_seed((uint64_t)getpid(), (uint64_t)idx);
	int i = (int)rnd(&rng, (unsigned int)nr_files);
	int stride = 1, done = 0, try;
	uint64_t n = 0;
	char c;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	/* A stride coprime to nr_files: a pass visits every file once. */
	for (try = 0; try < 32; try++) {
		int s = 1 + (int)rnd(&rng, 64), x = s, y = nr_files;

		while (y) {
			int t = x % y;

			x = y;
			y = t;
		}
		if (x == 1) {
			stride = s;
			break;
		}
	}
	for (;;) {
		if (atomic_load_explicit(&sh->stop, memory_order_relaxed))
			_exit(0);
		if (atomic_load_explicit(&sh->pause, memory_order_acquire)) {
			c = 'p';
			if (write(ack_w, &c, 1) != 1)
				_exit(1);
			if (read(go_r, &c, 1) != 1)
				_exit(0);	/* controller gone */
			continue;
		}
		e = atomic_load_explicit(&sh->epoch, memory_order_relaxed);
		if (e != epoch) {
			epoch = e;
			done = 0;
		}
		touch_file(i, (n & 3) == 0);
		atomic_fetch_add_explicit(&sh->stats[idx], 1, memory_order_relaxed);
		if ((n & 3) == 0)
			atomic_fetch_add_explicit(&sh->opens[idx], 1, memory_order_relaxed);
		n++;
		i = (i + stride) % nr_files;
		/* A full pass since the reload: tell the controller, once. */
		if (++done == nr_files) {
			if (write(pass_w, &epoch, sizeof(epoch)) != sizeof(epoch))
				_exit(1);
		}
	}
}

/* Read @n bytes from @fd, waiting at most @ms; 0 or -1. */
static int read_n(int fd, void *buf, size_t n, int ms)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	uint64_t end = now_ns() + (uint64_t)ms * 1000000ULL;
	size_t got = 0;
	ssize_t r;

	while (got < n) {
		uint64_t t = now_ns();

		if (t >= end || poll(&pfd, 1, (int)((end - t) / 1000000ULL) + 1) <= 0)
			return -1;
		r = read(fd, (char *)buf + got, n - got);
		if (r <= 0)
			return -1;
		got += (size_t)r;
	}
	return 0;
}

static int park_workers(void)
{
	char acks[MAX_WORKERS];

	atomic_store_explicit(&sh->pause, 1, memory_order_release);
	return read_n(ack_r, acks, (size_t)nr_workers, 60000);
}

static void resume_workers(void)
{
	int i;

	atomic_store_explicit(&sh->pause, 0, memory_order_release);
	for (i = 0; i < nr_workers; i++)
		if (write(go_w[i], "g", 1) != 1)
			tap_diag("resuming worker %d: %s", i, strerror(errno));
}

/*
 * Read hash_stats as cat does, until EOF, but parse what the first read()
 * returned (the whole text: it is far shorter than the buffer).  If the
 * reads after it return more, the kernel made a new text for them: a
 * reader with a smaller buffer would have got pieces of two texts.  That
 * is counted in *torn (6.12 does it; the first patch of the series makes
 * one text per open).
 */
static int read_stats(struct hash_stats *hs, unsigned long *torn, char *why, size_t why_len)
{
	char text[HS_TEXT_SIZE], rest[HS_TEXT_SIZE];
	ssize_t len, more, r;
	int fd, err = 0;

	fd = open(HASH_STATS, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		snprintf(why, why_len, "opening %s: %s", HASH_STATS, strerror(errno));
		return -1;
	}
	len = read(fd, text, sizeof(text) - 1);
	for (more = 0; len >= 0 && more < (ssize_t)sizeof(rest); more += r) {
		r = read(fd, rest, sizeof(rest));
		if (r <= 0) {
			if (r < 0)
				len = -1;
			break;
		}
	}
	if (len < 0)
		err = errno;
	close(fd);
	if (len < 0) {
		snprintf(why, why_len, "reading %s: %s", HASH_STATS, strerror(err));
		return -1;
	}
	text[len] = '\0';
	if (more)
		(*torn)++;
	return hs_parse(text, hs, why, why_len);
}

static int read_threshold(void)
{
	char buf[32];

	if (read_file(SELINUXFS "/avc/cache_threshold", buf, sizeof(buf)) <= 0)
		return -1;
	return atoi(buf);
}

/* Sum of the reclaims column of cache_stats; -1 without AVC statistics. */
static long long read_reclaims(void)
{
	char text[8192], *line, *save = NULL;
	unsigned long long sum = 0, v[6];
	ssize_t len = read_file(SELINUXFS "/avc/cache_stats", text, sizeof(text));

	if (len <= 0)
		return -1;
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		if (sscanf(line, "%llu %llu %llu %llu %llu %llu", &v[0], &v[1],
			   &v[2], &v[3], &v[4], &v[5]) == 6)
			sum += v[4];
	return (long long)sum;
}

static const char * const domain_types[] = {
	"kernel_t", "init_t", "initrc_t", "unconfined_t", "sysadm_t",
	"syslogd_t", "udev_t", "getty_t", "sshd_t", "local_login_t",
	"user_t", "staff_t", "httpd_t", "cron_t", "dhcpc_t",
};

static const char * const classes[] = {
	"file", "dir", "process", "lnk_file", "chr_file", "fd",
	"sock_file", "unix_stream_socket", "capability", "filesystem",
};

/* ~50 triples: domains x labelled types x classes, and their decisions now. */
static int record_triples(char **types, int nr_types)
{
	char scon[CTX_SIZE], tcons[5][CTX_SIZE];
	int cls[ARRAY_SIZE(classes)], ncls = 0, nt = 0;
	unsigned int i;
	int d, t;

	for (i = 0; i < ARRAY_SIZE(classes); i++) {
		int c = class_index(classes[i]);

		if (c > 0)
			cls[ncls++] = c;
	}
	for (t = 0; t < 5 && t < nr_types; t++)
		snprintf(tcons[nt++], CTX_SIZE, "system_u:object_r:%s%s",
			 types[(t * 97) % nr_types], level);
	if (!ncls || !nt)
		return -1;
	for (i = 0; i < ARRAY_SIZE(domain_types) && nr_triples < NR_TRIPLES; i++) {
		snprintf(scon, sizeof(scon), "system_u:system_r:%s%s", domain_types[i], level);
		if (!context_valid(scon))
			continue;
		for (d = 0; d < nt && nr_triples < NR_TRIPLES; d++) {
			struct triple *tr = &triples[nr_triples];

			snprintf(tr->scon, CTX_SIZE, "%s", scon);
			snprintf(tr->tcon, CTX_SIZE, "%s", tcons[d]);
			tr->tclass = (unsigned int)cls[nr_triples % ncls];
			if (compute_access(tr->scon, tr->tcon, tr->tclass,
					   tr->answer, sizeof(tr->answer)))
				continue;
			nr_triples++;
		}
	}
	/* Our own domain too (it may be none of the above). */
	for (d = 0; d < nt && nr_triples < NR_TRIPLES; d++) {
		struct triple *tr = &triples[nr_triples];

		snprintf(tr->scon, CTX_SIZE, "%s", own);
		snprintf(tr->tcon, CTX_SIZE, "%s", tcons[d]);
		tr->tclass = (unsigned int)cls[d % ncls];
		if (!compute_access(tr->scon, tr->tcon, tr->tclass, tr->answer,
				    sizeof(tr->answer)))
			nr_triples++;
	}
	return nr_triples ? 0 : -1;
}

static unsigned long compare_triples(unsigned int reload)
{
	static unsigned int reported;
	unsigned long bad = 0;
	char now[128];
	int i, r;

	for (i = 0; i < nr_triples; i++) {
		struct triple *tr = &triples[i];

		r = compute_access(tr->scon, tr->tcon, tr->tclass, now, sizeof(now));
		if (!r && !strcmp(now, tr->answer))
			continue;
		bad++;
		if (reported++ < MAX_REPORTS)
			tap_diag("reload %u: %s %s class %u: was \"%s\", now \"%s\"",
				 reload, tr->scon, tr->tcon, tr->tclass, tr->answer,
				 r ? strerror(-r) : now);
	}
	return bad;
}

/*
 * The files: one per usable type, labelled with it, on a private tmpfs.
 * A type is usable if our own domain may relabel a file to it, getattr,
 * open and read it, and the type may be associated with tmpfs (no denial,
 * hence no audit message, when it does).
 */
static int make_files(char **types, size_t nr_types, char ***usable)
{
	unsigned int need = perm_bit("file", "getattr") | perm_bit("file", "open") |
			    perm_bit("file", "read") | perm_bit("file", "relabelto");
	unsigned int assoc = perm_bit("filesystem", "associate");
	int file_class = class_index("file"), fs_class = class_index("filesystem");
	char ctx[CTX_SIZE], path[96], ans[128], fsctx[CTX_SIZE];
	unsigned int allowed, decided;
	char **keep;
	size_t i;
	int fd;

	/* tmpfs is labelled tmpfs_t (fs_use_trans); skip the check without it. */
	snprintf(fsctx, sizeof(fsctx), "system_u:object_r:tmpfs_t%s", level);
	if (fs_class <= 0 || !assoc || !context_valid(fsctx))
		assoc = 0;
	keep = calloc(max_files, sizeof(*keep));
	if (!keep || file_class <= 0 || !need)
		return -1;
	for (i = 0; i < nr_types && nr_files < max_files; i++) {
		snprintf(ctx, sizeof(ctx), "system_u:object_r:%s%s", types[i], level);
		if (!context_valid(ctx))
			continue;
		if (compute_access(own, ctx, (unsigned int)file_class, ans, sizeof(ans)) ||
		    sscanf(ans, "allowed %x decided %x", &allowed, &decided) != 2 ||
		    (allowed & need) != need)
			continue;
		/* The type may be put on a tmpfs file (else a denial, audited). */
		if (assoc && (compute_access(ctx, fsctx, (unsigned int)fs_class, ans, sizeof(ans)) ||
			      sscanf(ans, "allowed %x decided %x", &allowed, &decided) != 2 ||
			      !(allowed & assoc)))
			continue;
		file_path(path, sizeof(path), nr_files);
		fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
		if (fd < 0)
			return -1;
		if (write(fd, "x", 1) != 1) {
			close(fd);
			return -1;
		}
		close(fd);
		if (setxattr(path, "security.selinux", ctx, strlen(ctx) + 1, 0)) {
			unlink(path);
			continue;
		}
		keep[nr_files++] = types[i];
	}
	*usable = keep;
	return 0;
}

static void cleanup(void)
{
	int i, status;

	if (sh) {
		atomic_store(&sh->stop, 1);
		atomic_store(&sh->pause, 0);
	}
	for (i = 0; i < nr_workers; i++) {
		if (pids[i] <= 0)
			continue;
		close(go_w[i]);		/* a parked worker wakes up and exits */
		kill(pids[i], SIGKILL);
		waitpid(pids[i], &status, 0);
		pids[i] = 0;
	}
	if (dir[0]) {
		umount2(dir, MNT_DETACH);
		rmdir(dir);
		dir[0] = '\0';
	}
	if (threshold_saved[0]) {
		write_str(SELINUXFS "/avc/cache_threshold", threshold_saved);
		threshold_saved[0] = '\0';
	}
}

__attribute__((noreturn))
static void skip_all(const char *fmt, const char *arg)
{
	char why[512];

	snprintf(why, sizeof(why), fmt, arg);
	cleanup();
	tap_skip_rest(why);
	tap_finish();
}

int main(int argc, char **argv)
{
	unsigned long reloads = 100, secs = 1800, workers = 4, set_threshold = 0;
	const char *policy_path = getenv("STRESS_SELINUX_POLICY");
	static const char * const policy_files[] = {
		"/etc/selinux/policy.33", "/etc/selinux/default/policy/policy.33",
	};
	unsigned long parse_errors = 0, check_failures = 0, mismatches = 0;
	unsigned long stats_reads = 0, nudges = 0, nudge_max = 0, sync_failures = 0;
	unsigned long load_failures = 0, torn = 0;
	long long reclaims0, reclaims1;
	int threshold, min_fill = INT32_MAX, max_entries = 0, reported = 0;
	char **names, **usable, *image, *pol;
	char why[512], buf[64];
	size_t nr_names, image_len = 0, pol_len = 0;
	uint64_t t0, t_setup, deadline, load_ns = 0;
	unsigned int done = 0, i;
	struct statfs sfs;
	bool quartiles = false;
	int opt, p[2], a[2], ps[2];

	while ((opt = getopt(argc, argv, "n:t:w:c:h")) != -1) {
		switch (opt) {
		case 'n':
			if (parse_uint(optarg, 1, 10000, &reloads))
				usage();
			break;
		case 't':
			if (parse_uint(optarg, 10, 7200, &secs))
				usage();
			break;
		case 'w':
			if (parse_uint(optarg, 1, MAX_WORKERS, &workers))
				usage();
			break;
		case 'c':
			if (parse_uint(optarg, 16, MAX_FILES / 4, &set_threshold))
				usage();
			break;
		default:
			usage();
		}
	}
	if (optind != argc)
		usage();

	tap_plan(7);
	tap_diag("stress-selinux: %lu reloads, %lu workers, at most %lu s", reloads,
		 workers, secs);
	alarm((unsigned int)secs + 300);	/* a hung reload must not hang the run */
	t_setup = now_ns();

	if (geteuid())
		skip_all("%s", "needs root");
	if (statfs(SELINUXFS, &sfs) ||
	    (sfs.f_type != SELINUX_MAGIC &&
	     mount("selinuxfs", SELINUXFS, "selinuxfs", 0, NULL)))
		skip_all("%s", "no selinuxfs at " SELINUXFS " (SELinux disabled?)");
	if (access(HASH_STATS, R_OK))
		skip_all("%s", "no " HASH_STATS);

	/* The image to reload: a policy file, or the loaded policy itself. */
	for (i = 0; !policy_path && i < ARRAY_SIZE(policy_files); i++)
		if (!access(policy_files[i], R_OK))
			policy_path = policy_files[i];
	image = policy_path ? read_whole_file(policy_path, &image_len) : NULL;
	if (!policy_loaded()) {
		if (!image)
			skip_all("%s", "no policy loaded and no policy file (set STRESS_SELINUX_POLICY)");
		if (write_file(SELINUXFS "/load", image, image_len))
			skip_all("loading the policy %s failed", policy_path);
		tap_diag("loaded %s (no policy was loaded)", policy_path);
	}
	pol = read_whole_file(SELINUXFS "/policy", &pol_len);
	if (!image) {
		image = pol;
		image_len = pol_len;
		policy_path = SELINUXFS "/policy";
	}
	if (!image)
		skip_all("%s", "cannot read a policy image to reload");
	tap_diag("reloading %s (%zu bytes)", policy_path, image_len);
	if (read_file(SELINUXFS "/enforce", buf, sizeof(buf)) > 0)
		tap_diag("SELinux is %s", atoi(buf) ? "enforcing" : "permissive");
	if (read_file(SELINUXFS "/mls", buf, sizeof(buf)) > 0 && atoi(buf) == 1)
		snprintf(level, sizeof(level), ":s0");
	if (read_file("/proc/self/attr/current", own, sizeof(own)) <= 0)
		skip_all("%s", "cannot read /proc/self/attr/current");
	own[strcspn(own, "\n")] = '\0';
	threshold = read_threshold();
	if (threshold <= 0)
		skip_all("%s", "cannot read " SELINUXFS "/avc/cache_threshold");
	if (set_threshold) {
		snprintf(threshold_saved, sizeof(threshold_saved), "%d", threshold);
		snprintf(buf, sizeof(buf), "%lu", set_threshold);
		if (write_str(SELINUXFS "/avc/cache_threshold", buf)) {
			threshold_saved[0] = '\0';
			skip_all("%s", "cannot write " SELINUXFS "/avc/cache_threshold");
		}
		tap_diag("cache_threshold %d -> %lu for the run", threshold, set_threshold);
		threshold = read_threshold();
	}
	max_files = 4 * threshold < MAX_FILES ? 4 * threshold : MAX_FILES;

	names = type_candidates(pol ? pol : image, pol ? pol_len : image_len, &nr_names);
	if (!names)
		skip_all("%s", "no type names in the policy image");

	/* A private tmpfs, gone with our mount namespace if we die. */
	if (unshare(CLONE_NEWNS) || mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL))
		tap_diag("no private mount namespace (%s): the tmpfs is shared", strerror(errno));
	snprintf(dir, sizeof(dir), "/tmp/stress-selinux.XXXXXX");
	if (!mkdtemp(dir)) {
		dir[0] = '\0';
		skip_all("cannot make a directory in /tmp: %s", strerror(errno));
	}
	if (mount("tmpfs", dir, "tmpfs", 0, "mode=0755")) {
		rmdir(dir);
		dir[0] = '\0';
		skip_all("cannot mount tmpfs: %s", strerror(errno));
	}
	if (make_files(names, nr_names, &usable))
		skip_all("creating the labelled files failed: %s", strerror(errno));
	tap_diag("domain %s, %d files labelled with distinct types (of %zu candidates), cache_threshold %d",
		 own, nr_files, nr_names, threshold);
	if (nr_files < 2 * threshold)
		skip_all("too few usable types for a churn above the threshold (%s)",
			 "need twice cache_threshold");
	if (record_triples(usable, nr_files))
		skip_all("%s", "no access decision could be computed through " SELINUXFS "/access");
	tap_diag("%d access decisions recorded (%.1f s)", nr_triples,
		 (now_ns() - t_setup) / 1e9);

	/* Workers. */
	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED || pipe2(a, O_CLOEXEC) || pipe2(ps, O_CLOEXEC))
		skip_all("setup: %s", strerror(errno));
	ack_r = a[0];
	pass_r = ps[0];
	nr_workers = (int)workers;
	for (i = 0; i < (unsigned int)nr_workers; i++) {
		if (pipe2(p, O_CLOEXEC))
			skip_all("setup: %s", strerror(errno));
		pids[i] = fork();
		if (pids[i] < 0)
			skip_all("fork: %s", strerror(errno));
		if (!pids[i]) {
			close(p[1]);
			worker((int)i, p[0], a[1], ps[1]);
		}
		close(p[0]);
		go_w[i] = p[1];
	}
	close(a[1]);
	close(ps[1]);
	tap_ok(1, "setup: %d workers, %d files, %d triples (%.1f s)", nr_workers, nr_files,
	       nr_triples, (now_ns() - t_setup) / 1e9);

	reclaims0 = read_reclaims();
	t0 = now_ns();
	deadline = t0 + secs * 1000000000ULL;
	while (done < reloads && now_ns() < deadline) {
		struct hash_stats hs;
		unsigned int e, seen = 0, epoch;
		uint64_t ts;
		int nudge;

		/* Reload while the workers churn. */
		ts = now_ns();
		if (write_file(SELINUXFS "/load", image, image_len)) {
			load_failures++;
			tap_diag("reload %u failed: %s", done + 1, strerror(errno));
			break;
		}
		load_ns += now_ns() - ts;
		done++;
		epoch = atomic_fetch_add(&sh->epoch, 1) + 1;

		/*
		 * Until every worker made a pass since the reload, read
		 * hash_stats as it changes: it must always parse.
		 */
		while (seen < (unsigned int)nr_workers && now_ns() < deadline + 60000000000ULL) {
			struct pollfd pfd = { .fd = pass_r, .events = POLLIN };

			if (poll(&pfd, 1, 5) == 1) {
				if (read_n(pass_r, &e, sizeof(e), 1000)) {
					sync_failures++;
					break;
				}
				if (e == epoch)
					seen++;
				continue;
			}
			stats_reads++;
			if (read_stats(&hs, &torn, why, sizeof(why))) {
				parse_errors++;
				if (reported++ < MAX_REPORTS)
					tap_diag("reload %u, during churn: %s", done, why);
			}
		}
		if (seen < (unsigned int)nr_workers) {
			sync_failures++;
			tap_diag("reload %u: only %u of %d workers completed a pass", done,
				 seen, nr_workers);
			break;
		}

		/* Quiescent: check. */
		if (park_workers()) {
			sync_failures++;
			tap_diag("reload %u: the workers did not park", done);
			break;
		}
		threshold = read_threshold();
		for (nudge = 0; nudge <= NUDGE_MAX; nudge++) {
			if (read_stats(&hs, &torn, why, sizeof(why))) {
				parse_errors++;
				if (reported++ < MAX_REPORTS)
					tap_diag("reload %u: %s", done, why);
				break;
			}
			if (nudge == 0) {
				if (hs.entries < min_fill)
					min_fill = hs.entries;
				if (hs.entries > max_entries)
					max_entries = hs.entries;
			}
			if (hs.entries <= threshold)
				break;
			/* Reclaim runs on insertion: look up more keys. */
			touch_file((int)((done * 131 + (unsigned int)nudge * 7) % (unsigned int)nr_files),
				   false);
		}
		nudges += (unsigned long)nudge;
		if ((unsigned long)nudge > nudge_max)
			nudge_max = (unsigned long)nudge;
		quartiles |= hs.has_quartiles;
		if (hs.entries > threshold) {
			check_failures++;
			if (reported++ < MAX_REPORTS)
				tap_diag("reload %u: entries %d > cache_threshold %d after %d more lookups",
					 done, hs.entries, threshold, nudge);
		} else if (hs_check(&hs, why, sizeof(why))) {
			check_failures++;
			if (reported++ < MAX_REPORTS)
				tap_diag("reload %u: %s", done, why);
		}
		if (done == 1 || done == reloads || done % 10 == 0)
			tap_diag("reload %u: entries %d, buckets used %d/%d, longest chain %d%s%u/%u/%u (%.1f s)",
				 done, hs.entries, hs.used, hs.slots, hs.longest,
				 hs.has_quartiles ? ", q1/med/q3 " : ", no quartiles ",
				 hs.q1, hs.med, hs.q3, (now_ns() - t0) / 1e9);
		mismatches += compare_triples(done);
		resume_workers();
	}
	reclaims1 = read_reclaims();
	{
		uint64_t st = 0, op = 0;
		int w;

		for (w = 0; w < nr_workers; w++) {
			st += atomic_load(&sh->stats[w]);
			op += atomic_load(&sh->opens[w]);
		}
		cleanup();
		tap_diag("%.1f s: %u reloads (%.0f ms each), %" PRIu64 " stats and %" PRIu64
			 " opens by the workers, %lu hash_stats reads during churn",
			 (now_ns() - t0) / 1e9, done, done ? load_ns / 1e6 / done : 0.0,
			 st, op, stats_reads);
	}
	tap_diag("fill at the checks: entries %d..%d (threshold %d); %lu extra lookups (at most %lu in one check) to reach the threshold",
		 min_fill == INT32_MAX ? 0 : min_fill, max_entries, threshold, nudges, nudge_max);
	if (reclaims0 >= 0 && reclaims1 >= 0)
		tap_diag("AVC reclaims during the run: %lld", reclaims1 - reclaims0);
	else
		tap_diag("no %s/avc/cache_stats (CONFIG_SECURITY_SELINUX_AVC_STATS off): churn shown by the fill level only",
			 SELINUXFS);
	if (!quartiles)
		tap_diag("no quartile line in hash_stats (kernel without the quartile patch)");

	tap_ok(done == reloads && !load_failures && !sync_failures,
	       "%u of %lu policy reloads done within %lu s", done, reloads, secs);
	tap_ok(parse_errors == 0, "hash_stats always parses (%lu reads, %lu errors)",
	       stats_reads + done, parse_errors);
	/*
	 * A kernel without the quartile line is one without the series, so
	 * without its first patch either: there a new text per read() is the
	 * known behaviour, reported but not failed.
	 */
	if (!torn || quartiles)
		tap_ok(!torn, "reading on to EOF adds nothing: one text per open (%lu of %lu reads got more)",
		       torn, stats_reads + done);
	else
		tap_xfail("reading on to EOF adds nothing: one text per open",
			  "kernel without the series: a new text per read(), %lu of %lu reads got more",
			  torn, stats_reads + done);
	tap_ok(check_failures == 0,
	       "hash_stats consistent after each reload: entries <= threshold, buckets, chains, quartiles (%lu failures)",
	       check_failures);
	tap_ok(done > 0 && min_fill >= threshold - AVC_RECLAIM * (nr_workers + 1) &&
	       (reclaims0 < 0 || reclaims1 > reclaims0),
	       "the AVC churned at its threshold: fill %d..%d of %d at the checks%s",
	       min_fill == INT32_MAX ? 0 : min_fill, max_entries, threshold,
	       reclaims0 >= 0 ? ", reclaims counted" : "");
	tap_ok(mismatches == 0, "no access decision changed meaning: %lu mismatches in %u x %d queries",
	       mismatches, done, nr_triples);
	tap_diag("stress-selinux: reloads %u, iterations %u, mismatches %lu", done, done, mismatches);
	tap_finish();
}
