/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The Functions panel: the per-function table (calls, total, self, avg,
 * max, p99), sorted by any column; Enter opens speedscope's sandwich, the
 * function's callers above it and its callees below, from the call tree. */
#include "config.h"

#include <string.h>

#include "views/tui/app.h"
#include "views/tui/source-line.h"
#include "views/tui/compare.h"
#include "views/tui/tree.h"

typedef enum {
	COL_CALLS,
	COL_TOTAL,
	COL_SELF,
	COL_AVG,
	COL_MAX,
	COL_P99,
	COL_NAME,
	N_COLS
} FuncsCol;
G_STATIC_ASSERT(N_COLS == FTL_TUI_VIEW_FUNCS_SORTS);

/* 80 columns leave the name 16; wider terminals give it the rest. */
#define FUNCS_W_CALLS 8
#define FUNCS_W	      10
#define FUNCS_X(k)    ((k) == COL_CALLS ? 0 : FUNCS_W_CALLS + 1 + (FUNCS_W + 1) * ((k)-1))

static const char *const funcs_titles[N_COLS] = { "CALLS", "TOTAL", "SELF",    "AVG",
						  "MAX",   "P99",   "FUNCTION" };

typedef struct {
	const char *func;
	guint64 calls;
	gint64 total;
} SandwichRow;

typedef struct {
	FtlTuiPanel base;
	FuncsCol sort;
	gboolean reverse;
	gint64 cursor, top;
	GPtrArray *rows; /* FtlFuncStat*, sorted and filtered */
	guint64 rows_model; /* FtlTuiModel.gen of the model rows point into */
	FuncsCol rows_sort;
	gboolean rows_reverse;
	/* the sandwich, when sandwich != NULL */
	const char *sandwich;
	GArray *callers, *callees; /* SandwichRow */
	gint64 s_cursor, s_top;
	/* the duration histogram of this function (H), or NULL */
	char *histo_of;
	guint64 histo_drawn; /* the side model it was drawn from: its gen, 0 none */
	FtlTuiFuncsCompare *compare; /* the table of A and B, with --compare */
} FuncsPanel;

static FtlTuiPanel *funcs_new(void)
{
	FuncsPanel *f = g_new0(FuncsPanel, 1);
	f->sort = COL_SELF;
	f->callers = g_array_new(FALSE, FALSE, sizeof(SandwichRow));
	f->callees = g_array_new(FALSE, FALSE, sizeof(SandwichRow));
	f->compare = ftl_tui_funcs_compare_new();
	return &f->base;
}

static void funcs_free(FtlTuiPanel *p)
{
	FuncsPanel *f = (FuncsPanel *)p;
	if (f->rows)
		g_ptr_array_unref(f->rows);
	g_array_unref(f->callers);
	g_array_unref(f->callees);
	g_free(f->histo_of);
	ftl_tui_funcs_compare_free(f->compare);
	g_free(f);
}

static gint64 funcs_key(const FtlFuncStat *s, FuncsCol col)
{
	switch (col) {
	case COL_CALLS:
		return (gint64)s->calls;
	case COL_TOTAL:
		return s->total_ns;
	case COL_SELF:
		return s->self_ns;
	case COL_AVG:
		return s->avg_ns;
	case COL_MAX:
		return s->max_ns;
	case COL_P99:
		return s->p99_ns;
	default:
		return 0;
	}
}

static gint funcs_cmp(gconstpointer a, gconstpointer b, gpointer data)
{
	const FuncsPanel *f = data;
	const FtlFuncStat *x = *(const FtlFuncStat *const *)a, *y = *(const FtlFuncStat *const *)b;
	int c = 0;
	if (f->sort == COL_NAME) {
		c = strcmp(x->func, y->func);
	} else {
		gint64 kx = funcs_key(x, f->sort), ky = funcs_key(y, f->sort);
		c = kx > ky ? -1 : kx < ky; /* largest first */
		if (!c)
			c = strcmp(x->func, y->func);
	}
	return f->reverse ? -c : c;
}

