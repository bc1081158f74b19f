/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Per-function statistics with a log-linear duration histogram per row. */
#include "analysis/funcstats.h"

#include <string.h>

/* Durations below 2^HIST_SUB_BITS ns are exact; above, each power of two is
 * split into 2^HIST_SUB_BITS buckets (relative error <= 1/32). */
#define HIST_SUB_BITS 5
#define HIST_SUB      (1u << HIST_SUB_BITS)

/* Up to this many durations are kept as they are, so percentiles of the
 * functions with few calls are exact; past it the histogram takes over. */
#define EXACT_MAX 256

#define ROW_SLAB 1024

/* The buckets lo .. lo + n - 1 of the histogram, the only ones a function's
 * calls reached so far: its durations span a few powers of two, and the whole
 * histogram (7.5 KiB) per busy function added up to tens of MiB. */
typedef struct {
	guint16 lo, n;
	guint32 count[];
} StatHist;

typedef struct {
	FtlFuncStat st;
	/* by st.timed: none for 0 or 1 (its duration is min_ns), the GArray of
	 * gint64 durations for 2..EXACT_MAX, then the histogram */
	union {
		GArray *exact;
		StatHist *hist;
	};
} StatRow;

#define ROW_CACHE_BITS 10

struct _FtlFuncStats {
	FtlFuncStatsKey key;
	GHashTable *rows; /* key struct (func, cpu, pid) -> StatRow* (key is &row->st) */
	GPtrArray *sorted;
	/* rows are carved from slabs of ROW_SLAB: one malloc per row would add
	 * its header and rounding to each of a million once-called names */
	GPtrArray *slabs;
	guint slab_used;
	/* direct-mapped cache in front of rows: a few hundred hot functions
	 * make most calls, and a probe is cheaper than the table's lookup */
	StatRow *cache[1u << ROW_CACHE_BITS];
};

static guint funcstats_hash(gconstpointer p)
{
	const FtlFuncStat *s = p;
	return g_direct_hash(s->func) ^ ((guint)s->cpu * 2654435761u) ^ ((guint)s->pid * 40503u);
}

static gboolean funcstats_equal(gconstpointer a, gconstpointer b)
{
	const FtlFuncStat *x = a, *y = b;
	return x->func == y->func && x->cpu == y->cpu && x->pid == y->pid;
}

static void funcstats_row_free(gpointer p)
{
	StatRow *r = p;
	if (r->st.timed > EXACT_MAX)
		g_clear_pointer(&r->hist, g_free);
	else if (r->exact)
		g_clear_pointer(&r->exact, g_array_unref);
}

FtlFuncStats *ftl_funcstats_new(FtlFuncStatsKey key)
{
	FtlFuncStats *s = g_new0(FtlFuncStats, 1);
	s->key = key;
	s->rows = g_hash_table_new_full(funcstats_hash, funcstats_equal, NULL, funcstats_row_free);
	s->slabs = g_ptr_array_new_with_free_func(g_free);
	s->slab_used = ROW_SLAB;
	return s;
}

void ftl_funcstats_free(FtlFuncStats *s)
{
	if (!s)
		return;
	g_hash_table_destroy(s->rows);
	g_ptr_array_unref(s->slabs);
	if (s->sorted)
		g_ptr_array_unref(s->sorted);
	g_free(s);
}

static guint funcstats_bucket(gint64 ns)
{
	guint64 v = ns < 0 ? 0 : (guint64)ns;
	if (v < HIST_SUB)
		return (guint)v;
	guint e = 63 - (guint)__builtin_clzll(v); /* v >= HIST_SUB so e >= HIST_SUB_BITS */
	guint sub = (guint)(v >> (e - HIST_SUB_BITS)) & (HIST_SUB - 1);
	return (e - HIST_SUB_BITS + 1) * HIST_SUB + sub;
}

static void funcstats_bucket_bounds(guint b, gint64 *lo, gint64 *hi)
{
	if (b < HIST_SUB) {
		*lo = b;
		*hi = b + 1;
		return;
	}
	guint e = b / HIST_SUB + HIST_SUB_BITS - 1, sub = b % HIST_SUB;
	guint64 l = ((guint64)(HIST_SUB + sub)) << (e - HIST_SUB_BITS);
	guint64 h = l + ((guint64)1 << (e - HIST_SUB_BITS));
	*lo = (gint64)l;
	*hi = h > (guint64)G_MAXINT64 ? G_MAXINT64 : (gint64)h;
}

