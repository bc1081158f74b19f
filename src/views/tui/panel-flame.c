/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The Flame panel: the call tree as an icicle in the terminal, one row per
 * depth, each frame as wide as its time; Enter zooms into a frame and Esc
 * goes back. Only frames at least a column wide are visited, so drawing
 * costs what the screen holds, whatever the tree. */
#include "config.h"

#include <string.h>

#include "views/tui/app.h"
#include "views/tui/tree.h"

typedef struct {
	FtlTuiPanel base;
	FtlCallTreeGroup group;
	GPtrArray *zoom; /* const FtlCallNode*: roots zoomed into, the innermost last */
	const FtlCallNode *cursor;
	int top_depth;	  /* first depth below the zoom root shown */
	GHashTable *keep; /* the function filter's nodes, NULL: all */
	guint64 keep_for; /* FtlTuiModel.gen */
	gconstpointer keep_root;
} FlamePanel;

static FtlTuiPanel *flame_new(void)
{
	FlamePanel *f = g_new0(FlamePanel, 1);
	f->zoom = g_ptr_array_new();
	return &f->base;
}

static void flame_free(FtlTuiPanel *p)
{
	FlamePanel *f = (FlamePanel *)p;
	g_ptr_array_unref(f->zoom);
	if (f->keep)
		g_hash_table_unref(f->keep);
	g_free(f);
}

static const FtlCallNode *flame_tree_root(FlamePanel *f, FtlTuiApp *app)
{
	return ftl_tui_app_tree_root(app, f->group);
}

static const FtlCallNode *flame_root(FlamePanel *f, FtlTuiApp *app)
{
	return f->zoom->len ? g_ptr_array_index(f->zoom, f->zoom->len - 1)
			    : flame_tree_root(f, app);
}

/* Time, or calls when the trace has no durations (function tracer). */
static double flame_weight(const FtlCallNode *n, gboolean by_calls)
{
	return by_calls ? (double)n->calls : (double)n->total_ns;
}

static gboolean flame_by_calls(const FtlCallNode *root)
{
	return root->parent ? root->total_ns <= 0 : ftl_tui_tree_total(root) <= 0;
}

static double flame_root_weight(const FtlCallNode *root, gboolean by_calls)
{
	if (root->parent)
		return flame_weight(root, by_calls);
	double w = 0;
	for (const FtlCallNode *c = root->child; c; c = c->next)
		w += flame_weight(c, by_calls);
	return w;
}

typedef struct {
	FlamePanel *f;
	FtlTuiCanvas *c;
	int y, h, width;
	gboolean by_calls;
} FlameDraw;

static void flame_frame(FlameDraw *d, const FtlCallNode *n, int depth, int a, int b)
{
	int row = depth - d->f->top_depth;
	if (row < 0 || row >= d->h)
		return;
	gboolean cur = n == d->f->cursor;
	FtlTuiStyle st = cur ? FTL_TUI_STYLE_CURSOR : ftl_tui_name_style(n->func, 0);
	ftl_tui_fill(d->c, d->y + row, a, b - a, st);
	ftl_tui_put(d->c, d->y + row, a, 1, d->c->utf8 ? "\u258f" : "|", st);
	if (b - a > 1)
		ftl_tui_put_raw(d->c, d->y + row, a + 1, b - a - 1, n->func, -1, st);
}

/* Draws n over columns [x0, x1) and its children below it. */
static void flame_draw_node(FlameDraw *d, const FtlCallNode *n, int depth, double x0, double x1)
{
	int a = (int)(x0 + 0.5), b = (int)(x1 + 0.5);
	if (b <= a || depth - d->f->top_depth >= d->h)
		return;
	if (depth > 0 || n->parent)
		flame_frame(d, n, depth, a, b);
	double w = flame_weight(n, d->by_calls);
	if (!n->parent)
		w = flame_root_weight(n, d->by_calls);
	if (w <= 0)
		return;
	double x = x0, scale = (x1 - x0) / w;
	for (const FtlCallNode *c = n->child; c; c = c->next) {
		double cw = flame_weight(c, d->by_calls) * scale;
		if (ftl_tui_tree_shown(d->f->keep, c))
			flame_draw_node(d, c, depth + 1, x, x + cw);
		x += cw;
	}
}

