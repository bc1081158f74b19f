/* SPDX-License-Identifier: GPL-2.0-or-later */
/* ftlens record: trace into a private instance (or the top-level buffer),
 * optionally around a command, reading the raw pages while tracing runs, and
 * write a trace.dat or a raw directory. Leaves tracefs as it found it. */
#pragma once

#include <glib.h>
#include <sys/types.h>

#include "capture/buffer.h"
#include "capture/tracefs.h"

typedef struct {
	FtlBufferConfig cfg;
	const char *instance; /* --instance NAME; NULL: a private ftlens-PID */
	gboolean top;	      /* --top: record the top-level buffer */
	double duration;      /* seconds; 0: until the command ends or a signal */
	char **argv;	      /* the command after --; NULL: none */
	gboolean pid_filter;  /* --pid-filter: only the command's pid (and its children) */
	pid_t pid;	      /* -P PID: only this process (and its children); 0: none */
	const char *output;   /* trace.dat path */
	const char *raw_dir;  /* --raw-dir: write this directory instead */
} FtlRecordOptions;

typedef struct {
	char *buffer; /* "instance ftlens-123" or "top-level buffer" */
	guint n_cpus;
	guint page_size;
	guint64 *bytes;	      /* per CPU: bytes of pages read */
	FtlCpuStats *stats;   /* per CPU, at the end */
	double seconds;	      /* how long tracing was on */
	int child_status;     /* wait status of the command; -1: none */
	gboolean interrupted; /* a signal ended the recording */
	GString *notes;	      /* for the user, one per line */
} FtlRecordResult;

void ftl_record_result_clear(FtlRecordResult *r);

/* Runs a recording. On success the output exists, complete; on failure (or
 * a second signal) nothing is left behind. Either way the instance is gone
 * and the top-level settings are as they were. */
gboolean ftl_record_run(const FtlRecordOptions *o, FtlRecordResult *r, GError **error);

/* ---- shared with the flight recorder ------------------------------------ */

/* "Linux nodename release machine", trace-cmd's UNAME option. */
char *ftl_record_uname(void);
/* The running kernel's GNU build id in hex, from /sys/kernel/notes (as
 * `readelf -n` prints it); NULL when unreadable or absent. g_free() it. */
char *ftl_record_build_id(void);
/* Reads per_cpu/cpuN/stats of the buffer. */
FtlCpuStats *ftl_record_read_stats(const char *buffer_dir, guint n_cpus);
/* Seconds of CLOCK_MONOTONIC. */
double ftl_record_now(void);
