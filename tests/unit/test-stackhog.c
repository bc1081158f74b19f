/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests of analysis/stackhog.c on tables built here with known answers:
 * the deepest stack, the ranking, the per-function aggregate over tables,
 * recursion, raw addresses, and two stacks compared. */
#include "config.h"

#include <math.h>
#include <string.h>

#include "analysis/stackhog.h"
#include "unit.h"

typedef struct {
	const char *location;
	gint64 size;
} Fr;

/* A table of frames (top first) whose Depths add up from the bottom. */
static FtlStackTable *mk(FtlStackSet *set, const char *file, const Fr *fr, guint n)
{
	FtlStackTable *t = ftl_stack_set_add_table(set, file, 1);
	gint64 depth = 0;
	for (guint i = 0; i < n; i++)
		depth += fr[i].size;
	for (guint i = 0; i < n; i++) {
		ftl_stack_table_add_frame(set, t, i, depth, fr[i].size, fr[i].location,
					  strlen(fr[i].location), 3 + i);
		depth -= fr[i].size;
	}
	t->entries = n;
	return t;
}

static const FtlStackFunc *find(const FtlStackHogs *h, const char *func, guint *rank)
{
	for (guint i = 0; i < ftl_stackhog_n_funcs(h); i++)
		if (!strcmp(ftl_stackhog_func(h, i)->func, func)) {
			if (rank)
				*rank = i;
			return ftl_stackhog_func(h, i);
		}
	return NULL;
}

#define NEAR(a, b) (fabs((a) - (b)) < 1e-9)

static void test_single_table(void)
{
	g_autoptr(FtlStackSet) set = ftl_stack_set_new();
	const Fr fr[] = { { "top+0x5/0x20", 48 },
			  { "load_balance+0x19b/0xe50", 304 },
			  { "do_syscall_64+0x5d/0x90", 344 },
			  { "entry_SYSCALL_64+0x6e/0xd8", 176 } };
	const FtlStackTable *t = mk(set, "stack_trace", fr, G_N_ELEMENTS(fr));
	g_autoptr(FtlStackHogs) h = ftl_stackhog_new(&t, 1);
	CU_ASSERT_PTR_EQUAL(ftl_stackhog_deepest(h), t);
	CU_ASSERT_EQUAL(ftl_stack_table_depth(t), 872);
	CU_ASSERT_EQUAL(ftl_stackhog_n_tables(h), 1);
	CU_ASSERT_EQUAL(ftl_stackhog_n_empty(h), 0);
	CU_ASSERT_EQUAL_FATAL(ftl_stackhog_n_funcs(h), 4);
	const char *order[] = { "do_syscall_64", "load_balance", "entry_SYSCALL_64", "top" };
	for (guint i = 0; i < 4; i++)
		CU_ASSERT_STRING_EQUAL(ftl_stackhog_func(h, i)->func, order[i]);
	const FtlStackFunc *f = ftl_stackhog_func(h, 0);
	CU_ASSERT_EQUAL(f->max_size, 344);
	CU_ASSERT_TRUE(NEAR(f->mean_size, 344));
	CU_ASSERT_EQUAL(f->tables, 1);
	CU_ASSERT_TRUE(NEAR(f->table_share, 1.0));
	CU_ASSERT_EQUAL(f->deepest_bytes, 344);
	CU_ASSERT_TRUE(NEAR(f->deepest_share, 344.0 / 872));
	CU_ASSERT_PTR_EQUAL(f->max_table, t);
	CU_ASSERT_EQUAL(f->max_frame->index, 2);
	CU_ASSERT_EQUAL(f->max_frame->line, 5);
}

