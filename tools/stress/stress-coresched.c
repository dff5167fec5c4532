// SPDX-License-Identifier: GPL-2.0
/*
 * stress-coresched: core scheduling cookies under cgroup churn.
 *
 * usage: stress-coresched [-t SECONDS] [-m MOVERS] [-s SEED]
 *
 * Under /sys/fs/cgroup/stress-coresched.<pid> (cgroup v2, cpu controller
 * enabled through cgroup.subtree_control) a static tree of tagged, untagged
 * and nested cgroups (a, b, p/{x,y}, q/u, q/r/s) plus ephemeral leaves, and
 * for SECONDS (default 60):
 *
 *  - MOVERS processes (default 3), each with a forking thread and a prctl
 *    thread: the forking thread forks children that move themselves between
 *    the leaves, create, pull (SHARE_FROM their parent) and read their prctl
 *    cookie, fork a grandchild and start a thread (which moves the process
 *    again), spin a little and exit; it also moves the children itself.  The
 *    prctl thread calls PR_SCHED_CORE CREATE (PID, TGID and PGID scope),
 *    SHARE_TO, SHARE_FROM and GET on those children and moves them too.  A
 *    child is only addressed by its pid until it is reaped (waitid WNOWAIT,
 *    then the reap under a lock), so a recycled pid is never hit.
 *  - a tagger process with two threads writing 0 and 1 to cpu.core_tag of
 *    every cgroup, static or ephemeral, at random;
 *  - a cgroup process creating and removing the ephemeral leaves (some
 *    tagged at birth).
 *
 * Afterwards:
 *  - every role exited cleanly and every stress cgroup is removed (rmdir
 *    succeeds: no task leaked into them);
 *  - the cookies still mean what they should (cpu.core_tag semantics of the
 *    dev-sched patch, read back with PR_SCHED_CORE_GET from parked tasks):
 *    equal inside a tagged group, different across groups, inherited by
 *    untagged descendants, own cookie for a tagged descendant, none when
 *    untagged, moved with a migrating task, and a prctl cookie pushed out of
 *    a tagged group does not match the group's tasks;
 *  - no cookie leaked.  The patch exposes no count of live cookies; it
 *    gives each cookie the lowest free id of an IDA and reports a keyed hash
 *    of the ids with PR_SCHED_CORE_GET.  So K fresh prctl cookies held at
 *    once report the hashes of the K lowest free ids: the same set before
 *    and after the storm unless an id leaked (K is twice the most cookies
 *    the storm can hold at once, so any leaked id is among the K lowest).
 *    The probe is validated before the storm (two runs agree) and skipped
 *    with the reason where it cannot work; kmemleak (the debug lane's scan)
 *    covers the cookie objects as well.
 *
 * SKIP (exit 4) without root, cgroup v2 with the cpu controller, or
 * cpu.core_tag (a kernel without the cgroup interface), or without SMT.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tap.h"
#include "util.h"

#ifndef PR_SCHED_CORE
#define PR_SCHED_CORE			62
#define PR_SCHED_CORE_GET		0
#define PR_SCHED_CORE_CREATE		1
#define PR_SCHED_CORE_SHARE_TO		2
#define PR_SCHED_CORE_SHARE_FROM	3
#endif
#define PIDTYPE_PID	0
#define PIDTYPE_TGID	1
#define PIDTYPE_PGID	2

#ifndef CGROUP2_SUPER_MAGIC
#define CGROUP2_SUPER_MAGIC	0x63677270
#endif

#define CGROOT		"/sys/fs/cgroup"
#define MAX_MOVERS	16
#define KIDS_PER_ROUND	2
#define NR_EPH		6
#define MAX_REPORTS	5

/* The static tree: internal nodes first (created in this order). */
static const char * const internal[] = { "p", "q", "q/r" };
static const char * const leaves[] = { "a", "b", "p/x", "p/y", "q/u", "q/r/s" };
static const char * const eph_parent[3] = { "", "p/", "q/r/" };

enum ctr {
	C_KIDS, C_GRANDKIDS, C_THREADS, C_REAPED,
	C_MOVE_OK, C_MOVE_ERR,
	C_TAG_OK, C_TAG_ERR,
	C_MKDIR_OK, C_MKDIR_ERR, C_RMDIR_OK, C_RMDIR_BUSY, C_RMDIR_ERR,
	C_CREATE_OK, C_CREATE_ERR, C_SHARE_TO_OK, C_SHARE_TO_ERR,
	C_SHARE_FROM_OK, C_SHARE_FROM_ERR, C_GET_OK, C_GET_ERR,
	C_ODD_ERR, NR_CTR
};
static const char * const ctr_name[NR_CTR] = {
	"children forked", "grandchildren forked", "threads started", "children reaped",
	"moves", "moves failed",
	"core_tag writes", "core_tag writes failed",
	"mkdir", "mkdir failed", "rmdir", "rmdir busy", "rmdir failed",
	"PR_SCHED_CORE_CREATE", "CREATE failed", "PR_SCHED_CORE_SHARE_TO", "SHARE_TO failed",
	"PR_SCHED_CORE_SHARE_FROM", "SHARE_FROM failed", "PR_SCHED_CORE_GET", "GET failed",
	"unexpected errors",
};

