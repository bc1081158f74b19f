/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What JSON results carry so that the results of many traces merge exactly
 * (ftlens fleet): a versioned schema name (the files in data/schema/), and
 * for every percentile the fixed-bound histogram it was read from, with its
 * count, sum, minimum and maximum. Buckets never depend on the data, so the
 * buckets of several traces add up, and a fleet's p99 is read from the sum,
 * not averaged from each trace's. */
#pragma once

#include <json-glib/json-glib.h>

#include "analysis/funcstats.h"
#include "analysis/histo.h"

/* The schema names, "ftlens.NAME/VERSION"; the version grows when a member
 * changes meaning or goes (adding members keeps it). */
#define FTL_SCHEMA_REPORT  "ftlens.report/1"
#define FTL_SCHEMA_SCHED   "ftlens.sched/1"
#define FTL_SCHEMA_MARKERS "ftlens.markers/1"
#define FTL_SCHEMA_OOPS	   "ftlens.oops/1"

/* Adds "schema": name to an open object. */
void ftl_merge_add_schema(JsonBuilder *b, const char *name);
/* Adds "name": { scheme, count, sum_ns, min_ns, max_ns, buckets: [[lo, hi,
 * count], ...] } for h (an FtlHisto: scheme FTL_HISTO_SCHEME). */
void ftl_merge_add_histo(JsonBuilder *b, const char *name, const FtlHisto *h);
/* Adds "function_histograms": one object per row of s (the function, cpu
 * and pid of the row, calls, timed_calls, total_ns, self_ns, repaired and
 * its histogram as above, scheme FTL_FUNCSTATS_HISTO_SCHEME). */
void ftl_merge_add_funcstats(JsonBuilder *b, FtlFuncStats *s);
