/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Function statistics over calls from the call tree and function-tracer hits. */
#include "config.h"

#include <math.h>
#include <string.h>

#include "analysis/funcstats.h"
#include "analysis/calltree.h"
#include "analysis/pctl.h"
#define FTL_CALLTREE_FEED_HELPERS
#include "evbuild.h"
#include "unit.h"

#define NONE FTL_TS_NONE

static FtlFuncStats *stats_of(FtlFuncStatsKey key, void (*script)(FtlCallTree *))
{
	FtlFuncStats *s = ftl_funcstats_new(key);
	g_autoptr(FtlCallTree) t = ftl_calltree_new(FTL_CALLTREE_GROUP_NONE, NULL);
	ftl_calltree_add_on_call(t, ftl_funcstats_add_call, s);
	script(t);
	ftl_calltree_finish(t);
	ftl_funcstats_finish(s);
	return s;
}

static void script_total_self(FtlCallTree *t)
{
	/* A(100) { B(30) { C(5) } C(10) } on CPU 0; C(7) on CPU 1 */
	feed(t, evb_entry(0, 0, 1, "A", 0));
	feed(t, evb_entry(10, 0, 1, "B", 1));
	feed_leaf(t, 11, 0, 1, "C", 2, 5);
	feed(t, evb_exit(40, 0, 1, NULL, 1, 30));
	feed_leaf(t, 50, 0, 1, "C", 1, 10);
	feed(t, evb_exit(100, 0, 1, NULL, 0, 100));
	feed_leaf(t, 200, 1, 2, "C", 0, 7);
}

static void test_total_self(void)
{
	g_autoptr(FtlFuncStats) s = stats_of(FTL_FUNCSTATS_BY_FUNC, script_total_self);
	const FtlFuncStat *a = ftl_funcstats_lookup(s, evb_intern("A"));
	const FtlFuncStat *b = ftl_funcstats_lookup(s, evb_intern("B"));
	const FtlFuncStat *c = ftl_funcstats_lookup(s, evb_intern("C"));
	CU_ASSERT_EQUAL_FATAL(ftl_funcstats_n_rows(s), 3);
	CU_ASSERT_EQUAL(a->total_ns, 100);
	CU_ASSERT_EQUAL(a->self_ns, 100 - 30 - 10);
	CU_ASSERT_EQUAL(b->self_ns, 25);
	CU_ASSERT_EQUAL(c->calls, 3);
	CU_ASSERT_EQUAL(c->total_ns, 22);
	CU_ASSERT_EQUAL(c->self_ns, 22);
	CU_ASSERT_EQUAL(c->min_ns, 5);
	CU_ASSERT_EQUAL(c->max_ns, 10);
	CU_ASSERT_EQUAL(c->avg_ns, 7);
	CU_ASSERT_EQUAL(c->p50_ns, 7);
	CU_ASSERT_EQUAL(c->first_ts, 11);
	CU_ASSERT_EQUAL(c->last_ts, 207);
	/* sorting */
	GPtrArray *by_self = ftl_funcstats_sorted(s, FTL_FUNCSTATS_SORT_SELF);
	CU_ASSERT_STRING_EQUAL(((FtlFuncStat *)by_self->pdata[0])->func, "A");
	CU_ASSERT_STRING_EQUAL(((FtlFuncStat *)by_self->pdata[1])->func, "B");
	GPtrArray *by_calls = ftl_funcstats_sorted(s, FTL_FUNCSTATS_SORT_CALLS);
	CU_ASSERT_STRING_EQUAL(((FtlFuncStat *)by_calls->pdata[0])->func, "C");
	GPtrArray *by_name = ftl_funcstats_sorted(s, FTL_FUNCSTATS_SORT_NAME);
	CU_ASSERT_STRING_EQUAL(((FtlFuncStat *)by_name->pdata[2])->func, "C");
	FtlFuncStatsSort k;
	CU_ASSERT(ftl_funcstats_parse_sort("total", &k) && k == FTL_FUNCSTATS_SORT_TOTAL);
	CU_ASSERT(!ftl_funcstats_parse_sort("bogus", &k));
}

static void test_by_cpu_and_task(void)
{
	g_autoptr(FtlFuncStats) s = stats_of(FTL_FUNCSTATS_BY_CPU, script_total_self);
	CU_ASSERT_EQUAL(ftl_funcstats_n_rows(s), 4); /* A@0 B@0 C@0 C@1 */
	GPtrArray *rows = ftl_funcstats_sorted(s, FTL_FUNCSTATS_SORT_NAME);
	const FtlFuncStat *c0 = rows->pdata[2], *c1 = rows->pdata[3];
	CU_ASSERT_EQUAL(c0->cpu, 0);
	CU_ASSERT_EQUAL(c0->total_ns, 15);
	CU_ASSERT_EQUAL(c1->cpu, 1);
	CU_ASSERT_EQUAL(c1->total_ns, 7);
	g_autoptr(FtlFuncStats) p = stats_of(FTL_FUNCSTATS_BY_TASK, script_total_self);
	CU_ASSERT_EQUAL(ftl_funcstats_n_rows(p), 4);
}

