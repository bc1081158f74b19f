/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Function statistics summed by the source file or directory that defines
 * each function, from the kernel's debug info. */
#include "views/source.h"

#include <string.h>

#include "util/checked.h"

typedef struct {
	const char *file; /* NULL: unknown */
	guint line;
	const char *group;
} SourceAnswer;

struct _FtlSourceMap {
	FtlDebugInfo *dbg;
	FtlSourceBy by;
	GStringChunk *strings;
	GHashTable *answers; /* func (interned by the trace) -> SourceAnswer* */
};

gboolean ftl_source_by_parse(const char *text, FtlSourceBy *by)
{
	if (!g_strcmp0(text, "file"))
		*by = FTL_SOURCE_BY_FILE;
	else if (!g_strcmp0(text, "dir"))
		*by = FTL_SOURCE_BY_DIR;
	else
		return FALSE;
	return TRUE;
}

const char *ftl_source_by_name(FtlSourceBy by)
{
	return by == FTL_SOURCE_BY_DIR ? "dir" : "file";
}

FtlSourceMap *ftl_source_map_new(FtlDebugInfo *dbg, FtlSourceBy by)
{
	FtlSourceMap *m = g_new0(FtlSourceMap, 1);
	m->dbg = dbg;
	m->by = by;
	m->strings = g_string_chunk_new(4096);
	m->answers = g_hash_table_new_full(g_str_hash, g_str_equal, NULL, g_free);
	return m;
}

void ftl_source_map_free(FtlSourceMap *m)
{
	if (!m)
		return;
	g_hash_table_destroy(m->answers);
	g_string_chunk_free(m->strings);
	g_free(m);
}

FtlSourceBy ftl_source_map_by(const FtlSourceMap *m)
{
	return m->by;
}

static const SourceAnswer *source_answer(FtlSourceMap *m, const char *func)
{
	SourceAnswer *a = g_hash_table_lookup(m->answers, func);
	if (a)
		return a;
	a = g_new0(SourceAnswer, 1);
	const char *file = NULL;
	guint line = 0;
	if (ftl_debuginfo_definition(m->dbg, func, &file, &line) && file) {
		a->file = g_string_chunk_insert_const(m->strings,
						      ftl_debuginfo_short_path(m->dbg, file));
		a->line = line;
		if (m->by == FTL_SOURCE_BY_FILE) {
			a->group = a->file;
		} else {
			/* "fs/ext4/inode.c" -> "fs/ext4/"; a file without a
			 * directory is its own group */
			const char *slash = strrchr(a->file, '/');
			a->group = slash ? g_string_chunk_insert_len(m->strings, a->file,
								     slash + 1 - a->file)
					 : a->file;
		}
	} else {
		a->group = FTL_SOURCE_UNKNOWN;
	}
	char *key = g_string_chunk_insert_const(m->strings, func);
	g_hash_table_insert(m->answers, key, a);
	return a;
}

gboolean ftl_source_map_where(FtlSourceMap *m, const char *func, const char **file, guint *line)
{
	const SourceAnswer *a = source_answer(m, func);
	if (!a->file)
		return FALSE;
	*file = a->file;
	*line = a->line;
	return TRUE;
}

const char *ftl_source_map_group(FtlSourceMap *m, const char *func)
{
	return source_answer(m, func)->group;
}

typedef struct {
	const char *group;
	guint64 functions, calls, timed;
	gint64 self_ns, total_ns, max_ns;
} SourceRow;

static gint source_cmp(gconstpointer pa, gconstpointer pb, gpointer by_calls)
{
	const SourceRow *a = *(SourceRow *const *)pa, *b = *(SourceRow *const *)pb;
	if (!by_calls && a->self_ns != b->self_ns)
		return a->self_ns > b->self_ns ? -1 : 1;
	if (a->calls != b->calls)
		return a->calls > b->calls ? -1 : 1;
	return strcmp(a->group, b->group);
}

enum { SC_GROUP, SC_FUNCTIONS, SC_CALLS, SC_TIMED, SC_SELF, SC_TOTAL, SC_MAX };

