/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The trace.dat writer: a raw directory saved by a real 6.1 kernel (the VM
 * rig's tests/data/vm/raw/raw) becomes a trace.dat whose events, read back
 * through libtracecmd, are those the kernel printed as text; bad staging
 * directories give one error naming the file and leave no output behind. */
#include "config.h"

#include <string.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "capture/tracedat-write.h"
#include "capture/tracefs.h"
#include "model/iter.h"
#include "parse/open.h"
#include "unit.h"

static char *tmpdir;

static const char *testdata(void)
{
	const char *d = g_getenv("FTL_TESTDATA");
	return d ? d : "tests/data";
}

/* Counts "name cpu" pairs of every event of a trace, and the timestamps'
 * sum (a cheap check that times decode the same). */
static GHashTable *count_events(const char *path, guint64 *n, gint64 *ts_sum)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(FtlTrace) trace = ftl_trace_open(path, FTL_OPEN_NONE, &error);
	CU_ASSERT_PTR_NOT_NULL_FATAL(trace);
	g_autoptr(FtlIter) it = ftl_iter_new(trace, NULL);
	GHashTable *counts = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	const FtlEvent *ev;
	*n = 0;
	*ts_sum = 0;
	while (ftl_iter_next(it, &ev, &error) == FTL_STATUS_OK) {
		if (ev->kind == FTL_EVENT_LOST || ev->kind == FTL_EVENT_BUFFER_START)
			continue;
		/* A marker is "tracing_mark_write" in text, "print" in a trace.dat. */
		const char *name = ev->kind == FTL_EVENT_MARKER ? "marker" : ev->name;
		char *key = g_strdup_printf("%s cpu%d", name, ev->cpu);
		gpointer old = g_hash_table_lookup(counts, key);
		g_hash_table_replace(counts, key, GUINT_TO_POINTER(GPOINTER_TO_UINT(old) + 1));
		(*n)++;
		*ts_sum += ev->ts;
	}
	CU_ASSERT_PTR_NULL(error);
	return counts;
}

static void fixture_roundtrip(const char *buffer_name)
{
	g_autofree char *raw = g_build_filename(testdata(), "vm", "raw", "raw", NULL);
	g_autofree char *text = g_build_filename(testdata(), "vm", "raw", "raw.txt", NULL);
	g_autofree char *out = g_build_filename(tmpdir, "raw.dat", NULL);
	g_autoptr(GError) error = NULL;
	FtlTracedatWriteOptions opt = { buffer_name, "Linux vm 6.1.0-57-cloud-amd64 x86_64" };
	CU_ASSERT_TRUE_FATAL(ftl_tracedat_write(raw, out, &opt, &error));

	guint64 n_dat, n_txt;
	gint64 ts_dat, ts_txt;
	g_autoptr(GHashTable) dat = count_events(out, &n_dat, &ts_dat);
	g_autoptr(GHashTable) txt = count_events(text, &n_txt, &ts_txt);
	/* raw.txt was printed by the kernel from the same buffer just before
	 * the pages were read out. */
	CU_ASSERT(n_dat > 100);
	CU_ASSERT_EQUAL(n_dat, n_txt);
	CU_ASSERT_EQUAL(g_hash_table_size(dat), g_hash_table_size(txt));
	GHashTableIter hi;
	gpointer k, v;
	g_hash_table_iter_init(&hi, txt);
	while (g_hash_table_iter_next(&hi, &k, &v)) {
		if (GPOINTER_TO_UINT(g_hash_table_lookup(dat, k)) != GPOINTER_TO_UINT(v))
			fprintf(stderr, "count differs: %s: text %u, trace.dat %u\n", (char *)k,
				GPOINTER_TO_UINT(v), GPOINTER_TO_UINT(g_hash_table_lookup(dat, k)));
		CU_ASSERT_EQUAL(GPOINTER_TO_UINT(g_hash_table_lookup(dat, k)), GPOINTER_TO_UINT(v));
	}
	/* The text has us; the trace.dat ns. */
	CU_ASSERT(llabs(ts_dat - ts_txt) <= (gint64)n_dat * 1000);
	g_unlink(out);
}

static void test_fixture_roundtrip(void)
{
	fixture_roundtrip(NULL);
}

/* The same pages stored as a buffer instance read back the same. */
static void test_fixture_roundtrip_instance(void)
{
	fixture_roundtrip("ftlens-test");
}

/* trace-cmd, when installed, reads the file without a word on stderr. */
static void test_fixture_trace_cmd(void)
{
	g_autofree char *tc = g_find_program_in_path("trace-cmd");
	if (!tc) {
		fprintf(stderr, "trace-cmd not installed: skipped\n");
		return;
	}
	g_autofree char *raw = g_build_filename(testdata(), "vm", "raw", "raw", NULL);
	g_autofree char *out = g_build_filename(tmpdir, "tc.dat", NULL);
	g_autoptr(GError) error = NULL;
	for (int named = 0; named < 2; named++) {
		FtlTracedatWriteOptions opt = { named ? "probe" : NULL, NULL };
		CU_ASSERT_TRUE_FATAL(ftl_tracedat_write(raw, out, &opt, &error));
		const char *argv[] = { tc, "report", "-i", out, NULL };
		g_autofree char *sout = NULL, *serr = NULL;
		int status = 0;
		CU_ASSERT_TRUE(g_spawn_sync(NULL, (char **)argv, NULL, G_SPAWN_DEFAULT, NULL, NULL,
					    &sout, &serr, &status, &error));
		CU_ASSERT_TRUE(g_spawn_check_wait_status(status, NULL));
		if (serr && *serr)
			fprintf(stderr, "trace-cmd report said: %s\n", serr);
		CU_ASSERT_STRING_EQUAL(serr, "");
		CU_ASSERT_PTR_NOT_NULL(strstr(sout, "sched_switch:"));
		CU_ASSERT_PTR_NOT_NULL(strstr(sout, "before raw"));
		/* An instance's lines carry its name, as trace-cmd record -B prints. */
		CU_ASSERT_EQUAL(strstr(sout, "probe: ") != NULL, named);
		g_unlink(out);
	}
}