static void test_many_tables(void)
{
	g_autoptr(FtlStackSet) set = ftl_stack_set_new();
	const Fr f1[] = { { "a+0x1/0x2", 100 },
			  { "b+0x1/0x2", 500 },
			  { "c+0x1/0x2", 300 },
			  { "d+0x1/0x2", 100 } };
	const Fr f2[] = { { "a+0x9/0x9", 300 },
			  { "b+0x1/0x2", 500 },
			  { "e+0x1/0x2", 300 },
			  { "d+0x1/0x2", 100 } };
	const Fr f4[] = { { "b+0x1/0x2", 200 }, { "c+0x1/0x2", 300 }, { "d+0x1/0x2", 100 } };
	const FtlStackTable *tables[4];
	tables[0] = mk(set, "t1", f1, G_N_ELEMENTS(f1));
	tables[1] = mk(set, "t2", f2, G_N_ELEMENTS(f2));
	tables[2] = ftl_stack_set_add_table(set, "empty", 1);
	tables[3] = mk(set, "t4", f4, G_N_ELEMENTS(f4));
	g_autoptr(FtlStackHogs) h = ftl_stackhog_new(tables, 4);
	CU_ASSERT_PTR_EQUAL(ftl_stackhog_deepest(h), tables[1]);
	CU_ASSERT_EQUAL(ftl_stackhog_n_tables(h), 3);
	CU_ASSERT_EQUAL(ftl_stackhog_n_empty(h), 1);
	CU_ASSERT_EQUAL(ftl_stackhog_min_depth(h), 600);
	CU_ASSERT_TRUE(NEAR(ftl_stackhog_mean_depth(h), (1000 + 1200 + 600) / 3.0));
	CU_ASSERT_EQUAL_FATAL(ftl_stackhog_n_funcs(h), 5);
	/* by largest frame; equal ones by bytes in the deepest stack, then name */
	const char *order[] = { "b", "a", "e", "c", "d" };
	for (guint i = 0; i < 5; i++)
		CU_ASSERT_STRING_EQUAL(ftl_stackhog_func(h, i)->func, order[i]);
	const FtlStackFunc *a = find(h, "a", NULL), *b = find(h, "b", NULL),
			   *c = find(h, "c", NULL), *d = find(h, "d", NULL),
			   *e = find(h, "e", NULL);
	CU_ASSERT_EQUAL(a->max_size, 300);
	CU_ASSERT_TRUE(NEAR(a->mean_size, 200));
	CU_ASSERT_EQUAL(a->frames, 2);
	CU_ASSERT_EQUAL(a->tables, 2);
	CU_ASSERT_TRUE(NEAR(a->table_share, 2.0 / 3));
	CU_ASSERT_EQUAL(a->deepest_bytes, 300);
	CU_ASSERT_TRUE(NEAR(a->deepest_share, 0.25));
	CU_ASSERT_PTR_EQUAL(a->max_table, tables[1]);
	CU_ASSERT_TRUE(NEAR(b->mean_size, 400));
	CU_ASSERT_EQUAL(b->tables, 3);
	CU_ASSERT_TRUE(NEAR(b->table_share, 1.0));
	CU_ASSERT_PTR_EQUAL(b->max_table, tables[0]); /* the first of the largest */
	CU_ASSERT_EQUAL(c->deepest_bytes, 0);
	CU_ASSERT_TRUE(NEAR(c->deepest_share, 0));
	CU_ASSERT_EQUAL(c->tables, 2);
	CU_ASSERT_EQUAL(d->frames, 3);
	CU_ASSERT_TRUE(NEAR(d->deepest_share, 100.0 / 1200));
	CU_ASSERT_EQUAL(e->tables, 1);
	CU_ASSERT_TRUE(NEAR(e->table_share, 1.0 / 3));
}