static void script_recursion(FtlCallTree *t)
{
	/* A(20) { A(5) } */
	feed(t, evb_entry(NONE, 0, 1, "A", 0));
	feed_leaf(t, NONE, 0, 1, "A", 1, 5);
	feed(t, evb_exit(NONE, 0, 1, NULL, 0, 20));
}

static void test_recursion_not_double_counted(void)
{
	g_autoptr(FtlFuncStats) s = stats_of(FTL_FUNCSTATS_BY_FUNC, script_recursion);
	const FtlFuncStat *a = ftl_funcstats_lookup(s, evb_intern("A"));
	CU_ASSERT_EQUAL(a->calls, 2);
	CU_ASSERT_EQUAL(a->total_ns, 20);
	CU_ASSERT_EQUAL(a->self_ns, 20);
}

static void script_hundred(FtlCallTree *t)
{
	/* durations 1..100 us, shuffled by a fixed stride */
	for (int i = 0; i < 100; i++) {
		gint64 us = (i * 37) % 100 + 1;
		feed_leaf(t, NONE, 0, 1, "F", 0, us * 1000);
	}
}

static void test_percentiles(void)
{
	g_autoptr(FtlFuncStats) s = stats_of(FTL_FUNCSTATS_BY_FUNC, script_hundred);
	const FtlFuncStat *f = ftl_funcstats_lookup(s, evb_intern("F"));
	CU_ASSERT_EQUAL(f->calls, 100);
	CU_ASSERT_EQUAL(f->min_ns, 1000);
	CU_ASSERT_EQUAL(f->max_ns, 100000);
	CU_ASSERT_EQUAL(f->avg_ns, 50500);
	/* nearest-rank: p50 = 50 us, p95 = 95 us, p99 = 99 us, within 1/32 */
	CU_ASSERT(fabs((double)f->p50_ns - 50000) <= 50000 / 32.0);
	CU_ASSERT(fabs((double)f->p95_ns - 95000) <= 95000 / 32.0);
	CU_ASSERT(fabs((double)f->p99_ns - 99000) <= 99000 / 32.0);
	CU_ASSERT(f->p50_ns <= f->p95_ns && f->p95_ns <= f->p99_ns);
}

static void script_thousand(FtlCallTree *t)
{
	/* 1000 calls: past the exact store, so the histogram answers */
	for (int i = 0; i < 1000; i++) {
		gint64 us = (i * 389) % 1000 + 1;
		feed_leaf(t, NONE, 0, 1, "G", 0, us * 1000);
	}
}

static void test_percentiles_histogram(void)
{
	g_autoptr(FtlFuncStats) s = stats_of(FTL_FUNCSTATS_BY_FUNC, script_thousand);
	const FtlFuncStat *f = ftl_funcstats_lookup(s, evb_intern("G"));
	CU_ASSERT_EQUAL(f->calls, 1000);
	CU_ASSERT(fabs((double)f->p50_ns - 500000) <= 500000 / 32.0);
	CU_ASSERT(fabs((double)f->p95_ns - 950000) <= 950000 / 32.0);
	CU_ASSERT(fabs((double)f->p99_ns - 990000) <= 990000 / 32.0);
	CU_ASSERT(f->p99_ns <= f->max_ns && f->p50_ns >= f->min_ns);
}

static void script_widening(FtlCallTree *t)
{
	/* 300 calls of 50 us fill the exact store and start the histogram at
	 * one bucket; then calls far below and far above widen it both ways */
	for (int i = 0; i < 300; i++)
		feed_leaf(t, NONE, 0, 1, "W", 0, 50000);
	for (int i = 0; i < 10; i++) {
		feed_leaf(t, NONE, 0, 1, "W", 0, 5);
		feed_leaf(t, NONE, 0, 1, "W", 0, 2000000000);
	}
	feed_leaf(t, NONE, 0, 1, "W", 0, 1000000);
}

