/* SPDX-License-Identifier: GPL-2.0-or-later */
/* FtlIter and FtlFilter over fake in-memory sources: merge order, filters,
 * error propagation. No parser involved. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "model/iter.h"
#include "model/trace.h"
#include "unit.h"
#include "util/error.h"

/* What a fake source yields; `id` comes back in FtlEvent.line so a test can
 * tell events apart after the merge. */
typedef struct {
	gint64 ts;
	gint32 cpu;
	guint64 seq;
	gint32 pid;
	guint64 id;
} FakeSpec;

typedef struct {
	FtlSource base; /* first, so an FtlSource* is a FakeSource* */
	const FakeSpec *specs;
	guint n;
	guint next;
	gint fail_at; /* index whose next() fails, -1 never */
	guint *freed; /* counts free() calls, may be NULL */
	FtlEvent cur; /* one buffer, overwritten on every next(), as parsers do */
} FakeSource;

static FtlStatus fake_next(FtlSource *src, const FtlEvent **ev, GError **error)
{
	FakeSource *fs = (FakeSource *)src;
	if (fs->fail_at >= 0 && fs->next == (guint)fs->fail_at) {
		g_set_error(error, FTL_ERROR, FTL_ERROR_PARSE, "%s: line %u: broken", src->path,
			    fs->next + 1);
		return FTL_STATUS_ERROR;
	}
	if (fs->next >= fs->n) {
		/* Poison the old event: a merge that still reads it sees nonsense. */
		memset(&fs->cur, 0xa5, sizeof fs->cur);
		return FTL_STATUS_EOF;
	}
	const FakeSpec *s = &fs->specs[fs->next++];
	memset(&fs->cur, 0, sizeof fs->cur);
	fs->cur.ts = s->ts;
	fs->cur.cpu = s->cpu;
	fs->cur.seq = s->seq;
	fs->cur.pid = s->pid;
	fs->cur.tgid = -1;
	fs->cur.line = s->id;
	fs->cur.src = src;
	fs->cur.kind = FTL_EVENT_GENERIC;
	fs->cur.name = "fake";
	*ev = &fs->cur;
	return FTL_STATUS_OK;
}

static void fake_free(FtlSource *src)
{
	FakeSource *fs = (FakeSource *)src;
	if (fs->freed)
		(*fs->freed)++;
	ftl_source_clear(src);
	g_free(fs);
}

static const char *fake_dialect(FtlSource *src)
{
	(void)src;
	return "fake";
}

static const FtlSourceOps fake_ops = {
	.name = "fake",
	.next = fake_next,
	.free = fake_free,
	.dialect = fake_dialect,
};

static FakeSource *fake_add(FtlTrace *trace, const char *path, const FakeSpec *specs, guint n)
{
	FakeSource *fs = g_new0(FakeSource, 1);
	ftl_source_init(&fs->base, &fake_ops, path);
	fs->specs = specs;
	fs->n = n;
	fs->fail_at = -1;
	ftl_trace_add_source(trace, &fs->base);
	return fs;
}

/* Drains the iterator into "id id id ..."; returns the final status. */
static FtlStatus drain(FtlTrace *trace, const FtlFilter *filter, GString *out, GError **error)
{
	g_autoptr(FtlIter) it = ftl_iter_new(trace, filter);
	const FtlEvent *ev;
	FtlStatus st;
	while ((st = ftl_iter_next(it, &ev, error)) == FTL_STATUS_OK)
		g_string_append_printf(out, "%s%" G_GUINT64_FORMAT, out->len ? " " : "", ev->line);
	return st;
}

#define ASSERT_ORDER(got, want)                                                                    \
	do {                                                                                       \
		CU_ASSERT_STRING_EQUAL((got), (want));                                             \
		if (strcmp((got), (want)) != 0)                                                    \
			fprintf(stderr, "\n  got  '%s'\n  want '%s'\n", (got), (want));            \
	} while (0)

