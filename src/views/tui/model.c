/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Building the TUI's model in a thread of its own: one pass over the input
 * feeds the analyses every panel reads, counts the Events list and leaves
 * checkpoints in it, and reports how far it got. */
#include "config.h"

#include "views/tui/model.h"

#include <string.h>

#include "analysis/pass.h"

#ifdef __GLIBC__
#include <malloc.h>
#endif

#define LOADER_BATCH 4096
#define LOADER_TRAIL 10

struct _FtlTuiLoader {
	GThread *thread;
	const FtlTuiOptions *opt;
	FtlTuiIo *io;
	FtlTuiFilter *filter;
	FtlTrace *first;
	gint tree; /* a tree of this group alone, or -1: the whole model */
	GArray *windows; /* FtlTuiSpan: the scheduling of these alone, or NULL */
	char *func;	 /* or the durations of this function's calls alone */
	gint32 wakes_of; /* or the wakeups of this task alone (-1: not asked) */
	gint cancel; /* atomic */
	gint done;   /* atomic; set under lock too, for ftl_tui_loader_wait() */
	GCond ended; /* done set */
	GMutex lock; /* guards the progress below */
	guint64 events;
	gint64 at;
	FtlTuiModel *model;
	GError *error;
};

void ftl_tui_model_free(FtlTuiModel *m)
{
	if (!m)
		return;
	for (guint i = 0; i < G_N_ELEMENTS(m->trees); i++) {
		ftl_calltree_free(m->trees[i]);
		ftl_trace_free(m->tree_traces[i]);
	}
	ftl_funcstats_free(m->funcs);
	ftl_markers_free(m->markers);
	ftl_spans_free(m->spans);
	ftl_quality_free(m->quality);
	ftl_sched_free(m->sched);
	ftl_histo_free(m->durations);
	g_free(m->durations_of);
	if (m->wakeups)
		g_array_unref(m->wakeups);
	ftl_oops_trail_free(m->trail);
	ftl_counters_free(m->counters);
	ftl_counter_steps_free(m->counter_steps);
	if (m->lanes)
		g_ptr_array_unref(m->lanes);
	if (m->lost)
		g_array_unref(m->lost);
	if (m->checkpoints)
		g_array_unref(m->checkpoints);
	ftl_tui_call_snaps_unref(m->call_snaps);
	ftl_tui_filter_free(m->filter);
	ftl_trace_free(m->trace);
	ftl_tui_model_free(m->compare);
	g_free(m);
}

