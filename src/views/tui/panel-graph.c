/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The Graph panel: the merged call tree with calls, total, self and a bar,
 * folded and unfolded in place (tmux's mode-tree, uftrace's tui graph).
 * Rows are walked from the first one shown, never flattened, so a tree of
 * a million nodes folds and unfolds at the cost of a screenful. */
#include "config.h"

#include <string.h>

#include "views/tui/app.h"
#include "views/tui/source-line.h"
#include "views/tui/compare.h"
#include "views/tui/folds.h"
#include "views/tui/tree.h"

typedef struct {
	FtlTuiPanel base;
	FtlCallTreeGroup group;
	const FtlCallNode *cursor, *top; /* NULL: the first row */
	FtlTuiFolds folds; /* the unfolded nodes */
	GHashTable *keep; /* the function filter's nodes, NULL: all */
	guint64 keep_for; /* FtlTuiModel.gen */
	const FtlCallNode *keep_root;
	/* H: the durations of this function (every call of it, not only the
	 * node's: the histogram `plot durations -f` draws), or NULL */
	char *histo_of;
	guint64 histo_drawn; /* the side model it was drawn from: its gen, 0 none */
	/* a saved view's folds, cursor and top row (call paths), until the
	 * tree of its group is read */
	GPtrArray *view_toggled;
	GPtrArray *view_cursor, *view_top;
	FtlTuiGraphCompare *compare; /* the tree of A and B, with --compare */
} GraphPanel;

static FtlTuiPanel *graph_new(void)
{
	GraphPanel *g = g_new0(GraphPanel, 1);
	ftl_tui_folds_init(&g->folds);
	g->compare = ftl_tui_graph_compare_new();
	return &g->base;
}

static void graph_free(FtlTuiPanel *p)
{
	GraphPanel *g = (GraphPanel *)p;
	ftl_tui_graph_compare_free(g->compare);
	ftl_tui_folds_clear(&g->folds);
	if (g->keep)
		g_hash_table_unref(g->keep);
	g_free(g->histo_of);
	g_clear_pointer(&g->view_toggled, g_ptr_array_unref);
	g_clear_pointer(&g->view_cursor, g_ptr_array_unref);
	g_clear_pointer(&g->view_top, g_ptr_array_unref);
	g_free(g);
}

static const FtlCallNode *graph_root(GraphPanel *g, FtlTuiApp *app)
{
	return ftl_tui_app_tree_root(app, g->group);
}

static gboolean graph_open(GraphPanel *g, const FtlCallNode *n)
{
	return ftl_tui_folds_open(&g->folds, n);
}

/* ---- walking the rows shown ------------------------------------------------ */

static const FtlCallNode *graph_first(GraphPanel *g, const FtlCallNode *root)
{
	return root ? ftl_tui_tree_child(g->keep, root) : NULL;
}

static const FtlCallNode *graph_next(GraphPanel *g, const FtlCallNode *root, const FtlCallNode *n)
{
	const FtlCallNode *c = graph_open(g, n) ? ftl_tui_tree_child(g->keep, n) : NULL;
	if (c)
		return c;
	for (; n && n != root; n = n->parent) {
		const FtlCallNode *s = ftl_tui_tree_sibling(g->keep, n);
		if (s)
			return s;
	}
	return NULL;
}

static const FtlCallNode *graph_last_shown(GraphPanel *g, const FtlCallNode *n)
{
	for (;;) {
		const FtlCallNode *c = graph_open(g, n) ? ftl_tui_tree_child(g->keep, n) : NULL;
		if (!c)
			return n;
		while (ftl_tui_tree_sibling(g->keep, c))
			c = ftl_tui_tree_sibling(g->keep, c);
		n = c;
	}
}

static const FtlCallNode *graph_prev(GraphPanel *g, const FtlCallNode *root, const FtlCallNode *n)
{
	const FtlCallNode *parent = n->parent, *prev = NULL;
	for (const FtlCallNode *s = ftl_tui_tree_child(g->keep, parent); s && s != n;
	     s = ftl_tui_tree_sibling(g->keep, s))
		prev = s;
	if (prev)
		return graph_last_shown(g, prev);
	return parent == root ? NULL : parent;
}

