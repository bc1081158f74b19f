/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The Graph panel with --compare: the merged call tree of A and B as
 * `flame --diff` merges them (ftl_flame_diff over the two models' call
 * trees: a node per call path of either trace), A's and B's inclusive
 * time on each path, the change and its percentage; folded and unfolded
 * as the Graph is, siblings ordered by the size of their change.
 *
 * A row's time is the time its path covers (FtlCallNode.span_ns, what
 * flame draws): a call with no exit (open at the end of the trace) covers
 * its callees' time. `graph`, the Graph without --compare and `diff`
 * count only calls with an exit (total_ns): they differ on paths with
 * such calls. The footer says, for the cursor's path, what graph counts
 * in A and B and how many calls had no exit, so the two numbers are
 * never left unexplained. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/flame.h"
#include "views/tui/compare.h"
#include "views/tui/folds.h"
#include "views/tui/tree.h"

struct _FtlTuiGraphCompare {
	gconstpointer for_model;
	FtlFlame *a, *b, *diff;
	FtlTuiFolds folds; /* the unfolded nodes, folded as the Graph */
	GPtrArray *rows; /* const FtlFlameNode*, the rows shown, in order */
	gint64 cursor, top;
};

FtlTuiGraphCompare *ftl_tui_graph_compare_new(void)
{
	FtlTuiGraphCompare *gc = g_new0(FtlTuiGraphCompare, 1);
	ftl_tui_folds_init(&gc->folds);
	gc->rows = g_ptr_array_new();
	return gc;
}

static void gc_clear(FtlTuiGraphCompare *gc)
{
	g_clear_pointer(&gc->diff, ftl_flame_free);
	g_clear_pointer(&gc->a, ftl_flame_free);
	g_clear_pointer(&gc->b, ftl_flame_free);
	ftl_tui_folds_reset(&gc->folds, gc->folds.all_open);
	g_ptr_array_set_size(gc->rows, 0);
}

void ftl_tui_graph_compare_free(FtlTuiGraphCompare *gc)
{
	if (!gc)
		return;
	gc_clear(gc);
	ftl_tui_folds_clear(&gc->folds);
	g_ptr_array_unref(gc->rows);
	g_free(gc);
}

static gboolean gc_open(FtlTuiGraphCompare *gc, const FtlFlameNode *n)
{
	return ftl_tui_folds_open(&gc->folds, n);
}

static gint64 gc_change(const FtlFlameNode *n)
{
	return n->value - n->other;
}

/* The largest change first, then by name (flame's order). */
static gint gc_cmp(gconstpointer x, gconstpointer y)
{
	const FtlFlameNode *p = *(const FtlFlameNode *const *)x, *q = *(const FtlFlameNode *const *)y;
	gint64 a = llabs(gc_change(p)), b = llabs(gc_change(q));
	if (a != b)
		return a > b ? -1 : 1;
	return strcmp(p->name, q->name);
}

/* The rows shown, the cursor on cur's row (the first where cur is not
 * shown): an explicit stack, no recursion (the depth comes from the
 * input). */
static void gc_rows(FtlTuiGraphCompare *gc, const FtlFlameNode *cur)
{
	g_ptr_array_set_size(gc->rows, 0);
	if (!gc->diff)
		return;
	g_autoptr(GPtrArray) stack = g_ptr_array_new();
	g_autoptr(GPtrArray) kids = g_ptr_array_new();
	g_ptr_array_add(stack, ftl_flame_root(gc->diff));
	gboolean root = TRUE;
	while (stack->len) {
		const FtlFlameNode *n = g_ptr_array_steal_index(stack, stack->len - 1);
		if (!root)
			g_ptr_array_add(gc->rows, (gpointer)n);
		if (!root && !gc_open(gc, n))
			continue;
		root = FALSE;
		g_ptr_array_set_size(kids, 0);
		for (const FtlFlameNode *c = n->child; c; c = c->next)
			g_ptr_array_add(kids, (gpointer)c);
		g_ptr_array_sort(kids, gc_cmp);
		for (guint i = kids->len; i-- > 0;)
			g_ptr_array_add(stack, kids->pdata[i]);
	}
	gc->cursor = 0;
	for (guint i = 0; cur && i < gc->rows->len; i++)
		if (gc->rows->pdata[i] == cur)
			gc->cursor = i;
}

