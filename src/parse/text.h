/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Text traces: every ftrace text dialect through one source, parsed in chunks
 * on all cores (util/linereader.h) and delivered in input order. */
#pragma once

#include "model/source.h"
#include "model/trace.h"
#include "util/input.h"
#include "util/stream.h"

/* A source over text made in memory (a console log's ftrace dump): takes
 * ownership of input. cpu_hint is the CPU the text belongs to, or -1. */
FtlSource *ftl_text_source_new(FtlTrace *trace, FtlInput *input, gint cpu_hint);
/* A source reading stream (taken, freed on failure too). cpu_hint is the CPU of
 * a per_cpu/cpuN/trace file, or -1. The first chunk is parsed now: when no
 * line that starts in the first 64 KiB is a header, event or special line,
 * this fails with an error naming the first line that was not recognized. */
FtlSource *ftl_text_source_open(FtlTrace *trace, FtlStream *stream, gint cpu_hint, GError **error);
/* The dialect seen so far (final once the source is drained): "trace",
 * "trace_pipe", "latency", "function_graph", "function_graph-pipe", "trace-cmd-report". */
const char *ftl_text_source_dialect(FtlSource *src);
