/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Event rate over time: events counted in adaptive time bins (timebins.h),
 * one lane per CPU or per event name, in one pass and memory bounded by
 * lanes x bins whatever the trace's length. */
#pragma once

#include "analysis/pass.h"
#include <glib.h>

#include "model/event.h"

typedef enum {
	FTL_RATE_BY_CPU,   /* a lane per CPU (events without a CPU: lane "CPU ?") */
	FTL_RATE_BY_EVENT, /* a lane per event name */
} FtlRateBy;

typedef struct _FtlRate FtlRate;

/* At most n_bins bins over the trace, of the smallest round width (1, 2
 * or 5 times a power of ten ns) that holds it in them: between 2/5 of
 * them and all of them. */
FtlRate *ftl_rate_new(FtlRateBy by, guint n_bins);
void ftl_rate_free(FtlRate *r);
/* Counts an event that has a time: what the input holds, not the exits a
 * parser makes up for leaf calls, nor lost-event and buffer notes. */
void ftl_rate_feed(FtlRate *r, const FtlEvent *ev);
/* Sorts the lanes: CPUs by number, event names by count (descending);
 * merges the bins into their final round width. */
void ftl_rate_finish(FtlRate *r);
/* The rate analysis as a pass consumer (analysis/pass.h). */
extern const FtlConsumerClass ftl_rate_consumer;

/* After finish. Time of bin 0's start (FTL_TS_NONE: no timed event), ns per
 * bin and bins used. */
gint64 ftl_rate_origin(const FtlRate *r);
gint64 ftl_rate_width(const FtlRate *r);
guint ftl_rate_n_bins(const FtlRate *r);
/* The last timed event's time (FTL_TS_NONE: none). */
gint64 ftl_rate_last_ts(const FtlRate *r);
guint ftl_rate_n_lanes(const FtlRate *r);
/* Lane i in finish's order: "CPU 3" or an event name (from the trace:
 * hostile text, escape it to show it); its total and bin counts. */
const char *ftl_rate_lane_name(const FtlRate *r, guint i);
guint64 ftl_rate_lane_total(const FtlRate *r, guint i);
guint64 ftl_rate_count(const FtlRate *r, guint i, guint bin);

G_DEFINE_AUTOPTR_CLEANUP_FUNC(FtlRate, ftl_rate_free)