/* A flame tree of a model's call tree of all tasks, as flame draws it. */
static FtlFlame *gc_flame(const FtlTuiModel *m)
{
	FtlFlame *f = ftl_flame_new(FTL_FLAME_UNIT_NS);
	ftl_flame_add_calltree(f, m->trees[FTL_CALLTREE_GROUP_NONE], FALSE);
	ftl_flame_finish(f);
	return f;
}

FtlTuiReaction ftl_tui_graph_compare_tick(FtlTuiGraphCompare *gc, FtlTuiApp *app)
{
	const FtlTuiModel *m = app->model;
	if (!ftl_tui_compare_on(app) || gc->for_model == m)
		return FTL_TUI_REACT_NONE;
	gc_clear(gc);
	gc->for_model = m;
	gc->a = gc_flame(m);
	gc->b = gc_flame(m->compare);
	gc->diff = ftl_flame_diff(gc->a, gc->b, FALSE);
	gc->cursor = gc->top = 0;
	gc_rows(gc, NULL);
	return FTL_TUI_REACT_REDRAW;
}

/* ---- drawing ---------------------------------------------------------------- */

#define GC_W   11
#define GC_PCT 10
#define GC_X(k) ((GC_W + 1) * (k))
#define GC_NAME (GC_X(3) + GC_PCT + 1)

static void gc_guides(FtlTuiGraphCompare *gc, const FtlFlameNode *n, gboolean utf8, GString *out)
{
	g_autoptr(GPtrArray) up = g_ptr_array_new();
	for (const FtlFlameNode *a = n->parent; a && a->kind != FTL_FLAME_ROOT; a = a->parent)
		g_ptr_array_add(up, (gpointer)a);
	for (guint i = up->len; i-- > 0;)
		g_string_append(out, "  ");
	if (!n->child)
		g_string_append(out, utf8 ? "\u2500 " : "- ");
	else if (gc_open(gc, n))
		g_string_append(out, utf8 ? "\u25be " : "- ");
	else
		g_string_append(out, utf8 ? "\u25b8 " : "+ ");
}

static void gc_row(FtlTuiGraphCompare *gc, FtlTuiCanvas *c, int y, const FtlFlameNode *n,
		   gboolean cur)
{
	FtlTuiStyle st = cur ? FTL_TUI_STYLE_CURSOR : FTL_TUI_STYLE_NORMAL;
	if (cur)
		ftl_tui_fill(c, y, 0, -1, st);
	char buf[48];
	ftl_tui_put_right(c, y, GC_X(0), GC_W,
			  ftl_tui_duration(n->in_a ? n->other : FTL_TS_NONE, buf, sizeof buf), st);
	ftl_tui_put_right(c, y, GC_X(1), GC_W,
			  ftl_tui_duration(n->in_b ? n->value : FTL_TS_NONE, buf, sizeof buf), st);
	FtlTuiStyle cst = cur ? st : gc_change(n) > 0 ? FTL_TUI_STYLE_WARN : FTL_TUI_STYLE_NORMAL;
	ftl_tui_put_right(c, y, GC_X(2), GC_W, ftl_tui_change(gc_change(n), buf, sizeof buf), cst);
	ftl_tui_put_right(c, y, GC_X(3), GC_PCT,
			  ftl_tui_change_pct(n->other, n->value, n->in_a, n->in_b, buf, sizeof buf),
			  cst);
	g_autoptr(GString) guides = g_string_new(NULL);
	gc_guides(gc, n, c->utf8, guides);
	int x = GC_NAME + ftl_tui_put(c, y, GC_NAME, -1, guides->str, cur ? st : FTL_TUI_STYLE_DIM);
	ftl_tui_put_raw(c, y, x, -1, n->name, -1, st);
}

