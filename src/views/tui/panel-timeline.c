/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The Timeline panel: a row per CPU, then a row for each of the busiest
 * tasks, down to the legend. A task has a letter of its own (by running
 * time: a, b, ...) and a colour; a CPU's cell shows the letter of the task
 * that ran most of it, or a half block where it went idle or busy within
 * the cell; a task's row shows running (full and half blocks) apart from
 * runnable (woken or preempted, waiting for a CPU: shaded) and asleep
 * (blank). Interrupts '!', lost stretches shaded. Markers are ticks above,
 * labelled where the label fits, numbered otherwise; M lists them. The
 * line at the bottom names the event under the cursor (the one that made
 * the selected row what it is there); Enter selects it in Events. Zoom
 * around the cursor, pan by half a screen. Counter tracks (CPU frequency,
 * idle state, thermal: analysis/counters.h) follow the CPUs, a row each,
 * the value as a bar's height between the track's least and greatest. */
#include "config.h"

#include <string.h>

#include "util/escape.h"
#include "views/tui/app.h"
#include "views/tui/wakes.h"
#include "views/tui/compare.h"

#define TL_LABEL 13 /* columns before the lanes */

typedef struct {
	gint32 pid;
	const char *comm;
	gint64 run;
	char glyph[4]; /* a-z A-Z by running time, '*' for the rest */
} TaskRow;

typedef struct {
	FtlTuiPanel base;
	gint64 t0, span; /* the view: [t0, t0 + span) over the lane columns */
	gint64 cursor;
	gint lane, top; /* the selected row (CPUs, then tasks), the first task row shown */
	gboolean list;	/* M: the markers in view listed */
	guint64 for_model; /* FtlTuiModel.gen */
	GArray *lanes;	    /* FtlTuiLane* of the model, CPUs that have one */
	GArray *tasks;	    /* TaskRow, most running time first */
	guint n_ctr;	    /* counter tracks of the model: rows after the CPUs */
	GHashTable *by_pid; /* pid -> index in tasks + 1 */
	FtlTuiWakes wakes;  /* W: the selected task's wakeups */
	FtlTuiTimelineCompare *compare; /* A's and B's lanes, with --compare */
} TimelinePanel;

static FtlTuiPanel *timeline_new(void)
{
	TimelinePanel *t = g_new0(TimelinePanel, 1);
	t->lanes = g_array_new(FALSE, FALSE, sizeof(FtlTuiLane *));
	t->tasks = g_array_new(FALSE, FALSE, sizeof(TaskRow));
	t->by_pid = g_hash_table_new(g_direct_hash, g_direct_equal);
	t->cursor = FTL_TS_NONE;
	ftl_tui_wakes_init(&t->wakes);
	t->compare = ftl_tui_timeline_compare_new();
	return &t->base;
}

static void timeline_free(FtlTuiPanel *p)
{
	TimelinePanel *t = (TimelinePanel *)p;
	ftl_tui_timeline_compare_free(t->compare);
	g_array_unref(t->lanes);
	g_array_unref(t->tasks);
	g_hash_table_unref(t->by_pid);
	g_free(t);
}

static const char *timeline_empty(FtlTuiApp *app)
{
	if (!app->model)
		return NULL;
	if (app->model->first_ts == FTL_TS_NONE)
		return "no timestamps in this input: nothing to place in time";
	if (!app->model->lanes->len)
		return "no CPU in this input ran a task it names";
	return NULL;
}

static int timeline_rows(TimelinePanel *t)
{
	return (int)(t->lanes->len + t->n_ctr + t->tasks->len);
}

/* The rows always shown: CPUs, then counters; tasks scroll below. */
static int timeline_fixed(TimelinePanel *t)
{
	return (int)(t->lanes->len + t->n_ctr);
}

/* A counter row's cell [a, b): the highest value held in it, as a bar's
 * height (cpu_idle's -1, out of idle, blank). */
static void timeline_counter_cell(FtlTuiApp *app, FtlTuiCanvas *c, guint track, gint64 a, gint64 b,
				  FtlTuiStyle *st, const char **ch)
{
	static const char *const utf8[] = { "\u2581", "\u2582", "\u2583", "\u2584",
					    "\u2585", "\u2586", "\u2587", "\u2588" };
	static const char *const ascii[] = { "1", "2", "3", "4", "5", "6", "7", "8" };
	const FtlCounterTrack *tr = ftl_counters_track(app->model->counters, track);
	guint n;
	const FtlCounterStep *s = ftl_counter_steps_from(app->model->counter_steps, track, a + 1, &n);
	gboolean any = FALSE;
	gint64 v = 0;
	for (guint i = 0; i < n && s[i].t0 < b; i++) {
		v = any ? MAX(v, s[i].value) : s[i].value;
		any = TRUE;
	}
	*ch = " ";
	*st = FTL_TUI_STYLE_NORMAL;
	gint64 lo = tr->kind == FTL_COUNTER_IDLE ? -1 : MIN(tr->min, 0);
	if (!any || (tr->kind == FTL_COUNTER_IDLE && v < 0))
		return;
	int level = tr->max > lo ? (int)((double)(v - lo) * 7 / (double)(tr->max - lo) + 0.5) : 7;
	level = CLAMP(level, 0, 7);
	*ch = c->utf8 ? utf8[level] : ascii[level];
	*st = ftl_tui_name_style(tr->event, (gint32)tr->kind);
}

/* "freq cpu 0" */
static char *timeline_counter_name(const FtlCounterTrack *tr)
{
	return g_strdup_printf("%s %s", ftl_counter_kind_name(tr->kind), tr->key);
}


static const TaskRow *timeline_task(TimelinePanel *t, gint32 pid)
{
	guint i = GPOINTER_TO_UINT(g_hash_table_lookup(t->by_pid, GINT_TO_POINTER(pid)));
	return i ? &g_array_index(t->tasks, TaskRow, i - 1) : NULL;
}

/* ---- what a column shows ------------------------------------------------------ */

/* The first interval of arr (sorted, t0/t1 first in each element) ending after a. */
static guint timeline_first(GArray *arr, gsize elt, gint64 a)
{
	return ftl_tui_lane_first(arr, elt, a);
}

