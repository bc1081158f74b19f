/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The views of `ftlens sched`: CPU, task, latency, worst-wakeup and
 * interrupt tables per window, as text, CSV or JSON. */
#include "config.h"

#include "views/sched.h"

#include <string.h>

#include "util/escape.h"
#include "util/timefmt.h"
#include "views/merge.h"


typedef struct {
	const FtlSched *s;
	const FtlSchedViewOptions *opt;
	gboolean text;
	gboolean spans; /* more than the whole trace: tables get a span column */
} SchedView;

static gint64 sched_rel(gint64 origin, gint64 ts)
{
	return ts == FTL_TS_NONE || origin == FTL_TS_NONE ? ts : ts - origin;
}

static double sched_pct(gint64 part, gint64 whole)
{
	return whole > 0 ? 100.0 * (double)part / (double)whole : 0.0;
}

/* ---- CPUs ----------------------------------------------------------------- */

enum {
	C_SPAN,
	C_CPU,
	C_START,
	C_WINDOW,
	C_BUSY,
	C_BUSY_PCT,
	C_IDLE,
	C_IDLE_PCT,
	C_UNKNOWN,
	C_HARD,
	C_HARD_PCT,
	C_SOFT,
	C_SOFT_PCT,
	C_SWITCHES,
	C_RECORDED,
	C_INFERRED,
	C_LOST,
};
static const FtlColumn cpu_cols[] = {
	[C_SPAN] = { "span", "span", FTL_COL_INT },
	[C_CPU] = { "cpu", "cpu", FTL_COL_INT },
	[C_START] = { "start_ns", "start", FTL_COL_TS, FTL_COL_HIDE_TEXT },
	[C_WINDOW] = { "window_ns", "window", FTL_COL_NS },
	[C_BUSY] = { "busy_ns", "busy", FTL_COL_NS },
	[C_BUSY_PCT] = { "busy_pct", "busy%", FTL_COL_PCT },
	[C_IDLE] = { "idle_ns", "idle", FTL_COL_NS },
	[C_IDLE_PCT] = { "idle_pct", "idle%", FTL_COL_PCT },
	[C_UNKNOWN] = { "unknown_ns", "unknown", FTL_COL_NS },
	[C_HARD] = { "hardirq_ns", "irq", FTL_COL_NS },
	[C_HARD_PCT] = { "hardirq_pct", "irq%", FTL_COL_PCT },
	[C_SOFT] = { "softirq_ns", "softirq", FTL_COL_NS },
	[C_SOFT_PCT] = { "softirq_pct", "sirq%", FTL_COL_PCT },
	[C_SWITCHES] = { "switches", "switches", FTL_COL_INT },
	[C_RECORDED] = { "switches_recorded", "recorded", FTL_COL_INT },
	[C_INFERRED] = { "switches_inferred", "inferred", FTL_COL_INT },
	[C_LOST] = { "lost_events", "lost", FTL_COL_INT, FTL_COL_ALERT },
};

static void cpu_rows(FtlTable *t, const FtlSchedScope *sc, guint span, gint64 origin,
		     gboolean *unknown, gboolean *lost, gboolean *inferred)
{
	for (guint i = 0; i < sc->n_cpus; i++) {
		const FtlSchedCpu *c = &sc->cpus[i];
		gint64 w = c->t1 - c->t0;
		ftl_table_begin_row(t);
		ftl_table_set_int(t, C_SPAN, span);
		ftl_table_set_int(t, C_CPU, c->cpu);
		ftl_table_set_int(t, C_START, sched_rel(origin, c->t0));
		ftl_table_set_int(t, C_WINDOW, w);
		ftl_table_set_int(t, C_BUSY, c->busy_ns);
		ftl_table_set_double(t, C_BUSY_PCT, sched_pct(c->busy_ns, w));
		ftl_table_set_int(t, C_IDLE, c->idle_ns);
		ftl_table_set_double(t, C_IDLE_PCT, sched_pct(c->idle_ns, w));
		ftl_table_set_int(t, C_UNKNOWN, c->unknown_ns);
		ftl_table_set_int(t, C_HARD, c->hardirq_ns);
		ftl_table_set_double(t, C_HARD_PCT, sched_pct(c->hardirq_ns, w));
		ftl_table_set_int(t, C_SOFT, c->softirq_ns);
		ftl_table_set_double(t, C_SOFT_PCT, sched_pct(c->softirq_ns, w));
		ftl_table_set_int(t, C_SWITCHES, (gint64)c->switches);
		ftl_table_set_int(t, C_RECORDED, (gint64)(c->switches - c->switches_inferred));
		ftl_table_set_int(t, C_INFERRED, (gint64)c->switches_inferred);
		*inferred |= c->switches_inferred != 0;
		if (c->lost_events != FTL_LOST_UNKNOWN) /* unknown: an empty cell */
			ftl_table_set_int(t, C_LOST, c->lost_events);
		*unknown |= c->unknown_ns != 0;
		*lost |= c->lost_lines != 0 || c->lost_events != 0;
	}
}

