// SPDX-License-Identifier: GPL-2.0
/*
 * selinux-lat: in-guest latency of the SELinux AVC and avtab lookups.
 *
 * usage: selinux-lat [-n repeat] [-f files] [-r avc_rounds]
 *                    [-s subjects] [-t targets] [-R avtab_rounds] [-b buffer_kb]
 *
 * Needs root, selinuxfs and tracefs with the function_graph tracer.  If no
 * policy is loaded, loads $SELINUX_LAT_POLICY, /etc/selinux/policy.33 or
 * /etc/selinux/default/policy/policy.33 (one write(), as selinuxfs wants);
 * refuses to run if SELinux is enforcing.
 *
 * (a) AVC: @files files in a directory under /tmp (tmpfs), each labelled
 *     with its own type (security.selinux), are stat()ed and opened @rounds
 *     times from our own domain: one subject, ~@files AVC entries, the
 *     one-dominant-subject case of the AVC hash.  avc_has_perm() is timed:
 *     avc_lookup() is inlined into it (6.12, gcc 12: no avc_lookup symbol
 *     in either kernel), and avc_has_perm_noaudit(), declared "inline", is
 *     notrace.  Here avc_has_perm() serves stat()'s getattr and open()'s
 *     open checks (inode_has_perm() tail-calls it), both on the file's AVC
 *     entry.  The AVC is flushed and warmed (one untimed round) first, so
 *     the timed calls are cache hits.
 * (b) avtab: writes of "scon tcon class" to /sys/fs/selinux/access
 *     (security_compute_av_user(), which bypasses the AVC) for @subjects
 *     domains x @targets types x {file, dir}, @avtab_rounds times after an
 *     untimed round; every write looks up the avtab once per pair of
 *     attributes of the two types: avtab_search_node() is timed.
 *
 * Times are the function_graph durations of our own thread (set_ftrace_pid,
 * pinned to one CPU whose ring buffer is enlarged), in ns.  Per repeat and
 * function it prints SAMPLE lines with min/q1/median/q3/max, then the AVC
 * hash_stats after the AVC workload and the avtab chain statistics that the
 * kernel printed at policy load (CONFIG_SECURITY_SELINUX_DEBUG).  Exit
 * status 0 only if every timed function got samples.
 */

#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/klog.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/xattr.h>

#include "../../../include/readfile.h"

#define SELINUXFS	"/sys/fs/selinux"
#define SELINUX_MAGIC	0xf97cff8c
#define CTX_SIZE	256
#define MAX_FUNCS	4

static const char *tracefs;
static int cpu = -1;
static char dir[64];
static int nr_files;
static const char *level = "";

static void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fprintf(stderr, "selinux-lat: error: ");
	vfprintf(stderr, fmt, ap);
	fprintf(stderr, "\n");
	va_end(ap);
	exit(1);
}

static void usage(void)
{
	fprintf(stderr,
		"usage: selinux-lat [-n repeat] [-f files] [-r avc_rounds] [-s subjects]\n"
		"                   [-t targets] [-R avtab_rounds] [-b buffer_kb]\n");
	exit(2);
}

/*
 * Whole-file helpers: one open; writes until all is taken (tracefs's
 * set_ftrace_filter takes one word per write; selinuxfs takes all at once).
 */
static int write_buf(const char *path, const void *buf, size_t len)
{
	size_t done = 0;
	ssize_t ret = 0;
	int fd;

	fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	do {
		ret = write(fd, (const char *)buf + done, len - done);
		if (ret > 0)
			done += ret;
	} while (ret > 0 && done < len);
	if (ret < 0)
		ret = -errno;
	close(fd);
	if (ret >= 0 && done != len)
		return -EIO;
	return ret < 0 ? (int)ret : 0;
}

static int write_str(const char *path, const char *s)
{
	return write_buf(path, s, strlen(s));
}

/* First line of a small file, without the newline; "" on error. */
static const char *read_line(const char *path, char *buf, size_t size)
{
	ssize_t ret;
	int fd;

	buf[0] = '\0';
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return buf;
	ret = read(fd, buf, size - 1);
	close(fd);
	buf[ret > 0 ? ret : 0] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return buf;
}