static gboolean timeline_any(GArray *spans, gint64 a, gint64 b)
{
	return ftl_tui_lane_any(spans, a, b);
}

/* The run of pid in arr (sorted by end) that meets [a, b), or NULL. */
static const FtlTuiRun *timeline_run_in(GArray *arr, gint64 a, gint64 b, gint32 pid)
{
	/* sorted by end, not by start: a wait open at b ends among the next
	 * few (LANES_PENDING_MAX wait at once at most) */
	guint past = 0;
	for (guint i = timeline_first(arr, sizeof(FtlTuiRun), a); i < arr->len && past < 256; i++) {
		const FtlTuiRun *r = &g_array_index(arr, FtlTuiRun, i);
		if (r->t0 < b && r->pid == pid)
			return r;
		past += r->t1 >= b;
	}
	return NULL;
}

/* The run of lane that covers most of [a, b), or NULL (idle, unknown);
 * with pid >= 0 only that task's runs count. *cover gets its time. */
static const FtlTuiRun *timeline_run(const FtlTuiLane *lane, gint64 a, gint64 b, gint32 pid,
				     gint64 *cover)
{
	return ftl_tui_lane_run(lane, a, b, pid, cover);
}

/* What a CPU's half cell shows: the task that ran most of it, or none. */
static const FtlTuiRun *timeline_half(const FtlTuiLane *lane, gint64 a, gint64 b)
{
	gint64 cover;
	return timeline_run(lane, a, b, -1, &cover);
}

/* Whether pid ran (on any CPU) in [a, b); or, when not, waited runnable. */
static gboolean timeline_task_ran(TimelinePanel *t, gint32 pid, gint64 a, gint64 b,
				  gboolean *waited)
{
	gint64 cover;
	*waited = FALSE;
	for (guint i = 0; i < t->lanes->len; i++) {
		const FtlTuiLane *lane = g_array_index(t->lanes, FtlTuiLane *, i);
		if (timeline_run(lane, a, b, pid, &cover))
			return TRUE;
	}
	for (guint i = 0; i < t->lanes->len && !*waited; i++) {
		const FtlTuiLane *lane = g_array_index(t->lanes, FtlTuiLane *, i);
		/* waits are sorted by their end, as runs */
		*waited = timeline_run_in(lane->waits, a, b, pid) != NULL;
	}
	return FALSE;
}

typedef struct {
	const char *full, *left, *right, *wait, *lost;
} TimelineGlyphs;

static const TimelineGlyphs timeline_utf8 = { "\u2588", "\u258c", "\u2590", "\u2591", "\u2591" };
static const TimelineGlyphs timeline_ascii = { "#", "[", "]", "-", "~" };

/* A CPU's cell [a, b): halves [a, m) and [m, b). */
static void timeline_cpu_cell(TimelinePanel *t, FtlTuiCanvas *c, const FtlTuiLane *lane,
			      gint64 a, gint64 b, FtlTuiStyle *st, const char **ch)
{
	const TimelineGlyphs *g = c->utf8 ? &timeline_utf8 : &timeline_ascii;
	gint64 m = a + MAX((b - a) / 2, 1);
	const FtlTuiRun *l = timeline_half(lane, a, m), *r = timeline_half(lane, m, MAX(b, m + 1));
	gint64 cover;
	const FtlTuiRun *most = timeline_run(lane, a, b, -1, &cover);
	*ch = " ";
	*st = FTL_TUI_STYLE_NORMAL;
	if (most) {
		const TaskRow *task = timeline_task(t, most->pid);
		*st = ftl_tui_name_style(most->comm, most->pid);
		*ch = task ? task->glyph : "*";
		if (!l)
			*ch = g->right; /* it started within the cell */
		else if (!r)
			*ch = g->left; /* it ended within it */
	}
	if (timeline_any(lane->irqs, a, b)) {
		*ch = "!";
		*st = FTL_TUI_STYLE_IRQ;
	}
	if (timeline_any(lane->lost, a, b)) {
		*ch = g->lost;
		*st = FTL_TUI_STYLE_WARN;
	}
}

/* A task's cell: running (halves), runnable, asleep. */
static void timeline_task_cell(TimelinePanel *t, FtlTuiCanvas *c, const TaskRow *task, gint64 a,
			       gint64 b, FtlTuiStyle *st, const char **ch)
{
	const TimelineGlyphs *g = c->utf8 ? &timeline_utf8 : &timeline_ascii;
	gint64 m = a + MAX((b - a) / 2, 1);
	gboolean wl, wr;
	gboolean l = timeline_task_ran(t, task->pid, a, m, &wl);
	gboolean r = timeline_task_ran(t, task->pid, m, MAX(b, m + 1), &wr);
	*st = ftl_tui_name_style(task->comm, task->pid);
	*ch = l && r ? g->full : l ? g->left : r ? g->right : wl || wr ? g->wait : " ";
	if (!l && !r && !wl && !wr)
		*st = FTL_TUI_STYLE_NORMAL;
}

/* ---- drawing --------------------------------------------------------------------- */

static gint64 timeline_col_time(TimelinePanel *t, int col, int w)
{
	return t->t0 + (gint64)((double)t->span * col / w);
}

static int timeline_time_col(TimelinePanel *t, gint64 ts, int w)
{
	if (ts < t->t0 || ts >= t->t0 + t->span)
		return -1;
	return (int)((double)(ts - t->t0) * w / (double)t->span);
}

/* The markers in view, in time order: a tick each, then its label when
 * it fits before the next tick, else its number (M lists them); a tick
 * under a label or number drawn before is left to the list. Nothing is
 * written over the cursor's column cx (its "v" goes there): a label or
 * number that would cross it is left to the list too. */