static const FtlCallNode *graph_step(GraphPanel *g, const FtlCallNode *root, const FtlCallNode *n,
				     gint64 steps)
{
	for (; steps > 0; steps--) {
		const FtlCallNode *m = graph_next(g, root, n);
		if (!m)
			break;
		n = m;
	}
	for (; steps < 0; steps++) {
		const FtlCallNode *m = graph_prev(g, root, n);
		if (!m)
			break;
		n = m;
	}
	return n;
}

/* Keeps the cursor on screen: top moves as little as it can. */
static void graph_scroll(GraphPanel *g, const FtlCallNode *root)
{
	int h = MAX(g->base.page, 1);
	if (!g->top || !g->cursor) {
		g->top = g->cursor ? g->cursor : graph_first(g, root);
		if (!g->cursor)
			return;
	}
	const FtlCallNode *n = g->top;
	for (int i = 0; i < h && n; i++, n = graph_next(g, root, n))
		if (n == g->cursor)
			return;
	/* above the top? walk up from the top a screenful */
	n = g->top;
	for (int i = 0; i < h && n; i++, n = graph_prev(g, root, n))
		if (n == g->cursor) {
			g->top = g->cursor;
			return;
		}
	g->top = graph_step(g, root, g->cursor, -(h - 1));
}

/* ---- drawing ---------------------------------------------------------------- */

/* The guides in front of n: "│ " for an ancestor with siblings below it,
 * then "├─" or "└─", then the fold sign. */
static void graph_guides(GraphPanel *g, const FtlCallNode *root, const FtlCallNode *n,
			 gboolean utf8, GString *out)
{
	g_autoptr(GPtrArray) up = g_ptr_array_new();
	for (const FtlCallNode *a = n->parent; a && a != root; a = a->parent)
		g_ptr_array_add(up, (gpointer)a);
	for (guint i = up->len; i-- > 0;)
		g_string_append(out, ftl_tui_tree_sibling(g->keep, up->pdata[i])
					     ? (utf8 ? "\u2502 " : "| ")
					     : "  ");
	gboolean more = ftl_tui_tree_sibling(g->keep, n) != NULL;
	g_string_append(out,
			more ? (utf8 ? "\u251c\u2500" : "|-") : (utf8 ? "\u2514\u2500" : "`-"));
	if (!ftl_tui_tree_child(g->keep, n))
		g_string_append(out, utf8 ? "\u2500 " : "- ");
	else if (graph_open(g, n))
		g_string_append(out, utf8 ? "\u25be " : "- ");
	else
		g_string_append(out, utf8 ? "\u25b8 " : "+ ");
}

static void graph_draw_row(GraphPanel *g, const FtlCallNode *root, gint64 total, FtlTuiCanvas *c,
			   int y, const FtlCallNode *n)
{
	gboolean cur = n == g->cursor;
	FtlTuiStyle st = cur ? FTL_TUI_STYLE_CURSOR : FTL_TUI_STYLE_NORMAL;
	if (cur)
		ftl_tui_fill(c, y, 0, -1, st);
	char buf[32];
	g_snprintf(buf, sizeof buf, "%" G_GUINT64_FORMAT, n->calls);
	ftl_tui_put_right(c, y, 0, 9, buf, st);
	ftl_tui_put_right(c, y, 10, 11,
			  ftl_tui_duration(n->timed ? n->total_ns : FTL_TS_NONE, buf, sizeof buf),
			  st);
	ftl_tui_put_right(c, y, 22, 11,
			  ftl_tui_duration(n->timed ? n->self_ns : FTL_TS_NONE, buf, sizeof buf),
			  st);
	ftl_tui_bar(c, y, 34, 10, total > 0 ? (double)n->total_ns / (double)total : 0,
		    cur ? st : FTL_TUI_STYLE_BAR);
	g_autoptr(GString) guides = g_string_new(NULL);
	graph_guides(g, root, n, c->utf8, guides);
	int x = 45 + ftl_tui_put(c, y, 45, -1, guides->str, cur ? st : FTL_TUI_STYLE_DIM);
	ftl_tui_put_raw(c, y, x, -1, n->func, -1, n->flagged && !cur ? FTL_TUI_STYLE_WARN : st);
}

