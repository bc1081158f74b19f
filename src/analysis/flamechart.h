/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Flame charts: every call at its own place in time (never merged), one
 * lane per task or CPU, built in bounded memory. Calls narrower than the
 * minimum width that the chart's span so far implies are summed into runs
 * as they come, so memory follows what can be drawn, not the trace. */
#pragma once

#include <glib.h>

#include "analysis/calltree.h"
#include "analysis/flame.h"
#include "analysis/markers.h"
#include "analysis/pass.h"

typedef struct {
	FtlCallTreeGroup lanes; /* TASK (NONE means TASK too) or CPU */
	const char *function;	/* interned: only this function's calls and below */
	FtlSpans *spans;	/* borrowed, may be NULL: only events inside spans */
	FtlDiags *diags;	/* borrowed, may be NULL */
	double min_fraction;	/* the narrowest call drawn, as a share of the span */
	guint max_marks;	/* markers kept for drawing (0: 2000) */
} FtlFlameChartOptions;

/* A marker or lost events, for drawing. */
typedef struct {
	gint64 ts;
	char *text; /* owned */
	gboolean lost;
} FtlFlameChartMark;

typedef struct _FtlFlameChart FtlFlameChart;

FtlFlameChart *ftl_flamechart_new(const FtlFlameChartOptions *opt);
void ftl_flamechart_free(FtlFlameChart *c);
void ftl_flamechart_feed(FtlFlameChart *c, const FtlEvent *ev);
void ftl_flamechart_finish(FtlFlameChart *c);
extern const FtlConsumerClass ftl_flamechart_consumer;

/* After finish: the chart (ftl_flame_is_chart), borrowed; lanes are the
 * root's children in the order they first ran. Calls without timestamps
 * are laid end to end (ftl_flamechart_timed() FALSE). */
FtlFlame *ftl_flamechart_tree(FtlFlameChart *c);
gboolean ftl_flamechart_timed(const FtlFlameChart *c);
guint ftl_flamechart_n_marks(const FtlFlameChart *c);
const FtlFlameChartMark *ftl_flamechart_mark(const FtlFlameChart *c, guint i);
/* Markers and lost-event lines beyond those kept. */
guint64 ftl_flamechart_marks_dropped(const FtlFlameChart *c);
guint64 ftl_flamechart_lost(const FtlFlameChart *c, guint64 *lines);
guint64 ftl_flamechart_n_calls(const FtlFlameChart *c);

G_DEFINE_AUTOPTR_CLEANUP_FUNC(FtlFlameChart, ftl_flamechart_free)
