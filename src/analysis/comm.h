/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Task names recovered for pids the line prefix shows as "<...>", from
 * sched_switch/sched_wakeup/sched_process_exec/task_rename payloads,
 * funcgraph-proc columns and task-switch separators. */
#pragma once

#include "analysis/pass.h"
#include "model/event.h"
#include "model/task.h"
#include "util/strpool.h"

typedef struct _FtlCommRecovery FtlCommRecovery;

/* Writes what it learns into tasks (borrowed) with recovered = TRUE; a name a
 * line prefix showed is never replaced. */
FtlCommRecovery *ftl_comm_new(FtlTasks *tasks, FtlStrPool *pool);
void ftl_comm_free(FtlCommRecovery *c);
void ftl_comm_feed(FtlCommRecovery *c, const FtlEvent *ev);
void ftl_comm_finish(FtlCommRecovery *c);
/* The comm analysis as a pass consumer (analysis/pass.h). */
extern const FtlConsumerClass ftl_comm_consumer;
/* How many pids got a name they lacked. */
guint ftl_comm_recovered(const FtlCommRecovery *c);
/* "comm" for pid: the name (with a trailing '*' when recovered), "<...>" when
 * unknown, "-" for pid -1. Returns a pointer into buf. */
const char *ftl_comm_label(const FtlTasks *tasks, gint32 pid, char *buf, gsize size);

G_DEFINE_AUTOPTR_CLEANUP_FUNC(FtlCommRecovery, ftl_comm_free)
