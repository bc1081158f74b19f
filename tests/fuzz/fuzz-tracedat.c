/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Fuzz target: a trace.dat file (libtracecmd behind parse/tracecmd-guard.c),
 * all buffers merged, then every analysis and view. */
#include "config.h"

#include "fuzz.h"

#include "parse/open.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* In-process: the header read and the formats are VALIDATED before
	 * libtracecmd and libtraceevent see them (parse/tracedat.c says per
	 * call how: the layout by tracedat-layout.c, the printk lines and event
	 * formats by tep-check.c), so a crash inside a library here is a hole
	 * in that validation, a finding. The product keeps its trial children
	 * as a second line; the calls they are the only line for fork here
	 * too (ftl_trial_run_only_line): init_data and instances, for the
	 * files whose pages libtracecmd reads, and the event formats' print
	 * fmts past the faults tep-check.c knows (the process's format
	 * child, forked once and kept across inputs: parse/tep.h). A fork
	 * per input cost 10.3 ms of CPU against 1.0 ms for the rest
	 * (bench/fuzz-results.md). */
	fuzz_trials_off();
	fuzz_init();
	const char *path = fuzz_memfile(0, data, size);
	g_autoptr(GError) error = NULL;
	g_autoptr(FtlTrace) trace = ftl_trace_open_with(path, FTL_OPEN_NONE, &fuzz_read, &error);
	if (trace)
		fuzz_run_trace(trace, fuzz_selector(data, size));
	return 0;
}