static const char *tpath(const char *name)
{
	static char path[4][PATH_MAX];
	static int i;

	i = (i + 1) % 4;
	snprintf(path[i], sizeof(path[i]), "%s/%s", tracefs, name);
	return path[i];
}

static void twrite(const char *name, const char *s)
{
	int ret = write_str(tpath(name), s);

	if (ret)
		die("writing \"%s\" to %s: %s", s, tpath(name), strerror(-ret));
}

/* ---- SELinux setup ---- */

static const char * const policy_files[] = {
	"/etc/selinux/policy.33",
	"/etc/selinux/default/policy/policy.33",
};

static bool policy_loaded(void)
{
	/* selinuxfs fills class/ at policy load. */
	return !access(SELINUXFS "/class/process/index", R_OK);
}

static void need_policy(void)
{
	const char *path = getenv("SELINUX_LAT_POLICY");
	struct statfs sfs;
	char buf[32];
	unsigned int i;
	char *policy;
	size_t len;
	int ret;

	if (statfs(SELINUXFS, &sfs) || sfs.f_type != SELINUX_MAGIC)
		die("selinuxfs is not mounted on %s (SELinux disabled?)", SELINUXFS);
	if (!policy_loaded()) {
		for (i = 0; !path && i < sizeof(policy_files) / sizeof(policy_files[0]); i++)
			if (!access(policy_files[i], R_OK))
				path = policy_files[i];
		if (!path)
			die("no policy loaded and no policy file (%s; or set SELINUX_LAT_POLICY)",
			    policy_files[0]);
		policy = read_whole_file(path, &len);
		if (!policy)
			die("reading %s: %s", path, strerror(errno));
		ret = write_buf(SELINUXFS "/load", policy, len);
		free(policy);
		if (ret)
			die("loading %s: %s", path, strerror(-ret));
		if (!policy_loaded())
			die("loaded %s but %s/class is empty", path, SELINUXFS);
		printf("# loaded SELinux policy %s\n", path);
	}
	if (atoi(read_line(SELINUXFS "/enforce", buf, sizeof(buf))) != 0)
		die("SELinux is enforcing; this benchmark needs permissive mode");
	if (atoi(read_line(SELINUXFS "/mls", buf, sizeof(buf))) == 1)
		level = ":s0";
}

static bool context_valid(const char *ctx)
{
	return !write_str(SELINUXFS "/context", ctx);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char * const *)a, *(char * const *)b);
}

/*
 * Type names: the binary policy stores names as counted strings, so its
 * printable runs ending in "_t" include every type name; the contexts made
 * from them are validated before use.
 */
static char **type_candidates(size_t *nr)
{
	size_t len, i, n = 0, cap = 0, start;
	char **names = NULL, **tmp;
	char *policy = NULL;
	unsigned int f;

	for (f = 0; !policy && f < sizeof(policy_files) / sizeof(policy_files[0]); f++)
		policy = read_whole_file(policy_files[f], &len);
	if (!policy)
		policy = read_whole_file(SELINUXFS "/policy", &len);
	if (!policy)
		die("cannot read the policy for type names");
	for (i = 0; i < len; i++) {
		start = i;
		while (i < len && (isalnum((unsigned char)policy[i]) || policy[i] == '_'))
			i++;
		if (i - start < 3 || i - start > 100 ||
		    policy[i - 2] != '_' || policy[i - 1] != 't')
			continue;
		if (n == cap) {
			cap = cap ? 2 * cap : 1024;
			tmp = realloc(names, cap * sizeof(*names));
			if (!tmp)
				die("out of memory");
			names = tmp;
		}
		names[n] = strndup(policy + start, i - start);
		if (!names[n])
			die("out of memory");
		n++;
	}
	free(policy);
	if (!n)
		die("no type names in the policy");
	qsort(names, n, sizeof(*names), cmp_str);
	for (i = 1, len = 1; i < n; i++) {
		if (strcmp(names[i], names[len - 1]))
			names[len++] = names[i];
		else
			free(names[i]);
	}
	*nr = len;
	return names;
}