/* The middle of a bucket's range. */
static gint64 funcstats_bucket_value(guint b)
{
	gint64 lo, hi;
	funcstats_bucket_bounds(b, &lo, &hi);
	return lo + (hi - lo) / 2;
}

/* Counts a call in bucket b, widening the histogram's range to reach it. */
static void funcstats_hist_add(StatHist **hp, guint b)
{
	StatHist *h = *hp;
	if (!h || b < h->lo || b >= (guint)h->lo + h->n) {
		guint lo = h ? MIN(h->lo, b) : b, hi = h ? MAX((guint)h->lo + h->n, b + 1) : b + 1;
		StatHist *w = g_malloc0(sizeof *w + (hi - lo) * sizeof w->count[0]);
		w->lo = (guint16)lo;
		w->n = (guint16)(hi - lo);
		if (h)
			memcpy(w->count + (h->lo - lo), h->count, h->n * sizeof h->count[0]);
		g_free(h);
		*hp = h = w;
	}
	h->count[b - h->lo]++;
}

static StatRow *funcstats_row(FtlFuncStats *s, const char *func, gint32 cpu, gint32 pid)
{
	FtlFuncStat probe = { .func = func,
			      .cpu = s->key == FTL_FUNCSTATS_BY_CPU ? cpu : -1,
			      .pid = s->key == FTL_FUNCSTATS_BY_TASK ? pid : -1 };
	StatRow **slot = &s->cache[(funcstats_hash(&probe) * 2654435769u) >> (32 - ROW_CACHE_BITS)];
	if (*slot && funcstats_equal(&(*slot)->st, &probe))
		return *slot;
	StatRow *r = g_hash_table_lookup(s->rows, &probe);
	if (!r) {
		if (s->slab_used == ROW_SLAB) {
			g_ptr_array_add(s->slabs, g_new0(StatRow, ROW_SLAB));
			s->slab_used = 0;
		}
		r = (StatRow *)g_ptr_array_index(s->slabs, s->slabs->len - 1) + s->slab_used++;
		r->st = probe;
		r->st.min_ns = r->st.max_ns = FTL_TS_NONE;
		r->st.first_ts = r->st.last_ts = FTL_TS_NONE;
		g_hash_table_add(s->rows, r);
	}
	*slot = r;
	return r;
}

void ftl_funcstats_add_call(const FtlCall *call, gpointer data)
{
	FtlFuncStats *s = data;
	StatRow *r = funcstats_row(s, call->func, call->cpu, call->pid);
	FtlFuncStat *st = &r->st;
	st->calls++;
	if (call->flags & (FTL_CALL_F_ORPHAN | FTL_CALL_F_OPEN | FTL_CALL_F_REPAIRED))
		st->flagged++;
	if (call->duration == FTL_TS_NONE)
		return;
	st->timed++;
	/* a recursive call's time is already inside its outer instance */
	if (!(call->flags & FTL_CALL_F_RECURSIVE))
		st->total_ns += call->duration;
	st->self_ns += call->self;
	if (st->min_ns == FTL_TS_NONE || call->duration < st->min_ns)
		st->min_ns = call->duration;
	if (st->max_ns == FTL_TS_NONE || call->duration > st->max_ns)
		st->max_ns = call->duration;
	if (call->entry_ts != FTL_TS_NONE) {
		if (st->first_ts == FTL_TS_NONE || call->entry_ts < st->first_ts)
			st->first_ts = call->entry_ts;
		if (st->last_ts == FTL_TS_NONE || call->entry_ts + call->duration > st->last_ts)
			st->last_ts = call->entry_ts + call->duration;
	}
	/* one timed call needs no store: its duration is min_ns (most names of
	 * a trace of a million distinct functions are called once) */
	if (st->timed == 1)
		return;
	if (st->timed <= EXACT_MAX) {
		if (!r->exact) {
			gint64 first = st->min_ns == call->duration ? st->max_ns : st->min_ns;
			r->exact = g_array_sized_new(FALSE, FALSE, sizeof(gint64), 4);
			g_array_append_val(r->exact, first);
		}
		g_array_append_val(r->exact, call->duration);
		return;
	}
	/* The histogram only for rows past the exact store: most functions of a
	 * trace are called a few times, and a trace of a million distinct names
	 * must not cost a histogram each. */
	if (st->timed == EXACT_MAX + 1) {
		StatHist *hist = NULL;
		/* min and max first: the range is set once, not widened per call */
		funcstats_hist_add(&hist, funcstats_bucket(st->min_ns));
		funcstats_hist_add(&hist, funcstats_bucket(st->max_ns));
		hist->count[0]--;
		hist->count[hist->n - 1]--;
		for (guint i = 0; i < r->exact->len; i++)
			funcstats_hist_add(&hist,
					   funcstats_bucket(g_array_index(r->exact, gint64, i)));
		g_array_unref(r->exact);
		r->hist = hist;
	}
	funcstats_hist_add(&r->hist, funcstats_bucket(call->duration));
}