static FtlTable *cpu_table(const SchedView *v, const char *name, guint first, guint n)
{
	FtlTable *t = ftl_table_new(name, cpu_cols, G_N_ELEMENTS(cpu_cols));
	gboolean unknown = FALSE, lost = FALSE, inferred = FALSE;
	for (guint i = first; i < first + n; i++)
		cpu_rows(t, ftl_sched_scope(v->s, i), i, v->opt->origin, &unknown, &lost, &inferred);
	if (!v->spans || v->text)
		ftl_table_omit(t, C_SPAN);
	/* text leaves out what this trace cannot have; CSV and JSON keep a
	 * stable set of columns */
	if (v->text && !unknown)
		ftl_table_omit(t, C_UNKNOWN);
	if (v->text && !lost)
		ftl_table_omit(t, C_LOST);
	if (v->text && !inferred) { /* every switch is recorded */
		ftl_table_omit(t, C_RECORDED);
		ftl_table_omit(t, C_INFERRED);
	}
	return t;
}

/* ---- tasks ---------------------------------------------------------------- */

enum {
	T_SPAN,
	T_PID,
	T_COMM,
	T_PRIO,
	T_RUN,
	T_WAIT,
	T_SLEEP,
	T_SWITCHES,
	T_VOL,
	T_PRE,
	T_UNK,
	T_INF,
	T_MIGR,
	T_WAKEUPS,
	T_LAT_AVG,
	T_LAT_MAX,
	T_LAT_MAX_TS,
};
static const FtlColumn task_cols[] = {
	[T_SPAN] = { "span", "span", FTL_COL_INT },
	[T_PID] = { "pid", "pid", FTL_COL_INT },
	[T_COMM] = { "comm", "comm", FTL_COL_STR, FTL_COL_NO_CUT },
	[T_PRIO] = { "prio", "prio", FTL_COL_INT },
	[T_RUN] = { "run_ns", "run", FTL_COL_NS },
	[T_WAIT] = { "wait_ns", "wait", FTL_COL_NS },
	[T_SLEEP] = { "sleep_ns", "sleep", FTL_COL_NS },
	[T_SWITCHES] = { "switches", "sw", FTL_COL_INT },
	[T_VOL] = { "voluntary", "vol", FTL_COL_INT },
	[T_PRE] = { "preempted", "pre", FTL_COL_INT },
	[T_UNK] = { "switches_unknown", "unk", FTL_COL_INT },
	[T_INF] = { "switches_inferred", "inf", FTL_COL_INT },
	[T_MIGR] = { "migrations", "migr", FTL_COL_INT },
	[T_WAKEUPS] = { "wakeups", "wakeups", FTL_COL_INT },
	[T_LAT_AVG] = { "lat_avg_ns", "lat avg", FTL_COL_NS, FTL_COL_HIDE_TEXT },
	[T_LAT_MAX] = { "lat_max_ns", "lat max", FTL_COL_NS },
	[T_LAT_MAX_TS] = { "lat_max_ts_ns", "max at", FTL_COL_TS, FTL_COL_HIDE_TEXT },
};

static gint64 task_key(const FtlSchedTask *t, FtlSchedSort sort)
{
	switch (sort) {
	case FTL_SCHED_SORT_WAIT:
		return t->wait_ns;
	case FTL_SCHED_SORT_SWITCHES:
		return (gint64)t->switches;
	case FTL_SCHED_SORT_LATENCY:
		return t->lat_max;
	default:
		return t->run_ns;
	}
}

static gint task_cmp(gconstpointer a, gconstpointer b, gpointer data)
{
	const FtlSchedTask *x = *(const FtlSchedTask *const *)a;
	const FtlSchedTask *y = *(const FtlSchedTask *const *)b;
	FtlSchedSort sort = GPOINTER_TO_INT(data);
	if (sort == FTL_SCHED_SORT_COMM) {
		int c = g_strcmp0(x->comm, y->comm);
		if (c)
			return c;
	} else if (sort != FTL_SCHED_SORT_PID) {
		gint64 kx = task_key(x, sort), ky = task_key(y, sort);
		if (kx != ky)
			return kx > ky ? -1 : 1;
	}
	return (x->pid > y->pid) - (x->pid < y->pid);
}

GPtrArray *ftl_sched_tasks_sorted(const FtlSchedScope *sc, FtlSchedSort sort)
{
	GPtrArray *order = g_ptr_array_sized_new(sc->n_tasks);
	for (guint i = 0; i < sc->n_tasks; i++)
		g_ptr_array_add(order, &sc->tasks[i]);
	g_ptr_array_sort_with_data(order, task_cmp, GINT_TO_POINTER(sort));
	return order;
}

