/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Counts: per-event-name and per-kind tallies and the first markers, what
 * `info` shows beside the per-CPU summary (analysis/quality.h, which owns
 * the events, spans and lost events per CPU). */
#pragma once

#include "analysis/pass.h"
#include <glib.h>

#include "model/event.h"
#include "model/trace.h"

/* The FtlEventFields counts read beyond what every event has: none (names,
 * kinds, CPUs, times, pids and markers' texts). */
#define FTL_COUNTS_FIELDS 0u

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
/* Sorted by count (descending), then name. */
GPtrArray *ftl_counts_names(const FtlCounts *c);
guint64 ftl_counts_kind(const FtlCounts *c, FtlEventKind kind);
/* Every event, of every kind (what a command that found none says). */
guint64 ftl_counts_events(const FtlCounts *c);
/* The first markers (at most FTL_COUNTS_MARKER_SAMPLES), in order. */
#define FTL_COUNTS_MARKER_SAMPLES 20
GPtrArray *ftl_counts_marker_samples(const FtlCounts *c);

/* The tracer the input names, else what its events show ("function_graph
 * (inferred)"), else "unknown". Static or borrowed from the trace. */
const char *ftl_counts_tracer(const FtlCounts *c, const FtlTrace *trace);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(FtlCounts, ftl_counts_free)
