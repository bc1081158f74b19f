/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Folding a tree panel (the Graph, one trace's or A's and B's): which
 * nodes are unfolded, and what the fold keys (Left, Right, Enter, +, -,
 * e, c, E, C, l) do to them and to the cursor. The nodes are any tree's,
 * read through FtlTuiTreeOps, so that every tree panel folds the same. */
#pragma once

#include <glib.h>

#include "views/tui/app.h"

/* A tree's shape as the panel shows it; data is the panel's. */
typedef struct {
	/* the first child shown (where Right goes), NULL when none */
	gconstpointer (*child)(gconstpointer n, gpointer data);
	/* whether c, a child from child(), is the only one shown (+ unfolds
	 * a chain of only children) */
	gboolean (*alone)(gconstpointer c, gpointer data);
	/* the parent: NULL for the tree's root (above the first level shown) */
	gconstpointer (*parent)(gconstpointer n);
	/* the node after n in pre-order below top, shown or not (the whole
	 * subtree folds and unfolds), NULL after the last */
	gconstpointer (*preorder)(gconstpointer top, gconstpointer n);
	/* the child l goes to: the panel's order of importance */
	gconstpointer (*first)(gconstpointer n, gpointer data);
} FtlTuiTreeOps;

/* Unfolded nodes: all_open XOR in toggled, so that E and C are O(1). */
typedef struct {
	gboolean all_open;
	GHashTable *toggled;
} FtlTuiFolds;

void ftl_tui_folds_init(FtlTuiFolds *f);
void ftl_tui_folds_clear(FtlTuiFolds *f);
/* Everything folded (FALSE) or unfolded (TRUE), nothing toggled. */
void ftl_tui_folds_reset(FtlTuiFolds *f, gboolean all_open);
gboolean ftl_tui_folds_open(const FtlTuiFolds *f, gconstpointer n);
void ftl_tui_folds_set(FtlTuiFolds *f, gconstpointer n, gboolean open);
/* A fold key on the cursor's node *cursor (not NULL): TRUE when cmd is one;
 * the cursor may move (to a parent, a child, a node of the first level). */
gboolean ftl_tui_folds_command(FtlTuiFolds *f, const FtlTuiTreeOps *ops, gpointer data,
			       gconstpointer *cursor, FtlTuiCmd cmd);