static void graph_draw(FtlTuiPanel *p, FtlTuiApp *app, FtlTuiCanvas *c, int y, int h)
{
	GraphPanel *g = (GraphPanel *)p;
	static const char *const groups[] = { "all tasks", "per CPU", "per task" };
	if (ftl_tui_compare_on(app)) {
		ftl_tui_graph_compare_draw(g->compare, p, app, c, y, h);
		return;
	}
	if (!g->histo_of && ftl_tui_source_rows(app, h)) {
		/* the function of the cursor's row (the first row when unset);
		 * a CPU's or task's node names none */
		const FtlCallNode *root = graph_root(g, app);
		const FtlCallNode *sel = g->cursor ? g->cursor : root ? graph_first(g, root) : NULL;
		gboolean func = sel && (g->group == FTL_CALLTREE_GROUP_NONE || sel->depth > 1);
		h--;
		ftl_tui_source_draw(app, c, y + h, func ? sel->func : NULL);
	}
	if (g->histo_of) {
		ftl_tui_durations_draw(c, y, h, app, g->histo_of);
		return;
	}
	ftl_tui_fill(c, y, 0, -1, FTL_TUI_STYLE_HEADER);
	ftl_tui_put_right(c, y, 0, 9, "CALLS", FTL_TUI_STYLE_HEADER);
	ftl_tui_put_right(c, y, 10, 11, "TOTAL", FTL_TUI_STYLE_HEADER);
	ftl_tui_put_right(c, y, 22, 11, "SELF", FTL_TUI_STYLE_HEADER);
	g_autofree char *title = g_strdup_printf("FUNCTION (%s; p: change)", groups[g->group]);
	ftl_tui_put(c, y, 45, -1, title, FTL_TUI_STYLE_HEADER);
	p->page = h - 1;
	const FtlCallNode *root = graph_root(g, app);
	if (!root) {
		ftl_tui_put(c, y + 2, 2, -1, "building the call tree...", FTL_TUI_STYLE_DIM);
		return;
	}
	const FtlCallNode *n = g->top ? g->top : graph_first(g, root);
	if (!n) {
		ftl_tui_put(c, y + 2, 2, -1,
			    "no function calls (function_graph or function tracer)",
			    FTL_TUI_STYLE_DIM);
		return;
	}
	gint64 total = ftl_tui_tree_total(root);
	for (int row = 0; row < h - 1 && n; row++, n = graph_next(g, root, n))
		graph_draw_row(g, root, total, c, y + 1 + row, n);
}

/* ---- commands ------------------------------------------------------------- */

static FtlTuiReaction graph_move(GraphPanel *g, const FtlCallNode *root, FtlTuiCmd cmd)
{
	gint64 page = MAX(g->base.page - 1, 1);
	switch (cmd) {
	case FTL_TUI_CMD_UP:
		g->cursor = graph_step(g, root, g->cursor, -1);
		break;
	case FTL_TUI_CMD_DOWN:
		g->cursor = graph_step(g, root, g->cursor, 1);
		break;
	case FTL_TUI_CMD_WHEEL_UP:
	case FTL_TUI_CMD_WHEEL_DOWN:
		g->cursor = graph_step(g, root, g->cursor, cmd == FTL_TUI_CMD_WHEEL_UP ? -3 : 3);
		break;
	case FTL_TUI_CMD_PAGE_UP:
		g->cursor = graph_step(g, root, g->cursor, -page);
		break;
	case FTL_TUI_CMD_PAGE_DOWN:
		g->cursor = graph_step(g, root, g->cursor, page);
		break;
	case FTL_TUI_CMD_TOP:
		g->cursor = graph_first(g, root);
		break;
	case FTL_TUI_CMD_BOTTOM: {
		const FtlCallNode *last = graph_first(g, root);
		while (last && ftl_tui_tree_sibling(g->keep, last))
			last = ftl_tui_tree_sibling(g->keep, last);
		g->cursor = last ? graph_last_shown(g, last) : NULL;
		break;
	}
	default:
		return FTL_TUI_REACT_NONE;
	}
	graph_scroll(g, root);
	return FTL_TUI_REACT_REDRAW;
}

