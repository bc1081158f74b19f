/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Console captures: serial consoles, dmesg and syslog files read into an
 * FtlConsole, and the ftrace dumps in them recovered as text traces. */
#pragma once

#include "model/console.h"
#include "model/trace.h"

/* Reads path (plain, gzip or zstd; "-" is standard input). A file that is
 * empty or binary is an error naming it; anything else is a console log,
 * damaged lines become diagnostics. Free with ftl_console_free(). */
FtlConsole *ftl_console_read(const char *path, const FtlReadOptions *ro, GError **error);
/* The same over bytes in memory; label names the input in messages. */
FtlConsole *ftl_console_parse(const char *label, const char *data, gsize size);

/* Whether bytes look like a kernel console capture (printk times at line
 * starts, or an ftrace dump): lets other commands point to `ftlens oops`. */
gboolean ftl_console_sniff(const char *data, gsize size);

/* The recovered trace text of dump i: a '#' comment line naming where it came
 * from, then one line per content line. Free with g_free(). */
char *ftl_console_dump_text(const FtlConsole *c, guint i, gsize *len);
/* Opens dump i as a trace (the text parser reads it). Free with
 * ftl_trace_free(); it does not borrow from c. */
FtlTrace *ftl_console_dump_open(const FtlConsole *c, guint i, FtlOpenFlags flags,
				const FtlReadOptions *ro, GError **error);
