/* SPDX-License-Identifier: GPL-2.0-or-later */
/* tracefs access for the capture layer: finding (and mounting) it, reading and
 * writing its files with errors that name them, and the list of settings
 * changed on a shared buffer so that they can be put back. */
#pragma once

#include <glib.h>

#include "util/tracefs-text.h"

/* The tracefs directory. libtracefs looks in the mount table, mounts tracefs
 * at /sys/kernel/tracing when it is absent and falls back to debugfs/tracing
 * as older kernels need; this checks that the result is a tracing directory.
 * Borrowed: lives for the process. */
const char *ftl_tracefs_dir(GError **error);

/* A tracefs (or /proc) file whole, NUL-terminated; free with g_free(). Errors
 * name the path. */
char *ftl_tracefs_read(const char *path, GError **error);
/* Writes value with one write(2), truncating (append FALSE) or appending.
 * Returns 0 or the errno of the failure, for callers that explain EPERM and
 * EINVAL themselves. */
int ftl_tracefs_write_errno(const char *path, const char *value, gboolean append);
/* The same with an error naming the path and the value. */
gboolean ftl_tracefs_write(const char *path, const char *value, gboolean append, GError **error);
/* Copies src (a tracefs or /proc file: its size is unknown until read) to the
 * new regular file dst. */
gboolean ftl_tracefs_copy(const char *src, const char *dst, GError **error);

/* How a saved file is written back. */
typedef enum {
	FTL_SAVE_VALUE,	 /* write the saved text back (tracing_on, options/X, current_tracer) */
	FTL_SAVE_LINES,	 /* truncate, then append each line that is not a '#' comment
			  * (set_event, set_ftrace_filter, set_graph_function, pid lists) */
	FTL_SAVE_CLOCK,	 /* write the bracketed choice back (trace_clock) */
	FTL_SAVE_SIZE,	 /* buffer_size_kb: the size in force, "N (expanded: M)" gives M */
	FTL_SAVE_FILTER, /* an event filter: "none" is cleared with "0" */
} FtlSaveKind;

/* Settings changed on a buffer ftlens does not own (the top-level one, the
 * stack tracer), in the order they were first changed. */
typedef struct _FtlTracefsSave FtlTracefsSave;
FtlTracefsSave *ftl_tracefs_save_new(void);
void ftl_tracefs_save_free(FtlTracefsSave *s);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(FtlTracefsSave, ftl_tracefs_save_free)
/* Remembers path's content, once: later calls for the same path do nothing. */
gboolean ftl_tracefs_save_file(FtlTracefsSave *s, const char *path, FtlSaveKind kind,
			       GError **error);
/* Remembers that restoring means writing undo to path (appending): removing a
 * trigger ftlens added, for instance. */
void ftl_tracefs_save_undo(FtlTracefsSave *s, const char *path, const char *undo);
/* Puts everything back, newest change first, and forgets it. Every entry is
 * tried; the error names the first that failed. */
gboolean ftl_tracefs_save_restore(FtlTracefsSave *s, GError **error);

