/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Data quality over hand-built events: per-CPU spans, LOST lines, late CPUs,
 * header counts and the complete window, against hand-computed values. */
#include "config.h"

#include <string.h>

#include "analysis/quality.h"
#include "evbuild.h"
#include "unit.h"

#define MS 1000000LL
#define T0 (100 * 1000000000LL) /* 100 s: far from zero, as real traces are */

/* A source that yields nothing: it only carries what a header said. */
static FtlStatus empty_next(FtlSource *src, const FtlEvent **ev, GError **error)
{
	(void)src;
	(void)ev;
	(void)error;
	return FTL_STATUS_EOF;
}

static void empty_free(FtlSource *src)
{
	ftl_source_clear(src);
	g_free(src);
}

static const FtlSourceOps empty_ops = { .name = "empty", .next = empty_next, .free = empty_free };

static FtlSource *header_source(FtlTrace *trace, gint cpu_hint, gint64 in_buf, gint64 written)
{
	FtlSource *src = g_new0(FtlSource, 1);
	ftl_source_init(src, &empty_ops, cpu_hint < 0 ? "trace" : "per_cpu/trace");
	src->cpu_hint = cpu_hint;
	src->entries_in_buffer = in_buf;
	src->entries_written = written;
	ftl_trace_add_source(trace, src);
	return src;
}

static FtlEvent ev_at(gint64 ts, gint32 cpu)
{
	return evb_generic(ts, cpu, 10, "t", "ev", "");
}

static const FtlCpuQuality *cpu_row(const FtlQuality *q, gint32 cpu)
{
	for (guint i = 0; i < ftl_quality_n_cpus(q); i++)
		if (ftl_quality_cpu(q, i)->cpu == cpu)
			return ftl_quality_cpu(q, i);
	return NULL;
}

static gboolean caveat_has(const FtlQuality *q, const char *needle)
{
	GPtrArray *c = ftl_quality_caveats(q);
	for (guint i = 0; i < c->len; i++)
		if (strstr(g_ptr_array_index(c, i), needle))
			return TRUE;
	return FALSE;
}

static void test_spans_and_window(void)
{
	g_autoptr(FtlTrace) trace = ftl_trace_new("t", FTL_OPEN_NONE);
	g_autoptr(FtlQuality) q = ftl_quality_new(trace);
	/* CPU 0: 0..90 ms, CPU 1: 5..100 ms, CPU 2: 2..80 ms (fed merged) */
	const struct {
		gint64 ms;
		gint32 cpu;
	} spec[] = { { 0, 0 },	{ 2, 2 },  { 5, 1 },  { 40, 0 },
		     { 50, 1 }, { 80, 2 }, { 90, 0 }, { 100, 1 } };
	for (guint i = 0; i < G_N_ELEMENTS(spec); i++) {
		FtlEvent e = ev_at(T0 + spec[i].ms * MS, spec[i].cpu);
		ftl_quality_feed(q, &e);
	}
	ftl_quality_finish(q);
	CU_ASSERT_EQUAL(ftl_quality_n_cpus(q), 3);
	for (guint i = 0; i < 3; i++)
		CU_ASSERT_EQUAL(ftl_quality_cpu(q, i)->cpu, (gint32)i);
	CU_ASSERT_EQUAL(cpu_row(q, 1)->first_ts, T0 + 5 * MS);
	CU_ASSERT_EQUAL(cpu_row(q, 1)->last_ts, T0 + 100 * MS);
	CU_ASSERT_EQUAL(cpu_row(q, 0)->events, 3);
	CU_ASSERT_EQUAL(cpu_row(q, 0)->event_lines, 3);
	CU_ASSERT_EQUAL(cpu_row(q, 0)->overrun, -1);
	CU_ASSERT_EQUAL(ftl_quality_total(q)->events, 8);
	CU_ASSERT_EQUAL(ftl_quality_total(q)->first_ts, T0);
	CU_ASSERT_EQUAL(ftl_quality_total(q)->last_ts, T0 + 100 * MS);
	CU_ASSERT_EQUAL(ftl_quality_total(q)->lost_events, 0);
	/* max(first) = 5 ms, min(last) = 80 ms */
	CU_ASSERT_EQUAL(ftl_quality_window_start(q), T0 + 5 * MS);
	CU_ASSERT_EQUAL(ftl_quality_window_end(q), T0 + 80 * MS);
	CU_ASSERT_TRUE(ftl_quality_covers(q, T0 + 5 * MS, T0 + 80 * MS));
	CU_ASSERT_TRUE(ftl_quality_covers(q, T0 + 10 * MS, T0 + 20 * MS));
	CU_ASSERT_FALSE(ftl_quality_covers(q, T0 + 4 * MS, T0 + 20 * MS));
	CU_ASSERT_FALSE(ftl_quality_covers(q, T0 + 10 * MS, T0 + 81 * MS));
	CU_ASSERT_EQUAL(ftl_quality_evicted(q), -1);
	/* 5 ms of a 100 ms span is not "late" */
	CU_ASSERT_EQUAL(ftl_quality_caveats(q)->len, 0);
}