static const FtlCallNode *graph_longest_child(GraphPanel *g, const FtlCallNode *n)
{
	const FtlCallNode *best = NULL;
	for (const FtlCallNode *c = ftl_tui_tree_child(g->keep, n); c;
	     c = ftl_tui_tree_sibling(g->keep, c))
		if (!best || c->total_ns > best->total_ns)
			best = c;
	return best;
}

/* The cursor's node is a function (not a CPU or a task of the grouping). */
static gboolean graph_on_function(GraphPanel *g, FtlTuiApp *app)
{
	if (!g->cursor || (g->cursor->depth == 1 && g->group != FTL_CALLTREE_GROUP_NONE)) {
		ftl_tui_app_say(app, TRUE, "not a function");
		return FALSE;
	}
	return TRUE;
}

static FtlTuiReaction graph_list_calls(GraphPanel *g, FtlTuiApp *app)
{
	if (!graph_on_function(g, app))
		return FTL_TUI_REACT_STATUS;
	return ftl_tui_go_filter(app, ftl_tui_filter_item_func_exact(g->cursor->func));
}

static FtlTuiReaction graph_histogram(GraphPanel *g, FtlTuiApp *app)
{
	if (!graph_on_function(g, app))
		return FTL_TUI_REACT_STATUS;
	g->histo_of = g_strdup(g->cursor->func);
	g->histo_drawn = 0;
	return ftl_tui_durations_tick(app, g->histo_of, &g->histo_drawn) | FTL_TUI_REACT_REDRAW;
}

/* The call tree as the fold keys walk it: the nodes the filter keeps. */
static gconstpointer graph_op_child(gconstpointer n, gpointer g)
{
	return ftl_tui_tree_child(((GraphPanel *)g)->keep, n);
}

/* c is the first child shown: alone without a next one */
static gboolean graph_op_alone(gconstpointer c, gpointer g)
{
	return !ftl_tui_tree_sibling(((GraphPanel *)g)->keep, c);
}

static gconstpointer graph_op_parent(gconstpointer n)
{
	return ((const FtlCallNode *)n)->parent;
}

static gconstpointer graph_op_preorder(gconstpointer top, gconstpointer n)
{
	return ftl_tui_tree_preorder(top, n);
}

static gconstpointer graph_op_longest(gconstpointer n, gpointer g)
{
	return graph_longest_child(g, n);
}

static const FtlTuiTreeOps graph_ops = {
	graph_op_child, graph_op_alone, graph_op_parent, graph_op_preorder, graph_op_longest,
};

static FtlTuiReaction graph_fold(GraphPanel *g, FtlTuiApp *app, FtlTuiCmd cmd)
{
	/* Enter on a leaf lists its calls */
	if (cmd == FTL_TUI_CMD_ACTIVATE && !ftl_tui_tree_child(g->keep, g->cursor))
		return graph_list_calls(g, app);
	gconstpointer cursor = g->cursor;
	if (!ftl_tui_folds_command(&g->folds, &graph_ops, g, &cursor, cmd))
		return FTL_TUI_REACT_NONE;
	g->cursor = cursor;
	graph_scroll(g, graph_root(g, app));
	return FTL_TUI_REACT_REDRAW;
}

