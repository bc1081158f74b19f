/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Log-linear histogram: bounded memory, percentiles with a stated error. */
#include "analysis/histo.h"

#include <math.h>

#include "util/timefmt.h"

#define HISTO_SUB_BITS 7
#define HISTO_SUB      (1 << HISTO_SUB_BITS) /* buckets per power of two */
#define HISTO_LINEAR   (2 * HISTO_SUB)	     /* values below have a bucket each */

struct _FtlHisto {
	GArray *counts; /* guint64 per bucket, grown to the largest bucket used */
	guint64 count;
	gint64 sum;
	gint64 min, max;
};

static guint histo_index(guint64 v)
{
	if (v < HISTO_LINEAR)
		return (guint)v;
	guint msb = 63 - (guint)__builtin_clzll(v);
	guint shift = msb - HISTO_SUB_BITS;
	return HISTO_LINEAR + (shift - 1) * HISTO_SUB + (guint)((v >> shift) - HISTO_SUB);
}

static void histo_bounds(guint idx, gint64 *lo, gint64 *hi)
{
	if (idx < HISTO_LINEAR) {
		*lo = idx;
		*hi = idx + 1;
		return;
	}
	guint r = idx - HISTO_LINEAR;
	guint shift = r / HISTO_SUB + 1;
	guint64 l = (guint64)(HISTO_SUB + r % HISTO_SUB) << shift;
	guint64 h = l + ((guint64)1 << shift);
	*lo = (gint64)l;
	/* the last bucket's end is 2^63, one past what a gint64 holds */
	*hi = h > (guint64)G_MAXINT64 ? G_MAXINT64 : (gint64)h;
}

FtlHisto *ftl_histo_new(void)
{
	FtlHisto *h = g_new0(FtlHisto, 1);
	h->counts = g_array_new(FALSE, TRUE, sizeof(guint64));
	h->min = h->max = FTL_TS_NONE;
	return h;
}

void ftl_histo_free(FtlHisto *h)
{
	if (!h)
		return;
	g_array_unref(h->counts);
	g_free(h);
}

void ftl_histo_add(FtlHisto *h, gint64 v)
{
	if (v < 0)
		v = 0;
	guint i = histo_index((guint64)v);
	if (i >= h->counts->len)
		g_array_set_size(h->counts, i + 1);
	g_array_index(h->counts, guint64, i)++;
	h->count++;
	h->sum = v > G_MAXINT64 - h->sum ? G_MAXINT64 : h->sum + v;
	if (h->min == FTL_TS_NONE || v < h->min)
		h->min = v;
	if (h->max == FTL_TS_NONE || v > h->max)
		h->max = v;
}

void ftl_histo_merge(FtlHisto *h, const FtlHisto *src)
{
	if (!src->count)
		return;
	if (src->counts->len > h->counts->len)
		g_array_set_size(h->counts, src->counts->len);
	for (guint i = 0; i < src->counts->len; i++)
		g_array_index(h->counts, guint64, i) += g_array_index(src->counts, guint64, i);
	h->count += src->count;
	h->sum = src->sum > G_MAXINT64 - h->sum ? G_MAXINT64 : h->sum + src->sum;
	if (h->min == FTL_TS_NONE || src->min < h->min)
		h->min = src->min;
	if (h->max == FTL_TS_NONE || src->max > h->max)
		h->max = src->max;
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

/* The value bucket i stands for: its midpoint, within the exact min and
 * max (a percentile, and the log bin the bucket is counted in). */
static gint64 histo_mid(const FtlHisto *h, guint i)
{
	gint64 lo, hi;
	histo_bounds(i, &lo, &hi);
	gint64 mid = hi - lo == 1 ? lo : lo + (hi - lo) / 2;
	return CLAMP(mid, h->min, h->max);
}

gint64 ftl_histo_percentile(const FtlHisto *h, double p)
{
	if (!h->count)
		return FTL_TS_NONE;
	p = CLAMP(p, 0.0, 100.0);
	guint64 rank = (guint64)(p / 100.0 * (double)h->count + 0.999999999);
	rank = CLAMP(rank, 1, h->count);
	if (rank == h->count)
		return h->max; /* the extremes are known exactly */
	if (rank == 1)
		return h->min;
	guint64 seen = 0;
	for (guint i = 0; i < h->counts->len; i++) {
		seen += g_array_index(h->counts, guint64, i);
		if (seen >= rank)
			return histo_mid(h, i);
	}
	return h->max;
}

gboolean ftl_histo_next_bucket(const FtlHisto *h, guint *pos, gint64 *lo, gint64 *hi,
			       guint64 *count)
{
	for (guint i = *pos; i < h->counts->len; i++) {
		guint64 n = g_array_index(h->counts, guint64, i);
		if (!n)
			continue;
		histo_bounds(i, lo, hi);
		*count = n;
		*pos = i + 1;
		return TRUE;
	}
	*pos = h->counts->len;
	return FALSE;
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
	*first = 0;
	for (guint i = 0; i < h->counts->len; i++) {
		guint64 count = g_array_index(h->counts, guint64, i);
		if (!count)
			continue;
		guint b = ftl_histo_decade(histo_mid(h, i));
		if (!bins->len)
			*first = b;
		/* buckets come in increasing order: b never goes below first */
		if (b - *first >= bins->len)
			g_array_set_size(bins, b - *first + 1);
		g_array_index(bins, guint64, b - *first) += count;
	}
	return bins;
}
