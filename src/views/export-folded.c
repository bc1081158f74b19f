/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The folded-stacks export: a walk of the flame tree, one line per path. */
#include "config.h"

#include "views/export-folded.h"

#include "util/escape.h"

static void folded_name(GString *path, const char *name)
{
	gsize from = path->len;
	ftl_escape_append(path, name, -1);
	for (gsize i = from; i < path->len; i++)
		if (path->str[i] == ';')
			path->str[i] = ':';
}

guint64 ftl_export_folded(FtlFlame *f, FILE *out)
{
	FtlFlameNode *root = ftl_flame_root(f);
	g_autoptr(GString) path = g_string_new(NULL);
	g_autoptr(GArray) lens = g_array_new(FALSE, FALSE, sizeof(gsize)); /* path length per depth */
	guint64 lines = 0;
	/* pre-order walk without recursion: a node, then its children, then its siblings */
	const FtlFlameNode *n = root->child;
	while (n) {
		g_array_set_size(lens, n->depth);
		g_string_truncate(path, n->depth > 1 ? g_array_index(lens, gsize, n->depth - 2) : 0);
		if (n->depth > 1)
			g_string_append_c(path, ';');
		folded_name(path, n->name);
		g_array_index(lens, gsize, n->depth - 1) = path->len;
		if (n->self > 0) {
			fprintf(out, "%s %" G_GINT64_FORMAT "\n", path->str, n->self);
			lines++;
		}
		if (n->child) {
			n = n->child;
			continue;
		}
		while (n && !n->next)
			n = n->parent == root ? NULL : n->parent;
		if (n)
			n = n->next;
	}
	return lines;
}