static void flame_draw(FtlTuiPanel *p, FtlTuiApp *app, FtlTuiCanvas *c, int y, int h)
{
	FlamePanel *f = (FlamePanel *)p;
	static const char *const groups[] = { "all tasks", "per CPU", "per task" };
	const FtlCallNode *root = flame_root(f, app);
	ftl_tui_fill(c, y, 0, -1, FTL_TUI_STYLE_HEADER);
	p->page = h - 2;
	if (!root) {
		ftl_tui_put(c, y, 0, -1, "Flame: building the call tree...", FTL_TUI_STYLE_HEADER);
		return;
	}
	gboolean by_calls = flame_by_calls(root);
	char t[32], s[32];
	g_autoptr(GString) head = g_string_new(NULL);
	g_string_printf(head, "Flame (%s, width = %s)", groups[f->group],
			by_calls ? "calls" : "time");
	if (f->cursor) {
		double rw = flame_root_weight(root, by_calls);
		g_string_append_printf(
			head, "  %s  %.1f%%  total %s  self %s  calls %" G_GUINT64_FORMAT, "|",
			rw > 0 ? 100.0 * flame_weight(f->cursor, by_calls) / rw : 0.0,
			ftl_tui_duration(f->cursor->total_ns, t, sizeof t),
			ftl_tui_duration(f->cursor->self_ns, s, sizeof s), f->cursor->calls);
	}
	ftl_tui_put(c, y, 0, -1, head->str, FTL_TUI_STYLE_HEADER);
	if (!root->child && !root->parent) {
		ftl_tui_put(c, y + 2, 2, -1, "no function calls", FTL_TUI_STYLE_DIM);
		return;
	}
	FlameDraw d = { f, c, y + 1, h - 2, c->cols, by_calls };
	flame_draw_node(&d, root, root->parent ? 0 : -1, 0, c->cols);
	if (f->cursor) /* the selected frame's name in full, made visible */
		ftl_tui_put_raw(c, y + h - 1, 0, -1, f->cursor->func, -1, FTL_TUI_STYLE_STATUS);
}

/* ---- moving between frames ----------------------------------------------------- */

/* Whether n is at least a column wide under the zoom root. */
static gboolean flame_visible(FlamePanel *f, FtlTuiApp *app, const FtlCallNode *n, int cols)
{
	const FtlCallNode *root = flame_root(f, app);
	gboolean by_calls = flame_by_calls(root);
	double rw = flame_root_weight(root, by_calls);
	return ftl_tui_tree_shown(f->keep, n) && rw > 0 &&
	       flame_weight(n, by_calls) * cols / rw >= 0.5;
}

static int flame_depth(FlamePanel *f, FtlTuiApp *app, const FtlCallNode *n)
{
	const FtlCallNode *root = flame_root(f, app);
	int d = root->parent ? 0 : -1;
	for (; n && n != root; n = n->parent)
		d++;
	return d;
}

static const FtlCallNode *flame_sibling(FlamePanel *f, FtlTuiApp *app, const FtlCallNode *n,
					int dir, int cols)
{
	const FtlCallNode *prev = NULL, *c = n->parent ? n->parent->child : NULL;
	for (; c && c != n; c = c->next)
		if (flame_visible(f, app, c, cols))
			prev = c;
	if (dir < 0)
		return prev;
	for (c = n->next; c; c = c->next)
		if (flame_visible(f, app, c, cols))
			return c;
	return NULL;
}

static void flame_show_cursor(FlamePanel *f, FtlTuiApp *app)
{
	int d = f->cursor ? flame_depth(f, app, f->cursor) : 0, h = MAX(f->base.page, 1);
	if (d < f->top_depth)
		f->top_depth = d;
	else if (d >= f->top_depth + h)
		f->top_depth = d - h + 1;
}

static FtlTuiReaction flame_move(FlamePanel *f, FtlTuiApp *app, FtlTuiCmd cmd, int cols)
{
	const FtlCallNode *n = f->cursor, *root = flame_root(f, app), *m = NULL;
	switch (cmd) {
	case FTL_TUI_CMD_UP:
		m = n->parent && n != root && n->parent != root ? n->parent
		    : n != root && root->parent			? root
								: NULL;
		break;
	case FTL_TUI_CMD_DOWN:
		for (m = n->child; m && !flame_visible(f, app, m, cols); m = m->next)
			;
		break;
	case FTL_TUI_CMD_LEFT:
	case FTL_TUI_CMD_RIGHT:
		m = flame_sibling(f, app, n, cmd == FTL_TUI_CMD_LEFT ? -1 : 1, cols);
		break;
	case FTL_TUI_CMD_TOP:
		m = root->parent ? root : ftl_tui_tree_child(f->keep, root);
		break;
	case FTL_TUI_CMD_PAGE_UP:
	case FTL_TUI_CMD_PAGE_DOWN:
		f->top_depth = MAX(f->top_depth + (cmd == FTL_TUI_CMD_PAGE_UP ? -1 : 1) *
							  MAX(f->base.page / 2, 1),
				   0);
		return FTL_TUI_REACT_REDRAW;
	default:
		return FTL_TUI_REACT_NONE;
	}
	if (m)
		f->cursor = m;
	flame_show_cursor(f, app);
	return FTL_TUI_REACT_REDRAW;
}

