/* SPDX-License-Identifier: GPL-2.0-or-later */
/* FtlIter: all sources of a trace merged by (ts, cpu, seq), with the global
 * --cpu/--pid/--time and -e/--filter filters applied. */
#pragma once

#include <glib.h>

#include "model/event-filter.h"
#include "model/trace.h"

/* What an iterator saw of a trace while it applied a selection: the
 * figures that say which term of a selection matched nothing, and how many
 * events it kept (--verbose, the cross-command test). Reset by each new
 * iterator over the filter that owns it. */
typedef struct {
	guint64 events;		/* events merged, selected or not */
	guint64 in_window;	/* of those, timed ones inside the --time window */
	gint64 ts_min, ts_max;	/* their timestamps (FTL_TS_NONE: none) */
	guint64 selected;	/* events the selection kept */
	gint64 first, last;	/* the first and last timestamps of those */
	guint64 cpus[64];	/* bit per CPU (0-4095) that has events */
	guint64 cpus_beyond;	/* events on a CPU past 4095 */
	guint8 *pids;		/* per entry of FtlFilter.pids: that pid has events */
	GHashTable *names;	/* event name seen (interned) -> its system */
	gboolean full;		/* all of the above; else only selected, first, last */
} FtlSelectionSeen;

/* full: record what the trace holds (CPUs, pids, names, span) besides what
 * was selected; it costs a little per event. */
FtlSelectionSeen *ftl_selection_seen_new(gboolean full);
void ftl_selection_seen_free(FtlSelectionSeen *s);

typedef struct {
	GArray *cpus;	/* gint32 list; NULL = all */
	GArray *pids;	/* gint32 list; NULL = all */
	gint64 t_start; /* ns, inclusive; FTL_TS_NONE = open */
	gint64 t_end;	/* ns, inclusive; FTL_TS_NONE = open */
	FtlEventFilter *events; /* -e / --filter / -v; NULL = all; owned */
	FtlSelectionSeen *seen;	/* NULL, or filled by the iterators; owned */
} FtlFilter;

void ftl_filter_init(FtlFilter *f);
void ftl_filter_clear(FtlFilter *f);
/* Events without a timestamp pass a time filter here (an iterator places
 * them by the timed events around them); events without a CPU or pid fail a
 * CPU or pid filter. */
gboolean ftl_filter_match(const FtlFilter *f, const FtlEvent *ev);
/* After a pass: what of f matched nothing in the trace labelled label,
 * one line per term ("--cpu 9: the trace has events on CPUs 0-1 only");
 * NULL when every term matched something (or f has no seen record). Free
 * with g_free(). */
char *ftl_filter_unmatched(const FtlFilter *f, const char *label);
/* Parses "0,2-3" into a gint32 list. */
gboolean ftl_filter_parse_list(const char *text, GArray **out, GError **error);
/* Parses "START,END" in seconds (either side may be empty). */
gboolean ftl_filter_parse_time(const char *text, gint64 *start, gint64 *end, GError **error);

/* Whether ev passes f, an event without a timestamp judged by the last
 * timed event before it in the merged stream (last_ts, FTL_TS_NONE: none). */
gboolean ftl_filter_match_placed(const FtlFilter *f, gint64 last_ts, const FtlEvent *ev);

/* One selection applied to the merged stream, event by event, as every
 * command applies it: the iterator's own, and the TUI's over the
 * unfiltered stream it must count in. Every merged event goes through
 * ftl_selector_pass() once, in order. */
typedef struct {
	const FtlFilter *filter; /* NULL: every event passes */
	const FtlFilter *count;	 /* the filter whose seen record counts, or NULL */
	gint64 last_ts;		 /* of the last timed event passed in, selected or not */
} FtlSelector;

/* count: reset f's seen record (if it has one) and fill it. At most one
 * counting selector per filter at a time. */
void ftl_selector_init(FtlSelector *s, const FtlFilter *f, gboolean count);
gboolean ftl_selector_pass(FtlSelector *s, const FtlEvent *ev);

typedef struct _FtlIter FtlIter;

/* The iterator borrows trace and filter (may be NULL); both must outlive it.
 * A trace can be iterated once. */
FtlIter *ftl_iter_new(FtlTrace *trace, const FtlFilter *filter);
void ftl_iter_free(FtlIter *it);
/* *ev is borrowed until the next call. Returns FTL_STATUS_EOF at the end. */
FtlStatus ftl_iter_next(FtlIter *it, const FtlEvent **ev, GError **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC(FtlIter, ftl_iter_free)
