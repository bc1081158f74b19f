/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The one percentile definition (analysis/pctl.h): its rank, exact up to 256
 * values, within 1/64 beyond, and the same answer from the function
 * statistics and from FtlHisto (the sched, markers, plot and TUI one). */
#include "config.h"

#include <math.h>

#include "analysis/funcstats.h"
#include "analysis/histo.h"
#include "analysis/pctl.h"
#include "evbuild.h"
#include "unit.h"

static void test_rank(void)
{
	CU_ASSERT_EQUAL(ftl_pctl_rank(0, 50), 0);
	CU_ASSERT_EQUAL(ftl_pctl_rank(1, 50), 1);
	CU_ASSERT_EQUAL(ftl_pctl_rank(1, 99), 1);
	CU_ASSERT_EQUAL(ftl_pctl_rank(3, 50), 2);
	/* 0.95 * 20 is 19.000000000000004 in doubles: the rank is 19 */
	CU_ASSERT_EQUAL(ftl_pctl_rank(20, 95), 19);
	CU_ASSERT_EQUAL(ftl_pctl_rank(100, 99), 99);
	CU_ASSERT_EQUAL(ftl_pctl_rank(101, 99), 100);
	CU_ASSERT_EQUAL(ftl_pctl_rank(200, 100), 200);
	CU_ASSERT_EQUAL(ftl_pctl_rank(G_MAXUINT64, 100), G_MAXUINT64);
	CU_ASSERT_EQUAL(ftl_pctl_rank(G_MAXUINT64, 50), G_MAXUINT64 / 2 + 1);
}

static gint i64_cmp(gconstpointer a, gconstpointer b)
{
	gint64 x = *(const gint64 *)a, y = *(const gint64 *)b;
	return (x > y) - (x < y);
}

/* n values from seed, spread over 0 .. 10 s on a log scale (some 0, some
 * repeated), as durations are. */
static GArray *values(guint n, guint32 seed)
{
	GArray *a = g_array_sized_new(FALSE, FALSE, sizeof(gint64), n);
	g_autoptr(GRand) r = g_rand_new_with_seed(seed);
	for (guint i = 0; i < n; i++) {
		gint64 v = (gint64)pow(10, g_rand_double_range(r, 0, 10));
		if (g_rand_int_range(r, 0, 20) == 0)
			v = g_rand_int_range(r, 0, 70);
		if (i && g_rand_int_range(r, 0, 10) == 0)
			v = g_array_index(a, gint64, i - 1);
		g_array_append_val(a, v);
	}
	return a;
}

static const guint sizes[] = { 1, 2, 3, 20, 99, 255, 256, 257, 258, 300, 1000, 50000 };
static const guint pcts[] = { 50, 95, 99 };

/* Exact up to 256 values, within 1/64 beyond; the extremes always exact. */
static void test_definition(void)
{
	for (guint k = 0; k < G_N_ELEMENTS(sizes); k++) {
		guint n = sizes[k];
		g_autoptr(GArray) v = values(n, 1000 + n);
		g_autoptr(FtlHisto) h = ftl_histo_new();
		for (guint i = 0; i < n; i++)
			ftl_histo_add(h, g_array_index(v, gint64, i));
		g_array_sort(v, i64_cmp);
		for (guint p = 1; p <= 100; p++) {
			gint64 exact = g_array_index(v, gint64, (n * p + 99) / 100 - 1);
			gint64 got = ftl_histo_percentile(h, p);
			if (n <= FTL_PCTL_EXACT_MAX || p == 100 || (n * p + 99) / 100 == 1) {
				CU_ASSERT_EQUAL(got, exact);
			} else {
				CU_ASSERT(fabs((double)(got - exact)) <= (double)exact / 64);
			}
		}
	}
}

/* The same values give the same p50/p95/p99 from the function statistics
 * (report, the Functions panel) and from an FtlHisto (the TUI's histogram,
 * plot durations, markers --span, sched), on one thread or several. */