static void timeline_markers_row(TimelinePanel *t, FtlTuiApp *app, FtlTuiCanvas *c, int y, int w,
				 int cx)
{
	const FtlMarkers *m = app->model->markers;
	int last_end = -1, number = 0;
	for (guint i = 0; m && i < ftl_markers_count(m); i++) {
		const FtlMarker *mk = ftl_markers_get(m, i);
		int x = mk->ts == FTL_TS_NONE ? -1 : timeline_time_col(t, mk->ts, w);
		if (x < 0)
			continue;
		number++;
		if (x <= last_end)
			continue; /* its tick is under a label: M lists it */
		ftl_tui_put(c, y, TL_LABEL + x, 1, c->utf8 ? "\u2502" : "|", FTL_TUI_STYLE_MARK);
		/* the label when it fits before the next tick, else its number */
		int next = w;
		for (guint k = i + 1; k < ftl_markers_count(m); k++) {
			const FtlMarker *nx = ftl_markers_get(m, k);
			int nxc = nx->ts == FTL_TS_NONE ? -1 : timeline_time_col(t, nx->ts, w);
			if (nxc > x) {
				next = nxc;
				break;
			}
		}
		int end = cx > x ? MIN(cx, w) : w; /* where the cursor's column stops text */
		int room = MIN(next, end) - x - 1;
		g_autofree char *safe = ftl_escape(mk->text ? mk->text : "", -1);
		int need = (int)ftl_escape_width(safe);
		if (need >= 1 && need <= room) {
			last_end = x + ftl_tui_put(c, y, TL_LABEL + x + 1, room, safe, FTL_TUI_STYLE_MARK);
		} else {
			/* its number, over the ticks of the next ones when they
			 * crowd: those are left to the list */
			char num[16];
			g_snprintf(num, sizeof num, "%d", number);
			if ((int)strlen(num) <= end - x - 1)
				last_end = x + ftl_tui_put(c, y, TL_LABEL + x + 1, -1, num,
							   FTL_TUI_STYLE_DIM);
			else
				last_end = x;
		}
	}
}

static void timeline_ruler(TimelinePanel *t, FtlTuiApp *app, FtlTuiCanvas *c, int y, int w)
{
	char a[32], b[32], d[32], cur[48];
	ftl_tui_fill(c, y, 0, -1, FTL_TUI_STYLE_HEADER);
	g_autofree char *head =
		g_strdup_printf("%s .. %s  (a cell: %s; +/- zoom, [ ] pan, M markers)",
				ftl_tui_app_abs_time(app, t->t0, a, sizeof a),
				ftl_tui_app_abs_time(app, t->t0 + t->span, b, sizeof b),
				ftl_tui_duration(MAX(t->span / w, 1), d, sizeof d));
	ftl_tui_put(c, y, 0, -1, head, FTL_TUI_STYLE_HEADER);
	int cx = timeline_time_col(t, t->cursor, w);
	timeline_markers_row(t, app, c, y + 1, w, cx);
	if (cx >= 0)
		ftl_tui_put(c, y + 1, TL_LABEL + cx, 1, "v", FTL_TUI_STYLE_CURSOR);
	ftl_tui_put(c, y + 1, 0, TL_LABEL - 1, ftl_tui_app_time(app, t->cursor, cur, sizeof cur),
		    FTL_TUI_STYLE_DIM);
}

static void timeline_label(TimelinePanel *t, FtlTuiApp *app, FtlTuiCanvas *c, int y, int row,
			   FtlTuiStyle st)
{
	if (row >= (int)t->lanes->len && row < timeline_fixed(t)) {
		/* "thermal thermal-cpufreq-0" and "...-1" share their start: a
		 * name too long keeps its start and its end (the key's
		 * distinctive part), the cut marked */
		g_autofree char *name = timeline_counter_name(
			ftl_counters_track(app->model->counters, (guint)row - t->lanes->len));
		g_autofree char *vis = ftl_escape(name, -1);
		int room = TL_LABEL - 1;
		if ((int)ftl_escape_width(vis) <= room) {
			ftl_tui_put(c, y, 0, room, vis, st);
		} else {
			int x = ftl_tui_put(c, y, 0, (room - 1) / 2, vis, st);
			x += ftl_tui_put(c, y, x, 1, c->utf8 ? "\u2026" : "~", FTL_TUI_STYLE_DIM);
			ftl_tui_put(c, y, x, room - x, vis + ftl_escape_tail(vis, (gsize)(room - x)), st);
		}
	} else if (row >= (int)t->lanes->len) {
		/* "g comm-pid" with the pid whole, the comm cut to the room
		 * left (marked so): a row is a pid, and two rows of long or
		 * unknown names cut at the pid looked the same */
		const TaskRow *task = &g_array_index(t->tasks, TaskRow, row - timeline_fixed(t));
		char pid[16];
		int room = TL_LABEL - 1, pw = g_snprintf(pid, sizeof pid, "-%d", task->pid);
		int x = ftl_tui_put(c, y, 0, room, task->glyph, st);
		x += ftl_tui_put(c, y, x, room - x, " ", st);
		g_autofree char *comm = ftl_escape(task->comm ? task->comm : "<...>", -1);
		int cw = room - x - pw; /* a width of 0 or less would mean "to the end" */
		if (cw >= 1 && (int)ftl_escape_width(comm) > cw) {
			if (cw > 1)
				x += ftl_tui_put(c, y, x, cw - 1, comm, st);
			x += ftl_tui_put(c, y, x, 1, c->utf8 ? "\u2026" : "~", FTL_TUI_STYLE_DIM);
		} else if (cw >= 1) {
			x += ftl_tui_put(c, y, x, cw, comm, st);
		}
		if (room > x)
			ftl_tui_put(c, y, x, room - x, pid, st);
	} else {
		g_autofree char *label =
			g_strdup_printf("CPU %d", g_array_index(t->lanes, FtlTuiLane *, row)->cpu);
		ftl_tui_put(c, y, 0, TL_LABEL - 1, label, st);
	}
}

