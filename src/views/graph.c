/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The merged call graph view. */
#include "views/graph.h"

#include <string.h>

#include "util/color.h"
#include "util/escape.h"
#include "util/timefmt.h"

/* Levels indented two columns each; deeper lines say their level instead,
 * so that a line stays short however deep the tree goes. */
#define GRAPH_INDENT_MAX 40
/* The CSV path column keeps its last frames within this many bytes (a
 * leading "...;" says some were cut): a row stays bounded however deep and
 * long-named its ancestors are. */
#define GRAPH_PATH_MAX 4096

static gboolean graph_show(const FtlCallNode *n, const FtlGraphOptions *opt, gint level)
{
	if (opt->max_depth >= 0 && level > opt->max_depth)
		return FALSE;
	return opt->threshold <= 0 || n->total_ns >= opt->threshold;
}

static void graph_text(const FtlCallNode *n, const FtlGraphOptions *opt, gint level,
		       GString *prefix, FILE *out)
{
	char t[32], s[32];
	for (const FtlCallNode *c = n->child; c; c = c->next) {
		if (!graph_show(c, opt, level))
			continue;
		gboolean timed = c->timed > 0;
		/* repaired paths in the alert colour, else each time by magnitude */
		FtlColorRole total = !timed	 ? FTL_COLOR_NONE
				     : c->flagged ? FTL_COLOR_ALERT
						  : ftl_color_duration_role(c->total_ns);
		FtlColorRole self = timed && !c->flagged ? ftl_color_duration_role(c->self_ns)
							 : total;
		gboolean on = opt->style && opt->style->color;
		fprintf(out, "%s%12s%s %s%12s%s %9" G_GUINT64_FORMAT "%s  %s",
			ftl_color_code(on, total),
			timed ? ftl_duration_format(c->total_ns, t, sizeof t) : "-",
			total ? ftl_color_reset(on) : "", ftl_color_code(on, self),
			timed ? ftl_duration_format(c->self_ns, s, sizeof s) : "-",
			self ? ftl_color_reset(on) : "", c->calls, c->flagged ? "!" : " ",
			prefix->str);
		if (level >= GRAPH_INDENT_MAX)
			fprintf(out, "[%d] ", level);
		ftl_escape_fputs(c->func, out); /* a name from the trace */
		fputc('\n', out);
		gsize len = prefix->len;
		if (level + 1 < GRAPH_INDENT_MAX)
			g_string_append(prefix, "  ");
		graph_text(c, opt, level + 1, prefix, out);
		g_string_truncate(prefix, len);
	}
}

enum { C_PATH, C_DEPTH, C_FUNCTION, C_CALLS, C_TOTAL, C_SELF, C_MIN, C_MAX, C_REPAIRED };
static const FtlColumn graph_cols[] = {
	[C_PATH] = { "path", "path", FTL_COL_STR },
	[C_DEPTH] = { "depth", "depth", FTL_COL_INT },
	[C_FUNCTION] = { "function", "function", FTL_COL_STR },
	[C_CALLS] = { "calls", "calls", FTL_COL_INT },
	[C_TOTAL] = { "total_ns", "total", FTL_COL_NS },
	[C_SELF] = { "self_ns", "self", FTL_COL_NS },
	[C_MIN] = { "min_ns", "min", FTL_COL_NS },
	[C_MAX] = { "max_ns", "max", FTL_COL_NS },
	[C_REPAIRED] = { "repaired", "repaired", FTL_COL_INT, FTL_COL_ALERT },
};

/* Sets the path column: path's last frames that fit in GRAPH_PATH_MAX bytes
 * after "...;" (at least the last frame), or the whole path. */
static void graph_set_path(FtlTable *t, const GString *path)
{
	if (path->len <= GRAPH_PATH_MAX) {
		ftl_table_set_str(t, C_PATH, path->str);
		return;
	}
	const char *cut = strchr(path->str + path->len - GRAPH_PATH_MAX, ';');
	if (!cut)
		cut = strrchr(path->str, ';');
	g_autofree char *tail = g_strconcat("...;", cut ? cut + 1 : path->str, NULL);
	ftl_table_set_str(t, C_PATH, tail);
}