/* Valid contexts "system_u:<role>:<type><level>", up to @max of them. */
static char **pick_contexts(char **names, size_t nr_names, const char *role,
			    int max, int *nr)
{
	char **ctx = calloc(max, sizeof(*ctx));
	char buf[CTX_SIZE];
	size_t i;

	if (!ctx)
		die("out of memory");
	*nr = 0;
	for (i = 0; i < nr_names && *nr < max; i++) {
		snprintf(buf, sizeof(buf), "system_u:%s:%s%s", role, names[i], level);
		if (!context_valid(buf))
			continue;
		ctx[(*nr)++] = strdup(buf);
		if (!ctx[*nr - 1])
			die("out of memory");
	}
	return ctx;
}

static void make_files(char **objs, int nr)
{
	char path[128];
	int i, fd;

	snprintf(dir, sizeof(dir), "/tmp/selinux-lat.XXXXXX");
	if (!mkdtemp(dir))
		die("mkdtemp %s: %s", dir, strerror(errno));
	for (i = 0; i < nr; i++) {
		snprintf(path, sizeof(path), "%s/f%04d", dir, i);
		fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
		if (fd < 0)
			die("creating %s: %s", path, strerror(errno));
		if (write(fd, "x", 1) != 1)
			die("writing %s: %s", path, strerror(errno));
		close(fd);
		if (setxattr(path, "security.selinux", objs[i], strlen(objs[i]) + 1, 0))
			die("setxattr(%s, security.selinux, %s): %s", path, objs[i],
			    strerror(errno));
	}
	nr_files = nr;
}

static void remove_files(void)
{
	char path[128];
	int i;

	if (!dir[0])
		return;
	for (i = 0; i < nr_files; i++) {
		snprintf(path, sizeof(path), "%s/f%04d", dir, i);
		unlink(path);
	}
	rmdir(dir);
}

/* ---- workloads ---- */

static void avc_round(void)
{
	char name[16], c;
	struct stat st;
	int i, fd, dfd;

	dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0)
		die("open %s: %s", dir, strerror(errno));
	for (i = 0; i < nr_files; i++) {
		snprintf(name, sizeof(name), "f%04d", i);
		if (fstatat(dfd, name, &st, 0))
			die("stat %s/%s: %s", dir, name, strerror(errno));
		fd = openat(dfd, name, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			die("open %s/%s: %s", dir, name, strerror(errno));
		if (read(fd, &c, 1) != 1)
			die("read %s/%s: %s", dir, name, strerror(errno));
		close(fd);
	}
	close(dfd);
}

/* Empty the AVC: committing the (unchanged) booleans resets it. */
static void flush_avc(void)
{
	int ret = write_str(SELINUXFS "/commit_pending_bools", "1");

	if (ret)
		printf("# could not flush the AVC (commit_pending_bools: %s)\n",
		       strerror(-ret));
}

struct query {
	char *text;
	size_t len;
};

static struct query *queries;
static int nr_queries;

static void make_queries(char **subj, int ns, char **objs, int nt)
{
	static const char * const classes[] = { "file", "dir" };
	char path[128], buf[32], text[2 * CTX_SIZE + 16];
	unsigned int c;
	int s, t, idx;

	queries = calloc((size_t)ns * nt * 2, sizeof(*queries));
	if (!queries)
		die("out of memory");
	for (c = 0; c < 2; c++) {
		snprintf(path, sizeof(path), SELINUXFS "/class/%s/index", classes[c]);
		idx = atoi(read_line(path, buf, sizeof(buf)));
		if (idx <= 0)
			die("no class %s in the policy (%s)", classes[c], path);
		for (s = 0; s < ns; s++) {
			for (t = 0; t < nt; t++) {
				snprintf(text, sizeof(text), "%s %s %d", subj[s], objs[t], idx);
				queries[nr_queries].text = strdup(text);
				if (!queries[nr_queries].text)
					die("out of memory");
				queries[nr_queries++].len = strlen(text);
			}
		}
	}
}

