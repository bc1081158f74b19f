/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The trace.dat writer: a raw directory saved by a real 6.1 kernel (the VM
 * rig's tests/data/vm/raw/raw) becomes a trace.dat whose events, read back
 * through libtracecmd, are those the kernel printed as text; bad staging
 * directories give one error naming the file and leave no output behind.
 * Written files damaged on purpose (an event claiming more than its page, a
 * buffer option without its NUL) test the trace.dat reader's defences. */
#include "config.h"

#include <string.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "capture/tracedat-write.h"
#include "capture/tracefs.h"
#include "model/iter.h"
#include "model/source.h"
#include "parse/open.h"
#include "parse/tracedat-layout.h"
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
	/* the UNAME option names the release (what finds its debug info) */
	g_autoptr(FtlTrace) trace = ftl_trace_open(out, FTL_OPEN_NONE, &error);
	CU_ASSERT_PTR_NOT_NULL_FATAL(trace);
	CU_ASSERT_STRING_EQUAL(ftl_trace_kernel(trace), "6.1.0-57-cloud-amd64");
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

/* Puts bytes at offset off of a file. */
static void patch(const char *path, long off, const void *bytes, gsize n)
{
	FILE *f = fopen(path, "r+b");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	CU_ASSERT_EQUAL(fseek(f, off, SEEK_SET), 0);
	CU_ASSERT_EQUAL(fwrite(bytes, 1, n, f), n);
	fclose(f);
}

static void put32(guchar *p, guint32 v)
{
	memcpy(p, &v, 4); /* the fixture is little-endian, and so is this test's host */
}

/* Reads a trace.dat through the model: every event's fields by name and
 * its payload (the sanitizer build catches a read past a page), then the
 * first BAD_PAGE diagnostic's text and the filename of pid's exec. */
static char *read_back_bad_page(const char *path, gint pid, char **filename)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(FtlTrace) trace = ftl_trace_open(path, FTL_OPEN_NONE, &error);
	CU_ASSERT_PTR_NOT_NULL_FATAL(trace);
	g_autoptr(FtlIter) it = ftl_iter_new(trace, NULL);
	g_autoptr(GString) payload = g_string_new(NULL);
	const FtlEvent *ev;
	*filename = NULL;
	while (ftl_iter_next(it, &ev, &error) == FTL_STATUS_OK) {
		FtlSlice v;
		const char *keys[] = { "common_pid", "comm", "prev_comm", "filename", "pid" };
		for (guint i = 0; i < G_N_ELEMENTS(keys); i++)
			if (ftl_event_field(ev, keys[i], &v) && ev->pid == pid &&
			    strcmp(keys[i], "filename") == 0 && !*filename)
				*filename = g_strndup(v.p, v.len);
		g_string_truncate(payload, 0);
		if (ev->src)
			ftl_source_payload(ev->src, ev, payload);
	}
	const FtlDiagEntry *d = ftl_diags_get(ftl_trace_diags(trace), FTL_DIAG_BAD_PAGE);
	return d && d->count ? g_strdup(d->first_text) : NULL;
}

/* Writes n bytes of events at data offset at of CPU 0's third page in the
 * raw copy, and sets that page's commit (its data bytes) to commit. */
static void put_events(const char *cpu0, long at, const guchar *ev, gsize n, guint32 commit)
{
	const long page = 2 * 4096;
	patch(cpu0, page + 16 + at, ev, n);
	guchar c[8] = { 0 };
	put32(c, commit);
	patch(cpu0, page + 8, c, sizeof c);
}

/* Writes, at data offset at of CPU 0's third page in the raw copy, a
 * long-form event (type_len 0: a length word after the header, the data 8
 * bytes in) whose length word is len, holding a sched_process_exec (id 307)
 * of pid with filename name; then sets the page's commit to commit. */