static char *copy_raw(void)
{
	g_autofree char *raw = g_build_filename(testdata(), "vm", "raw", "raw", NULL);
	char *copy = g_build_filename(tmpdir, "rawcopy", NULL);
	const char *argv[] = { "cp", "-r", raw, copy, NULL };
	int status = 0;
	CU_ASSERT_TRUE(g_spawn_sync(NULL, (char **)argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL,
				    NULL, NULL, &status, NULL));
	return copy;
}

static void rm_rf(const char *path)
{
	const char *argv[] = { "rm", "-rf", path, NULL };
	g_spawn_sync(NULL, (char **)argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, NULL, NULL, NULL,
		     NULL);
}

static gboolean dir_has_only(const char *dir, const char *name)
{
	g_autoptr(GDir) d = g_dir_open(dir, 0, NULL);
	for (const char *n; (n = g_dir_read_name(d));)
		if (strcmp(n, name) != 0)
			return FALSE;
	return TRUE;
}

static void test_bad_staging(void)
{
	g_autofree char *copy = copy_raw();
	g_autofree char *out = g_build_filename(tmpdir, "bad.dat", NULL);
	g_autoptr(GError) error = NULL;

	/* A truncated page file: the error names it, and nothing is written. */
	g_autofree char *cpu1 = g_build_filename(copy, "per_cpu", "cpu1", "trace_pipe_raw", NULL);
	CU_ASSERT_EQUAL(truncate(cpu1, 5000), 0);
	CU_ASSERT_FALSE(ftl_tracedat_write(copy, out, NULL, &error));
	CU_ASSERT_PTR_NOT_NULL(error && strstr(error->message, cpu1));
	CU_ASSERT_PTR_NOT_NULL(error && strstr(error->message, "whole number"));
	CU_ASSERT_FALSE(g_file_test(out, G_FILE_TEST_EXISTS));
	CU_ASSERT_TRUE(dir_has_only(tmpdir, "rawcopy"));
	g_clear_error(&error);

	/* No page header: the error names events/header_page. */
	g_autofree char *hp = g_build_filename(copy, "events", "header_page", NULL);
	CU_ASSERT_TRUE(g_file_set_contents(hp, "nothing here\n", -1, NULL));
	CU_ASSERT_FALSE(ftl_tracedat_write(copy, out, NULL, &error));
	CU_ASSERT_PTR_NOT_NULL(error && strstr(error->message, "header_page"));
	CU_ASSERT_FALSE(g_file_test(out, G_FILE_TEST_EXISTS));
	CU_ASSERT_TRUE(dir_has_only(tmpdir, "rawcopy"));
	g_clear_error(&error);

	/* An output directory that does not exist. */
	g_autofree char *nowhere = g_build_filename(tmpdir, "no", "such", "x.dat", NULL);
	CU_ASSERT_FALSE(ftl_tracedat_write(copy, nowhere, NULL, &error));
	CU_ASSERT_PTR_NOT_NULL(error && strstr(error->message, nowhere));
	g_clear_error(&error);
	rm_rf(copy);
}

static void test_cpustats_parse(void)
{
	FtlCpuStats st;
	ftl_cpustats_parse("entries: 274\noverrun: 3\ncommit overrun: 1\nbytes: 9980\n"
			   "oldest event ts:     3.438869\nnow ts:     3.819352\n"
			   "dropped events: 7\nread events: 42\n",
			   &st);
	CU_ASSERT_EQUAL(st.entries, 274);
	CU_ASSERT_EQUAL(st.overrun, 3);
	CU_ASSERT_EQUAL(st.commit_overrun, 1);
	CU_ASSERT_EQUAL(st.bytes, 9980);
	CU_ASSERT_EQUAL(st.dropped, 7);
	CU_ASSERT_EQUAL(st.read, 42);
	ftl_cpustats_parse("", &st);
	CU_ASSERT_EQUAL(st.overrun, 0);
}

static void test_bracketed(void)
{
	g_autofree char *a = ftl_tracefs_bracketed("local [global] counter\n");
	CU_ASSERT_STRING_EQUAL(a, "global");
	g_autofree char *b = ftl_tracefs_bracketed("local global\n");
	CU_ASSERT_PTR_NULL(b);
}

int main(void)
{
	tmpdir = g_dir_make_tmp("ftl-tdw-XXXXXX", NULL);
	if (!tmpdir)
		return 99;
	const UnitTest tests[] = {
		{ "fixture round trip", test_fixture_roundtrip },
		{ "fixture round trip as an instance", test_fixture_roundtrip_instance },
		{ "fixture read by trace-cmd", test_fixture_trace_cmd },
		{ "bad staging directories", test_bad_staging },
		{ "cpu stats", test_cpustats_parse },
		{ "bracketed choice", test_bracketed },
		{ NULL, NULL },
	};
	int rc = unit_run("tracedat-write", tests);
	rm_rf(tmpdir);
	g_free(tmpdir);
	return rc;
}
