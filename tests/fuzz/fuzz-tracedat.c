/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Fuzz target: a trace.dat file (libtracecmd behind parse/tracecmd-guard.c),
 * all buffers merged, then every analysis and view. */
#include "config.h"

#include "fuzz.h"

#include "parse/open.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_init();
	const char *path = fuzz_memfile(0, data, size);
	g_autoptr(GError) error = NULL;
	g_autoptr(FtlTrace) trace = ftl_trace_open_with(path, FTL_OPEN_NONE, &fuzz_read, &error);
	if (trace)
		fuzz_run_trace(trace, fuzz_selector(data, size));
	return 0;
}
