/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The Timeline panel: a row per CPU (or per task), the task that ran most
 * of each column's time shown by its initial and colour, idle blank,
 * interrupts '!', lost stretches shaded, markers as labelled ticks above;
 * zoom around a cursor whose time the Events list follows. */
#include "config.h"

#include <string.h>

#include "util/escape.h"
#include "views/tui/app.h"

#define TL_LABEL 13 /* columns before the lanes */

typedef struct {
	gint32 pid;
	const char *comm;
	gint64 run;
} TaskRow;

typedef struct {
	FtlTuiPanel base;
	gint64 t0, span; /* the view: [t0, t0 + span) over the lane columns */
	gint64 cursor;
	gint lane, top;
	gboolean per_task;
	gconstpointer for_model;
	GArray *lanes; /* FtlTuiLane* of the model, CPUs that have one */
	GArray *tasks; /* TaskRow, most running time first */
} TimelinePanel;

static FtlTuiPanel *timeline_new(void)
{
	TimelinePanel *t = g_new0(TimelinePanel, 1);
	t->lanes = g_array_new(FALSE, FALSE, sizeof(FtlTuiLane *));
	t->tasks = g_array_new(FALSE, FALSE, sizeof(TaskRow));
	t->cursor = FTL_TS_NONE;
	return &t->base;
}

static void timeline_free(FtlTuiPanel *p)
{
	TimelinePanel *t = (TimelinePanel *)p;
	g_array_unref(t->lanes);
	g_array_unref(t->tasks);
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
	return (int)(t->per_task ? t->tasks->len : t->lanes->len);
}

/* ---- what a column shows ------------------------------------------------------ */