#define S(ts, cpu, seq, pid, id)                                                                   \
	{                                                                                          \
		(ts), (cpu), (seq), (pid), (id)                                                    \
	}

/* Three per-CPU streams, each in time order, with a three-way tie at 40. */
static const FakeSpec cpu0[] = { S(10, 0, 0, 100, 1), S(40, 0, 1, 100, 2), S(70, 0, 2, 101, 3) };
static const FakeSpec cpu1[] = { S(20, 1, 0, 200, 11), S(40, 1, 1, 200, 12), S(50, 1, 2, 201, 13) };
static const FakeSpec cpu2[] = { S(5, 2, 0, 300, 21), S(40, 2, 1, 300, 22), S(90, 2, 2, 100, 23) };
static const char merged_all[] = "21 1 11 2 12 22 13 3 23";

static FtlTrace *three_cpus(gboolean reversed, guint *freed)
{
	FtlTrace *trace = ftl_trace_new("fake", FTL_OPEN_NONE);
	FakeSource *a, *b, *c;
	/* The order sources are added in must not change the merge. */
	if (reversed) {
		c = fake_add(trace, "cpu2", cpu2, G_N_ELEMENTS(cpu2));
		b = fake_add(trace, "cpu1", cpu1, G_N_ELEMENTS(cpu1));
		a = fake_add(trace, "cpu0", cpu0, G_N_ELEMENTS(cpu0));
	} else {
		a = fake_add(trace, "cpu0", cpu0, G_N_ELEMENTS(cpu0));
		b = fake_add(trace, "cpu1", cpu1, G_N_ELEMENTS(cpu1));
		c = fake_add(trace, "cpu2", cpu2, G_N_ELEMENTS(cpu2));
	}
	a->freed = b->freed = c->freed = freed;
	return trace;
}

static void test_merge_three_sources(void)
{
	guint freed = 0;
	for (int rev = 0; rev < 2; rev++) {
		g_autoptr(FtlTrace) trace = three_cpus(rev, &freed);
		CU_ASSERT_EQUAL(ftl_trace_n_sources(trace), 3);
		g_autoptr(GString) out = g_string_new(NULL);
		g_autoptr(GError) error = NULL;
		CU_ASSERT_EQUAL(drain(trace, NULL, out, &error), FTL_STATUS_EOF);
		CU_ASSERT_PTR_NULL(error);
		/* Ties at ts 40 go by CPU: 2 (cpu0), 12 (cpu1), 22 (cpu2). */
		ASSERT_ORDER(out->str, merged_all);
	}
	/* The trace owns its sources and frees each once. */
	CU_ASSERT_EQUAL(freed, 6);
}

static void test_event_src_and_eof(void)
{
	g_autoptr(FtlTrace) trace = three_cpus(FALSE, NULL);
	g_autoptr(FtlIter) it = ftl_iter_new(trace, NULL);
	const FtlEvent *ev = NULL;
	g_autoptr(GError) error = NULL;
	guint n = 0;
	while (ftl_iter_next(it, &ev, &error) == FTL_STATUS_OK) {
		/* Each event names the source it came from. */
		CU_ASSERT_EQUAL(ev->src->path[3] - '0', ev->cpu);
		n++;
	}
	CU_ASSERT_EQUAL(n, 9);
	/* EOF is sticky. */
	CU_ASSERT_EQUAL(ftl_iter_next(it, &ev, &error), FTL_STATUS_EOF);
	CU_ASSERT_EQUAL(ftl_iter_next(it, &ev, &error), FTL_STATUS_EOF);
	CU_ASSERT_PTR_NULL(error);
}

static void test_no_sources(void)
{
	g_autoptr(FtlTrace) trace = ftl_trace_new("empty", FTL_OPEN_NONE);
	g_autoptr(GString) out = g_string_new(NULL);
	g_autoptr(GError) error = NULL;
	CU_ASSERT_EQUAL(drain(trace, NULL, out, &error), FTL_STATUS_EOF);
	CU_ASSERT_EQUAL(out->len, 0);
	CU_ASSERT_PTR_NULL(error);
}

