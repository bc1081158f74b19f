/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Whole-buffer reads and writes on a file descriptor (see fdio.h). */
#include "config.h"

#include "util/fdio.h"

#include <errno.h>
#include <unistd.h>

/* One loop for both directions: at < 0 (writes only) uses the file offset.
 * A call that moves nothing is the end of the file for a read and a full
 * file system for a write. */
static int fd_io(int fd, gboolean writing, char *p, gsize len, gint64 at)
{
	while (len > 0) {
		ssize_t n = !writing ? pread(fd, p, len, (off_t)at)
			    : at < 0 ? write(fd, p, len)
				     : pwrite(fd, p, len, (off_t)at);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return errno;
		if (n == 0)
			return writing ? ENOSPC : EIO;
		p += n;
		len -= (gsize)n;
		if (at >= 0)
			at += n;
	}
	return 0;
}

int ftl_fd_write_all(int fd, const void *buf, gsize len, gint64 at)
{
	return fd_io(fd, TRUE, (char *)buf, len, at);
}

int ftl_fd_pread_all(int fd, void *buf, gsize len, gint64 at)
{
	return at < 0 ? EINVAL : fd_io(fd, FALSE, buf, len, at);
}