static const FtlColumn source_cols[] = {
	[SC_GROUP] = { "source", "source", FTL_COL_STR, FTL_COL_KEEP_START },
	[SC_FUNCTIONS] = { "functions", "functions", FTL_COL_INT },
	[SC_CALLS] = { "calls", "calls", FTL_COL_INT },
	[SC_TIMED] = { "timed_calls", "timed", FTL_COL_INT, FTL_COL_HIDE_TEXT },
	[SC_SELF] = { "self_ns", "self", FTL_COL_NS },
	[SC_TOTAL] = { "total_ns", "total", FTL_COL_NS },
	[SC_MAX] = { "max_ns", "max", FTL_COL_NS },
};

FtlTable *ftl_source_table(FtlSourceMap *m, FtlFuncStats *funcs, const char *name)
{
	g_autoptr(GHashTable) groups = g_hash_table_new_full(g_str_hash, g_str_equal, NULL, g_free);
	GPtrArray *rows = ftl_funcstats_sorted(funcs, FTL_FUNCSTATS_SORT_NAME);
	gboolean timed = FALSE;
	for (guint i = 0; i < rows->len; i++) {
		const FtlFuncStat *st = rows->pdata[i];
		const char *g = ftl_source_map_group(m, st->func);
		SourceRow *r = g_hash_table_lookup(groups, g);
		if (!r) {
			r = g_new0(SourceRow, 1);
			r->group = g;
			g_hash_table_insert(groups, (gpointer)g, r);
		}
		/* a row per function, or per (function, cpu|task) with --per */
		if (i == 0 || strcmp(st->func, ((const FtlFuncStat *)rows->pdata[i - 1])->func))
			r->functions++;
		r->calls = ftl_sat_add_u64(r->calls, st->calls);
		r->timed = ftl_sat_add_u64(r->timed, st->timed);
		if (st->timed) {
			timed = TRUE;
			r->self_ns = ftl_sat_add_i64(r->self_ns, st->self_ns);
			r->total_ns = ftl_sat_add_i64(r->total_ns, st->total_ns);
			r->max_ns = MAX(r->max_ns, st->max_ns);
		}
	}
	g_autoptr(GPtrArray) sorted = g_ptr_array_sized_new(g_hash_table_size(groups));
	GHashTableIter it;
	gpointer v;
	g_hash_table_iter_init(&it, groups);
	while (g_hash_table_iter_next(&it, NULL, &v))
		g_ptr_array_add(sorted, v);
	g_ptr_array_sort_with_data(sorted, source_cmp, GINT_TO_POINTER(!timed));
	FtlTable *t = ftl_table_new(name, source_cols, G_N_ELEMENTS(source_cols));
	ftl_table_set_title(t, SC_GROUP, ftl_source_by_name(m->by));
	if (!timed) {
		ftl_table_omit(t, SC_SELF);
		ftl_table_omit(t, SC_TOTAL);
		ftl_table_omit(t, SC_MAX);
	}
	for (guint i = 0; i < sorted->len; i++) {
		const SourceRow *r = sorted->pdata[i];
		ftl_table_begin_row(t);
		ftl_table_set_str(t, SC_GROUP, r->group);
		ftl_table_set_int(t, SC_FUNCTIONS, ftl_sat_count_i64(r->functions));
		ftl_table_set_int(t, SC_CALLS, ftl_sat_count_i64(r->calls));
		ftl_table_set_int(t, SC_TIMED, ftl_sat_count_i64(r->timed));
		if (timed) {
			ftl_table_set_int(t, SC_SELF, r->self_ns);
			ftl_table_set_int(t, SC_TOTAL, r->total_ns);
			ftl_table_set_int(t, SC_MAX, r->max_ns);
		}
	}
	return t;
}

struct _FtlSourceGraph {
	GPtrArray *nodes; /* FtlCallNode*, owned; [0] the root */
};

/* parent's child named name, made when absent */
static FtlCallNode *source_graph_child(FtlSourceGraph *g, FtlCallNode *parent, const char *name)
{
	for (FtlCallNode *c = parent->child; c; c = c->next)
		if (!strcmp(c->func, name))
			return c;
	FtlCallNode *c = g_new0(FtlCallNode, 1);
	c->func = name;
	c->parent = parent;
	c->depth = parent->depth + 1;
	c->min_ns = FTL_TS_NONE;
	if (parent->last_child)
		parent->last_child->next = c;
	else
		parent->child = c;
	parent->last_child = c;
	parent->n_kids++;
	g_ptr_array_add(g->nodes, c);
	return c;
}