void ftl_funcstats_feed(FtlFuncStats *s, const FtlEvent *ev)
{
	if (ev->kind != FTL_EVENT_FUNC)
		return;
	/* "(repeats: N)" stands for N more calls of the same function; a
	 * function a damaged raw record names by no symbol counts as one
	 * "(unknown)" (every view sorts and joins by the name) */
	const char *func = ev->u.fn.func ? ev->u.fn.func : "(unknown)";
	StatRow *r = funcstats_row(s, func, ev->cpu, ev->pid);
	r->st.calls += 1 + ev->u.fn.repeats;
}

static gint funcstats_i64_cmp(gconstpointer a, gconstpointer b)
{
	gint64 x = *(const gint64 *)a, y = *(const gint64 *)b;
	return (x > y) - (x < y);
}

/* Nearest rank: the smallest value with at least q of the calls at or below. */
static gint64 funcstats_percentile(const StatRow *r, double q)
{
	guint64 want = (guint64)(q * (double)r->st.timed + 0.999999);
	if (want == 0)
		want = 1;
	if (r->st.timed == 1)
		return r->st.min_ns;
	if (r->st.timed <= EXACT_MAX)
		return g_array_index(r->exact, gint64, want - 1);
	guint64 seen = 0;
	for (guint i = 0; i < r->hist->n; i++) {
		seen += r->hist->count[i];
		if (seen >= want) {
			gint64 v = funcstats_bucket_value(r->hist->lo + i);
			return CLAMP(v, r->st.min_ns, r->st.max_ns);
		}
	}
	return r->st.max_ns;
}

void ftl_funcstats_finish(FtlFuncStats *s)
{
	GHashTableIter it;
	gpointer v;
	g_hash_table_iter_init(&it, s->rows);
	while (g_hash_table_iter_next(&it, &v, NULL)) {
		StatRow *r = v;
		FtlFuncStat *st = &r->st;
		if (st->timed) {
			if (st->timed > 1 && st->timed <= EXACT_MAX)
				g_array_sort(r->exact, funcstats_i64_cmp);
			st->avg_ns = st->total_ns / (gint64)st->timed;
			st->p50_ns = funcstats_percentile(r, 0.50);
			st->p95_ns = funcstats_percentile(r, 0.95);
			st->p99_ns = funcstats_percentile(r, 0.99);
		} else {
			st->avg_ns = st->p50_ns = st->p95_ns = st->p99_ns = FTL_TS_NONE;
		}
		/* the stores stay until free: ftl_funcstats_next_bucket() reads
		 * them (the pass held them all anyway, so the peak is the same) */
	}
}