struct shared {
	atomic_int stop;
	atomic_int eph_exists[NR_EPH];
	atomic_ulong ctr[NR_CTR];
	atomic_uint odd_reports;
};

static struct shared *sh;
static char top[128];
static bool no_tag;	/* STRESS_CORESCHED_NO_TAG=1: test this program without the interface */

static void usage(void)
{
	fprintf(stderr,
		"usage: stress-coresched [-t SECONDS] [-m MOVERS] [-s SEED]\n"
		"  -t  run time, 1..3600 s (default 60)\n"
		"  -m  mover processes, 1..%d (default 3)\n"
		"  -s  random seed (default: from the clock; printed)\n", MAX_MOVERS);
	exit(KSFT_USAGE);
}

static void count(enum ctr c)
{
	atomic_fetch_add_explicit(&sh->ctr[c], 1, memory_order_relaxed);
}

/* An errno no operation of the storm should see: counted and described. */
static void odd(const char *what, int err)
{
	char line[256];

	count(C_ODD_ERR);
	if (atomic_fetch_add(&sh->odd_reports, 1) >= MAX_REPORTS)
		return;
	snprintf(line, sizeof(line), "# unexpected: %s: %s\n", what, strerror(err));
	if (write(STDOUT_FILENO, line, strlen(line)) < 0)
		return;
}

static void cg_path(char *buf, size_t len, const char *rel, const char *file)
{
	snprintf(buf, len, "%s%s%s%s%s", top, *rel ? "/" : "", rel,
		 file ? "/" : "", file ? file : "");
}

static void eph_rel(char *buf, size_t len, int slot)
{
	snprintf(buf, len, "%se%d", eph_parent[slot % 3], slot);
}

/* A random leaf, static or ephemeral (which may not exist right now). */
static void random_leaf(char *rel, size_t len, uint64_t *rng)
{
	unsigned int i = rnd(rng, ARRAY_SIZE(leaves) + NR_EPH);

	if (i < ARRAY_SIZE(leaves))
		snprintf(rel, len, "%s", leaves[i]);
	else
		eph_rel(rel, len, (int)(i - ARRAY_SIZE(leaves)));
}

/* Move process @pid (0: the caller's) into cgroup @rel. */
static int move_to(const char *rel, pid_t pid)
{
	char path[256], num[24];
	int r;

	cg_path(path, sizeof(path), rel, "cgroup.procs");
	snprintf(num, sizeof(num), "%d", (int)pid);
	r = write_str(path, num);
	if (!r) {
		count(C_MOVE_OK);
		return 0;
	}
	count(C_MOVE_ERR);
	/*
	 * Expected: the cgroup was removed (ENOENT, ENODEV), the task is
	 * exiting (ESRCH).
	 */
	if (r != -ENOENT && r != -ENODEV && r != -ESRCH)
		odd("move to a cgroup", -r);
	return r;
}

static int tag(const char *rel, int on)
{
	char path[256];
	int r;

	cg_path(path, sizeof(path), rel, "cpu.core_tag");
	r = write_str(path, on ? "1" : "0");
	if (!r) {
		count(C_TAG_OK);
		return 0;
	}
	count(C_TAG_ERR);
	if (r != -ENOENT && r != -ENODEV)
		odd("write cpu.core_tag", -r);
	return r;
}

static int sched_core(int cmd, pid_t pid, int type, uint64_t *cookie)
{
	return prctl(PR_SCHED_CORE, cmd, pid, type, (unsigned long)cookie) ? -errno : 0;
}

static void prctl_count(int cmd, int r)
{
	static const enum ctr ok[] = { C_GET_OK, C_CREATE_OK, C_SHARE_TO_OK, C_SHARE_FROM_OK };

	count(r ? ok[cmd] + 1 : ok[cmd]);
	/* ESRCH: a task that is exiting (threads) or gone from a pid group */
	if (r && r != -ESRCH)
		odd("PR_SCHED_CORE", -r);
}

static void spin_us(unsigned int us)
{
	uint64_t end = now_ns() + us * 1000ULL;

	while (now_ns() < end)
		;
}

/* A thread of a child: read the cookie, move the whole process, exit. */
static void *kid_thread(void *arg)
{
	uint64_t *rng = arg, c;
	char rel[64];

	prctl_count(PR_SCHED_CORE_GET, sched_core(PR_SCHED_CORE_GET, 0, PIDTYPE_PID, &c));
	random_leaf(rel, sizeof(rel), rng);
	move_to(rel, 0);
	spin_us(50);
	return NULL;
}