/* The cursor's path in a model's call tree of all tasks: NULL where the
 * path is not in it. */
static const FtlCallNode *gc_call_node(const FtlTuiModel *m, const FtlFlameNode *n)
{
	const FtlCallNode *root = m->trees[FTL_CALLTREE_GROUP_NONE]
					  ? ftl_calltree_root(m->trees[FTL_CALLTREE_GROUP_NONE])
					  : NULL;
	if (!root)
		return NULL;
	g_autoptr(GPtrArray) path = g_ptr_array_new();
	for (const FtlFlameNode *a = n; a && a->kind != FTL_FLAME_ROOT; a = a->parent)
		g_ptr_array_insert(path, 0, (gpointer)a->name);
	const FtlCallNode *c = ftl_tui_tree_find(root, path);
	return c && c->depth == (gint)path->len ? c : NULL;
}

/* The cursor's path as `graph` counts it on each input. */
static void gc_footer(const FtlTuiModel *m, const FtlFlameNode *n, FtlTuiCanvas *c, int y)
{
	const FtlCallNode *na = gc_call_node(m, n), *nb = gc_call_node(m->compare, n);
	FtlTuiCompareSide a = { 0 }, b = { 0 };
	if (na)
		a = (FtlTuiCompareSide){ na->total_ns, na->calls, na->timed };
	if (nb)
		b = (FtlTuiCompareSide){ nb->total_ns, nb->calls, nb->timed };
	ftl_tui_compare_footer(c, y, n->name, "graph on this path", &a, &b,
			       "above, an untimed call (no exit) counts its callees' time, as "
			       "flame --diff");
}

void ftl_tui_graph_compare_draw(FtlTuiGraphCompare *gc, FtlTuiPanel *p, FtlTuiApp *app,
				FtlTuiCanvas *c, int y, int h)
{
	ftl_tui_fill(c, y, 0, -1, FTL_TUI_STYLE_HEADER);
	ftl_tui_put_right(c, y, GC_X(0), GC_W, "A", FTL_TUI_STYLE_HEADER);
	ftl_tui_put_right(c, y, GC_X(1), GC_W, "B", FTL_TUI_STYLE_HEADER);
	ftl_tui_put_right(c, y, GC_X(2), GC_W, "CHANGE", FTL_TUI_STYLE_HEADER);
	ftl_tui_put_right(c, y, GC_X(3), GC_PCT, "%", FTL_TUI_STYLE_HEADER);
	ftl_tui_put(c, y, GC_NAME, -1,
		    "FUNCTION (time each call path covers, as flame --diff)",
		    FTL_TUI_STYLE_HEADER);
	/* the last row: the cursor's path as graph counts it */
	gboolean footer = h >= 3 && gc->rows->len;
	if (footer)
		h--;
	p->page = MAX(h - 1, 1);
	if (!gc->rows->len) {
		ftl_tui_put(c, y + 2, 2, -1, gc->diff ? "no function calls in A or B" : "reading...",
			    FTL_TUI_STYLE_DIM);
		return;
	}
	for (int row = 0; row < h - 1 && gc->top + row < (gint64)gc->rows->len; row++) {
		gint64 i = gc->top + row;
		gc_row(gc, c, y + 1 + row, gc->rows->pdata[i], i == gc->cursor);
	}
	if (footer)
		gc_footer(app->model, gc->rows->pdata[gc->cursor], c, y + h);
}

/* ---- commands ----------------------------------------------------------------- */

/* The merged tree as the fold keys walk it: all its nodes; the first
 * child is the first of the rows, the one that changed most (where Right
 * and l go). */
static gconstpointer gc_op_child(gconstpointer n, gpointer data)
{
	const FtlFlameNode *best = NULL;
	(void)data;
	for (const FtlFlameNode *c = ((const FtlFlameNode *)n)->child; c; c = c->next)
		if (!best || gc_cmp(&c, &best) < 0)
			best = c;
	return best;
}

static gboolean gc_op_alone(gconstpointer c, gpointer data)
{
	const FtlFlameNode *m = c;
	(void)data;
	return m->parent->child == m && !m->next;
}

