/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Counts: per-CPU and per-event-name tallies and time spans, what `info` shows. */
#pragma once

#include "analysis/pass.h"
#include <glib.h>

#include "model/event.h"
#include "model/trace.h"

typedef struct {
	gint32 cpu;	     /* -1 for events without a CPU */
	guint64 event_lines; /* input lines that produced an event */
	guint64 events;	     /* events, synthesized leaf exits included */
	gint64 first_ts;     /* FTL_TS_NONE when no event had a timestamp */
	gint64 last_ts;
	guint64 lost_lines;
	guint64 lost_events;
	guint64 buffer_started;
} FtlCpuCounts;

typedef struct {
	const char *name; /* interned */
	guint64 count;	  /* event lines */
} FtlNameCount;

typedef struct {
	gint64 ts;
	gint32 cpu;
	gint32 pid;
	guint64 line;
	char *text; /* owned copy */
} FtlMarkerSample;

typedef struct _FtlCounts FtlCounts;

FtlCounts *ftl_counts_new(void);
void ftl_counts_free(FtlCounts *c);
void ftl_counts_feed(FtlCounts *c, const FtlEvent *ev);
void ftl_counts_finish(FtlCounts *c);
/* The counts analysis as a pass consumer (analysis/pass.h). */
extern const FtlConsumerClass ftl_counts_consumer;

/* Results, valid after finish and as long as c. */
guint ftl_counts_n_cpus(const FtlCounts *c);
/* Sorted by cpu, the unknown CPU (-1) first when present. */
const FtlCpuCounts *ftl_counts_cpu(const FtlCounts *c, guint i);
/* Sorted by count (descending), then name. */
GPtrArray *ftl_counts_names(const FtlCounts *c);
guint64 ftl_counts_kind(const FtlCounts *c, FtlEventKind kind);
guint64 ftl_counts_event_lines(const FtlCounts *c);
guint64 ftl_counts_events(const FtlCounts *c);
guint64 ftl_counts_lost_events(const FtlCounts *c);
guint64 ftl_counts_lost_lines(const FtlCounts *c);
gint64 ftl_counts_first_ts(const FtlCounts *c);
gint64 ftl_counts_last_ts(const FtlCounts *c);
/* The first markers (at most FTL_COUNTS_MARKER_SAMPLES), in order. */
#define FTL_COUNTS_MARKER_SAMPLES 20
GPtrArray *ftl_counts_marker_samples(const FtlCounts *c);

/* The tracer the input names, else what its events show ("function_graph
 * (inferred)"), else "unknown". Static or borrowed from the trace. */
const char *ftl_counts_tracer(const FtlCounts *c, const FtlTrace *trace);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(FtlCounts, ftl_counts_free)