static void test_ties_cpu_then_seq(void)
{
	/* Two sources that both carry CPU 0 (a CPU's data split over two files,
	 * say) plus one on CPU 1, everything at the same instant: CPU first, then
	 * seq, then the order the sources were added. */
	static const FakeSpec x[] = { S(100, 0, 5, 1, 5), S(100, 1, 6, 1, 6) };
	static const FakeSpec y[] = { S(100, 0, 2, 1, 2), S(100, 0, 7, 1, 7), S(100, 1, 6, 1, 60) };
	static const FakeSpec z[] = { S(100, 0, 5, 1, 50), S(99, 3, 9, 1, 9) };
	g_autoptr(FtlTrace) trace = ftl_trace_new("ties", FTL_OPEN_NONE);
	fake_add(trace, "x", x, G_N_ELEMENTS(x));
	fake_add(trace, "y", y, G_N_ELEMENTS(y));
	fake_add(trace, "z", z, G_N_ELEMENTS(z));
	g_autoptr(GString) out = g_string_new(NULL);
	g_autoptr(GError) error = NULL;
	CU_ASSERT_EQUAL(drain(trace, NULL, out, &error), FTL_STATUS_EOF);
	/* z's second event is earlier (99) but only becomes visible after z's
	 * first one is out: the merge trusts each source's order, it does not sort
	 * within a source. Equal (ts, cpu, seq) = (100, 0, 5) from x and z: x was
	 * added first. Equal (100, 1, 6) from x and y: x first. */
	ASSERT_ORDER(out->str, "2 5 50 9 7 6 60");
}

static void test_ts_none_first(void)
{
	/* A source without timestamps (cpu unknown) merged with timed ones: its
	 * events come before every timed one, negative times included. */
	static const FakeSpec untimed[] = { S(FTL_TS_NONE, -1, 0, 1, 1),
					    S(FTL_TS_NONE, -1, 1, 1, 2) };
	static const FakeSpec timed[] = { S(-5, 0, 0, 1, 10), S(0, 0, 1, 1, 11),
					  S(7, 0, 2, 1, 12) };
	static const FakeSpec timed2[] = { S(FTL_TS_NONE, 3, 0, 1, 20), S(3, 3, 1, 1, 21) };
	g_autoptr(FtlTrace) trace = ftl_trace_new("none", FTL_OPEN_NONE);
	fake_add(trace, "timed", timed, G_N_ELEMENTS(timed));
	fake_add(trace, "timed2", timed2, G_N_ELEMENTS(timed2));
	fake_add(trace, "untimed", untimed, G_N_ELEMENTS(untimed));
	g_autoptr(GString) out = g_string_new(NULL);
	g_autoptr(GError) error = NULL;
	CU_ASSERT_EQUAL(drain(trace, NULL, out, &error), FTL_STATUS_EOF);
	/* Among the untimed: cpu -1 before cpu 3. */
	ASSERT_ORDER(out->str, "1 2 20 10 11 21 12");
}

/* (ts, cpu, seq, source index) as the merge's total order, for the bulk test. */
typedef struct {
	FakeSpec s;
	guint src;
} Keyed;

static gint keyed_cmp(gconstpointer pa, gconstpointer pb)
{
	const Keyed *a = pa, *b = pb;
	if (a->s.ts != b->s.ts)
		return a->s.ts < b->s.ts ? -1 : 1;
	if (a->s.cpu != b->s.cpu)
		return a->s.cpu < b->s.cpu ? -1 : 1;
	if (a->s.seq != b->s.seq)
		return a->s.seq < b->s.seq ? -1 : 1;
	return (a->src > b->src) - (a->src < b->src);
}