static void task_rows(FtlTable *t, const FtlSchedScope *sc, guint span, FtlSchedSort sort,
		      gint64 origin, gboolean *unknown, gboolean *inferred)
{
	g_autoptr(GPtrArray) order = ftl_sched_tasks_sorted(sc, sort);
	for (guint i = 0; i < order->len; i++) {
		const FtlSchedTask *k = g_ptr_array_index(order, i);
		ftl_table_begin_row(t);
		ftl_table_set_int(t, T_SPAN, span);
		ftl_table_set_int(t, T_PID, k->pid);
		ftl_table_set_str(t, T_COMM, k->comm ? k->comm : "<...>");
		if (k->prio >= 0)
			ftl_table_set_int(t, T_PRIO, k->prio);
		ftl_table_set_int(t, T_RUN, k->run_ns);
		ftl_table_set_int(t, T_WAIT, k->wait_ns);
		ftl_table_set_int(t, T_SLEEP, k->sleep_ns);
		ftl_table_set_int(t, T_SWITCHES, (gint64)k->switches);
		ftl_table_set_int(t, T_VOL, (gint64)k->voluntary);
		ftl_table_set_int(t, T_PRE, (gint64)k->preempted);
		ftl_table_set_int(t, T_UNK, (gint64)k->unknown);
		ftl_table_set_int(t, T_INF, (gint64)k->inferred);
		*unknown |= k->unknown != 0;
		*inferred |= k->inferred != 0;
		ftl_table_set_int(t, T_MIGR, (gint64)k->migrations);
		ftl_table_set_int(t, T_WAKEUPS, (gint64)k->wakeups);
		if (k->wakeups) {
			ftl_table_set_int(t, T_LAT_AVG, k->lat_sum / (gint64)k->wakeups);
			ftl_table_set_int(t, T_LAT_MAX, k->lat_max);
			ftl_table_set_int(t, T_LAT_MAX_TS, sched_rel(origin, k->lat_max_ts));
		}
	}
}

static FtlTable *task_table(const SchedView *v, const char *name, guint first, guint n)
{
	FtlTable *t = ftl_table_new(name, task_cols, G_N_ELEMENTS(task_cols));
	gboolean unknown = FALSE, inferred = FALSE;
	for (guint i = first; i < first + n; i++)
		task_rows(t, ftl_sched_scope(v->s, i), i, v->opt->sort, v->opt->origin, &unknown,
			  &inferred);
	if (!v->spans || v->text)
		ftl_table_omit(t, T_SPAN);
	if (v->text && !unknown)
		ftl_table_omit(t, T_UNK);
	if (v->text && !inferred)
		ftl_table_omit(t, T_INF);
	return t;
}

/* ---- latency -------------------------------------------------------------- */

enum { L_SPAN, L_CLASS, L_COUNT, L_MIN, L_AVG, L_P50, L_P95, L_P99, L_MAX, L_MAX_TS };
static const FtlColumn lat_cols[] = {
	[L_SPAN] = { "span", "span", FTL_COL_INT },
	[L_CLASS] = { "class", "class", FTL_COL_STR },
	[L_COUNT] = { "count", "wakeups", FTL_COL_INT },
	[L_MIN] = { "min_ns", "min", FTL_COL_NS },
	[L_AVG] = { "avg_ns", "avg", FTL_COL_NS },
	[L_P50] = { "p50_ns", "p50", FTL_COL_NS },
	[L_P95] = { "p95_ns", "p95", FTL_COL_NS },
	[L_P99] = { "p99_ns", "p99", FTL_COL_NS },
	[L_MAX] = { "max_ns", "max", FTL_COL_NS },
	[L_MAX_TS] = { "max_ts_ns", "max at", FTL_COL_TS },
};

static const char *const sched_lat_names[FTL_SCHED_LAT_N] = { "all", "rt", "normal" };

static void lat_rows(FtlTable *t, const FtlSchedScope *sc, guint span, gint64 origin)
{
	for (guint c = 0; c < FTL_SCHED_LAT_N; c++) {
		const FtlSchedLatency *l = &sc->lat[c];
		guint64 n = ftl_histo_count(l->histo);
		ftl_table_begin_row(t);
		ftl_table_set_int(t, L_SPAN, span);
		ftl_table_set_str(t, L_CLASS, sched_lat_names[c]);
		ftl_table_set_int(t, L_COUNT, (gint64)n);
		if (!n)
			continue;
		ftl_table_set_int(t, L_MIN, ftl_histo_min(l->histo));
		ftl_table_set_int(t, L_AVG, ftl_histo_sum(l->histo) / (gint64)n);
		ftl_table_set_int(t, L_P50, ftl_histo_percentile(l->histo, 50));
		ftl_table_set_int(t, L_P95, ftl_histo_percentile(l->histo, 95));
		ftl_table_set_int(t, L_P99, ftl_histo_percentile(l->histo, 99));
		ftl_table_set_int(t, L_MAX, ftl_histo_max(l->histo));
		ftl_table_set_int(t, L_MAX_TS, sched_rel(origin, l->max_ts));
	}
}