static FtlTuiReaction graph_command(FtlTuiPanel *p, FtlTuiApp *app, FtlTuiCmd cmd,
				    const FtlTuiInput *in)
{
	GraphPanel *g = (GraphPanel *)p;
	if (ftl_tui_compare_on(app))
		return ftl_tui_graph_compare_command(g->compare, p, app, cmd, in);
	if (g->histo_of) {
		/* over the tree: Esc or H again closes it */
		if (cmd != FTL_TUI_CMD_BACK && cmd != FTL_TUI_CMD_HISTOGRAM)
			return FTL_TUI_REACT_NONE;
		g_clear_pointer(&g->histo_of, g_free);
		return FTL_TUI_REACT_REDRAW;
	}
	if (cmd == FTL_TUI_CMD_GROUP) {
		/* also while the tree shown is still being read */
		g->group = (g->group + 1) % 3;
		g->cursor = g->top = NULL;
		ftl_tui_folds_reset(&g->folds, g->folds.all_open);
		g->keep_for = 0;
		return FTL_TUI_REACT_REDRAW;
	}
	const FtlCallNode *root = graph_root(g, app);
	if (!root)
		return FTL_TUI_REACT_NONE;
	if (!g->cursor)
		g->cursor = graph_first(g, root);
	if (!g->cursor)
		return FTL_TUI_REACT_NONE;
	switch (cmd) {
	case FTL_TUI_CMD_LIST_CALLS:
		return graph_list_calls(g, app);
	case FTL_TUI_CMD_HISTOGRAM:
		return graph_histogram(g, app);
	case FTL_TUI_CMD_FLAME_OF:
		ftl_tui_flame_panel_focus(ftl_tui_app_panel(app, FTL_TUI_PANEL_FLAME), g->group,
					  g->cursor);
		return ftl_tui_go_panel(app, FTL_TUI_PANEL_FLAME);
	case FTL_TUI_CMD_CLICK:
		if (in->y >= 2 && in->y - 2 < p->page && g->top) {
			g->cursor = graph_step(g, root, g->top, in->y - 2);
			return FTL_TUI_REACT_REDRAW;
		}
		return FTL_TUI_REACT_NONE;
	default:
		break;
	}
	FtlTuiReaction r = graph_move(g, root, cmd);
	return r ? r : graph_fold(g, app, cmd);
}

/* Every node in pre-order from the cursor, folded ones too; the match is
 * unfolded into view. */
static FtlTuiReaction graph_search(FtlTuiPanel *p, FtlTuiApp *app, GRegex *re, int dir)
{
	GraphPanel *g = (GraphPanel *)p;
	if (ftl_tui_compare_on(app))
		return ftl_tui_graph_compare_search(g->compare, p, app, re, dir);
	const FtlCallNode *root = graph_root(g, app), *found = NULL;
	if (!root)
		return FTL_TUI_REACT_NONE;
	gboolean past = g->cursor == NULL;
	for (const FtlCallNode *n = root->child; n; n = ftl_tui_tree_preorder(root, n)) {
		if (n == g->cursor) {
			if (dir > 0) {
				past = TRUE;
				continue;
			}
			break;
		}
		if (!ftl_tui_tree_shown(g->keep, n) || (dir > 0 && !past) ||
		    !g_regex_match(re, n->func, 0, NULL))
			continue;
		found = n;
		if (dir > 0)
			break;
	}
	if (!found) {
		ftl_tui_app_say(app, TRUE, "no match");
		return FTL_TUI_REACT_STATUS;
	}
	for (const FtlCallNode *a = found->parent; a && a != root; a = a->parent)
		ftl_tui_folds_set(&g->folds, a, TRUE);
	g->cursor = found;
	graph_scroll(g, root);
	return FTL_TUI_REACT_REDRAW;
}

static gint64 graph_cursor_time(FtlTuiPanel *p, FtlTuiApp *app)
{
	(void)p;
	(void)app;
	return FTL_TS_NONE; /* merged calls have no single time */
}