/* The legend: letters of tasks without a row of their own, as room allows. */
static void timeline_legend(TimelinePanel *t, FtlTuiCanvas *c, int y, guint first)
{
	int x = 0;
	x += ftl_tui_put(c, y, x, -1, c->utf8 ? "\u2588 runs  \u2591 runnable  " : "# runs  - runnable  ",
			 FTL_TUI_STYLE_DIM);
	guint i;
	for (i = first; i < t->tasks->len; i++) {
		const TaskRow *task = &g_array_index(t->tasks, TaskRow, i);
		if (!strcmp(task->glyph, "*"))
			break;
		g_autofree char *raw = g_strdup_printf("%s %s-%d", task->glyph,
						       task->comm ? task->comm : "<...>", task->pid);
		g_autofree char *safe = ftl_escape(raw, -1);
		int w = (int)ftl_escape_width(safe);
		if (x + w + 12 > c->cols)
			break;
		x += ftl_tui_put(c, y, x, w, safe, ftl_tui_name_style(task->comm, task->pid));
		x += ftl_tui_put(c, y, x, 2, "  ", FTL_TUI_STYLE_NORMAL);
	}
	if (i < t->tasks->len) {
		g_autofree char *more = g_strdup_printf("* %u more", t->tasks->len - i);
		ftl_tui_put(c, y, x, -1, more, FTL_TUI_STYLE_DIM);
	}
}

/* The event under the cursor: the one that made the selected row what
 * it is there (the switch a run began with, the wakeup a wait did, the
 * switch a task slept from or a CPU went idle with). */
typedef struct {
	gint64 ts; /* FTL_TS_NONE: no event to name */
	gint32 cpu;
	const char *name;
} TimelineEvent;

/* The last run of pid on lane that ended at or before ts (a few thousand
 * runs back at most), or NULL. */
static const FtlTuiRun *timeline_run_before(const FtlTuiLane *lane, gint64 ts, gint32 pid)
{
	guint i = timeline_first(lane->runs, sizeof(FtlTuiRun), ts);
	for (guint n = 0; i > 0 && n < 4096; n++) {
		const FtlTuiRun *r = &g_array_index(lane->runs, FtlTuiRun, --i);
		if (pid < 0 || r->pid == pid)
			return r;
	}
	return NULL;
}

static const char *timeline_comm(const FtlTuiRun *r)
{
	return r->comm ? r->comm : "<...>";
}

/* A counter row at ts: its value, since when, and the event that set it. */
static char *timeline_counter_at(FtlTuiApp *app, guint track, gint64 ts, TimelineEvent *at)
{
	const FtlCounterTrack *tr = ftl_counters_track(app->model->counters, track);
	g_autofree char *name = timeline_counter_name(tr);
	char d[32], a[48];
	guint n;
	/* the step that holds at ts: at a step's end, the next one's start */
	const FtlCounterStep *s = ftl_counter_steps_from(app->model->counter_steps, track, ts, &n);
	if (!n || s->t0 > ts)
		return g_strdup_printf("%s: no value yet", name);
	for (guint i = 1; i < n && s[1].t0 <= ts; i++)
		s++;
	*at = (TimelineEvent){ s->t0, -1, tr->event };
	return g_strdup_printf("%s: %s %" G_GINT64_FORMAT " at %s, held %s", name, tr->event,
			       s->value, ftl_tui_app_time(app, s->t0, a, sizeof a),
			       ftl_tui_duration(s->t1 - s->t0, d, sizeof d));
}

/* A CPU row at ts: what it does, and the event that began that. */
static char *timeline_cpu_at(FtlTuiApp *app, const FtlTuiLane *lane, gint64 ts, TimelineEvent *at)
{
	char d[32], a[48];
	gint64 cover;
	const FtlTuiRun *r = timeline_run(lane, ts, ts + 1, -1, &cover);
	if (r && r->event) {
		*at = (TimelineEvent){ r->t0, lane->cpu, r->event };
		return g_strdup_printf("CPU %d %s-%d: %s at %s, runs %s", lane->cpu,
				       timeline_comm(r), r->pid, r->event,
				       ftl_tui_app_time(app, r->t0, a, sizeof a),
				       ftl_tui_duration(r->t1 - r->t0, d, sizeof d));
	}
	if (r)
		return g_strdup_printf("CPU %d %s-%d: runs %s", lane->cpu, timeline_comm(r), r->pid,
				       ftl_tui_duration(r->t1 - r->t0, d, sizeof d));
	r = timeline_run_before(lane, ts, -1);
	if (r && r->end) {
		*at = (TimelineEvent){ r->t1, lane->cpu, r->end };
		return g_strdup_printf("CPU %d idle: %s at %s (%s-%d left)", lane->cpu, r->end,
				       ftl_tui_app_time(app, r->t1, a, sizeof a), timeline_comm(r),
				       r->pid);
	}
	return g_strdup_printf("CPU %d: idle or unknown", lane->cpu);
}

/* A task's row at ts: running, runnable or asleep, and the event that
 * made it so. */
static char *timeline_task_at(TimelinePanel *t, FtlTuiApp *app, const TaskRow *task, gint64 ts,
			      TimelineEvent *at)
{
	char d[32], a[48];
	gint64 cover;
	const char *comm = task->comm ? task->comm : "<...>";
	const FtlTuiRun *slept = NULL;
	const FtlTuiLane *slept_on = NULL;
	for (guint i = 0; i < t->lanes->len; i++) {
		const FtlTuiLane *lane = g_array_index(t->lanes, FtlTuiLane *, i);
		const FtlTuiRun *r = timeline_run(lane, ts, ts + 1, task->pid, &cover);
		if (r && r->event) {
			*at = (TimelineEvent){ r->t0, lane->cpu, r->event };
			return g_strdup_printf("%s-%d runs on CPU %d: %s at %s, runs %s", comm,
					       task->pid, lane->cpu, r->event,
					       ftl_tui_app_time(app, r->t0, a, sizeof a),
					       ftl_tui_duration(r->t1 - r->t0, d, sizeof d));
		}
		if (r)
			return g_strdup_printf("%s-%d runs on CPU %d", comm, task->pid, lane->cpu);
	}
	for (guint i = 0; i < t->lanes->len; i++) {
		const FtlTuiLane *lane = g_array_index(t->lanes, FtlTuiLane *, i);
		const FtlTuiRun *w = timeline_run_in(lane->waits, ts, ts + 1, task->pid);
		if (w && w->event) {
			*at = (TimelineEvent){ w->t0, w->cpu, w->event };
			return g_strdup_printf("%s-%d runnable for CPU %d: %s at %s on CPU %d",
					       comm, task->pid, lane->cpu, w->event,
					       ftl_tui_app_time(app, w->t0, a, sizeof a), w->cpu);
		}
		if (w)
			return g_strdup_printf("%s-%d runnable for CPU %d", comm, task->pid,
					       lane->cpu);
		const FtlTuiRun *r = timeline_run_before(lane, ts, task->pid);
		if (r && (!slept || r->t1 > slept->t1))
			slept = r, slept_on = lane;
	}
	if (slept && slept->end) {
		*at = (TimelineEvent){ slept->t1, slept_on->cpu, slept->end };
		return g_strdup_printf("%s-%d asleep: %s at %s on CPU %d", comm, task->pid,
				       slept->end, ftl_tui_app_time(app, slept->t1, a, sizeof a),
				       slept_on->cpu);
	}
	return g_strdup_printf("%s-%d: asleep or unknown", comm, task->pid);
}