static void test_lost_moves_window(void)
{
	g_autoptr(FtlTrace) trace = ftl_trace_new("t", FTL_OPEN_NONE);
	g_autoptr(FtlQuality) q = ftl_quality_new(trace);
	FtlEvent e;
	/* CPU 0: 0..100 ms; CPU 1: 1..99 ms with LOST lines before 30 ms and 60 ms */
	e = ev_at(T0, 0), ftl_quality_feed(q, &e);
	e = ev_at(T0 + 1 * MS, 1), ftl_quality_feed(q, &e);
	e = ev_at(T0 + 10 * MS, 1), ftl_quality_feed(q, &e);
	e = evb_lost(1, 500), ftl_quality_feed(q, &e);
	e = ev_at(T0 + 20 * MS, 0), ftl_quality_feed(q, &e); /* another CPU: no effect */
	e = ev_at(T0 + 30 * MS, 1), ftl_quality_feed(q, &e);
	e = evb_lost(1, 0), ftl_quality_feed(q, &e); /* count not given */
	e = ev_at(T0 + 60 * MS, 1), ftl_quality_feed(q, &e);
	e = ev_at(T0 + 99 * MS, 1), ftl_quality_feed(q, &e);
	e = ev_at(T0 + 100 * MS, 0), ftl_quality_feed(q, &e);
	ftl_quality_finish(q);
	const FtlCpuQuality *c1 = cpu_row(q, 1);
	CU_ASSERT_EQUAL(c1->lost_lines, 2);
	/* the second LOST line gives no count: how many is unknown, not 500 */
	CU_ASSERT_EQUAL(c1->lost_events, FTL_LOST_UNKNOWN);
	CU_ASSERT_EQUAL(ftl_quality_total(q)->lost_events, FTL_LOST_UNKNOWN);
	CU_ASSERT_EQUAL(c1->event_lines, 5);
	CU_ASSERT_EQUAL(c1->events, 7);
	CU_ASSERT_EQUAL(cpu_row(q, 0)->lost_lines, 0);
	/* after the last LOST: 60 ms; the earliest last event: 99 ms */
	CU_ASSERT_EQUAL(ftl_quality_window_start(q), T0 + 60 * MS);
	CU_ASSERT_EQUAL(ftl_quality_window_end(q), T0 + 99 * MS);
	CU_ASSERT_TRUE(caveat_has(q, "CPU 1 lost events (how many is not given) in 2 LOST lines"));
	CU_ASSERT_TRUE(caveat_has(q, "before 100.060000"));
}

