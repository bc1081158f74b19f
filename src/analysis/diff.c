/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The comparison behind `ftlens diff`: per-function rows of two traces. */
#include "config.h"

#include "analysis/diff.h"

#include <stdlib.h>
#include <string.h>

struct _FtlDiff {
	FtlDiffKey key;
	GArray *rows; /* FtlDiffRow */
};

gint64 ftl_diff_metric(const FtlFuncStat *s, gboolean self)
{
	if (!s)
		return 0;
	return self ? s->self_ns : s->total_ns;
}

static gint diff_cmp(gconstpointer x, gconstpointer y)
{
	const FtlDiffRow *p = x, *q = y;
	if (p->key != q->key)
		return p->key > q->key ? -1 : 1;
	return strcmp(p->func, q->func);
}

static FtlDiffRow *diff_row(GHashTable *rows, const char *func)
{
	FtlDiffRow *r = g_hash_table_lookup(rows, func);
	if (!r) {
		r = g_new0(FtlDiffRow, 1);
		r->func = func;
		g_hash_table_insert(rows, (gpointer)r->func, r);
	}
	return r;
}

FtlDiff *ftl_diff_new(FtlFuncStats *a, FtlFuncStats *b, FtlDiffKey key)
{
	/* joined by text: the two traces have separate string pools */
	g_autoptr(GHashTable) rows = g_hash_table_new_full(g_str_hash, g_str_equal, NULL, g_free);
	GPtrArray *fa = ftl_funcstats_sorted(a, FTL_FUNCSTATS_SORT_NAME);
	for (guint i = 0; i < fa->len; i++) {
		const FtlFuncStat *s = fa->pdata[i];
		diff_row(rows, s->func)->a = s;
	}
	GPtrArray *fb = ftl_funcstats_sorted(b, FTL_FUNCSTATS_SORT_NAME);
	for (guint i = 0; i < fb->len; i++) {
		const FtlFuncStat *s = fb->pdata[i];
		diff_row(rows, s->func)->b = s;
	}
	FtlDiff *d = g_new0(FtlDiff, 1);
	d->key = key;
	d->rows = g_array_sized_new(FALSE, FALSE, sizeof(FtlDiffRow), g_hash_table_size(rows));
	GHashTableIter it;
	gpointer v;
	g_hash_table_iter_init(&it, rows);
	while (g_hash_table_iter_next(&it, NULL, &v)) {
		FtlDiffRow r = *(FtlDiffRow *)v;
		if (key == FTL_DIFF_BY_CALLS)
			r.key = llabs((gint64)(r.b ? r.b->calls : 0) -
				      (gint64)(r.a ? r.a->calls : 0));
		else
			r.key = llabs(ftl_diff_metric(r.b, key == FTL_DIFF_BY_SELF) -
				      ftl_diff_metric(r.a, key == FTL_DIFF_BY_SELF));
		g_array_append_val(d->rows, r);
	}
	g_array_sort(d->rows, diff_cmp);
	return d;
}

void ftl_diff_free(FtlDiff *d)
{
	if (!d)
		return;
	g_array_unref(d->rows);
	g_free(d);
}

guint ftl_diff_n_rows(const FtlDiff *d)
{
	return d->rows->len;
}

const FtlDiffRow *ftl_diff_row(const FtlDiff *d, guint i)
{
	return &g_array_index(d->rows, FtlDiffRow, i);
}

FtlDiffKey ftl_diff_key(const FtlDiff *d)
{
	return d->key;
}

gboolean ftl_diff_parse_key(const char *text, FtlDiffKey *out)
{
	static const char *const names[] = { "total", "self", "calls" };
	for (guint i = 0; i < G_N_ELEMENTS(names); i++)
		if (!g_strcmp0(text, names[i])) {
			*out = (FtlDiffKey)i;
			return TRUE;
		}
	return FALSE;
}

gboolean ftl_diff_change_pct(gint64 a, gint64 b, double *pct)
{
	if (a == 0)
		return FALSE;
	*pct = 100.0 * (double)(b - a) / (double)a;
	return TRUE;
}
