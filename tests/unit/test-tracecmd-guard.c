/* SPDX-License-Identifier: GPL-2.0-or-later */
/* parse/tracecmd-guard.c: a trace.dat libtracecmd refuses (at its first
 * bytes, or its CPU data that it would crash on) is refused each time it
 * is opened, and keeps no descriptor: a process that opens thousands (a
 * fuzz campaign, a TUI reopening) does not run out. */
#include "config.h"

#include <dirent.h>

#include "parse/open.h"
#include "unit.h"

static guint open_fds(void)
{
	guint n = 0;
	DIR *d = opendir("/proc/self/fd");
	CU_ASSERT_PTR_NOT_NULL_FATAL(d);
	while (readdir(d))
		n++;
	closedir(d);
	return n;
}

/* path (in tests/fuzz/regress/tracedat) refused 40 times, with the
 * message want; the process's descriptors the same after as after the
 * first (which may leave the process's format child's pipes). */
static void refused_keeps_no_fd(const char *name, const char *want)
{
	const char *data = g_getenv("FTL_TESTDATA") ? g_getenv("FTL_TESTDATA") : "tests/data";
	g_autofree char *path =
		g_build_filename(data, "..", "fuzz", "regress", "tracedat", name, NULL);
	guint before = 0;
	for (int i = 0; i < 40; i++) {
		g_autoptr(GError) error = NULL;
		FtlTrace *trace = ftl_trace_open(path, FTL_OPEN_NONE, &error);
		CU_ASSERT_PTR_NULL(trace);
		CU_ASSERT_PTR_NOT_NULL_FATAL(error);
		CU_ASSERT_PTR_NOT_NULL(strstr(error->message, want));
		if (i == 0)
			before = open_fds();
	}
	CU_ASSERT_EQUAL(open_fds(), before);
}

/* libtracecmd read the headers; its CPU data would crash it: the handle
 * is parked, its descriptor closed */
static void test_parked_keeps_no_fd(void)
{
	refused_keeps_no_fd("libtracecmd-init-data-kbuffer.dat", "its CPU data is damaged");
}

/* libtracecmd 1.3's tracecmd_open_head() refuses a version it does not
 * know in tracecmd_alloc_fd() and leaves the file open */
static void test_alloc_refused_keeps_no_fd(void)
{
	refused_keeps_no_fd("libtracecmd-alloc-refused-fd-kept.dat", "Unsupported file version 60");
}

int main(void)
{
	static const UnitTest tests[] = {
		{ "a trace.dat refused after its headers keeps no descriptor",
		  test_parked_keeps_no_fd },
		{ "a trace.dat libtracecmd refuses at its first bytes keeps no descriptor",
		  test_alloc_refused_keeps_no_fd },
		{ NULL, NULL },
	};
	return unit_run("tracecmd-guard", tests);
}
