/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Data quality and the per-CPU summary: each CPU's events, span and lost
 * events, computed once for every command and view that prints them (info,
 * report, the TUI's Quality panel, JSON), and how much of the trace can be
 * trusted, per CPU and as a whole. */
#pragma once

#include "analysis/pass.h"
#include <glib.h>

#include "model/trace.h"

/* The FtlEventFields quality reads beyond what every event has: none
 * (CPUs, times, kinds, flags, LOST counts). */
#define FTL_QUALITY_FIELDS 0u

typedef struct {
	gint32 cpu; /* -1: events without a CPU */
	/* every event the input gave: synthesized leaf exits and the LOST and
	 * buffer-started marks included */
	guint64 events;
	guint64 event_lines; /* events read from a line or record of their own */
	gint64 first_ts;     /* of its event lines; FTL_TS_NONE when they carry no time */
	gint64 last_ts;
	guint64 lost_lines; /* LOST / DROPPED lines, pages with the missed-events mark */
	/* ftl_trace_cpu_lost(): the input's statistics when it has them, else
	 * what the marks say; FTL_LOST_UNKNOWN when a mark gives no count */
	gint64 lost_events;
	gint64 overrun;		/* the statistics' overrun, -1 without statistics */
	guint64 buffer_started; /* "##### CPU N buffer started ####" lines */
} FtlCpuQuality;

typedef struct _FtlQuality FtlQuality;

/* Borrows trace (for the header counts); it must outlive q. */
FtlQuality *ftl_quality_new(FtlTrace *trace);
void ftl_quality_free(FtlQuality *q);
void ftl_quality_feed(FtlQuality *q, const FtlEvent *ev);
void ftl_quality_finish(FtlQuality *q);
/* The quality analysis as a pass consumer (analysis/pass.h). */
extern const FtlConsumerClass ftl_quality_consumer;

/* After finish; borrowed, valid as long as q. Sorted by cpu, the events
 * without a CPU (-1) first. */
guint ftl_quality_n_cpus(const FtlQuality *q);
const FtlCpuQuality *ftl_quality_cpu(const FtlQuality *q, guint i);
/* The whole trace (cpu -1): the CPUs' sums, the earliest first and the
 * latest last timestamp; lost_events unknown when one CPU's is, overrun
 * -1 unless every CPU has statistics. Borrowed, valid as long as q. */
const FtlCpuQuality *ftl_quality_total(const FtlQuality *q);
/* The window in which every CPU's data is complete: from the latest first
 * event to the earliest last event over the CPUs, and after the last LOST
 * line on any CPU. FTL_TS_NONE when the input has no timestamps or the window
 * is empty. */
gint64 ftl_quality_window_start(const FtlQuality *q);
gint64 ftl_quality_window_end(const FtlQuality *q);
/* Events overwritten before the trace was read: the overruns of the CPU
 * statistics when every CPU has them, else entries-written minus
 * entries-in-buffer from the header(s); -1 if unknown. */
gint64 ftl_quality_evicted(const FtlQuality *q);
/* TRUE when [t0, t1] lies inside the complete window (and so no CPU's data
 * is missing there). Always FALSE when the window is unknown. */
gboolean ftl_quality_covers(const FtlQuality *q, gint64 t0, gint64 t1);
/* Plain sentences a report prints under "caveats" (e.g. "CPU 1 lost 1234
 * events at 12.345678"); borrowed array of strings. */
GPtrArray *ftl_quality_caveats(const FtlQuality *q);

G_DEFINE_AUTOPTR_CLEANUP_FUNC(FtlQuality, ftl_quality_free)
