/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Adaptive time bins: per-lane summaries over time in bounded memory. */
#include "analysis/timebins.h"

#include <string.h>

#include "util/timefmt.h"

struct _FtlTimeBins {
	guint n;
	gsize elem;
	FtlTimeBinsMerge merge;
	gint64 origin; /* FTL_TS_NONE until set or first covered */
	guint64 width;
	guint64 max_off;  /* latest time covered, minus origin */
	gboolean round;	  /* widths 1 and 5 times powers of ten */
	GPtrArray *lanes; /* guint8[n * elem] or NULL */
};

FtlTimeBins *ftl_timebins_new(guint n_bins, gsize elem_size, FtlTimeBinsMerge merge)
{
	FtlTimeBins *tb = g_new0(FtlTimeBins, 1);
	tb->n = MAX(n_bins, 2) + n_bins % 2; /* even: bins merge in pairs */
	tb->elem = elem_size;
	tb->merge = merge;
	tb->origin = FTL_TS_NONE;
	tb->width = 1;
	tb->lanes = g_ptr_array_new_with_free_func(g_free);
	return tb;
}

void ftl_timebins_free(FtlTimeBins *tb)
{
	if (!tb)
		return;
	g_ptr_array_unref(tb->lanes);
	g_free(tb);
}

void ftl_timebins_set_origin(FtlTimeBins *tb, gint64 t)
{
	tb->origin = t;
}

gint64 ftl_timebins_origin(const FtlTimeBins *tb)
{
	return tb->origin;
}

gint64 ftl_timebins_width(const FtlTimeBins *tb)
{
	return (gint64)tb->width;
}

guint ftl_timebins_n_used(const FtlTimeBins *tb)
{
	if (tb->origin == FTL_TS_NONE)
		return 0;
	return (guint)(tb->max_off / tb->width) + 1;
}

/* Bins f*i .. f*i + f - 1 become bin i. */
static void timebins_coarsen_by(FtlTimeBins *tb, guint f)
{
	for (guint l = 0; l < tb->lanes->len; l++) {
		guint8 *b = g_ptr_array_index(tb->lanes, l);
		if (!b)
			continue;
		guint kept = (tb->n + f - 1) / f;
		for (guint i = 0; i < kept; i++) {
			guint8 *dst = b + i * tb->elem;
			if (i > 0)
				memcpy(dst, b + f * i * tb->elem, tb->elem);
			for (guint k = f * i + 1; k < MIN(f * i + f, tb->n); k++)
				tb->merge(dst, b + k * tb->elem);
		}
		memset(b + kept * tb->elem, 0, (tb->n - kept) * tb->elem);
	}
	tb->width *= f;
}

/* The leading digit of a width. */
static guint64 timebins_lead(guint64 w)
{
	while (w >= 10 && w % 10 == 0)
		w /= 10;
	return w;
}

void ftl_timebins_coarsen(FtlTimeBins *tb)
{
	/* round: 1 -> 5 -> 10 -> 50 ... every round width above one of
	 * these is a whole multiple of it */
	timebins_coarsen_by(tb, tb->round && timebins_lead(tb->width) == 1 ? 5 : 2);
}

void ftl_timebins_set_round(FtlTimeBins *tb)
{
	tb->round = TRUE;
}

void ftl_timebins_fit(FtlTimeBins *tb, guint max_bins)
{
	if (!tb->round || !max_bins)
		return;
	/* the round widths above this one, smallest first: 1, 2, 5 times
	 * powers of ten, whole multiples of it */
	while (ftl_timebins_n_used(tb) > max_bins) {
		guint64 w = tb->width, next = 0;
		for (guint64 p = 1; !next && p <= G_MAXUINT64 / 50; p *= 10)
			for (guint m = 1; m <= 5 && !next; m += m == 1 ? 1 : 3)
				if (m * p > w && (m * p) % w == 0 &&
				    tb->max_off / (m * p) + 1 <= max_bins)
					next = m * p;
		if (!next)
			next = w * 10; /* unreachable: widths up to 2^63 ns */
		timebins_coarsen_by(tb, (guint)(next / w));
	}
}

void ftl_timebins_cover(FtlTimeBins *tb, gint64 t)
{
	if (tb->origin == FTL_TS_NONE)
		tb->origin = t;
	if (t <= tb->origin)
		return;
	guint64 off = (guint64)t - (guint64)tb->origin;
	while (off / tb->width >= tb->n)
		ftl_timebins_coarsen(tb);
	if (off > tb->max_off)
		tb->max_off = off;
}

guint ftl_timebins_index(const FtlTimeBins *tb, gint64 t)
{
	if (tb->origin == FTL_TS_NONE || t <= tb->origin)
		return 0;
	guint64 i = ((guint64)t - (guint64)tb->origin) / tb->width;
	return (guint)MIN(i, (guint64)tb->n - 1);
}

gpointer ftl_timebins_get(FtlTimeBins *tb, guint lane, guint i)
{
	if (lane >= tb->lanes->len)
		g_ptr_array_set_size(tb->lanes, (gint)lane + 1);
	guint8 *b = g_ptr_array_index(tb->lanes, lane);
	if (!b) {
		b = g_malloc0(tb->n * tb->elem);
		g_ptr_array_index(tb->lanes, lane) = b;
	}
	return b + MIN(i, tb->n - 1) * tb->elem;
}

guint ftl_timebins_n_lanes(const FtlTimeBins *tb)
{
	return tb->lanes->len;
}

gboolean ftl_timebins_has_lane(const FtlTimeBins *tb, guint lane)
{
	return lane < tb->lanes->len && g_ptr_array_index(tb->lanes, lane) != NULL;
}

void ftl_timebins_spread(FtlTimeBins *tb, guint lane, gint64 t0, gint64 t1,
			 FtlTimeBinsSpreadFunc fn, gpointer data)
{
	if (t1 <= t0)
		return;
	ftl_timebins_cover(tb, t1 - 1);
	if (t0 < tb->origin)
		t0 = tb->origin;
	while (t0 < t1) {
		guint i = ftl_timebins_index(tb, t0);
		gint64 end = tb->origin + (gint64)((i + 1) * tb->width);
		gint64 upto = MIN(end, t1);
		fn(ftl_timebins_get(tb, lane, i), upto - t0, data);
		t0 = upto;
	}
}
