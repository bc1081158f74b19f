/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The Timeline panel with --compare: A's CPUs above B's, each trace on its
 * own time axis, both from the left edge: at their starts, or (X) at a
 * marker both have. A CPU's cell shows the letter of the task that ran
 * most of it (letters by running time, per trace), '!' an interrupt,
 * shading a lost stretch, as the Timeline of one trace does. */
#include "config.h"

#include <string.h>

#include "util/escape.h"
#include "views/tui/compare.h"

#define TC_LABEL 13 /* columns before the lanes */

struct _FtlTuiTimelineCompare {
	gconstpointer for_model;
	gint64 origin[2];    /* A's and B's time at the left edge of offset 0 */
	gint64 t0, span;     /* the view, as offsets from the origins */
	gint64 cursor, len;  /* an offset; the longer trace's length */
	GPtrArray *lanes[2]; /* FtlTuiLane* of A and B (borrowed from the model) */
	GHashTable *letter[2]; /* pid -> its letter's index + 1, by running time */
	gint lane;	       /* the selected row: A's lanes, then B's */
	char *aligned;	       /* the marker text B is aligned at, or NULL: the starts */
};

FtlTuiTimelineCompare *ftl_tui_timeline_compare_new(void)
{
	FtlTuiTimelineCompare *tc = g_new0(FtlTuiTimelineCompare, 1);
	for (int s = 0; s < 2; s++) {
		tc->lanes[s] = g_ptr_array_new();
		tc->letter[s] = g_hash_table_new(g_direct_hash, g_direct_equal);
	}
	return tc;
}

void ftl_tui_timeline_compare_free(FtlTuiTimelineCompare *tc)
{
	if (!tc)
		return;
	for (int s = 0; s < 2; s++) {
		g_ptr_array_unref(tc->lanes[s]);
		g_hash_table_unref(tc->letter[s]);
	}
	g_free(tc->aligned);
	g_free(tc);
}

static const FtlTuiModel *tc_side(const FtlTuiApp *app, int s)
{
	return s ? app->model->compare : app->model;
}

static int tc_rows(const FtlTuiTimelineCompare *tc)
{
	return (int)(tc->lanes[0]->len + tc->lanes[1]->len);
}

/* The side and lane of row i. */
static const FtlTuiLane *tc_lane(const FtlTuiTimelineCompare *tc, int i, int *side)
{
	*side = i >= (int)tc->lanes[0]->len;
	return tc->lanes[*side]->pdata[*side ? i - (int)tc->lanes[0]->len : i];
}

typedef struct {
	gint32 pid;
	gint64 run;
} TcTask;

static gint tc_task_cmp(gconstpointer a, gconstpointer b)
{
	const TcTask *x = a, *y = b;
	if (x->run != y->run)
		return x->run > y->run ? -1 : 1;
	return (x->pid > y->pid) - (x->pid < y->pid);
}

/* Letters by running time, per trace, as the Timeline gives them. */
static void tc_letters(FtlTuiTimelineCompare *tc, int s)
{
	g_autoptr(GHashTable) run = g_hash_table_new(g_direct_hash, g_direct_equal);
	g_autoptr(GArray) tasks = g_array_new(FALSE, FALSE, sizeof(TcTask));
	for (guint i = 0; i < tc->lanes[s]->len; i++) {
		const FtlTuiLane *lane = tc->lanes[s]->pdata[i];
		for (guint k = 0; k < lane->runs->len; k++) {
			const FtlTuiRun *r = &g_array_index(lane->runs, FtlTuiRun, k);
			guint at = GPOINTER_TO_UINT(g_hash_table_lookup(run, GINT_TO_POINTER(r->pid)));
			if (!at) {
				TcTask t = { r->pid, 0 };
				g_array_append_val(tasks, t);
				at = tasks->len;
				g_hash_table_insert(run, GINT_TO_POINTER(r->pid), GUINT_TO_POINTER(at));
			}
			g_array_index(tasks, TcTask, at - 1).run += r->t1 - r->t0;
		}
	}
	g_array_sort(tasks, tc_task_cmp);
	g_hash_table_remove_all(tc->letter[s]);
	for (guint i = 0; i < tasks->len; i++)
		g_hash_table_insert(tc->letter[s], GINT_TO_POINTER(g_array_index(tasks, TcTask, i).pid),
				    GUINT_TO_POINTER(i + 1));
}

