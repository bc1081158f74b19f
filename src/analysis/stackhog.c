/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Stack hogs ranked over stack tracer tables, and two stacks compared. */
#include "analysis/stackhog.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
	FtlStackFunc f;
	gint64 sum;	  /* of its frame sizes */
	guint last_table; /* 1 + index of the last table counted in f.tables */
} HogRow;

struct _FtlStackHogs {
	const FtlStackTable *deepest;
	guint n_tables, n_empty;
	gint64 min_depth;
	double mean_depth;
	GArray *funcs; /* FtlStackFunc, ranked */
};

static gint stackhog_cmp(gconstpointer x, gconstpointer y)
{
	const FtlStackFunc *a = x, *b = y;
	if (a->max_size != b->max_size)
		return a->max_size > b->max_size ? -1 : 1;
	if (a->deepest_bytes != b->deepest_bytes)
		return a->deepest_bytes > b->deepest_bytes ? -1 : 1;
	return strcmp(a->func, b->func);
}

FtlStackHogs *ftl_stackhog_new(const FtlStackTable *const *tables, guint n)
{
	FtlStackHogs *h = g_new0(FtlStackHogs, 1);
	h->funcs = g_array_new(FALSE, FALSE, sizeof(FtlStackFunc));
	/* names from different inputs live in different pools: key by text */
	g_autoptr(GHashTable) rows = g_hash_table_new_full(g_str_hash, g_str_equal, NULL, g_free);
	g_autoptr(GPtrArray) order = g_ptr_array_new();
	gint64 depth_sum = 0;
	for (guint i = 0; i < n; i++) {
		const FtlStackTable *t = tables[i];
		guint nf = ftl_stack_table_n_frames(t);
		if (!nf) {
			h->n_empty++;
			continue;
		}
		gint64 depth = ftl_stack_table_depth(t);
		if (!h->deepest || depth > ftl_stack_table_depth(h->deepest))
			h->deepest = t;
		if (!h->n_tables || depth < h->min_depth)
			h->min_depth = depth;
		depth_sum += depth;
		h->n_tables++;
		for (guint k = 0; k < nf; k++) {
			const FtlStackFrame *fr = ftl_stack_table_frame(t, k);
			HogRow *r = g_hash_table_lookup(rows, fr->func);
			if (!r) {
				r = g_new0(HogRow, 1);
				r->f.func = fr->func;
				r->f.raw = fr->raw;
				r->f.max_size = G_MININT64;
				g_hash_table_insert(rows, (gpointer)fr->func, r);
				g_ptr_array_add(order, r);
			}
			r->f.frames++;
			r->sum += fr->size;
			if (fr->size > r->f.max_size) {
				r->f.max_size = fr->size;
				r->f.max_table = t;
				r->f.max_frame = fr;
			}
			if (r->last_table != i + 1) {
				r->last_table = i + 1;
				r->f.tables++;
			}
		}
	}
	if (h->n_tables)
		h->mean_depth = (double)depth_sum / h->n_tables;
	gint64 deep = h->deepest ? ftl_stack_table_depth(h->deepest) : 0;
	if (h->deepest)
		for (guint k = 0; k < ftl_stack_table_n_frames(h->deepest); k++) {
			const FtlStackFrame *fr = ftl_stack_table_frame(h->deepest, k);
			HogRow *r = g_hash_table_lookup(rows, fr->func);
			r->f.deepest_bytes += fr->size;
		}
	for (guint i = 0; i < order->len; i++) {
		HogRow *r = order->pdata[i];
		r->f.mean_size = (double)r->sum / r->f.frames;
		r->f.table_share = (double)r->f.tables / h->n_tables;
		r->f.deepest_share = deep > 0 ? (double)r->f.deepest_bytes / deep : 0;
		g_array_append_val(h->funcs, r->f);
	}
	g_array_sort(h->funcs, stackhog_cmp);
	return h;
}

void ftl_stackhog_free(FtlStackHogs *h)
{
	if (!h)
		return;
	g_array_unref(h->funcs);
	g_free(h);
}

const FtlStackTable *ftl_stackhog_deepest(const FtlStackHogs *h)
{
	return h->deepest;
}

guint ftl_stackhog_n_tables(const FtlStackHogs *h)
{
	return h->n_tables;
}

guint ftl_stackhog_n_empty(const FtlStackHogs *h)
{
	return h->n_empty;
}