static void test_merge_bulk_against_sort(void)
{
	/* Many sources, many ties: the merge must equal a sort by the documented
	 * key, whatever the heap does. Sources share CPUs (7 sources on 3 CPUs) so
	 * that seq and then the source index decide too; each source is in key
	 * order itself, as a parser's output is. */
	enum { NSRC = 7, PER = 800 };
	g_autoptr(GRand) rnd = g_rand_new_with_seed(20240601);
	FakeSpec *specs[NSRC];
	g_autoptr(GArray) all = g_array_new(FALSE, FALSE, sizeof(Keyed));
	g_autoptr(FtlTrace) trace = ftl_trace_new("bulk", FTL_OPEN_NONE);
	guint64 id = 1;
	for (guint s = 0; s < NSRC; s++) {
		specs[s] = g_new0(FakeSpec, PER);
		gint64 ts = g_rand_int_range(rnd, 0, 50);
		for (guint i = 0; i < PER; i++) {
			/* Small steps so many timestamps collide across sources. */
			ts += g_rand_int_range(rnd, 0, 3);
			specs[s][i] = (FakeSpec){ ts, (gint32)(s % 3), i, 1, id++ };
			Keyed k = { specs[s][i], s };
			g_array_append_val(all, k);
		}
		fake_add(trace, "bulk", specs[s], PER);
	}
	g_array_sort(all, keyed_cmp);
	g_autoptr(FtlIter) it = ftl_iter_new(trace, NULL);
	g_autoptr(GError) error = NULL;
	const FtlEvent *ev;
	guint n = 0, mismatches = 0;
	while (ftl_iter_next(it, &ev, &error) == FTL_STATUS_OK) {
		if (n < all->len && ev->line != g_array_index(all, Keyed, n).s.id)
			mismatches++;
		n++;
	}
	CU_ASSERT_PTR_NULL(error);
	CU_ASSERT_EQUAL(n, NSRC * PER);
	CU_ASSERT_EQUAL(mismatches, 0);
	g_clear_pointer(&it, ftl_iter_free);
	g_clear_pointer(&trace, ftl_trace_free);
	for (guint s = 0; s < NSRC; s++)
		g_free(specs[s]);
}

static GArray *list_of(const char *text)
{
	GArray *arr = NULL;
	g_autoptr(GError) error = NULL;
	if (!ftl_filter_parse_list(text, &arr, &error))
		return NULL;
	return arr;
}

static char *list_str(const GArray *arr)
{
	GString *s = g_string_new(NULL);
	for (guint i = 0; i < arr->len; i++)
		g_string_append_printf(s, "%s%d", i ? "," : "", g_array_index(arr, gint32, i));
	return g_string_free(s, FALSE);
}

static void test_parse_list(void)
{
	const struct {
		const char *in, *want;
	} good[] = {
		{ "0,2-3", "0,2,3" },	  { "5", "5" },	    { "3-3", "3" },
		{ " 1 , 4-5 ", "1,4,5" }, { "2,1", "2,1" }, { "0", "0" },
		{ "7-9,1", "7,8,9,1" },
	};
	for (guint i = 0; i < G_N_ELEMENTS(good); i++) {
		g_autoptr(GArray) arr = list_of(good[i].in);
		CU_ASSERT_PTR_NOT_NULL(arr);
		if (!arr)
			continue;
		g_autofree char *got = list_str(arr);
		ASSERT_ORDER(got, good[i].want);
	}
	const char *bad[] = { "a",  "3-1",   "",   ",",	  "1,,2", "1-",
			      "-1", "1-2-3", "1x", "0-a", "1.5",  NULL };
	for (guint i = 0; bad[i]; i++) {
		GArray *arr = NULL;
		g_autoptr(GError) error = NULL;
		gboolean ok = ftl_filter_parse_list(bad[i], &arr, &error);
		CU_ASSERT_FALSE(ok);
		if (ok) {
			fprintf(stderr, "\n  accepted '%s'\n", bad[i]);
			g_array_unref(arr);
			continue;
		}
		CU_ASSERT_PTR_NULL(arr);
		/* A bad --cpu/--pid is a usage error (exit 2) that quotes the input. */
		CU_ASSERT_TRUE(g_error_matches(error, FTL_ERROR, FTL_ERROR_USAGE));
		CU_ASSERT_PTR_NOT_NULL(error ? strstr(error->message, bad[i]) : NULL);
	}
}