static void test_percentiles_histogram_widens(void)
{
	g_autoptr(FtlFuncStats) s = stats_of(FTL_FUNCSTATS_BY_FUNC, script_widening);
	const FtlFuncStat *f = ftl_funcstats_lookup(s, evb_intern("W"));
	CU_ASSERT_EQUAL(f->calls, 321);
	CU_ASSERT_EQUAL(f->min_ns, 5);
	CU_ASSERT_EQUAL(f->max_ns, 2000000000);
	/* ranks: 10 x 5 ns, 300 x 50 us, 1 x 1 ms, 10 x 2 s */
	CU_ASSERT(fabs((double)f->p50_ns - 50000) <= 50000 / 32.0);
	CU_ASSERT(fabs((double)f->p95_ns - 50000) <= 50000 / 32.0);
	CU_ASSERT(fabs((double)f->p99_ns - 2e9) <= 2e9 / 32.0);
}

static void test_percentiles_exact_small(void)
{
	g_autoptr(FtlFuncStats) s = stats_of(FTL_FUNCSTATS_BY_FUNC, script_hundred);
	const FtlFuncStat *f = ftl_funcstats_lookup(s, evb_intern("F"));
	/* few calls: nearest rank, exactly */
	CU_ASSERT_EQUAL(f->p50_ns, 50000);
	CU_ASSERT_EQUAL(f->p95_ns, 95000);
	CU_ASSERT_EQUAL(f->p99_ns, 99000);
}

static void script_untimed(FtlCallTree *t)
{
	feed(t, evb_entry(NONE, 0, 1, "A", 0));
	feed(t, evb_entry(NONE, 0, 1, "B", 1));
}

static void test_untimed_calls(void)
{
	g_autoptr(FtlFuncStats) s = stats_of(FTL_FUNCSTATS_BY_FUNC, script_untimed);
	const FtlFuncStat *a = ftl_funcstats_lookup(s, evb_intern("A"));
	CU_ASSERT_EQUAL(a->calls, 1);
	CU_ASSERT_EQUAL(a->timed, 0);
	CU_ASSERT_EQUAL(a->flagged, 1);
	CU_ASSERT_EQUAL(a->min_ns, NONE);
	CU_ASSERT_EQUAL(a->p99_ns, NONE);
}

static void test_function_tracer_hits(void)
{
	g_autoptr(FtlFuncStats) s = ftl_funcstats_new(FTL_FUNCSTATS_BY_FUNC);
	FtlEvent ev = evb_base(FTL_EVENT_FUNC, "function", 1, 0, 1);
	ev.u.fn.func = evb_intern("kfree");
	ftl_funcstats_feed(s, &ev);
	ev.u.fn.repeats = 9;
	ftl_funcstats_feed(s, &ev);
	ftl_funcstats_finish(s);
	const FtlFuncStat *k = ftl_funcstats_lookup(s, evb_intern("kfree"));
	CU_ASSERT_EQUAL(k->calls, 11);
	CU_ASSERT_EQUAL(k->timed, 0);
}

/* Adds the same calls to s: a few functions past the exact store (and some
 * hundreds of calls around it), many called once or twice, untimed and
 * flagged calls, on 4 CPUs and 7 tasks; durations over nine decades. */
static void threads_calls(FtlFuncStats *s, guint seed, gboolean hits)
{
	GRand *rand = g_rand_new_with_seed(seed);
	char name[32];
	for (guint i = 0; i < 60000; i++) {
		guint f = g_rand_int_range(rand, 0, 8) ? g_rand_int_range(rand, 0, 12)
						       : g_rand_int_range(rand, 12, 3000);
		g_snprintf(name, sizeof name, "f%u", f);
		FtlCall c = { .func = evb_intern(name),
			      .cpu = g_rand_int_range(rand, 0, 4),
			      .pid = g_rand_int_range(rand, 1, 8),
			      .entry_ts = g_rand_int_range(rand, 0, 5) ? i * 1000 : NONE };
		guint32 kind = g_rand_int_range(rand, 0, 20);
		if (kind == 0) {
			c.duration = c.self = NONE;
			c.flags = FTL_CALL_F_OPEN;
		} else {
			c.duration = (gint64)g_rand_double_range(rand, 1, 1e9);
			c.self = c.duration / 2;
			c.flags = kind == 1 ? FTL_CALL_F_RECURSIVE : kind == 2 ? FTL_CALL_F_ORPHAN : 0;
		}
		ftl_funcstats_add_call(&c, s);
		if (hits && i % 7 == 0) { /* function-tracer hits, on the caller's thread */
			FtlEvent ev = evb_base(FTL_EVENT_FUNC, "function", 1, c.cpu, c.pid);
			ev.u.fn.func = c.func;
			ftl_funcstats_feed(s, &ev);
		}
	}
	g_rand_free(rand);
}