/* The rows for the model, sort and function filter (made in tick, read in draw). */
static void funcs_rows(FuncsPanel *f, FtlTuiApp *app)
{
	if (f->rows)
		g_ptr_array_unref(f->rows);
	f->rows = g_ptr_array_new();
	GPtrArray *all = ftl_funcstats_sorted(app->model->funcs, FTL_FUNCSTATS_SORT_NAME);
	for (guint i = 0; i < all->len; i++) {
		const FtlFuncStat *s = g_ptr_array_index(all, i);
		if (ftl_tui_filter_pass_func(app->model->filter, s->func))
			g_ptr_array_add(f->rows, (gpointer)s);
	}
	g_ptr_array_sort_with_data(f->rows, funcs_cmp, f);
	f->rows_model = app->model->gen;
	f->rows_sort = f->sort;
	f->rows_reverse = f->reverse;
	f->cursor = CLAMP(f->cursor, 0, MAX((gint64)f->rows->len - 1, 0));
}

static FtlTuiReaction funcs_tick(FtlTuiPanel *p, FtlTuiApp *app)
{
	/* the source line said the debug info was being read: it is now */
	if (ftl_tui_source_tick(app))
		return FTL_TUI_REACT_REDRAW;
	FuncsPanel *f = (FuncsPanel *)p;
	if (ftl_tui_compare_on(app))
		return ftl_tui_funcs_compare_tick(f->compare, app);
	/* only the panel shown reads its histogram: one side analysis at a time */
	if (app->current == FTL_TUI_PANEL_FUNCS &&
	    ftl_tui_durations_tick(app, f->histo_of, &f->histo_drawn))
		return FTL_TUI_REACT_REDRAW;
	if (!app->model || (f->rows && f->rows_model == app->model->gen && f->rows_sort == f->sort &&
			    f->rows_reverse == f->reverse))
		return FTL_TUI_REACT_NONE;
	funcs_rows(f, app);
	return FTL_TUI_REACT_REDRAW;
}

static void funcs_model_changed(FtlTuiPanel *p, FtlTuiApp *app, const FtlTuiModel *old)
{
	FuncsPanel *f = (FuncsPanel *)p;
	(void)app;
	(void)old;
	f->sandwich = NULL; /* its name lived in the old model */
	f->histo_drawn = 0; /* the histogram is read again under the new filter */
	g_clear_pointer(&f->rows, g_ptr_array_unref);
}

/* ---- drawing ---------------------------------------------------------------- */

static void funcs_draw_stat(FtlTuiCanvas *c, int y, const FtlFuncStat *s, FtlTuiStyle st)
{
	char buf[32];
	g_snprintf(buf, sizeof buf, "%" G_GUINT64_FORMAT, s->calls);
	ftl_tui_put_right(c, y, 0, FUNCS_W_CALLS, buf, st);
	for (FuncsCol k = COL_TOTAL; k <= COL_P99; k++)
		ftl_tui_put_right(
			c, y, FUNCS_X(k), FUNCS_W,
			ftl_tui_duration(s->timed ? funcs_key(s, k) : FTL_TS_NONE, buf, sizeof buf),
			st);
	ftl_tui_put_raw(c, y, FUNCS_X(COL_NAME), -1, s->func, -1, st);
}

static void funcs_header(FuncsPanel *f, FtlTuiCanvas *c, int y, gboolean mark)
{
	ftl_tui_fill(c, y, 0, -1, FTL_TUI_STYLE_HEADER);
	for (FuncsCol k = 0; k < N_COLS; k++) {
		g_autofree char *t =
			g_strdup_printf("%s%s", funcs_titles[k],
					mark && k == f->sort ? (f->reverse ? "^" : "v") : "");
		if (k == COL_NAME)
			ftl_tui_put(c, y, FUNCS_X(k), -1, t, FTL_TUI_STYLE_HEADER);
		else
			ftl_tui_put_right(c, y, FUNCS_X(k),
					  k == COL_CALLS ? FUNCS_W_CALLS : FUNCS_W, t,
					  FTL_TUI_STYLE_HEADER);
	}
}

