/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The one percentile definition: exact values up to 256, then log-linear buckets. */
#include "analysis/pctl.h"

#include <string.h>

#include "util/timefmt.h"

/* Values below 2 * 2^SUB_BITS ns have a bucket each; above, each power of
 * two is split into 2^SUB_BITS buckets. */
#define SUB_BITS 5
#define SUB	 (1u << SUB_BITS)

/* The buckets lo .. lo + n - 1, the only ones the values reached so far:
 * they span a few powers of two, and the whole layout (7.5 KiB) for each
 * busy function of a trace added up to tens of MiB. */
struct _FtlPctlHist {
	guint16 lo, n;
	guint64 count[]; /* 64 bits: a bucket of a busy function can pass 2^32 */
};

guint64 ftl_pctl_rank(guint64 count, guint pct)
{
	if (!count)
		return 0;
	pct = CLAMP(pct, 1, 100);
	/* ceil(count * pct / 100) in integers: no rounding of a double makes
	 * 95% of 20 the 20th value */
	guint64 rank = count / 100 * pct + ((count % 100) * pct + 99) / 100;
	return CLAMP(rank, 1, count);
}

static guint pctl_bucket(gint64 ns)
{
	guint64 v = ns < 0 ? 0 : (guint64)ns;
	if (v < SUB)
		return (guint)v;
	guint e = 63 - (guint)__builtin_clzll(v); /* v >= SUB so e >= SUB_BITS */
	guint sub = (guint)(v >> (e - SUB_BITS)) & (SUB - 1);
	return (e - SUB_BITS + 1) * SUB + sub;
}

static void pctl_bucket_bounds(guint b, gint64 *lo, gint64 *hi)
{
	if (b < SUB) {
		*lo = b;
		*hi = b + 1;
		return;
	}
	guint e = b / SUB + SUB_BITS - 1, sub = b % SUB;
	guint64 l = ((guint64)(SUB + sub)) << (e - SUB_BITS);
	guint64 h = l + ((guint64)1 << (e - SUB_BITS));
	*lo = (gint64)l;
	/* the last bucket's end is 2^63, one past what a gint64 holds */
	*hi = h > (guint64)G_MAXINT64 ? G_MAXINT64 : (gint64)h;
}

/* The value bucket b stands for: its midpoint, within the exact min and max. */
static gint64 pctl_bucket_value(guint b, gint64 min, gint64 max)
{
	gint64 lo, hi;
	pctl_bucket_bounds(b, &lo, &hi);
	gint64 mid = lo + (hi - lo) / 2;
	return CLAMP(mid, min, max);
}

/* Counts n values in bucket b, widening the histogram's range to reach it. */
static void pctl_hist_add(FtlPctlHist **hp, guint b, guint64 n)
{
	FtlPctlHist *h = *hp;
	if (!h || b < h->lo || b >= (guint)h->lo + h->n) {
		guint lo = h ? MIN(h->lo, b) : b, hi = h ? MAX((guint)h->lo + h->n, b + 1) : b + 1;
		FtlPctlHist *w = g_malloc0(sizeof *w + (hi - lo) * sizeof w->count[0]);
		w->lo = (guint16)lo;
		w->n = (guint16)(hi - lo);
		if (h)
			memcpy(w->count + (h->lo - lo), h->count, h->n * sizeof h->count[0]);
		g_free(h);
		*hp = h = w;
	}
	h->count[b - h->lo] += n;
}

void ftl_pctl_store_prefetch(const FtlPctlStore *s, guint64 count, gint64 v)
{
	if (count <= FTL_PCTL_EXACT_MAX)
		return; /* no histogram yet */
	const FtlPctlHist *h = s->hist;
	if (v == FTL_TS_NONE) {
		__builtin_prefetch(h, 1);
		return;
	}
	guint b = pctl_bucket(v);
	if (b >= h->lo && b < (guint)h->lo + h->n)
		__builtin_prefetch(&h->count[b - h->lo], 1);
}

