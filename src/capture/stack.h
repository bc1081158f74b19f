/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Stack tracer snapshots: the deepest kernel stack seen so far, saved each
 * time the maximum grows, as one series file that `ftlens stack` reads. */
#pragma once

#include <glib.h>

typedef struct {
	double duration;    /* seconds; 0: until the command ends or a signal */
	gboolean reset;	    /* write 0 to stack_max_size first */
	char **argv;	    /* a command to run meanwhile; NULL: none */
	const char *output; /* the series file */
} FtlStackOptions;

typedef struct {
	guint snapshots;
	guint64 max_size;
	gboolean interrupted;
	int child_status; /* -1: no command */
	GString *notes;
} FtlStackResult;

void ftl_stack_result_clear(FtlStackResult *r);
/* Runs the stack tracer and writes the series:
 *   # ftlens-stack-series v1 kernel=RELEASE clock=monotonic
 *   # snapshot N time=SECONDS.MICRO max_size=BYTES
 *   (the stack_trace file, verbatim)
 * one header and table per snapshot, N from 1. stack_tracer_enabled is put
 * back as it was. The file is complete or absent. */
gboolean ftl_stack_run(const FtlStackOptions *o, FtlStackResult *r, GError **error);
