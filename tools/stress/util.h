/* SPDX-License-Identifier: GPL-2.0 */
/* Small helpers shared by the stress programs: arguments, time, files. */
#ifndef STRESS_UTIL_H
#define STRESS_UTIL_H

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/*
 * A decimal number in [min, max], digits only (no sign, no spaces, no
 * trailing junk).  Returns 0, or -1 if @s is not such a number.
 */
static inline int parse_uint(const char *s, unsigned long min,
			     unsigned long max, unsigned long *out)
{
	unsigned long v = 0, d;
	const char *p;

	if (!*s)
		return -1;
	for (p = s; *p; p++) {
		if (*p < '0' || *p > '9')
			return -1;
		d = (unsigned long)(*p - '0');
		if (d > max || v > (max - d) / 10)
			return -1;	/* above max (and no overflow) */
		v = v * 10 + d;
	}
	if (v < min)
		return -1;
	*out = v;
	return 0;
}

static inline uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/* xorshift64*: per-thread pseudo-random numbers, never 0 state. */
static inline uint64_t rnd64(uint64_t *s)
{
	uint64_t x = *s;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*s = x;
	return x * 0x2545F4914F6CDD1DULL;
}

static inline unsigned int rnd(uint64_t *s, unsigned int n)
{
	return (unsigned int)((rnd64(s) >> 32) % n);
}

static inline uint64_t rnd_seed(uint64_t seed, uint64_t stream)
{
	uint64_t s = seed * 0x9E3779B97F4A7C15ULL + stream * 0xBF58476D1CE4E5B9ULL + 1;

	return s ? s : 1;
}

/* Write @len bytes to @path with one write(); 0 or -errno. */
static inline int write_file(const char *path, const void *buf, size_t len)
{
	ssize_t ret;
	int fd;

	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	ret = write(fd, buf, len);
	if (ret < 0)
		ret = -errno;
	close(fd);
	if (ret >= 0 && (size_t)ret != len)
		return -EIO;
	return ret < 0 ? (int)ret : 0;
}

static inline int write_str(const char *path, const char *s)
{
	return write_file(path, s, strlen(s));
}

/* Read a small file whole (one read() after another until EOF); length or -errno. */
static inline ssize_t read_file(const char *path, char *buf, size_t size)
{
	size_t len = 0;
	ssize_t ret;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	while (len < size - 1) {
		ret = read(fd, buf + len, size - 1 - len);
		if (ret < 0) {
			ret = -errno;
			close(fd);
			return ret;
		}
		if (!ret)
			break;
		len += (size_t)ret;
	}
	close(fd);
	buf[len] = '\0';
	return (ssize_t)len;
}

#endif /* STRESS_UTIL_H */
