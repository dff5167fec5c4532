// SPDX-License-Identifier: GPL-2.0
/*
 * vecload: a vector-heavy load for the core scheduling table (issue 7), the
 * role gemmbench (AVX-512) played in the 2019 measurements: THREADS threads
 * multiply small double matrices (C += A * B, 64 x 64) for SECONDS seconds.
 *
 *   usage: vecload [-i] THREADS SECONDS
 *
 * One binary for every CPU: the AVX2 kernels (256-bit registers; with FMA
 * where the CPU has it) are compiled with target attributes and chosen at
 * run time with __builtin_cpu_supports(); CPUs without AVX2 (QEMU's TCG
 * before 7.2, old CPUs) get the SSE2 kernel (128-bit, baseline x86-64) or,
 * off x86, a scalar one.  -i prints the kernel it would use (avx2-fma,
 * avx2, sse2, scalar) and exits.
 *
 * At the end (SECONDS elapsed, or SIGTERM/SIGINT) it prints one line:
 *   vecload: isa avx2-fma, 4 threads, 8.00 s, 12345 matmul, 1543.1 matmul/s, checksum ...
 * Exit status: 0 done, 1 failure, 2 usage.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define VECLOAD_X86 1
#endif

#define DIM		64		/* matrices of DIM x DIM doubles */
#define MAX_THREADS	4096
#define MAX_SECONDS	86400

struct worker {
	pthread_t tid;
	unsigned long long iters;
	double checksum;
} __attribute__((aligned(64)));

static atomic_int stop;
static void (*matmul)(double *c, const double *a, const double *b);
static const char *isa;

#ifdef VECLOAD_X86
__attribute__((target("avx2,fma")))
static void matmul_avx2(double *c, const double *a, const double *b)
{
	for (int i = 0; i < DIM; i++) {
		for (int k = 0; k < DIM; k++) {
			__m256d aik = _mm256_set1_pd(a[i * DIM + k]);

			for (int j = 0; j < DIM; j += 4) {
				__m256d cij = _mm256_loadu_pd(&c[i * DIM + j]);
				__m256d bkj = _mm256_loadu_pd(&b[k * DIM + j]);

				cij = _mm256_fmadd_pd(aik, bkj, cij);
				_mm256_storeu_pd(&c[i * DIM + j], cij);
			}
		}
	}
}

/* AVX2 without FMA (some emulators): the same in two instructions. */
__attribute__((target("avx2")))
static void matmul_avx2_nofma(double *c, const double *a, const double *b)
{
	for (int i = 0; i < DIM; i++) {
		for (int k = 0; k < DIM; k++) {
			__m256d aik = _mm256_set1_pd(a[i * DIM + k]);

			for (int j = 0; j < DIM; j += 4) {
				__m256d cij = _mm256_loadu_pd(&c[i * DIM + j]);
				__m256d bkj = _mm256_loadu_pd(&b[k * DIM + j]);

				cij = _mm256_add_pd(cij, _mm256_mul_pd(aik, bkj));
				_mm256_storeu_pd(&c[i * DIM + j], cij);
			}
		}
	}
}

static void matmul_sse2(double *c, const double *a, const double *b)
{
	for (int i = 0; i < DIM; i++) {
		for (int k = 0; k < DIM; k++) {
			__m128d aik = _mm_set1_pd(a[i * DIM + k]);

			for (int j = 0; j < DIM; j += 2) {
				__m128d cij = _mm_loadu_pd(&c[i * DIM + j]);
				__m128d bkj = _mm_loadu_pd(&b[k * DIM + j]);

				cij = _mm_add_pd(cij, _mm_mul_pd(aik, bkj));
				_mm_storeu_pd(&c[i * DIM + j], cij);
			}
		}
	}
}
#endif

static void matmul_scalar(double *c, const double *a, const double *b)
{
	for (int i = 0; i < DIM; i++)
		for (int k = 0; k < DIM; k++)
			for (int j = 0; j < DIM; j++)
				c[i * DIM + j] += a[i * DIM + k] * b[k * DIM + j];
}

static void pick_kernel(void)
{
#ifdef VECLOAD_X86
	__builtin_cpu_init();
	if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) {
		matmul = matmul_avx2;
		isa = "avx2-fma";
		return;
	}
	if (__builtin_cpu_supports("avx2")) {
		matmul = matmul_avx2_nofma;
		isa = "avx2";
		return;
	}
	if (__builtin_cpu_supports("sse2")) {
		matmul = matmul_sse2;
		isa = "sse2";
		return;
	}
#endif
	matmul = matmul_scalar;
	isa = "scalar";
}

