/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Reads and writes on a file descriptor (see fdio.h). */
#include "config.h"

#include "util/fdio.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/socket.h>
#include <unistd.h>

#include "util/error.h"

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

char *ftl_file_read_own(const char *path, gsize max_len, gsize *len, GError **error)
{
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0) {
		int e = errno;
		g_set_error(error, G_FILE_ERROR, g_file_error_from_errno(e), "'%s': %s%s", path,
			    g_strerror(e), e == ELOOP ? " (a symlink: not used)" : "");
		return NULL;
	}
	struct stat st;
	const char *why = NULL;
	if (fstat(fd, &st) != 0)
		why = g_strerror(errno);
	else if (!S_ISREG(st.st_mode))
		why = "not a regular file: not used";
	else if (st.st_uid != geteuid())
		why = "owned by another user: not used";
	else if (st.st_mode & (S_IWGRP | S_IWOTH))
		why = "writable by other users: not used";
	else if ((guint64)st.st_size > max_len)
		why = "larger than such a file can be: not used";
	char *data = NULL;
	gsize got = 0;
	if (!why) {
		data = g_malloc((gsize)st.st_size + 1);
		while (got < (gsize)st.st_size) {
			gssize n = ftl_fd_read(fd, data + got, (gsize)st.st_size - got);
			if (n <= 0)
				break;
			got += (gsize)n;
		}
		data[got] = '\0';
		if (got != (gsize)st.st_size)
			why = "it changed while read";
	}
	close(fd);
	if (why) {
		g_free(data);
		g_set_error(error, FTL_ERROR, FTL_ERROR_IO, "'%s': %s", path, why);
		return NULL;
	}
	*len = got;
	return data;
}