static void put_exec(const char *cpu0, long at, guint32 len, gint pid, const char *name,
		     guint32 commit)
{
	guchar ev[8 + 28] = { 0 };
	put32(ev + 4, len);
	guchar *data = ev + 8;
	data[0] = 307 & 0xff;
	data[1] = 307 >> 8;
	put32(data + 4, (guint32)pid);
	put32(data + 8, (2u << 16) | 20); /* __data_loc: 2 bytes at 20 */
	put32(data + 12, (guint32)pid);
	put32(data + 16, (guint32)pid);
	data[20] = (guchar)name[0];
	put_events(cpu0, at, ev, sizeof ev, commit);
}

/* A print event (id 5, a trace_marker write) at data offset at of CPU 0's
 * third page whose length word len claims more than the page holds, its
 * text filling the page to its end without a NUL; the page's commit is set
 * to cover the event's header. */
static void put_print(const char *cpu0, long at, guint32 len)
{
	gsize n = (gsize)(4096 - (16 + at));
	g_autofree guchar *ev = g_malloc0(n);
	put32(ev + 4, len);
	guchar *data = ev + 8;
	data[0] = 5;
	put32(data + 4, 4244);
	memset(data + 16, 'A', n - 8 - 16);
	put_events(cpu0, at, ev, n, (guint32)at + 8);
}

/* trace-cmd convert to a version 7 file, zstd-compressed: libtracecmd then
 * reads the pages into buffers of their own size, where a read past a page
 * is one the sanitizer build reports. FALSE when trace-cmd is missing. */
static gboolean convert_v7(const char *in, const char *out)
{
	g_autofree char *tc = g_find_program_in_path("trace-cmd");
	if (!tc)
		return FALSE;
	const char *argv[] = {
		tc,  "convert", "--file-version", "7", "--compression", "zstd", "-i", in, "-o",
		out, NULL
	};
	int status = 0;
	CU_ASSERT_TRUE(g_spawn_sync(NULL, (char **)argv, NULL, G_SPAWN_STDOUT_TO_DEV_NULL, NULL,
				    NULL, NULL, NULL, &status, NULL));
	CU_ASSERT_TRUE(g_spawn_check_wait_status(status, NULL));
	return TRUE;
}

/* Damaged event headers claiming more than their page holds, in a trace.dat:
 * the data of an event starts 4 or 8 bytes after its header, so the bytes
 * left in the page are counted from there. CPU 0's third page of the
 * fixture holds 1824 data bytes (16 bytes of page header before them). */