static void test_funcstats_is_histo(void)
{
	const char *fn = evb_intern("f");
	for (guint threads = 1; threads <= 3; threads += 2) {
		for (guint k = 0; k < G_N_ELEMENTS(sizes); k++) {
			guint n = sizes[k];
			g_autoptr(GArray) v = values(n, 7 + n);
			g_autoptr(FtlHisto) h = ftl_histo_new();
			g_autoptr(FtlFuncStats) s = ftl_funcstats_new(FTL_FUNCSTATS_BY_FUNC);
			ftl_funcstats_set_threads(s, threads);
			for (guint i = 0; i < n; i++) {
				gint64 d = g_array_index(v, gint64, i);
				FtlCall c = { .func = fn, .cpu = 0, .pid = 1, .entry_ts = 1000 * i,
					      .duration = d, .self = d };
				ftl_funcstats_add_call(&c, s);
				ftl_histo_add(h, d);
			}
			ftl_funcstats_finish(s);
			const FtlFuncStat *st = ftl_funcstats_lookup(s, fn);
			CU_ASSERT_PTR_NOT_NULL_FATAL(st);
			const gint64 got[] = { st->p50_ns, st->p95_ns, st->p99_ns };
			for (guint j = 0; j < G_N_ELEMENTS(pcts); j++)
				CU_ASSERT_EQUAL(got[j], ftl_histo_percentile(h, pcts[j]));
			/* and the buckets the JSON exports carry */
			guint pa = 0, pb = 0;
			gint64 la, ha, lb, hb;
			guint64 na, nb;
			gboolean more;
			do {
				more = ftl_funcstats_next_bucket(s, st, &pa, &la, &ha, &na);
				CU_ASSERT_EQUAL(more, ftl_histo_next_bucket(h, &pb, &lb, &hb, &nb));
				if (more) {
					CU_ASSERT(la == lb && ha == hb && na == nb);
				}
			} while (more);
		}
	}
}

/* A histogram merged from parts (a class's or a key's histograms added
 * up) answers as one fed every value. */
static void test_histo_merge(void)
{
	for (guint k = 0; k < G_N_ELEMENTS(sizes); k++) {
		guint n = sizes[k];
		g_autoptr(GArray) v = values(n, 99 + n);
		g_autoptr(FtlHisto) all = ftl_histo_new();
		g_autoptr(FtlHisto) a = ftl_histo_new();
		g_autoptr(FtlHisto) b = ftl_histo_new();
		for (guint i = 0; i < n; i++) {
			gint64 d = g_array_index(v, gint64, i);
			ftl_histo_add(all, d);
			ftl_histo_add(i % 3 ? a : b, d);
		}
		ftl_histo_merge(a, b);
		CU_ASSERT_EQUAL(ftl_histo_count(a), n);
		for (guint p = 1; p <= 100; p++)
			CU_ASSERT_EQUAL(ftl_histo_percentile(a, p), ftl_histo_percentile(all, p));
		guint pa = 0, pb = 0;
		gint64 va, vb;
		guint64 na, nb;
		gboolean more;
		do {
			more = ftl_histo_next_value(a, &pa, &va, &na);
			CU_ASSERT_EQUAL(more, ftl_histo_next_value(all, &pb, &vb, &nb));
			if (more) {
				CU_ASSERT(va == vb && na == nb);
			}
		} while (more);
	}
}

/* A bucket past 2^32 values (a function called five billion times with
 * one duration): merged stores count it whole, percentiles and the
 * buckets' counts see every value. */
static void test_bucket_past_32_bits(void)
{
	FtlPctlStore a = { 0 }, b = { 0 };
	guint64 na = 0, nb = 0;
	/* 300 values of 1000 ns, one of 5 ns: a histogram */
	for (guint i = 0; i < 301; i++)
		ftl_pctl_store_add(&a, ++na, 5, 1000, i ? 1000 : 5);
	/* doubling: a = a + a (through b) until past 2^32 */
	while (na <= G_MAXUINT32) {
		ftl_pctl_store_clear(&b, nb);
		nb = 0;
		ftl_pctl_store_merge(&b, nb, 0, &a, na, 5);
		nb = na;
		ftl_pctl_store_merge(&a, na, 5, &b, nb, 5);
		na += nb;
	}
	guint pos = 0;
	gint64 lo, hi;
	guint64 n, sum = 0, big = 0;
	while (ftl_pctl_store_next_bucket(&a, na, 5, &pos, &lo, &hi, &n)) {
		sum += n;
		if (lo <= 1000 && 1000 < hi)
			big = n;
	}
	CU_ASSERT_EQUAL(sum, na);
	CU_ASSERT(big > G_MAXUINT32);
	CU_ASSERT_EQUAL(big, na - na / 301);
	/* the 1st percentile: the 5 ns values are under 1% */
	CU_ASSERT(ftl_pctl_store_value(&a, na, 5, 1000, 1) >= 992);
	ftl_pctl_store_clear(&a, na);
	ftl_pctl_store_clear(&b, nb);
}

static const UnitTest tests[] = {
	{ "rank", test_rank },
	{ "definition", test_definition },
	{ "funcstats_is_histo", test_funcstats_is_histo },
	{ "histo_merge", test_histo_merge },
	{ "bucket_past_32_bits", test_bucket_past_32_bits },
	{ NULL, NULL },
};

int main(void)
{
	return unit_run("pctl", tests);
}
