/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Reads and writes on a file descriptor: a signal may interrupt a call and
 * a call may move part of the buffer (a pipe, a file system near full), so
 * every caller retries and loops the same way, here. The _all forms return
 * 0 or the errno of the failure. */
#pragma once

#include <glib.h>

/* One read() of up to len bytes, again when a signal interrupts it: the
 * count (0 at the end of the file), or -1 with errno set. */
gssize ftl_fd_read(int fd, void *buf, gsize len);
/* One write() of up to len bytes, again when a signal interrupts it: the
 * count, or -1 with errno set. For files where each write() is a whole
 * command (tracefs), a short count is the caller's to judge. */
gssize ftl_fd_write(int fd, const void *buf, gsize len);

/* All len bytes of buf to fd: at its file offset when at < 0, else at
 * offset at (pwrite). ENOSPC when a write takes nothing. */
int ftl_fd_write_all(int fd, const void *buf, gsize len, gint64 at);
/* All len bytes of buf to the socket fd, with no SIGPIPE when the peer is
 * gone (send()'s MSG_NOSIGNAL: EPIPE instead). */
int ftl_fd_send_all(int fd, const void *buf, gsize len);
/* len bytes of fd from its file offset into buf. EIO when the file ends
 * first. */
int ftl_fd_read_all(int fd, void *buf, gsize len);
/* len bytes of fd from offset at into buf. EIO when the file ends first. */
int ftl_fd_pread_all(int fd, void *buf, gsize len, gint64 at);

/* Reads a file only this user made (a cache, a saved view), at most
 * max_len bytes, trusting only what this user made: opened without following a symlink and without blocking (a FIFO
 * planted there would hang the run), then refused unless it is a regular
 * file owned by the effective user, writable by no one else, and no
 * larger than max_len. The bytes (free with g_free()) and their count, or
 * NULL with error (G_FILE_ERROR_NOENT's message when absent). */
char *ftl_file_read_own(const char *path, gsize max_len, gsize *len, GError **error);
