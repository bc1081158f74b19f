/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Two traces' function statistics compared, function by function. */
#pragma once

#include <glib.h>

#include "analysis/funcstats.h"

typedef enum {
	FTL_DIFF_BY_TOTAL,
	FTL_DIFF_BY_SELF,
	FTL_DIFF_BY_CALLS,
} FtlDiffKey;

typedef struct {
	const char *func;	  /* A's or B's interned name: compared by text */
	const FtlFuncStat *a, *b; /* NULL where the function is absent */
	gint64 key;		  /* |change| of the sort metric */
} FtlDiffRow;

typedef struct _FtlDiff FtlDiff;

/* Joins a and b (per-function statistics; borrowed, they must outlive the
 * result) by name and orders the rows by the absolute change of key, the
 * largest first, then by name. Free with ftl_diff_free(). */
FtlDiff *ftl_diff_new(FtlFuncStats *a, FtlFuncStats *b, FtlDiffKey key);
void ftl_diff_free(FtlDiff *d);
guint ftl_diff_n_rows(const FtlDiff *d);
const FtlDiffRow *ftl_diff_row(const FtlDiff *d, guint i);
FtlDiffKey ftl_diff_key(const FtlDiff *d);
/* "total", "self" or "calls"; FALSE for anything else. */
gboolean ftl_diff_parse_key(const char *text, FtlDiffKey *out);
/* diff's change in percent: of A's figure a; FALSE (none) where a is 0. */
gboolean ftl_diff_change_pct(gint64 a, gint64 b, double *pct);
/* A row's total (self FALSE) or self time on one side, 0 when absent. */
gint64 ftl_diff_metric(const FtlFuncStat *s, gboolean self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC(FtlDiff, ftl_diff_free)
