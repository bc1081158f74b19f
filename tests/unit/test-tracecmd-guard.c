/* SPDX-License-Identifier: GPL-2.0-or-later */
/* parse/tracecmd-guard.c: a trace.dat whose CPU data libtracecmd refuses
 * (or would crash on) is refused each time it is opened, and the handle
 * parked for it keeps no descriptor: a process that opens thousands (a
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

static void test_refused_keeps_no_fd(void)
{
	const char *data = g_getenv("FTL_TESTDATA") ? g_getenv("FTL_TESTDATA") : "tests/data";
	g_autofree char *path = g_build_filename(data, "..", "fuzz", "regress", "tracedat",
						 "libtracecmd-init-data-kbuffer.dat", NULL);
	guint before = 0;
	for (int i = 0; i < 40; i++) {
		g_autoptr(GError) error = NULL;
		FtlTrace *trace = ftl_trace_open(path, FTL_OPEN_NONE, &error);
		CU_ASSERT_PTR_NULL(trace);
		CU_ASSERT_PTR_NOT_NULL_FATAL(error);
		CU_ASSERT_PTR_NOT_NULL(strstr(error->message, "its CPU data is damaged"));
		/* the first open may leave the process's format child's pipes */
		if (i == 0)
			before = open_fds();
	}
	CU_ASSERT_EQUAL(open_fds(), before);
}

int main(void)
{
	static const UnitTest tests[] = {
		{ "a trace.dat refused after its headers keeps no descriptor",
		  test_refused_keeps_no_fd },
		{ NULL, NULL },
	};
	return unit_run("tracecmd-guard", tests);
}