static void test_event_past_page(void)
{
	g_autofree char *out = g_build_filename(tmpdir, "past.dat", NULL);
	g_autoptr(GError) error = NULL;
	/* libtracecmd's record reader: the event is cut to the page and read */
	g_setenv("FTLENS_TRACEDAT_READER", "libtracecmd", TRUE);
	{
		/* An event after those 1824 bytes whose length says its data runs
		 * 4 bytes past the page: 4096 + 4 - (16 + 1824 + 8) bytes. */
		g_autofree char *copy = copy_raw();
		g_autofree char *cpu0 =
			g_build_filename(copy, "per_cpu", "cpu0", "trace_pipe_raw", NULL);
		put_exec(cpu0, 1824, 2252 + 4, 4242, "x", 1824 + 8);
		CU_ASSERT_TRUE_FATAL(ftl_tracedat_write(copy, out, NULL, &error));
		g_autofree char *filename = NULL;
		g_autofree char *text = read_back_bad_page(out, 4242, &filename);
		CU_ASSERT_PTR_NOT_NULL(
			text && strstr(text, "an event of 2252 bytes in a page with 2248 left"));
		if (text)
			fprintf(stderr, "bad page: %s\n", text);
		/* cut to the page, the event still decodes */
		CU_ASSERT_STRING_EQUAL(filename ? filename : "(none)", "x");
		g_unlink(out);
		rm_rf(copy);
	}
	{
		/* The same with a marker whose text runs to the page's end: the
		 * field is read up to the event's size, so the size must stop
		 * at the page. In a compressed version 7 copy this third page is
		 * the last one of CPU 0, at the end of libtracecmd's buffer. */
		g_autofree char *copy = copy_raw();
		g_autofree char *cpu0 =
			g_build_filename(copy, "per_cpu", "cpu0", "trace_pipe_raw", NULL);
		put_print(cpu0, 1824, 2252 + 4);
		CU_ASSERT_TRUE_FATAL(ftl_tracedat_write(copy, out, NULL, &error));
		g_autofree char *v7 = g_build_filename(tmpdir, "past7.dat", NULL);
		for (int pass = 0; pass < 2; pass++) {
			if (pass == 1 && !convert_v7(out, v7)) {
				fprintf(stderr, "trace-cmd not installed: version 7 skipped\n");
				break;
			}
			const char *path = pass ? v7 : out;
			g_autoptr(FtlTrace) trace = ftl_trace_open(path, FTL_OPEN_NONE, &error);
			CU_ASSERT_PTR_NOT_NULL_FATAL(trace);
			g_autoptr(FtlIter) it = ftl_iter_new(trace, NULL);
			const FtlEvent *ev;
			gsize text_len = 0;
			while (ftl_iter_next(it, &ev, &error) == FTL_STATUS_OK)
				if (ev->kind == FTL_EVENT_MARKER && ev->pid == 4244)
					text_len = ev->u.marker.text.len;
			/* the text is the page's bytes after the header */
			CU_ASSERT_EQUAL(text_len, 2248 - 16);
			const FtlDiagEntry *d =
				ftl_diags_get(ftl_trace_diags(trace), FTL_DIAG_BAD_PAGE);
			CU_ASSERT_PTR_NOT_NULL(d && d->count && strstr(d->first_text, "2248 left"));
		}
		g_unlink(v7);
		g_unlink(out);
		rm_rf(copy);
	}
	{
		/* A full page: a sound event fills it up to its last 4 bytes,
		 * which hold the header of one with 12 bytes of data (type_len
		 * 3), wholly past the page: nothing of it may be read. */
		g_autofree char *copy = copy_raw();
		g_autofree char *cpu0 =
			g_build_filename(copy, "per_cpu", "cpu0", "trace_pipe_raw", NULL);
		put_exec(cpu0, 1824, 4076 - (1824 + 8) + 4, 4243, "y", 4080);
		guchar last[4] = { 0 };
		put32(last, 3);
		patch(cpu0, 2 * 4096 + 16 + 4076, last, sizeof last);
		CU_ASSERT_TRUE_FATAL(ftl_tracedat_write(copy, out, NULL, &error));
		g_autofree char *filename = NULL;
		g_autofree char *text = read_back_bad_page(out, 4243, &filename);
		CU_ASSERT_PTR_NOT_NULL(text &&
				       strstr(text, "an event of 12 bytes in a page with 0 left"));
		if (text)
			fprintf(stderr, "bad page: %s\n", text);
		/* the event before it ends at the page's end: sound, and read */
		CU_ASSERT_STRING_EQUAL(filename ? filename : "(none)", "y");
		g_unlink(out);
		rm_rf(copy);
	}
	g_unsetenv("FTLENS_TRACEDAT_READER");
}

/* The same damage through ftlens's own page reader (the default): the page
 * is read up to the damaged event and the rest skipped, with one
 * diagnostic naming the CPU, the page's file offset and the event's. */
static void test_event_past_page_own_reader(void)
{
	g_autofree char *out = g_build_filename(tmpdir, "past-own.dat", NULL);
	g_autoptr(GError) error = NULL;
	g_autofree char *copy = copy_raw();
	g_autofree char *cpu0 = g_build_filename(copy, "per_cpu", "cpu0", "trace_pipe_raw", NULL);
	put_exec(cpu0, 1824, 2252 + 4, 4242, "x", 1824 + 8);
	CU_ASSERT_TRUE_FATAL(ftl_tracedat_write(copy, out, NULL, &error));
	g_autofree char *filename = NULL;
	g_autofree char *text = read_back_bad_page(out, 4242, &filename);
	CU_ASSERT_PTR_NOT_NULL(text && strstr(text, "CPU 0: page at file offset ") &&
			       strstr(text, "event at data offset 1824 runs past the page's 1832 "
					    "committed bytes"));
	/* nothing of the damaged event is made up */
	CU_ASSERT_PTR_NULL(filename);
	g_unlink(out);
	rm_rf(copy);
}

