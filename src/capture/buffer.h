/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The ring buffer a capture records: a private tracefs instance ftlens
 * creates and removes, or the top-level buffer, whose every changed setting
 * is saved first and put back at the end. */
#pragma once

#include <glib.h>

#include "capture/tracefs.h"

/* -e PATTERN [-f FILTER]: "sched", "sched:sched_switch", "sched/sched_*",
 * "sched_switch" (an event of any system) or "all". */
typedef struct {
	char *pattern;
	char *filter; /* NULL: none */
} FtlEventSpec;

void ftl_event_spec_free(FtlEventSpec *e);

typedef struct {
	const char *tracer;    /* NULL: none (nop) */
	GPtrArray *events;     /* FtlEventSpec *; may be NULL */
	guint buffer_kb;       /* per CPU; 0: leave as it is */
	const char *clock;     /* NULL: leave */
	char **ftrace_filter;  /* set_ftrace_filter (-l); NULL-terminated or NULL */
	char **ftrace_notrace; /* set_ftrace_notrace (-n) */
	char **graph_funcs;    /* set_graph_function (-g) */
	gint max_graph_depth;  /* -1: leave */
	char **options;	       /* -O NAME, -O noNAME, -O no-NAME */
	gint overwrite;	       /* options/overwrite: -1 leave, 0 or 1 */
} FtlBufferConfig;

typedef struct _FtlBuffer FtlBuffer;

/* Creates a private instance: name NULL makes "ftlens-PID" (with a suffix
 * if another ftlens, in another pid namespace, holds that name); a name the
 * user gave must not exist yet. */
FtlBuffer *ftl_buffer_new_instance(const char *tracefs, const char *name, GError **error);
/* Removes the instances ftlens named after its pid (ftlens-PID,
 * ftlens-PID-N) whose process is gone: a record killed by SIGKILL leaves
 * its instance tracing. Other names, and live owners, are never touched.
 * Appends a line per instance removed, or not removable, to notes; FALSE
 * only when tracefs' instances cannot be listed. */
gboolean ftl_buffer_cleanup_stale(const char *tracefs, GString *notes, GError **error);
/* The top-level buffer (the one a kernel tracing_off() stops and an oops
 * dump prints). */
FtlBuffer *ftl_buffer_new_top(const char *tracefs);
/* Releases (ignoring errors) if that was not done, then frees. */
void ftl_buffer_free(FtlBuffer *b);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(FtlBuffer, ftl_buffer_free)

/* Borrowed, live as long as b. */
const char *ftl_buffer_dir(const FtlBuffer *b);
const char *ftl_buffer_tracefs(const FtlBuffer *b);
/* The instance name; NULL for the top-level buffer. */
const char *ftl_buffer_name(const FtlBuffer *b);
/* "sys/event" of every event the configuration enabled, NULL-terminated. */
const char *const *ftl_buffer_events(const FtlBuffer *b);

/* Whether this buffer can do what cfg asks; if not, *why says what it
 * lacks (an instance on an older kernel has no function_graph, no
 * set_graph_function...). Free *why with g_free(). */
gboolean ftl_buffer_supports(const FtlBuffer *b, const FtlBufferConfig *cfg, char **why);
/* Applies cfg: tracing off, size, clock, function filters, tracer, options,
 * events with their filters. A tracer or filter the kernel refuses with
 * EPERM gives one message naming it and saying that events still work. */
gboolean ftl_buffer_configure(FtlBuffer *b, const FtlBufferConfig *cfg, GError **error);
/* Writes value to the buffer's file rel (saved first on the top level). */
gboolean ftl_buffer_set(FtlBuffer *b, const char *rel, const char *value, FtlSaveKind kind,
			GError **error);
/* Appends to rel (saved first on the top level, as kind). */
gboolean ftl_buffer_append(FtlBuffer *b, const char *rel, const char *value, FtlSaveKind kind,
			   GError **error);
/* Remembers that release must append undo to rel (removing a trigger). */
void ftl_buffer_add_undo(FtlBuffer *b, const char *rel, const char *undo);
gboolean ftl_buffer_tracing_on(FtlBuffer *b, gboolean on, GError **error);
/* Reads tracing_on: 1, 0, or -1 on error. */
int ftl_buffer_is_on(const FtlBuffer *b);
/* Empties the ring buffer (its content, not a setting). */
gboolean ftl_buffer_clear(FtlBuffer *b, GError **error);
/* Restores every setting changed on the top level, or turns the instance off
 * and removes it. Safe to call twice. */
gboolean ftl_buffer_release(FtlBuffer *b, GError **error);
/* The end of a capture that ran with result ok: the buffer's notes go to
 * notes, then it is released. A release failure is the error when ok, a
 * note otherwise (the first error stays the one reported). Returns ok and
 * whether the release worked. */
gboolean ftl_buffer_finish(FtlBuffer *b, gboolean ok, GString *notes, GError **error);