/* What the selected row shows at the cursor; *at the event to name. */
static char *timeline_at(TimelinePanel *t, FtlTuiApp *app, TimelineEvent *at)
{
	*at = (TimelineEvent){ FTL_TS_NONE, -1, NULL };
	if (t->lane < (int)t->lanes->len)
		return timeline_cpu_at(app, g_array_index(t->lanes, FtlTuiLane *, t->lane),
				       t->cursor, at);
	if (t->lane < timeline_fixed(t))
		return timeline_counter_at(app, (guint)t->lane - t->lanes->len, t->cursor, at);
	return timeline_task_at(t, app,
				&g_array_index(t->tasks, TaskRow, t->lane - timeline_fixed(t)),
				t->cursor, at);
}

/* What the cursor is on, in the selected row, and the event that made it so. */
static void timeline_info(TimelinePanel *t, FtlTuiApp *app, FtlTuiCanvas *c, int y)
{
	ftl_tui_fill(c, y, 0, -1, FTL_TUI_STYLE_STATUS);
	if (!timeline_rows(t))
		return;
	TimelineEvent at;
	g_autofree char *what = timeline_at(t, app, &at);
	/* what Enter does, shorter when the line is long */
	const char *enter = at.ts != FTL_TS_NONE ? "[Enter: Events]" : "[Enter: Events here]";
	g_autofree char *safe = ftl_escape(what, -1);
	if ((int)ftl_escape_width(safe) + 3 + (int)strlen(enter) > c->cols)
		enter = "[Enter]";
	g_autofree char *line = g_strdup_printf("%s  %s", safe, enter);
	ftl_tui_put(c, y, 0, -1, line, FTL_TUI_STYLE_STATUS);
}

/* M: the markers in view, numbered as the ticks. */
static void timeline_list(TimelinePanel *t, FtlTuiApp *app, FtlTuiCanvas *c, int y, int h, int w)
{
	const FtlMarkers *m = app->model->markers;
	ftl_tui_fill(c, y, 0, -1, FTL_TUI_STYLE_HEADER);
	ftl_tui_put(c, y, 0, -1, "  #  TIME          MARKER (M: back)", FTL_TUI_STYLE_HEADER);
	int row = 1, number = 0;
	for (guint i = 0; m && i < ftl_markers_count(m) && row < h; i++) {
		const FtlMarker *mk = ftl_markers_get(m, i);
		if (mk->ts == FTL_TS_NONE || timeline_time_col(t, mk->ts, w) < 0)
			continue;
		number++;
		char ts[32];
		g_autofree char *raw = g_strdup_printf("%3d  %12s  %s", number,
						       ftl_tui_app_time(app, mk->ts, ts, sizeof ts),
						       mk->text ? mk->text : "");
		ftl_tui_put_raw(c, y + row++, 0, -1, raw, -1, FTL_TUI_STYLE_NORMAL);
	}
	if (!number)
		ftl_tui_put(c, y + 1, 2, -1, "no marker in view", FTL_TUI_STYLE_DIM);
}

/* The screen row of row i (CPUs, counters, tasks) from y0, or -1 when it
 * is not shown. */
static int timeline_row_y(TimelinePanel *t, int i, int y0)
{
	int n_fixed = timeline_fixed(t);
	int row = i < n_fixed ? i : n_fixed + (i - n_fixed - t->top);
	if (i < 0 || i >= timeline_rows(t) || (i >= n_fixed && i - n_fixed < t->top) ||
	    row >= t->base.page)
		return -1;
	return y0 + row;
}

/* The row of CPU cpu's lane, or -1. */
static int timeline_cpu_row(TimelinePanel *t, gint32 cpu)
{
	for (guint i = 0; i < t->lanes->len; i++)
		if (g_array_index(t->lanes, FtlTuiLane *, i)->cpu == cpu)
			return (int)i;
	return -1;
}

/* The row of task pid, or -1. */
static int timeline_task_row(TimelinePanel *t, gint32 pid)
{
	guint at = GPOINTER_TO_UINT(g_hash_table_lookup(t->by_pid, GINT_TO_POINTER(pid)));
	return at ? timeline_fixed(t) + (int)at - 1 : -1;
}

static void timeline_mark(TimelinePanel *t, FtlTuiCanvas *c, int row, gint64 ts, int y0, int w,
			  const char *glyph, FtlTuiStyle st)
{
	int yy = timeline_row_y(t, row, y0), x = timeline_time_col(t, ts, w);
	if (yy >= 0 && x >= 0)
		ftl_tui_put(c, yy, TL_LABEL + x, 1, glyph, st);
}

/* W: each wakeup in view marked where it was issued (the waker's CPU and
 * the waker's row) and where it was served (the CPU that ran the task and
 * its row); the selected one in the cursor's colour. */