/* A child of a mover: a few random actions on itself, then exit. */
__attribute__((noreturn))
static void kid_main(uint64_t seed)
{
	uint64_t rng = rnd_seed(seed, (uint64_t)getpid()), c;
	unsigned int n = 1 + rnd(&rng, 8), i;
	char rel[64];
	pthread_t t;
	pid_t g;
	int r;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	setpgid(0, 0);
	for (i = 0; i < n && !atomic_load(&sh->stop); i++) {
		switch (rnd(&rng, 7)) {
		case 0:
			random_leaf(rel, sizeof(rel), &rng);
			move_to(rel, 0);
			break;
		case 1:
			r = sched_core(PR_SCHED_CORE_CREATE, 0,
				       rnd(&rng, 2) ? PIDTYPE_PID : PIDTYPE_TGID, NULL);
			prctl_count(PR_SCHED_CORE_CREATE, r);
			break;
		case 2:
			/* The parent (the mover's forking thread) outlives us. */
			r = sched_core(PR_SCHED_CORE_SHARE_FROM, getppid(), PIDTYPE_PID, NULL);
			prctl_count(PR_SCHED_CORE_SHARE_FROM, r);
			break;
		case 3:
			r = sched_core(PR_SCHED_CORE_GET, 0, PIDTYPE_PID, &c);
			prctl_count(PR_SCHED_CORE_GET, r);
			break;
		case 4:
			g = fork();
			if (g == 0) {
				if (rnd(&rng, 2)) {
					random_leaf(rel, sizeof(rel), &rng);
					move_to(rel, 0);
				}
				spin_us(20);
				_exit(0);
			}
			if (g > 0) {
				count(C_GRANDKIDS);
				if (rnd(&rng, 2)) {
					/* Push our cookie to the grandchild before reaping it. */
					r = sched_core(PR_SCHED_CORE_SHARE_TO, g, PIDTYPE_TGID, NULL);
					prctl_count(PR_SCHED_CORE_SHARE_TO, r);
				}
				waitpid(g, NULL, 0);
			}
			break;
		case 5:
			if (!pthread_create(&t, NULL, kid_thread, &rng)) {
				count(C_THREADS);
				pthread_join(t, NULL);
			}
			break;
		default:
			spin_us(100 + rnd(&rng, 400));
			break;
		}
	}
	_exit(0);
}

/* A mover: its children are addressed by pid only while unreaped. */
struct mover {
	pthread_rwlock_t lock;	/* write-held to reap a child */
	pid_t kids[KIDS_PER_ROUND];
	uint64_t seed;
};

static void *mover_prctl_thread(void *arg)
{
	struct mover *m = arg;
	uint64_t rng = rnd_seed(m->seed, 7), c;
	char rel[64];
	pid_t pid;
	int r, cmd;

	while (!atomic_load_explicit(&sh->stop, memory_order_relaxed)) {
		pthread_rwlock_rdlock(&m->lock);
		pid = m->kids[rnd(&rng, KIDS_PER_ROUND)];
		if (pid > 0) {
			cmd = (int)rnd(&rng, 5);
			switch (cmd) {
			case 0: {
				static const int types[] = { PIDTYPE_PID, PIDTYPE_TGID, PIDTYPE_PGID };

				r = sched_core(PR_SCHED_CORE_CREATE, pid, types[rnd(&rng, 3)], NULL);
				prctl_count(PR_SCHED_CORE_CREATE, r);
				break;
			}
			case 1:
				r = sched_core(PR_SCHED_CORE_SHARE_TO, pid, PIDTYPE_PID, NULL);
				prctl_count(PR_SCHED_CORE_SHARE_TO, r);
				break;
			case 2:
				r = sched_core(PR_SCHED_CORE_SHARE_FROM, pid, PIDTYPE_PID, NULL);
				prctl_count(PR_SCHED_CORE_SHARE_FROM, r);
				break;
			case 3:
				r = sched_core(PR_SCHED_CORE_GET, pid, PIDTYPE_PID, &c);
				prctl_count(PR_SCHED_CORE_GET, r);
				break;
			default:
				random_leaf(rel, sizeof(rel), &rng);
				move_to(rel, pid);
				break;
			}
		}
		pthread_rwlock_unlock(&m->lock);
		if (pid <= 0)
			sched_yield();
	}
	return NULL;
}