/* Binary search for the last checkpoint whose key is <= want. */
static const FtlTuiCheckpoint *model_checkpoint(const FtlTuiModel *m, gint64 want, gboolean by_time)
{
	if (!m->checkpoints || !m->checkpoints->len)
		return NULL;
	const FtlTuiCheckpoint *cp = (const FtlTuiCheckpoint *)m->checkpoints->data;
	guint lo = 0, hi = m->checkpoints->len;
	while (lo < hi) {
		guint mid = lo + (hi - lo) / 2;
		gint64 key = by_time ? cp[mid].ts : (gint64)cp[mid].index;
		if (key <= want)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo ? &cp[lo - 1] : NULL;
}

const FtlTuiCheckpoint *ftl_tui_model_checkpoint_index(const FtlTuiModel *m, guint64 index)
{
	return model_checkpoint(m, (gint64)MIN(index, (guint64)G_MAXINT64), FALSE);
}

const FtlTuiCheckpoint *ftl_tui_model_checkpoint_time(const FtlTuiModel *m, gint64 ts)
{
	return model_checkpoint(m, ts, TRUE);
}

/* The analyses every panel reads, wired into pass. */
/* A call of the function the durations are asked for. */
static void loader_duration(const FtlCall *call, gpointer data)
{
	FtlTuiModel *m = data;
	if (strcmp(call->func, m->durations_of))
		return;
	if (call->duration == FTL_TS_NONE)
		m->untimed++;
	else
		ftl_histo_add(m->durations, call->duration);
}

/* A wakeup served, as sched pairs it: kept when it woke the task asked
 * for, the first FTL_TUI_WAKEUPS of them. */
static void loader_wakeup(const FtlSchedWakeup *w, gpointer data)
{
	FtlTuiModel *m = data;
	if (w->pid != m->wakeups_of)
		return;
	if (m->wakeups->len < FTL_TUI_WAKEUPS)
		g_array_append_val(m->wakeups, *w);
	else
		m->wakeups_more++;
}

static void loader_analyses(FtlTuiLoader *l, FtlTuiModel *m, FtlPass *pass)
{
	if (l->wakes_of >= 0) {
		m->wakeups_of = l->wakes_of;
		m->wakeups = g_array_new(FALSE, FALSE, sizeof(FtlSchedWakeup));
		m->sched = ftl_sched_new(NULL);
		ftl_sched_add_on_wakeup(m->sched, loader_wakeup, m);
		ftl_pass_add(pass, &ftl_sched_consumer, m->sched);
		return;
	}
	if (l->func) {
		m->durations_of = g_strdup(l->func);
		m->durations = ftl_histo_new();
		m->trees[0] = ftl_calltree_new(FTL_CALLTREE_GROUP_NONE, NULL);
		ftl_calltree_add_on_call(m->trees[0], loader_duration, m);
		ftl_pass_add(pass, &ftl_calltree_consumer, m->trees[0]);
		return;
	}
	if (l->windows) {
		m->sched = ftl_sched_new(NULL);
		for (guint i = 0; i < l->windows->len; i++) {
			const FtlTuiSpan *w = &g_array_index(l->windows, FtlTuiSpan, i);
			ftl_sched_add_window(m->sched, NULL, w->t0, w->t1);
		}
		ftl_pass_add(pass, &ftl_sched_consumer, m->sched);
		return;
	}
	if (l->tree >= 0) {
		/* repairs are counted once, by the tree of all calls */
		m->trees[l->tree] = ftl_calltree_new((FtlCallTreeGroup)l->tree, NULL);
		ftl_pass_add(pass, &ftl_calltree_consumer, m->trees[l->tree]);
		return;
	}
	m->trees[0] = ftl_calltree_new(FTL_CALLTREE_GROUP_NONE, ftl_trace_diags(m->trace));
	ftl_pass_add(pass, &ftl_calltree_consumer, m->trees[0]);
	m->funcs = ftl_funcstats_new(FTL_FUNCSTATS_BY_FUNC);
	ftl_calltree_add_on_call(m->trees[0], ftl_funcstats_add_call, m->funcs);
	ftl_pass_add(pass, &ftl_funcstats_consumer, m->funcs);
	m->markers = ftl_markers_new();
	ftl_pass_add(pass, &ftl_markers_consumer, m->markers);
	m->quality = ftl_quality_new(m->trace);
	ftl_pass_add(pass, &ftl_quality_consumer, m->quality);
	m->sched = ftl_sched_new(NULL);
	ftl_sched_add_on_interval(m->sched, ftl_tui_lanes_add_interval, m->lanes);
	ftl_pass_add(pass, &ftl_sched_consumer, m->sched);
	/* the built-in counters and --counter's (the command checked them) */
	m->counters = ftl_counters_new_specs(m->opt->counters, NULL);
	if (!m->counters)
		m->counters = ftl_counters_new();
	m->counter_steps = ftl_counter_steps_new();
	ftl_counters_add_on_step(m->counters, ftl_counter_steps_add, m->counter_steps);
	ftl_pass_add(pass, &ftl_counters_consumer, m->counters);
	if (m->opt->span_start) {
		/* the command checked the patterns before the screen came up */
		m->spans = ftl_spans_new(m->opt->span_start, m->opt->span_end, NULL);
		if (m->spans)
			ftl_pass_add(pass, &ftl_spans_consumer, m->spans);
	}
	if (m->opt->console) {
		m->trail = ftl_oops_trail_new(LOADER_TRAIL, m->opt->oops_cpu);
		ftl_pass_add(pass, &ftl_oops_trail_consumer, m->trail);
	}
}

typedef struct {
	FtlTuiModel *m;
	FtlPass *pass;
	FtlTuiCallNames names;
	guint64 raw;
	guint64 last_line; /* of the last listed event */
	gboolean tree_only;
	/* the unfiltered event before: its time, CPU and source, and how
	 * many before it share its time */
	gint64 prev_ts;
	gint32 prev_cpu;
	const FtlSource *prev_src;
	guint64 ties;
	FtlSelector sel; /* the command line's selection, as an iterator applies it */
} LoaderRun;

/* Whether the unfiltered stream can be entered by time (ts_sorted), and
 * the events before ev that share its time. */
static void loader_order(LoaderRun *r, const FtlEvent *ev)
{
	FtlTuiModel *m = r->m;
	if (ev->ts == FTL_TS_NONE || (r->raw && ev->ts < r->prev_ts))
		m->ts_sorted = FALSE;
	else if (r->raw && ev->ts == r->prev_ts && ev->cpu == r->prev_cpu && ev->src != r->prev_src)
		m->ts_sorted = FALSE;
	r->ties = r->raw && ev->ts == r->prev_ts ? r->ties + 1 : 0;
	if (r->ties > G_MAXUINT32)
		m->ts_sorted = FALSE;
	r->prev_ts = ev->ts;
	r->prev_cpu = ev->cpu;
	r->prev_src = ev->src;
}

static void loader_event(LoaderRun *r, const FtlEvent *ev)
{
	FtlTuiModel *m = r->m;
	if (r->tree_only) {
		r->raw++;
		if (ftl_tui_filter_pass_model(m->filter, &r->sel, ev))
			ftl_pass_feed(r->pass, ev);
		return;
	}
	const char *func = ftl_tui_call_names_feed(&r->names, ev);
	loader_order(r, ev);
	guint64 raw = r->raw++;
	gint64 place = r->sel.last_ts;
	if (!ftl_tui_filter_pass_model(m->filter, &r->sel, ev))
		return;
	ftl_pass_feed(r->pass, ev);
	ftl_tui_lanes_feed(m->lanes, ev);
	m->n_events++;
	/* a trace of exits only (funcgraph's funcslower) has calls too: the
	 * call tree rebuilds them, as report and graph count them */
	if (ev->kind == FTL_EVENT_FUNC_ENTRY || ev->kind == FTL_EVENT_FUNC_EXIT ||
	    ev->kind == FTL_EVENT_FUNC)
		m->has_graph = TRUE;
	if (ev->ts != FTL_TS_NONE) {
		if (m->first_ts == FTL_TS_NONE || ev->ts < m->first_ts)
			m->first_ts = ev->ts;
		if (m->last_ts == FTL_TS_NONE || ev->ts > m->last_ts)
			m->last_ts = ev->ts;
	}
	if (ev->kind == FTL_EVENT_LOST) {
		FtlTuiLost lost = { ev->ts, ev->cpu, ev->u.lost.count, ev->line };
		g_array_append_val(m->lost, lost);
	}
	/* the list hides synthesized exits: a leaf shows as one line */
	if ((ev->flags & FTL_EVENT_F_SYNTH) && ev->kind == FTL_EVENT_FUNC_EXIT)
		return;
	if (!ftl_tui_filter_pass_names(m->filter, ev, func))
		return;
	if (!ev->line || ev->line < r->last_line)
		m->lines_sorted = FALSE;
	r->last_line = ev->line;
	if (m->n_list % FTL_TUI_CHECKPOINT == 0) {
		/* after ev's own names: taking them in again changes nothing */
		FtlTuiCheckpoint cp = { m->n_list,
					raw,
					ev->ts,
					ev->line,
					ftl_tui_call_snaps_add(m->call_snaps, &r->names),
					(guint32)MIN(r->ties, G_MAXUINT32),
					place };
		g_array_append_val(m->checkpoints, cp);
	}
	m->n_list++;
}

void ftl_tui_trim(void)
{
#ifdef __GLIBC__
	malloc_trim(0);
#endif
}

/* Reads batches under the shared lock; FALSE on error or cancel. */
static gboolean loader_read(FtlTuiLoader *l, LoaderRun *r, GError **error)
{
	g_autoptr(FtlIter) it = ftl_iter_new(r->m->trace, NULL);
	FtlStatus st = FTL_STATUS_OK;
	while (st == FTL_STATUS_OK) {
		const FtlEvent *ev = NULL;
		g_rw_lock_reader_lock(&l->io->lock);
		for (guint n = 0; n < LOADER_BATCH; n++) {
			st = ftl_iter_next(it, &ev, error);
			if (st != FTL_STATUS_OK)
				break;
			loader_event(r, ev);
		}
		g_rw_lock_reader_unlock(&l->io->lock);
		g_mutex_lock(&l->lock);
		l->events = r->raw;
		l->at = r->m->last_ts;
		g_mutex_unlock(&l->lock);
		if (g_atomic_int_get(&l->cancel))
			return FALSE;
	}
	return st == FTL_STATUS_EOF;
}

guint64 ftl_tui_gen_next(void)
{
	static guint64 last;
	static GMutex lock;
	g_mutex_lock(&lock);
	guint64 g = ++last;
	g_mutex_unlock(&lock);
	return g;
}

/* Reads the model of opt's input under filter (taken) from first (taken,
 * may be NULL: opened again); NULL with l->error set, or cancelled. */
static FtlTuiModel *loader_model(FtlTuiLoader *l, const FtlTuiOptions *opt, FtlTuiFilter *filter,
				 FtlTrace *first)
{
	g_autoptr(FtlTuiModel) m = g_new0(FtlTuiModel, 1);
	m->gen = ftl_tui_gen_next();
	m->opt = opt;
	m->filter = filter;
	m->first_ts = m->last_ts = FTL_TS_NONE;
	m->lanes = g_ptr_array_new_with_free_func((GDestroyNotify)ftl_tui_lane_free);
	m->lost = g_array_new(FALSE, FALSE, sizeof(FtlTuiLost));
	m->checkpoints = g_array_new(FALSE, FALSE, sizeof(FtlTuiCheckpoint));
	m->call_snaps = ftl_tui_call_snaps_new();
	m->trace = first;
	if (!m->trace && opt->open) {
		g_rw_lock_writer_lock(&l->io->lock);
		m->trace = opt->open(opt->open_data, FTL_OPEN_NONE, &l->error);
		g_rw_lock_writer_unlock(&l->io->lock);
		if (!m->trace) {
			if (opt != l->opt)
				g_prefix_error(&l->error, "--compare: ");
			return NULL;
		}
	}
	if (m->trace) {
		g_autoptr(FtlPass) pass = ftl_pass_new();
		loader_analyses(l, m, pass);
		LoaderRun r = { .m = m, .pass = pass, .tree_only = l->tree >= 0 || l->windows || l->func ||
									l->wakes_of >= 0 };
		/* the one model read with no filter of the TUI's own counts the
		 * selection for the command's check (loaders run one at a time);
		 * B's is not the command's selection */
		m->counted = !r.tree_only && !ftl_tui_filter_depth(m->filter) && opt == l->opt;
		ftl_selector_init(&r.sel, m->filter->global, m->counted);
		m->lines_sorted = m->ts_sorted = TRUE;
		ftl_tui_call_names_init(&r.names);
		gboolean ok = loader_read(l, &r, &l->error);
		ftl_tui_call_names_clear(&r.names);
		if (!ok) {
			if (l->error && opt != l->opt)
				g_prefix_error(&l->error, "--compare: ");
			return NULL;
		}
		ftl_pass_finish(pass);
		if (m->counters)
			ftl_counter_steps_seal(m->counter_steps, m->counters);
		ftl_tui_lanes_finish(m->lanes, m->last_ts);
		ftl_tui_call_snaps_seal(m->call_snaps);
	}
	return g_steal_pointer(&m);
}

static gpointer loader_thread(gpointer data)
{
	FtlTuiLoader *l = data;
	FtlTuiFilter *filter = g_steal_pointer(&l->filter);
	/* B under the filter A is read with: a copy, read after A */
	FtlTuiFilter *other = l->opt->compare && l->tree < 0 && !l->windows && !l->func
				      ? ftl_tui_filter_push(filter, NULL)
				      : NULL;
	g_autoptr(FtlTuiModel) m = loader_model(l, l->opt, filter, g_steal_pointer(&l->first));
	if (m && other) {
		m->compare = loader_model(l, l->opt->compare, g_steal_pointer(&other), NULL);
		if (!m->compare)
			g_clear_pointer(&m, ftl_tui_model_free);
	}
	ftl_tui_filter_free(other);
	l->model = g_steal_pointer(&m);
	ftl_tui_trim(); /* the reader's chunks and the analyses' scratch are gone */
	g_mutex_lock(&l->lock);
	g_atomic_int_set(&l->done, 1);
	g_cond_broadcast(&l->ended);
	g_mutex_unlock(&l->lock);
	return NULL;
}

static FtlTuiLoader *loader_start(const FtlTuiOptions *opt, FtlTuiIo *io, FtlTuiFilter *filter,
				  FtlTrace *first, gint tree, GArray *windows, const char *func,
				  gint32 wakes_of)
{
	FtlTuiLoader *l = g_new0(FtlTuiLoader, 1);
	l->tree = tree;
	l->wakes_of = wakes_of;
	l->windows = windows;
	l->func = g_strdup(func);
	l->opt = opt;
	l->io = io;
	l->filter = filter;
	l->first = first;
	l->at = FTL_TS_NONE;
	g_mutex_init(&l->lock);
	g_cond_init(&l->ended);
	l->thread = g_thread_new(windows || func || wakes_of >= 0 ? "ftlens-side" : tree < 0 ? "ftlens-model"
										   : "ftlens-tree",
				 loader_thread, l);
	return l;
}

FtlTuiLoader *ftl_tui_loader_start(const FtlTuiOptions *opt, FtlTuiIo *io, FtlTuiFilter *filter,
				   FtlTrace *first)
{
	return loader_start(opt, io, filter, first, -1, NULL, NULL, -1);
}

FtlTuiLoader *ftl_tui_loader_start_tree(const FtlTuiOptions *opt, FtlTuiIo *io,
					FtlTuiFilter *filter, FtlCallTreeGroup group)
{
	return loader_start(opt, io, filter, NULL, (gint)group, NULL, NULL, -1);
}

FtlTuiLoader *ftl_tui_loader_start_sched(const FtlTuiOptions *opt, FtlTuiIo *io,
					 FtlTuiFilter *filter, GArray *windows)
{
	return loader_start(opt, io, filter, NULL, -1, windows, NULL, -1);
}

FtlTuiLoader *ftl_tui_loader_start_durations(const FtlTuiOptions *opt, FtlTuiIo *io,
					     FtlTuiFilter *filter, const char *func)
{
	return loader_start(opt, io, filter, NULL, -1, NULL, func, -1);
}

FtlTuiLoader *ftl_tui_loader_start_wakeups(const FtlTuiOptions *opt, FtlTuiIo *io,
					   FtlTuiFilter *filter, gint32 pid)
{
	return loader_start(opt, io, filter, NULL, -1, NULL, NULL, MAX(pid, 0));
}

void ftl_tui_model_take_tree(FtlTuiModel *to, FtlTuiModel *from, FtlCallTreeGroup group)
{
	g_return_if_fail(!to->trees[group] && !to->tree_traces[group]);
	to->trees[group] = g_steal_pointer(&from->trees[group]);
	to->tree_traces[group] = g_steal_pointer(&from->trace);
}

guint64 ftl_tui_loader_events(FtlTuiLoader *l)
{
	g_mutex_lock(&l->lock);
	guint64 n = l->events;
	g_mutex_unlock(&l->lock);
	return n;
}

gint64 ftl_tui_loader_time(FtlTuiLoader *l)
{
	g_mutex_lock(&l->lock);
	gint64 t = l->at;
	g_mutex_unlock(&l->lock);
	return t;
}

gboolean ftl_tui_loader_done(FtlTuiLoader *l)
{
	return g_atomic_int_get(&l->done) != 0;
}

void ftl_tui_loader_wait(FtlTuiLoader *l)
{
	g_mutex_lock(&l->lock);
	while (!g_atomic_int_get(&l->done))
		g_cond_wait(&l->ended, &l->lock);
	g_mutex_unlock(&l->lock);
}

void ftl_tui_loader_cancel(FtlTuiLoader *l)
{
	g_atomic_int_set(&l->cancel, 1);
}

FtlTuiModel *ftl_tui_loader_finish(FtlTuiLoader *l, GError **error)
{
	g_thread_join(l->thread);
	FtlTuiModel *m = g_steal_pointer(&l->model);
	if (!m && l->error && !g_atomic_int_get(&l->cancel))
		g_propagate_error(error, g_steal_pointer(&l->error));
	g_clear_error(&l->error);
	ftl_tui_filter_free(l->filter);
	ftl_trace_free(l->first);
	if (l->windows)
		g_array_unref(l->windows);
	g_free(l->func);
	g_mutex_clear(&l->lock);
	g_cond_clear(&l->ended);
	g_free(l);
	return m;
}
