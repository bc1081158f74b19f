/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Time bins that adapt to a trace whose length is not known in advance: a
 * fixed number of bins per lane, whose width doubles (each pair of bins
 * merged into one) whenever a time falls past the last one. One pass, memory
 * bounded by lanes x bins whatever the trace's length; at the end the bins
 * are between half and all of the requested resolution. */
#pragma once

#include <glib.h>

typedef struct _FtlTimeBins FtlTimeBins;

/* Folds bin src into bin dst (both of one lane) when two bins become one. */
typedef void (*FtlTimeBinsMerge)(gpointer dst, gconstpointer src);
/* Receives a bin and how many ns of the spread interval fall in it. */
typedef void (*FtlTimeBinsSpreadFunc)(gpointer bin, gint64 ns, gpointer data);

/* n_bins bins of elem_size bytes per lane, zeroed when created. */
FtlTimeBins *ftl_timebins_new(guint n_bins, gsize elem_size, FtlTimeBinsMerge merge);
void ftl_timebins_free(FtlTimeBins *tb);
/* The time at which bin 0 starts; set it before the first cover (else the
 * first time covered is the origin). Times before it count in bin 0. */
void ftl_timebins_set_origin(FtlTimeBins *tb, gint64 t);
gint64 ftl_timebins_origin(const FtlTimeBins *tb);
/* ns per bin: a power of two. */
gint64 ftl_timebins_width(const FtlTimeBins *tb);
/* Bins from the origin to the latest time covered. */
guint ftl_timebins_n_used(const FtlTimeBins *tb);
/* Makes time t fall into a bin, coarsening as needed. */
void ftl_timebins_cover(FtlTimeBins *tb, gint64 t);
/* Doubles the width once: bins 2i and 2i+1 become bin i (round bins:
 * 1 -> 5 -> 10 -> 50 ... times, below). */
void ftl_timebins_coarsen(FtlTimeBins *tb);
/* Before the first cover: widths go 1, 5, 10, 50, 100 ... ns, so that
 * every round width (1, 2 or 5 times a power of ten) at or above the
 * width reached is a whole multiple of it and ftl_timebins_fit() can
 * merge bins into it exactly. Give n_bins five times the bins wanted. */
void ftl_timebins_set_round(FtlTimeBins *tb);
/* Round bins: merges them into the smallest round width that holds the
 * times covered in at most max_bins bins. */
void ftl_timebins_fit(FtlTimeBins *tb, guint max_bins);
/* The bin of t (after cover(t)). */
guint ftl_timebins_index(const FtlTimeBins *tb, gint64 t);
/* Bin i of lane (created on first use); borrowed until the next cover or
 * coarsen. */
gpointer ftl_timebins_get(FtlTimeBins *tb, guint lane, guint i);
/* Lanes created so far are 0 .. n_lanes - 1; has_lane says which exist. */
guint ftl_timebins_n_lanes(const FtlTimeBins *tb);
gboolean ftl_timebins_has_lane(const FtlTimeBins *tb, guint lane);
/* Covers t1 and calls fn for each bin that [t0, t1) overlaps, with the
 * overlap in ns. */
void ftl_timebins_spread(FtlTimeBins *tb, guint lane, gint64 t0, gint64 t1,
			 FtlTimeBinsSpreadFunc fn, gpointer data);

G_DEFINE_AUTOPTR_CLEANUP_FUNC(FtlTimeBins, ftl_timebins_free)