gboolean ftl_funcstats_next_bucket(const FtlFuncStats *s, const FtlFuncStat *st, guint *pos,
				   gint64 *lo, gint64 *hi, guint64 *count)
{
	(void)s;
	const StatRow *r = (const StatRow *)st; /* st is a row's first member */
	if (st->timed == 0)
		return FALSE;
	if (st->timed == 1) {
		if (*pos)
			return FALSE;
		funcstats_bucket_bounds(funcstats_bucket(st->min_ns), lo, hi);
		*count = 1;
		*pos = 1;
		return TRUE;
	}
	if (st->timed <= EXACT_MAX) {
		/* sorted by finish: a bucket is a run of the array */
		const GArray *a = r->exact;
		if (*pos >= a->len)
			return FALSE;
		guint b = funcstats_bucket(g_array_index(a, gint64, *pos)), n = 0;
		while (*pos < a->len && funcstats_bucket(g_array_index(a, gint64, *pos)) == b)
			(*pos)++, n++;
		funcstats_bucket_bounds(b, lo, hi);
		*count = n;
		return TRUE;
	}
	for (guint i = *pos; i < r->hist->n; i++) {
		if (!r->hist->count[i])
			continue;
		funcstats_bucket_bounds(r->hist->lo + i, lo, hi);
		*count = r->hist->count[i];
		*pos = i + 1;
		return TRUE;
	}
	*pos = r->hist->n;
	return FALSE;
}

static gint funcstats_cmp(gconstpointer a, gconstpointer b, gpointer data)
{
	const FtlFuncStat *x = *(const FtlFuncStat *const *)a, *y = *(const FtlFuncStat *const *)b;
	gint64 vx = 0, vy = 0;
	switch (*(const FtlFuncStatsSort *)data) {
	case FTL_FUNCSTATS_SORT_SELF:
		vx = x->self_ns, vy = y->self_ns;
		break;
	case FTL_FUNCSTATS_SORT_TOTAL:
		vx = x->total_ns, vy = y->total_ns;
		break;
	case FTL_FUNCSTATS_SORT_CALLS:
		vx = (gint64)x->calls, vy = (gint64)y->calls;
		break;
	case FTL_FUNCSTATS_SORT_AVG:
		vx = x->avg_ns, vy = y->avg_ns;
		break;
	case FTL_FUNCSTATS_SORT_MAX:
		vx = x->max_ns, vy = y->max_ns;
		break;
	case FTL_FUNCSTATS_SORT_NAME:
		break;
	}
	if (vx != vy)
		return vx > vy ? -1 : 1;
	gint c = strcmp(x->func, y->func);
	if (c)
		return c;
	if (x->cpu != y->cpu)
		return x->cpu < y->cpu ? -1 : 1;
	return (x->pid > y->pid) - (x->pid < y->pid);
}

GPtrArray *ftl_funcstats_sorted(FtlFuncStats *s, FtlFuncStatsSort sort)
{
	if (!s->sorted) {
		s->sorted = g_ptr_array_sized_new(g_hash_table_size(s->rows));
		GHashTableIter it;
		gpointer v;
		g_hash_table_iter_init(&it, s->rows);
		while (g_hash_table_iter_next(&it, &v, NULL))
			g_ptr_array_add(s->sorted, &((StatRow *)v)->st);
	}
	g_ptr_array_sort_with_data(s->sorted, funcstats_cmp, &sort);
	return s->sorted;
}

guint ftl_funcstats_n_rows(const FtlFuncStats *s)
{
	return g_hash_table_size(s->rows);
}

const FtlFuncStat *ftl_funcstats_lookup(const FtlFuncStats *s, const char *func)
{
	FtlFuncStat probe = { .func = func, .cpu = -1, .pid = -1 };
	StatRow *r = g_hash_table_lookup(s->rows, &probe);
	return r ? &r->st : NULL;
}

static const char *const funcstats_sort_names[] = { "self", "total", "calls",
						     "avg",  "max",   "name" };

const char *ftl_funcstats_sort_name(FtlFuncStatsSort sort)
{
	return (guint)sort < G_N_ELEMENTS(funcstats_sort_names) ? funcstats_sort_names[sort] : "?";
}

gboolean ftl_funcstats_parse_sort(const char *text, FtlFuncStatsSort *out)
{
	for (guint i = 0; i < G_N_ELEMENTS(funcstats_sort_names); i++)
		if (!g_strcmp0(text, funcstats_sort_names[i])) {
			*out = (FtlFuncStatsSort)i;
			return TRUE;
		}
	return FALSE;
}

FTL_CONSUMER_DEFINE(funcstats, FtlFuncStats);
