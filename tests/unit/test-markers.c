/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests of analysis/markers.c: marker order and deltas, spans with
 * backreferences, unmatched ends, per-CPU self time, wall-clock markers. */
#include "config.h"

#include <string.h>

#include "analysis/markers.h"
#include "evbuild.h"
#include "unit.h"
#include "util/error.h"

static FtlSpans *spans_run(const char *start, const char *end, const FtlEvent *evs, guint n)
{
	g_autoptr(GError) error = NULL;
	FtlSpans *s = ftl_spans_new(start, end, &error);
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	for (guint i = 0; i < n; i++)
		ftl_spans_feed(s, &evs[i]);
	ftl_spans_finish(s);
	return s;
}

static void test_markers_order_deltas(void)
{
	FtlEvent evs[] = {
		evb_marker(1000, 0, 10, "first"),
		evb_switch(1500, 0, "a", 10, "b", 11),
		evb_marker(3000, 1, 11, "second"),
		evb_marker(3500, 0, 12, "third\x01"),
	};
	evs[0].comm = evb_intern("writer");
	g_autoptr(FtlMarkers) m = ftl_markers_new();
	for (guint i = 0; i < G_N_ELEMENTS(evs); i++)
		ftl_markers_feed(m, &evs[i]);
	ftl_markers_finish(m);
	CU_ASSERT_EQUAL_FATAL(ftl_markers_count(m), 3);
	const FtlMarker *a = ftl_markers_get(m, 0), *b = ftl_markers_get(m, 1),
			*c = ftl_markers_get(m, 2);
	CU_ASSERT_STRING_EQUAL(a->text, "first");
	CU_ASSERT_STRING_EQUAL(a->comm, "writer");
	CU_ASSERT_EQUAL(a->delta, FTL_TS_NONE);
	CU_ASSERT_EQUAL(a->ts, 1000);
	CU_ASSERT_EQUAL(b->delta, 2000);
	CU_ASSERT_EQUAL(b->cpu, 1);
	CU_ASSERT_EQUAL(b->pid, 11);
	CU_ASSERT_EQUAL(c->delta, 500);
	/* the analysis keeps the bytes; views make them visible */
	CU_ASSERT_STRING_EQUAL(c->text, "third\x01");
	CU_ASSERT_EQUAL(c->origin, FTL_MARKER_TRACE_MARKER);
	CU_ASSERT_EQUAL(c->line, evs[3].line);
}

static void test_markers_untimed(void)
{
	FtlEvent evs[] = {
		evb_marker(FTL_TS_NONE, 0, -1, "a"),
		evb_marker(FTL_TS_NONE, 0, -1, "b"),
	};
	g_autoptr(FtlMarkers) m = ftl_markers_new();
	for (guint i = 0; i < G_N_ELEMENTS(evs); i++)
		ftl_markers_feed(m, &evs[i]);
	ftl_markers_finish(m);
	CU_ASSERT_EQUAL_FATAL(ftl_markers_count(m), 2);
	/* no times: no delta, rather than a delta of 0 */
	CU_ASSERT_EQUAL(ftl_markers_get(m, 1)->delta, FTL_TS_NONE);
}

