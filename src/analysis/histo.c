/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Durations with count, sum, min and max, and percentiles by analysis/pctl.h. */
#include "analysis/histo.h"

#include <math.h>
#include <string.h>

#include "analysis/pctl.h"
#include "util/timefmt.h"

struct _FtlHisto {
	FtlPctlStore values; /* by count (analysis/pctl.h), exact values sorted */
	guint64 count;
	gint64 sum;
	gint64 min, max;
	/* the values in the log bins the plots and the TUI draw, each in the
	 * bin that holds it: bins dec_lo .. dec_lo + dec_n - 1 (the ones
	 * reached), a few dozen at most */
	guint64 *dec;
	guint dec_lo, dec_n;
};

/* Counts n values in decade bin b, widening the bins' range to reach it. */
static void histo_dec_add(FtlHisto *h, guint b, guint64 n)
{
	if (!h->dec_n || b < h->dec_lo || b >= h->dec_lo + h->dec_n) {
		guint lo = h->dec_n ? MIN(h->dec_lo, b) : b;
		guint hi = h->dec_n ? MAX(h->dec_lo + h->dec_n, b + 1) : b + 1;
		guint64 *w = g_new0(guint64, hi - lo);
		if (h->dec_n)
			memcpy(w + (h->dec_lo - lo), h->dec, h->dec_n * sizeof *w);
		g_free(h->dec);
		h->dec = w;
		h->dec_lo = lo;
		h->dec_n = hi - lo;
	}
	guint64 *c = &h->dec[b - h->dec_lo];
	*c = n > G_MAXUINT64 - *c ? G_MAXUINT64 : *c + n;
}

FtlHisto *ftl_histo_new(void)
{
	FtlHisto *h = g_new0(FtlHisto, 1);
	h->min = h->max = FTL_TS_NONE;
	return h;
}

void ftl_histo_free(FtlHisto *h)
{
	if (!h)
		return;
	ftl_pctl_store_clear(&h->values, h->count);
	g_free(h->dec);
	g_free(h);
}

void ftl_histo_add(FtlHisto *h, gint64 v)
{
	if (v < 0)
		v = 0;
	h->count++;
	h->sum = v > G_MAXINT64 - h->sum ? G_MAXINT64 : h->sum + v;
	if (h->min == FTL_TS_NONE || v < h->min)
		h->min = v;
	if (h->max == FTL_TS_NONE || v > h->max)
		h->max = v;
	ftl_pctl_store_add_sorted(&h->values, h->count, h->min, h->max, v);
	histo_dec_add(h, ftl_histo_decade(v), 1);
}

void ftl_histo_merge(FtlHisto *h, const FtlHisto *src)
{
	if (!src->count)
		return;
	ftl_pctl_store_merge(&h->values, h->count, h->min, &src->values, src->count, src->min);
	h->count += src->count;
	ftl_pctl_store_sort(&h->values, h->count);
	h->sum = src->sum > G_MAXINT64 - h->sum ? G_MAXINT64 : h->sum + src->sum;
	if (h->min == FTL_TS_NONE || src->min < h->min)
		h->min = src->min;
	if (h->max == FTL_TS_NONE || src->max > h->max)
		h->max = src->max;
	for (guint i = 0; i < src->dec_n; i++)
		if (src->dec[i])
			histo_dec_add(h, src->dec_lo + i, src->dec[i]);
}

guint64 ftl_histo_count(const FtlHisto *h)
{
	return h->count;
}

gint64 ftl_histo_sum(const FtlHisto *h)
{
	return h->sum;
}

gint64 ftl_histo_min(const FtlHisto *h)
{
	return h->min;
}

gint64 ftl_histo_max(const FtlHisto *h)
{
	return h->max;
}

gint64 ftl_histo_percentile(const FtlHisto *h, guint pct)
{
	return ftl_pctl_store_value(&h->values, h->count, h->min, h->max, pct);
}

gboolean ftl_histo_next_bucket(const FtlHisto *h, guint *pos, gint64 *lo, gint64 *hi,
			       guint64 *count)
{
	return ftl_pctl_store_next_bucket(&h->values, h->count, h->min, pos, lo, hi, count);
}

gboolean ftl_histo_next_value(const FtlHisto *h, guint *pos, gint64 *v, guint64 *count)
{
	return ftl_pctl_store_next_value(&h->values, h->count, h->min, h->max, pos, v, count);
}

guint ftl_histo_decade(gint64 ns)
{
	double us = (double)MAX(ns, 1) / 1000.0;
	gint b = (gint)floor(log10(us) * FTL_HISTO_DECADE_BINS) - FTL_HISTO_DECADE_MIN;
	return (guint)CLAMP(b, 0, FTL_HISTO_DECADE_N - 1);
}

void ftl_histo_decade_bounds(guint i, double *lo_us, double *hi_us)
{
	gint b = (gint)i + FTL_HISTO_DECADE_MIN;
	*lo_us = pow(10, (double)b / FTL_HISTO_DECADE_BINS);
	*hi_us = pow(10, (double)(b + 1) / FTL_HISTO_DECADE_BINS);
}

GArray *ftl_histo_decades(const FtlHisto *h, guint *first)
{
	GArray *bins = g_array_new(FALSE, TRUE, sizeof(guint64));
	*first = h->dec_lo;
	if (h->dec_n)
		g_array_append_vals(bins, h->dec, h->dec_n);
	return bins;
}