static gconstpointer gc_op_parent(gconstpointer n)
{
	return ((const FtlFlameNode *)n)->parent;
}

static gconstpointer gc_op_preorder(gconstpointer top, gconstpointer n)
{
	const FtlFlameNode *m = n;
	if (m->child)
		return m->child;
	while (m != top && !m->next)
		m = m->parent;
	return m != top ? m->next : NULL;
}

static const FtlTuiTreeOps gc_ops = {
	gc_op_child, gc_op_alone, gc_op_parent, gc_op_preorder, gc_op_child,
};

FtlTuiReaction ftl_tui_graph_compare_command(FtlTuiGraphCompare *gc, FtlTuiPanel *p,
					     FtlTuiApp *app, FtlTuiCmd cmd,
					     const FtlTuiInput *in)
{
	gint64 n = (gint64)gc->rows->len;
	if (!n)
		return FTL_TUI_REACT_NONE;
	if (ftl_tui_move(&gc->cursor, n, p->page, cmd)) {
		ftl_tui_scroll(&gc->top, gc->cursor, p->page);
		return FTL_TUI_REACT_REDRAW;
	}
	gc->cursor = CLAMP(gc->cursor, 0, n - 1);
	gconstpointer node = gc->rows->pdata[gc->cursor];
	switch (cmd) {
	case FTL_TUI_CMD_CLICK:
		/* not the footer under the rows */
		ftl_tui_click(&gc->cursor, gc->top, n, p->page, in);
		return FTL_TUI_REACT_REDRAW;
	case FTL_TUI_CMD_GROUP:
	case FTL_TUI_CMD_LIST_CALLS:
	case FTL_TUI_CMD_FLAME_OF:
		ftl_tui_app_say(app, TRUE, "%s",
				"comparing A and B: the Graph merges all tasks; this key works on "
				"one trace (tui without --compare)");
		return FTL_TUI_REACT_STATUS;
	default:
		if (!ftl_tui_folds_command(&gc->folds, &gc_ops, gc, &node, cmd))
			return FTL_TUI_REACT_NONE;
		gc_rows(gc, node);
		ftl_tui_scroll(&gc->top, gc->cursor, p->page);
		return FTL_TUI_REACT_REDRAW;
	}
}

FtlTuiReaction ftl_tui_graph_compare_search(FtlTuiGraphCompare *gc, FtlTuiPanel *p,
					    FtlTuiApp *app, GRegex *re, int dir)
{
	/* over the rows shown, then the whole tree (unfolding the way) */
	for (gint64 i = gc->cursor + dir; i >= 0 && i < (gint64)gc->rows->len; i += dir)
		if (g_regex_match(re, ((const FtlFlameNode *)gc->rows->pdata[i])->name, 0, NULL)) {
			gc->cursor = i;
			ftl_tui_scroll(&gc->top, gc->cursor, p->page);
			return FTL_TUI_REACT_REDRAW;
		}
	if (gc->diff && dir > 0) {
		g_autoptr(GPtrArray) stack = g_ptr_array_new();
		for (const FtlFlameNode *c = ftl_flame_root(gc->diff)->child; c; c = c->next)
			g_ptr_array_add(stack, (gpointer)c);
		while (stack->len) {
			const FtlFlameNode *m = g_ptr_array_steal_index(stack, stack->len - 1);
			if (g_regex_match(re, m->name, 0, NULL)) {
				for (const FtlFlameNode *a = m->parent;
				     a && a->kind != FTL_FLAME_ROOT; a = a->parent)
					ftl_tui_folds_set(&gc->folds, a, TRUE);
				gc_rows(gc, m);
				ftl_tui_scroll(&gc->top, gc->cursor, p->page);
				return FTL_TUI_REACT_REDRAW;
			}
			for (const FtlFlameNode *c = m->child; c; c = c->next)
				g_ptr_array_add(stack, (gpointer)c);
		}
	}
	ftl_tui_app_say(app, TRUE, "no match");
	return FTL_TUI_REACT_STATUS;
}
