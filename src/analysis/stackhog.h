/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Stack hogs: from one or many stack tracer tables, the deepest stack, the
 * functions ranked by the stack frame they take, how often each sits on a
 * recorded maximum stack and its share of the deepest one; and the
 * difference between the deepest stacks of two inputs. Functions are
 * compared by name (location without +off/len); a raw address is its own
 * entry. Results borrow the tables' strings: keep the tables alive. */
#pragma once

#include <glib.h>

#include "model/stack.h"

typedef struct {
	const char *func;
	gboolean raw;			/* an address the kernel could not name */
	gint64 max_size;		/* largest frame it took */
	double mean_size;		/* mean over all its frames */
	guint frames;			/* frames it took, in all tables */
	guint tables;			/* tables with at least one frame of it */
	double table_share;		/* tables / tables with frames, 0..1 */
	gint64 deepest_bytes;		/* its bytes in the deepest stack (0 when absent) */
	double deepest_share;		/* deepest_bytes / the deepest stack's depth, 0..1 */
	const FtlStackTable *max_table; /* where its largest frame is */
	const FtlStackFrame *max_frame;
} FtlStackFunc;

typedef struct _FtlStackHogs FtlStackHogs;

/* Analyses tables[0..n); tables without frames are counted, not used.
 * Free with ftl_stackhog_free(). */
FtlStackHogs *ftl_stackhog_new(const FtlStackTable *const *tables, guint n);
void ftl_stackhog_free(FtlStackHogs *h);
/* The table with the largest top Depth (the first of equals), NULL when no
 * table has frames. */
const FtlStackTable *ftl_stackhog_deepest(const FtlStackHogs *h);
/* Tables with frames, and tables without. */
guint ftl_stackhog_n_tables(const FtlStackHogs *h);
guint ftl_stackhog_n_empty(const FtlStackHogs *h);
/* Top Depth over the tables with frames: least, mean, largest (0 without). */
gint64 ftl_stackhog_min_depth(const FtlStackHogs *h);
double ftl_stackhog_mean_depth(const FtlStackHogs *h);
/* Functions ranked by largest frame, then bytes in the deepest stack, then
 * name. Borrowed; i < ftl_stackhog_n_funcs(). */
guint ftl_stackhog_n_funcs(const FtlStackHogs *h);
const FtlStackFunc *ftl_stackhog_func(const FtlStackHogs *h, guint i);

G_DEFINE_AUTOPTR_CLEANUP_FUNC(FtlStackHogs, ftl_stackhog_free)

typedef struct {
	const char *func;
	gboolean raw;
	gint64 size_a, size_b;	 /* its bytes in A's and B's stack, -1 when absent */
	gint64 depth_a, depth_b; /* Depth of its top frame in each, -1 when absent */
} FtlStackDiffRow;

typedef struct _FtlStackDiff FtlStackDiff;

/* Compares stack a with stack b (typically the deepest of each input).
 * Free with ftl_stackdiff_free(). */
FtlStackDiff *ftl_stackdiff_new(const FtlStackTable *a, const FtlStackTable *b);
void ftl_stackdiff_free(FtlStackDiff *d);
/* Rows ordered by the absolute change of size (a side without the function
 * counts 0), then by name. */
guint ftl_stackdiff_n_rows(const FtlStackDiff *d);
const FtlStackDiffRow *ftl_stackdiff_row(const FtlStackDiff *d, guint i);
/* Rows only in A, only in B, in both with a different size. */
guint ftl_stackdiff_n_only_a(const FtlStackDiff *d);
guint ftl_stackdiff_n_only_b(const FtlStackDiff *d);
guint ftl_stackdiff_n_changed(const FtlStackDiff *d);

G_DEFINE_AUTOPTR_CLEANUP_FUNC(FtlStackDiff, ftl_stackdiff_free)