gint64 ftl_stackhog_min_depth(const FtlStackHogs *h)
{
	return h->min_depth;
}

double ftl_stackhog_mean_depth(const FtlStackHogs *h)
{
	return h->mean_depth;
}

guint ftl_stackhog_n_funcs(const FtlStackHogs *h)
{
	return h->funcs->len;
}

const FtlStackFunc *ftl_stackhog_func(const FtlStackHogs *h, guint i)
{
	g_return_val_if_fail(i < h->funcs->len, NULL);
	return &g_array_index(h->funcs, FtlStackFunc, i);
}

/* ---- two stacks compared ------------------------------------------------ */

struct _FtlStackDiff {
	GArray *rows; /* FtlStackDiffRow */
	guint only_a, only_b, changed;
};

static gint64 stackdiff_change(const FtlStackDiffRow *r)
{
	return llabs(MAX(r->size_b, 0) - MAX(r->size_a, 0));
}

static gint stackdiff_cmp(gconstpointer x, gconstpointer y)
{
	const FtlStackDiffRow *a = x, *b = y;
	gint64 ca = stackdiff_change(a), cb = stackdiff_change(b);
	if (ca != cb)
		return ca > cb ? -1 : 1;
	return strcmp(a->func, b->func);
}

/* Adds t's frames to side b (or a) of the rows keyed by function name. */
static void stackdiff_side(GHashTable *rows, GArray *order, const FtlStackTable *t, gboolean b)
{
	for (guint k = 0; k < ftl_stack_table_n_frames(t); k++) {
		const FtlStackFrame *fr = ftl_stack_table_frame(t, k);
		gpointer idx;
		FtlStackDiffRow *r;
		if (g_hash_table_lookup_extended(rows, fr->func, NULL, &idx)) {
			r = &g_array_index(order, FtlStackDiffRow, GPOINTER_TO_UINT(idx));
		} else {
			FtlStackDiffRow nr = { fr->func, fr->raw, -1, -1, -1, -1 };
			g_hash_table_insert(rows, (gpointer)fr->func, GUINT_TO_POINTER(order->len));
			g_array_append_val(order, nr);
			r = &g_array_index(order, FtlStackDiffRow, order->len - 1);
		}
		gint64 *size = b ? &r->size_b : &r->size_a;
		gint64 *depth = b ? &r->depth_b : &r->depth_a;
		/* a recursive function's bytes add up; its depth is its top frame's */
		*size = MAX(*size, 0) + fr->size;
		if (*depth < 0)
			*depth = fr->depth;
	}
}

FtlStackDiff *ftl_stackdiff_new(const FtlStackTable *a, const FtlStackTable *b)
{
	FtlStackDiff *d = g_new0(FtlStackDiff, 1);
	d->rows = g_array_new(FALSE, FALSE, sizeof(FtlStackDiffRow));
	g_autoptr(GHashTable) rows = g_hash_table_new(g_str_hash, g_str_equal);
	stackdiff_side(rows, d->rows, a, FALSE);
	stackdiff_side(rows, d->rows, b, TRUE);
	for (guint i = 0; i < d->rows->len; i++) {
		const FtlStackDiffRow *r = &g_array_index(d->rows, FtlStackDiffRow, i);
		if (r->size_b < 0)
			d->only_a++;
		else if (r->size_a < 0)
			d->only_b++;
		else if (r->size_a != r->size_b)
			d->changed++;
	}
	g_array_sort(d->rows, stackdiff_cmp);
	return d;
}

void ftl_stackdiff_free(FtlStackDiff *d)
{
	if (!d)
		return;
	g_array_unref(d->rows);
	g_free(d);
}

guint ftl_stackdiff_n_rows(const FtlStackDiff *d)
{
	return d->rows->len;
}

const FtlStackDiffRow *ftl_stackdiff_row(const FtlStackDiff *d, guint i)
{
	g_return_val_if_fail(i < d->rows->len, NULL);
	return &g_array_index(d->rows, FtlStackDiffRow, i);
}

guint ftl_stackdiff_n_only_a(const FtlStackDiff *d)
{
	return d->only_a;
}

guint ftl_stackdiff_n_only_b(const FtlStackDiff *d)
{
	return d->only_b;
}

guint ftl_stackdiff_n_changed(const FtlStackDiff *d)
{
	return d->changed;
}
