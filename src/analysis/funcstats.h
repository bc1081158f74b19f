/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Per-function statistics over finished calls: calls, total, self, min, max,
 * average and p50/p95/p99, optionally per CPU or per task. Memory grows with
 * distinct functions, not with the trace. */
#pragma once

#include "analysis/pass.h"
#include <glib.h>

#include "analysis/calltree.h"
#include "analysis/pctl.h"

typedef enum {
	FTL_FUNCSTATS_BY_FUNC,
	FTL_FUNCSTATS_BY_CPU,  /* one row per (function, CPU) */
	FTL_FUNCSTATS_BY_TASK, /* one row per (function, pid) */
} FtlFuncStatsKey;

typedef enum {
	FTL_FUNCSTATS_SORT_SELF,
	FTL_FUNCSTATS_SORT_TOTAL,
	FTL_FUNCSTATS_SORT_CALLS,
	FTL_FUNCSTATS_SORT_AVG,
	FTL_FUNCSTATS_SORT_MAX,
	FTL_FUNCSTATS_SORT_NAME,
} FtlFuncStatsSort;

typedef struct {
	const char *func; /* interned */
	gint32 cpu;	  /* BY_CPU rows, else -1 */
	gint32 pid;	  /* BY_TASK rows, else -1 */
	guint64 calls;	  /* every call, untimed and repaired ones included */
	guint64 timed;	  /* calls with a known duration */
	guint64 flagged;  /* calls with a repair (orphan, open, repaired) */
	gint64 total_ns;  /* known durations; a recursive call inside itself is not added twice */
	gint64 self_ns;
	gint64 min_ns; /* FTL_TS_NONE without timed calls */
	gint64 max_ns;
	gint64 avg_ns;
	gint64 p50_ns; /* analysis/pctl.h's: exact up to 256 timed calls, then
			* from a log-linear histogram (within 1/64, 1.6%) */
	gint64 p95_ns;
	gint64 p99_ns;
	gint64 first_ts; /* entry of the earliest timed call, FTL_TS_NONE if unknown */
	gint64 last_ts;	 /* end of the latest timed call */
} FtlFuncStat;

typedef struct _FtlFuncStats FtlFuncStats;

FtlFuncStats *ftl_funcstats_new(FtlFuncStatsKey key);
void ftl_funcstats_free(FtlFuncStats *s);
/* Adds the calls given to ftl_funcstats_add_call() on threads - 1 worker
 * threads of s's own (threads < 2: on the caller's thread, the default),
 * each into partial rows that finish merges: the call tree's thread then
 * only copies each call. The results are the same. Call before the first
 * call; the workers end at finish (or free). */
void ftl_funcstats_set_threads(FtlFuncStats *s, guint threads);
/* Matches FtlCallFunc: pass it to ftl_calltree_add_on_call() with s. */
void ftl_funcstats_add_call(const FtlCall *call, gpointer s);
/* Counts a function-tracer hit (FTL_EVENT_FUNC): a call without a duration. */
void ftl_funcstats_feed(FtlFuncStats *s, const FtlEvent *ev);
void ftl_funcstats_finish(FtlFuncStats *s);
/* The funcstats analysis as a pass consumer (analysis/pass.h). */
extern const FtlConsumerClass ftl_funcstats_consumer;
/* Rows sorted as asked (descending, name ascending for NAME); borrowed,
 * valid until the next sort or free. */
GPtrArray *ftl_funcstats_sorted(FtlFuncStats *s, FtlFuncStatsSort sort);
guint ftl_funcstats_n_rows(const FtlFuncStats *s);
/* The name of the fixed bucket layout below, analysis/pctl.h's: the
 * bounds never depend on the data, so the buckets of several traces add up. */
#define FTL_FUNCSTATS_HISTO_SCHEME FTL_PCTL_SCHEME
/* After finish: walks the non-empty buckets of the durations behind st's
 * percentiles (a row of s), in increasing order: start with *pos = 0. A
 * bucket holds the durations lo <= v < hi. */
gboolean ftl_funcstats_next_bucket(const FtlFuncStats *s, const FtlFuncStat *st, guint *pos,
				   gint64 *lo, gint64 *hi, guint64 *count);
/* Row of func (BY_FUNC), NULL if absent. */
const FtlFuncStat *ftl_funcstats_lookup(const FtlFuncStats *s, const char *func);
gboolean ftl_funcstats_parse_sort(const char *text, FtlFuncStatsSort *out);
/* The option word of a sort key ("self", "total", ...). */
const char *ftl_funcstats_sort_name(FtlFuncStatsSort sort);

G_DEFINE_AUTOPTR_CLEANUP_FUNC(FtlFuncStats, ftl_funcstats_free)