/* A new model: the cursor and the unfolded nodes are found again by path. */
static void graph_model_changed(FtlTuiPanel *p, FtlTuiApp *app, const FtlTuiModel *old)
{
	GraphPanel *g = (GraphPanel *)p;
	const FtlCallNode *root = graph_root(g, app);
	g_autoptr(GPtrArray) cursor = g->cursor && old ? ftl_tui_tree_path(g->cursor) : NULL;
	GHashTable *toggled = g_hash_table_new(g_direct_hash, g_direct_equal);
	GHashTableIter it;
	gpointer k;
	g_hash_table_iter_init(&it, g->folds.toggled);
	while (old && root && g_hash_table_iter_next(&it, &k, NULL)) {
		g_autoptr(GPtrArray) path = ftl_tui_tree_path(k);
		const FtlCallNode *n = ftl_tui_tree_find(root, path);
		if (n && n != root && n->depth == (gint)path->len)
			g_hash_table_add(toggled, (gpointer)n);
	}
	g_hash_table_unref(g->folds.toggled);
	g->folds.toggled = toggled;
	g->cursor = cursor && root ? ftl_tui_tree_find(root, cursor) : NULL;
	if (g->cursor == root)
		g->cursor = NULL;
	g->top = NULL;
	g->keep_for = 0;
	g->histo_drawn = 0; /* the histogram is read again under the new filter */
	if (g->keep)
		g_clear_pointer(&g->keep, g_hash_table_unref);
}

/* ---- saved views ------------------------------------------------------------- */

static FtlTuiReaction graph_tick(FtlTuiPanel *p, FtlTuiApp *app);

static void graph_save_path(FtlTuiView *v, const char *key, const FtlCallNode *n)
{
	g_autoptr(GPtrArray) path = ftl_tui_tree_path(n);
	ftl_tui_view_add_path(v, "graph", key, (const char *const *)path->pdata, path->len);
}

/* The grouping, the folds as call paths (names from the top down), the
 * cursor's and the top row's paths. */
static void graph_save(FtlTuiPanel *p, FtlTuiApp *app, FtlTuiView *v)
{
	GraphPanel *g = (GraphPanel *)p;
	(void)app;
	ftl_tui_view_set_int(v, "graph", "group", g->group);
	ftl_tui_view_set_bool(v, "graph", "all_open", g->folds.all_open);
	/* in pre-order: the file says the same for the same folds */
	const FtlCallNode *root = graph_root(g, app);
	if (root)
		for (const FtlCallNode *n = ftl_tui_tree_preorder(root, root); n;
		     n = ftl_tui_tree_preorder(root, n))
			if (g_hash_table_contains(g->folds.toggled, n))
				graph_save_path(v, "toggled", n);
	if (g->cursor)
		graph_save_path(v, "cursor", g->cursor);
	if (g->top)
		graph_save_path(v, "top", g->top);
	/* the rows it showed: the top row stays until it is drawn again */
	ftl_tui_view_set_int(v, "graph", "page", CLAMP(p->page, 0, 100000));
}

/* A path as ftl_tui_tree_find() takes it, the strings owned. */
static GPtrArray *graph_view_path(char **names)
{
	GPtrArray *a = g_ptr_array_new_with_free_func(g_free);
	for (guint i = 0; names && names[i]; i++)
		g_ptr_array_add(a, g_strdup(names[i]));
	return a;
}

static GPtrArray *graph_view_one(const FtlTuiView *v, const char *key)
{
	g_autoptr(GPtrArray) paths = ftl_tui_view_get_paths(v, "graph", key);
	return paths && paths->len ? graph_view_path(paths->pdata[0]) : NULL;
}

static void graph_restore(FtlTuiPanel *p, FtlTuiApp *app, const FtlTuiView *v, gboolean same)
{
	GraphPanel *g = (GraphPanel *)p;
	(void)app;
	(void)same; /* paths are names: they hold in any trace that has them */
	gint64 group, page;
	if (ftl_tui_view_get_int(v, "graph", "group", &group))
		g->group = (FtlCallTreeGroup)group;
	if (!p->page && ftl_tui_view_get_int(v, "graph", "page", &page))
		p->page = (int)page;
	gboolean all_open = g->folds.all_open;
	ftl_tui_view_get_bool(v, "graph", "all_open", &all_open);
	ftl_tui_folds_reset(&g->folds, all_open);
	g->cursor = g->top = NULL;
	g->keep_for = 0;
	g_clear_pointer(&g->view_toggled, g_ptr_array_unref);
	g_clear_pointer(&g->view_cursor, g_ptr_array_unref);
	g_clear_pointer(&g->view_top, g_ptr_array_unref);
	g_autoptr(GPtrArray) toggled = ftl_tui_view_get_paths(v, "graph", "toggled");
	g->view_toggled = g_ptr_array_new_with_free_func((GDestroyNotify)g_ptr_array_unref);
	for (guint i = 0; toggled && i < toggled->len; i++)
		g_ptr_array_add(g->view_toggled, graph_view_path(toggled->pdata[i]));
	g->view_cursor = graph_view_one(v, "cursor");
	g->view_top = graph_view_one(v, "top");
	/* at once when the tree is there: the screen drawn next shows it */
	graph_tick(p, app);
}

