/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Whole-buffer reads and writes on a file descriptor: a signal may
 * interrupt a call and a call may move part of the buffer (a pipe, a file
 * system near full), so every caller that needs all of it loops the same
 * way, here. Both return 0 or the errno of the failure. */
#pragma once

#include <glib.h>

/* All len bytes of buf to fd: at its file offset when at < 0, else at
 * offset at (pwrite). ENOSPC when a write takes nothing. */
int ftl_fd_write_all(int fd, const void *buf, gsize len, gint64 at);
/* len bytes of fd from offset at into buf. EIO when the file ends first. */
int ftl_fd_pread_all(int fd, void *buf, gsize len, gint64 at);
