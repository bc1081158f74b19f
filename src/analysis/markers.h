/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Markers: trace_marker writes, trace_printk messages and function_graph
 * comments, in time order, and spans between start/end patterns. */
#pragma once

#include "analysis/histo.h"
#include "analysis/pass.h"
#include <glib.h>

#include "model/event.h"

typedef struct {
	gint64 ts;    /* FTL_TS_NONE when the input has no time */
	gint64 delta; /* ns since the previous marker, FTL_TS_NONE for the first */
	gint32 cpu;
	gint32 pid;
	const char *comm; /* interned, may be NULL */
	guint64 line;
	FtlMarkerOrigin origin;
	char *text;   /* owned copy */
	char *caller; /* owned copy: tracing_mark_write, a function, an address; NULL if none */
} FtlMarker;

typedef struct _FtlMarkers FtlMarkers;

FtlMarkers *ftl_markers_new(void);
void ftl_markers_free(FtlMarkers *m);
void ftl_markers_feed(FtlMarkers *m, const FtlEvent *ev);
void ftl_markers_finish(FtlMarkers *m);
/* The markers analysis as a pass consumer (analysis/pass.h). */
extern const FtlConsumerClass ftl_markers_consumer;
/* After finish; borrowed, valid as long as m. */
guint ftl_markers_count(const FtlMarkers *m);
const FtlMarker *ftl_markers_get(const FtlMarkers *m, guint i);

G_DEFINE_AUTOPTR_CLEANUP_FUNC(FtlMarkers, ftl_markers_free)

/* "ftlens-wallclock: 1764753619.123456789": the marker ftlens writes so that a
 * trace can be mapped to wall time (Unix seconds, a dot, exactly 9 digits of
 * ns, UTC; leading and trailing blanks allowed). */
#define FTL_WALLCLOCK_PREFIX "ftlens-wallclock: "

/* Reads the wall time a marker's text carries, in ns since the Unix epoch:
 * ftlens's own "ftlens-wallclock: S.NNNNNNNNN", or atrace's
 * "trace_event_clock_sync: realtime_ts=MS" (milliseconds). FALSE if it carries
 * none. */
gboolean ftl_markers_parse_wallclock(const char *text, gint64 *wall_ns);
/* After finish: the first marker that carries a wall time and has a
 * timestamp. Sets *offset_ns (wall ns = ts + offset) and *index. */
gboolean ftl_markers_wall_anchor(const FtlMarkers *m, guint *index, gint64 *offset_ns);

/* ---- spans ---------------------------------------------------------------- */

/* Self time of one function inside a span on one CPU, attributed to the span
 * in which the function returned. */
typedef struct {
	const char *func; /* borrowed from the trace's pool (or "?" when unnamed) */
	guint64 calls;	  /* exits with a known duration */
	gint64 self_ns;
	gint64 total_ns;
} FtlSpanFunc;

typedef struct {
	gint32 cpu;	    /* -1 for events without a CPU */
	guint64 events;	    /* events strictly between the two markers */
	guint64 switches;   /* sched_switch events and function_graph task switches */
	guint64 exits;	    /* function exits, with or without a duration */
	FtlSpanFunc *funcs; /* sorted by self time, then name */
	guint n_funcs;
} FtlSpanCpu;

typedef struct {
	FtlMarker start;  /* text owned by the span */
	FtlMarker end;	  /* delta is FTL_TS_NONE in both */
	char *key;	  /* the start pattern's groups, joined by " "; NULL without groups */
	gint64 duration;  /* end.ts - start.ts; FTL_TS_NONE if either has no time */
	guint64 events;	  /* all CPUs */
	FtlSpanCpu *cpus; /* sorted by CPU */
	guint n_cpus;
} FtlSpan;

typedef struct _FtlSpans FtlSpans;

/* end_pattern may refer to the start's groups as \1..\9: the text the group
 * captured, regex-escaped, replaces the reference before the end is matched.
 * A bad pattern or a reference to a group the start does not have is a usage
 * error. Free with ftl_spans_free(). */
FtlSpans *ftl_spans_new(const char *start_pattern, const char *end_pattern, GError **error);
void ftl_spans_free(FtlSpans *s);
/* Feed every event (not only markers): what each CPU did inside open spans
 * is counted as it goes. A marker first tries to close the most recent open
 * start whose end pattern it matches; only if it closes none can it open one. */
void ftl_spans_feed(FtlSpans *s, const FtlEvent *ev);
void ftl_spans_finish(FtlSpans *s);
/* The spans analysis as a pass consumer (analysis/pass.h). */
extern const FtlConsumerClass ftl_spans_consumer;
/* After finish, in the order of their start; borrowed, valid as long as s.
 * comm and func pointers are borrowed from the trace and live as long as it. */
guint ftl_spans_count(const FtlSpans *s);
const FtlSpan *ftl_spans_get(const FtlSpans *s, guint i);
/* Starts still open at the end of the trace. */
guint ftl_spans_unmatched_starts(const FtlSpans *s);
/* Markers that match the end pattern (with any text in place of \N) but close
 * no open start. */
guint ftl_spans_unmatched_ends(const FtlSpans *s);
/* While feeding: the spans open now (the start marker fed, its end not yet).
 * Lets another consumer look only at what happens inside spans. */
guint ftl_spans_n_open(const FtlSpans *s);
/* Statistics of span durations (spans without a time are not counted): for
 * all spans, and for each key (the start pattern's groups, "B\|\d+\|(.*)"
 * gives one per name). Percentiles are FtlHisto's (analysis/histo.h), the
 * ones sched and the JSON's span_histogram give. */
typedef struct {
	const char *key; /* NULL for all spans; borrowed from the spans */
	guint64 count;
	gint64 min, avg, p50, p95, p99, max; /* FTL_TS_NONE when count is 0 */
	guint slowest;			      /* the index of the longest span */
	FtlHisto *histo; /* the durations counted; owned by the spans */
} FtlSpanStats;

/* After finish: row 0 is all spans, then one per key by count (most first),
 * then key; no key rows when the start pattern has no groups. Borrowed. */
guint ftl_spans_n_stats(const FtlSpans *s);
const FtlSpanStats *ftl_spans_stats(const FtlSpans *s, guint i);
/* After finish: the index (for ftl_spans_get) of the rank-th longest timed
 * span, rank from 0; ties in start order. rank < ftl_spans_stats(s, 0)->count. */
guint ftl_spans_by_duration(const FtlSpans *s, guint rank);

/* Substitutes \1..\9 in pattern by the regex-escaped groups of info; other
 * escapes are kept as they are. Exposed for tests. Free with g_free(). */
char *ftl_spans_substitute(const char *pattern, const GMatchInfo *info);

G_DEFINE_AUTOPTR_CLEANUP_FUNC(FtlSpans, ftl_spans_free)