static FtlTuiReaction flame_command(FtlTuiPanel *p, FtlTuiApp *app, FtlTuiCmd cmd,
				    const FtlTuiInput *in)
{
	FlamePanel *f = (FlamePanel *)p;
	(void)in;
	if (cmd == FTL_TUI_CMD_GROUP) {
		/* also while the tree shown is still being read */
		f->group = (f->group + 1) % 3;
		g_ptr_array_set_size(f->zoom, 0);
		f->cursor = NULL;
		f->top_depth = 0;
		f->keep_for = 0;
		return FTL_TUI_REACT_REDRAW;
	}
	const FtlCallNode *root = flame_root(f, app);
	if (!root)
		return FTL_TUI_REACT_NONE;
	if (!f->cursor)
		f->cursor = root->parent ? root : ftl_tui_tree_child(f->keep, root);
	if (!f->cursor)
		return FTL_TUI_REACT_NONE;
	switch (cmd) {
	case FTL_TUI_CMD_ACTIVATE:
		if (f->cursor == root)
			return FTL_TUI_REACT_NONE;
		g_ptr_array_add(f->zoom, (gpointer)f->cursor);
		f->top_depth = 0;
		return FTL_TUI_REACT_REDRAW;
	case FTL_TUI_CMD_BACK:
		if (!f->zoom->len)
			return FTL_TUI_REACT_NONE;
		g_ptr_array_set_size(f->zoom, f->zoom->len - 1);
		flame_show_cursor(f, app);
		return FTL_TUI_REACT_REDRAW;
	case FTL_TUI_CMD_LIST_CALLS:
		return ftl_tui_go_filter(app, ftl_tui_filter_item_func_exact(f->cursor->func));
	default:
		return flame_move(f, app, cmd, MAX(app->cols, 1));
	}
}

static FtlTuiReaction flame_search(FtlTuiPanel *p, FtlTuiApp *app, GRegex *re, int dir)
{
	FlamePanel *f = (FlamePanel *)p;
	const FtlCallNode *root = flame_root(f, app), *found = NULL;
	if (!root)
		return FTL_TUI_REACT_NONE;
	gboolean past = f->cursor == NULL;
	for (const FtlCallNode *n = root->child; n; n = ftl_tui_tree_preorder(root, n)) {
		if (n == f->cursor) {
			if (dir < 0)
				break;
			past = TRUE;
			continue;
		}
		if ((dir > 0 && !past) || !flame_visible(f, app, n, MAX(app->cols, 1)) ||
		    !g_regex_match(re, n->func, 0, NULL))
			continue;
		found = n;
		if (dir > 0)
			break;
	}
	if (!found) {
		ftl_tui_app_say(app, TRUE, "no match (in frames wide enough to show)");
		return FTL_TUI_REACT_STATUS;
	}
	f->cursor = found;
	flame_show_cursor(f, app);
	return FTL_TUI_REACT_REDRAW;
}

void ftl_tui_flame_panel_focus(FtlTuiPanel *p, FtlCallTreeGroup group, const FtlCallNode *n)
{
	FlamePanel *f = (FlamePanel *)p;
	f->group = group;
	g_ptr_array_set_size(f->zoom, 0);
	if (n && n->parent)
		g_ptr_array_add(f->zoom, (gpointer)n);
	f->cursor = n;
	f->top_depth = 0;
}

static void flame_model_changed(FtlTuiPanel *p, FtlTuiApp *app, const FtlTuiModel *old)
{
	FlamePanel *f = (FlamePanel *)p;
	g_autoptr(GPtrArray) zoom =
		old && f->zoom->len
			? ftl_tui_tree_path(g_ptr_array_index(f->zoom, f->zoom->len - 1))
			: NULL;
	g_ptr_array_set_size(f->zoom, 0);
	f->cursor = NULL;
	f->top_depth = 0;
	f->keep_for = 0;
	const FtlCallNode *root = flame_tree_root(f, app);
	const FtlCallNode *z = zoom && root ? ftl_tui_tree_find(root, zoom) : NULL;
	if (z && z != root)
		ftl_tui_flame_panel_focus(p, f->group, z);
}

static FtlTuiReaction flame_tick(FtlTuiPanel *p, FtlTuiApp *app)
{
	FlamePanel *f = (FlamePanel *)p;
	ftl_tui_app_want_tree(app, f->group);
	const FtlCallNode *root = flame_tree_root(f, app);
	if (!root || (f->keep_for == app->model->gen && f->keep_root == root))
		return FTL_TUI_REACT_NONE;
	if (f->keep)
		g_hash_table_unref(f->keep);
	f->keep = ftl_tui_tree_keep(root, app->model->filter);
	f->keep_for = app->model->gen;
	f->keep_root = root;
	if (f->cursor && !ftl_tui_tree_shown(f->keep, f->cursor))
		f->cursor = NULL;
	if (!f->cursor) {
		const FtlCallNode *z = flame_root(f, app);
		f->cursor = z->parent ? z : ftl_tui_tree_child(f->keep, z);
	}
	return FTL_TUI_REACT_REDRAW;
}

const FtlTuiPanelClass ftl_tui_flame_panel = {
	.id = FTL_TUI_PANEL_FLAME,
	.name = "Flame",
	.new = flame_new,
	.free = flame_free,
	.available = ftl_tui_app_has_events,
	.empty = ftl_tui_app_no_calls,
	.needs_model = TRUE,
	.draw = flame_draw,
	.command = flame_command,
	.search = flame_search,
	.model_changed = flame_model_changed,
	.tick = flame_tick,
};