static void test_spans_interleaved_backrefs(void)
{
	FtlEvent evs[] = {
		evb_marker(100, 0, 1, "before a"),	   evb_marker(200, 1, 2, "before b"),
		evb_generic(250, 1, 2, "t", "foo", "x=1"), evb_marker(300, 0, 1, "after a"),
		evb_marker(400, 1, 2, "after b"),
	};
	g_autoptr(FtlSpans) s = spans_run("before (.*)", "after \\1", evs, G_N_ELEMENTS(evs));
	CU_ASSERT_EQUAL_FATAL(ftl_spans_count(s), 2);
	const FtlSpan *a = ftl_spans_get(s, 0), *b = ftl_spans_get(s, 1);
	CU_ASSERT_STRING_EQUAL(a->start.text, "before a");
	CU_ASSERT_STRING_EQUAL(a->end.text, "after a");
	CU_ASSERT_EQUAL(a->duration, 200);
	/* "before b" and the generic event are inside a; the bounds are not */
	CU_ASSERT_EQUAL(a->events, 2);
	CU_ASSERT_STRING_EQUAL(b->start.text, "before b");
	CU_ASSERT_STRING_EQUAL(b->end.text, "after b");
	CU_ASSERT_EQUAL(b->duration, 200);
	CU_ASSERT_EQUAL(b->events, 2);
	CU_ASSERT_EQUAL(b->start.cpu, 1);
	CU_ASSERT_EQUAL(ftl_spans_unmatched_starts(s), 0);
	CU_ASSERT_EQUAL(ftl_spans_unmatched_ends(s), 0);
}

static void test_spans_nested_same_text(void)
{
	/* an end closes the most recent open start it matches */
	FtlEvent evs[] = {
		evb_marker(100, 0, 1, "before a"),
		evb_marker(200, 0, 1, "before a"),
		evb_marker(300, 0, 1, "after a"),
		evb_marker(400, 0, 1, "after a"),
	};
	g_autoptr(FtlSpans) s = spans_run("before (.*)", "after \\1", evs, G_N_ELEMENTS(evs));
	CU_ASSERT_EQUAL_FATAL(ftl_spans_count(s), 2);
	/* listed in the order of their start */
	CU_ASSERT_EQUAL(ftl_spans_get(s, 0)->start.ts, 100);
	CU_ASSERT_EQUAL(ftl_spans_get(s, 0)->end.ts, 400);
	CU_ASSERT_EQUAL(ftl_spans_get(s, 1)->start.ts, 200);
	CU_ASSERT_EQUAL(ftl_spans_get(s, 1)->end.ts, 300);
}

static void test_spans_unmatched(void)
{
	FtlEvent evs[] = {
		evb_marker(50, 0, 1, "after z"),    evb_marker(100, 0, 1, "before x"),
		evb_marker(150, 0, 1, "unrelated"), evb_marker(200, 0, 1, "after y"),
		evb_marker(300, 0, 1, "before w"),  evb_marker(400, 0, 1, "after w"),
	};
	g_autoptr(FtlSpans) s = spans_run("before (.*)", "after \\1", evs, G_N_ELEMENTS(evs));
	CU_ASSERT_EQUAL(ftl_spans_count(s), 1);
	CU_ASSERT_EQUAL(ftl_spans_unmatched_starts(s), 1);
	CU_ASSERT_EQUAL(ftl_spans_unmatched_ends(s), 2);
}