static void timeline_wake_marks(TimelinePanel *t, FtlTuiApp *app, FtlTuiCanvas *c, int y0, int w)
{
	const GArray *a = ftl_tui_wakes_get(&t->wakes, app);
	const FtlSchedWakeup *sel = ftl_tui_wakes_selected(&t->wakes, app);
	const char *waking = c->utf8 ? "\u25c6" : "@", *ran = c->utf8 ? "\u25b2" : "^";
	for (guint i = 0; a && i <= a->len; i++) {
		/* the selected one last, over the others */
		const FtlSchedWakeup *k = i < a->len ? &g_array_index(a, FtlSchedWakeup, i) : sel;
		if (!k || (i < a->len && k == sel) || k->ts < t->t0 || k->wake_ts >= t->t0 + t->span)
			continue;
		FtlTuiStyle st = k == sel ? FTL_TUI_STYLE_CURSOR : FTL_TUI_STYLE_MARK;
		timeline_mark(t, c, timeline_cpu_row(t, k->waker_cpu), k->wake_ts, y0, w, waking, st);
		timeline_mark(t, c, timeline_task_row(t, k->waker_pid), k->wake_ts, y0, w, waking,
			      st);
		timeline_mark(t, c, timeline_cpu_row(t, k->cpu), k->ts, y0, w, ran, st);
		timeline_mark(t, c, timeline_task_row(t, k->pid), k->ts, y0, w, ran, st);
	}
}

static void timeline_draw(FtlTuiPanel *p, FtlTuiApp *app, FtlTuiCanvas *c, int y, int h)
{
	TimelinePanel *t = (TimelinePanel *)p;
	int w = c->cols - TL_LABEL;
	if (ftl_tui_compare_on(app)) {
		ftl_tui_timeline_compare_draw(t->compare, p, app, c, y, h);
		return;
	}
	/* ruler, markers; rows; legend, info */
	p->page = MAX(h - 4, 1);
	if (!app->model || t->for_model != app->model->gen || t->span <= 0 || w < 1 || h < 5) {
		ftl_tui_put(c, y, 0, -1, "Timeline: reading...", FTL_TUI_STYLE_HEADER);
		return;
	}
	timeline_ruler(t, app, c, y, w);
	if (t->list) {
		timeline_list(t, app, c, y + 2, h - 3, w);
		timeline_info(t, app, c, y + h - 1);
		return;
	}
	/* W: the list of wakeups under the lanes, a third of the room */
	int wh = t->wakes.pid >= 0 ? CLAMP((h - 4) / 3, 3, 12) : 0;
	if (wh && h - 4 - wh >= 1) {
		p->page = h - 4 - wh;
		const TaskRow *task = timeline_task(t, t->wakes.pid);
		ftl_tui_wakes_draw(&t->wakes, app, c, y + 2 + p->page, wh,
				   task ? task->comm : NULL);
	}
	int cx = timeline_time_col(t, t->cursor, w);
	int n_cpu = (int)t->lanes->len, n_fixed = timeline_fixed(t), shown = 0;
	for (int row = 0; row < p->page; row++) {
		/* the CPUs and counters always, then the tasks from t->top */
		int i = row < n_fixed ? row : n_fixed + t->top + (row - n_fixed);
		if (i >= timeline_rows(t))
			break;
		int yy = y + 2 + row;
		shown = i - n_fixed + 1;
		timeline_label(t, app, c, yy, i,
			       i == t->lane ? FTL_TUI_STYLE_CURSOR : FTL_TUI_STYLE_NORMAL);
		for (int x = 0; x < w; x++) {
			gint64 a = timeline_col_time(t, x, w);
			gint64 b = MAX(timeline_col_time(t, x + 1, w), a + 1);
			const char *ch;
			FtlTuiStyle st;
			if (i < n_cpu)
				timeline_cpu_cell(t, c, g_array_index(t->lanes, FtlTuiLane *, i), a, b,
						  &st, &ch);
			else if (i < n_fixed)
				timeline_counter_cell(app, c, (guint)(i - n_cpu), a, b, &st, &ch);
			else
				timeline_task_cell(t, c, &g_array_index(t->tasks, TaskRow, i - n_fixed),
						   a, b, &st, &ch);
			/* the cursor's column: the cursor on the selected row */
			if (x == cx)
				st = i == t->lane ? FTL_TUI_STYLE_CURSOR : FTL_TUI_STYLE_MARK;
			if (x == cx && !strcmp(ch, " "))
				ch = c->utf8 ? "\u2502" : "|";
			ftl_tui_put(c, yy, TL_LABEL + x, 1, ch, st);
		}
	}
	timeline_wake_marks(t, app, c, y + 2, w);
	timeline_legend(t, c, y + h - 2, (guint)MAX(shown, 0));
	timeline_info(t, app, c, y + h - 1);
}

/* ---- the model, moving ------------------------------------------------------------ */

static gint timeline_task_cmp(gconstpointer a, gconstpointer b)
{
	const TaskRow *x = a, *y = b;
	if (x->run != y->run)
		return x->run > y->run ? -1 : 1;
	return (x->pid > y->pid) - (x->pid < y->pid);
}

