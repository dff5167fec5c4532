/* SPDX-License-Identifier: GPL-2.0 */
/*
 * read_whole_file() - read a whole file (a policy image, a sysfs file of
 * unknown size) into one malloc()ed, NUL-terminated buffer.
 *
 * Shared by the in-guest SELinux benchmark (tools/bench/selinux/guest) and
 * the SELinux stress program (tools/stress), which both load policy.33.
 * Returns NULL with errno set on any error and for an empty file; the
 * length, without the NUL, goes to *lenp when lenp is not NULL.
 */
#ifndef HARNESS_READFILE_H
#define HARNESS_READFILE_H

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

static inline char *read_whole_file(const char *path, size_t *lenp)
{
	size_t len = 0, size = 1 << 16;
	char *buf, *tmp;
	ssize_t ret;
	int fd, err;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	buf = malloc(size + 1);
	if (!buf)
		goto fail;
	for (;;) {
		if (len == size) {
			size *= 2;
			tmp = realloc(buf, size + 1);
			if (!tmp)
				goto fail;
			buf = tmp;
		}
		ret = read(fd, buf + len, size - len);
		if (ret < 0) {
			if (errno == EINTR)
				continue;
			goto fail;
		}
		if (!ret)
			break;
		len += ret;
	}
	close(fd);
	if (!len) {
		free(buf);
		errno = ENODATA;
		return NULL;
	}
	buf[len] = '\0';
	if (lenp)
		*lenp = len;
	return buf;
fail:
	err = errno;
	close(fd);
	free(buf);
	errno = err;
	return NULL;
}

#endif /* HARNESS_READFILE_H */
