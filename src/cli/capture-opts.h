/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What `record` and `capture-script` take alike: trace-cmd's option letters
 * for the tracer and its filters, and the command after "--". */
#pragma once

#include <glib.h>

typedef struct {
	char *tracer, *clock;
	char **ftrace_filter, **notrace, **graph, **options;
	gint buffer_kb; /* 0: the kernel's */
	gint max_depth; /* -1: not set */
} FtlCaptureOpts;

#define FTL_CAPTURE_OPTS_INIT { .max_depth = -1 }
/* The number of entries ftl_capture_opts_entries() writes. */
#define FTL_CAPTURE_OPTS_N 8

/* Writes the entries -p, -b, -C, -l, -n, -g, --max-graph-depth and -O,
 * filling o, into out[0..FTL_CAPTURE_OPTS_N). */
void ftl_capture_opts_entries(FtlCaptureOpts *o, GOptionEntry *out);
void ftl_capture_opts_clear(FtlCaptureOpts *o);

/* Everything after "--" is the command to run, never options of ours:
 * *argc is cut to the options, and the command returned (NULL if none). */
char **ftl_capture_opts_split_command(int *argc, char **argv);
