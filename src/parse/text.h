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

/* ---- the sparse index (parse/index.h) ---------------------------------- */

typedef struct _FtlIndex FtlIndex;
typedef struct _FtlIndexKey FtlIndexKey;

/* TRUE for a source made here. */
gboolean ftl_text_source_is(const FtlSource *src);
/* The identity of the file a text source reads, for its index; FALSE when it
 * reads no regular uncompressed file (memory, a pipe, gzip or zstd). */
gboolean ftl_text_source_index_key(FtlSource *src, FtlIndexKey *key);
/* Whether the source decodes every field (FtlEventFields): an index records
 * the tasks' names, so a pass that leaves some undecoded builds none. */
gboolean ftl_text_source_decodes_all(FtlSource *src);
/* Records an index with a point every stride events on the pass that reads
 * this source (which must not have given an event yet); saved to the cache
 * when the pass reaches the end without an error. */
void ftl_text_source_build_index(FtlSource *src, const FtlIndexKey *key, guint stride);
/* After that pass: the index built (borrowed; NULL when the pass did not
 * reach the end) and why it was not saved (borrowed; NULL when saved). */
const FtlIndex *ftl_text_source_built(FtlSource *src, const GError **save_error);
/* Starts the pass at point start of idx (-1: the start) and ends it before
 * point stop (-1: the end), restoring at its end the whole file's totals,
 * header facts, diagnostics and tasks from idx, which is taken. FALSE with
 * error (the source is then unusable: open the trace again) when the file
 * does not hold point start's event at its offset. */
gboolean ftl_text_source_seek_index(FtlSource *src, FtlIndex *idx, gint start, gint stop,
				    GError **error);
/* Keeps idx (taken; fresh for this file) for a seek to an event number
 * before the pass (ftl_trace_seek_event()); a pass that never seeks reads
 * the file as without it. */
void ftl_text_source_keep_index(FtlSource *src, FtlIndex *idx);