__attribute__((noreturn))
static void mover_main(uint64_t seed)
{
	struct mover m = { .seed = seed };
	uint64_t rng = rnd_seed(seed, 1);
	char rel[64];
	pthread_t t;
	pthread_rwlockattr_t attr;
	siginfo_t si;
	int i;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	/* The prctl thread must not starve the reaping writer. */
	pthread_rwlockattr_init(&attr);
	pthread_rwlockattr_setkind_np(&attr, PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP);
	pthread_rwlock_init(&m.lock, &attr);
	if (pthread_create(&t, NULL, mover_prctl_thread, &m))
		_exit(3);
	while (!atomic_load(&sh->stop)) {
		for (i = 0; i < KIDS_PER_ROUND; i++) {
			pid_t pid = fork();

			if (pid == 0)
				kid_main(rnd64(&rng));
			if (pid < 0)
				continue;
			count(C_KIDS);
			/*
			 * Its own process group before anyone sees its pid, so
			 * that a PGID-wide prctl never reaches beyond it.
			 */
			setpgid(pid, pid);
			pthread_rwlock_wrlock(&m.lock);
			m.kids[i] = pid;
			pthread_rwlock_unlock(&m.lock);
			random_leaf(rel, sizeof(rel), &rng);
			move_to(rel, pid);
		}
		for (i = 0; i < KIDS_PER_ROUND; i++) {
			if (m.kids[i] <= 0)
				continue;
			/* Wait for the exit without reaping, then reap under the lock. */
			while (waitid(P_PID, (id_t)m.kids[i], &si, WEXITED | WNOWAIT) &&
			       errno == EINTR)
				;
			pthread_rwlock_wrlock(&m.lock);
			waitpid(m.kids[i], NULL, 0);
			m.kids[i] = 0;
			pthread_rwlock_unlock(&m.lock);
			count(C_REAPED);
		}
	}
	pthread_join(t, NULL);
	_exit(0);
}

static void *tagger_thread(void *arg)
{
	uint64_t rng = rnd_seed(*(uint64_t *)arg, (uint64_t)pthread_self());
	unsigned int nst = ARRAY_SIZE(internal) + ARRAY_SIZE(leaves), i;
	char rel[64];

	while (!atomic_load_explicit(&sh->stop, memory_order_relaxed)) {
		i = rnd(&rng, nst + NR_EPH);
		if (i < ARRAY_SIZE(internal))
			snprintf(rel, sizeof(rel), "%s", internal[i]);
		else if (i < nst)
			snprintf(rel, sizeof(rel), "%s", leaves[i - ARRAY_SIZE(internal)]);
		else
			eph_rel(rel, sizeof(rel), (int)(i - nst));
		tag(rel, (int)rnd(&rng, 2));
		/* A tag write takes cgroup_threadgroup_rwsem for writing: let forks in. */
		usleep(rnd(&rng, 500));
	}
	return NULL;
}

__attribute__((noreturn))
static void tagger_main(uint64_t seed)
{
	pthread_t t;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (pthread_create(&t, NULL, tagger_thread, &seed))
		_exit(3);
	tagger_thread(&seed);
	pthread_join(t, NULL);
	_exit(0);
}

__attribute__((noreturn))
static void cgrouper_main(uint64_t seed)
{
	uint64_t rng = rnd_seed(seed, 3);
	char rel[64], path[256];
	int slot;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	while (!atomic_load(&sh->stop)) {
		slot = (int)rnd(&rng, NR_EPH);
		eph_rel(rel, sizeof(rel), slot);
		cg_path(path, sizeof(path), rel, NULL);
		if (!atomic_load(&sh->eph_exists[slot])) {
			if (mkdir(path, 0755)) {
				count(C_MKDIR_ERR);
				odd("mkdir", errno);
				continue;
			}
			count(C_MKDIR_OK);
			atomic_store(&sh->eph_exists[slot], 1);
			if (rnd(&rng, 2))
				tag(rel, 1);
		} else if (rmdir(path)) {
			if (errno == EBUSY) {
				count(C_RMDIR_BUSY);
			} else {
				count(C_RMDIR_ERR);
				odd("rmdir", errno);
			}
		} else {
			count(C_RMDIR_OK);
			atomic_store(&sh->eph_exists[slot], 0);
		}
		usleep(200 + rnd(&rng, 800));
	}
	_exit(0);
}

/*
 * Remove a cgroup; a busy one (tasks still leaving) is retried for about a
 * second.  0, or -errno after describing what is left in it.
 */
static int remove_cgroup(const char *rel)
{
	char path[256], procs[4096];
	int i;

	cg_path(path, sizeof(path), rel, NULL);
	for (i = 0; i < 50; i++) {
		if (!rmdir(path) || errno == ENOENT)
			return 0;
		if (errno != EBUSY)
			break;
		usleep(20000);
	}
	i = errno;
	cg_path(path, sizeof(path), rel, "cgroup.procs");
	if (read_file(path, procs, sizeof(procs)) >= 0) {
		char *c;

		for (c = procs; *c; c++)
			if (*c == '\n')
				*c = ' ';
		tap_diag("cannot remove %s: %s; tasks in it: %s", rel, strerror(i),
			 procs[0] ? procs : "(none)");
	} else {
		tap_diag("cannot remove %s: %s", rel, strerror(i));
	}
	return -i;
}

