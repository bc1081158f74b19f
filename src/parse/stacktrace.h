/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The stack tracer's files: stack_trace tables (every kernel's layout, doc
 * samples with their indent and "# cat stack_trace" line), stack_max_size
 * values, and the snapshot series `ftlens record --stack` writes:
 *
 *   # ftlens-stack-series v1 kernel=<uname -r> clock=monotonic
 *   # snapshot <N> time=<seconds.micro> max_size=<bytes>
 *   <the stack_trace file content, verbatim>
 *   # snapshot <N+1> time=... max_size=...
 *   ...
 *
 * Each table's arithmetic is checked as it is read; inconsistencies become
 * located diagnostics in the set, unreadable input an error. */
#pragma once

#include <glib.h>

#include "model/stack.h"
#include "util/input.h"

typedef enum {
	FTL_STACK_INPUT_NONE,	  /* none of the stack tracer's files */
	FTL_STACK_INPUT_TABLE,	  /* a stack_trace table */
	FTL_STACK_INPUT_MAX_SIZE, /* a stack_max_size value */
	FTL_STACK_INPUT_SERIES,	  /* an ftlens stack series */
} FtlStackInput;

/* What the start of data is, from its first lines that are not blank or a
 * shell command line; *line (may be NULL) gets the line that told. */
FtlStackInput ftl_stacktrace_sniff(const char *data, gsize size, guint64 *line);
/* "a stack_trace table", "a stack_max_size value", "an ftlens stack series". */
const char *ftl_stacktrace_input_name(FtlStackInput kind);

/* Reads every table and value in data into set; name is the file name used in
 * diagnostics and errors. An error names the file and line. */
gboolean ftl_stacktrace_read_data(FtlStackSet *set, const char *name, const char *data, gsize size,
				  GError **error);
/* Reads a file (gzip and zstd too, "-" for standard input, tracefs files),
 * or a directory holding stack_trace and maybe stack_max_size. */
gboolean ftl_stacktrace_read(FtlStackSet *set, const char *path, const FtlReadOptions *ro,
			     GError **error);
/* After the last input: pairs stack_max_size values read on their own with
 * a table (the one in the same directory named like it, else the only
 * table) and checks every table against its stack_max_size. */
void ftl_stacktrace_finish(FtlStackSet *set);
