/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Fuzz target: one text trace file of any dialect (cat trace, trace_pipe,
 * latency, function_graph, trace-cmd report), detected as a command's operand
 * is (parse/open.c), then every analysis and view. Built twice: fuzz-text and
 * fuzz-tcreport differ in their corpus and dictionary only. */
#include "config.h"

#include "fuzz.h"

#include "parse/open.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_init();
	/* --strict for a seventh of the inputs: its first-error path too */
	FtlOpenFlags flags = size % 7 == 3 ? FTL_OPEN_STRICT : FTL_OPEN_NONE;
	g_autoptr(GError) error = NULL;
	/* in memory: a file per input would cost a map and an unmap each */
	g_autoptr(FtlTrace) trace =
		ftl_trace_open_memory("fuzz", g_memdup2(data, size), size, flags, &fuzz_read,
				      &error);
	if (trace)
		fuzz_run_trace(trace, fuzz_selector(data, size));
	else
		g_assert(error && error->message);
	return 0;
}