static FtlTable *lat_table(const SchedView *v, guint first, guint n)
{
	FtlTable *t = ftl_table_new("latency", lat_cols, G_N_ELEMENTS(lat_cols));
	for (guint i = first; i < first + n; i++)
		lat_rows(t, ftl_sched_scope(v->s, i), i, v->opt->origin);
	if (!v->spans || v->text)
		ftl_table_omit(t, L_SPAN);
	return t;
}

/* ---- wakeups -------------------------------------------------------------- */

enum {
	W_SPAN,
	W_RANK,
	W_TS,
	W_LAT,
	W_CPU,
	W_PID,
	W_COMM,
	W_PRIO,
	W_WAKE_TS,
	W_WAKER_PID,
	W_WAKER_COMM,
	W_WAKER_CPU,
	W_RESTARTED,
	W_AT,
};
static const FtlColumn wake_cols[] = {
	[W_SPAN] = { "span", "span", FTL_COL_INT },
	[W_RANK] = { "rank", "#", FTL_COL_INT },
	[W_TS] = { "ts_ns", "switch at", FTL_COL_TS },
	[W_LAT] = { "latency_ns", "latency", FTL_COL_NS },
	[W_CPU] = { "cpu", "cpu", FTL_COL_INT },
	[W_PID] = { "pid", "pid", FTL_COL_INT },
	[W_COMM] = { "comm", "comm", FTL_COL_STR },
	[W_PRIO] = { "prio", "prio", FTL_COL_INT },
	[W_WAKE_TS] = { "wake_ts_ns", "woken at", FTL_COL_TS },
	[W_WAKER_PID] = { "waker_pid", "waker", FTL_COL_INT },
	[W_WAKER_COMM] = { "waker_comm", "waker comm", FTL_COL_STR },
	[W_WAKER_CPU] = { "waker_cpu", "waker cpu", FTL_COL_INT, FTL_COL_HIDE_TEXT },
	[W_RESTARTED] = { "restarted", "restarted", FTL_COL_INT, FTL_COL_HIDE_TEXT },
	[W_AT] = FTL_COLUMN_AT, /* the wakeup */
};

static void wake_row(FtlTable *t, const FtlSchedWakeup *w, guint span, guint rank, gint64 origin)
{
	ftl_table_begin_row(t);
	ftl_table_set_int(t, W_SPAN, span);
	ftl_table_set_int(t, W_RANK, rank);
	ftl_table_set_int(t, W_TS, sched_rel(origin, w->ts));
	ftl_table_set_int(t, W_LAT, w->latency);
	ftl_table_set_int(t, W_CPU, w->cpu);
	ftl_table_set_int(t, W_PID, w->pid);
	ftl_table_set_str(t, W_COMM, w->comm ? w->comm : "<...>");
	if (w->prio >= 0)
		ftl_table_set_int(t, W_PRIO, w->prio);
	ftl_table_set_int(t, W_WAKE_TS, sched_rel(origin, w->wake_ts));
	if (w->waker_pid >= 0) {
		ftl_table_set_int(t, W_WAKER_PID, w->waker_pid);
		ftl_table_set_str(t, W_WAKER_COMM, w->waker_comm ? w->waker_comm : "<...>");
	}
	if (w->waker_cpu >= 0)
		ftl_table_set_int(t, W_WAKER_CPU, w->waker_cpu);
	ftl_table_set_int(t, W_RESTARTED, w->restarted);
	ftl_table_set_at(t, W_AT, w->wake_ts);
}

static FtlTable *worst_table(const SchedView *v, guint first, guint n)
{
	FtlTable *t = ftl_table_new("worst_wakeups", wake_cols, G_N_ELEMENTS(wake_cols));
	for (guint i = first; i < first + n; i++) {
		const FtlSchedScope *sc = ftl_sched_scope(v->s, i);
		for (guint k = 0; k < sc->n_worst; k++)
			wake_row(t, &sc->worst[k], i, k + 1, v->opt->origin);
	}
	if (!v->spans || v->text)
		ftl_table_omit(t, W_SPAN);
	return t;
}

struct _FtlSchedWakeupList {
	FtlTable *t;
	gint64 origin;
	guint n;
};