static void funcs_draw_table(FuncsPanel *f, FtlTuiCanvas *c, int y, int h)
{
	funcs_header(f, c, y, TRUE);
	f->base.page = h - 1;
	if (!f->rows || !f->rows->len) {
		ftl_tui_put(c, y + 2, 2, -1, f->rows ? "no function calls" : "reading...",
			    FTL_TUI_STYLE_DIM);
		return;
	}
	for (int row = 0; row < h - 1 && f->top + row < (gint64)f->rows->len; row++) {
		gint64 i = f->top + row;
		FtlTuiStyle st = i == f->cursor ? FTL_TUI_STYLE_CURSOR : FTL_TUI_STYLE_NORMAL;
		if (i == f->cursor)
			ftl_tui_fill(c, y + 1 + row, 0, -1, st);
		funcs_draw_stat(c, y + 1 + row, g_ptr_array_index(f->rows, i), st);
	}
}

/* Sandwich lines: callers, the function, callees. */
static gint64 funcs_s_count(FuncsPanel *f)
{
	return (gint64)f->callers->len + 1 + f->callees->len;
}

static void funcs_draw_sandwich_row(FuncsPanel *f, FtlTuiApp *app, FtlTuiCanvas *c, int y, gint64 i)
{
	gboolean cur = i == f->s_cursor;
	FtlTuiStyle st = cur ? FTL_TUI_STYLE_CURSOR : FTL_TUI_STYLE_NORMAL;
	if (cur)
		ftl_tui_fill(c, y, 0, -1, st);
	if (i == (gint64)f->callers->len) {
		const FtlFuncStat *s = ftl_funcstats_lookup(app->model->funcs, f->sandwich);
		if (s)
			funcs_draw_stat(c, y, s, cur ? st : FTL_TUI_STYLE_MARK);
		return;
	}
	gboolean caller = i < (gint64)f->callers->len;
	const SandwichRow *r =
		caller ? &g_array_index(f->callers, SandwichRow, i)
		       : &g_array_index(f->callees, SandwichRow, i - (gint64)f->callers->len - 1);
	char buf[32];
	g_snprintf(buf, sizeof buf, "%" G_GUINT64_FORMAT, r->calls);
	ftl_tui_put_right(c, y, 0, FUNCS_W_CALLS, buf, st);
	ftl_tui_put_right(c, y, FUNCS_X(COL_TOTAL), FUNCS_W,
			  ftl_tui_duration(r->total, buf, sizeof buf), st);
	ftl_tui_put(c, y, FUNCS_X(COL_SELF) + 2, FUNCS_W, caller ? "caller" : "callee",
		    cur ? st : FTL_TUI_STYLE_DIM);
	ftl_tui_put_raw(c, y, FUNCS_X(COL_NAME) + 2, -1, r->func, -1, st);
}

static const char *funcs_selected(FuncsPanel *f);

static void funcs_draw(FtlTuiPanel *p, FtlTuiApp *app, FtlTuiCanvas *c, int y, int h)
{
	FuncsPanel *f = (FuncsPanel *)p;
	if (ftl_tui_compare_on(app)) {
		ftl_tui_funcs_compare_draw(f->compare, p, app, c, y, h);
		return;
	}
	if (!f->histo_of && ftl_tui_source_rows(app, h)) {
		h--;
		ftl_tui_source_draw(app, c, y + h, funcs_selected(f));
	}
	if (f->histo_of) {
		ftl_tui_durations_draw(c, y, h, app, f->histo_of);
		return;
	}
	if (!f->sandwich) {
		funcs_draw_table(f, c, y, h);
		return;
	}
	funcs_header(f, c, y, FALSE);
	p->page = h - 1;
	for (int row = 0; row < h - 1 && f->s_top + row < funcs_s_count(f); row++)
		funcs_draw_sandwich_row(f, app, c, y + 1 + row, f->s_top + row);
}

/* ---- the sandwich ------------------------------------------------------------ */

static void funcs_sandwich_add(GArray *rows, const char *func, guint64 calls, gint64 total)
{
	for (guint i = 0; i < rows->len; i++) {
		SandwichRow *r = &g_array_index(rows, SandwichRow, i);
		if (!strcmp(r->func, func)) {
			r->calls += calls;
			r->total += total;
			return;
		}
	}
	SandwichRow r = { func, calls, total };
	g_array_append_val(rows, r);
}

static gint funcs_sandwich_cmp(gconstpointer a, gconstpointer b)
{
	const SandwichRow *x = a, *y = b;
	if (x->total != y->total)
		return x->total > y->total ? -1 : 1;
	return strcmp(x->func, y->func);
}

