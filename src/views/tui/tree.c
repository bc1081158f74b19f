/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Helpers the Graph and Flame panels share over the model's call trees. */
#include "config.h"

#include "views/tui/tree.h"

#include <string.h>

const FtlCallNode *ftl_tui_tree_preorder(const FtlCallNode *root, const FtlCallNode *n)
{
	if (n->child)
		return n->child;
	while (n && n != root) {
		if (n->next)
			return n->next;
		n = n->parent;
	}
	return NULL;
}

/* Marks n's ancestors (up to root) and n's subtree. */
static void tree_keep_mark(GHashTable *keep, const FtlCallNode *root, const FtlCallNode *n)
{
	for (const FtlCallNode *a = n; a && a != root && !g_hash_table_contains(keep, a);
	     a = a->parent)
		g_hash_table_add(keep, (gpointer)a);
	for (const FtlCallNode *d = n->child; d; d = ftl_tui_tree_preorder(n, d))
		g_hash_table_add(keep, (gpointer)d);
}

GHashTable *ftl_tui_tree_keep(const FtlCallNode *root, const FtlTuiFilter *f)
{
	if (!root || !f || !ftl_tui_filter_has(f, FTL_TUI_FILTER_FUNC))
		return NULL;
	GHashTable *keep = g_hash_table_new(g_direct_hash, g_direct_equal);
	const FtlCallNode *n = root->child;
	while (n) {
		if (ftl_tui_filter_pass_func(f, n->func)) {
			tree_keep_mark(keep, root, n);
			/* its subtree is in: go on after it */
			while (n && n != root && !n->next)
				n = n->parent;
			n = n && n != root ? n->next : NULL;
		} else {
			n = ftl_tui_tree_preorder(root, n);
		}
	}
	return keep;
}

const FtlCallNode *ftl_tui_tree_child(GHashTable *keep, const FtlCallNode *n)
{
	const FtlCallNode *c = n->child;
	while (c && !ftl_tui_tree_shown(keep, c))
		c = c->next;
	return c;
}

const FtlCallNode *ftl_tui_tree_sibling(GHashTable *keep, const FtlCallNode *n)
{
	const FtlCallNode *c = n->next;
	while (c && !ftl_tui_tree_shown(keep, c))
		c = c->next;
	return c;
}

GPtrArray *ftl_tui_tree_path(const FtlCallNode *n)
{
	GPtrArray *path = g_ptr_array_new();
	for (; n && n->parent; n = n->parent)
		g_ptr_array_insert(path, 0, (gpointer)n->func);
	return path;
}

const FtlCallNode *ftl_tui_tree_find(const FtlCallNode *root, GPtrArray *path)
{
	const FtlCallNode *n = root;
	for (guint i = 0; n && i < path->len; i++) {
		const FtlCallNode *c = n->child;
		while (c && strcmp(c->func, g_ptr_array_index(path, i)))
			c = c->next;
		if (!c)
			break;
		n = c;
	}
	return n;
}

gint64 ftl_tui_tree_total(const FtlCallNode *root)
{
	gint64 t = 0;
	for (const FtlCallNode *c = root ? root->child : NULL; c; c = c->next)
		t += c->total_ns;
	return t;
}
