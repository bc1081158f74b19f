/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Text traces: every ftrace text dialect through one line-walking source. */
#pragma once

#include "model/source.h"
#include "model/trace.h"
#include "util/input.h"

/* Takes ownership of input. cpu_hint is the CPU of a per_cpu/cpuN/trace file, or -1. */
FtlSource *ftl_text_source_new(FtlTrace *trace, FtlInput *input, gint cpu_hint);
/* The dialect seen so far (final once the source is drained): "trace",
 * "trace_pipe", "latency", "function_graph", "function_graph-pipe", "trace-cmd-report". */
const char *ftl_text_source_dialect(FtlSource *src);
/* Checks that the start of input looks like an ftrace text trace: some line
 * among the first ones is a header, event or special line. Otherwise sets an
 * error naming the first line that was not recognized. */
gboolean ftl_text_sniff(FtlInput *input, GError **error);
