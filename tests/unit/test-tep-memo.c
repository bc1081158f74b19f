/* SPDX-License-Identifier: GPL-2.0-or-later */
/* parse/tep-memo.c: a trace.dat opened again in the same process reads
 * the same events, from what the first open kept (the bprint texts; the
 * process's format child), and the memo of the last file closed is kept
 * until another file's replaces it. The format child's verdicts are kept
 * by the question's bytes for the process. */
#include "config.h"

#include <signal.h>
#include <string.h>

#include "model/iter.h"
#include "parse/open.h"
#include "parse/tep-memo.h"
#include "unit.h"

/* Every event of path as text (time, CPU, kind, a marker's text). */
static char *memo_read(const char *path, guint *markers)
{
	g_autoptr(GError) error = NULL;
	FtlTrace *trace = ftl_trace_open(path, FTL_OPEN_NONE, &error);
	CU_ASSERT_PTR_NOT_NULL_FATAL(trace);
	FtlIter *it = ftl_iter_new(trace, NULL);
	GString *s = g_string_new(NULL);
	const FtlEvent *ev;
	*markers = 0;
	while (ftl_iter_next(it, &ev, &error) == FTL_STATUS_OK) {
		g_string_append_printf(s, "%" G_GINT64_FORMAT " %d %d", ev->ts, ev->cpu, ev->kind);
		if (ev->kind == FTL_EVENT_MARKER) {
			g_string_append_c(s, ' ');
			g_string_append_len(s, ev->u.marker.text.p, ev->u.marker.text.len);
			(*markers)++;
		}
		g_string_append_c(s, '\n');
	}
	CU_ASSERT_PTR_NULL(error);
	/* and what the reading counted of formats it could not use */
	g_string_append_printf(s, "bad_format %" G_GUINT64_FORMAT "\n",
			       ftl_diags_get(ftl_trace_diags(trace), FTL_DIAG_BAD_FORMAT)->count);
	ftl_iter_free(it);
	ftl_trace_free(trace);
	return g_string_free(s, FALSE);
}

static void memo_twice(const char *path, gboolean want_markers)
{
	guint m1, m2;
	g_autofree char *first = memo_read(path, &m1);
	/* closed: the file's memo is kept, and the process's format child */
	FtlTepMemo *memo = ftl_tep_memo_get(path);
	CU_ASSERT_TRUE(ftl_tep_memo_opened(memo));
	FtlTrialServer *child = ftl_tep_memo_trials();
	CU_ASSERT_PTR_NOT_NULL(child);
	/* read again while held: the same child serves, the same events come */
	g_autofree char *again = memo_read(path, &m2);
	CU_ASSERT_PTR_EQUAL(ftl_tep_memo_trials(), child);
	CU_ASSERT_STRING_EQUAL(first, again);
	CU_ASSERT_EQUAL(m1, m2);
	if (want_markers)
		CU_ASSERT(m1 > 1000);
	ftl_tep_memo_unref(memo);
}

static void test_overrun_twice(void)
{
	const char *data = g_getenv("FTL_TESTDATA") ? g_getenv("FTL_TESTDATA") : "tests/data";
	g_autofree char *path = g_build_filename(data, "overrun", "overrun.dat", NULL);
	memo_twice(path, FALSE);
}

/* A capture of 6,256 bprint markers: their text rendered once, kept. */
static void test_markers_twice(void)
{
	const char *real = g_getenv("FTL_REAL_DATA");
	g_autofree char *path =
		real ? g_build_filename(real, "raw", "lisa_rtapp_6cpu_trace.dat", NULL) : NULL;
	if (!path || !g_file_test(path, G_FILE_TEST_EXISTS)) {
		fprintf(stderr, "skip: needs $FTL_REAL_DATA/raw/lisa_rtapp_6cpu_trace.dat ");
		return;
	}
	memo_twice(path, TRUE);
}

/* A bprint record whose format libtraceevent may not be given (no fmt
 * field): its empty text is not kept, so that the second open counts it as
 * the first did. */
static void test_refused_bprint_twice(void)
{
	const char *data = g_getenv("FTL_TESTDATA") ? g_getenv("FTL_TESTDATA") : "tests/data";
	g_autofree char *path =
		g_build_filename(data, "..", "fuzz", "regress", "tracedat",
				 "libtraceevent-bprint-render-null-read.dat", NULL);
	guint m1, m2;
	g_autofree char *first = memo_read(path, &m1);
	CU_ASSERT_PTR_NOT_NULL(strstr(first, "bad_format 1\n"));
	/* the file's memo kept from the first: the second reads through it */
	g_autofree char *again = memo_read(path, &m2);
	CU_ASSERT_STRING_EQUAL(first, again);
}