/* The node at path exactly, or NULL. */
static const FtlCallNode *graph_view_find(const FtlCallNode *root, GPtrArray *path)
{
	const FtlCallNode *n = path ? ftl_tui_tree_find(root, path) : NULL;
	return n && n != root && n->depth == (gint)path->len ? n : NULL;
}

/* A saved view's paths, once the tree of its group is read. */
static void graph_view_resolve(GraphPanel *g, const FtlCallNode *root)
{
	for (guint i = 0; i < g->view_toggled->len; i++) {
		const FtlCallNode *n = graph_view_find(root, g->view_toggled->pdata[i]);
		if (n)
			g_hash_table_add(g->folds.toggled, (gpointer)n);
	}
	g->cursor = graph_view_find(root, g->view_cursor);
	g->top = g->cursor ? graph_view_find(root, g->view_top) : NULL;
	g_clear_pointer(&g->view_toggled, g_ptr_array_unref);
	g_clear_pointer(&g->view_cursor, g_ptr_array_unref);
	g_clear_pointer(&g->view_top, g_ptr_array_unref);
}

/* The function filter's nodes, computed once per model and grouping. */
static FtlTuiReaction graph_tick(FtlTuiPanel *p, FtlTuiApp *app)
{
	/* the source line said the debug info was being read: it is now */
	if (ftl_tui_source_tick(app))
		return FTL_TUI_REACT_REDRAW;
	GraphPanel *g = (GraphPanel *)p;
	if (ftl_tui_compare_on(app))
		return ftl_tui_graph_compare_tick(g->compare, app);
	/* only the panel shown reads its histogram: one side analysis at a time */
	FtlTuiReaction r = app->current == FTL_TUI_PANEL_GRAPH
				   ? ftl_tui_durations_tick(app, g->histo_of, &g->histo_drawn)
				   : FTL_TUI_REACT_NONE;
	ftl_tui_app_want_tree(app, g->group);
	const FtlCallNode *root = graph_root(g, app);
	if (!root || (g->keep_for == app->model->gen && g->keep_root == root))
		return r;
	if (g->keep)
		g_hash_table_unref(g->keep);
	g->keep = ftl_tui_tree_keep(root, app->model->filter);
	g->keep_for = app->model->gen;
	g->keep_root = root;
	g->top = NULL;
	if (g->view_toggled) /* a saved view's restore cleared keep_for */
		graph_view_resolve(g, root);
	if (g->cursor && !ftl_tui_tree_shown(g->keep, g->cursor))
		g->cursor = g->top = NULL;
	if (g->top && !ftl_tui_tree_shown(g->keep, g->top))
		g->top = NULL;
	if (!g->cursor)
		g->cursor = graph_first(g, root);
	graph_scroll(g, root);
	return FTL_TUI_REACT_REDRAW;
}

const FtlTuiPanelClass ftl_tui_graph_panel = {
	.id = FTL_TUI_PANEL_GRAPH,
	.name = "Graph",
	.new = graph_new,
	.free = graph_free,
	.available = ftl_tui_app_has_events,
	.empty = ftl_tui_app_no_calls,
	.needs_model = TRUE,
	.draw = graph_draw,
	.command = graph_command,
	.search = graph_search,
	.cursor_time = graph_cursor_time,
	.model_changed = graph_model_changed,
	.tick = graph_tick,
	.save = graph_save,
	.restore = graph_restore,
};