void ftl_pctl_store_add(FtlPctlStore *s, guint64 count, gint64 min, gint64 max, gint64 v)
{
	/* one value needs no store: it is min (most names of a trace of a
	 * million distinct functions are called once) */
	if (count <= 1)
		return;
	if (count <= FTL_PCTL_EXACT_MAX) {
		if (!s->exact) {
			gint64 first = min == v ? max : min;
			s->exact = g_array_sized_new(FALSE, FALSE, sizeof(gint64), 4);
			g_array_append_val(s->exact, first);
		}
		g_array_append_val(s->exact, v);
		return;
	}
	if (count == FTL_PCTL_EXACT_MAX + 1) {
		FtlPctlHist *hist = NULL;
		/* min and max first: the range is set once, not widened per value */
		pctl_hist_add(&hist, pctl_bucket(min), 1);
		pctl_hist_add(&hist, pctl_bucket(max), 1);
		hist->count[0]--;
		hist->count[hist->n - 1]--;
		for (guint i = 0; i < s->exact->len; i++)
			pctl_hist_add(&hist, pctl_bucket(g_array_index(s->exact, gint64, i)), 1);
		g_array_unref(s->exact);
		s->hist = hist;
	}
	pctl_hist_add(&s->hist, pctl_bucket(v), 1);
}

void ftl_pctl_store_add_sorted(FtlPctlStore *s, guint64 count, gint64 min, gint64 max, gint64 v)
{
	ftl_pctl_store_add(s, count, min, max, v);
	if (count < 2 || count > FTL_PCTL_EXACT_MAX)
		return;
	/* one step of an insertion sort: the rest is in order */
	gint64 *a = (gint64 *)(void *)s->exact->data;
	guint i = s->exact->len - 1;
	for (; i > 0 && a[i - 1] > v; i--)
		a[i] = a[i - 1];
	a[i] = v;
}

/* The values of a store, each added to *h's buckets. */
static void pctl_hist_add_store(FtlPctlHist **h, const FtlPctlStore *s, guint64 count,
				gint64 min)
{
	if (count == 1)
		pctl_hist_add(h, pctl_bucket(min), 1);
	else if (count > 1 && count <= FTL_PCTL_EXACT_MAX)
		for (guint i = 0; i < s->exact->len; i++)
			pctl_hist_add(h, pctl_bucket(g_array_index(s->exact, gint64, i)), 1);
	else if (count > FTL_PCTL_EXACT_MAX)
		for (guint i = 0; i < s->hist->n; i++)
			if (s->hist->count[i])
				pctl_hist_add(h, s->hist->lo + i, s->hist->count[i]);
}

void ftl_pctl_store_merge(FtlPctlStore *dst, guint64 dst_count, gint64 dst_min,
			  const FtlPctlStore *src, guint64 src_count, gint64 src_min)
{
	if (!src_count)
		return;
	guint64 total = dst_count + src_count;
	if (total <= 1)
		return;
	if (total <= FTL_PCTL_EXACT_MAX) {
		GArray *a = dst_count > 1 ? dst->exact
					  : g_array_sized_new(FALSE, FALSE, sizeof(gint64), 4);
		if (dst_count == 1)
			g_array_append_val(a, dst_min);
		if (src_count == 1)
			g_array_append_val(a, src_min);
		else
			g_array_append_vals(a, src->exact->data, src->exact->len);
		dst->exact = a;
		return;
	}
	FtlPctlHist *h = NULL;
	pctl_hist_add_store(&h, dst, dst_count, dst_min);
	pctl_hist_add_store(&h, src, src_count, src_min);
	ftl_pctl_store_clear(dst, dst_count);
	dst->hist = h;
}

static gint pctl_i64_cmp(gconstpointer a, gconstpointer b)
{
	gint64 x = *(const gint64 *)a, y = *(const gint64 *)b;
	return (x > y) - (x < y);
}

