/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The call stream the timeline exports (speedscope, Chrome JSON) write:
 * per task, calls opened and closed in order on a clock that never runs
 * backwards, in ns from the trace's first timestamp. Inputs without
 * timestamps get a clock of their own: calls laid end to end. */
#pragma once

#include <glib.h>

#include "analysis/calltree.h"
#include "analysis/pass.h"
#include "model/event.h"

typedef struct {
	gint32 pid;	  /* > 0 for a task; else the context is a CPU's idle/unknown task */
	gint32 cpu;	  /* the CPU of such a context, or the last CPU the task ran on */
	gint32 tgid;	  /* -1 when the trace never said */
	const char *comm; /* borrowed from the trace, NULL when never named */
	gint64 first, last; /* clock of its first and last event */
} FtlExportTask;

typedef struct {
	/* a call entered (at = its start) */
	void (*open)(gpointer self, guint task, gint64 at, const FtlCall *call);
	/* the call entered last on task ends at end (>= start) */
	void (*close)(gpointer self, guint task, gint64 start, gint64 end, const FtlCall *call);
	/* a call the trace began inside was entered inferred (open with
	 * FTL_CALL_F_ORPHAN and no name yet): its exit closes it with its name
	 * (start may then lie before the open's at); here it ends without one,
	 * so it was none: the calls shown in it belong to its caller */
	void (*dissolve)(gpointer self, guint task, const FtlCall *call);
	/* a marker written by task (at on its clock) */
	void (*marker)(gpointer self, guint task, gint64 at, const FtlEvent *ev);
	/* any other event; at is FTL_TS_NONE when it has no time */
	void (*event)(gpointer self, gint64 at, const FtlEvent *ev);
} FtlExportSink;

typedef struct _FtlCallExport FtlCallExport;

/* sink and self are borrowed. diags may be NULL. */
FtlCallExport *ftl_call_export_new(const FtlExportSink *sink, gpointer self, FtlDiags *diags);
void ftl_call_export_free(FtlCallExport *x);
void ftl_call_export_feed(FtlCallExport *x, const FtlEvent *ev);
void ftl_call_export_finish(FtlCallExport *x);
extern const FtlConsumerClass ftl_call_export_consumer;

guint ftl_call_export_n_tasks(const FtlCallExport *x);
const FtlExportTask *ftl_call_export_task(const FtlCallExport *x, guint i);
/* The trace clock value of time 0 (FTL_TS_NONE: no timestamps). */
gint64 ftl_call_export_origin(const FtlCallExport *x);
/* Calls closed at the end without an exit, and exits without entry. */
guint64 ftl_call_export_n_open(const FtlCallExport *x);
guint64 ftl_call_export_n_orphan(const FtlCallExport *x);

G_DEFINE_AUTOPTR_CLEANUP_FUNC(FtlCallExport, ftl_call_export_free)