static void test_parse_list_out_of_range(void)
{
	/* CPU and pid numbers are 32-bit: a bigger number must be refused rather
	 * than wrap (4294967296 would otherwise select CPU 0, 2147483648 a
	 * negative pid). */
	const char *big[] = { "4294967296", "2147483648", "0,4294967297", NULL };
	for (guint i = 0; big[i]; i++) {
		g_autoptr(GArray) arr = list_of(big[i]);
		CU_ASSERT_PTR_NULL(arr);
		if (arr) {
			g_autofree char *got = list_str(arr);
			fprintf(stderr, "\n  '%s' parsed as '%s'\n", big[i], got);
		}
	}
}

static void test_parse_time(void)
{
	const struct {
		const char *in;
		gint64 start, end;
	} good[] = {
		{ "1.5,2", 1500000000, 2000000000 },
		{ "1.5,", 1500000000, FTL_TS_NONE },
		{ ",2", FTL_TS_NONE, 2000000000 },
		{ ",", FTL_TS_NONE, FTL_TS_NONE },
		{ "0,0", 0, 0 },
		{ " 12.000001 , 13 ", 12000001000, 13000000000 },
		{ "0.000000001,1e-6", 1, 1000 },
		{ "2,2", 2000000000, 2000000000 },
	};
	for (guint i = 0; i < G_N_ELEMENTS(good); i++) {
		gint64 a = 42, b = 42;
		g_autoptr(GError) error = NULL;
		CU_ASSERT_TRUE(ftl_filter_parse_time(good[i].in, &a, &b, &error));
		CU_ASSERT_EQUAL(a, good[i].start);
		CU_ASSERT_EQUAL(b, good[i].end);
		if (a != good[i].start || b != good[i].end)
			fprintf(stderr, "\n  '%s': %" G_GINT64_FORMAT ",%" G_GINT64_FORMAT "\n",
				good[i].in, a, b);
	}
	const char *bad[] = { "a",    "3-1", "2,1", "",	    "1",    "1,2,3",
			      "-1,2", "x,1", "1,y", "1s,2", "inf,", NULL };
	for (guint i = 0; bad[i]; i++) {
		gint64 a = 0, b = 0;
		g_autoptr(GError) error = NULL;
		gboolean ok = ftl_filter_parse_time(bad[i], &a, &b, &error);
		CU_ASSERT_FALSE(ok);
		if (ok) {
			fprintf(stderr, "\n  accepted '%s'\n", bad[i]);
			continue;
		}
		CU_ASSERT_TRUE(g_error_matches(error, FTL_ERROR, FTL_ERROR_USAGE));
	}
}

static void test_parse_time_nan(void)
{
	/* g_ascii_strtod reads "nan"; NaN passes both range checks and converting
	 * it to an integer is undefined (on x86 it becomes FTL_TS_NONE, silently an
	 * open bound). It must be refused like any other non-number. */
	const char *bad[] = { "nan,1", "0,nan", "NAN,", NULL };
	for (guint i = 0; bad[i]; i++) {
		gint64 a = 0, b = 0;
		g_autoptr(GError) error = NULL;
		gboolean ok = ftl_filter_parse_time(bad[i], &a, &b, &error);
		CU_ASSERT_FALSE(ok);
		if (ok)
			fprintf(stderr,
				"\n  accepted '%s' as %" G_GINT64_FORMAT ",%" G_GINT64_FORMAT "\n",
				bad[i], a, b);
	}
}