FtlSchedWakeupList *ftl_sched_wakeup_list_new(gint64 origin)
{
	FtlSchedWakeupList *l = g_new0(FtlSchedWakeupList, 1);
	l->t = ftl_table_new("wakeups", wake_cols, G_N_ELEMENTS(wake_cols));
	ftl_table_omit(l->t, W_SPAN);
	l->origin = origin;
	return l;
}

void ftl_sched_wakeup_list_free(FtlSchedWakeupList *l)
{
	if (!l)
		return;
	ftl_table_free(l->t);
	g_free(l);
}

void ftl_sched_wakeup_list_add(const FtlSchedWakeup *w, gpointer list)
{
	FtlSchedWakeupList *l = list;
	wake_row(l->t, w, 0, ++l->n, l->origin);
}

void ftl_sched_wakeup_list_print(const FtlSchedWakeupList *l, FtlFormat format, FILE *out,
				 const FtlTextStyle *style)
{
	ftl_table_print(l->t, format, out, 0, style);
}

/* ---- interrupts ----------------------------------------------------------- */

enum { I_SPAN, I_KIND, I_ID, I_NAME, I_COUNT, I_TOTAL, I_MIN, I_AVG, I_MAX, I_MAX_TS };
static const FtlColumn irq_cols[] = {
	[I_SPAN] = { "span", "span", FTL_COL_INT },
	[I_KIND] = { "kind", "kind", FTL_COL_STR },
	[I_ID] = { "id", "id", FTL_COL_INT },
	[I_NAME] = { "name", "name", FTL_COL_STR },
	[I_COUNT] = { "count", "count", FTL_COL_INT },
	[I_TOTAL] = { "total_ns", "total", FTL_COL_NS },
	[I_MIN] = { "min_ns", "min", FTL_COL_NS },
	[I_AVG] = { "avg_ns", "avg", FTL_COL_NS },
	[I_MAX] = { "max_ns", "max", FTL_COL_NS },
	[I_MAX_TS] = { "max_ts_ns", "max at", FTL_COL_TS },
};

static FtlTable *irq_table(const SchedView *v, guint first, guint n)
{
	FtlTable *t = ftl_table_new("irqs", irq_cols, G_N_ELEMENTS(irq_cols));
	for (guint i = first; i < first + n; i++) {
		const FtlSchedScope *sc = ftl_sched_scope(v->s, i);
		for (guint k = 0; k < sc->n_irqs; k++) {
			const FtlSchedIrq *q = &sc->irqs[k];
			ftl_table_begin_row(t);
			ftl_table_set_int(t, I_SPAN, i);
			ftl_table_set_str(t, I_KIND,
					  q->kind == FTL_SCHED_HARDIRQ ? "irq" : "softirq");
			if (q->id >= 0)
				ftl_table_set_int(t, I_ID, q->id);
			/* function_graph's irq lines name no handler */
			ftl_table_set_str(t, I_NAME, *q->name ? q->name : "(function_graph)");
			ftl_table_set_int(t, I_COUNT, (gint64)q->count);
			ftl_table_set_int(t, I_TOTAL, q->total_ns);
			ftl_table_set_int(t, I_MIN, q->min_ns);
			ftl_table_set_int(t, I_AVG, q->total_ns / (gint64)MAX(q->count, 1));
			ftl_table_set_int(t, I_MAX, q->max_ns);
			ftl_table_set_int(t, I_MAX_TS, sched_rel(v->opt->origin, q->max_ts));
		}
	}
	if (!v->spans || v->text)
		ftl_table_omit(t, I_SPAN);
	return t;
}

/* ---- counters ---------------------------------------------------------------- */

enum { CT_KIND, CT_EVENT, CT_KEY, CT_CPU, CT_VALUE, CT_TIME, CT_PCT, CT_STEPS, CT_FROM, CT_TO };
static const FtlColumn counter_cols[] = {
	[CT_KIND] = { "kind", "kind", FTL_COL_STR },
	[CT_EVENT] = { "event", "event", FTL_COL_STR },
	[CT_KEY] = { "key", "cpu/zone", FTL_COL_STR },
	[CT_CPU] = { "cpu", "cpu", FTL_COL_INT, FTL_COL_HIDE_TEXT },
	[CT_VALUE] = { "value", "value", FTL_COL_INT },
	[CT_TIME] = { "time_ns", "time", FTL_COL_NS },
	[CT_PCT] = { "pct", "share", FTL_COL_PCT },
	[CT_STEPS] = { "steps", "steps", FTL_COL_INT },
	[CT_FROM] = { "track_start_ns", "from", FTL_COL_TS, FTL_COL_HIDE_TEXT },
	[CT_TO] = { "track_end_ns", "to", FTL_COL_TS, FTL_COL_HIDE_TEXT },
};