/* Tasks parked on a pipe, for reading cookies back. */
static int park_rd = -1, park_wr = -1;

static pid_t park_task(const char *rel)
{
	int p[2];
	pid_t pid;
	char c;

	if (park_wr < 0) {
		if (pipe2(p, O_CLOEXEC))
			return -1;
		park_rd = p[0];
		park_wr = p[1];
	}
	pid = fork();
	if (pid == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		close(park_wr);
		if (read(park_rd, &c, 1) < 0)
			_exit(1);
		_exit(0);
	}
	if (pid > 0 && rel && move_to(rel, pid)) {
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
		return -1;
	}
	return pid;
}

/* Let the parked tasks exit (EOF on the pipe) and reap them. */
static void release_parked(pid_t *pids, int n)
{
	int i;

	if (park_wr >= 0) {
		close(park_wr);
		close(park_rd);
		park_wr = park_rd = -1;
	}
	for (i = 0; i < n; i++)
		if (pids[i] > 0)
			waitpid(pids[i], NULL, 0);
}

static uint64_t cookie_of(pid_t pid)
{
	uint64_t c = 0;

	if (sched_core(PR_SCHED_CORE_GET, pid, PIDTYPE_PID, &c))
		return UINT64_MAX;
	return c;
}

/*
 * The cookies mean what the cgroup interface says, read back from parked
 * tasks.  Number of failed checks.
 */
static int check_semantics(void)
{
	enum { A1, A2, B1, PX, PY, S, NR };
	static const char * const where[NR] = { "a", "a", "b", "p/x", "p/y", "q/r/s" };
	pid_t pid[NR] = { 0 }, h;
	uint64_t c[NR];
	unsigned int i;
	int fails = 0, st;

#define GETALL() do { for (i = 0; i < NR; i++) c[i] = cookie_of(pid[i]); } while (0)
#define CHECK(cond, what) do { \
	if (!(cond)) { \
		fails++; \
		tap_diag("cookie check failed: %s (a1 %" PRIx64 " a2 %" PRIx64 " b %" PRIx64 \
			 " p/x %" PRIx64 " p/y %" PRIx64 " q/r/s %" PRIx64 ")", what, \
			 c[A1], c[A2], c[B1], c[PX], c[PY], c[S]); \
	} \
} while (0)

	for (i = 0; i < ARRAY_SIZE(internal); i++)
		tag(internal[i], 0);
	for (i = 0; i < ARRAY_SIZE(leaves); i++)
		tag(leaves[i], 0);
	for (i = 0; i < NR; i++) {
		pid[i] = park_task(where[i]);
		if (pid[i] <= 0) {
			tap_diag("cannot park a task in %s", where[i]);
			release_parked(pid, NR);
			return 1;
		}
	}
	if (tag("a", 1) || tag("b", 1) || tag("p", 1)) {
		release_parked(pid, NR);
		return 1;
	}
	GETALL();
	CHECK(c[A1] == c[A2] && c[A1] && c[A1] != UINT64_MAX, "one cookie in tagged a");
	CHECK(c[B1] && c[B1] != c[A1], "tagged b differs from a");
	CHECK(c[PX] == c[PY] && c[PX] && c[PX] != c[A1] && c[PX] != c[B1],
	      "untagged p/x and p/y share tagged p's cookie");
	CHECK(c[S] == 0, "no cookie in untagged q/r/s");
	tag("p/y", 1);
	GETALL();
	CHECK(c[PY] && c[PY] != c[PX], "tagged p/y has its own cookie");
	tag("p", 0);
	GETALL();
	CHECK(c[PX] == 0 && c[PY] && c[PY] != UINT64_MAX, "untagging p leaves p/x without, p/y with its cookie");
	move_to("b", pid[A2]);
	GETALL();
	CHECK(c[A2] == c[B1], "a task moved from a to b gets b's cookie");

	/* prctl on a task of tagged b, pushed to untagged q/r/s: no match. */
	h = fork();
	if (h == 0) {
		int bad = 0;

		bad |= sched_core(PR_SCHED_CORE_CREATE, pid[A2], PIDTYPE_PID, NULL) ? 1 : 0;
		bad |= sched_core(PR_SCHED_CORE_SHARE_FROM, pid[A2], PIDTYPE_PID, NULL) ? 2 : 0;
		bad |= sched_core(PR_SCHED_CORE_SHARE_TO, pid[S], PIDTYPE_PID, NULL) ? 4 : 0;
		_exit(bad);
	}
	st = -1;
	if (h > 0)
		waitpid(h, &st, 0);
	GETALL();
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0, "prctl CREATE, SHARE_FROM, SHARE_TO succeed");
	CHECK(c[A2] && c[A2] != c[B1], "a prctl cookie inside tagged b adds to b's");
	CHECK(c[S] && c[S] != c[A2], "the prctl cookie pushed out of b does not match inside b");
	for (i = 0; i < ARRAY_SIZE(internal); i++)
		tag(internal[i], 0);
	for (i = 0; i < ARRAY_SIZE(leaves); i++)
		tag(leaves[i], 0);
	GETALL();
	CHECK(!c[A1] && !c[B1] && !c[PX] && !c[PY], "no cookies once nothing is tagged");
	CHECK(c[A2] && c[A2] == c[S], "the prctl cookie alone is left, the same on both tasks");
	release_parked(pid, NR);
	return fails;