static void test_recursion(void)
{
	g_autoptr(FtlStackSet) set = ftl_stack_set_new();
	const Fr fr[] = { { "f+0x10/0x40", 100 }, { "g+0x1/0x2", 200 }, { "f+0x20/0x40", 200 } };
	const FtlStackTable *t = mk(set, "t", fr, G_N_ELEMENTS(fr));
	g_autoptr(FtlStackHogs) h = ftl_stackhog_new(&t, 1);
	CU_ASSERT_EQUAL_FATAL(ftl_stackhog_n_funcs(h), 2);
	const FtlStackFunc *f = find(h, "f", NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	CU_ASSERT_EQUAL(f->frames, 2);
	CU_ASSERT_EQUAL(f->tables, 1);
	CU_ASSERT_EQUAL(f->max_size, 200);
	CU_ASSERT_TRUE(NEAR(f->mean_size, 150));
	CU_ASSERT_EQUAL(f->deepest_bytes, 300);
	CU_ASSERT_TRUE(NEAR(f->deepest_share, 0.6));
	CU_ASSERT_EQUAL(f->max_frame->index, 2);
}

static void test_raw_addresses(void)
{
	g_autoptr(FtlStackSet) set = ftl_stack_set_new();
	const Fr f1[] = { { "0xc00000000f16b100", 400 }, { "x+0x1/0x2", 100 } };
	const Fr f2[] = { { "0xc0000000334bbb50", 16 }, { "x+0x1/0x2", 100 } };
	const FtlStackTable *tables[2] = { mk(set, "a", f1, 2), mk(set, "b", f2, 2) };
	g_autoptr(FtlStackHogs) h = ftl_stackhog_new(tables, 2);
	CU_ASSERT_EQUAL(ftl_stackhog_n_funcs(h), 3);
	const FtlStackFunc *r1 = find(h, "0xc00000000f16b100", NULL),
			   *r2 = find(h, "0xc0000000334bbb50", NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(r1);
	CU_ASSERT_PTR_NOT_NULL_FATAL(r2);
	CU_ASSERT_TRUE(r1->raw);
	CU_ASSERT_TRUE(r2->raw);
	CU_ASSERT_EQUAL(r1->tables, 1);
	CU_ASSERT_EQUAL(find(h, "x", NULL)->tables, 2);
	CU_ASSERT_FALSE(find(h, "x", NULL)->raw);
}

static void test_no_frames(void)
{
	g_autoptr(FtlStackSet) set = ftl_stack_set_new();
	const FtlStackTable *t = ftl_stack_set_add_table(set, "off", 1);
	g_autoptr(FtlStackHogs) h = ftl_stackhog_new(&t, 1);
	CU_ASSERT_PTR_NULL(ftl_stackhog_deepest(h));
	CU_ASSERT_EQUAL(ftl_stackhog_n_funcs(h), 0);
	CU_ASSERT_EQUAL(ftl_stackhog_n_empty(h), 1);
	g_autoptr(FtlStackHogs) none = ftl_stackhog_new(NULL, 0);
	CU_ASSERT_PTR_NULL(ftl_stackhog_deepest(none));
	CU_ASSERT_EQUAL(ftl_stackhog_n_tables(none), 0);
}

static void test_diff(void)
{
	g_autoptr(FtlStackSet) set = ftl_stack_set_new();
	const Fr fa[] = { { "a+0x1/0x2", 50 },
			  { "b+0x1/0x2", 450 },
			  { "c+0x1/0x2", 300 },
			  { "0xc00000000f16b100", 200 } };
	const Fr fb[] = { { "b+0x5/0x9", 600 }, { "c+0x1/0x2", 100 }, { "s+0x1/0x2", 400 } };
	const FtlStackTable *a = mk(set, "A", fa, G_N_ELEMENTS(fa));
	const FtlStackTable *b = mk(set, "B", fb, G_N_ELEMENTS(fb));
	g_autoptr(FtlStackDiff) d = ftl_stackdiff_new(a, b);
	CU_ASSERT_EQUAL_FATAL(ftl_stackdiff_n_rows(d), 5);
	CU_ASSERT_EQUAL(ftl_stackdiff_n_only_a(d), 2);
	CU_ASSERT_EQUAL(ftl_stackdiff_n_only_b(d), 1);
	CU_ASSERT_EQUAL(ftl_stackdiff_n_changed(d), 2);
	/* by absolute change of bytes, then name */
	const char *order[] = { "s", "0xc00000000f16b100", "c", "b", "a" };
	for (guint i = 0; i < 5; i++)
		CU_ASSERT_STRING_EQUAL(ftl_stackdiff_row(d, i)->func, order[i]);
	const FtlStackDiffRow *s = ftl_stackdiff_row(d, 0), *raw = ftl_stackdiff_row(d, 1),
			      *c = ftl_stackdiff_row(d, 2), *rb = ftl_stackdiff_row(d, 3);
	CU_ASSERT_EQUAL(s->size_a, -1);
	CU_ASSERT_EQUAL(s->depth_a, -1);
	CU_ASSERT_EQUAL(s->size_b, 400);
	CU_ASSERT_EQUAL(s->depth_b, 400);
	CU_ASSERT_TRUE(raw->raw);
	CU_ASSERT_EQUAL(raw->size_b, -1);
	CU_ASSERT_EQUAL(c->size_a, 300);
	CU_ASSERT_EQUAL(c->size_b, 100);
	CU_ASSERT_EQUAL(c->depth_a, 500);
	CU_ASSERT_EQUAL(c->depth_b, 500);
	CU_ASSERT_EQUAL(rb->size_a, 450);
	CU_ASSERT_EQUAL(rb->size_b, 600);
	CU_ASSERT_EQUAL(rb->depth_a, 950);
	CU_ASSERT_EQUAL(rb->depth_b, 1100);
}

static void test_diff_recursion(void)
{
	/* a recursive function's bytes add up; its depth is the top frame's */
	g_autoptr(FtlStackSet) set = ftl_stack_set_new();
	const Fr fa[] = { { "f+0x1/0x2", 100 }, { "g+0x1/0x2", 50 }, { "f+0x3/0x4", 70 } };
	const Fr fb[] = { { "f+0x1/0x2", 100 }, { "g+0x1/0x2", 50 } };
	const FtlStackTable *a = mk(set, "A", fa, 3), *b = mk(set, "B", fb, 2);
	g_autoptr(FtlStackDiff) d = ftl_stackdiff_new(a, b);
	CU_ASSERT_EQUAL_FATAL(ftl_stackdiff_n_rows(d), 2);
	const FtlStackDiffRow *f = ftl_stackdiff_row(d, 0);
	CU_ASSERT_STRING_EQUAL(f->func, "f");
	CU_ASSERT_EQUAL(f->size_a, 170);
	CU_ASSERT_EQUAL(f->size_b, 100);
	CU_ASSERT_EQUAL(f->depth_a, 220);
	CU_ASSERT_EQUAL(f->depth_b, 150);
	CU_ASSERT_EQUAL(ftl_stackdiff_n_changed(d), 1);
	g_autoptr(FtlStackDiff) same = ftl_stackdiff_new(a, a);
	CU_ASSERT_EQUAL(ftl_stackdiff_n_changed(same), 0);
	CU_ASSERT_EQUAL(ftl_stackdiff_n_only_a(same) + ftl_stackdiff_n_only_b(same), 0);
}

int main(void)
{
	static const UnitTest tests[] = {
		{ "one table", test_single_table },
		{ "many tables", test_many_tables },
		{ "recursion", test_recursion },
		{ "raw addresses", test_raw_addresses },
		{ "no frames", test_no_frames },
		{ "diff", test_diff },
		{ "diff with recursion", test_diff_recursion },
		{ NULL, NULL },
	};
	return unit_run("stackhog", tests);
}