/* Another file's memo replaces the kept one; a memo of no file is its own. */
static void test_kept_one(void)
{
	const char *data = g_getenv("FTL_TESTDATA") ? g_getenv("FTL_TESTDATA") : "tests/data";
	g_autofree char *a = g_build_filename(data, "overrun", "overrun.dat", NULL);
	g_autofree char *b = g_build_filename(data, "vm", "fgraph-basic", "trace.txt", NULL);
	FtlTepMemo *ma = ftl_tep_memo_get(a);
	ftl_tep_memo_set_opened(ma);
	ftl_tep_memo_unref(ma); /* kept */
	FtlTepMemo *again = ftl_tep_memo_get(a);
	CU_ASSERT_PTR_EQUAL(again, ma);
	CU_ASSERT_TRUE(ftl_tep_memo_opened(again));
	ftl_tep_memo_unref(again);
	FtlTepMemo *mb = ftl_tep_memo_get(b);
	CU_ASSERT_PTR_NOT_EQUAL(mb, ma);
	ftl_tep_memo_unref(mb); /* replaces a's */
	FtlTepMemo *fresh = ftl_tep_memo_get(a);
	CU_ASSERT_FALSE(ftl_tep_memo_opened(fresh));
	/* texts: kept by the record's bytes */
	CU_ASSERT_PTR_NULL(ftl_tep_memo_text(fresh, "abc", 3));
	const char *t = ftl_tep_memo_add_text(fresh, "abc", 3, "rendered");
	CU_ASSERT_STRING_EQUAL(t, "rendered");
	CU_ASSERT_PTR_EQUAL(ftl_tep_memo_text(fresh, "abc", 3), t);
	CU_ASSERT_PTR_NULL(ftl_tep_memo_text(fresh, "abd", 3));
	ftl_tep_memo_unref(fresh);
	FtlTepMemo *own = ftl_tep_memo_get(NULL);
	FtlTepMemo *own2 = ftl_tep_memo_get(NULL);
	CU_ASSERT_PTR_NOT_EQUAL(own, own2);
	ftl_tep_memo_unref(own);
	ftl_tep_memo_unref(own2);
}

/* The process's format child, as a stand-in: "crash" kills it, "fail"
 * fails. */
static int memo_step(gpointer ctx, int arg)
{
	(void)ctx, (void)arg;
	gsize len;
	const char *p = ftl_trial_payload(&len);
	if (strcmp(p, "crash") == 0)
		raise(SIGSEGV);
	return strcmp(p, "fail") == 0;
}

static void test_verdicts(void)
{
	ftl_tep_memo_set_trials(ftl_trial_server_new(memo_step, NULL));
	CU_ASSERT_FALSE(ftl_tep_memo_trials_unfit());
	CU_ASSERT_EQUAL(ftl_tep_memo_try(0, "fine", 4), FTL_TRIAL_OK);
	CU_ASSERT_EQUAL(ftl_tep_memo_try(0, "fail", 4), FTL_TRIAL_FAILED);
	CU_ASSERT_EQUAL(ftl_tep_memo_try(0, "crash", 5), FTL_TRIAL_CRASHED);
	CU_ASSERT_TRUE(ftl_tep_memo_trials_unfit());
	/* the child gone: what it answered stands; what it was not asked is
	 * not parsed, and that is no verdict */
	CU_ASSERT_EQUAL(ftl_tep_memo_try(0, "fine", 4), FTL_TRIAL_OK);
	CU_ASSERT_EQUAL(ftl_tep_memo_try(0, "fail", 4), FTL_TRIAL_FAILED);
	CU_ASSERT_EQUAL(ftl_tep_memo_try(0, "fresh", 5), FTL_TRIAL_CRASHED);
	/* a new child is asked that one; the crash is known, not asked again
	 * (the child would be gone) */
	ftl_tep_memo_set_trials(ftl_trial_server_new(memo_step, NULL));
	CU_ASSERT_EQUAL(ftl_tep_memo_try(0, "fresh", 5), FTL_TRIAL_OK);
	CU_ASSERT_EQUAL(ftl_tep_memo_try(0, "crash", 5), FTL_TRIAL_CRASHED);
	CU_ASSERT_FALSE(ftl_tep_memo_trials_unfit());
	/* no child at all: the caller takes the risk */
	ftl_tep_memo_set_trials(NULL);
	CU_ASSERT_EQUAL(ftl_tep_memo_try(0, "other", 5), FTL_TRIAL_OK);
	CU_ASSERT_TRUE(ftl_tep_memo_trials_unfit());
}

int main(void)
{
	static const UnitTest tests[] = {
		{ "a trace.dat read twice: the same events, the same format child",
		  test_overrun_twice },
		{ "6,256 bprint markers read twice: the same texts", test_markers_twice },
		{ "a refused bprint read twice: counted each time", test_refused_bprint_twice },
		{ "the memo of the last file closed is kept, one only", test_kept_one },
		{ "format verdicts kept by the question, a dead child's not", test_verdicts },
		{ NULL, NULL },
	};
	return unit_run("tep-memo", tests);
}
