/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Per-function statistics with the durations behind each row's percentiles. */
#include "analysis/funcstats.h"

#include <string.h>

#include "analysis/pctl.h"
#include "util/checked.h"
#include "util/forkgate.h"

#define ROW_SLAB 1024

typedef struct {
	FtlFuncStat st;
	/* the timed durations (analysis/pctl.h), by st.timed: none for 0 or
	 * 1 (its duration is min_ns), the exact ones, then the histogram */
	FtlPctlStore durations;
} StatRow;

#define ROW_CACHE_BITS 10

/* A finished call as the statistics read it: what the call tree's thread
 * hands to a worker (FtlCall's node and line stay behind). */
typedef struct {
	const char *func;
	gint32 cpu, pid;
	guint32 flags;
	gint64 entry_ts, duration, self;
} StatCall;

/* Calls a worker takes at a time, and batches alive at most per worker: the
 * call tree's thread waits for a free batch rather than let them pile up. */
#define BATCH_CALLS   4096
#define BATCH_PER_WORKER 3

typedef struct {
	guint n;
	StatCall call[BATCH_CALLS];
} StatBatch;

/* The workers of ftl_funcstats_set_threads(): each batch goes to whichever
 * partial statistics are free, and finish merges the partials. Every figure
 * is a sum, a minimum, a maximum or a multiset of durations, so the merge
 * gives what one thread adding every call in order gives. */
typedef struct {
	GThreadPool *pool;
	GAsyncQueue *idle_parts; /* FtlFuncStats * no worker holds */
	GAsyncQueue *free_batches;
	GPtrArray *parts;  /* all of them, owned */
	GPtrArray *batches; /* all of them, owned */
	StatBatch *fill; /* the batch add_call fills, NULL until the first call */
} StatWorkers;