static void test_lost_at_end_and_empty_window(void)
{
	g_autoptr(FtlTrace) trace = ftl_trace_new("t", FTL_OPEN_NONE);
	g_autoptr(FtlQuality) q = ftl_quality_new(trace);
	FtlEvent e;
	/* CPU 0 ends at 10 ms, CPU 1 starts at 50 ms: no common window */
	e = ev_at(T0, 0), ftl_quality_feed(q, &e);
	e = ev_at(T0 + 10 * MS, 0), ftl_quality_feed(q, &e);
	e = evb_lost(0, 7), ftl_quality_feed(q, &e); /* nothing after it on CPU 0 */
	e = ev_at(T0 + 50 * MS, 1), ftl_quality_feed(q, &e);
	e = ev_at(T0 + 60 * MS, 1), ftl_quality_feed(q, &e);
	ftl_quality_finish(q);
	CU_ASSERT_EQUAL(ftl_quality_window_start(q), FTL_TS_NONE);
	CU_ASSERT_EQUAL(ftl_quality_window_end(q), FTL_TS_NONE);
	CU_ASSERT_FALSE(ftl_quality_covers(q, T0, T0));
	CU_ASSERT_TRUE(caveat_has(q, "after its last event"));
	CU_ASSERT_TRUE(caveat_has(q, "no time window"));
	/* 50 ms of a 60 ms span: CPU 1 starts late */
	CU_ASSERT_TRUE(caveat_has(q, "CPU 1 starts at 100.050000"));
}

static void test_late_cpu_and_buffer_started(void)
{
	g_autoptr(FtlTrace) trace = ftl_trace_new("t", FTL_OPEN_NONE);
	g_autoptr(FtlQuality) q = ftl_quality_new(trace);
	FtlEvent e;
	/* CPU 0: 0..1000 ms; CPU 1: 400..1000 ms (late); CPU 2: 3..990 ms after
	 * a "buffer started" line (late by the kernel's word, however little) */
	e = ev_at(T0, 0), ftl_quality_feed(q, &e);
	e = evb_base(FTL_EVENT_BUFFER_START, "buffer_started", FTL_TS_NONE, 2, -1);
	ftl_quality_feed(q, &e);
	e = ev_at(T0 + 3 * MS, 2), ftl_quality_feed(q, &e);
	e = ev_at(T0 + 400 * MS, 1), ftl_quality_feed(q, &e);
	e = ev_at(T0 + 990 * MS, 2), ftl_quality_feed(q, &e);
	e = ev_at(T0 + 1000 * MS, 0), ftl_quality_feed(q, &e);
	e = ev_at(T0 + 1000 * MS, 1), ftl_quality_feed(q, &e);
	ftl_quality_finish(q);
	CU_ASSERT_EQUAL(cpu_row(q, 2)->buffer_started, 1);
	CU_ASSERT_EQUAL(cpu_row(q, 2)->event_lines, 2);
	CU_ASSERT_EQUAL(cpu_row(q, 2)->events, 3);
	CU_ASSERT_EQUAL(ftl_quality_window_start(q), T0 + 400 * MS);
	CU_ASSERT_EQUAL(ftl_quality_window_end(q), T0 + 990 * MS);
	CU_ASSERT_TRUE(caveat_has(q, "CPU 1 starts at 100.400000, 400.000 ms after CPU 0"));
	CU_ASSERT_TRUE(caveat_has(q, "CPU 2 starts at 100.003000"));
	CU_ASSERT_FALSE(caveat_has(q, "CPU 0 starts"));
}

static void test_synth_ignored(void)
{
	g_autoptr(FtlTrace) trace = ftl_trace_new("t", FTL_OPEN_NONE);
	g_autoptr(FtlQuality) q = ftl_quality_new(trace);
	FtlEvent leaf[2];
	evb_leaf(leaf, T0, 0, 1, "f", 0, 5 * MS);
	ftl_quality_feed(q, &leaf[0]);
	ftl_quality_feed(q, &leaf[1]);
	ftl_quality_finish(q);
	CU_ASSERT_EQUAL(cpu_row(q, 0)->event_lines, 1);
	CU_ASSERT_EQUAL(cpu_row(q, 0)->events, 2);
	/* the synthesized exit's computed time is no line's timestamp */
	CU_ASSERT_EQUAL(cpu_row(q, 0)->last_ts, T0);
}