/* Seconds-scale timestamps around the 1.5,2 window, two CPUs, three pids. */
static const FakeSpec win0[] = {
	S(1000000000, 0, 0, 10, 1), S(1499999999, 0, 1, 10, 2), S(1500000000, 0, 2, 20, 3),
	S(1750000000, 0, 3, 10, 4), S(2000000000, 0, 4, 30, 5), S(2000000001, 0, 5, 20, 6),
};
static const FakeSpec win2[] = {
	S(FTL_TS_NONE, 2, 0, 10, 21),
	S(1600000000, 2, 1, 30, 22),
	S(2500000000, 2, 2, 10, 23),
};
static const FakeSpec win3[] = { S(1800000000, 3, 0, -1, 31), S(1900000000, -1, 1, 20, 32) };

static char *filtered(const FtlFilter *f)
{
	g_autoptr(FtlTrace) trace = ftl_trace_new("window", FTL_OPEN_NONE);
	fake_add(trace, "cpu0", win0, G_N_ELEMENTS(win0));
	fake_add(trace, "cpu2", win2, G_N_ELEMENTS(win2));
	fake_add(trace, "cpu3", win3, G_N_ELEMENTS(win3));
	GString *out = g_string_new(NULL);
	g_autoptr(GError) error = NULL;
	CU_ASSERT_EQUAL(drain(trace, f, out, &error), FTL_STATUS_EOF);
	CU_ASSERT_PTR_NULL(error);
	return g_string_free(out, FALSE);
}

static void test_filter_none(void)
{
	g_autofree char *all = filtered(NULL);
	ASSERT_ORDER(all, "21 1 2 3 22 4 31 32 5 6 23");
	/* An initialized but empty filter passes everything too. */
	FtlFilter f;
	ftl_filter_init(&f);
	g_autofree char *got = filtered(&f);
	ASSERT_ORDER(got, all);
	ftl_filter_clear(&f);
}

static void test_filter_time(void)
{
	FtlFilter f;
	ftl_filter_init(&f);
	g_autoptr(GError) error = NULL;
	/* Inclusive at both ends; the untimed event (21) comes before every
	 * timed one, so it is inside a window only when the window has no start. */
	CU_ASSERT_TRUE_FATAL(ftl_filter_parse_time("1.5,2", &f.t_start, &f.t_end, &error));
	g_autofree char *closed = filtered(&f);
	ASSERT_ORDER(closed, "3 22 4 31 32 5");

	CU_ASSERT_TRUE_FATAL(ftl_filter_parse_time("1.5,", &f.t_start, &f.t_end, &error));
	g_autofree char *from = filtered(&f);
	ASSERT_ORDER(from, "3 22 4 31 32 5 6 23");

	CU_ASSERT_TRUE_FATAL(ftl_filter_parse_time(",2", &f.t_start, &f.t_end, &error));
	g_autofree char *until = filtered(&f);
	ASSERT_ORDER(until, "21 1 2 3 22 4 31 32 5");
	ftl_filter_clear(&f);
}

static void test_filter_time_untimed_between(void)
{
	/* function_graph's task-switch blocks have no time: each stands where
	 * the input put it, inside a window when the timed event before it is */
	static const FakeSpec one[] = {
		S(1000000000, 0, 0, 1, 41), S(FTL_TS_NONE, 0, 1, 1, 42),
		S(1600000000, 0, 2, 1, 43), S(FTL_TS_NONE, 0, 3, 1, 44),
		S(1900000000, 0, 4, 1, 45), S(FTL_TS_NONE, 0, 5, 1, 46),
		S(2500000000, 0, 6, 1, 47), S(FTL_TS_NONE, 0, 7, 1, 48),
	};
	FtlFilter f;
	ftl_filter_init(&f);
	g_autoptr(GError) error = NULL;
	CU_ASSERT_TRUE_FATAL(ftl_filter_parse_time("1.5,2", &f.t_start, &f.t_end, &error));
	const char *want[] = { "41 42 43 44 45 46 47 48", "43 44 45 46" };
	for (guint i = 0; i < G_N_ELEMENTS(want); i++) {
		g_autoptr(FtlTrace) trace = ftl_trace_new("fgraph", FTL_OPEN_NONE);
		fake_add(trace, "fgraph", one, G_N_ELEMENTS(one));
		g_autoptr(GString) out = g_string_new(NULL);
		CU_ASSERT_EQUAL(drain(trace, i ? &f : NULL, out, &error), FTL_STATUS_EOF);
		ASSERT_ORDER(out->str, want[i]);
	}
	ftl_filter_clear(&f);
}

