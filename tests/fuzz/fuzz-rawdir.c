/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Fuzz target: a directory of raw ring-buffer pages and their formats given
 * as one file: sections "@@ RELPATH" (events/header_page,
 * events/SYS/NAME/format, per_cpu/cpuN/trace_pipe_raw, kallsyms,
 * printk_formats, saved_cmdlines, trace_clock; tests/fuzz/README.md),
 * written to a directory that is opened as a command opens it. */
#include "config.h"

#include "fuzz.h"

#include "parse/open.h"

#define RAWDIR_MAX_FILES 64

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *dir = fuzz_scratch_sections(data, size, "events/header_page", RAWDIR_MAX_FILES);
	g_autoptr(GError) error = NULL;
	g_autoptr(FtlTrace) trace = ftl_trace_open_with(dir, FTL_OPEN_NONE, &fuzz_read, &error);
	if (trace)
		fuzz_run_trace(trace, fuzz_selector(data, size));
	return 0;
}