/* The first interval of arr (sorted, t0/t1 first in each element) ending after a. */
static guint timeline_first(GArray *arr, gsize elt, gint64 a)
{
	guint lo = 0, hi = arr->len;
	while (lo < hi) {
		guint mid = lo + (hi - lo) / 2;
		const FtlTuiSpan *s = (const FtlTuiSpan *)(arr->data + mid * elt);
		if (s->t1 <= a)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static gboolean timeline_any(GArray *spans, gint64 a, gint64 b)
{
	guint i = timeline_first(spans, sizeof(FtlTuiSpan), a);
	return i < spans->len && g_array_index(spans, FtlTuiSpan, i).t0 < b;
}

/* The run of lane that covers most of [a, b), or NULL (idle, unknown);
 * with pid >= 0 only that task's runs count. *cover gets its time. */
static const FtlTuiRun *timeline_run(const FtlTuiLane *lane, gint64 a, gint64 b, gint32 pid,
				     gint64 *cover)
{
	const FtlTuiRun *best = NULL;
	gint64 best_t = 0;
	for (guint i = timeline_first(lane->runs, sizeof(FtlTuiRun), a); i < lane->runs->len; i++) {
		const FtlTuiRun *r = &g_array_index(lane->runs, FtlTuiRun, i);
		if (r->t0 >= b)
			break;
		gint64 t = MIN(r->t1, b) - MAX(r->t0, a);
		if ((pid < 0 || r->pid == pid) && t > best_t)
			best = r, best_t = t;
	}
	*cover = best_t;
	return best;
}

/* A task's initial, made visible (a comm is trace text). */
static void timeline_initial(const char *comm, gint32 pid, char out[16])
{
	if (!comm || !*comm) {
		g_snprintf(out, 16, "%d", pid % 10);
		return;
	}
	g_autofree char *safe = ftl_escape(comm, -1);
	gsize n = (gsize)(g_utf8_next_char(safe) - safe);
	memcpy(out, safe, MIN(n, 15));
	out[MIN(n, 15)] = 0;
	if (ftl_escape_width(out) != 1)
		g_strlcpy(out, "*", 16); /* a wide or escaped initial would not fit a cell */
}

static void timeline_cell(TimelinePanel *t, FtlTuiCanvas *c, int y, int x, int row, gint64 a,
			  gint64 b, int cursor)
{
	char ch[16] = " ";
	FtlTuiStyle st = FTL_TUI_STYLE_NORMAL;
	gint64 cover;
	if (t->per_task) {
		const TaskRow *task = &g_array_index(t->tasks, TaskRow, row);
		gint64 best = 0;
		for (guint i = 0; i < t->lanes->len; i++) {
			const FtlTuiLane *lane = g_array_index(t->lanes, FtlTuiLane *, i);
			if (timeline_run(lane, a, b, task->pid, &cover) && cover > best) {
				best = cover;
				g_snprintf(ch, sizeof ch, "%d", lane->cpu % 10);
				st = ftl_tui_name_style(task->comm, task->pid);
			}
		}
	} else {
		const FtlTuiLane *lane = g_array_index(t->lanes, FtlTuiLane *, row);
		const FtlTuiRun *r = timeline_run(lane, a, b, -1, &cover);
		if (r) {
			timeline_initial(r->comm, r->pid, ch);
			st = ftl_tui_name_style(r->comm, r->pid);
		}
		if (timeline_any(lane->irqs, a, b)) {
			g_strlcpy(ch, "!", sizeof ch);
			st = FTL_TUI_STYLE_IRQ;
		}
		if (timeline_any(lane->lost, a, b)) {
			g_strlcpy(ch, c->utf8 ? "\u2591" : "~", sizeof ch);
			st = FTL_TUI_STYLE_WARN;
		}
	}
	/* the cursor's column: the cursor on the selected row, a mark on the others */
	ftl_tui_put(c, y, x, 1, ch,
		    cursor == 2 ? FTL_TUI_STYLE_CURSOR
		    : cursor	? FTL_TUI_STYLE_MARK
				: st);
}

/* ---- drawing --------------------------------------------------------------------- */

static gint64 timeline_col_time(TimelinePanel *t, int col, int w)
{
	return t->t0 + (gint64)((double)t->span * col / w);
}

static int timeline_time_col(TimelinePanel *t, gint64 ts, int w)
{
	return (int)((double)(ts - t->t0) * w / (double)t->span);
}

static void timeline_ruler(TimelinePanel *t, FtlTuiApp *app, FtlTuiCanvas *c, int y, int w)
{
	char a[32], b[32], d[32], cur[48];
	ftl_tui_fill(c, y, 0, -1, FTL_TUI_STYLE_HEADER);
	g_autofree char *head =
		g_strdup_printf("%s  %s .. %s  (a column: %s)", t->per_task ? "TASK" : "CPU",
				ftl_time_format_us(t->t0, a, sizeof a),
				ftl_time_format_us(t->t0 + t->span, b, sizeof b),
				ftl_tui_duration(MAX(t->span / w, 1), d, sizeof d));
	ftl_tui_put(c, y, 0, -1, head, FTL_TUI_STYLE_HEADER);
	int cx = timeline_time_col(t, t->cursor, w);
	if (cx >= 0 && cx < w)
		ftl_tui_put(c, y + 1, TL_LABEL + cx, 1, "v", FTL_TUI_STYLE_MARK);
	/* the marker row: ticks, and labels where they fit */
	const FtlMarkers *m = app->model->markers;
	int last_end = -1;
	for (guint i = 0; i < ftl_markers_count(m); i++) {
		const FtlMarker *mk = ftl_markers_get(m, i);
		if (mk->ts == FTL_TS_NONE || mk->ts < t->t0 || mk->ts >= t->t0 + t->span)
			continue;
		int x = timeline_time_col(t, mk->ts, w);
		ftl_tui_put(c, y + 1, TL_LABEL + x, 1, c->utf8 ? "\u2502" : "|",
			    FTL_TUI_STYLE_MARK);
		if (x > last_end)
			last_end = x + ftl_tui_put_raw(c, y + 1, TL_LABEL + x + 1, 16, mk->text, -1,
						       FTL_TUI_STYLE_MARK);
	}
	ftl_tui_put(c, y + 1, 0, TL_LABEL, ftl_tui_app_time(app, t->cursor, cur, sizeof cur),
		    FTL_TUI_STYLE_DIM);
}

static void timeline_label(TimelinePanel *t, FtlTuiCanvas *c, int y, int row, FtlTuiStyle st)
{
	if (t->per_task) {
		const TaskRow *task = &g_array_index(t->tasks, TaskRow, row);
		g_autofree char *raw =
			g_strdup_printf("%s-%d", task->comm ? task->comm : "<...>", task->pid);
		ftl_tui_put_raw(c, y, 0, TL_LABEL - 1, raw, -1, st);
	} else {
		g_autofree char *label =
			g_strdup_printf("CPU %d", g_array_index(t->lanes, FtlTuiLane *, row)->cpu);
		ftl_tui_put(c, y, 0, TL_LABEL - 1, label, st);
	}
}

/* What runs on the selected row at the cursor. */
static void timeline_info(TimelinePanel *t, FtlTuiCanvas *c, int y)
{
	ftl_tui_fill(c, y, 0, -1, FTL_TUI_STYLE_STATUS);
	if (t->per_task || !t->lanes->len)
		return;
	const FtlTuiLane *lane = g_array_index(t->lanes, FtlTuiLane *, t->lane);
	gint64 cover;
	const FtlTuiRun *r = timeline_run(lane, t->cursor, t->cursor + 1, -1, &cover);
	char d[32];
	g_autofree char *what = r ? g_strdup_printf("CPU %d: %s-%d, running %s here", lane->cpu,
						    r->comm ? r->comm : "<...>", r->pid,
						    ftl_tui_duration(r->t1 - r->t0, d, sizeof d))
				  : g_strdup_printf("CPU %d: idle or unknown", lane->cpu);
	ftl_tui_put_raw(c, y, 0, -1, what, -1, FTL_TUI_STYLE_STATUS);
}

static void timeline_draw(FtlTuiPanel *p, FtlTuiApp *app, FtlTuiCanvas *c, int y, int h)
{
	TimelinePanel *t = (TimelinePanel *)p;
	int w = c->cols - TL_LABEL;
	p->page = MAX(h - 3, 1);
	if (!app->model || t->span <= 0 || w < 1) {
		ftl_tui_put(c, y, 0, -1, "Timeline: reading...", FTL_TUI_STYLE_HEADER);
		return;
	}
	timeline_ruler(t, app, c, y, w);
	int cx = timeline_time_col(t, t->cursor, w);
	for (int row = 0; row < p->page && t->top + row < timeline_rows(t); row++) {
		int i = t->top + row, yy = y + 2 + row;
		timeline_label(t, c, yy, i,
			       i == t->lane ? FTL_TUI_STYLE_CURSOR : FTL_TUI_STYLE_NORMAL);
		for (int x = 0; x < w; x++)
			timeline_cell(
				t, c, yy, TL_LABEL + x, i, timeline_col_time(t, x, w),
				MAX(timeline_col_time(t, x + 1, w), timeline_col_time(t, x, w) + 1),
				x == cx ? (i == t->lane ? 2 : 1) : 0);
	}
	timeline_info(t, c, y + h - 1);
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
				TaskRow row = { r->pid, r->comm, 0 };
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
}

static FtlTuiReaction timeline_tick(FtlTuiPanel *p, FtlTuiApp *app)
{
	TimelinePanel *t = (TimelinePanel *)p;
	if (!app->model || t->for_model == app->model)
		return FTL_TUI_REACT_NONE;
	t->for_model = app->model;
	g_array_set_size(t->lanes, 0);
	for (guint i = 0; i < app->model->lanes->len; i++) {
		FtlTuiLane *lane = app->model->lanes->pdata[i];
		if (lane)
			g_array_append_val(t->lanes, lane);
	}
	timeline_tasks(t);
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

static FtlTuiReaction timeline_command(FtlTuiPanel *p, FtlTuiApp *app, FtlTuiCmd cmd,
				       const FtlTuiInput *in)
{
	TimelinePanel *t = (TimelinePanel *)p;
	int w = MAX(app->cols - TL_LABEL, 1);
	gint64 lane = t->lane;
	(void)in;
	if (!app->model || t->span <= 0)
		return FTL_TUI_REACT_NONE;
	if (cmd != FTL_TUI_CMD_TOP && cmd != FTL_TUI_CMD_BOTTOM &&
	    ftl_tui_move(&lane, timeline_rows(t), p->page, cmd)) {
		t->lane = (gint)lane;
		gint64 top = t->top;
		ftl_tui_scroll(&top, lane, p->page);
		t->top = (gint)top;
		return FTL_TUI_REACT_REDRAW;
	}
	switch (cmd) {
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
	case FTL_TUI_CMD_GROUP:
		t->per_task = !t->per_task;
		t->lane = t->top = 0;
		return FTL_TUI_REACT_REDRAW;
	case FTL_TUI_CMD_ACTIVATE:
		return ftl_tui_go_time(app, t->cursor);
	default:
		return FTL_TUI_REACT_NONE;
	}
	timeline_follow(t, app);
	return FTL_TUI_REACT_REDRAW;
}

static gint64 timeline_cursor_time(FtlTuiPanel *p, FtlTuiApp *app)
{
	(void)app;
	return ((TimelinePanel *)p)->cursor;
}

static FtlTuiReaction timeline_goto_time(FtlTuiPanel *p, FtlTuiApp *app, gint64 ts)
{
	TimelinePanel *t = (TimelinePanel *)p;
	if (!app->model || t->span <= 0)
		return FTL_TUI_REACT_NONE;
	t->cursor = ts;
	t->t0 = ts - t->span / 2;
	t->t0 = MAX(t->t0, app->model->first_ts);
	timeline_follow(t, app);
	return FTL_TUI_REACT_REDRAW;
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
};
