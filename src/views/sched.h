/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `ftlens sched`'s tables: CPUs, tasks, wakeup latency, the worst wakeups
 * and interrupts, for the whole trace and each marker span; as text, CSV or
 * JSON. */
#pragma once

#include <json-glib/json-glib.h>
#include <stdio.h>

#include "analysis/counters.h"
#include "analysis/sched.h"
#include "views/table.h"

typedef enum {
	FTL_SCHED_SORT_RUN,
	FTL_SCHED_SORT_WAIT,
	FTL_SCHED_SORT_SWITCHES,
	FTL_SCHED_SORT_LATENCY, /* the largest wakeup latency */
	FTL_SCHED_SORT_PID,
	FTL_SCHED_SORT_COMM,
} FtlSchedSort;

typedef struct {
	FtlFormat format;
	FtlSchedSort sort;
	guint top;	   /* task rows per window in text; 0: all */
	gint64 origin;	   /* times print as ts - origin; FTL_TS_NONE: as they are */
	const char *input; /* the input's name, for the text heading */
	const FtlTextStyle *style; /* text: width and colours; NULL: plain */
	const FtlCounters *counters; /* time per frequency, idle state...; may be NULL */
} FtlSchedViewOptions;

/* "run", "wait", "switches", "latency", "pid" or "comm". */
gboolean ftl_sched_parse_sort(const char *text, FtlSchedSort *out);
/* The tasks of a window in the order sort gives them (the task table's,
 * and the TUI's sched panel's). Borrowed from sc; g_ptr_array_unref(). */
GPtrArray *ftl_sched_tasks_sorted(const FtlSchedScope *sc, FtlSchedSort sort);
/* Time per value of every counter track (the whole trace): the "counters"
 * table of `ftlens sched`. */
FtlTable *ftl_sched_counter_table(const FtlCounters *c, gint64 origin);
/* Every window of a finished analysis. */
void ftl_sched_print(const FtlSched *s, const FtlSchedViewOptions *opt, FILE *out);

/* The summary of the whole trace, as `report --sched` adds it: the text
 * sections, or the CPU and task tables (named name, for the JSON member)
 * for the report's CSV and JSON. */
void ftl_sched_print_summary_text(const FtlSched *s, guint top, FILE *out,
				  const FtlTextStyle *style);
FtlTable *ftl_sched_cpu_table(const FtlSched *s, const char *name, gint64 origin);
FtlTable *ftl_sched_task_table(const FtlSched *s, const char *name, FtlSchedSort sort);

/* Every wakeup as it is served (`sched --wakeups`), with the columns of the
 * worst wakeups; filled during the pass by the listener
 * (ftl_sched_add_on_wakeup(s, ftl_sched_wakeup_list_add, list)). */
typedef struct _FtlSchedWakeupList FtlSchedWakeupList;
FtlSchedWakeupList *ftl_sched_wakeup_list_new(gint64 origin);
void ftl_sched_wakeup_list_free(FtlSchedWakeupList *l);
void ftl_sched_wakeup_list_add(const FtlSchedWakeup *w, gpointer list);
void ftl_sched_wakeup_list_print(const FtlSchedWakeupList *l, FtlFormat format, FILE *out,
				 const FtlTextStyle *style);

G_DEFINE_AUTOPTR_CLEANUP_FUNC(FtlSchedWakeupList, ftl_sched_wakeup_list_free)
