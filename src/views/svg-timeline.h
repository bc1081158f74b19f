/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `ftlens timeline`'s picture: one lane per CPU over time (the running task
 * coloured by task, interrupts hatched, lost and unknown time shaded,
 * markers as vertical lines), optional lanes per task (running filled,
 * runnable hollow), as an interactive SVG of bounded size. */
#pragma once

#include <glib.h>
#include <stdio.h>

#include "analysis/counters.h"
#include "analysis/markers.h"
#include "analysis/sched.h"

typedef struct {
	guint width;	   /* plot width in px (default 1200) */
	GArray *pids;	   /* gint32 task lanes asked for by pid; may be NULL */
	guint top;	   /* or the N tasks that ran longest (0: none) */
	const char *input; /* the input's name, for the title */
	guint64 max_bytes; /* size bound (default 5,000,000) */
} FtlTimelineOptions;

typedef struct _FtlTimeline FtlTimeline;

FtlTimeline *ftl_timeline_new(const FtlTimelineOptions *opt);
void ftl_timeline_free(FtlTimeline *tl);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(FtlTimeline, ftl_timeline_free)

/* An FtlSchedIntervalFunc: register with ftl_sched_add_on_interval(). */
void ftl_timeline_add(const FtlSchedInterval *iv, gpointer tl);

/* An FtlSchedWakeupFunc: register with ftl_sched_add_on_wakeup(). The
 * picture then holds, hidden, an arrow from each wakeup (the waker's CPU,
 * the waking event) to the wakee's switch-in, the pairing sched.c makes;
 * a click on a running interval shows the arrow that ends at its start.
 * The TL_WAKEUPS longest latencies are kept. */
void ftl_timeline_add_wakeup(const FtlSchedWakeup *w, gpointer tl);

/* An FtlCounterStepFunc: register with ftl_counters_add_on_step(); then
 * ftl_timeline_set_counters() with the finished analysis before writing:
 * one lane per counter track under the CPU and task lanes, the value as
 * the bar's height. */
void ftl_timeline_add_counter(const FtlCounterStep *st, gpointer tl);
void ftl_timeline_set_counters(FtlTimeline *tl, const FtlCounters *c);

/* Writes the SVG for the finished analysis s (and markers m, may be NULL)
 * to out. FALSE with error when the data file of the script is missing or
 * a write failed. */
gboolean ftl_timeline_write(FtlTimeline *tl, const FtlSched *s, const FtlMarkers *m, FILE *out,
			    GError **error);
