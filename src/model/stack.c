/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Stack tracer tables and their own list of located inconsistencies. */
#include "model/stack.h"

#include <string.h>

struct _FtlStackSet {
	FtlStrPool *pool;
	GPtrArray *tables;    /* FtlStackTable* */
	GPtrArray *max_sizes; /* FtlStackMaxSize* */
	GArray *diags;	      /* FtlStackDiag */
};

static void stack_table_free(gpointer p)
{
	FtlStackTable *t = p;
	g_array_unref(t->frames);
	g_free(t);
}

FtlStackSet *ftl_stack_set_new(void)
{
	FtlStackSet *set = g_new0(FtlStackSet, 1);
	set->pool = ftl_strpool_new();
	set->tables = g_ptr_array_new_with_free_func(stack_table_free);
	set->max_sizes = g_ptr_array_new_with_free_func(g_free);
	set->diags = g_array_new(FALSE, FALSE, sizeof(FtlStackDiag));
	return set;
}

void ftl_stack_set_free(FtlStackSet *set)
{
	if (!set)
		return;
	for (guint i = 0; i < set->diags->len; i++)
		g_free(g_array_index(set->diags, FtlStackDiag, i).message);
	g_array_unref(set->diags);
	g_ptr_array_unref(set->max_sizes);
	g_ptr_array_unref(set->tables);
	ftl_strpool_free(set->pool);
	g_free(set);
}

FtlStrPool *ftl_stack_set_pool(FtlStackSet *set)
{
	return set->pool;
}

FtlStackTable *ftl_stack_set_add_table(FtlStackSet *set, const char *file, guint64 line)
{
	FtlStackTable *t = g_new0(FtlStackTable, 1);
	t->file = ftl_strpool_intern(set->pool, file);
	t->line = line;
	t->entries = -1;
	t->snapshot = -1;
	t->time_ns = FTL_TS_NONE;
	t->max_size = -1;
	t->frames = g_array_new(FALSE, FALSE, sizeof(FtlStackFrame));
	g_ptr_array_add(set->tables, t);
	return t;
}

static gboolean stack_is_address(const char *p, const char *e)
{
	if (e - p < 3 || p[0] != '0' || p[1] != 'x')
		return FALSE;
	for (p += 2; p < e; p++)
		if (!g_ascii_isxdigit(*p))
			return FALSE;
	return TRUE;
}

void ftl_stack_table_add_frame(FtlStackSet *set, FtlStackTable *t, guint index, gint64 depth,
			       gint64 size, const char *location, gsize location_len, guint64 line)
{
	FtlStackFrame f = { 0 };
	const char *p = location, *e = location + location_len;
	f.index = index;
	f.depth = depth;
	f.size = size;
	f.line = line;
	f.location = ftl_strpool_intern_len(set->pool, p, location_len);
	/* %pS prints "sym+off/len", "sym+off/len [module]" (a build id may
	 * follow the module name), or the bare address when no symbol covers it. */
	const char *sym_end = p;
	while (sym_end < e && *sym_end != '+' && *sym_end != ' ' && *sym_end != '\t')
		sym_end++;
	f.raw = stack_is_address(p, sym_end);
	f.func = ftl_strpool_intern_len(set->pool, p, (gsize)(sym_end - p));
	const char *open = memchr(sym_end, '[', (gsize)(e - sym_end));
	if (open) {
		const char *m = open + 1, *me = m;
		while (me < e && *me != ']' && *me != ' ' && *me != '\t')
			me++;
		if (me > m)
			f.module = ftl_strpool_intern_len(set->pool, m, (gsize)(me - m));
	}
	g_array_append_val(t->frames, f);
}

gint64 ftl_stack_table_depth(const FtlStackTable *t)
{
	return t->frames->len ? g_array_index(t->frames, FtlStackFrame, 0).depth : 0;
}

const FtlStackFrame *ftl_stack_table_frame(const FtlStackTable *t, guint i)
{
	g_return_val_if_fail(i < t->frames->len, NULL);
	return &g_array_index(t->frames, FtlStackFrame, i);
}

guint ftl_stack_table_n_frames(const FtlStackTable *t)
{
	return t->frames->len;
}

guint ftl_stack_set_n_tables(const FtlStackSet *set)
{
	return set->tables->len;
}

FtlStackTable *ftl_stack_set_table(const FtlStackSet *set, guint i)
{
	g_return_val_if_fail(i < set->tables->len, NULL);
	return g_ptr_array_index(set->tables, i);
}

FtlStackMaxSize *ftl_stack_set_add_max_size(FtlStackSet *set, const char *file, guint64 line,
					    gint64 value)
{
	FtlStackMaxSize *m = g_new0(FtlStackMaxSize, 1);
	m->file = ftl_strpool_intern(set->pool, file);
	m->line = line;
	m->value = value;
	g_ptr_array_add(set->max_sizes, m);
	return m;
}

guint ftl_stack_set_n_max_sizes(const FtlStackSet *set)
{
	return set->max_sizes->len;
}

FtlStackMaxSize *ftl_stack_set_max_size(const FtlStackSet *set, guint i)
{
	g_return_val_if_fail(i < set->max_sizes->len, NULL);
	return g_ptr_array_index(set->max_sizes, i);
}

void ftl_stack_set_add_diag(FtlStackSet *set, FtlStackDiagKind kind, const char *file, guint64 line,
			    const char *format, ...)
{
	va_list ap;
	va_start(ap, format);
	FtlStackDiag d = { kind, ftl_strpool_intern(set->pool, file), line,
			   g_strdup_vprintf(format, ap) };
	va_end(ap);
	g_array_append_val(set->diags, d);
}

guint ftl_stack_set_n_diags(const FtlStackSet *set)
{
	return set->diags->len;
}

const FtlStackDiag *ftl_stack_set_diag(const FtlStackSet *set, guint i)
{
	g_return_val_if_fail(i < set->diags->len, NULL);
	return &g_array_index(set->diags, FtlStackDiag, i);
}

const char *ftl_stack_diag_kind_name(FtlStackDiagKind kind)
{
	switch (kind) {
	case FTL_STACK_DIAG_SIZE:
		return "size";
	case FTL_STACK_DIAG_ENTRIES:
		return "entries";
	case FTL_STACK_DIAG_INDEX:
		return "index";
	case FTL_STACK_DIAG_MAX_SIZE:
		return "max_size";
	case FTL_STACK_DIAG_SERIES:
		return "series";
	}
	return "?";
}
