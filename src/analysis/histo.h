/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Durations (or any non-negative values) with their count, sum, min and
 * max exact, and percentiles by ftlens's one definition (analysis/pctl.h):
 * exact up to 256 values, then from log-linear buckets within 1/64 (1.6%).
 * Memory: the values up to 256, then a few bytes a bucket reached. */
#pragma once

#include <glib.h>

#include "analysis/pctl.h"

/* The name of the bucket layout, for results that carry buckets. */
#define FTL_HISTO_SCHEME FTL_PCTL_SCHEME

typedef struct _FtlHisto FtlHisto;

FtlHisto *ftl_histo_new(void);
void ftl_histo_free(FtlHisto *h);
/* Negative values count as 0. */
void ftl_histo_add(FtlHisto *h, gint64 v);
/* Adds every value of src to h. */
void ftl_histo_merge(FtlHisto *h, const FtlHisto *src);

guint64 ftl_histo_count(const FtlHisto *h);
/* Saturates at G_MAXINT64. */
gint64 ftl_histo_sum(const FtlHisto *h);
/* FTL_TS_NONE when empty. */
gint64 ftl_histo_min(const FtlHisto *h);
gint64 ftl_histo_max(const FtlHisto *h);
/* The pct-th percentile (1..100), analysis/pctl.h's; FTL_TS_NONE when
 * empty. */
gint64 ftl_histo_percentile(const FtlHisto *h, guint pct);

/* Walks the non-empty buckets in increasing order: start with *pos = 0.
 * A bucket holds the values lo <= v < hi. */
gboolean ftl_histo_next_bucket(const FtlHisto *h, guint *pos, gint64 *lo, gint64 *hi,
			       guint64 *count);
/* Walks the values as the percentiles read them (ftl_pctl_store_next_value():
 * the exact values, or the value each bucket stands for), in increasing
 * order: start with *pos = 0. */
gboolean ftl_histo_next_value(const FtlHisto *h, guint *pos, gint64 *v, guint64 *count);

/* Log bins of ten a decade of microseconds, as the plots and the TUI's
 * histograms draw durations: bin b holds [10^(b/10), 10^((b+1)/10)) us
 * for b from FTL_HISTO_DECADE_MIN; indexes count from there, below
 * FTL_HISTO_DECADE_N. A value is at least 1 ns (a 0 ns one shows there). */
#define FTL_HISTO_DECADE_BINS 10
#define FTL_HISTO_DECADE_MIN  (-3 * FTL_HISTO_DECADE_BINS)
#define FTL_HISTO_DECADE_N    (22 * FTL_HISTO_DECADE_BINS)
/* The index of the bin that holds ns. */
guint ftl_histo_decade(gint64 ns);
/* The bounds of bin index i, in microseconds. */
void ftl_histo_decade_bounds(guint i, double *lo_us, double *hi_us);
/* h's values counted in those bins, each in the bin that holds it (exact:
 * 45 values of exactly 5.000 us are in [3.981, 5.012), whatever bucket
 * the percentiles read them from); the bin a percentile marks is the one
 * that holds the value it shows (ftl_histo_decade()). *first is the first
 * bin index with a count, the array (guint64) runs to the last.
 * g_array_unref(). The plots and the TUI's histograms all count so. */
GArray *ftl_histo_decades(const FtlHisto *h, guint *first);

G_DEFINE_AUTOPTR_CLEANUP_FUNC(FtlHisto, ftl_histo_free)