static void graph_rows(const FtlCallNode *n, const FtlGraphOptions *opt, gint level, GString *path,
		       FtlTable *t)
{
	for (const FtlCallNode *c = n->child; c; c = c->next) {
		if (!graph_show(c, opt, level))
			continue;
		gsize len = path->len;
		if (len)
			g_string_append_c(path, ';');
		g_string_append(path, c->func);
		ftl_table_begin_row(t);
		graph_set_path(t, path);
		ftl_table_set_int(t, C_DEPTH, level);
		ftl_table_set_str(t, C_FUNCTION, c->func);
		ftl_table_set_int(t, C_CALLS, (gint64)c->calls);
		if (c->timed) {
			ftl_table_set_int(t, C_TOTAL, c->total_ns);
			ftl_table_set_int(t, C_SELF, c->self_ns);
			if (c->min_ns != FTL_TS_NONE) {
				ftl_table_set_int(t, C_MIN, c->min_ns);
				ftl_table_set_int(t, C_MAX, c->max_ns);
			}
		}
		ftl_table_set_int(t, C_REPAIRED, (gint64)c->flagged);
		graph_rows(c, opt, level + 1, path, t);
		g_string_truncate(path, len);
	}
}

static void graph_json(const FtlCallNode *n, const FtlGraphOptions *opt, gint level, JsonBuilder *b)
{
	json_builder_begin_array(b);
	for (const FtlCallNode *c = n->child; c; c = c->next) {
		if (!graph_show(c, opt, level))
			continue;
		json_builder_begin_object(b);
		json_builder_set_member_name(b, "function");
		ftl_json_add_text(b, c->func);
		json_builder_set_member_name(b, "calls");
		json_builder_add_int_value(b, (gint64)c->calls);
		json_builder_set_member_name(b, "timed_calls");
		json_builder_add_int_value(b, (gint64)c->timed);
		json_builder_set_member_name(b, "repaired");
		json_builder_add_int_value(b, (gint64)c->flagged);
		const char *keys[] = { "total_ns", "self_ns", "min_ns", "max_ns" };
		gint64 vals[] = { c->total_ns, c->self_ns, c->min_ns, c->max_ns };
		for (guint i = 0; i < G_N_ELEMENTS(keys); i++) {
			json_builder_set_member_name(b, keys[i]);
			if (!c->timed || vals[i] == FTL_TS_NONE)
				json_builder_add_null_value(b);
			else
				json_builder_add_int_value(b, vals[i]);
		}
		json_builder_set_member_name(b, "children");
		graph_json(c, opt, level + 1, b);
		json_builder_end_object(b);
	}
	json_builder_end_array(b);
}

void ftl_graph_print(const FtlCallNode *root, const FtlGraphOptions *opt, FtlFormat format,
		     FILE *out)
{
	if (format == FTL_FORMAT_JSON) {
		g_autoptr(JsonBuilder) b = json_builder_new();
		json_builder_begin_object(b);
		json_builder_set_member_name(b, "calls");
		json_builder_add_int_value(b, (gint64)root->calls);
		json_builder_set_member_name(b, "total_ns");
		json_builder_add_int_value(b, root->total_ns);
		if (opt->folded) {
			json_builder_set_member_name(b, "max_nodes");
			json_builder_add_int_value(b, opt->max_nodes);
			json_builder_set_member_name(b, "folded_into_other");
			json_builder_add_int_value(b, (gint64)opt->folded);
		}
		json_builder_set_member_name(b, "graph");
		graph_json(root, opt, 0, b);
		json_builder_end_object(b);
		g_autoptr(JsonNode) node = json_builder_get_root(b);
		ftl_json_print(node, out);
		return;
	}
	if (format == FTL_FORMAT_CSV) {
		g_autoptr(FtlTable) t =
			ftl_table_new("graph", graph_cols, G_N_ELEMENTS(graph_cols));
		g_autoptr(GString) path = g_string_new(NULL);
		graph_rows(root, opt, 0, path, t);
		ftl_table_print_csv(t, out);
		return;
	}
	gboolean on = opt->style && opt->style->color;
	fprintf(out, "%s%12s %12s %9s   %s%s\n", ftl_color_code(on, FTL_COLOR_HEADER), "total",
		"self", "calls", opt->what ? opt->what : "function", ftl_color_reset(on));
	g_autoptr(GString) prefix = g_string_new(NULL);
	graph_text(root, opt, 0, prefix, out);
	fprintf(out,
		"('!': some calls of this path were repaired: orphan exits or calls left open)\n");
	if (opt->folded)
		fprintf(out,
			"([other]: %" G_GUINT64_FORMAT " calls on paths found after the tree held "
			"%u nodes, with what they called; totals exact; see --max-nodes)\n",
			opt->folded, opt->max_nodes);
}
