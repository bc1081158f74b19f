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

/* The tasks noted last, direct-mapped by pid: the lines of two CPUs
 * interleave two tasks or more, and the hash lookup was most of noting. */
#define FTL_TASKS_RECENT 256

/* Private: in the header for ftl_tasks_note()'s inline fast path. */
struct _FtlTasks {
	struct {
		gint32 pid; /* -1: empty */
		FtlTask *task;
	} recent[FTL_TASKS_RECENT];
	GHashTable *by_pid; /* GINT_TO_POINTER(pid) -> FtlTask* */
};

FtlTasks *ftl_tasks_new(void);
void ftl_tasks_free(FtlTasks *t);
/* The task of pid (>= 0), made when new, and remembered among the recent;
 * ftl_tasks_note()'s slow path. */
FtlTask *ftl_tasks_find(FtlTasks *t, gint32 pid);

/* Records what a line said about pid; comm must be interned (or NULL).
 * Inline: every event of a trace notes its task. */
static inline void ftl_tasks_note(FtlTasks *t, gint32 pid, gint32 tgid, const char *comm,
				  gboolean recovered)
{
	if (pid < 0)
		return;
	guint slot = (guint)pid % FTL_TASKS_RECENT;
	FtlTask *task = G_LIKELY(t->recent[slot].pid == pid) ? t->recent[slot].task
							     : ftl_tasks_find(t, pid);
	if (tgid >= 0)
		task->tgid = tgid;
	if (comm && (!recovered || !task->comm || task->recovered)) {
		task->comm = comm;
		task->recovered = recovered;
	}
}
/* Borrowed, NULL if never seen; lives as long as t. */
const FtlTask *ftl_tasks_lookup(const FtlTasks *t, gint32 pid);
guint ftl_tasks_count(const FtlTasks *t);
/* All tasks sorted by pid; free the array (not the elements). */
GPtrArray *ftl_tasks_sorted(const FtlTasks *t);

G_DEFINE_AUTOPTR_CLEANUP_FUNC(FtlTasks, ftl_tasks_free)
