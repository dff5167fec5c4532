/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A tiny TAP 13 writer for the stress programs (one header, no library):
 *
 *   tap_plan(n)                "TAP version 13" and "1..n"
 *   tap_ok(cond, fmt, ...)     "ok N desc" or "not ok N desc"
 *   tap_skip(fmt, ...)         "ok N # SKIP reason"
 *   tap_xfail(desc, fmt, ...)  "ok N desc # XFAIL reason": a known failure
 *                              of a kernel without the fix (counts as ok)
 *   tap_diag(fmt, ...)         "# ..." (stdout, flushed: the output of a
 *                              program killed by a timeout stays readable)
 *   tap_finish()               the kselftest-style totals line, then exits:
 *                              1 if a test failed, 4 (kselftest skip) if all
 *                              tests were skipped, else 0.
 *
 * The programs are single-threaded when they print (workers report through
 * counters), so no locking.
 */
#ifndef STRESS_TAP_H
#define STRESS_TAP_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#define KSFT_PASS	0
#define KSFT_FAIL	1
#define KSFT_USAGE	2
#define KSFT_SKIP	4

static unsigned int tap_n, tap_planned, tap_pass, tap_fail, tap_skipped, tap_xfailed;

static inline void tap_plan(unsigned int n)
{
	tap_planned = n;
	printf("TAP version 13\n1..%u\n", n);
	fflush(stdout);
}

__attribute__((format(printf, 1, 2)))
static inline void tap_diag(const char *fmt, ...)
{
	va_list ap;

	fputs("# ", stdout);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	fputc('\n', stdout);
	fflush(stdout);
}

__attribute__((format(printf, 2, 3)))
static inline int tap_ok(int cond, const char *fmt, ...)
{
	va_list ap;

	tap_n++;
	printf("%sok %u ", cond ? "" : "not ", tap_n);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	fputc('\n', stdout);
	fflush(stdout);
	if (cond)
		tap_pass++;
	else
		tap_fail++;
	return cond;
}

/* "ok N desc # DIRECTIVE reason": SKIP and XFAIL. */
static inline void tap_directive(const char *desc, const char *directive,
				 const char *fmt, va_list ap)
{
	tap_n++;
	printf("ok %u %s # %s ", tap_n, desc, directive);
	vprintf(fmt, ap);
	fputc('\n', stdout);
	fflush(stdout);
}

__attribute__((format(printf, 2, 3)))
static inline void tap_skip(const char *desc, const char *fmt, ...)
{
	va_list ap;

	tap_skipped++;
	va_start(ap, fmt);
	tap_directive(desc, "SKIP", fmt, ap);
	va_end(ap);
}

__attribute__((format(printf, 2, 3)))
static inline void tap_xfail(const char *desc, const char *fmt, ...)
{
	va_list ap;

	tap_xfailed++;
	va_start(ap, fmt);
	tap_directive(desc, "XFAIL", fmt, ap);
	va_end(ap);
}

/* Skip every test not yet reported, with one reason. */
static inline void tap_skip_rest(const char *reason)
{
	while (tap_n < tap_planned)
		tap_skip("(not run)", "%s", reason);
}

__attribute__((noreturn))
static inline void tap_finish(void)
{
	if (tap_n != tap_planned) {
		tap_diag("planned %u tests, ran %u", tap_planned, tap_n);
		tap_fail++;
	}
	printf("# Totals: pass:%u fail:%u xfail:%u xpass:0 skip:%u error:0\n",
	       tap_pass, tap_fail, tap_xfailed, tap_skipped);
	fflush(stdout);
	if (tap_fail)
		exit(KSFT_FAIL);
	if (tap_skipped && !tap_pass && !tap_xfailed)
		exit(KSFT_SKIP);
	exit(KSFT_PASS);
}

#endif /* STRESS_TAP_H */