static void test_spans_self_time(void)
{
	/* cpu 0, pid 7:  f() {                    entry before the span
	 *                  [start marker]
	 *                  g() {
	 *                    h();        100
	 *                  }             300  (bare "}", name from the entry)
	 *                  k();           50
	 *                }               700
	 * cpu 1, pid 8:  x();             40, and a task switch
	 * Hand computation: f 700-300-50 = 350, g 300-100 = 200, h 100, k 50. */
	FtlEvent leaf_h[2], leaf_k[2], leaf_x[2], leaf_y[2];
	evb_leaf(leaf_h, 1300, 0, 7, "h", 2, 100);
	evb_leaf(leaf_k, 1600, 0, 7, "k", 1, 50);
	evb_leaf(leaf_x, 1400, 1, 8, "x", 0, 40);
	evb_leaf(leaf_y, 2100, 1, 8, "y", 0, 40);
	FtlEvent evs[] = {
		evb_entry(1100, 0, 7, "f", 0),
		evb_marker(1150, 0, 7, "start"),
		evb_entry(1200, 0, 7, "g", 1),
		leaf_h[0],
		leaf_h[1],
		leaf_x[0],
		leaf_x[1],
		evb_exit(1500, 0, 7, NULL, 1, 300),
		leaf_k[0],
		leaf_k[1],
		evb_task_switch(1700, 1, "a", 8, "b", 9),
		evb_exit(1800, 0, 7, "f", 0, 700),
		evb_switch(1900, 0, "p", 7, "q", 10),
		evb_marker(2000, 0, 10, "end"),
		leaf_y[0],
		leaf_y[1],
	};
	g_autoptr(FtlSpans) s = spans_run("^start$", "^end$", evs, G_N_ELEMENTS(evs));
	CU_ASSERT_EQUAL_FATAL(ftl_spans_count(s), 1);
	const FtlSpan *sp = ftl_spans_get(s, 0);
	CU_ASSERT_EQUAL(sp->duration, 850);
	CU_ASSERT_EQUAL(sp->events, 11);
	CU_ASSERT_EQUAL_FATAL(sp->n_cpus, 2);
	const FtlSpanCpu *c0 = &sp->cpus[0], *c1 = &sp->cpus[1];
	CU_ASSERT_EQUAL(c0->cpu, 0);
	CU_ASSERT_EQUAL(c0->events, 8);
	CU_ASSERT_EQUAL(c0->switches, 1);
	CU_ASSERT_EQUAL(c0->exits, 4);
	CU_ASSERT_EQUAL_FATAL(c0->n_funcs, 4);
	const char *names[] = { "f", "g", "h", "k" };
	const gint64 self[] = { 350, 200, 100, 50 }, total[] = { 700, 300, 100, 50 };
	for (guint i = 0; i < 4; i++) {
		CU_ASSERT_STRING_EQUAL(c0->funcs[i].func, names[i]);
		CU_ASSERT_EQUAL(c0->funcs[i].self_ns, self[i]);
		CU_ASSERT_EQUAL(c0->funcs[i].total_ns, total[i]);
		CU_ASSERT_EQUAL(c0->funcs[i].calls, 1);
	}
	CU_ASSERT_EQUAL(c1->cpu, 1);
	CU_ASSERT_EQUAL(c1->events, 3);
	CU_ASSERT_EQUAL(c1->switches, 1);
	CU_ASSERT_EQUAL_FATAL(c1->n_funcs, 1);
	CU_ASSERT_STRING_EQUAL(c1->funcs[0].func, "x");
	CU_ASSERT_EQUAL(c1->funcs[0].self_ns, 40);
}

static void test_spans_duration_from_times(void)
{
	/* funcgraph-duration off: the duration is exit time minus entry time */
	FtlEvent evs[] = {
		evb_marker(100, 0, 1, "s"),
		evb_entry(200, 0, 1, "f", 0),
		evb_entry(250, 0, 1, "g", 1),
		evb_exit(300, 0, 1, "g", 1, FTL_TS_NONE),
		evb_exit(500, 0, 1, "f", 0, FTL_TS_NONE),
		evb_marker(600, 0, 1, "e"),
	};
	g_autoptr(FtlSpans) s = spans_run("^s$", "^e$", evs, G_N_ELEMENTS(evs));
	CU_ASSERT_EQUAL_FATAL(ftl_spans_count(s), 1);
	const FtlSpanCpu *c = &ftl_spans_get(s, 0)->cpus[0];
	CU_ASSERT_EQUAL_FATAL(c->n_funcs, 2);
	CU_ASSERT_STRING_EQUAL(c->funcs[0].func, "f");
	CU_ASSERT_EQUAL(c->funcs[0].self_ns, 250);
	CU_ASSERT_EQUAL(c->funcs[0].total_ns, 300);
	CU_ASSERT_EQUAL(c->funcs[1].self_ns, 50);
}