/* One transaction per open file: write the query (the kernel computes), close. */
static void avtab_round(bool check)
{
	char reply[128];
	ssize_t ret;
	int i, fd;

	for (i = 0; i < nr_queries; i++) {
		fd = open(SELINUXFS "/access", O_RDWR | O_CLOEXEC);
		if (fd < 0)
			die("open %s/access: %s", SELINUXFS, strerror(errno));
		ret = write(fd, queries[i].text, queries[i].len);
		if (ret != (ssize_t)queries[i].len)
			die("write \"%s\" to %s/access: %s", queries[i].text,
			    SELINUXFS, ret < 0 ? strerror(errno) : "short write");
		if (check && !i) {
			ret = read(fd, reply, sizeof(reply) - 1);
			if (ret <= 0)
				die("no reply from %s/access", SELINUXFS);
			reply[ret] = '\0';
			reply[strcspn(reply, "\n")] = '\0';
			printf("# access \"%s\" -> \"%s\"\n", queries[i].text, reply);
		}
		close(fd);
	}
}

/* ---- tracing ---- */

struct func {
	const char *name;
	long *ns;
	size_t n, cap;
};

static const char * const graph_opts[] = {
	"funcgraph-irqs", "funcgraph-overhead", "funcgraph-tail",
	"funcgraph-proc", "funcgraph-retval", "sleep-time",
};
static const char * const graph_vals[] = { "0", "0", "1", "0", "0", "0" };
static char saved_opts[6][8];
static char saved_on[8], saved_kb[32];
static bool tracing_set_up;

static void trace_restore(void)
{
	char name[128];
	unsigned int i;

	if (!tracing_set_up)
		return;
	write_str(tpath("tracing_on"), "0");
	write_str(tpath("current_tracer"), "nop");
	write_str(tpath("set_ftrace_filter"), "");
	write_str(tpath("set_ftrace_pid"), "");
	for (i = 0; i < sizeof(graph_opts) / sizeof(graph_opts[0]); i++) {
		snprintf(name, sizeof(name), "options/%s", graph_opts[i]);
		if (saved_opts[i][0])
			write_str(tpath(name), saved_opts[i]);
	}
	/* "7 (expanded: 1408)" before the first use: the leading number. */
	snprintf(name, sizeof(name), "per_cpu/cpu%d/buffer_size_kb", cpu);
	if (atoi(saved_kb) > 0) {
		snprintf(saved_kb, sizeof(saved_kb), "%d", atoi(saved_kb));
		write_str(tpath(name), saved_kb);
	}
	write_str(tpath("trace"), "");
	write_str(tpath("tracing_on"), saved_on[0] ? saved_on : "1");
	tracing_set_up = false;
}

static void cleanup(void)
{
	trace_restore();
	remove_files();
}

/* Trace only these functions: one name per write, appended. */
static void trace_filter(struct func *f, int nr)
{
	char *avail, *p;
	ssize_t ret;
	size_t len;
	int i, fd;

	fd = open(tpath("set_ftrace_filter"), O_WRONLY | O_TRUNC | O_CLOEXEC);
	if (fd < 0)
		die("opening %s: %s", tpath("set_ftrace_filter"), strerror(errno));
	for (i = 0; i < nr; i++) {
		len = strlen(f[i].name);
		ret = write(fd, f[i].name, len);
		if (ret == (ssize_t)len)
			ret = write(fd, "\n", 1);
		if (ret > 0)
			continue;
		/* An unknown or notrace function fails here, with EINVAL. */
		fprintf(stderr, "selinux-lat: %s: %s\n", f[i].name, strerror(errno));
		avail = read_whole_file(tpath("available_filter_functions"), NULL);
		for (p = avail; p && (p = strstr(p, f[i].name)); p++)
			if (p == avail || p[-1] == '\n')
				fprintf(stderr, "  available: %.*s\n",
					(int)strcspn(p, "\n"), p);
		die("cannot trace %s (set_ftrace_filter)", f[i].name);
	}
	close(fd);
}

/*
 * Everything is set before the tracer is switched on, with the filter
 * already in place: switching function_graph on patches only the filtered
 * functions' call sites.  (With an empty filter it would patch every
 * function in the kernel, and a TCG guest with multi-threaded TCG has been
 * seen to take an int3 oops during such a mass patching.)  The filter never
 * changes while the tracer is on; tracing_on gates the recording.
 */