void ftl_pctl_store_sort(FtlPctlStore *s, guint64 count)
{
	if (count > 1 && count <= FTL_PCTL_EXACT_MAX)
		g_array_sort(s->exact, pctl_i64_cmp);
}

void ftl_pctl_store_clear(FtlPctlStore *s, guint64 count)
{
	if (count > FTL_PCTL_EXACT_MAX)
		g_clear_pointer(&s->hist, g_free);
	else if (count > 1)
		g_clear_pointer(&s->exact, g_array_unref);
}

gsize ftl_pctl_store_size(const FtlPctlStore *s, guint64 count)
{
	if (count > FTL_PCTL_EXACT_MAX)
		return sizeof *s->hist + s->hist->n * sizeof s->hist->count[0];
	if (count > 1)
		return sizeof(GArray) + s->exact->len * sizeof(gint64);
	return 0;
}

gint64 ftl_pctl_store_value(const FtlPctlStore *s, guint64 count, gint64 min, gint64 max,
			    guint pct)
{
	guint64 rank = ftl_pctl_rank(count, pct);
	if (!rank)
		return FTL_TS_NONE;
	/* the extremes are known exactly, whatever the store */
	if (rank == 1)
		return min;
	if (rank == count)
		return max;
	if (count <= FTL_PCTL_EXACT_MAX)
		return g_array_index(s->exact, gint64, rank - 1);
	guint64 seen = 0;
	for (guint i = 0; i < s->hist->n; i++) {
		seen += s->hist->count[i];
		if (seen >= rank)
			return pctl_bucket_value(s->hist->lo + i, min, max);
	}
	return max;
}

gboolean ftl_pctl_store_next_bucket(const FtlPctlStore *s, guint64 count, gint64 min,
				    guint *pos, gint64 *lo, gint64 *hi, guint64 *n)
{
	if (count == 0)
		return FALSE;
	if (count == 1) {
		if (*pos)
			return FALSE;
		pctl_bucket_bounds(pctl_bucket(min), lo, hi);
		*n = 1;
		*pos = 1;
		return TRUE;
	}
	if (count <= FTL_PCTL_EXACT_MAX) {
		/* sorted: a bucket is a run of the array */
		const GArray *a = s->exact;
		if (*pos >= a->len)
			return FALSE;
		guint b = pctl_bucket(g_array_index(a, gint64, *pos)), k = 0;
		while (*pos < a->len && pctl_bucket(g_array_index(a, gint64, *pos)) == b)
			(*pos)++, k++;
		pctl_bucket_bounds(b, lo, hi);
		*n = k;
		return TRUE;
	}
	for (guint i = *pos; i < s->hist->n; i++) {
		if (!s->hist->count[i])
			continue;
		pctl_bucket_bounds(s->hist->lo + i, lo, hi);
		*n = s->hist->count[i];
		*pos = i + 1;
		return TRUE;
	}
	*pos = s->hist->n;
	return FALSE;
}

gboolean ftl_pctl_store_next_value(const FtlPctlStore *s, guint64 count, gint64 min, gint64 max,
				   guint *pos, gint64 *v, guint64 *n)
{
	if (count == 0)
		return FALSE;
	if (count == 1) {
		if (*pos)
			return FALSE;
		*v = min;
		*n = 1;
		*pos = 1;
		return TRUE;
	}
	if (count <= FTL_PCTL_EXACT_MAX) {
		const GArray *a = s->exact;
		if (*pos >= a->len)
			return FALSE;
		*v = g_array_index(a, gint64, *pos);
		guint k = 0;
		while (*pos < a->len && g_array_index(a, gint64, *pos) == *v)
			(*pos)++, k++;
		*n = k;
		return TRUE;
	}
	for (guint i = *pos; i < s->hist->n; i++) {
		if (!s->hist->count[i])
			continue;
		*v = pctl_bucket_value(s->hist->lo + i, min, max);
		*n = s->hist->count[i];
		*pos = i + 1;
		return TRUE;
	}
	*pos = s->hist->n;
	return FALSE;
}