static void test_filter_cpu_pid(void)
{
	FtlFilter f;
	ftl_filter_init(&f);
	g_autoptr(GError) error = NULL;
	/* CPU 1 has no events; the CPU-less event (32) fails a CPU filter. */
	CU_ASSERT_TRUE_FATAL(ftl_filter_parse_list("0,2-3", &f.cpus, &error));
	g_autofree char *cpus = filtered(&f);
	ASSERT_ORDER(cpus, "21 1 2 3 22 4 31 5 6 23");

	/* Only CPU 2, and pids 10 or 30: both must hold. */
	g_clear_pointer(&f.cpus, g_array_unref);
	CU_ASSERT_TRUE_FATAL(ftl_filter_parse_list("2", &f.cpus, &error));
	CU_ASSERT_TRUE_FATAL(ftl_filter_parse_list("10,30", &f.pids, &error));
	g_autofree char *both = filtered(&f);
	ASSERT_ORDER(both, "21 22 23");

	/* Pids only; the pid-less event (31) fails a pid filter. */
	g_clear_pointer(&f.cpus, g_array_unref);
	g_clear_pointer(&f.pids, g_array_unref);
	CU_ASSERT_TRUE_FATAL(ftl_filter_parse_list("20-29", &f.pids, &error));
	g_autofree char *pids = filtered(&f);
	ASSERT_ORDER(pids, "3 32 6");

	/* All three at once. */
	CU_ASSERT_TRUE_FATAL(ftl_filter_parse_time("1.5,2", &f.t_start, &f.t_end, &error));
	CU_ASSERT_TRUE_FATAL(ftl_filter_parse_list("0", &f.cpus, &error));
	g_autofree char *all3 = filtered(&f);
	ASSERT_ORDER(all3, "3");
	ftl_filter_clear(&f);
	CU_ASSERT_PTR_NULL(f.cpus);
	CU_ASSERT_PTR_NULL(f.pids);
}

static void test_filter_match_direct(void)
{
	FtlEvent ev;
	memset(&ev, 0, sizeof ev);
	ev.ts = 5;
	ev.cpu = -1;
	ev.pid = -1;
	/* No filter: everything passes, even an event that knows nothing. */
	CU_ASSERT_TRUE(ftl_filter_match(NULL, &ev));
	FtlFilter f;
	ftl_filter_init(&f);
	CU_ASSERT_TRUE(ftl_filter_match(&f, &ev));
	f.t_start = 6;
	CU_ASSERT_FALSE(ftl_filter_match(&f, &ev));
	ev.ts = FTL_TS_NONE;
	CU_ASSERT_TRUE(ftl_filter_match(&f, &ev));
	ftl_filter_clear(&f);
}

static void test_error_propagates(void)
{
	static const FakeSpec a[] = { S(10, 0, 0, 1, 1), S(30, 0, 1, 1, 2), S(60, 0, 2, 1, 3) };
	static const FakeSpec b[] = { S(20, 1, 0, 1, 11), S(40, 1, 1, 1, 12) };
	g_autoptr(FtlTrace) trace = ftl_trace_new("err", FTL_OPEN_NONE);
	fake_add(trace, "a", a, G_N_ELEMENTS(a));
	FakeSource *fb = fake_add(trace, "b", b, G_N_ELEMENTS(b));
	fb->fail_at = 1; /* the second read of b fails */
	g_autoptr(FtlIter) it = ftl_iter_new(trace, NULL);
	g_autoptr(GError) error = NULL;
	const FtlEvent *ev;
	g_autoptr(GString) out = g_string_new(NULL);
	FtlStatus st;
	while ((st = ftl_iter_next(it, &ev, &error)) == FTL_STATUS_OK)
		g_string_append_printf(out, "%s%" G_GUINT64_FORMAT, out->len ? " " : "", ev->line);
	/* Events merged before the failing read still come out, in order: b's
	 * next event is read when its first one (11) has been handed out. */
	CU_ASSERT_EQUAL(st, FTL_STATUS_ERROR);
	ASSERT_ORDER(out->str, "1 11");
	CU_ASSERT_TRUE(g_error_matches(error, FTL_ERROR, FTL_ERROR_PARSE));
	CU_ASSERT_STRING_EQUAL(error ? error->message : "", "b: line 2: broken");
}

