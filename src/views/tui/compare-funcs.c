/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The Functions panel with --compare: `ftlens diff`'s rows (analysis/
 * diff.c) as a table, both traces' calls and time, the change and its
 * ratio, sorted by the change as diff sorts it. A row is a function over
 * all its call paths (the Graph has each path's), its known durations: a
 * call with no duration (no exit) adds none, which the footer says. */
#include "config.h"

#include <math.h>
#include <string.h>

#include "analysis/diff.h"
#include "views/tui/compare.h"

/* The columns; AVG A and AVG B only where the terminal has room for them
 * beside a name. */
typedef enum {
	FC_CALLS_A,
	FC_CALLS_B,
	FC_A,
	FC_B,
	FC_CHANGE,
	FC_PCT,
	FC_AVG_A,
	FC_AVG_B,
	FC_NAME,
	FC_N
} FcCol;

static const struct {
	const char *title;
	int w;
} fc_cols[FC_N] = {
	[FC_CALLS_A] = { "CALLS A", 8 }, [FC_CALLS_B] = { "CALLS B", 8 }, [FC_A] = { " A", 11 },
	[FC_B] = { " B", 11 },	 [FC_CHANGE] = { "CHANGE", 11 },  [FC_PCT] = { "%", 10 },
	[FC_AVG_A] = { "AVG A", 10 },	 [FC_AVG_B] = { "AVG B", 10 },	  [FC_NAME] = { "FUNCTION", 0 },
};

#define FC_WIDE 120 /* columns from which the averages are shown */

struct _FtlTuiFuncsCompare {
	FtlDiffKey key;
	gboolean reverse;
	gint64 cursor, top;
	FtlDiff *diff;	   /* of the model below, by key */
	GPtrArray *rows;   /* const FtlDiffRow*, diff's order (reversed), filtered */
	gconstpointer for_model;
	FtlDiffKey for_key;
	gboolean for_reverse;
};

gboolean ftl_tui_compare_on(const FtlTuiApp *app)
{
	return app->model && app->model->compare;
}

const char *ftl_tui_change(gint64 ns, char *buf, gsize size)
{
	char d[32];
	ftl_tui_duration(ns, d, sizeof d);
	g_snprintf(buf, size, "%s%s", ns > 0 ? "+" : "", d);
	return buf;
}

const char *ftl_tui_change_pct(gint64 a, gint64 b, gboolean present_a, gboolean present_b,
			       char *buf, gsize size)
{
	/* diff's percentage; ten columns at most: three figures past +99999.9% */
	double pct;
	if (ftl_diff_change_pct(a, b, &pct))
		g_snprintf(buf, size, fabs(pct) < 1e5 ? "%+.1f%%" : "%+.3g%%", pct);
	else
		g_strlcpy(buf, !present_a && present_b ? "new" : !present_b ? "gone" : "", size);
	return buf;
}

static void compare_side(GString *out, const char *label, const FtlTuiCompareSide *s)
{
	char buf[48];
	g_string_append_printf(out, "%s %s", label,
			       ftl_tui_duration(s->timed ? s->ns : FTL_TS_NONE, buf, sizeof buf));
	if (!s->calls)
		return;
	g_string_append_printf(out, " (%" G_GUINT64_FORMAT " call%s", s->calls,
			       s->calls == 1 ? "" : "s");
	if (s->timed < s->calls)
		g_string_append_printf(out, ", %" G_GUINT64_FORMAT " untimed",
				       s->calls - s->timed);
	g_string_append(out, ")");
}

void ftl_tui_compare_footer(FtlTuiCanvas *c, int y, const char *name, const char *what,
			    const FtlTuiCompareSide *a, const FtlTuiCompareSide *b,
			    const char *note)
{
	g_autoptr(GString) t = g_string_new(": ");
	g_string_append_printf(t, "%s: ", what);
	compare_side(t, "A", a);
	compare_side(g_string_append(t, ", "), "B", b);
	if (a->timed < a->calls || b->timed < b->calls)
		g_string_append_printf(t, "; %s", note);
	ftl_tui_fill(c, y, 0, -1, FTL_TUI_STYLE_DIM);
	int x = ftl_tui_put_raw(c, y, 0, -1, name, -1, FTL_TUI_STYLE_DIM);
	ftl_tui_put(c, y, x, -1, t->str, FTL_TUI_STYLE_DIM);
}

FtlTuiFuncsCompare *ftl_tui_funcs_compare_new(void)
{
	FtlTuiFuncsCompare *fc = g_new0(FtlTuiFuncsCompare, 1);
	fc->key = FTL_DIFF_BY_TOTAL;
	return fc;
}

void ftl_tui_funcs_compare_free(FtlTuiFuncsCompare *fc)
{
	if (!fc)
		return;
	if (fc->rows)
		g_ptr_array_unref(fc->rows);
	ftl_diff_free(fc->diff);
	g_free(fc);
}

FtlTuiReaction ftl_tui_funcs_compare_tick(FtlTuiFuncsCompare *fc, FtlTuiApp *app)
{
	const FtlTuiModel *m = app->model;
	if (!ftl_tui_compare_on(app) ||
	    (fc->rows && fc->for_model == m && fc->for_key == fc->key &&
	     fc->for_reverse == fc->reverse))
		return FTL_TUI_REACT_NONE;
	if (fc->rows)
		g_ptr_array_unref(fc->rows);
	ftl_diff_free(fc->diff);
	fc->diff = ftl_diff_new(m->funcs, m->compare->funcs, fc->key);
	guint n = ftl_diff_n_rows(fc->diff);
	fc->rows = g_ptr_array_sized_new(n);
	for (guint i = 0; i < n; i++) {
		const FtlDiffRow *r = ftl_diff_row(fc->diff, fc->reverse ? n - 1 - i : i);
		if (ftl_tui_filter_pass_func(m->filter, r->func))
			g_ptr_array_add(fc->rows, (gpointer)r);
	}
	fc->for_model = m;
	fc->for_key = fc->key;
	fc->for_reverse = fc->reverse;
	fc->cursor = CLAMP(fc->cursor, 0, MAX((gint64)fc->rows->len - 1, 0));
	return FTL_TUI_REACT_REDRAW;
}

/* ---- drawing ---------------------------------------------------------------- */

static int fc_x(FcCol k, gboolean wide)
{
	int x = 0;
	for (FcCol i = 0; i < k; i++)
		if (wide || (i != FC_AVG_A && i != FC_AVG_B))
			x += fc_cols[i].w + 1;
	return x;
}

static const char *fc_metric_name(FtlDiffKey key)
{
	return key == FTL_DIFF_BY_SELF ? "SELF" : "TOTAL";
}

static void fc_header(FtlTuiFuncsCompare *fc, FtlTuiCanvas *c, int y, gboolean wide)
{
	ftl_tui_fill(c, y, 0, -1, FTL_TUI_STYLE_HEADER);
	for (FcCol k = 0; k < FC_N; k++) {
		if (!wide && (k == FC_AVG_A || k == FC_AVG_B))
			continue;
		/* A's and B's figures are of the metric sorted by */
		g_autofree char *title =
			k == FC_A || k == FC_B
				? g_strconcat(fc_metric_name(fc->key), fc_cols[k].title, NULL)
				: g_strdup(fc_cols[k].title);
		/* the change is the sort: of the calls when sorted by them */
		gboolean sorted = k == (fc->key == FTL_DIFF_BY_CALLS ? FC_CALLS_B : FC_CHANGE);
		g_autofree char *t =
			g_strdup_printf("%s%s", title, sorted ? (fc->reverse ? "^" : "v") : "");
		if (k == FC_NAME)
			ftl_tui_put(c, y, fc_x(k, wide), -1, t, FTL_TUI_STYLE_HEADER);
		else
			ftl_tui_put_right(c, y, fc_x(k, wide), fc_cols[k].w, t,
					  FTL_TUI_STYLE_HEADER);
	}
}

static void fc_calls(FtlTuiCanvas *c, int y, int x, const FtlFuncStat *s, FtlTuiStyle st)
{
	char buf[32];
	if (s)
		g_snprintf(buf, sizeof buf, "%" G_GUINT64_FORMAT, s->calls);
	ftl_tui_put_right(c, y, x, fc_cols[FC_CALLS_A].w, s ? buf : "-", st);
}

static void fc_row(FtlTuiFuncsCompare *fc, FtlTuiCanvas *c, int y, const FtlDiffRow *r,
		   gboolean wide, FtlTuiStyle st)
{
	char buf[48];
	gboolean self = fc->key == FTL_DIFF_BY_SELF;
	gint64 a = ftl_diff_metric(r->a, self), b = ftl_diff_metric(r->b, self);
	fc_calls(c, y, fc_x(FC_CALLS_A, wide), r->a, st);
	fc_calls(c, y, fc_x(FC_CALLS_B, wide), r->b, st);
	ftl_tui_put_right(c, y, fc_x(FC_A, wide), fc_cols[FC_A].w,
			  ftl_tui_duration(r->a ? a : FTL_TS_NONE, buf, sizeof buf), st);
	ftl_tui_put_right(c, y, fc_x(FC_B, wide), fc_cols[FC_B].w,
			  ftl_tui_duration(r->b ? b : FTL_TS_NONE, buf, sizeof buf), st);
	FtlTuiStyle cst = st != FTL_TUI_STYLE_NORMAL ? st
			  : b > a			? FTL_TUI_STYLE_WARN
							: FTL_TUI_STYLE_NORMAL;
	ftl_tui_put_right(c, y, fc_x(FC_CHANGE, wide), fc_cols[FC_CHANGE].w,
			  ftl_tui_change(b - a, buf, sizeof buf), cst);
	if (fc->key == FTL_DIFF_BY_CALLS)
		ftl_tui_change_pct(r->a ? (gint64)r->a->calls : 0, r->b ? (gint64)r->b->calls : 0,
				   r->a != NULL, r->b != NULL, buf, sizeof buf);
	else
		ftl_tui_change_pct(a, b, r->a != NULL, r->b != NULL, buf, sizeof buf);
	ftl_tui_put_right(c, y, fc_x(FC_PCT, wide), fc_cols[FC_PCT].w, buf, cst);
	if (wide) {
		ftl_tui_put_right(c, y, fc_x(FC_AVG_A, wide), fc_cols[FC_AVG_A].w,
				  ftl_tui_duration(r->a && r->a->timed ? r->a->avg_ns : FTL_TS_NONE,
						   buf, sizeof buf),
				  st);
		ftl_tui_put_right(c, y, fc_x(FC_AVG_B, wide), fc_cols[FC_AVG_B].w,
				  ftl_tui_duration(r->b && r->b->timed ? r->b->avg_ns : FTL_TS_NONE,
						   buf, sizeof buf),
				  st);
	}
	ftl_tui_put_raw(c, y, fc_x(FC_NAME, wide), -1, r->func, -1, st);
}

void ftl_tui_funcs_compare_draw(FtlTuiFuncsCompare *fc, FtlTuiPanel *p, FtlTuiApp *app,
				FtlTuiCanvas *c, int y, int h)
{
	(void)app;
	gboolean wide = c->cols >= FC_WIDE;
	fc_header(fc, c, y, wide);
	/* the last row: the cursor's function, what its figures count */
	gboolean footer = h >= 3 && fc->rows && fc->rows->len;
	if (footer)
		h--;
	p->page = h - 1;
	if (!fc->rows || !fc->rows->len) {
		ftl_tui_put(c, y + 2, 2, -1,
			    fc->rows ? "no function calls in A or B" : "reading...",
			    FTL_TUI_STYLE_DIM);
		return;
	}
	for (int row = 0; row < h - 1 && fc->top + row < (gint64)fc->rows->len; row++) {
		gint64 i = fc->top + row;
		FtlTuiStyle st = i == fc->cursor ? FTL_TUI_STYLE_CURSOR : FTL_TUI_STYLE_NORMAL;
		if (i == fc->cursor)
			ftl_tui_fill(c, y + 1 + row, 0, -1, st);
		fc_row(fc, c, y + 1 + row, g_ptr_array_index(fc->rows, i), wide, st);
	}
	if (footer) {
		const FtlDiffRow *r = g_ptr_array_index(fc->rows, fc->cursor);
		gboolean self = fc->key == FTL_DIFF_BY_SELF;
		FtlTuiCompareSide a = { 0 }, b = { 0 };
		if (r->a)
			a = (FtlTuiCompareSide){ ftl_diff_metric(r->a, self), r->a->calls,
						 r->a->timed };
		if (r->b)
			b = (FtlTuiCompareSide){ ftl_diff_metric(r->b, self), r->b->calls,
						 r->b->timed };
		ftl_tui_compare_footer(c, y + h, r->func,
				       self ? "diff's self time, all paths"
					    : "diff's total, all paths",
				       &a, &b,
				       "an untimed call (no exit) adds no time here nor in "
				       "graph; the Graph (2) counts its callees'");
	}
}

/* ---- commands ----------------------------------------------------------------- */

FtlTuiReaction ftl_tui_funcs_compare_command(FtlTuiFuncsCompare *fc, FtlTuiPanel *p,
					     FtlTuiApp *app, FtlTuiCmd cmd,
					     const FtlTuiInput *in)
{
	if (!fc->rows)
		return FTL_TUI_REACT_NONE;
	gint64 n = (gint64)fc->rows->len;
	if (ftl_tui_move(&fc->cursor, n, p->page, cmd)) {
		ftl_tui_scroll(&fc->top, fc->cursor, p->page);
		return FTL_TUI_REACT_REDRAW;
	}
	const FtlDiffRow *r = fc->cursor < n ? g_ptr_array_index(fc->rows, fc->cursor) : NULL;
	switch (cmd) {
	case FTL_TUI_CMD_CLICK:
		/* not the footer under the rows */
		ftl_tui_click(&fc->cursor, fc->top, n, p->page, in);
		return FTL_TUI_REACT_REDRAW;
	case FTL_TUI_CMD_SORT:
		/* diff --sort's keys, in its order */
		fc->key = fc->key == FTL_DIFF_BY_TOTAL  ? FTL_DIFF_BY_SELF
			  : fc->key == FTL_DIFF_BY_SELF ? FTL_DIFF_BY_CALLS
							: FTL_DIFF_BY_TOTAL;
		ftl_tui_app_say(app, FALSE, "sorted by the change of %s",
				fc->key == FTL_DIFF_BY_SELF    ? "self time"
				: fc->key == FTL_DIFF_BY_CALLS ? "calls"
							       : "total time");
		return ftl_tui_funcs_compare_tick(fc, app) | FTL_TUI_REACT_REDRAW;
	case FTL_TUI_CMD_SORT_REVERSE:
		fc->reverse = !fc->reverse;
		return ftl_tui_funcs_compare_tick(fc, app) | FTL_TUI_REACT_REDRAW;
	case FTL_TUI_CMD_LIST_CALLS:
		/* the Events list is A's */
		if (!r || !r->a) {
			ftl_tui_app_say(app, TRUE, "v: not called in A (x swaps A and B)");
			return FTL_TUI_REACT_STATUS;
		}
		return ftl_tui_go_filter(app, ftl_tui_filter_item_func_exact(r->func));
	case FTL_TUI_CMD_ACTIVATE:
	case FTL_TUI_CMD_HISTOGRAM:
	case FTL_TUI_CMD_FLAME_OF:
		ftl_tui_app_say(app, TRUE, "%s",
				"comparing A and B: this key works on one trace (tui without "
				"--compare)");
		return FTL_TUI_REACT_STATUS;
	default:
		return FTL_TUI_REACT_NONE;
	}
}

FtlTuiReaction ftl_tui_funcs_compare_search(FtlTuiFuncsCompare *fc, FtlTuiPanel *p,
					    FtlTuiApp *app, GRegex *re, int dir)
{
	if (!fc->rows)
		return FTL_TUI_REACT_NONE;
	for (gint64 i = fc->cursor + dir; i >= 0 && i < (gint64)fc->rows->len; i += dir) {
		const FtlDiffRow *r = g_ptr_array_index(fc->rows, i);
		if (g_regex_match(re, r->func, 0, NULL)) {
			fc->cursor = i;
			ftl_tui_scroll(&fc->top, fc->cursor, p->page);
			return FTL_TUI_REACT_REDRAW;
		}
	}
	ftl_tui_app_say(app, TRUE, "no match");
	return FTL_TUI_REACT_STATUS;
}