static void test_no_timestamps(void)
{
	g_autoptr(FtlTrace) trace = ftl_trace_new("t", FTL_OPEN_NONE);
	g_autoptr(FtlQuality) q = ftl_quality_new(trace);
	FtlEvent e = ev_at(FTL_TS_NONE, 0);
	ftl_quality_feed(q, &e);
	e = ev_at(FTL_TS_NONE, 1);
	ftl_quality_feed(q, &e);
	ftl_quality_finish(q);
	CU_ASSERT_EQUAL(ftl_quality_n_cpus(q), 2);
	CU_ASSERT_EQUAL(cpu_row(q, 0)->first_ts, FTL_TS_NONE);
	CU_ASSERT_EQUAL(ftl_quality_window_start(q), FTL_TS_NONE);
	CU_ASSERT_TRUE(caveat_has(q, "no timestamps"));
}

static void test_header_merged(void)
{
	g_autoptr(FtlTrace) trace = ftl_trace_new("t", FTL_OPEN_NONE);
	header_source(trace, -1, 140080, 250280);
	g_autoptr(FtlQuality) q = ftl_quality_new(trace);
	FtlEvent e = ev_at(T0, 0);
	ftl_quality_feed(q, &e);
	ftl_quality_finish(q);
	CU_ASSERT_EQUAL(ftl_quality_evicted(q), 110200);
	CU_ASSERT_TRUE(caveat_has(q, "110200 events were overwritten"));
}

static void test_header_per_cpu(void)
{
	g_autoptr(FtlTrace) trace = ftl_trace_new("t", FTL_OPEN_NONE);
	header_source(trace, 0, 100, 150);
	header_source(trace, 1, 80, 80);
	g_autoptr(FtlQuality) q = ftl_quality_new(trace);
	FtlEvent e = ev_at(T0, 0);
	ftl_quality_feed(q, &e);
	e = ev_at(T0, 1);
	ftl_quality_feed(q, &e);
	ftl_quality_finish(q);
	/* each header holds the whole buffer's totals: the newest counts once */
	CU_ASSERT_EQUAL(ftl_quality_evicted(q), 50);
}

static void test_header_per_cpu_same_totals(void)
{
	/* Each per_cpu header repeating the whole buffer's counts: one total. */
	g_autoptr(FtlTrace) trace = ftl_trace_new("t", FTL_OPEN_NONE);
	header_source(trace, 0, 506, 948);
	header_source(trace, 1, 506, 948);
	g_autoptr(FtlQuality) q = ftl_quality_new(trace);
	ftl_quality_finish(q);
	CU_ASSERT_EQUAL(ftl_quality_evicted(q), 442);
	/* a row is a CPU that gave events, whatever its file's header says */
	CU_ASSERT_EQUAL(ftl_quality_n_cpus(q), 0);
}

static void stats_set(FtlTrace *trace, gint cpu, guint64 overrun, guint64 dropped)
{
	FtlCpuStats st = { .overrun = overrun, .dropped = dropped };
	ftl_trace_set_cpustats(trace, cpu, &st);
}