static void *work(void *arg)
{
	struct worker *w = arg;
	double *a, *b, *c;
	size_t bytes = sizeof(double) * DIM * DIM;

	if (posix_memalign((void **)&a, 64, bytes) ||
	    posix_memalign((void **)&b, 64, bytes) ||
	    posix_memalign((void **)&c, 64, bytes)) {
		fprintf(stderr, "vecload: out of memory\n");
		exit(1);
	}
	for (int i = 0; i < DIM * DIM; i++) {
		/* Values near 1, so that C grows slowly and stays finite. */
		a[i] = 1.0 + (double)(i % 7) / 1024.0;
		b[i] = 1.0 / (double)DIM - (double)(i % 5) / 65536.0;
		c[i] = 0.0;
	}
	while (!atomic_load_explicit(&stop, memory_order_relaxed)) {
		matmul(c, a, b);
		w->iters++;
		/* Keep C bounded: start over every 1024 products. */
		if ((w->iters & 1023) == 0) {
			w->checksum += c[DIM * DIM - 1];
			memset(c, 0, bytes);
		}
	}
	w->checksum += c[0] + c[DIM * DIM - 1];
	free(a);
	free(b);
	free(c);
	return NULL;
}

static void usage(void)
{
	fprintf(stderr,
		"usage: vecload [-i] THREADS SECONDS\n"
		"  THREADS threads (1..%d) multiply %dx%d double matrices for\n"
		"  SECONDS seconds (1..%d), or until SIGTERM/SIGINT;\n"
		"  -i: print the vector kernel this CPU gets (avx2-fma, avx2, sse2,\n"
		"      scalar) and exit\n",
		MAX_THREADS, DIM, DIM, MAX_SECONDS);
	exit(2);
}

/* A decimal number in [min, max], nothing else (no sign, no spaces). */
static long parse_num(const char *s, long min, long max, const char *what)
{
	char *end;
	long v;

	if (*s < '0' || *s > '9')
		goto bad;
	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || *end || v < min || v > max)
		goto bad;
	return v;
bad:
	fprintf(stderr, "vecload: %s '%s' is not a number in %ld..%ld\n",
		what, s, min, max);
	usage();
	return 0;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	struct timespec timeout;
	unsigned long long total = 0;
	struct worker *workers;
	double t0, elapsed, checksum = 0.0;
	sigset_t set;
	long threads, seconds;
	int opt, only_isa = 0, sig, err;

	while ((opt = getopt(argc, argv, "i")) != -1) {
		switch (opt) {
		case 'i':
			only_isa = 1;
			break;
		default:
			usage();
		}
	}
	pick_kernel();
	if (only_isa) {
		if (optind != argc)
			usage();
		printf("%s\n", isa);
		return 0;
	}
	if (argc - optind != 2)
		usage();
	threads = parse_num(argv[optind], 1, MAX_THREADS, "THREADS");
	seconds = parse_num(argv[optind + 1], 1, MAX_SECONDS, "SECONDS");

	/* Threads inherit the mask: only the main thread takes the signals. */
	sigemptyset(&set);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGINT);
	err = pthread_sigmask(SIG_BLOCK, &set, NULL);
	if (err) {
		fprintf(stderr, "vecload: pthread_sigmask: %s\n", strerror(err));
		return 1;
	}
	workers = calloc((size_t)threads, sizeof(*workers));
	if (!workers) {
		fprintf(stderr, "vecload: out of memory\n");
		return 1;
	}
	t0 = now();
	for (long i = 0; i < threads; i++) {
		err = pthread_create(&workers[i].tid, NULL, work, &workers[i]);
		if (err) {
			fprintf(stderr, "vecload: pthread_create (thread %ld): %s\n",
				i + 1, strerror(err));
			return 1;
		}
	}

	timeout.tv_sec = seconds;
	timeout.tv_nsec = 0;
	for (;;) {
		sig = sigtimedwait(&set, NULL, &timeout);
		if (sig >= 0 || errno == EAGAIN)
			break;
		if (errno != EINTR) {
			perror("vecload: sigtimedwait");
			return 1;
		}
		/* Interrupted (e.g. SIGSTOP/SIGCONT): wait for what is left. */
		elapsed = now() - t0;
		if (elapsed >= (double)seconds)
			break;
		timeout.tv_sec = (time_t)((double)seconds - elapsed);
		timeout.tv_nsec = (long)(((double)seconds - elapsed -
					  (double)timeout.tv_sec) * 1e9);
	}
	atomic_store(&stop, 1);
	for (long i = 0; i < threads; i++) {
		pthread_join(workers[i].tid, NULL);
		total += workers[i].iters;
		checksum += workers[i].checksum;
	}
	elapsed = now() - t0;
	printf("vecload: isa %s, %ld threads, %.2f s, %llu matmul, %.1f matmul/s, checksum %.6g\n",
	       isa, threads, elapsed, total, (double)total / elapsed, checksum);
	free(workers);
	return 0;
}
