// SPDX-License-Identifier: GPL-2.0
/*
 * udp_flood: UDP small-packet receive rate over loopback, the workload of
 * the 2017 short-copy patch ("UDP receive performances under flood with
 * small packets using recvfrom() increase by ~5%").
 *
 * A forked sender floods 127.0.0.1 with packets of --size bytes; the
 * receiver counts what recvfrom() returns during --time seconds (after a
 * short warm-up) and prints packets per second.  Each recvfrom() copies the
 * payload and the source address to user space: short copies.
 *
 * usage: udp_flood [--size BYTES] [--time SECONDS] [--runs N]
 *                  [--rx-cpu N] [--tx-cpu N]
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static const char *prog = "udp_flood";

static void usage(FILE *f)
{
	fprintf(f, "usage: %s [--size BYTES] [--time SECONDS] [--runs N] "
		"[--rx-cpu N] [--tx-cpu N]\n", prog);
}

static long parse(const char *name, const char *s, long min, long max)
{
	char *end;
	long v;

	if (!s) {
		fprintf(stderr, "%s: %s needs a value\n", prog, name);
		exit(2);
	}
	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < min || v > max) {
		fprintf(stderr, "%s: %s: '%s' is not a number in %ld..%ld\n",
			prog, name, s, min, max);
		exit(2);
	}
	return v;
}

static void pin(int cpu)
{
	cpu_set_t set;

	if (cpu < 0)
		return;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		perror("sched_setaffinity (ignored)");
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double one_run(int size, double secs, int rx_cpu, int tx_cpu)
{
	struct sockaddr_in addr = { .sin_family = AF_INET };
	struct sockaddr_in from;
	socklen_t alen = sizeof(addr);
	struct timeval tmo = { .tv_sec = 0, .tv_usec = 200000 };
	int rcvbuf = 4 << 20;
	char buf[65536];
	long long n = 0;
	double t0, t1, end;
	pid_t pid;
	int rx;

	rx = socket(AF_INET, SOCK_DGRAM, 0);
	if (rx < 0) {
		perror("socket");
		exit(1);
	}
	addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	setsockopt(rx, SOL_SOCKET, SO_RCVBUF, &rcvbuf, sizeof(rcvbuf));
	setsockopt(rx, SOL_SOCKET, SO_RCVTIMEO, &tmo, sizeof(tmo));
	if (bind(rx, (struct sockaddr *)&addr, sizeof(addr)) ||
	    getsockname(rx, (struct sockaddr *)&addr, &alen)) {
		perror("bind 127.0.0.1");
		exit(1);
	}

	pid = fork();
	if (pid < 0) {
		perror("fork");
		exit(1);
	}
	if (pid == 0) {
		int tx = socket(AF_INET, SOCK_DGRAM, 0);

		pin(tx_cpu);
		memset(buf, 0x5a, size);
		if (tx < 0 || connect(tx, (struct sockaddr *)&addr, sizeof(addr))) {
			perror("sender socket/connect");
			_exit(1);
		}
		for (;;)	/* until killed; ECONNREFUSED/ENOBUFS ignored */
			send(tx, buf, size, 0);
	}

	pin(rx_cpu);
	/* warm-up: 10% of the time, at least 0.2 s */
	end = now() + (secs / 10 > 0.2 ? secs / 10 : 0.2);
	while (now() < end)
		recvfrom(rx, buf, sizeof(buf), 0, NULL, NULL);
	t0 = now();
	end = t0 + secs;
	for (;;) {
		socklen_t fl = sizeof(from);
		ssize_t r = recvfrom(rx, buf, sizeof(buf), 0,
				     (struct sockaddr *)&from, &fl);

		if (r >= 0)
			n++;
		if ((n & 1023) == 0 || r < 0) {
			t1 = now();
			if (t1 >= end)
				break;
		}
	}
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	close(rx);
	return n / (t1 - t0);
}

int main(int argc, char **argv)
{
	int size = 16, runs = 3, rx_cpu = -1, tx_cpu = -1, i;
	double secs = 2, rates[101];

	prog = argv[0];
	for (i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "--size"))
			size = parse(a, argv[++i], 1, 65000);
		else if (!strcmp(a, "--time"))
			secs = parse(a, argv[++i], 1, 3600);
		else if (!strcmp(a, "--runs"))
			runs = parse(a, argv[++i], 1, 101);
		else if (!strcmp(a, "--rx-cpu"))
			rx_cpu = parse(a, argv[++i], 0, CPU_SETSIZE - 1);
		else if (!strcmp(a, "--tx-cpu"))
			tx_cpu = parse(a, argv[++i], 0, CPU_SETSIZE - 1);
		else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			usage(stdout);
			return 0;
		} else {
			fprintf(stderr, "%s: unknown argument '%s'\n", prog, a);
			usage(stderr);
			return 2;
		}
	}
	for (i = 0; i < runs; i++)
		rates[i] = one_run(size, secs, rx_cpu, tx_cpu);
	qsort(rates, runs, sizeof(rates[0]), cmp_double);
	printf("udp_flood: %d-byte payload, recvfrom %.0f packets/s "
	       "(median of %d runs of %.0f s; min %.0f, max %.0f)\n",
	       size, rates[runs / 2], runs, secs, rates[0], rates[runs - 1]);
	return 0;
}
