/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Event rate over time per CPU or per event name, in bounded memory. */
#include "analysis/rate.h"

#include <string.h>

#include "analysis/timebins.h"
#include "util/timefmt.h"

typedef struct {
	char *name;
	gint32 cpu;	/* FTL_RATE_BY_CPU: the CPU (-1 unknown) */
	guint bins;	/* its lane in the time bins */
	guint64 total;
} RateLane;

struct _FtlRate {
	FtlRateBy by;
	FtlTimeBins *tb;
	guint n_bins; /* at most, after finish */
	GHashTable *index; /* event name or GINT_TO_POINTER(cpu + 1) -> lane + 1 */
	GPtrArray *lanes;  /* RateLane, sorted at finish */
	gint64 last_ts;
};

static void rate_merge(gpointer dst, gconstpointer src)
{
	*(guint64 *)dst += *(const guint64 *)src;
}

static void rate_lane_free(gpointer p)
{
	RateLane *l = p;
	g_free(l->name);
	g_free(l);
}

FtlRate *ftl_rate_new(FtlRateBy by, guint n_bins)
{
	FtlRate *r = g_new0(FtlRate, 1);
	r->by = by;
	/* round bins, five times finer while reading: fit to n_bins at finish */
	r->n_bins = MAX(n_bins, 1);
	r->tb = ftl_timebins_new(r->n_bins * 5, sizeof(guint64), rate_merge);
	ftl_timebins_set_round(r->tb);
	r->index = by == FTL_RATE_BY_EVENT ? g_hash_table_new(g_str_hash, g_str_equal)
					   : g_hash_table_new(NULL, NULL);
	r->lanes = g_ptr_array_new_with_free_func(rate_lane_free);
	r->last_ts = FTL_TS_NONE;
	return r;
}

void ftl_rate_free(FtlRate *r)
{
	if (!r)
		return;
	ftl_timebins_free(r->tb);
	g_hash_table_unref(r->index);
	g_ptr_array_unref(r->lanes);
	g_free(r);
}

static RateLane *rate_lane(FtlRate *r, const FtlEvent *ev)
{
	gboolean by_cpu = r->by == FTL_RATE_BY_CPU;
	const char *name = ev->name ? ev->name : ftl_event_kind_name(ev->kind);
	gconstpointer key = by_cpu ? GINT_TO_POINTER(MAX(ev->cpu, -1) + 1) : (gconstpointer)name;
	guint i = GPOINTER_TO_UINT(g_hash_table_lookup(r->index, key));
	if (i)
		return g_ptr_array_index(r->lanes, i - 1);
	RateLane *l = g_new0(RateLane, 1);
	l->cpu = by_cpu ? MAX(ev->cpu, -1) : -1;
	l->name = by_cpu ? (l->cpu < 0 ? g_strdup("CPU ?") : g_strdup_printf("CPU %d", l->cpu))
			 : g_strdup(name);
	l->bins = r->lanes->len;
	g_ptr_array_add(r->lanes, l);
	/* the key outlives the trace's pool: the lane's own copy of the name */
	g_hash_table_insert(r->index, by_cpu ? (gpointer)key : l->name,
			    GUINT_TO_POINTER(r->lanes->len));
	return l;
}

void ftl_rate_feed(FtlRate *r, const FtlEvent *ev)
{
	if (ev->ts == FTL_TS_NONE || (ev->flags & FTL_EVENT_F_SYNTH) ||
	    ev->kind == FTL_EVENT_LOST || ev->kind == FTL_EVENT_BUFFER_START)
		return;
	RateLane *l = rate_lane(r, ev);
	ftl_timebins_cover(r->tb, ev->ts);
	guint64 *n = ftl_timebins_get(r->tb, l->bins, ftl_timebins_index(r->tb, ev->ts));
	(*n)++;
	l->total++;
	if (r->last_ts == FTL_TS_NONE || ev->ts > r->last_ts)
		r->last_ts = ev->ts;
}

static int rate_lane_cmp(gconstpointer a, gconstpointer b)
{
	const RateLane *x = *(RateLane *const *)a, *y = *(RateLane *const *)b;
	if (x->cpu != y->cpu)
		return x->cpu < y->cpu ? -1 : 1;
	if (x->total != y->total)
		return x->total > y->total ? -1 : 1;
	return strcmp(x->name, y->name);
}

void ftl_rate_finish(FtlRate *r)
{
	/* by event every lane's cpu is -1: the order is by count, then name */
	g_ptr_array_sort(r->lanes, rate_lane_cmp);
	ftl_timebins_fit(r->tb, r->n_bins);
}

FTL_CONSUMER_DEFINE(rate, FtlRate);

gint64 ftl_rate_origin(const FtlRate *r)
{
	return ftl_timebins_origin(r->tb);
}

gint64 ftl_rate_width(const FtlRate *r)
{
	return ftl_timebins_width(r->tb);
}

guint ftl_rate_n_bins(const FtlRate *r)
{
	return ftl_timebins_n_used(r->tb);
}

gint64 ftl_rate_last_ts(const FtlRate *r)
{
	return r->last_ts;
}

guint ftl_rate_n_lanes(const FtlRate *r)
{
	return r->lanes->len;
}

const char *ftl_rate_lane_name(const FtlRate *r, guint i)
{
	return ((const RateLane *)g_ptr_array_index(r->lanes, i))->name;
}

guint64 ftl_rate_lane_total(const FtlRate *r, guint i)
{
	return ((const RateLane *)g_ptr_array_index(r->lanes, i))->total;
}

guint64 ftl_rate_count(const FtlRate *r, guint i, guint bin)
{
	const RateLane *l = g_ptr_array_index(r->lanes, i);
	return *(const guint64 *)ftl_timebins_get(r->tb, l->bins, bin);
}