#undef GETALL
#undef CHECK
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * The leak probe: @k tasks each create a prctl cookie and hold it; the
 * sorted PR_SCHED_CORE_GET values.  0 or -1.
 */
static int probe_ids(uint64_t *vals, int k)
{
	int p[2], hold[2], i, n = 0;
	pid_t *pids = calloc((size_t)k, sizeof(*pids));

	if (!pids || pipe2(p, O_CLOEXEC) || pipe2(hold, O_CLOEXEC)) {
		free(pids);
		return -1;
	}
	for (i = 0; i < k; i++) {
		pids[i] = fork();
		if (pids[i] == 0) {
			uint64_t c = 0;
			char b;

			prctl(PR_SET_PDEATHSIG, SIGKILL);
			close(hold[1]);
			if (sched_core(PR_SCHED_CORE_CREATE, 0, PIDTYPE_PID, NULL) ||
			    sched_core(PR_SCHED_CORE_GET, 0, PIDTYPE_PID, &c))
				c = 0;
			if (write(p[1], &c, sizeof(c)) != sizeof(c))
				_exit(1);
			if (read(hold[0], &b, 1) < 0)
				_exit(1);
			_exit(0);
		}
		if (pids[i] < 0)
			break;
	}
	close(p[1]);
	close(hold[0]);
	if (i == k) {
		struct pollfd pfd = { .fd = p[0], .events = POLLIN };

		for (n = 0; n < k; n++) {
			if (poll(&pfd, 1, 30000) != 1 ||
			    read(p[0], &vals[n], sizeof(vals[n])) != sizeof(vals[n]) ||
			    !vals[n])
				break;
		}
	}
	close(hold[1]);		/* all of them exit now */
	close(p[0]);
	for (i = 0; i < k && pids[i] > 0; i++)
		waitpid(pids[i], NULL, 0);
	free(pids);
	if (n != k)
		return -1;
	qsort(vals, (size_t)k, sizeof(*vals), cmp_u64);
	return 0;
}

/*
 * Probe until the result equals @want (or, with @want NULL, until two runs
 * in a row agree, stored in @out): freeing a task's or a group's cookie
 * waits for an RCU grace period or two after the reap or the rmdir.
 * Returns the tries used, or -1.
 */
static int probe_until(uint64_t *out, const uint64_t *want, int k, int tries)
{
	uint64_t *prev = calloc((size_t)k, sizeof(*prev));
	int t;

	if (!prev)
		return -1;
	for (t = 1; t <= tries; t++) {
		if (probe_ids(out, k))
			break;
		if (want ? !memcmp(out, want, k * sizeof(*out)) :
			   t > 1 && !memcmp(out, prev, k * sizeof(*out))) {
			free(prev);
			return t;
		}
		memcpy(prev, out, k * sizeof(*out));
		usleep(200000);
	}
	free(prev);
	return -1;
}

static void remove_all(int *failures)
{
	char rel[64];
	int i;

	for (i = 0; i < NR_EPH; i++) {
		eph_rel(rel, sizeof(rel), i);
		if (remove_cgroup(rel))
			(*failures)++;
	}
	for (i = (int)ARRAY_SIZE(leaves) - 1; i >= 0; i--)
		if (remove_cgroup(leaves[i]))
			(*failures)++;
	for (i = (int)ARRAY_SIZE(internal) - 1; i >= 0; i--)
		if (remove_cgroup(internal[i]))
			(*failures)++;
	if (remove_cgroup(""))
		(*failures)++;
}