static void test_stats_lost(void)
{
	/* the input's statistics: CPU 0 overwrote none, CPU 1 700 (and dropped
	 * 5); CPU 1's mark gives no count, CPU 0 starts late */
	g_autoptr(FtlTrace) trace = ftl_trace_new("t", FTL_OPEN_NONE);
	stats_set(trace, 0, 0, 0);
	stats_set(trace, 1, 700, 5);
	g_autoptr(FtlQuality) q = ftl_quality_new(trace);
	FtlEvent e;
	e = evb_lost(1, 0), ftl_quality_feed(q, &e);
	e = ev_at(T0, 1), ftl_quality_feed(q, &e);
	e = ev_at(T0 + 500 * MS, 0), ftl_quality_feed(q, &e);
	e = ev_at(T0 + 1000 * MS, 0), ftl_quality_feed(q, &e);
	e = ev_at(T0 + 1000 * MS, 1), ftl_quality_feed(q, &e);
	ftl_quality_finish(q);
	CU_ASSERT_EQUAL(cpu_row(q, 0)->lost_events, 0);
	CU_ASSERT_EQUAL(cpu_row(q, 0)->overrun, 0);
	CU_ASSERT_EQUAL(cpu_row(q, 1)->lost_events, 705);
	CU_ASSERT_EQUAL(cpu_row(q, 1)->overrun, 700);
	CU_ASSERT_EQUAL(ftl_quality_total(q)->lost_events, 705);
	CU_ASSERT_EQUAL(ftl_quality_total(q)->overrun, 700);
	/* no header: the statistics say how many were overwritten */
	CU_ASSERT_EQUAL(ftl_quality_evicted(q), 700);
	CU_ASSERT_TRUE(caveat_has(q, "CPU 1 lost 705 events (its ring-buffer statistics say)"));
	/* CPU 0 starts late, but its statistics say it overwrote nothing */
	CU_ASSERT_FALSE(caveat_has(q, "CPU 0 starts"));
}

static void test_stats_without_marks(void)
{
	/* statistics say CPU 0 lost events no mark in the data shows */
	g_autoptr(FtlTrace) trace = ftl_trace_new("t", FTL_OPEN_NONE);
	stats_set(trace, 0, 42, 0);
	g_autoptr(FtlQuality) q = ftl_quality_new(trace);
	FtlEvent e = ev_at(T0, 0);
	ftl_quality_feed(q, &e);
	ftl_quality_finish(q);
	CU_ASSERT_EQUAL(cpu_row(q, 0)->lost_lines, 0);
	CU_ASSERT_EQUAL(cpu_row(q, 0)->lost_events, 42);
	CU_ASSERT_TRUE(caveat_has(q, "CPU 0 lost 42 events (its ring-buffer statistics say); no "
				     "mark in the data says where"));
}

static void test_empty(void)
{
	g_autoptr(FtlTrace) trace = ftl_trace_new("t", FTL_OPEN_NONE);
	g_autoptr(FtlQuality) q = ftl_quality_new(trace);
	ftl_quality_finish(q);
	CU_ASSERT_EQUAL(ftl_quality_n_cpus(q), 0);
	CU_ASSERT_EQUAL(ftl_quality_window_start(q), FTL_TS_NONE);
	CU_ASSERT_EQUAL(ftl_quality_evicted(q), -1);
	CU_ASSERT_EQUAL(ftl_quality_caveats(q)->len, 0);
}

static const UnitTest tests[] = {
	{ "per-CPU spans and the window", test_spans_and_window },
	{ "LOST lines move the window start", test_lost_moves_window },
	{ "LOST at the end, disjoint CPUs: no window", test_lost_at_end_and_empty_window },
	{ "late CPUs and buffer started", test_late_cpu_and_buffer_started },
	{ "synthesized events ignored", test_synth_ignored },
	{ "no timestamps", test_no_timestamps },
	{ "merged header: evicted", test_header_merged },
	{ "per-CPU headers", test_header_per_cpu },
	{ "per-CPU headers with equal totals", test_header_per_cpu_same_totals },
	{ "lost events from the CPU statistics", test_stats_lost },
	{ "statistics without LOST marks", test_stats_without_marks },
	{ "empty trace", test_empty },
	{ NULL, NULL },
};

int main(void)
{
	int rc = unit_run("quality", tests);
	g_clear_pointer(&evb_pool, ftl_strpool_free);
	return rc;
}