static void trace_setup(int buffer_kb, struct func *f, int nr)
{
	static const char * const roots[] = { "/sys/kernel/tracing",
					      "/sys/kernel/debug/tracing" };
	char name[128], buf[64], *tracers;
	unsigned int i;
	cpu_set_t set;

	for (i = 0; !tracefs && i < 2; i++) {
		snprintf(name, sizeof(name), "%s/current_tracer", roots[i]);
		if (!access(name, W_OK))
			tracefs = roots[i];
	}
	if (!tracefs)
		die("no tracefs (mount -t tracefs tracefs /sys/kernel/tracing)");
	tracers = read_whole_file(tpath("available_tracers"), NULL);
	if (!tracers || !strstr(tracers, "function_graph"))
		die("the kernel has no function_graph tracer (CONFIG_FUNCTION_GRAPH_TRACER)");
	free(tracers);

	/* One CPU: its buffer alone is enlarged and read. */
	cpu = sched_getcpu();
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (cpu < 0 || sched_setaffinity(0, sizeof(set), &set))
		die("cannot pin to a CPU: %s", strerror(errno));

	read_line(tpath("tracing_on"), saved_on, sizeof(saved_on));
	snprintf(name, sizeof(name), "per_cpu/cpu%d/buffer_size_kb", cpu);
	read_line(tpath(name), saved_kb, sizeof(saved_kb));
	tracing_set_up = true;
	atexit(cleanup);

	twrite("tracing_on", "0");
	twrite("current_tracer", "nop");
	snprintf(buf, sizeof(buf), "%d", buffer_kb);
	twrite(name, buf);
	snprintf(buf, sizeof(buf), "%ld", (long)syscall(SYS_gettid));
	twrite("set_ftrace_pid", buf);
	trace_filter(f, nr);
	twrite("current_tracer", "function_graph");
	for (i = 0; i < sizeof(graph_opts) / sizeof(graph_opts[0]); i++) {
		snprintf(name, sizeof(name), "options/%s", graph_opts[i]);
		read_line(tpath(name), saved_opts[i], sizeof(saved_opts[i]));
		if (saved_opts[i][0])
			twrite(name, graph_vals[i]);
	}
}

static void trace_start(void)
{
	twrite("trace", "");
	twrite("tracing_on", "1");
}

static long lost_events(void)
{
	char name[64], *stats, *p;
	long lost = 0;

	snprintf(name, sizeof(name), "per_cpu/cpu%d/stats", cpu);
	stats = read_whole_file(tpath(name), NULL);
	if (!stats)
		return 0;
	p = strstr(stats, "overrun:");
	if (p)
		lost += atol(p + 8);
	p = strstr(stats, "dropped events:");
	if (p)
		lost += atol(p + 15);
	free(stats);
	return lost;
}

static void add_sample(struct func *f, long ns)
{
	long *tmp;

	if (f->n == f->cap) {
		f->cap = f->cap ? 2 * f->cap : 4096;
		tmp = realloc(f->ns, f->cap * sizeof(*tmp));
		if (!tmp)
			die("out of memory");
		f->ns = tmp;
	}
	f->ns[f->n++] = ns;
}

/*
 * Lines of the function_graph tracer with a duration:
 *   " 1)   0.711 us    |  avc_has_perm();"
 *   " 1)   2.034 us    |  } /" "* avc_has_perm *" "/"    (funcgraph-tail)
 * Durations are "<us>.<ns> us" (fewer decimals above 99999 us).
 */
static int parse_line(const char *line, struct func *f, int nr)
{
	const char *bar = strchr(line, '|'), *us, *p, *name;
	size_t len;
	double d;
	int i;

	if (!bar)
		return 0;
	us = strstr(line, " us ");
	if (!us || us > bar)
		return 0;
	for (p = us; p > line && (isdigit((unsigned char)p[-1]) || p[-1] == '.'); p--)
		;
	if (p == us)
		return 0;
	d = strtod(p, NULL);
	for (name = bar + 1; *name == ' '; name++)
		;
	if (!strncmp(name, "} /* ", 5))
		name += 5;
	len = strcspn(name, "( ");
	for (i = 0; i < nr; i++) {
		if (strlen(f[i].name) == len && !strncmp(name, f[i].name, len)) {
			add_sample(&f[i], (long)(d * 1000 + 0.5));
			return 1;
		}
	}
	return 0;
}