static FtlTuiReaction funcs_open_sandwich(FuncsPanel *f, FtlTuiApp *app, const char *func)
{
	const FtlCallNode *root = ftl_calltree_root(app->model->trees[FTL_CALLTREE_GROUP_NONE]);
	g_array_set_size(f->callers, 0);
	g_array_set_size(f->callees, 0);
	for (const FtlCallNode *n = root->child; n; n = ftl_tui_tree_preorder(root, n)) {
		if (strcmp(n->func, func))
			continue;
		funcs_sandwich_add(f->callers, n->parent == root ? "(top level)" : n->parent->func,
				   n->calls, n->total_ns);
		for (const FtlCallNode *c = n->child; c; c = c->next)
			funcs_sandwich_add(f->callees, c->func, c->calls, c->total_ns);
	}
	g_array_sort(f->callers, funcs_sandwich_cmp);
	g_array_sort(f->callees, funcs_sandwich_cmp);
	f->sandwich = func;
	f->s_cursor = f->callers->len;
	f->s_top = MAX(f->s_cursor - MAX(f->base.page, 2) / 2, 0);
	return FTL_TUI_REACT_REDRAW;
}

static const char *funcs_selected(FuncsPanel *f)
{
	if (!f->sandwich)
		return f->rows && f->cursor < (gint64)f->rows->len
			       ? ((const FtlFuncStat *)g_ptr_array_index(f->rows, f->cursor))->func
			       : NULL;
	gint64 i = f->s_cursor, nc = f->callers->len;
	if (i < nc)
		return g_array_index(f->callers, SandwichRow, i).func;
	if (i == nc)
		return f->sandwich;
	return g_array_index(f->callees, SandwichRow, i - nc - 1).func;
}

/* ---- commands ----------------------------------------------------------------- */

static FtlTuiReaction funcs_command(FtlTuiPanel *p, FtlTuiApp *app, FtlTuiCmd cmd,
				    const FtlTuiInput *in)
{
	FuncsPanel *f = (FuncsPanel *)p;
	if (ftl_tui_compare_on(app))
		return ftl_tui_funcs_compare_command(f->compare, p, app, cmd, in);
	if (!app->model || !f->rows)
		return FTL_TUI_REACT_NONE;
	if (f->histo_of) {
		/* over the table: Esc or H again closes it */
		if (cmd != FTL_TUI_CMD_BACK && cmd != FTL_TUI_CMD_HISTOGRAM)
			return FTL_TUI_REACT_NONE;
		g_clear_pointer(&f->histo_of, g_free);
		return FTL_TUI_REACT_REDRAW;
	}
	gint64 *cursor = f->sandwich ? &f->s_cursor : &f->cursor;
	gint64 *top = f->sandwich ? &f->s_top : &f->top;
	gint64 n = f->sandwich ? funcs_s_count(f) : (gint64)f->rows->len;
	if (ftl_tui_move(cursor, n, p->page, cmd)) {
		ftl_tui_scroll(top, *cursor, p->page);
		return FTL_TUI_REACT_REDRAW;
	}
	const char *func = funcs_selected(f);
	switch (cmd) {
	case FTL_TUI_CMD_CLICK:
		if (in->y >= 2 && *top + in->y - 2 < n)
			*cursor = *top + in->y - 2;
		return FTL_TUI_REACT_REDRAW;
	case FTL_TUI_CMD_SORT:
		f->sort = (f->sort + 1) % N_COLS;
		return funcs_tick(p, app) | FTL_TUI_REACT_REDRAW;
	case FTL_TUI_CMD_SORT_REVERSE:
		f->reverse = !f->reverse;
		return funcs_tick(p, app) | FTL_TUI_REACT_REDRAW;
	case FTL_TUI_CMD_ACTIVATE:
		if (!func || !strcmp(func, "(top level)"))
			return FTL_TUI_REACT_NONE;
		return funcs_open_sandwich(f, app, func);
	case FTL_TUI_CMD_BACK:
		if (!f->sandwich)
			return FTL_TUI_REACT_NONE;
		f->sandwich = NULL;
		return FTL_TUI_REACT_REDRAW;
	case FTL_TUI_CMD_LIST_CALLS:
		if (!func)
			return FTL_TUI_REACT_NONE;
		return ftl_tui_go_filter(app, ftl_tui_filter_item_func_exact(func));
	case FTL_TUI_CMD_HISTOGRAM:
		if (!func || !strcmp(func, "(top level)"))
			return FTL_TUI_REACT_NONE;
		f->histo_of = g_strdup(func);
		f->histo_drawn = 0;
		return funcs_tick(p, app) | FTL_TUI_REACT_REDRAW;
	default:
		return FTL_TUI_REACT_NONE;
	}
}

