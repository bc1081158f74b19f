/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The task table: pid to comm (and tgid), as seen or recovered from the trace. */
#pragma once

#include <glib.h>

typedef struct {
	gint32 pid;
	gint32 tgid;	    /* -1 when unknown */
	const char *comm;   /* interned; NULL when only "<...>" was seen */
	gboolean recovered; /* comm learned from another event, not the line prefix */
} FtlTask;

typedef struct _FtlTasks FtlTasks;

FtlTasks *ftl_tasks_new(void);
void ftl_tasks_free(FtlTasks *t);
/* Records what a line said about pid; comm must be interned (or NULL). */
void ftl_tasks_note(FtlTasks *t, gint32 pid, gint32 tgid, const char *comm, gboolean recovered);
/* Borrowed, NULL if never seen; lives as long as t. */
const FtlTask *ftl_tasks_lookup(const FtlTasks *t, gint32 pid);
guint ftl_tasks_count(const FtlTasks *t);
/* All tasks sorted by pid; free the array (not the elements). */
GPtrArray *ftl_tasks_sorted(const FtlTasks *t);

G_DEFINE_AUTOPTR_CLEANUP_FUNC(FtlTasks, ftl_tasks_free)
