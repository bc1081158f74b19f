/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Reads and writes on a file descriptor (see fdio.h). */
#include "config.h"

#include "util/fdio.h"

#include <errno.h>
#include <sys/socket.h>
#include <unistd.h>

typedef enum { FD_READ, FD_WRITE, FD_SEND } FdOp;

/* One call, again while a signal interrupts it; at < 0 uses the file
 * offset (send() has none). */
static gssize fd_once(int fd, FdOp op, char *p, gsize len, gint64 at)
{
	ssize_t n;
	do
		n = op == FD_SEND    ? send(fd, p, len, MSG_NOSIGNAL)
		    : op == FD_WRITE ? (at < 0 ? write(fd, p, len) : pwrite(fd, p, len, (off_t)at))
		    : at < 0	     ? read(fd, p, len)
				     : pread(fd, p, len, (off_t)at);
	while (n < 0 && errno == EINTR);
	return n;
}

/* The whole buffer: a call that moves nothing is the end of the file for
 * a read and a full file system for a write. */
static int fd_all(int fd, FdOp op, char *p, gsize len, gint64 at)
{
	while (len > 0) {
		gssize n = fd_once(fd, op, p, len, at);
		if (n < 0)
			return errno;
		if (n == 0)
			return op == FD_READ ? EIO : ENOSPC;
		p += n;
		len -= (gsize)n;
		if (at >= 0)
			at += n;
	}
	return 0;
}

gssize ftl_fd_read(int fd, void *buf, gsize len)
{
	return fd_once(fd, FD_READ, buf, len, -1);
}

gssize ftl_fd_write(int fd, const void *buf, gsize len)
{
	return fd_once(fd, FD_WRITE, (char *)buf, len, -1);
}

int ftl_fd_write_all(int fd, const void *buf, gsize len, gint64 at)
{
	return fd_all(fd, FD_WRITE, (char *)buf, len, at);
}

int ftl_fd_send_all(int fd, const void *buf, gsize len)
{
	return fd_all(fd, FD_SEND, (char *)buf, len, -1);
}

int ftl_fd_read_all(int fd, void *buf, gsize len)
{
	return fd_all(fd, FD_READ, buf, len, -1);
}

int ftl_fd_pread_all(int fd, void *buf, gsize len, gint64 at)
{
	return at < 0 ? EINVAL : fd_all(fd, FD_READ, buf, len, at);
}