FtlTable *ftl_sched_counter_table(const FtlCounters *c, gint64 origin)
{
	FtlTable *t = ftl_table_new("counters", counter_cols, G_N_ELEMENTS(counter_cols));
	for (guint i = 0; c && i < ftl_counters_n_tracks(c); i++) {
		const FtlCounterTrack *tr = ftl_counters_track(c, i);
		for (guint k = 0; k < tr->n_levels; k++) {
			const FtlCounterLevel *lv = &tr->levels[k];
			ftl_table_begin_row(t);
			ftl_table_set_str(t, CT_KIND, ftl_counter_kind_name(tr->kind));
			ftl_table_set_str(t, CT_EVENT, tr->event);
			ftl_table_set_str(t, CT_KEY, tr->key);
			if (tr->cpu >= 0)
				ftl_table_set_int(t, CT_CPU, tr->cpu);
			ftl_table_set_int(t, CT_VALUE, lv->value);
			ftl_table_set_int(t, CT_TIME, lv->ns);
			ftl_table_set_double(t, CT_PCT, sched_pct(lv->ns, tr->t1 - tr->t0));
			ftl_table_set_int(t, CT_STEPS, (gint64)lv->entries);
			ftl_table_set_int(t, CT_FROM, sched_rel(origin, tr->t0));
			ftl_table_set_int(t, CT_TO, sched_rel(origin, tr->t1));
		}
	}
	return t;
}

/* ---- windows -------------------------------------------------------------- */

enum {
	WN_SPAN,
	WN_LABEL,
	WN_START,
	WN_END,
	WN_DURATION,
	WN_SWITCH_EVENTS,
	WN_WAKEUP_EVENTS,
	WN_IRQ_EVENTS,
	WN_INFERRED,
	WN_UNSERVED,
	WN_UNWOKEN,
	WN_OF_RUNNABLE,
	WN_RESTARTED,
	WN_AT_INFERRED,
	WN_IRQ_UNPAIRED,
};
static const FtlColumn window_cols[] = {
	[WN_SPAN] = { "span", "span", FTL_COL_INT },
	[WN_LABEL] = { "label", "label", FTL_COL_STR },
	[WN_START] = { "start_ns", "start", FTL_COL_TS },
	[WN_END] = { "end_ns", "end", FTL_COL_TS },
	[WN_DURATION] = { "duration_ns", "duration", FTL_COL_NS },
	[WN_SWITCH_EVENTS] = { "switch_events", "switch events", FTL_COL_INT },
	[WN_WAKEUP_EVENTS] = { "wakeup_events", "wakeup events", FTL_COL_INT },
	[WN_IRQ_EVENTS] = { "irq_events", "irq events", FTL_COL_INT },
	[WN_INFERRED] = { "switches_inferred", "inferred switches", FTL_COL_INT },
	[WN_UNSERVED] = { "wakeups_unserved", "unserved", FTL_COL_INT },
	[WN_UNWOKEN] = { "switches_unwoken", "unwoken", FTL_COL_INT },
	[WN_OF_RUNNABLE] = { "wakeups_of_runnable", "of runnable", FTL_COL_INT },
	[WN_RESTARTED] = { "wakeups_restarted", "restarted", FTL_COL_INT },
	[WN_AT_INFERRED] = { "wakeups_at_inferred", "at inferred", FTL_COL_INT },
	[WN_IRQ_UNPAIRED] = { "irq_unpaired", "irq unpaired", FTL_COL_INT },
};

static FtlTable *window_table(const SchedView *v)
{
	FtlTable *t = ftl_table_new("windows", window_cols, G_N_ELEMENTS(window_cols));
	for (guint i = 0; i < ftl_sched_n_scopes(v->s); i++) {
		const FtlSchedScope *sc = ftl_sched_scope(v->s, i);
		ftl_table_begin_row(t);
		ftl_table_set_int(t, WN_SPAN, i);
		ftl_table_set_str(t, WN_LABEL, sc->label);
		if (sc->t0 != FTL_TS_NONE) {
			ftl_table_set_int(t, WN_START, sched_rel(v->opt->origin, sc->t0));
			ftl_table_set_int(t, WN_END, sched_rel(v->opt->origin, sc->t1));
			ftl_table_set_int(t, WN_DURATION, sc->t1 - sc->t0);
		}
		ftl_table_set_int(t, WN_SWITCH_EVENTS, (gint64)sc->n_switch_events);
		ftl_table_set_int(t, WN_WAKEUP_EVENTS, (gint64)sc->n_wakeup_events);
		ftl_table_set_int(t, WN_IRQ_EVENTS, (gint64)sc->n_irq_events);
		ftl_table_set_int(t, WN_INFERRED, (gint64)sc->switches_inferred);
		ftl_table_set_int(t, WN_UNSERVED, (gint64)sc->wakeups_unserved);
		ftl_table_set_int(t, WN_UNWOKEN, (gint64)sc->switches_unwoken);
		ftl_table_set_int(t, WN_OF_RUNNABLE, (gint64)sc->wakeups_of_runnable);
		ftl_table_set_int(t, WN_RESTARTED, (gint64)sc->wakeups_restarted);
		ftl_table_set_int(t, WN_AT_INFERRED, (gint64)sc->wakeups_at_inferred);
		ftl_table_set_int(t, WN_IRQ_UNPAIRED, (gint64)sc->irq_unpaired);
	}
	return t;
}