struct _FtlFuncStats {
	FtlFuncStatsKey key;
	StatWorkers *workers; /* NULL: calls are added on the caller's thread, */
	StatBatch *local;     /* a batch at a time */
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
	ftl_pctl_store_clear(&r->durations, r->st.timed);
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

static void funcstats_workers_end(FtlFuncStats *s, gboolean merge);

void ftl_funcstats_free(FtlFuncStats *s)
{
	if (!s)
		return;
	funcstats_workers_end(s, FALSE);
	g_free(s->local);
	g_hash_table_destroy(s->rows);
	g_ptr_array_unref(s->slabs);
	if (s->sorted)
		g_ptr_array_unref(s->sorted);
	g_free(s);
}

/* The key of a call's row, and the slot of the row cache it is kept in. */
static inline StatRow **funcstats_slot(FtlFuncStats *s, FtlFuncStat *probe, const char *func,
				       gint32 cpu, gint32 pid)
{
	*probe = (FtlFuncStat){ .func = func,
				.cpu = s->key == FTL_FUNCSTATS_BY_CPU ? cpu : -1,
				.pid = s->key == FTL_FUNCSTATS_BY_TASK ? pid : -1 };
	return &s->cache[(funcstats_hash(probe) * 2654435769u) >> (32 - ROW_CACHE_BITS)];
}

static StatRow *funcstats_row(FtlFuncStats *s, const char *func, gint32 cpu, gint32 pid)
{
	FtlFuncStat probe;
	StatRow **slot = funcstats_slot(s, &probe, func, cpu, pid);
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

/* Adds one finished call to its row r, on whichever thread owns the row. */
static void funcstats_add_row(StatRow *r, const StatCall *call)
{
	FtlFuncStat *st = &r->st;
	st->calls++;
	if (call->flags & (FTL_CALL_F_ORPHAN | FTL_CALL_F_OPEN | FTL_CALL_F_REPAIRED))
		st->flagged++;
	if (call->duration == FTL_TS_NONE)
		return;
	st->timed++;
	/* a recursive call's time is already inside its outer instance */
	/* sums of durations from the trace: saturated, never wrapped negative */
	if (!(call->flags & FTL_CALL_F_RECURSIVE))
		st->total_ns = ftl_sat_add_i64(st->total_ns, call->duration);
	st->self_ns = ftl_sat_add_i64(st->self_ns, call->self);
	if (st->min_ns == FTL_TS_NONE || call->duration < st->min_ns)
		st->min_ns = call->duration;
	if (st->max_ns == FTL_TS_NONE || call->duration > st->max_ns)
		st->max_ns = call->duration;
	if (call->entry_ts != FTL_TS_NONE) {
		if (st->first_ts == FTL_TS_NONE || call->entry_ts < st->first_ts)
			st->first_ts = call->entry_ts;
		gint64 end = ftl_sat_add_i64(call->entry_ts, call->duration);
		if (st->last_ts == FTL_TS_NONE || end > st->last_ts)
			st->last_ts = end;
	}
	ftl_pctl_store_add(&r->durations, st->timed, st->min_ns, st->max_ns, call->duration);
}

/* How far ahead of the call being added its row is fetched (through the
 * row cache), found, and the histogram bucket it will count fetched; a ring
 * holds the rows found and not yet added to. */
#define AHEAD_ROW    24
#define AHEAD_FIND   16
#define AHEAD_BUCKET 8
#define AHEAD_RING   32 /* a power of two above AHEAD_FIND */

/* Fetches the row a call will be added to, when the row cache names it. */
static inline void funcstats_prefetch_row(FtlFuncStats *s, const StatCall *call)
{
	FtlFuncStat probe;
	__builtin_prefetch(*funcstats_slot(s, &probe, call->func, call->cpu, call->pid));
}

/* Adds a batch of calls to s, as adding them one by one in order would. A worker
 * is bound by cache misses, not instructions: the rows of thousands of
 * functions and their histograms are all over memory, and each call touches
 * a row, a histogram's header and one of its buckets, each a miss that
 * depends on the one before. So the calls are added in a pipeline: the row
 * of a call further on is fetched, a nearer one's row is found and its
 * histogram's header fetched, a nearer one's bucket fetched. */
static void funcstats_add_batch(FtlFuncStats *s, const StatCall *call, guint n)
{
	G_STATIC_ASSERT(AHEAD_RING > AHEAD_FIND && (AHEAD_RING & (AHEAD_RING - 1)) == 0);
	StatRow *ring[AHEAD_RING];
	for (guint i = 0; i < MIN(n, AHEAD_FIND); i++)
		ring[i] = funcstats_row(s, call[i].func, call[i].cpu, call[i].pid);
	for (guint i = 0; i < n; i++) {
		if (i + AHEAD_ROW < n)
			funcstats_prefetch_row(s, &call[i + AHEAD_ROW]);
		if (i + AHEAD_FIND < n) {
			const StatCall *c = &call[i + AHEAD_FIND];
			StatRow *r = funcstats_row(s, c->func, c->cpu, c->pid);
			ring[(i + AHEAD_FIND) % AHEAD_RING] = r;
			ftl_pctl_store_prefetch(&r->durations, r->st.timed, FTL_TS_NONE);
		}
		if (i + AHEAD_BUCKET < n) {
			const StatRow *r = ring[(i + AHEAD_BUCKET) % AHEAD_RING];
			ftl_pctl_store_prefetch(&r->durations, r->st.timed,
						call[i + AHEAD_BUCKET].duration);
		}
		funcstats_add_row(ring[i % AHEAD_RING], &call[i]);
	}
}

static void funcstats_worker(gpointer data, gpointer user_data)
{
	StatBatch *b = data;
	StatWorkers *w = user_data;
	FtlFuncStats *part = g_async_queue_pop(w->idle_parts);
	ftl_fork_gate_enter();
	funcstats_add_batch(part, b->call, b->n);
	ftl_fork_gate_leave();
	g_async_queue_push(w->idle_parts, part);
	b->n = 0;
	g_async_queue_push(w->free_batches, b);
}

void ftl_funcstats_set_threads(FtlFuncStats *s, guint threads)
{
	g_return_if_fail(!s->workers && g_hash_table_size(s->rows) == 0);
	if (threads < 2)
		return;
	guint n = threads - 1; /* the caller's thread makes the calls */
	StatWorkers *w = g_new0(StatWorkers, 1);
	w->idle_parts = g_async_queue_new();
	w->free_batches = g_async_queue_new();
	w->parts = g_ptr_array_new_with_free_func((GDestroyNotify)ftl_funcstats_free);
	w->batches = g_ptr_array_new_with_free_func(g_free);
	for (guint i = 0; i < n; i++) {
		FtlFuncStats *part = ftl_funcstats_new(s->key);
		g_ptr_array_add(w->parts, part);
		g_async_queue_push(w->idle_parts, part);
	}
	for (guint i = 0; i < n * BATCH_PER_WORKER; i++) {
		StatBatch *b = g_new(StatBatch, 1);
		b->n = 0;
		g_ptr_array_add(w->batches, b);
		g_async_queue_push(w->free_batches, b);
	}
	/* not exclusive: a thread starts with the first batch, so a small
	 * trace starts none */
	w->pool = g_thread_pool_new(funcstats_worker, w, (gint)n, FALSE, NULL);
	s->workers = w;
}

void ftl_funcstats_add_call(const FtlCall *call, gpointer data)
{
	FtlFuncStats *s = data;
	StatCall c = { .func = call->func,
		       .cpu = call->cpu,
		       .pid = call->pid,
		       .flags = call->flags,
		       .entry_ts = call->entry_ts,
		       .duration = call->duration,
		       .self = call->self };
	StatWorkers *w = s->workers;
	if (!w) {
		if (!s->local) {
			s->local = g_new(StatBatch, 1);
			s->local->n = 0;
		}
		s->local->call[s->local->n++] = c;
		if (s->local->n == BATCH_CALLS) {
			funcstats_add_batch(s, s->local->call, s->local->n);
			s->local->n = 0;
		}
		return;
	}
	if (!w->fill)
		w->fill = g_async_queue_pop(w->free_batches);
	w->fill->call[w->fill->n++] = c;
	if (w->fill->n == BATCH_CALLS) {
		g_thread_pool_push(w->pool, w->fill, NULL);
		w->fill = NULL;
	}
}

/* Merges src's durations into dst's store, as if dst had been given src's
 * calls: before the rows' counts and minima are merged (a row of one timed
 * call keeps its duration as its minimum). The store depends only on the
 * multiset of durations (the exact store is sorted by finish, a histogram
 * spans the buckets of the smallest and the largest), so the order of the
 * calls does not show. */
static void funcstats_merge_store(StatRow *dst, const StatRow *src)
{
	ftl_pctl_store_merge(&dst->durations, dst->st.timed, dst->st.min_ns, &src->durations,
			     src->st.timed, src->st.min_ns);
}

static gint64 funcstats_min_ts(gint64 a, gint64 b)
{
	return a == FTL_TS_NONE ? b : b == FTL_TS_NONE ? a : MIN(a, b);
}

static gint64 funcstats_max_ts(gint64 a, gint64 b)
{
	return a == FTL_TS_NONE ? b : b == FTL_TS_NONE ? a : MAX(a, b);
}

/* Merges a partial's rows into s (finish: no worker runs). */
static void funcstats_merge(FtlFuncStats *s, FtlFuncStats *part)
{
	GHashTableIter it;
	gpointer v;
	g_hash_table_iter_init(&it, part->rows);
	while (g_hash_table_iter_next(&it, &v, NULL)) {
		const StatRow *src = v;
		StatRow *dst = funcstats_row(s, src->st.func, src->st.cpu, src->st.pid);
		FtlFuncStat *d = &dst->st;
		const FtlFuncStat *x = &src->st;
		funcstats_merge_store(dst, src);
		d->calls = ftl_sat_add_u64(d->calls, x->calls);
		d->flagged = ftl_sat_add_u64(d->flagged, x->flagged);
		d->timed = ftl_sat_add_u64(d->timed, x->timed);
		d->total_ns = ftl_sat_add_i64(d->total_ns, x->total_ns);
		d->self_ns = ftl_sat_add_i64(d->self_ns, x->self_ns);
		d->min_ns = funcstats_min_ts(d->min_ns, x->min_ns);
		d->max_ns = funcstats_max_ts(d->max_ns, x->max_ns);
		d->first_ts = funcstats_min_ts(d->first_ts, x->first_ts);
		d->last_ts = funcstats_max_ts(d->last_ts, x->last_ts);
	}
}

/* Exchanges a's rows with b's (their caches forget them). */
static void funcstats_swap_rows(FtlFuncStats *a, FtlFuncStats *b)
{
	GHashTable *rows = a->rows;
	GPtrArray *slabs = a->slabs;
	guint used = a->slab_used;
	a->rows = b->rows, a->slabs = b->slabs, a->slab_used = b->slab_used;
	b->rows = rows, b->slabs = slabs, b->slab_used = used;
	memset(a->cache, 0, sizeof a->cache);
	memset(b->cache, 0, sizeof b->cache);
}

static void funcstats_workers_end(FtlFuncStats *s, gboolean merge)
{
	StatWorkers *w = s->workers;
	if (!w)
		return;
	if (w->fill && w->fill->n && merge)
		g_thread_pool_push(w->pool, w->fill, NULL);
	g_thread_pool_free(w->pool, FALSE, TRUE); /* runs what is queued, then waits */
	for (guint i = 0; merge && i < w->parts->len; i++) {
		FtlFuncStats *part = g_ptr_array_index(w->parts, i);
		if (g_hash_table_size(s->rows) == 0) {
			/* s takes the partial's rows as they are (what a merge
			 * into nothing gives), so -j 2 holds one set of rows */
			funcstats_swap_rows(s, part);
			continue;
		}
		funcstats_merge(s, part);
	}
	g_ptr_array_unref(w->parts);
	g_ptr_array_unref(w->batches);
	g_async_queue_unref(w->idle_parts);
	g_async_queue_unref(w->free_batches);
	g_free(w);
	s->workers = NULL;
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
	r->st.calls = ftl_sat_add_u64(r->st.calls, 1 + (guint64)ev->u.fn.repeats);
}

void ftl_funcstats_finish(FtlFuncStats *s)
{
	if (s->local) {
		funcstats_add_batch(s, s->local->call, s->local->n);
		g_clear_pointer(&s->local, g_free);
	}
	funcstats_workers_end(s, TRUE);
	GHashTableIter it;
	gpointer v;
	g_hash_table_iter_init(&it, s->rows);
	while (g_hash_table_iter_next(&it, &v, NULL)) {
		StatRow *r = v;
		FtlFuncStat *st = &r->st;
		if (st->timed) {
			ftl_pctl_store_sort(&r->durations, st->timed);
			st->avg_ns = st->total_ns / (gint64)st->timed;
			st->p50_ns = ftl_pctl_store_value(&r->durations, st->timed, st->min_ns,
							  st->max_ns, 50);
			st->p95_ns = ftl_pctl_store_value(&r->durations, st->timed, st->min_ns,
							  st->max_ns, 95);
			st->p99_ns = ftl_pctl_store_value(&r->durations, st->timed, st->min_ns,
							  st->max_ns, 99);
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
	return ftl_pctl_store_next_bucket(&r->durations, st->timed, st->min_ns, pos, lo, hi,
					  count);
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

FTL_CONSUMER_DEFINE_KINDS(funcstats, FtlFuncStats, FTL_PASS_KIND(FTL_EVENT_FUNC));