static void test_error_on_first_read(void)
{
	static const FakeSpec a[] = { S(10, 0, 0, 1, 1) };
	g_autoptr(FtlTrace) trace = ftl_trace_new("err0", FTL_OPEN_NONE);
	fake_add(trace, "a", a, G_N_ELEMENTS(a));
	FakeSource *fb = fake_add(trace, "b", a, G_N_ELEMENTS(a));
	fb->fail_at = 0;
	g_autoptr(FtlIter) it = ftl_iter_new(trace, NULL);
	g_autoptr(GError) error = NULL;
	const FtlEvent *ev = NULL;
	CU_ASSERT_EQUAL(ftl_iter_next(it, &ev, &error), FTL_STATUS_ERROR);
	CU_ASSERT_TRUE(g_error_matches(error, FTL_ERROR, FTL_ERROR_PARSE));
	CU_ASSERT_STRING_EQUAL(error ? error->message : "", "b: line 1: broken");
}

static void test_error_in_filtered_stretch(void)
{
	/* The failing read happens while the iterator is skipping filtered-out
	 * events: the error must still come out, not be taken for the end. */
	static const FakeSpec a[] = { S(10, 0, 0, 1, 1), S(20, 0, 1, 1, 2), S(30, 0, 2, 1, 3) };
	g_autoptr(FtlTrace) trace = ftl_trace_new("errf", FTL_OPEN_NONE);
	FakeSource *fa = fake_add(trace, "a", a, G_N_ELEMENTS(a));
	fa->fail_at = 2;
	FtlFilter f;
	ftl_filter_init(&f);
	f.t_start = 100;
	g_autoptr(GString) out = g_string_new(NULL);
	g_autoptr(GError) error = NULL;
	CU_ASSERT_EQUAL(drain(trace, &f, out, &error), FTL_STATUS_ERROR);
	CU_ASSERT_EQUAL(out->len, 0);
	CU_ASSERT_PTR_NOT_NULL(error);
	ftl_filter_clear(&f);
}

static const UnitTest tests[] = {
	{ "merge of three sources", test_merge_three_sources },
	{ "event source and sticky EOF", test_event_src_and_eof },
	{ "no sources", test_no_sources },
	{ "ties: cpu, then seq, then source", test_ties_cpu_then_seq },
	{ "untimed events first", test_ts_none_first },
	{ "bulk merge equals a sort", test_merge_bulk_against_sort },
	{ "parse list", test_parse_list },
	{ "parse list refuses out of range", test_parse_list_out_of_range },
	{ "parse time", test_parse_time },
	{ "parse time refuses nan", test_parse_time_nan },
	{ "filter: none", test_filter_none },
	{ "filter: time", test_filter_time },
	{ "filter: time, untimed events between timed ones", test_filter_time_untimed_between },
	{ "filter: cpu and pid", test_filter_cpu_pid },
	{ "filter: match directly", test_filter_match_direct },
	{ "error propagates", test_error_propagates },
	{ "error on the first read", test_error_on_first_read },
	{ "error while skipping filtered events", test_error_in_filtered_stretch },
	{ NULL, NULL },
};

int main(void)
{
	return unit_run("iter", tests);
}