static FtlTuiReaction funcs_search(FtlTuiPanel *p, FtlTuiApp *app, GRegex *re, int dir)
{
	FuncsPanel *f = (FuncsPanel *)p;
	if (ftl_tui_compare_on(app))
		return ftl_tui_funcs_compare_search(f->compare, p, app, re, dir);
	if (!f->rows || f->sandwich)
		return FTL_TUI_REACT_NONE;
	for (gint64 i = f->cursor + dir; i >= 0 && i < (gint64)f->rows->len; i += dir) {
		const FtlFuncStat *s = g_ptr_array_index(f->rows, i);
		if (g_regex_match(re, s->func, 0, NULL)) {
			f->cursor = i;
			ftl_tui_scroll(&f->top, f->cursor, p->page);
			return FTL_TUI_REACT_REDRAW;
		}
	}
	ftl_tui_app_say(app, TRUE, "no match");
	return FTL_TUI_REACT_STATUS;
}

static gint64 funcs_cursor_time(FtlTuiPanel *p, FtlTuiApp *app)
{
	FuncsPanel *f = (FuncsPanel *)p;
	if (ftl_tui_compare_on(app))
		return FTL_TS_NONE;
	if (f->sandwich || !f->rows || f->cursor >= (gint64)f->rows->len)
		return FTL_TS_NONE;
	return ((const FtlFuncStat *)g_ptr_array_index(f->rows, f->cursor))->first_ts;
}

/* The sort, and the cursor's function with the first row shown. */
static void funcs_save(FtlTuiPanel *p, FtlTuiApp *app, FtlTuiView *v)
{
	FuncsPanel *f = (FuncsPanel *)p;
	(void)app;
	ftl_tui_view_set_int(v, "functions", "sort", f->sort);
	ftl_tui_view_set_bool(v, "functions", "reverse", f->reverse);
	if (!f->rows || f->cursor >= (gint64)f->rows->len)
		return;
	const FtlFuncStat *s = g_ptr_array_index(f->rows, f->cursor);
	ftl_tui_view_set_name(v, "functions", "cursor", s->func);
	ftl_tui_view_set_int(v, "functions", "top", MAX(f->cursor - f->top, 0));
}

static void funcs_restore(FtlTuiPanel *p, FtlTuiApp *app, const FtlTuiView *v, gboolean same)
{
	FuncsPanel *f = (FuncsPanel *)p;
	(void)same;
	gint64 sort, above;
	if (ftl_tui_view_get_int(v, "functions", "sort", &sort))
		f->sort = (FuncsCol)sort;
	ftl_tui_view_get_bool(v, "functions", "reverse", &f->reverse);
	f->sandwich = NULL;
	g_clear_pointer(&f->histo_of, g_free);
	if (!app->model || !app->model->funcs)
		return;
	funcs_rows(f, app);
	g_autofree char *name = ftl_tui_view_get_name(v, "functions", "cursor");
	for (guint i = 0; name && i < f->rows->len; i++)
		if (!strcmp(((const FtlFuncStat *)g_ptr_array_index(f->rows, i))->func, name)) {
			f->cursor = i;
			f->top = ftl_tui_view_get_int(v, "functions", "top", &above)
					 ? MAX(f->cursor - above, 0)
					 : f->cursor;
			break;
		}
}

const FtlTuiPanelClass ftl_tui_funcs_panel = {
	.id = FTL_TUI_PANEL_FUNCS,
	.name = "Functions",
	.new = funcs_new,
	.free = funcs_free,
	.available = ftl_tui_app_has_events,
	.empty = ftl_tui_app_no_calls,
	.needs_model = TRUE,
	.draw = funcs_draw,
	.command = funcs_command,
	.search = funcs_search,
	.cursor_time = funcs_cursor_time,
	.model_changed = funcs_model_changed,
	.tick = funcs_tick,
	.save = funcs_save,
	.restore = funcs_restore,
};