/* What the statistics of one function must say, worked out here from the
 * calls themselves. */
typedef struct {
	guint64 calls, flagged, timed;
	gint64 total, self, min, max, first, last;
	GArray *durations;
} RefRow;

static void ref_row_free(gpointer p)
{
	RefRow *r = p;
	g_array_unref(r->durations);
	g_free(r);
}

static gint ref_cmp(gconstpointer a, gconstpointer b)
{
	gint64 x = *(const gint64 *)a, y = *(const gint64 *)b;
	return (x > y) - (x < y);
}

/* threads_calls()'s calls (without hits), one by one in this test, against
 * the rows the statistics build in batches on one thread and on workers:
 * a call counted in another call's row, or a batch's edge lost, shows in
 * the sums, extremes and exact percentiles. */
static void test_batches_match_reference(void)
{
	g_autoptr(GHashTable) ref =
		g_hash_table_new_full(g_direct_hash, g_direct_equal, NULL, ref_row_free);
	GRand *rand = g_rand_new_with_seed(21);
	char name[32];
	g_autoptr(FtlFuncStats) one = ftl_funcstats_new(FTL_FUNCSTATS_BY_FUNC);
	g_autoptr(FtlFuncStats) par = ftl_funcstats_new(FTL_FUNCSTATS_BY_FUNC);
	ftl_funcstats_set_threads(par, 3);
	for (guint i = 0; i < 50000; i++) {
		guint f = g_rand_int_range(rand, 0, 4) ? g_rand_int_range(rand, 0, 40)
						       : g_rand_int_range(rand, 40, 4000);
		g_snprintf(name, sizeof name, "g%u", f);
		FtlCall c = {
			.func = evb_intern(name), .cpu = 0, .pid = 1, .entry_ts = (gint64)i * 1000
		};
		if (g_rand_int_range(rand, 0, 10) == 0) {
			c.duration = c.self = NONE;
			c.flags = FTL_CALL_F_ORPHAN;
		} else {
			c.duration = g_rand_int_range(rand, 1, 1000000);
			c.self = c.duration / 3;
		}
		ftl_funcstats_add_call(&c, one);
		ftl_funcstats_add_call(&c, par);
		RefRow *r = g_hash_table_lookup(ref, c.func);
		if (!r) {
			r = g_new0(RefRow, 1);
			r->min = r->max = r->first = r->last = NONE;
			r->durations = g_array_new(FALSE, FALSE, sizeof(gint64));
			g_hash_table_insert(ref, (gpointer)c.func, r);
		}
		r->calls++;
		r->flagged += c.flags != 0;
		if (c.duration == NONE)
			continue;
		r->timed++;
		r->total += c.duration;
		r->self += c.self;
		r->min = r->min == NONE ? c.duration : MIN(r->min, c.duration);
		r->max = r->max == NONE ? c.duration : MAX(r->max, c.duration);
		r->first = r->first == NONE ? c.entry_ts : MIN(r->first, c.entry_ts);
		r->last = r->last == NONE ? c.entry_ts + c.duration
					  : MAX(r->last, c.entry_ts + c.duration);
		g_array_append_val(r->durations, c.duration);
	}
	g_rand_free(rand);
	ftl_funcstats_finish(one);
	ftl_funcstats_finish(par);
	FtlFuncStats *both[] = { one, par };
	guint exact = 0;
	for (guint k = 0; k < G_N_ELEMENTS(both); k++) {
		CU_ASSERT_EQUAL_FATAL(ftl_funcstats_n_rows(both[k]), g_hash_table_size(ref));
		GHashTableIter it;
		gpointer key, v;
		g_hash_table_iter_init(&it, ref);
		while (g_hash_table_iter_next(&it, &key, &v)) {
			const RefRow *r = v;
			const FtlFuncStat *st = ftl_funcstats_lookup(both[k], key);
			CU_ASSERT_PTR_NOT_NULL_FATAL(st);
			CU_ASSERT(st->calls == r->calls && st->flagged == r->flagged &&
				  st->timed == r->timed);
			CU_ASSERT(st->total_ns == r->total && st->self_ns == r->self);
			CU_ASSERT(st->min_ns == r->min && st->max_ns == r->max);
			CU_ASSERT(st->first_ts == r->first && st->last_ts == r->last);
			if (r->timed < 2 || r->timed > 256)
				continue;
			g_array_sort(r->durations, ref_cmp);
			const gint64 *d = (const gint64 *)(const void *)r->durations->data;
			CU_ASSERT_EQUAL(st->p50_ns, d[ftl_pctl_rank(r->timed, 50) - 1]);
			CU_ASSERT_EQUAL(st->p95_ns, d[ftl_pctl_rank(r->timed, 95) - 1]);
			exact++;
		}
	}
	CU_ASSERT(exact >= 40);
}