static void trace_collect(struct func *f, int nr)
{
	char name[64], *line = NULL;
	size_t cap = 0;
	long lost;
	FILE *fp;
	int i;

	twrite("tracing_on", "0");
	for (i = 0; i < nr; i++)
		f[i].n = 0;
	snprintf(name, sizeof(name), "per_cpu/cpu%d/trace", cpu);
	fp = fopen(tpath(name), "r");
	if (!fp)
		die("opening %s: %s", tpath(name), strerror(errno));
	while (getline(&line, &cap, fp) > 0)
		parse_line(line, f, nr);
	fclose(fp);
	free(line);
	lost = lost_events();
	if (lost)
		printf("# %ld trace events lost (ring buffer too small: -b)\n", lost);
}

static int cmp_long(const void *a, const void *b)
{
	long x = *(const long *)a, y = *(const long *)b;

	return x < y ? -1 : x > y;
}

/* Quartiles by nearest rank on the sorted samples. */
static int report_func(struct func *f)
{
	long *v = f->ns;
	size_t n = f->n;

	if (!n) {
		printf("# %s: no samples\n", f->name);
		return 1;
	}
	qsort(v, n, sizeof(*v), cmp_long);
	printf("# %s: %zu calls timed\n", f->name, n);
	printf("SAMPLE,selinux-%s-latency,ns (min),%ld\n", f->name, v[0]);
	printf("SAMPLE,selinux-%s-latency,ns (q1),%ld\n", f->name, v[n / 4]);
	printf("SAMPLE,selinux-%s-latency,ns (median),%ld\n", f->name, v[n / 2]);
	printf("SAMPLE,selinux-%s-latency,ns (q3),%ld\n", f->name, v[3 * n / 4]);
	printf("SAMPLE,selinux-%s-latency,ns (max),%ld\n", f->name, v[n - 1]);
	return 0;
}

/* ---- statistics ---- */

static int report_hash_stats(void)
{
	char *text = read_whole_file(SELINUXFS "/avc/hash_stats", NULL), *q;
	int entries, used, slots, longest;
	unsigned int q1, med, q3;

	if (!text || sscanf(text, "entries: %d\nbuckets used: %d/%d\nlongest chain: %d",
			    &entries, &used, &slots, &longest) != 4) {
		printf("# cannot parse %s/avc/hash_stats\n", SELINUXFS);
		free(text);
		return 1;
	}
	printf("SAMPLE,selinux-avc-hash-entries,entries,%d\n", entries);
	printf("SAMPLE,selinux-avc-hash-buckets-used,buckets of %d,%d\n", slots, used);
	printf("SAMPLE,selinux-avc-hash-longest-chain,nodes,%d\n", longest);
	q = strstr(text, "q1/med/q3:");
	if (q && sscanf(q, "q1/med/q3: %u/%u/%u", &q1, &med, &q3) == 3) {
		printf("SAMPLE,selinux-avc-hash-chain,nodes (q1),%u\n", q1);
		printf("SAMPLE,selinux-avc-hash-chain,nodes (med),%u\n", med);
		printf("SAMPLE,selinux-avc-hash-chain,nodes (q3),%u\n", q3);
	}
	free(text);
	return 0;
}

/*
 * The avtab evaluation printed at the last policy load (pr_debug with
 * CONFIG_SECURITY_SELINUX_DEBUG): "SELinux: rules:  N entries and U/S
 * buckets used, longest chain length L, ..., sum of chain length^2 Q".
 */
