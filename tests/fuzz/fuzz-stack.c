/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Fuzz target: the stack tracer's files (stack_trace tables of every layout,
 * stack_max_size values, ftlens stack series), then the stack hogs and the
 * diff of the first table against the last, in every format. */
#include "config.h"

#include "fuzz.h"

#include <stdio.h>

#include "analysis/stackhog.h"
#include "parse/stacktrace.h"
#include "views/stack.h"
#include "views/table.h"

static void stack_views(FtlStackSet *set)
{
	guint n = ftl_stack_set_n_tables(set);
	g_autofree const FtlStackTable **tables = g_new(const FtlStackTable *, n + 1);
	for (guint i = 0; i < n; i++)
		tables[i] = ftl_stack_set_table(set, i);
	g_autoptr(FtlStackHogs) h = ftl_stackhog_new(tables, n);
	g_autoptr(FtlStackDiff) d = n ? ftl_stackdiff_new(tables[0], tables[n - 1]) : NULL;
	static const char *const names[] = { "stack text", "stack csv", "stack json" };
	static const char *const diff_names[] = { "stack diff text", "stack diff csv",
						  "stack diff json" };
	for (int f = FTL_FORMAT_TEXT; f <= FTL_FORMAT_JSON; f++) {
		FuzzCapture c;
		ftl_stack_view_print(set, h, (FtlFormat)f, 5, NULL, &fuzz_text_style,
				     fuzz_capture_open(&c));
		fuzz_capture_check(&c, names[f], f);
		if (!d)
			continue;
		ftl_stack_view_print_diff(set, tables[0], 1, tables[n - 1], 1, d, (FtlFormat)f, 5, &fuzz_text_style,
					  fuzz_capture_open(&c));
		fuzz_capture_check(&c, diff_names[f], f);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_init();
	g_autoptr(FtlStackSet) set = ftl_stack_set_new();
	g_autoptr(GError) error = NULL;
	if (!ftl_stacktrace_read_data(set, "fuzz", (const char *)data, size, &error))
		return 0;
	ftl_stacktrace_finish(set);
	stack_views(set);
	return 0;
}