static void test_spans_untimed(void)
{
	FtlEvent leaf[2];
	evb_leaf(leaf, FTL_TS_NONE, 0, -1, "f", 0, 1000);
	FtlEvent evs[] = {
		evb_marker(FTL_TS_NONE, 0, -1, "before X"),
		leaf[0],
		leaf[1],
		evb_marker(FTL_TS_NONE, 1, -1, "after X"),
	};
	g_autoptr(FtlSpans) s = spans_run("before (.*)", "after \\1", evs, G_N_ELEMENTS(evs));
	CU_ASSERT_EQUAL_FATAL(ftl_spans_count(s), 1);
	const FtlSpan *sp = ftl_spans_get(s, 0);
	CU_ASSERT_EQUAL(sp->duration, FTL_TS_NONE);
	CU_ASSERT_EQUAL(sp->events, 2);
	CU_ASSERT_EQUAL_FATAL(sp->n_cpus, 1);
	CU_ASSERT_EQUAL(sp->cpus[0].funcs[0].self_ns, 1000);
}

static void test_spans_special_characters(void)
{
	/* the captured "a.b(c)+[d]" must match literally: "aXb(c)+[d]" would
	 * match it as a regex, and "(" unescaped would not compile */
	FtlEvent evs[] = {
		evb_marker(100, 0, 1, "open a.b(c)+[d]"),
		evb_marker(200, 0, 1, "close aXb(c)+[d]"),
		evb_marker(300, 0, 1, "close a.b(c)+[d]"),
	};
	g_autoptr(FtlSpans) s = spans_run("open (.*)", "close \\1$", evs, G_N_ELEMENTS(evs));
	CU_ASSERT_EQUAL_FATAL(ftl_spans_count(s), 1);
	CU_ASSERT_STRING_EQUAL(ftl_spans_get(s, 0)->end.text, "close a.b(c)+[d]");
	CU_ASSERT_EQUAL(ftl_spans_get(s, 0)->duration, 200);
	CU_ASSERT_EQUAL(ftl_spans_unmatched_ends(s), 1);
	CU_ASSERT_EQUAL(ftl_spans_unmatched_starts(s), 0);
}

static void test_spans_substitute(void)
{
	g_autoptr(GRegex) re = g_regex_new("(\\w+) (.*)", 0, 0, NULL);
	g_autoptr(GMatchInfo) info = NULL;
	CU_ASSERT_FATAL(g_regex_match(re, "go a*b", 0, &info));
	g_autofree char *a = ftl_spans_substitute("\\2-\\1", info);
	CU_ASSERT_STRING_EQUAL(a, "a\\*b-go");
	/* an escaped backslash before a digit is not a reference */
	g_autofree char *b = ftl_spans_substitute("x\\\\1\\.", info);
	CU_ASSERT_STRING_EQUAL(b, "x\\\\1\\.");
}

static void test_spans_bad_patterns(void)
{
	g_autoptr(GError) e1 = NULL, e2 = NULL, e3 = NULL;
	CU_ASSERT_PTR_NULL(ftl_spans_new("before (.*)", "after \\2", &e1));
	CU_ASSERT(g_error_matches(e1, FTL_ERROR, FTL_ERROR_USAGE));
	CU_ASSERT_PTR_NULL(ftl_spans_new("(", "x", &e2));
	CU_ASSERT(g_error_matches(e2, FTL_ERROR, FTL_ERROR_USAGE));
	CU_ASSERT_PTR_NOT_NULL(e2 ? strstr(e2->message, "'('") : NULL);
	CU_ASSERT_PTR_NULL(ftl_spans_new("a", "[", &e3));
	CU_ASSERT(g_error_matches(e3, FTL_ERROR, FTL_ERROR_USAGE));
}

