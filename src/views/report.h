/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The batch report: header with data quality, top functions, per-CPU summary,
 * markers and the longest calls, as text (100 columns), CSV or JSON. */
#pragma once

#include <stdio.h>

#include "analysis/calltree.h"
#include "analysis/counts.h"
#include "analysis/funcstats.h"
#include "analysis/longest.h"
#include "analysis/markers.h"
#include "analysis/quality.h"
#include "analysis/sched.h"
#include "model/trace.h"
#include "views/source.h"
#include "views/table.h"

/* Everything borrowed; finished analyses of one pass over trace. */
typedef struct {
	FtlTrace *trace;
	const FtlCounts *counts;
	FtlQuality *quality;
	FtlFuncStats *funcs;
	const FtlCallTree *calls; /* call counts (built without the merged tree) */
	const FtlLongest *longest;
	const FtlMarkers *markers;
	guint top;	  /* rows per text section */
	gint64 threshold; /* hide functions whose total is below (ns) */
	gint64 origin;	  /* --relative-to origin or FTL_TS_NONE */
	FtlFuncStatsSort sort; /* order of the function table in every format */
	gboolean sort_given;   /* text: one table in that order, not self and total */
	const FtlSched *sched; /* --sched: the scheduling summary; NULL without */
	FtlSourceMap *sources; /* --by file|dir: functions by source; NULL without */
	const FtlTextStyle *style; /* text: width and colours; NULL: plain */
	/* Why the function sections are empty (the selection keeps no event,
	 * or the events hold no calls); NULL when they are not. */
	const char *empty_why;
} FtlReportData;

void ftl_report_print(const FtlReportData *r, FtlFormat format, FILE *out);
/* The function-statistics table, sorted: the first max_rows rows (0: all). */
FtlTable *ftl_report_func_table(const FtlReportData *r, FtlFuncStatsSort sort, guint max_rows);