static gint64 tc_length(const FtlTuiModel *m)
{
	return m->first_ts == FTL_TS_NONE ? 0 : m->last_ts - m->first_ts + 1;
}

/* The view's extent: from the earlier origin's offset 0 to the later end. */
static void tc_extent(FtlTuiTimelineCompare *tc, FtlTuiApp *app)
{
	tc->len = 1;
	for (int s = 0; s < 2; s++) {
		const FtlTuiModel *m = tc_side(app, s);
		if (m->first_ts != FTL_TS_NONE)
			tc->len = MAX(tc->len, m->first_ts - tc->origin[s] + tc_length(m));
	}
}

FtlTuiReaction ftl_tui_timeline_compare_tick(FtlTuiTimelineCompare *tc, FtlTuiApp *app)
{
	if (!ftl_tui_compare_on(app) || tc->for_model == app->model)
		return FTL_TUI_REACT_NONE;
	tc->for_model = app->model;
	g_clear_pointer(&tc->aligned, g_free);
	for (int s = 0; s < 2; s++) {
		const FtlTuiModel *m = tc_side(app, s);
		g_ptr_array_set_size(tc->lanes[s], 0);
		for (guint i = 0; i < m->lanes->len; i++)
			if (m->lanes->pdata[i])
				g_ptr_array_add(tc->lanes[s], m->lanes->pdata[i]);
		tc_letters(tc, s);
		tc->origin[s] = m->first_ts == FTL_TS_NONE ? 0 : m->first_ts;
	}
	tc_extent(tc, app);
	tc->t0 = 0;
	tc->span = tc->len;
	tc->cursor = 0;
	tc->lane = MIN(tc->lane, MAX(tc_rows(tc) - 1, 0));
	return FTL_TUI_REACT_REDRAW;
}

/* ---- what a cell shows ---------------------------------------------------- */