static void test_wallclock_parse(void)
{
	gint64 ns = 0;
	CU_ASSERT(ftl_markers_parse_wallclock("ftlens-wallclock: 1764753619.123456789", &ns));
	CU_ASSERT_EQUAL(ns, G_GINT64_CONSTANT(1764753619123456789));
	CU_ASSERT(ftl_markers_parse_wallclock("  ftlens-wallclock: 1.000000005\n", &ns));
	CU_ASSERT_EQUAL(ns, 1000000005);
	CU_ASSERT(ftl_markers_parse_wallclock(FTL_WALLCLOCK_PREFIX "0.000000000", &ns));
	CU_ASSERT_EQUAL(ns, 0);
	/* exactly nine digits of ns: ".5" is ambiguous */
	CU_ASSERT_FALSE(ftl_markers_parse_wallclock("ftlens-wallclock: 1764753619.5", &ns));
	CU_ASSERT_FALSE(ftl_markers_parse_wallclock("ftlens-wallclock: 1764753619", &ns));
	CU_ASSERT_FALSE(ftl_markers_parse_wallclock("ftlens-wallclock: 1.0000000001", &ns));
	CU_ASSERT_FALSE(ftl_markers_parse_wallclock("ftlens-wallclock: x.000000000", &ns));
	CU_ASSERT_FALSE(ftl_markers_parse_wallclock("ftlens-wallclock: 1.000000000 z", &ns));
	/* past what int64 ns can hold */
	CU_ASSERT_FALSE(ftl_markers_parse_wallclock("ftlens-wallclock: 9999999999.000000000", &ns));
	CU_ASSERT_FALSE(ftl_markers_parse_wallclock("say ftlens-wallclock: 1.000000000", &ns));
	CU_ASSERT(
		ftl_markers_parse_wallclock("trace_event_clock_sync: realtime_ts=3720325137", &ns));
	CU_ASSERT_EQUAL(ns, G_GINT64_CONSTANT(3720325137000000));
	CU_ASSERT_FALSE(ftl_markers_parse_wallclock(
		"trace_event_clock_sync: parent_ts=683201.375000", &ns));
	CU_ASSERT_FALSE(ftl_markers_parse_wallclock("", &ns));
}

static void test_wallclock_anchor(void)
{
	FtlEvent evs[] = {
		evb_marker(FTL_TS_NONE, 0, 1, "ftlens-wallclock: 100.000000000"),
		evb_marker(1000, 0, 1, "hello"),
		evb_marker(5000, 0, 1, "ftlens-wallclock: 1700000000.000000500"),
	};
	g_autoptr(FtlMarkers) m = ftl_markers_new();
	for (guint i = 0; i < G_N_ELEMENTS(evs); i++)
		ftl_markers_feed(m, &evs[i]);
	ftl_markers_finish(m);
	guint idx = 99;
	gint64 off = 0;
	/* the untimed one cannot anchor anything */
	CU_ASSERT_FATAL(ftl_markers_wall_anchor(m, &idx, &off));
	CU_ASSERT_EQUAL(idx, 2);
	CU_ASSERT_EQUAL(off, G_GINT64_CONSTANT(1700000000000000500) - 5000);
	g_autoptr(FtlMarkers) none = ftl_markers_new();
	ftl_markers_finish(none);
	CU_ASSERT_FALSE(ftl_markers_wall_anchor(none, &idx, &off));
}

int main(void)
{
	static const UnitTest tests[] = {
		{ "markers in order with deltas", test_markers_order_deltas },
		{ "markers without times have no deltas", test_markers_untimed },
		{ "spans: interleaved, with backreferences", test_spans_interleaved_backrefs },
		{ "spans: nested starts with the same text", test_spans_nested_same_text },
		{ "spans: unmatched starts and ends are counted", test_spans_unmatched },
		{ "spans: per-CPU events, switches, self time", test_spans_self_time },
		{ "spans: durations from entry and exit times", test_spans_duration_from_times },
		{ "spans: input without timestamps", test_spans_untimed },
		{ "spans: captured text is escaped", test_spans_special_characters },
		{ "spans: substitution of \\N", test_spans_substitute },
		{ "spans: bad patterns are usage errors", test_spans_bad_patterns },
		{ "wallclock marker parsing", test_wallclock_parse },
		{ "wallclock anchor: first timed marker", test_wallclock_anchor },
		{ NULL, NULL },
	};
	int rc = unit_run("markers", tests);
	g_clear_pointer(&evb_pool, ftl_strpool_free);
	return rc;
}
