/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The small text files of tracefs, read the same way by capture/ (which
 * reads them live and copies them into a trace.dat) and parse/ (which reads
 * them from a saved raw directory or a trace.dat): events/header_page,
 * trace_clock, per_cpu/cpuN/stats and buffer_size_kb. */
#pragma once

#include <glib.h>

/* The ring-buffer page header (events/header_page): "field: u64 timestamp;
 * offset:0; size:8; ...", one line per field. */
typedef struct {
	gint ts_size;		 /* -1 when absent */
	gint commit_off, commit_size; /* commit_size: the kernel's long (4 or 8) */
	gint data_off, data_size;     /* the page is data_off + data_size bytes */
} FtlHeaderPage;

/* Reads the fields; TRUE when timestamp, commit and data are there with
 * sane offsets and sizes (a page of at most 16 MiB). */
gboolean ftl_header_page_parse(const char *text, FtlHeaderPage *hp);
/* The page size a header describes: data_off + data_size. */
guint ftl_header_page_size(const FtlHeaderPage *hp);

/* One CPU's ring-buffer statistics (per_cpu/cpuN/stats). */
typedef struct {
	guint64 entries;	/* events still in the buffer */
	guint64 overrun;	/* events overwritten before they were read */
	guint64 commit_overrun; /* events lost inside a nested write */
	guint64 bytes;		/* bytes still in the buffer */
	guint64 dropped;	/* events refused because the buffer was full */
	guint64 read;		/* events read out */
} FtlCpuStats;

/* Parses a stats file; fields that are absent (or not a number) stay 0. */
void ftl_cpustats_parse(const char *text, FtlCpuStats *st);
/* Events the statistics say were lost: overrun + commit overrun + dropped
 * (saturating). */
guint64 ftl_cpustats_lost(const FtlCpuStats *st);
/* trace-cmd's saved statistics of every CPU ("CPU: N" then the file of that
 * CPU): calls func for each CPU's block. */
void ftl_cpustats_parse_all(const char *text,
			    void (*func)(gint cpu, const FtlCpuStats *st, gpointer data),
			    gpointer data);

/* The clock between brackets ("local [global] counter" -> "global"); a
 * new string, NULL when there is none. */
char *ftl_trace_clock_selected(const char *text);

/* buffer_size_kb: "N", or "N (expanded: M)" before the buffer is first
 * used, which reads as M (what the buffer becomes); 0 for "X" (CPUs
 * differ) and anything else. */
guint64 ftl_buffer_size_kb_parse(const char *text);