static void timeline_tasks(TimelinePanel *t)
{
	g_autoptr(GHashTable) idx = g_hash_table_new(g_direct_hash, g_direct_equal);
	g_array_set_size(t->tasks, 0);
	for (guint i = 0; i < t->lanes->len; i++) {
		const FtlTuiLane *lane = g_array_index(t->lanes, FtlTuiLane *, i);
		for (guint k = 0; k < lane->runs->len; k++) {
			const FtlTuiRun *r = &g_array_index(lane->runs, FtlTuiRun, k);
			gpointer at;
			if (!g_hash_table_lookup_extended(idx, GINT_TO_POINTER(r->pid), NULL,
							  &at)) {
				TaskRow row = { r->pid, r->comm, 0, "*" };
				at = GUINT_TO_POINTER(t->tasks->len);
				g_array_append_val(t->tasks, row);
				g_hash_table_insert(idx, GINT_TO_POINTER(r->pid), at);
			}
			TaskRow *row = &g_array_index(t->tasks, TaskRow, GPOINTER_TO_UINT(at));
			row->run += r->t1 - r->t0;
			if (!row->comm)
				row->comm = r->comm;
		}
	}
	g_array_sort(t->tasks, timeline_task_cmp);
	/* letters by running time; the legend and the CPU rows use them */
	static const char letters[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
	g_hash_table_remove_all(t->by_pid);
	for (guint i = 0; i < t->tasks->len; i++) {
		TaskRow *row = &g_array_index(t->tasks, TaskRow, i);
		if (i < sizeof letters - 1)
			g_snprintf(row->glyph, sizeof row->glyph, "%c", letters[i]);
		g_hash_table_insert(t->by_pid, GINT_TO_POINTER(row->pid), GUINT_TO_POINTER(i + 1));
	}
}

static FtlTuiReaction timeline_tick(FtlTuiPanel *p, FtlTuiApp *app)
{
	TimelinePanel *t = (TimelinePanel *)p;
	if (ftl_tui_compare_on(app))
		return ftl_tui_timeline_compare_tick(t->compare, app);
	/* only the panel shown reads the wakeups: one side analysis at a time */
	FtlTuiReaction r = app->current == FTL_TUI_PANEL_TIMELINE
				   ? ftl_tui_wakes_tick(&t->wakes, app)
				   : FTL_TUI_REACT_NONE;
	if (!app->model || t->for_model == app->model->gen)
		return r;
	t->for_model = app->model->gen;
	g_array_set_size(t->lanes, 0);
	for (guint i = 0; i < app->model->lanes->len; i++) {
		FtlTuiLane *lane = app->model->lanes->pdata[i];
		if (lane)
			g_array_append_val(t->lanes, lane);
	}
	timeline_tasks(t);
	t->n_ctr = app->model->counters ? ftl_counters_n_tracks(app->model->counters) : 0;
	gint64 first = app->model->first_ts, last = app->model->last_ts;
	if (first == FTL_TS_NONE)
		return FTL_TUI_REACT_REDRAW;
	if (t->cursor == FTL_TS_NONE || t->cursor < first || t->cursor > last)
		t->cursor = first;
	t->t0 = first;
	t->span = MAX(last - first, 1) + 1;
	t->lane = MIN(t->lane, MAX(timeline_rows(t) - 1, 0));
	return FTL_TUI_REACT_REDRAW;
}

/* Keeps the cursor in view, panning a quarter of it at a time. */
static void timeline_follow(TimelinePanel *t, FtlTuiApp *app)
{
	gint64 first = app->model->first_ts, last = app->model->last_ts;
	t->cursor = CLAMP(t->cursor, first, last);
	while (t->cursor < t->t0)
		t->t0 -= MAX(t->span / 4, 1);
	while (t->cursor >= t->t0 + t->span)
		t->t0 += MAX(t->span / 4, 1);
	app->follow_ts = t->cursor;
}

static void timeline_zoom(TimelinePanel *t, FtlTuiApp *app, gboolean in, int w)
{
	gint64 full = MAX(app->model->last_ts - app->model->first_ts, 1) + 1;
	double at = (double)(t->cursor - t->t0) / (double)t->span; /* the cursor stays put */
	gint64 span = in ? MAX(t->span / 2, (gint64)w) : MIN(t->span * 2, full);
	t->t0 = t->cursor - (gint64)(at * (double)span);
	t->span = span;
	t->t0 = CLAMP(t->t0, app->model->first_ts, app->model->first_ts + full - span);
}

/* Keeps the selected task row in view below the CPU and counter rows. */
static void timeline_scroll(TimelinePanel *t, int page)
{
	int n_cpu = timeline_fixed(t);
	if (t->lane < n_cpu)
		return;
	gint64 top = t->top;
	ftl_tui_scroll(&top, t->lane - n_cpu, MAX(page - n_cpu, 1));
	t->top = (int)top;
}

/* W: the selected task's wakeups shown, or hidden. */
static FtlTuiReaction timeline_wakeups(TimelinePanel *t, FtlTuiApp *app)
{
	if (t->wakes.pid >= 0) {
		ftl_tui_wakes_show(&t->wakes, -1);
		return FTL_TUI_REACT_REDRAW;
	}
	int n_fixed = timeline_fixed(t);
	if (t->lane < n_fixed || t->lane >= timeline_rows(t)) {
		ftl_tui_app_say(app, TRUE, "W: select a task's row (below the CPUs)");
		return FTL_TUI_REACT_STATUS;
	}
	ftl_tui_wakes_show(&t->wakes, g_array_index(t->tasks, TaskRow, t->lane - n_fixed).pid);
	return ftl_tui_wakes_tick(&t->wakes, app) | FTL_TUI_REACT_REDRAW;
}

/* W and the keys of its list, when it is shown: FTL_TUI_REACT_NONE for
 * the others. */
static FtlTuiReaction timeline_wakes_command(TimelinePanel *t, FtlTuiApp *app, FtlTuiCmd cmd)
{
	if (cmd == FTL_TUI_CMD_WAKEUPS)
		return timeline_wakeups(t, app);
	gboolean moved;
	FtlTuiReaction wr = ftl_tui_wakes_command(&t->wakes, app, cmd, 4, &moved);
	const FtlSchedWakeup *sel = moved ? ftl_tui_wakes_selected(&t->wakes, app) : NULL;
	if (sel) {
		/* the view follows the wakeup selected */
		t->cursor = sel->wake_ts;
		timeline_follow(t, app);
	}
	return wr;
}

static FtlTuiReaction timeline_command(FtlTuiPanel *p, FtlTuiApp *app, FtlTuiCmd cmd,
				       const FtlTuiInput *in)
{
	TimelinePanel *t = (TimelinePanel *)p;
	if (ftl_tui_compare_on(app))
		return ftl_tui_timeline_compare_command(t->compare, p, app, cmd, in);
	int w = MAX(app->cols - TL_LABEL, 1);
	gint64 lane = t->lane;
	if (!app->model || t->for_model != app->model->gen || t->span <= 0)
		return FTL_TUI_REACT_NONE;
	FtlTuiReaction wr = timeline_wakes_command(t, app, cmd);
	if (wr)
		return wr;
	if (cmd != FTL_TUI_CMD_TOP && cmd != FTL_TUI_CMD_BOTTOM &&
	    ftl_tui_move(&lane, timeline_rows(t), p->page, cmd)) {
		t->lane = (gint)lane;
		timeline_scroll(t, p->page);
		return FTL_TUI_REACT_REDRAW;
	}
	switch (cmd) {
	case FTL_TUI_CMD_CLICK: {
		/* rows from screen row 3 (tabs, ruler, markers); the column's time */
		int row = in->y - 3, n_cpu = timeline_fixed(t);
		int i = row < n_cpu ? row : n_cpu + t->top + (row - n_cpu);
		if (row < 0 || row >= p->page || i >= timeline_rows(t) || in->x < TL_LABEL)
			return FTL_TUI_REACT_NONE;
		t->lane = i;
		t->cursor = timeline_col_time(t, MIN(in->x - TL_LABEL, w - 1), w);
		break;
	}
	case FTL_TUI_CMD_PAN_LEFT:
	case FTL_TUI_CMD_PAN_RIGHT: {
		gint64 d = (cmd == FTL_TUI_CMD_PAN_LEFT ? -1 : 1) * MAX(t->span / 2, 1);
		gint64 full = MAX(app->model->last_ts - app->model->first_ts, 1) + 1;
		t->t0 = CLAMP(t->t0 + d, app->model->first_ts,
			      app->model->first_ts + MAX(full - t->span, 0));
		t->cursor = CLAMP(t->cursor + d, t->t0, t->t0 + t->span - 1);
		break;
	}
	case FTL_TUI_CMD_MARKER_LIST:
		t->list = !t->list;
		return FTL_TUI_REACT_REDRAW;
	case FTL_TUI_CMD_BACK:
		if (!t->list)
			return FTL_TUI_REACT_NONE;
		t->list = FALSE;
		return FTL_TUI_REACT_REDRAW;
	case FTL_TUI_CMD_LEFT:
	case FTL_TUI_CMD_RIGHT:
		t->cursor += (cmd == FTL_TUI_CMD_LEFT ? -1 : 1) * MAX(t->span / w, 1);
		break;
	case FTL_TUI_CMD_TOP:
	case FTL_TUI_CMD_BOTTOM:
		t->cursor = cmd == FTL_TUI_CMD_TOP ? app->model->first_ts : app->model->last_ts;
		break;
	case FTL_TUI_CMD_ZOOM_IN:
	case FTL_TUI_CMD_ZOOM_OUT:
		timeline_zoom(t, app, cmd == FTL_TUI_CMD_ZOOM_IN, w);
		break;
	case FTL_TUI_CMD_ACTIVATE: {
		TimelineEvent at;
		g_free(timeline_at(t, app, &at));
		if (at.ts != FTL_TS_NONE)
			return ftl_tui_go_event(app, at.ts, at.cpu, at.name);
		return ftl_tui_go_time(app, t->cursor);
	}
	default:
		return FTL_TUI_REACT_NONE;
	}
	timeline_follow(t, app);
	return FTL_TUI_REACT_REDRAW;
}

static gint64 timeline_cursor_time(FtlTuiPanel *p, FtlTuiApp *app)
{
	if (ftl_tui_compare_on(app))
		return ftl_tui_timeline_compare_time(((TimelinePanel *)p)->compare, app);
	return ((TimelinePanel *)p)->cursor;
}

static FtlTuiReaction timeline_goto_time(FtlTuiPanel *p, FtlTuiApp *app, gint64 ts)
{
	TimelinePanel *t = (TimelinePanel *)p;
	if (!app->model || t->for_model != app->model->gen || t->span <= 0 || ftl_tui_compare_on(app))
		return FTL_TUI_REACT_NONE;
	t->cursor = ts;
	t->t0 = ts - t->span / 2;
	t->t0 = MAX(t->t0, app->model->first_ts);
	timeline_follow(t, app);
	return FTL_TUI_REACT_REDRAW;
}

/* The window, the cursor's time and the row selected. */
static void timeline_save(FtlTuiPanel *p, FtlTuiApp *app, FtlTuiView *v)
{
	TimelinePanel *t = (TimelinePanel *)p;
	if (!app->model || t->for_model != app->model->gen || t->span <= 0 ||
	    t->cursor == FTL_TS_NONE)
		return;
	ftl_tui_view_set_int(v, "timeline", "t0", t->t0);
	ftl_tui_view_set_int(v, "timeline", "span", t->span);
	ftl_tui_view_set_int(v, "timeline", "cursor", t->cursor);
	ftl_tui_view_set_int(v, "timeline", "lane", MAX(t->lane, 0));
	ftl_tui_view_set_int(v, "timeline", "top", MAX(t->top, 0));
}

/* Another trace's window is cut to this one's time. */
static void timeline_restore(FtlTuiPanel *p, FtlTuiApp *app, const FtlTuiView *v, gboolean same)
{
	TimelinePanel *t = (TimelinePanel *)p;
	(void)same;
	timeline_tick(p, app);
	gint64 t0, span, cursor, lane, top;
	if (!app->model || t->for_model != app->model->gen || t->span <= 0)
		return;
	gint64 first = app->model->first_ts;
	gint64 full = MAX(app->model->last_ts - first, 1) + 1;
	if (ftl_tui_view_get_int(v, "timeline", "span", &span) &&
	    ftl_tui_view_get_int(v, "timeline", "t0", &t0)) {
		t->span = MIN(span, full);
		t->t0 = t0 < first ? first : MIN(t0, first + full - t->span);
	}
	if (ftl_tui_view_get_int(v, "timeline", "cursor", &cursor))
		t->cursor = CLAMP(cursor, first, app->model->last_ts);
	if (ftl_tui_view_get_int(v, "timeline", "lane", &lane))
		t->lane = (gint)MIN(lane, MAX(timeline_rows(t) - 1, 0));
	if (ftl_tui_view_get_int(v, "timeline", "top", &top))
		t->top = (gint)MIN(top, MAX((gint64)t->tasks->len - 1, 0));
	t->cursor = CLAMP(t->cursor, t->t0, t->t0 + t->span - 1);
}

const FtlTuiPanelClass ftl_tui_timeline_panel = {
	.id = FTL_TUI_PANEL_TIMELINE,
	.name = "Timeline",
	.new = timeline_new,
	.free = timeline_free,
	.available = ftl_tui_app_has_events,
	.empty = timeline_empty,
	.needs_model = TRUE,
	.draw = timeline_draw,
	.command = timeline_command,
	.cursor_time = timeline_cursor_time,
	.goto_time = timeline_goto_time,
	.tick = timeline_tick,
	.save = timeline_save,
	.restore = timeline_restore,
};
