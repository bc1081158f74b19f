/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests of libftlens-marker (src/marker/marker.c) with a regular file in
 * place of trace_marker: one write() per marker, truncation, the wall-clock
 * format as ftlens parses it, tracing_on, and the no-op paths. write() is
 * wrapped (-Wl,--wrap=write) so that every call the library makes is seen. */
#include "config.h"

#include <errno.h>
#include <ftlens/marker.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <signal.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "analysis/markers.h"
#include "unit.h"

/* ---- write() as the library calls it ----------------------------------- */

#define REC_MAX 16
static struct {
	gboolean on;
	guint n;	     /* calls seen while on */
	size_t len[REC_MAX]; /* bytes asked for */
	ssize_t fake_ret;    /* >= 0: pretend the kernel took this many */
	guint fail_eintr;    /* fail this many calls with EINTR first */
} rec;

ssize_t __real_write(int fd, const void *buf, size_t n);
ssize_t __wrap_write(int fd, const void *buf, size_t n);

ssize_t __wrap_write(int fd, const void *buf, size_t n)
{
	if (rec.on) {
		if (rec.n < REC_MAX)
			rec.len[rec.n] = n;
		rec.n++;
		if (rec.fail_eintr) {
			rec.fail_eintr--;
			errno = EINTR;
			return -1;
		}
		if (rec.fake_ret >= 0)
			n = MIN(n, (size_t)rec.fake_ret);
	}
	return __real_write(fd, buf, n);
}

static void rec_start(void)
{
	memset(&rec, 0, sizeof rec);
	rec.fake_ret = -1;
	rec.on = TRUE;
}

/* ---- a temp dir with trace_marker and tracing_on ------------------------ */

typedef struct {
	char *dir;
	char *marker;
	char *on;
} Fake;

