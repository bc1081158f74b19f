/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"

#include "views/tui/folds.h"

void ftl_tui_folds_init(FtlTuiFolds *f)
{
	f->all_open = FALSE;
	f->toggled = g_hash_table_new(g_direct_hash, g_direct_equal);
}

void ftl_tui_folds_clear(FtlTuiFolds *f)
{
	g_clear_pointer(&f->toggled, g_hash_table_unref);
}

void ftl_tui_folds_reset(FtlTuiFolds *f, gboolean all_open)
{
	f->all_open = all_open;
	g_hash_table_remove_all(f->toggled);
}

gboolean ftl_tui_folds_open(const FtlTuiFolds *f, gconstpointer n)
{
	return f->all_open != g_hash_table_contains(f->toggled, n);
}

void ftl_tui_folds_set(FtlTuiFolds *f, gconstpointer n, gboolean open)
{
	if (open == f->all_open)
		g_hash_table_remove(f->toggled, n);
	else
		g_hash_table_add(f->toggled, (gpointer)n);
}

/* Unfolds n, and a chain of single children below it (perf's habit). */
static void folds_expand(FtlTuiFolds *f, const FtlTuiTreeOps *ops, gpointer data, gconstpointer n)
{
	while (n) {
		ftl_tui_folds_set(f, n, TRUE);
		gconstpointer c = ops->child(n, data);
		n = c && ops->alone(c, data) ? c : NULL;
	}
}

static void folds_set_subtree(FtlTuiFolds *f, const FtlTuiTreeOps *ops, gconstpointer n,
			      gboolean open)
{
	ftl_tui_folds_set(f, n, open);
	for (gconstpointer d = ops->preorder(n, n); d; d = ops->preorder(n, d))
		ftl_tui_folds_set(f, d, open);
}

/* Whether n is on the first level shown (its parent is the root). */
static gboolean folds_top(const FtlTuiTreeOps *ops, gconstpointer n)
{
	gconstpointer p = ops->parent(n);
	return !p || !ops->parent(p);
}

gboolean ftl_tui_folds_command(FtlTuiFolds *f, const FtlTuiTreeOps *ops, gpointer data,
			       gconstpointer *cursor, FtlTuiCmd cmd)
{
	gconstpointer n = *cursor;
	gboolean kids = ops->child(n, data) != NULL, open = kids && ftl_tui_folds_open(f, n);
	switch (cmd) {
	case FTL_TUI_CMD_ACTIVATE:
		if (open)
			ftl_tui_folds_set(f, n, FALSE);
		else
			folds_expand(f, ops, data, n);
		break;
	case FTL_TUI_CMD_EXPAND:
		folds_expand(f, ops, data, n);
		break;
	case FTL_TUI_CMD_RIGHT:
		if (open)
			*cursor = ops->child(n, data);
		else
			folds_expand(f, ops, data, n);
		break;
	case FTL_TUI_CMD_COLLAPSE:
	case FTL_TUI_CMD_LEFT:
		if (open)
			ftl_tui_folds_set(f, n, FALSE);
		else if (!folds_top(ops, n))
			*cursor = ops->parent(n);
		break;
	case FTL_TUI_CMD_EXPAND_SUBTREE:
	case FTL_TUI_CMD_COLLAPSE_SUBTREE:
		folds_set_subtree(f, ops, n, cmd == FTL_TUI_CMD_EXPAND_SUBTREE);
		break;
	case FTL_TUI_CMD_LONGEST:
		if (kids) {
			ftl_tui_folds_set(f, n, TRUE);
			*cursor = ops->first(n, data);
		}
		break;
	case FTL_TUI_CMD_EXPAND_ALL:
	case FTL_TUI_CMD_COLLAPSE_ALL:
		ftl_tui_folds_reset(f, cmd == FTL_TUI_CMD_EXPAND_ALL);
		/* folded, the cursor goes up to the node of the first level */
		while (!f->all_open && !folds_top(ops, *cursor))
			*cursor = ops->parent(*cursor);
		break;
	default:
		return FALSE;
	}
	return TRUE;
}