/* A buffer option whose name lost its NUL: libtracecmd copies the name
 * with strdup() and reads past the option (the sanitizer build aborts on
 * that). ftlens tries the headers in a child first: the file is refused
 * with one error naming it, or read when the copy happened to stop. */
static void test_option_without_nul(void)
{
	g_autofree char *raw = g_build_filename(testdata(), "vm", "raw", "raw", NULL);
	g_autofree char *out = g_build_filename(tmpdir, "nonul.dat", NULL);
	g_autoptr(GError) error = NULL;
	FtlTracedatWriteOptions opt = { "ftlensnamewithoutnul", NULL };
	CU_ASSERT_TRUE_FATAL(ftl_tracedat_write(raw, out, &opt, &error));
	g_autofree char *bytes = NULL;
	gsize n = 0;
	CU_ASSERT_TRUE_FATAL(g_file_get_contents(out, &bytes, &n, NULL));
	const char *name = "ftlensnamewithoutnul";
	gsize len = strlen(name) + 1, hits = 0;
	for (gsize i = 0; i + len <= n; i++)
		if (memcmp(bytes + i, name, len) == 0) {
			bytes[i + len - 1] = 'X'; /* the option ends there */
			hits++;
		}
	CU_ASSERT_EQUAL(hits, 1);
	CU_ASSERT_TRUE_FATAL(g_file_set_contents(out, bytes, (gssize)n, NULL));
	g_autoptr(FtlTrace) trace = ftl_trace_open(out, FTL_OPEN_NONE, &error);
	if (!trace) {
		CU_ASSERT_PTR_NOT_NULL(error && strstr(error->message, out));
		if (error)
			fprintf(stderr, "refused: %s\n", error->message);
	}
	g_unlink(out);
}

/* The HOOK options libtracecmd 1.3 reads, and those it dereferences NULL
 * on (tracecmd_create_event_hook() returns NULL for them). */
static void test_hook_option(void)
{
	static const char *const ok[] = {
		"sched:sched_waking,pid/sched:sched_switch,next_pid",
		"ev,m/ev2,m2",
		"ev,m,123/ev2,m2,PS",
		"sys:ev,m,1/sys2:ev2,m2,g",
		",ev,m/ev2,m2", /* a leading ',' is skipped as strtok skips it */
	};
	static const char *const bad[] = {
		"", ":", "x", "ev,m", "ev,m/", "ev,m/ev2", "ev,m/ev2,", "ev,m/ev2,m2,",
		"ev,m,/ev2,m2", "sys:/ev2,m2", "ev,m/sys:",
	};
	for (guint i = 0; i < G_N_ELEMENTS(ok); i++)
		CU_ASSERT_TRUE(ftl_dat_hook_parses(ok[i]));
	for (guint i = 0; i < G_N_ELEMENTS(bad); i++) {
		CU_ASSERT_FALSE(ftl_dat_hook_parses(bad[i]));
		if (ftl_dat_hook_parses(bad[i]))
			fprintf(stderr, "taken: '%s'\n", bad[i]);
	}
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
	g_autofree char *a = ftl_trace_clock_selected("local [global] counter\n");
	CU_ASSERT_STRING_EQUAL(a, "global");
	g_autofree char *b = ftl_trace_clock_selected("local global\n");
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
		{ "an event claiming more than its page", test_event_past_page },
		{ "the same through ftlens's page reader", test_event_past_page_own_reader },
		{ "a buffer option without its NUL", test_option_without_nul },
		{ "HOOK options libtracecmd reads", test_hook_option },
		{ "cpu stats", test_cpustats_parse },
		{ "bracketed choice", test_bracketed },
		{ NULL, NULL },
	};
	int rc = unit_run("tracedat-write", tests);
	rm_rf(tmpdir);
	g_free(tmpdir);
	return rc;
}
