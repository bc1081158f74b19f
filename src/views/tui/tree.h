/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What the tree panels (Graph, Flame) share about call trees: which nodes
 * the function filter keeps, a node's path (to find it again in a new
 * model), a tree's total time. */
#pragma once

#include <glib.h>

#include "analysis/calltree.h"
#include "views/tui/filter.h"

/* The nodes to show under f's function items: a matching node, its
 * ancestors and its whole subtree. NULL when f has no function item (all
 * are shown). g_hash_table_unref(). */
GHashTable *ftl_tui_tree_keep(const FtlCallNode *root, const FtlTuiFilter *f);
/* Whether node shows under keep (NULL keeps all). */
static inline gboolean ftl_tui_tree_shown(GHashTable *keep, const FtlCallNode *n)
{
	return !keep || g_hash_table_contains(keep, n);
}
/* The first shown child, the next shown sibling. */
const FtlCallNode *ftl_tui_tree_child(GHashTable *keep, const FtlCallNode *n);
const FtlCallNode *ftl_tui_tree_sibling(GHashTable *keep, const FtlCallNode *n);
/* The names from the root's child down to n (interned pointers, compared
 * as strings in another tree). g_ptr_array_unref(). */
GPtrArray *ftl_tui_tree_path(const FtlCallNode *n);
/* The node at path in the tree under root, or the deepest one found. */
const FtlCallNode *ftl_tui_tree_find(const FtlCallNode *root, GPtrArray *path);
/* The time of everything under root (its children's total). */
gint64 ftl_tui_tree_total(const FtlCallNode *root);
/* The next node after n in pre-order over the whole tree (folded or not),
 * NULL after the last. */
const FtlCallNode *ftl_tui_tree_preorder(const FtlCallNode *root, const FtlCallNode *n);