/* what a call of from adds to to: its entries, or only its self time */
static void source_graph_add(FtlCallNode *to, const FtlCallNode *from, gboolean entries)
{
	to->flagged = ftl_sat_add_u64(to->flagged, from->flagged);
	if (from->timed)
		to->self_ns = ftl_sat_add_i64(to->self_ns, from->self_ns);
	if (!entries)
		return;
	to->calls = ftl_sat_add_u64(to->calls, from->calls);
	to->span_ns = ftl_sat_add_i64(to->span_ns, from->span_ns);
	to->timed = ftl_sat_add_u64(to->timed, from->timed);
	if (!from->timed)
		return;
	to->total_ns = ftl_sat_add_i64(to->total_ns, from->total_ns);
	if (from->min_ns != FTL_TS_NONE) {
		to->min_ns = to->min_ns == FTL_TS_NONE ? from->min_ns : MIN(to->min_ns, from->min_ns);
		to->max_ns = MAX(to->max_ns, from->max_ns);
	}
}

static gint source_graph_cmp(gconstpointer pa, gconstpointer pb)
{
	const FtlCallNode *a = *(FtlCallNode *const *)pa, *b = *(FtlCallNode *const *)pb;
	if (a->total_ns != b->total_ns)
		return a->total_ns > b->total_ns ? -1 : 1;
	return strcmp(a->func, b->func);
}

/* every node's children by total, then name */
static void source_graph_sort(FtlSourceGraph *g)
{
	g_autoptr(GPtrArray) kids = g_ptr_array_new();
	for (guint i = 0; i < g->nodes->len; i++) {
		FtlCallNode *n = g->nodes->pdata[i];
		g_ptr_array_set_size(kids, 0);
		for (FtlCallNode *c = n->child; c; c = c->next)
			g_ptr_array_add(kids, c);
		g_ptr_array_sort(kids, source_graph_cmp);
		n->child = n->last_child = NULL;
		for (guint k = kids->len; k-- > 0;) {
			FtlCallNode *c = kids->pdata[k];
			c->next = n->child;
			n->child = c;
		}
	}
}

typedef struct {
	const FtlCallNode *from;
	FtlCallNode *to;
} SourceGraphStep;

FtlSourceGraph *ftl_source_graph_new(FtlSourceMap *m, const FtlCallNode *root, gboolean groups)
{
	FtlSourceGraph *g = g_new0(FtlSourceGraph, 1);
	g->nodes = g_ptr_array_new_with_free_func(g_free);
	FtlCallNode *top = g_new0(FtlCallNode, 1);
	*top = (FtlCallNode){ .func = root->func, .calls = root->calls, .span_ns = root->span_ns,
			      .timed = root->timed, .flagged = root->flagged,
			      .total_ns = root->total_ns, .self_ns = root->self_ns,
			      .min_ns = root->min_ns, .max_ns = root->max_ns };
	g_ptr_array_add(g->nodes, top);
	/* depth first without recursion: the tree's depth comes from the input */
	g_autoptr(GArray) todo = g_array_new(FALSE, FALSE, sizeof(SourceGraphStep));
	SourceGraphStep s = { root, top };
	g_array_append_val(todo, s);
	while (todo->len) {
		s = g_array_index(todo, SourceGraphStep, todo->len - 1);
		g_array_set_size(todo, todo->len - 1);
		for (const FtlCallNode *c = s.from->child; c; c = c->next) {
			const char *name = c->func;
			if (!(groups && s.from == root) && name[0] != '[')
				name = ftl_source_map_group(m, c->func);
			FtlCallNode *to = s.to;
			gboolean entries = s.to == top || strcmp(s.to->func, name) != 0;
			if (entries)
				to = source_graph_child(g, s.to, name);
			source_graph_add(to, c, entries);
			SourceGraphStep next = { c, to };
			g_array_append_val(todo, next);
		}
	}
	source_graph_sort(g);
	return g;
}

const FtlCallNode *ftl_source_graph_root(const FtlSourceGraph *g)
{
	return g->nodes->pdata[0];
}

void ftl_source_graph_free(FtlSourceGraph *g)
{
	if (!g)
		return;
	g_ptr_array_unref(g->nodes);
	g_free(g);
}