static void report_avtab_stats(void)
{
	static const char * const tags[] = { "rules", "conditional_rules" };
	unsigned long long sumsq;
	char *log, *p, *found, key[64];
	unsigned int entries, used, slots, longest, i;
	int size;

	size = klogctl(10, NULL, 0);	/* SYSLOG_ACTION_SIZE_BUFFER */
	if (size <= 0 || !(log = malloc(size + 1)))
		return;
	size = klogctl(3, log, size);	/* SYSLOG_ACTION_READ_ALL */
	if (size <= 0) {
		free(log);
		return;
	}
	log[size] = '\0';
	for (i = 0; i < 2; i++) {
		snprintf(key, sizeof(key), "SELinux: %s:", tags[i]);
		for (found = NULL, p = log; (p = strstr(p, key)); p++)
			found = p;
		if (!found || sscanf(found + strlen(key),
				     " %u entries and %u/%u buckets used, longest chain length %u",
				     &entries, &used, &slots, &longest) != 4) {
			printf("# no \"%s\" line in the kernel log (CONFIG_SECURITY_SELINUX_DEBUG?)\n",
			       key);
			continue;
		}
		p = strstr(found, "sum of chain length^2 ");
		printf("SAMPLE,selinux-avtab-%s-buckets-used,buckets of %u,%u\n",
		       tags[i], slots, used);
		printf("SAMPLE,selinux-avtab-%s-longest-chain,nodes,%u\n", tags[i], longest);
		if (p && p < strchr(found, '\n') &&
		    sscanf(p, "sum of chain length^2 %llu", &sumsq) == 1)
			printf("SAMPLE,selinux-avtab-%s-chain-sumsq,nodes^2,%llu\n",
			       tags[i], sumsq);
	}
	free(log);
}

static int num_arg(const char *s)
{
	char *end;
	long v = strtol(s, &end, 10);

	if (*end || v < 1 || v > 1000000)
		usage();
	return v;
}

int main(int argc, char **argv)
{
		/* See the top comment for why these two. */
	struct func funcs[] = { { .name = "avc_has_perm" },
				{ .name = "avtab_search_node" } };
	struct func *avc = funcs, *avtab = funcs + 1;
	int repeat = 1, files = 480, rounds = 10, nsubj = 16, ntarg = 32;
	int avtab_rounds = 2, buffer_kb = 32768, nr_objs, nr_subj, r, i, bad = 0;
	char **names, **objs, **subj;
	size_t nr_names;
	int opt;

	while ((opt = getopt(argc, argv, "n:f:r:s:t:R:b:")) != -1) {
		switch (opt) {
		case 'n': repeat = num_arg(optarg); break;
		case 'f': files = num_arg(optarg); break;
		case 'r': rounds = num_arg(optarg); break;
		case 's': nsubj = num_arg(optarg); break;
		case 't': ntarg = num_arg(optarg); break;
		case 'R': avtab_rounds = num_arg(optarg); break;
		case 'b': buffer_kb = num_arg(optarg); break;
		default: usage();
		}
	}
	if (optind != argc)
		usage();
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (geteuid())
		die("needs root");

	need_policy();
	names = type_candidates(&nr_names);
	objs = pick_contexts(names, nr_names, "object_r", files, &nr_objs);
	subj = pick_contexts(names, nr_names, "system_r", nsubj, &nr_subj);
	for (i = 0; i < (int)nr_names; i++)
		free(names[i]);
	free(names);
	if (nr_objs < files || nr_subj < 1)
		die("only %d object and %d subject types valid (want %d and %d)",
		    nr_objs, nr_subj, files, nsubj);
	if (ntarg > nr_objs)
		ntarg = nr_objs;
	printf("# AVC: %d files of distinct types, %d rounds; avtab: %d subjects x %d targets x {file,dir}, %d rounds\n",
	       nr_objs, rounds, nr_subj, ntarg, avtab_rounds);

	trace_setup(buffer_kb, funcs, 2);
	make_files(objs, nr_objs);
	make_queries(subj, nr_subj, objs, ntarg);
	printf("# tracing on CPU %d via %s, own domain %s\n", cpu, tracefs,
	       read_line("/proc/self/attr/current", (char[CTX_SIZE]){ 0 }, CTX_SIZE));

	for (r = 0; r < repeat; r++) {
		/* (a) AVC: flush, one untimed round, then the timed rounds. */
		flush_avc();
		avc_round();
		trace_start();
		for (i = 0; i < rounds; i++)
			avc_round();
		trace_collect(avc, 1);
		bad |= report_func(avc);
		bad |= report_hash_stats();

		/* (b) avtab through security_compute_av_user(). */
		avtab_round(r == 0);
		trace_start();
		for (i = 0; i < avtab_rounds; i++)
			avtab_round(false);
		trace_collect(avtab, 1);
		bad |= report_func(avtab);
		report_avtab_stats();
	}
	return bad;
}