static void fake_init(Fake *f, gboolean with_on)
{
	f->dir = g_dir_make_tmp("ftl-marker-XXXXXX", NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(f->dir);
	f->marker = g_build_filename(f->dir, "trace_marker", NULL);
	f->on = g_build_filename(f->dir, "tracing_on", NULL);
	CU_ASSERT_TRUE_FATAL(g_file_set_contents(f->marker, "", 0, NULL));
	if (with_on)
		CU_ASSERT_TRUE_FATAL(g_file_set_contents(f->on, "", 0, NULL));
	g_unsetenv("FTLENS_TRACEFS");
	g_setenv("FTLENS_TRACE_MARKER", f->marker, TRUE);
}

static char *fake_read(const char *path)
{
	char *s = NULL;
	if (!g_file_get_contents(path, &s, NULL, NULL))
		return g_strdup("<unreadable>");
	return s;
}

static void fake_clear(Fake *f)
{
	g_unlink(f->marker);
	g_unlink(f->on);
	g_rmdir(f->dir);
	g_free(f->dir);
	g_free(f->marker);
	g_free(f->on);
	g_unsetenv("FTLENS_TRACE_MARKER");
}

/* ---- tests ---------------------------------------------------------------- */

static void test_marker_env_file(void)
{
	Fake f;
	fake_init(&f, TRUE);
	ftlens_marker *m = ftlens_marker_open();
	CU_ASSERT_EQUAL(ftlens_marker_status(m), 0);
	CU_ASSERT_STRING_EQUAL(ftlens_marker_path(m), f.marker);
	rec_start();
	CU_ASSERT_EQUAL(ftlens_marker_print(m, "alpha"), 6);
	CU_ASSERT_EQUAL(ftlens_marker_printf(m, "beta %d %s\n", 42, "x"), 10);
	CU_ASSERT_EQUAL(ftlens_marker_write(m, "gamma\nXX", 6), 6);
	rec.on = FALSE;
	CU_ASSERT_EQUAL(rec.n, 3);
	CU_ASSERT_EQUAL(rec.len[0], 6);
	CU_ASSERT_EQUAL(rec.len[1], 10);
	CU_ASSERT_EQUAL(rec.len[2], 6);
	ftlens_marker_close(m);
	g_autofree char *s = fake_read(f.marker);
	CU_ASSERT_STRING_EQUAL(s, "alpha\nbeta 42 x\ngamma\n");
	fake_clear(&f);
}

static void test_marker_truncated_never_split(void)
{
	Fake f;
	fake_init(&f, TRUE);
	ftlens_marker *m = ftlens_marker_open();
	g_autofree char *big = g_strnfill(10000, 'a');
	rec_start();
	CU_ASSERT_EQUAL(ftlens_marker_printf(m, "%s", big), FTLENS_MARKER_MAX);
	CU_ASSERT_EQUAL(ftlens_marker_write(m, big, 5000), FTLENS_MARKER_MAX);
	CU_ASSERT_EQUAL(ftlens_marker_print(m, big), FTLENS_MARKER_MAX);
	CU_ASSERT_EQUAL(ftlens_marker_write(m, big, FTLENS_MARKER_MAX), FTLENS_MARKER_MAX);
	/* one byte less fits with its newline; text ending in one is kept as is */
	CU_ASSERT_EQUAL(ftlens_marker_write(m, big, FTLENS_MARKER_MAX - 1), FTLENS_MARKER_MAX);
	big[FTLENS_MARKER_MAX - 1] = '\n';
	CU_ASSERT_EQUAL(ftlens_marker_write(m, big, FTLENS_MARKER_MAX), FTLENS_MARKER_MAX);
	big[FTLENS_MARKER_MAX - 1] = 'a';
	/* the kernel may keep less (1 KiB before 6.8): one write, its count back */
	rec.fake_ret = 1024;
	CU_ASSERT_EQUAL(ftlens_marker_printf(m, "%s", big), 1024);
	rec.on = FALSE;
	CU_ASSERT_EQUAL(rec.n, 7);
	for (guint i = 0; i < 7; i++)
		CU_ASSERT_EQUAL(rec.len[i], FTLENS_MARKER_MAX);
	ftlens_marker_close(m);
	g_autofree char *s = fake_read(f.marker);
	CU_ASSERT_EQUAL(strlen(s), 6 * FTLENS_MARKER_MAX + 1024);
	/* six whole lines of a, then 1024 bytes the "kernel" kept */
	g_auto(GStrv) lines = g_strsplit(s, "\n", -1);
	CU_ASSERT_EQUAL_FATAL(g_strv_length(lines), 7);
	for (guint i = 0; i < 6; i++)
		CU_ASSERT_EQUAL(strspn(lines[i], "a"), FTLENS_MARKER_MAX - 1);
	CU_ASSERT_EQUAL(strlen(lines[6]), 1024);
	fake_clear(&f);
}

static void test_marker_eintr_retried(void)
{
	Fake f;
	fake_init(&f, TRUE);
	ftlens_marker *m = ftlens_marker_open();
	rec_start();
	rec.fail_eintr = 2;
	errno = EDOM;
	CU_ASSERT_EQUAL(ftlens_marker_print(m, "once"), 5);
	CU_ASSERT_EQUAL(errno, EDOM);
	rec.on = FALSE;
	CU_ASSERT_EQUAL(rec.n, 3);
	ftlens_marker_close(m);
	g_autofree char *s = fake_read(f.marker);
	CU_ASSERT_STRING_EQUAL(s, "once\n");
	fake_clear(&f);
}

static gint64 now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (gint64)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static void test_marker_wallclock_format(void)
{
	Fake f;
	fake_init(&f, TRUE);
	ftlens_marker *m = ftlens_marker_open();
	gint64 t0 = now_ns();
	rec_start();
	int n = ftlens_marker_wallclock(m);
	rec.on = FALSE;
	gint64 t1 = now_ns();
	CU_ASSERT_EQUAL(rec.n, 1);
	ftlens_marker_close(m);
	g_autofree char *s = fake_read(f.marker);
	CU_ASSERT_EQUAL(n, (int)strlen(s));
	CU_ASSERT_TRUE(
		g_regex_match_simple("^ftlens-wallclock: [1-9][0-9]*\\.[0-9]{9}\n$", s, 0, 0));
	/* the contract: ftlens's own parser reads the text (as the trace shows
	 * it, without the newline), and it is the time now */
	g_strchomp(s);
	gint64 wall = 0;
	CU_ASSERT_TRUE(ftl_markers_parse_wallclock(s, &wall));
	CU_ASSERT_TRUE(wall >= t0 && wall <= t1);
	fake_clear(&f);
}

static void test_marker_tracing_on_off(void)
{
	Fake f;
	fake_init(&f, TRUE);
	ftlens_marker *m = ftlens_marker_open();
	CU_ASSERT_EQUAL(ftlens_marker_tracing_on(m), 0);
	CU_ASSERT_EQUAL(ftlens_marker_tracing_off(m), 0);
	CU_ASSERT_EQUAL(ftlens_marker_tracing_on(m), 0);
	ftlens_marker_close(m);
	g_autofree char *s = fake_read(f.on);
	CU_ASSERT_STRING_EQUAL(s, "1\n0\n1\n");
	g_autofree char *mk = fake_read(f.marker);
	CU_ASSERT_STRING_EQUAL(mk, "");
	fake_clear(&f);
}

static void test_marker_no_tracing_on(void)
{
	/* markers work when tracing_on cannot be opened; on/off say why not */
	Fake f;
	fake_init(&f, FALSE);
	ftlens_marker *m = ftlens_marker_open();
	CU_ASSERT_EQUAL(ftlens_marker_status(m), 0);
	CU_ASSERT_EQUAL(ftlens_marker_tracing_off(m), -ENOENT);
	CU_ASSERT_EQUAL(ftlens_marker_print(m, "still"), 6);
	ftlens_marker_close(m);
	CU_ASSERT_FALSE(g_file_test(f.on, G_FILE_TEST_EXISTS));
	fake_clear(&f);
}

/* Every call on m returns want without a write(), errno untouched. */
static void assert_noop(ftlens_marker *m, int want)
{
	rec_start();
	errno = EDOM;
	CU_ASSERT_EQUAL(ftlens_marker_status(m), want);
	CU_ASSERT_PTR_NULL(ftlens_marker_path(m));
	CU_ASSERT_EQUAL(ftlens_marker_print(m, "x"), want);
	CU_ASSERT_EQUAL(ftlens_marker_write(m, "x", 1), want);
	CU_ASSERT_EQUAL(ftlens_marker_printf(m, "x %d", 1), want);
	CU_ASSERT_EQUAL(ftlens_marker_wallclock(m), want);
	CU_ASSERT_EQUAL(ftlens_marker_tracing_on(m), want);
	CU_ASSERT_EQUAL(ftlens_marker_tracing_off(m), want);
	ftlens_marker_close(m);
	CU_ASSERT_EQUAL(errno, EDOM);
	rec.on = FALSE;
	CU_ASSERT_EQUAL(rec.n, 0);
}

static void test_marker_noop_missing(void)
{
	g_unsetenv("FTLENS_TRACEFS");
	g_setenv("FTLENS_TRACE_MARKER", "/nonexistent/trace_marker", TRUE);
	errno = EDOM;
	ftlens_marker *m = ftlens_marker_open();
	CU_ASSERT_EQUAL(errno, EDOM);
	CU_ASSERT_PTR_NOT_NULL_FATAL(m);
	assert_noop(m, -ENOENT);
	/* set but empty: markers off, nothing searched */
	g_setenv("FTLENS_TRACE_MARKER", "", TRUE);
	assert_noop(ftlens_marker_open(), -ENOENT);
	g_unsetenv("FTLENS_TRACE_MARKER");
	assert_noop(ftlens_marker_open_path("/nonexistent/trace_marker"), -ENOENT);
	assert_noop(NULL, -EINVAL);
}

static void test_marker_noop_unwritable(void)
{
	Fake f;
	fake_init(&f, TRUE);
	/* a directory cannot be written, not even by root */
	g_setenv("FTLENS_TRACE_MARKER", f.dir, TRUE);
	assert_noop(ftlens_marker_open(), -EISDIR);
	if (geteuid() != 0) {
		g_chmod(f.marker, 0444);
		g_setenv("FTLENS_TRACE_MARKER", f.marker, TRUE);
		assert_noop(ftlens_marker_open(), -EACCES);
	}
	fake_clear(&f);
}

static void test_marker_tracefs_env(void)
{
	/* FTLENS_TRACEFS names the directory; FTLENS_TRACE_MARKER wins over it */
	Fake f;
	fake_init(&f, TRUE);
	g_unsetenv("FTLENS_TRACE_MARKER");
	g_setenv("FTLENS_TRACEFS", f.dir, TRUE);
	ftlens_marker *m = ftlens_marker_open();
	CU_ASSERT_STRING_EQUAL(ftlens_marker_path(m), f.marker);
	CU_ASSERT_EQUAL(ftlens_marker_tracing_off(m), 0);
	ftlens_marker_close(m);
	g_setenv("FTLENS_TRACE_MARKER", "/nonexistent/trace_marker", TRUE);
	assert_noop(ftlens_marker_open(), -ENOENT);
	g_unsetenv("FTLENS_TRACEFS");
	g_autofree char *s = fake_read(f.on);
	CU_ASSERT_STRING_EQUAL(s, "0\n");
	fake_clear(&f);
}

static void test_marker_open_path(void)
{
	Fake f;
	fake_init(&f, TRUE);
	g_setenv("FTLENS_TRACE_MARKER", "/nonexistent/trace_marker", TRUE);
	ftlens_marker *m = ftlens_marker_open_path(f.marker);
	CU_ASSERT_EQUAL(ftlens_marker_status(m), 0);
	CU_ASSERT_EQUAL(ftlens_marker_print(m, "p"), 2);
	CU_ASSERT_EQUAL(ftlens_marker_write(m, "", 0), 1);
	CU_ASSERT_EQUAL(ftlens_marker_tracing_on(m), 0);
	ftlens_marker_close(m);
	g_autofree char *s = fake_read(f.marker);
	CU_ASSERT_STRING_EQUAL(s, "p\n\n");
	fake_clear(&f);
}

/* ---- threads and signal handlers --------------------------------------- */

#define THREADS	   4
#define PER_THREAD 250

static gpointer thread_writer(gpointer data)
{
	ftlens_marker *m = data;
	for (int i = 0; i < PER_THREAD; i++)
		ftlens_marker_printf(m, "thread-marker %04d %s\n", i,
				     "0123456789012345678901234567890123456789");
	return NULL;
}

static void test_marker_threads(void)
{
	Fake f;
	fake_init(&f, TRUE);
	ftlens_marker *m = ftlens_marker_open();
	GThread *t[THREADS];
	for (int i = 0; i < THREADS; i++)
		t[i] = g_thread_new("writer", thread_writer, m);
	for (int i = 0; i < THREADS; i++)
		g_thread_join(t[i]);
	ftlens_marker_close(m);
	g_autofree char *s = fake_read(f.marker);
	g_auto(GStrv) lines = g_strsplit(s, "\n", -1);
	guint whole = 0;
	for (guint i = 0; lines[i]; i++)
		if (g_regex_match_simple(
			    "^thread-marker [0-9]{4} 0123456789012345678901234567890123456789$",
			    lines[i], 0, 0))
			whole++;
	/* every marker whole: no write was split or interleaved */
	CU_ASSERT_EQUAL(whole, THREADS * PER_THREAD);
	CU_ASSERT_EQUAL(g_strv_length(lines), THREADS * PER_THREAD + 1);
	fake_clear(&f);
}

static ftlens_marker *sig_m;
static volatile sig_atomic_t sig_rc;

static void sig_handler(int sig)
{
	(void)sig;
	int a = ftlens_marker_print(sig_m, "in handler\n");
	int b = ftlens_marker_wallclock(sig_m);
	int c = ftlens_marker_tracing_off(sig_m);
	sig_rc = a == 11 && b > 0 && c == 0;
}

static void test_marker_signal_handler(void)
{
	Fake f;
	fake_init(&f, TRUE);
	sig_m = ftlens_marker_open();
	struct sigaction sa = { 0 }, old;
	sa.sa_handler = sig_handler;
	sigemptyset(&sa.sa_mask);
	CU_ASSERT_EQUAL_FATAL(sigaction(SIGUSR1, &sa, &old), 0);
	raise(SIGUSR1);
	sigaction(SIGUSR1, &old, NULL);
	CU_ASSERT_TRUE(sig_rc);
	ftlens_marker_close(sig_m);
	g_autofree char *s = fake_read(f.marker);
	CU_ASSERT_TRUE(g_regex_match_simple("^in handler\nftlens-wallclock: [0-9]+\\.[0-9]{9}\n$",
					    s, 0, 0));
	g_autofree char *on = fake_read(f.on);
	CU_ASSERT_STRING_EQUAL(on, "0\n");
	fake_clear(&f);
}

int main(void)
{
	static const UnitTest tests[] = {
		{ "env file, one write each", test_marker_env_file },
		{ "truncated, never split", test_marker_truncated_never_split },
		{ "EINTR retried, errno kept", test_marker_eintr_retried },
		{ "wallclock format", test_marker_wallclock_format },
		{ "tracing on/off", test_marker_tracing_on_off },
		{ "no tracing_on beside", test_marker_no_tracing_on },
		{ "no-op when missing", test_marker_noop_missing },
		{ "no-op when unwritable", test_marker_noop_unwritable },
		{ "FTLENS_TRACEFS", test_marker_tracefs_env },
		{ "open_path", test_marker_open_path },
		{ "threads", test_marker_threads },
		{ "signal handler", test_marker_signal_handler },
		{ NULL, NULL },
	};
	return unit_run("marker", tests);
}