static const char *tc_glyph(FtlTuiTimelineCompare *tc, int s, gint32 pid, char buf[2])
{
	static const char letters[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
	guint i = GPOINTER_TO_UINT(g_hash_table_lookup(tc->letter[s], GINT_TO_POINTER(pid)));
	if (!i || i > sizeof letters - 1)
		return "*";
	buf[0] = letters[i - 1];
	buf[1] = 0;
	return buf;
}

static void tc_cell(FtlTuiTimelineCompare *tc, FtlTuiCanvas *c, int s, const FtlTuiLane *lane,
		    gint64 a, gint64 b, FtlTuiStyle *st, const char **ch, char buf[2])
{
	gint64 cover;
	const FtlTuiRun *r = ftl_tui_lane_run(lane, a, b, -1, &cover);
	*ch = " ";
	*st = FTL_TUI_STYLE_NORMAL;
	if (r) {
		*ch = tc_glyph(tc, s, r->pid, buf);
		*st = ftl_tui_name_style(r->comm, r->pid);
	}
	if (ftl_tui_lane_any(lane->irqs, a, b)) {
		*ch = "!";
		*st = FTL_TUI_STYLE_IRQ;
	}
	if (ftl_tui_lane_any(lane->lost, a, b)) {
		*ch = c->utf8 ? "\u2591" : "~";
		*st = FTL_TUI_STYLE_WARN;
	}
}

/* ---- drawing ---------------------------------------------------------------- */

static gint64 tc_col(const FtlTuiTimelineCompare *tc, int x, int w)
{
	return tc->t0 + (gint64)((double)tc->span * x / w);
}

static int tc_x(const FtlTuiTimelineCompare *tc, gint64 off, int w)
{
	if (off < tc->t0 || off >= tc->t0 + tc->span)
		return -1;
	return (int)((double)(off - tc->t0) * w / (double)tc->span);
}

/* "+1.234 ms": an offset from the origins. */
static const char *tc_offset(gint64 off, char *buf, gsize size)
{
	char d[32];
	g_snprintf(buf, size, "%s%s", off < 0 ? "-" : "+",
		   ftl_tui_duration(off < 0 ? -off : off, d, sizeof d));
	return buf;
}

/* A side's markers as ticks on row y, from x, in w columns. */
static void tc_ticks(FtlTuiTimelineCompare *tc, FtlTuiApp *app, int s, FtlTuiCanvas *c, int y,
		     int w)
{
	const FtlMarkers *m = tc_side(app, s)->markers;
	for (guint i = 0; m && i < ftl_markers_count(m); i++) {
		const FtlMarker *mk = ftl_markers_get(m, i);
		int x = mk->ts == FTL_TS_NONE ? -1 : tc_x(tc, mk->ts - tc->origin[s], w);
		if (x >= 0)
			ftl_tui_put(c, y, TC_LABEL + x, 1, c->utf8 ? "\u2502" : "|",
				    FTL_TUI_STYLE_MARK);
	}
}

static void tc_ruler(FtlTuiTimelineCompare *tc, FtlTuiApp *app, FtlTuiCanvas *c, int y, int w)
{
	char a[48], b[48], d[32], cur[48];
	ftl_tui_fill(c, y, 0, -1, FTL_TUI_STYLE_HEADER);
	g_autofree char *at = tc->aligned ? ftl_escape(tc->aligned, -1) : NULL;
	g_autofree char *b_at = at ? g_strdup_printf("B moved: its \"%s\" under A's", at)
				   : g_strdup("B from its start");
	g_autofree char *head = g_strdup_printf(
		"%s .. %s from A's start, %s (a cell: %s; X: align)", tc_offset(tc->t0, a, sizeof a),
		tc_offset(tc->t0 + tc->span, b, sizeof b), b_at,
		ftl_tui_duration(MAX(tc->span / w, 1), d, sizeof d));
	ftl_tui_put(c, y, 0, -1, head, FTL_TUI_STYLE_HEADER);
	ftl_tui_put(c, y + 1, 0, TC_LABEL - 1, tc_offset(tc->cursor, cur, sizeof cur),
		    FTL_TUI_STYLE_DIM);
	tc_ticks(tc, app, 0, c, y + 1, w);
	int cx = tc_x(tc, tc->cursor, w);
	if (cx >= 0)
		ftl_tui_put(c, y + 1, TC_LABEL + cx, 1, "v", FTL_TUI_STYLE_CURSOR);
}

/* What the selected row does at the cursor. */
static char *tc_at(FtlTuiTimelineCompare *tc, FtlTuiApp *app)
{
	int s;
	const FtlTuiLane *lane = tc_lane(tc, tc->lane, &s);
	gint64 ts = tc->origin[s] + tc->cursor;
	char d[32];
	gint64 cover;
	const FtlTuiRun *r = ftl_tui_lane_run(lane, ts, ts + 1, -1, &cover);
	(void)app;
	if (!r)
		return g_strdup_printf("%c CPU %d: idle or unknown", 'A' + s, lane->cpu);
	return g_strdup_printf("%c CPU %d %s-%d: runs %s", 'A' + s, lane->cpu,
			       r->comm ? r->comm : "<...>", r->pid,
			       ftl_tui_duration(r->t1 - r->t0, d, sizeof d));
}

void ftl_tui_timeline_compare_draw(FtlTuiTimelineCompare *tc, FtlTuiPanel *p, FtlTuiApp *app,
				   FtlTuiCanvas *c, int y, int h)
{
	int w = c->cols - TC_LABEL;
	/* ruler, A's markers; A's rows, B's markers, B's rows; info */
	p->page = MAX(h - 4, 1);
	if (tc->for_model != app->model || w < 1 || h < 5) {
		ftl_tui_put(c, y, 0, -1, "Timeline: reading...", FTL_TUI_STYLE_HEADER);
		return;
	}
	tc_ruler(tc, app, c, y, w);
	int yy = y + 2, cx = tc_x(tc, tc->cursor, w);
	for (int i = 0; i < tc_rows(tc) && yy < y + h - 1; i++) {
		int s;
		const FtlTuiLane *lane = tc_lane(tc, i, &s);
		if (s && i == (int)tc->lanes[0]->len) {
			/* B's markers between the two */
			ftl_tui_put(c, yy, 0, TC_LABEL - 1, "B markers", FTL_TUI_STYLE_DIM);
			tc_ticks(tc, app, 1, c, yy++, w);
			if (yy >= y + h - 1)
				break;
		}
		g_autofree char *label = g_strdup_printf("%c CPU %d", 'A' + s, lane->cpu);
		ftl_tui_put(c, yy, 0, TC_LABEL - 1, label,
			    i == tc->lane ? FTL_TUI_STYLE_CURSOR : FTL_TUI_STYLE_NORMAL);
		for (int x = 0; x < w; x++) {
			gint64 a = tc->origin[s] + tc_col(tc, x, w);
			gint64 b = MAX(tc->origin[s] + tc_col(tc, x + 1, w), a + 1);
			const char *ch;
			FtlTuiStyle st;
			char buf[2];
			tc_cell(tc, c, s, lane, a, b, &st, &ch, buf);
			if (x == cx)
				st = i == tc->lane ? FTL_TUI_STYLE_CURSOR : FTL_TUI_STYLE_MARK;
			if (x == cx && !strcmp(ch, " "))
				ch = c->utf8 ? "\u2502" : "|";
			ftl_tui_put(c, yy, TC_LABEL + x, 1, ch, st);
		}
		yy++;
	}
	ftl_tui_fill(c, y + h - 1, 0, -1, FTL_TUI_STYLE_STATUS);
	if (tc_rows(tc)) {
		g_autofree char *what = tc_at(tc, app);
		g_autofree char *safe = ftl_escape(what, -1);
		ftl_tui_put(c, y + h - 1, 0, -1, safe, FTL_TUI_STYLE_STATUS);
	}
}

/* ---- commands ----------------------------------------------------------------- */

/* X: B aligned at A's marker nearest the cursor (B's first marker of the
 * same text under it), or back at the starts. */
static FtlTuiReaction tc_align(FtlTuiTimelineCompare *tc, FtlTuiApp *app)
{
	if (tc->aligned) {
		g_clear_pointer(&tc->aligned, g_free);
		tc->origin[1] = app->model->compare->first_ts;
		tc_extent(tc, app);
		ftl_tui_app_say(app, FALSE, "A and B from their starts");
		return FTL_TUI_REACT_REDRAW;
	}
	const FtlMarkers *ma = app->model->markers, *mb = app->model->compare->markers;
	const FtlMarker *near = NULL;
	gint64 at = tc->origin[0] + tc->cursor;
	for (guint i = 0; ma && i < ftl_markers_count(ma); i++) {
		const FtlMarker *mk = ftl_markers_get(ma, i);
		if (mk->ts != FTL_TS_NONE && mk->text &&
		    (!near || ABS(mk->ts - at) < ABS(near->ts - at)))
			near = mk;
	}
	if (!near) {
		ftl_tui_app_say(app, TRUE, "X: A has no marker to align at");
		return FTL_TUI_REACT_STATUS;
	}
	for (guint i = 0; mb && i < ftl_markers_count(mb); i++) {
		const FtlMarker *mk = ftl_markers_get(mb, i);
		if (mk->ts != FTL_TS_NONE && mk->text && !strcmp(mk->text, near->text)) {
			tc->origin[1] = mk->ts - (near->ts - tc->origin[0]);
			tc->aligned = g_strdup(near->text);
			tc->cursor = near->ts - tc->origin[0];
			tc_extent(tc, app);
			return FTL_TUI_REACT_REDRAW;
		}
	}
	g_autofree char *vis = ftl_escape(near->text, -1);
	ftl_tui_app_say(app, TRUE, "X: B has no marker \"%s\"", vis);
	return FTL_TUI_REACT_STATUS;
}

/* Keeps the cursor in the extent and in view. */
static void tc_follow(FtlTuiTimelineCompare *tc)
{
	tc->cursor = CLAMP(tc->cursor, 0, tc->len - 1);
	while (tc->cursor < tc->t0)
		tc->t0 -= MAX(tc->span / 4, 1);
	while (tc->cursor >= tc->t0 + tc->span)
		tc->t0 += MAX(tc->span / 4, 1);
}

FtlTuiReaction ftl_tui_timeline_compare_command(FtlTuiTimelineCompare *tc, FtlTuiPanel *p,
						FtlTuiApp *app, FtlTuiCmd cmd,
						const FtlTuiInput *in)
{
	int w = MAX(app->cols - TC_LABEL, 1);
	gint64 lane = tc->lane;
	if (tc->for_model != app->model || !tc_rows(tc))
		return FTL_TUI_REACT_NONE;
	if (cmd != FTL_TUI_CMD_TOP && cmd != FTL_TUI_CMD_BOTTOM &&
	    ftl_tui_move(&lane, tc_rows(tc), p->page, cmd)) {
		tc->lane = (gint)lane;
		return FTL_TUI_REACT_REDRAW;
	}
	switch (cmd) {
	case FTL_TUI_CMD_CLICK: {
		int row = in->y - 3, n_a = (int)tc->lanes[0]->len;
		int i = row < n_a ? row : row - 1; /* B's markers row between */
		if (row < 0 || row == n_a || i >= tc_rows(tc) || in->x < TC_LABEL)
			return FTL_TUI_REACT_NONE;
		tc->lane = i;
		tc->cursor = tc_col(tc, MIN(in->x - TC_LABEL, w - 1), w);
		break;
	}
	case FTL_TUI_CMD_PAN_LEFT:
	case FTL_TUI_CMD_PAN_RIGHT: {
		gint64 d = (cmd == FTL_TUI_CMD_PAN_LEFT ? -1 : 1) * MAX(tc->span / 2, 1);
		tc->t0 = CLAMP(tc->t0 + d, 0, MAX(tc->len - tc->span, 0));
		tc->cursor = CLAMP(tc->cursor + d, tc->t0, tc->t0 + tc->span - 1);
		break;
	}
	case FTL_TUI_CMD_LEFT:
	case FTL_TUI_CMD_RIGHT:
		tc->cursor += (cmd == FTL_TUI_CMD_LEFT ? -1 : 1) * MAX(tc->span / w, 1);
		break;
	case FTL_TUI_CMD_TOP:
	case FTL_TUI_CMD_BOTTOM:
		tc->cursor = cmd == FTL_TUI_CMD_TOP ? 0 : tc->len - 1;
		break;
	case FTL_TUI_CMD_ZOOM_IN:
	case FTL_TUI_CMD_ZOOM_OUT: {
		double at = (double)(tc->cursor - tc->t0) / (double)tc->span;
		gint64 span = cmd == FTL_TUI_CMD_ZOOM_IN ? MAX(tc->span / 2, (gint64)w)
							  : MIN(tc->span * 2, tc->len);
		tc->t0 = CLAMP(tc->cursor - (gint64)(at * (double)span), 0, tc->len - span);
		tc->span = span;
		break;
	}
	case FTL_TUI_CMD_COMPARE_ALIGN: {
		FtlTuiReaction r = tc_align(tc, app);
		tc_follow(tc);
		return r;
	}
	case FTL_TUI_CMD_ACTIVATE: {
		int s;
		tc_lane(tc, tc->lane, &s);
		if (s) {
			ftl_tui_app_say(app, TRUE, "Events shows A (x swaps A and B)");
			return FTL_TUI_REACT_STATUS;
		}
		return ftl_tui_go_time(app, tc->origin[0] + tc->cursor);
	}
	default:
		return FTL_TUI_REACT_NONE;
	}
	tc_follow(tc);
	return FTL_TUI_REACT_REDRAW;
}

gint64 ftl_tui_timeline_compare_time(FtlTuiTimelineCompare *tc, FtlTuiApp *app)
{
	int s;
	if (tc->for_model != app->model || !tc_rows(tc))
		return FTL_TS_NONE;
	tc_lane(tc, tc->lane, &s);
	return s ? FTL_TS_NONE : tc->origin[0] + tc->cursor;
}
