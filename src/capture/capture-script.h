/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The capture script for boards with busybox only: data/capture.sh with the
 * settings of `ftlens capture-script` written into it. */
#pragma once

#include <glib.h>

typedef enum {
	FTL_CAPTURE_RECORD, /* trace until the command ends, a duration, a signal, tracing_off */
	FTL_CAPTURE_FLIGHT, /* the top-level ring buffer saved each time tracing_on drops */
	FTL_CAPTURE_OOPS,   /* armed for ftrace_dump_on_oops, read from the console */
} FtlCaptureMode;

typedef struct {
	FtlCaptureMode mode;
	const char *tracer;	    /* NULL: none */
	const char *const *events;  /* SYSTEM, SYSTEM:EVENT, all; NULL-terminated or NULL */
	guint buffer_kb;	    /* 0: the kernel's */
	const char *clock;	    /* NULL: the kernel's */
	const char *const *filter;  /* set_ftrace_filter */
	const char *const *notrace; /* set_ftrace_notrace */
	const char *const *graph;   /* set_graph_function */
	gint max_depth;		    /* -1: not set */
	const char *const *options; /* NAME or noNAME */
	const gint32 *cpus;	    /* the CPUs to trace, n_cpus of them; NULL: all */
	guint n_cpus;
	gint pid;		/* -P: this process and its children; 0: none */
	gboolean pid_filter;	/* only the command and its children */
	double duration;	/* seconds; 0: none */
	gboolean until_off;	/* stop when tracing_on drops to 0 */
	char **argv;		/* the command to run; NULL: none */
	guint hits;		/* flight: stops to save */
	const char *stop_on;	/* flight: SYSTEM:EVENT[:FILTER] traceoff trigger */
	gint oops_dump;		/* oops: ftrace_dump_on_oops value (1 all CPUs, 2 the oopsing one) */
} FtlCaptureScriptOptions;

/* The script for o, from template (the text of data/capture.sh, with one
 * "#@SETTINGS@" line that the settings replace). NULL with a usage error
 * naming the option when a value cannot be given to the board's shell
 * (a name with blanks or quotes, say). Free with g_free(). */
char *ftl_capture_script_render(const FtlCaptureScriptOptions *o, const char *template_text,
				GError **error);