/* Statistics added on worker threads and merged are the ones added in order
 * on one thread, every field and every histogram bucket, in every key; with
 * function-tracer hits (rows of the caller's thread to merge into) and
 * without (the first partial's rows taken as they are). */
static void test_threads_same_results(void)
{
	const FtlFuncStatsKey keys[] = { FTL_FUNCSTATS_BY_FUNC, FTL_FUNCSTATS_BY_CPU,
					 FTL_FUNCSTATS_BY_TASK };
	for (guint k = 0; k < G_N_ELEMENTS(keys); k++) {
		for (guint run = 0; run < 4; run++) {
			guint threads = run % 2 ? 5 : 2;
			gboolean hits = run >= 2;
			g_autoptr(FtlFuncStats) one = ftl_funcstats_new(keys[k]);
			g_autoptr(FtlFuncStats) par = ftl_funcstats_new(keys[k]);
			ftl_funcstats_set_threads(par, threads);
			threads_calls(one, 11 + k, hits);
			threads_calls(par, 11 + k, hits);
			ftl_funcstats_finish(one);
			ftl_funcstats_finish(par);
			GPtrArray *a = ftl_funcstats_sorted(one, FTL_FUNCSTATS_SORT_NAME);
			GPtrArray *b = ftl_funcstats_sorted(par, FTL_FUNCSTATS_SORT_NAME);
			CU_ASSERT_FATAL(a->len > 2000);
			CU_ASSERT_EQUAL_FATAL(a->len, b->len);
			guint past_exact = 0, buckets = 0;
			for (guint i = 0; i < a->len; i++) {
				const FtlFuncStat *x = a->pdata[i], *y = b->pdata[i];
				/* every member, the percentiles included */
				CU_ASSERT_EQUAL(memcmp(x, y, sizeof *x), 0);
				past_exact += x->timed > 256;
				guint pa = 0, pb = 0;
				gint64 la, ha, lb, hb;
				guint64 na, nb;
				gboolean more;
				do {
					more = ftl_funcstats_next_bucket(one, x, &pa, &la, &ha, &na);
					CU_ASSERT_EQUAL(
						more, ftl_funcstats_next_bucket(par, y, &pb, &lb, &hb, &nb));
					if (more) {
						CU_ASSERT(la == lb && ha == hb && na == nb);
						buckets++;
					}
				} while (more);
			}
			CU_ASSERT(past_exact >= 12 && buckets > a->len);
		}
	}
}

/* Two calls of 2^62 + 1 ns each (fuzz-rawdir's raw directory held such
 * durations): their sums saturate at G_MAXINT64, never wrap negative. */
static void script_huge(FtlCallTree *t)
{
	feed_leaf(t, 1, 0, 1, "H", 0, ((gint64)1 << 62) + 1);
	feed_leaf(t, 2, 0, 1, "H", 0, ((gint64)1 << 62) + 1);
	feed_leaf(t, 3, 0, 1, "H", 0, ((gint64)1 << 62) + 1);
}

static void test_huge_durations_saturate(void)
{
	g_autoptr(FtlFuncStats) s = stats_of(FTL_FUNCSTATS_BY_FUNC, script_huge);
	const FtlFuncStat *h = ftl_funcstats_lookup(s, evb_intern("H"));
	CU_ASSERT_PTR_NOT_NULL_FATAL(h);
	CU_ASSERT_EQUAL(h->calls, 3);
	CU_ASSERT_EQUAL(h->total_ns, G_MAXINT64);
	CU_ASSERT_EQUAL(h->self_ns, G_MAXINT64);
	CU_ASSERT(h->last_ts > 0);
}

static const UnitTest tests[] = {
	{ "total_self", test_total_self },
	{ "by_cpu_and_task", test_by_cpu_and_task },
	{ "recursion_not_double_counted", test_recursion_not_double_counted },
	{ "percentiles", test_percentiles },
	{ "percentiles_histogram", test_percentiles_histogram },
	{ "percentiles_histogram_widens", test_percentiles_histogram_widens },
	{ "percentiles_exact_small", test_percentiles_exact_small },
	{ "untimed_calls", test_untimed_calls },
	{ "function_tracer_hits", test_function_tracer_hits },
	{ "threads_same_results", test_threads_same_results },
	{ "batches_match_reference", test_batches_match_reference },
	{ "huge_durations_saturate", test_huge_durations_saturate },
	{ NULL, NULL },
};

int main(void)
{
	return unit_run("funcstats", tests);
}