int main(int argc, char **argv)
{
	unsigned long secs = 60, movers = 3, seed = 0;
	const char *cgroot = getenv("STRESS_CGROOT") ?: CGROOT;
	pid_t roles[MAX_MOVERS + 2];
	int nroles = 0, bad_roles = 0, rm_fail = 0, sem_fail, k, tries, i, st, r;
	uint64_t *base = NULL, *after = NULL, t0;
	char path[256], buf[512];
	bool probe_ok = false;
	struct statfs sfs;
	int opt;

	while ((opt = getopt(argc, argv, "t:m:s:h")) != -1) {
		switch (opt) {
		case 't':
			if (parse_uint(optarg, 1, 3600, &secs))
				usage();
			break;
		case 'm':
			if (parse_uint(optarg, 1, MAX_MOVERS, &movers))
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
	if (!seed)
		seed = (now_ns() & 0x7fffffff) | 1;
	no_tag = getenv("STRESS_CORESCHED_NO_TAG") &&
		 !strcmp(getenv("STRESS_CORESCHED_NO_TAG"), "1");

	tap_plan(5);
	tap_diag("stress-coresched: %lu s, %lu movers, seed %lu", secs, movers, seed);
	alarm((unsigned int)secs + 300);	/* roles die with us (PDEATHSIG) */

	if (geteuid()) {
		tap_skip_rest("needs root");
		tap_finish();
	}
	if (statfs(cgroot, &sfs) || sfs.f_type != CGROUP2_SUPER_MAGIC) {
		snprintf(buf, sizeof(buf), "no cgroup v2 at %s", cgroot);
		tap_skip_rest(buf);
		tap_finish();
	}
	if (!no_tag && (read_file(CGROOT "/cgroup.controllers", buf, sizeof(buf)) < 0 ||
			!strstr(buf, "cpu"))) {
		tap_skip_rest("no cpu controller in " CGROOT "/cgroup.controllers");
		tap_finish();
	}
	snprintf(path, sizeof(path), "%s/cgroup.subtree_control", cgroot);
	r = no_tag ? 0 : write_str(path, "+cpu");
	if (r) {
		snprintf(buf, sizeof(buf), "cannot enable the cpu controller: %s", strerror(-r));
		tap_skip_rest(buf);
		tap_finish();
	}
	snprintf(top, sizeof(top), "%s/stress-coresched.%d", cgroot, (int)getpid());
	if (mkdir(top, 0755)) {
		snprintf(buf, sizeof(buf), "mkdir %s: %s", top, strerror(errno));
		tap_skip_rest(buf);
		tap_finish();
	}
	cg_path(path, sizeof(path), "", "cpu.core_tag");
	if (!no_tag && access(path, F_OK)) {
		rmdir(top);
		tap_skip_rest("no cpu.core_tag (kernel without the cgroup core scheduling interface)");
		tap_finish();
	}
	if (no_tag)
		tap_diag("STRESS_CORESCHED_NO_TAG=1: testing the program under %s without cpu.core_tag", top);

	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED) {
		rmdir(top);
		tap_ok(0, "setup: mmap: %s", strerror(errno));
		tap_skip_rest("setup failed");
		tap_finish();
	}
	/* The static tree. */
	r = no_tag ? 0 : write_str(path, "1");
	if (r == -ENODEV) {
		rmdir(top);
		tap_skip_rest("core scheduling needs SMT (cpu.core_tag: ENODEV)");
		tap_finish();
	}
	r = r || no_tag ? r : write_str(path, "0");
	cg_path(path, sizeof(path), "", "cgroup.subtree_control");
	r = r || no_tag ? r : write_str(path, "+cpu");
	for (i = 0; !r && i < (int)ARRAY_SIZE(internal); i++) {
		cg_path(path, sizeof(path), internal[i], NULL);
		r = mkdir(path, 0755) ? -errno : 0;
		cg_path(path, sizeof(path), internal[i], "cgroup.subtree_control");
		r = r || no_tag ? r : write_str(path, "+cpu");
	}
	for (i = 0; !r && i < (int)ARRAY_SIZE(leaves); i++) {
		cg_path(path, sizeof(path), leaves[i], NULL);
		r = mkdir(path, 0755) ? -errno : 0;
	}
	if (r) {
		tap_ok(0, "setup: the cgroup tree under %s: %s", top, strerror(-r));
		remove_all(&rm_fail);
		tap_skip_rest("setup failed");
		tap_finish();
	}

	/*
	 * The leak probe's size: twice the cookies the storm can hold at once
	 * (every task of a mover holds at most two, plus one transient; every
	 * cgroup one, plus the taggers' transient ones).
	 */
	k = 2 * ((int)movers * (2 + KIDS_PER_ROUND * 3) * 3 +
		 (int)(ARRAY_SIZE(internal) + ARRAY_SIZE(leaves)) + NR_EPH + 4);
	base = calloc((size_t)k, sizeof(*base));
	after = calloc((size_t)k, sizeof(*after));
	tries = base && after ? probe_until(base, NULL, k, 10) : -1;
	probe_ok = tries > 0;
	if (probe_ok)
		tap_diag("leak probe: %d cookies, stable before the storm after %d runs", k, tries);
	else
		tap_diag("leak probe: %d cookies at once do not give a stable set of PR_SCHED_CORE_GET values here (no id-based cookies?): probe not used",
			 k);
	tap_ok(1, "setup: cgroup tree under %s (3 internal, 6 leaves, %d ephemeral slots)",
	       top, NR_EPH);

	/* The storm. */
	t0 = now_ns();
	for (i = 0; i < (int)movers + 2; i++) {
		uint64_t s = rnd_seed(seed, (uint64_t)i + 100);
		pid_t pid = fork();

		if (pid == 0) {
			if (i < (int)movers)
				mover_main(s);
			if (i == (int)movers)
				tagger_main(s);
			cgrouper_main(s);
		}
		if (pid < 0) {
			tap_diag("fork: %s", strerror(errno));
			bad_roles++;
			break;
		}
		roles[nroles++] = pid;
	}
	{
		struct timespec ts = { .tv_sec = (time_t)secs };

		while (nanosleep(&ts, &ts) && errno == EINTR)
			;
	}
	atomic_store(&sh->stop, 1);
	for (i = 0; i < nroles; i++) {
		if (waitpid(roles[i], &st, 0) != roles[i] || !WIFEXITED(st) || WEXITSTATUS(st)) {
			bad_roles++;
			tap_diag("role %d (pid %d) ended badly: status 0x%x", i, (int)roles[i], st);
		}
	}
	tap_diag("storm: %.1f s", (now_ns() - t0) / 1e9);
	for (i = 0; i < NR_CTR; i++)
		tap_diag("%-26s %lu", ctr_name[i], atomic_load(&sh->ctr[i]));

	/* Ephemeral cgroups first; the static tree after the semantics check. */
	for (i = 0; i < NR_EPH; i++) {
		char rel[64];

		eph_rel(rel, sizeof(rel), i);
		if (remove_cgroup(rel))
			rm_fail++;
	}
	sem_fail = no_tag ? 0 : check_semantics();
	for (i = (int)ARRAY_SIZE(leaves) - 1; i >= 0; i--)
		if (remove_cgroup(leaves[i]))
			rm_fail++;
	for (i = (int)ARRAY_SIZE(internal) - 1; i >= 0; i--)
		if (remove_cgroup(internal[i]))
			rm_fail++;
	if (remove_cgroup(""))
		rm_fail++;

	tap_ok(!bad_roles && atomic_load(&sh->ctr[C_KIDS]) &&
	       (no_tag || atomic_load(&sh->ctr[C_TAG_OK])) &&
	       atomic_load(&sh->ctr[C_MKDIR_OK]) && atomic_load(&sh->ctr[C_CREATE_OK]) &&
	       atomic_load(&sh->ctr[C_MOVE_OK]) && !atomic_load(&sh->ctr[C_ODD_ERR]),
	       "the storm ran: every role exited cleanly, every operation done, %lu unexpected errors",
	       atomic_load(&sh->ctr[C_ODD_ERR]));
	tap_ok(rm_fail == 0, "every stress cgroup removed: no task leaked into them (%d failures)",
	       rm_fail);
	if (no_tag)
		tap_skip("cookie semantics", "STRESS_CORESCHED_NO_TAG=1");
	else
		tap_ok(sem_fail == 0, "cookie semantics intact after the storm (%d checks failed)",
		       sem_fail);
	if (!probe_ok) {
		tap_skip("no cookie leaked", "the id probe does not work on this kernel; rely on kmemleak");
	} else {
		tries = probe_until(after, base, k, 50);
		if (tries < 0) {
			int d = 0;

			for (i = 0; i < k; i++)
				d += after[i] != base[i];
			tap_diag("leak probe: %d of %d values differ from before the storm", d, k);
		}
		tap_ok(tries > 0,
		       "no cookie leaked: %d fresh cookies get the same ids as before the storm%s",
		       k, tries > 1 ? " (after a wait for deferred frees)" : "");
	}
	free(base);
	free(after);
	tap_diag("stress-coresched: kids %lu, moves %lu, tag writes %lu, mkdir %lu, rmdir %lu, prctl %lu",
		 atomic_load(&sh->ctr[C_KIDS]), atomic_load(&sh->ctr[C_MOVE_OK]),
		 atomic_load(&sh->ctr[C_TAG_OK]), atomic_load(&sh->ctr[C_MKDIR_OK]),
		 atomic_load(&sh->ctr[C_RMDIR_OK]),
		 atomic_load(&sh->ctr[C_CREATE_OK]) + atomic_load(&sh->ctr[C_SHARE_TO_OK]) +
		 atomic_load(&sh->ctr[C_SHARE_FROM_OK]) + atomic_load(&sh->ctr[C_GET_OK]));
	tap_finish();
}