/* ---- text ----------------------------------------------------------------- */

static void sched_text_window(const SchedView *v, const FtlSchedScope *sc, FILE *out)
{
	char a[48], b[48], d[48];
	if (sc->t0 == FTL_TS_NONE) {
		fputs("Window:     no events\n", out);
		return;
	}
	fprintf(out, "Window:     %s .. %s (%s)\n",
		ftl_time_format_us(sched_rel(v->opt->origin, sc->t0), a, sizeof a),
		ftl_time_format_us(sched_rel(v->opt->origin, sc->t1), b, sizeof b),
		ftl_duration_format(sc->t1 - sc->t0, d, sizeof d));
	fprintf(out,
		"Events:     %" G_GUINT64_FORMAT " sched_switch, %" G_GUINT64_FORMAT
		" wakeup events, %" G_GUINT64_FORMAT " irq entries and exits\n",
		sc->n_switch_events, sc->n_wakeup_events, sc->n_irq_events);
	if (sc->switches_inferred)
		fprintf(out,
			"Inferred:   %" G_GUINT64_FORMAT " switches from the task each event "
			"names (no sched_switch said so)\n",
			sc->switches_inferred);
	if (sc->wakeups_restarted)
		fprintf(out,
			"Restarted:  %" G_GUINT64_FORMAT " wakeups of a task woken before and not "
			"switched in since (its switch-in was not recorded): latency from the "
			"later wakeup, as trace-cmd report -w\n",
			sc->wakeups_restarted);
	const struct {
		guint64 n;
		const char *what;
	} np[] = {
		{ sc->wakeups_unserved, "wakeups whose switch is outside the window" },
		{ sc->switches_unwoken, "switches that ran a sleeping task whose wakeup was lost" },
		{ sc->wakeups_at_inferred,
		  "wakeups served by a switch not recorded (no latency measured)" },
		{ sc->irq_unpaired, "interrupt entries or exits without their pair" },
	};
	for (guint i = 0; i < G_N_ELEMENTS(np); i++)
		if (np[i].n)
			fprintf(out, "Not paired: %" G_GUINT64_FORMAT " %s\n", np[i].n, np[i].what);
}

static void sched_text_tables(const SchedView *v, guint i, FILE *out)
{
	const FtlSchedScope *sc = ftl_sched_scope(v->s, i);
	static const char *const by[] = { "run time",	 "wait time", "switches",
					  "max latency", "pid",	      "comm" };
	g_autoptr(FtlTable) cpus = cpu_table(v, "cpus", i, 1);
	fputs("\nCPUs\n", out);
	ftl_table_print_text(cpus, out, 0, v->opt->style);
	g_autoptr(FtlTable) tasks = task_table(v, "tasks", i, 1);
	guint n = ftl_table_n_rows(tasks), top = v->opt->top && v->opt->top < n ? v->opt->top : n;
	fprintf(out, "\nTasks by %s (%u of %u)\n", by[v->opt->sort], top, n);
	ftl_table_print_text(tasks, out, top, v->opt->style);
	if (sc->n_wakeup_events || ftl_histo_count(sc->lat[FTL_SCHED_LAT_ALL].histo)) {
		g_autoptr(FtlTable) lat = lat_table(v, i, 1);
		fputs("\nWakeup latency (percentiles: exact up to 256, else within 1.6%)\n", out);
		ftl_table_print_text(lat, out, 0, v->opt->style);
	}
	if (sc->n_worst) {
		g_autoptr(FtlTable) worst = worst_table(v, i, 1);
		fputs("\nWorst wakeups\n", out);
		ftl_table_print_text(worst, out, 0, v->opt->style);
	}
	if (sc->n_irqs) {
		g_autoptr(FtlTable) irqs = irq_table(v, i, 1);
		fputs("\nInterrupts\n", out);
		ftl_table_print_text(irqs, out, 0, v->opt->style);
	}
}

static void sched_print_text(const SchedView *v, FILE *out)
{
	for (guint i = 0; i < ftl_sched_n_scopes(v->s); i++) {
		const FtlSchedScope *sc = ftl_sched_scope(v->s, i);
		if (i == 0) {
			fputs("Scheduling: ", out);
			ftl_escape_fputs(v->opt->input ? v->opt->input : "-", out);
		} else {
			fprintf(out, "\n\nSpan %u: ", i);
			ftl_escape_fputs(sc->label, out);
		}
		fputc('\n', out);
		sched_text_window(v, sc, out);
		sched_text_tables(v, i, out);
		if (i == 0 && v->opt->counters && ftl_counters_n_tracks(v->opt->counters)) {
			g_autoptr(FtlTable) ct =
				ftl_sched_counter_table(v->opt->counters, v->opt->origin);
			fputs("\nCounters: time per value, from each track's first event to the "
			      "trace's end (cpu_idle -1: out of idle)\n",
			      out);
			ftl_table_print_text(ct, out, 0, v->opt->style);
		}
	}
}

/* "latency_histograms": every window's wakeup latencies per class, with the
 * buckets behind their percentiles (views/merge.h). */
static void sched_json_histograms(const FtlSched *s, JsonBuilder *b)
{
	json_builder_set_member_name(b, "latency_histograms");
	json_builder_begin_array(b);
	for (guint i = 0; i < ftl_sched_n_scopes(s); i++)
		for (guint c = 0; c < FTL_SCHED_LAT_N; c++) {
			json_builder_begin_object(b);
			ftl_json_member_int(b, "span", i);
			json_builder_set_member_name(b, "class");
			json_builder_add_string_value(b, sched_lat_names[c]);
			ftl_merge_add_histo(b, "histogram", ftl_sched_scope(s, i)->lat[c].histo);
			json_builder_end_object(b);
		}
	json_builder_end_array(b);
}

void ftl_sched_print(const FtlSched *s, const FtlSchedViewOptions *opt, FILE *out)
{
	guint n = ftl_sched_n_scopes(s);
	SchedView v = { s, opt, opt->format == FTL_FORMAT_TEXT, n > 1 };
	if (v.text) {
		sched_print_text(&v, out);
		return;
	}
	FtlTable *all[] = {
		window_table(&v),    cpu_table(&v, "cpus", 0, n), task_table(&v, "tasks", 0, n),
		lat_table(&v, 0, n), worst_table(&v, 0, n),	  irq_table(&v, 0, n),
		ftl_sched_counter_table(opt->counters, opt->origin),
	};
	if (opt->format == FTL_FORMAT_CSV) {
		ftl_table_print_csv_all(out, (const FtlTable *const *)all, G_N_ELEMENTS(all));
	} else {
		g_autoptr(JsonBuilder) b = json_builder_new();
		json_builder_begin_object(b);
		ftl_merge_add_schema(b, FTL_SCHEMA_SCHED);
		ftl_json_member_text(b, "input", opt->input);
		ftl_json_member_opt(b, "origin_ns", opt->origin, FTL_TS_NONE);
		for (guint i = 0; i < G_N_ELEMENTS(all); i++)
			ftl_table_add_json(all[i], b);
		sched_json_histograms(s, b);
		json_builder_end_object(b);
		g_autoptr(JsonNode) root = json_builder_get_root(b);
		ftl_json_print(root, out);
	}
	for (guint i = 0; i < G_N_ELEMENTS(all); i++)
		ftl_table_free(all[i]);
}

gboolean ftl_sched_parse_sort(const char *text, FtlSchedSort *out)
{
	static const char *const keys[] = { "run", "wait", "switches", "latency", "pid", "comm" };
	for (guint i = 0; i < G_N_ELEMENTS(keys); i++)
		if (strcmp(text, keys[i]) == 0) {
			*out = (FtlSchedSort)i;
			return TRUE;
		}
	return FALSE;
}

/* ---- report --sched --------------------------------------------------------- */

void ftl_sched_print_summary_text(const FtlSched *s, guint top, FILE *out,
				  const FtlTextStyle *style)
{
	FtlSchedViewOptions opt = {
		.format = FTL_FORMAT_TEXT, .top = top, .origin = FTL_TS_NONE, .style = style
	};
	SchedView v = { s, &opt, TRUE, FALSE };
	fputs("\nScheduling\n", out);
	sched_text_window(&v, ftl_sched_scope(s, 0), out);
	sched_text_tables(&v, 0, out);
}

FtlTable *ftl_sched_cpu_table(const FtlSched *s, const char *name, gint64 origin)
{
	FtlSchedViewOptions opt = { .format = FTL_FORMAT_JSON, .origin = origin };
	SchedView v = { s, &opt, FALSE, FALSE };
	return cpu_table(&v, name, 0, 1);
}

FtlTable *ftl_sched_task_table(const FtlSched *s, const char *name, FtlSchedSort sort)
{
	FtlSchedViewOptions opt = { .format = FTL_FORMAT_JSON,
				    .sort = sort,
				    .origin = FTL_TS_NONE };
	SchedView v = { s, &opt, FALSE, FALSE };
	return task_table(&v, name, 0, 1);
}
