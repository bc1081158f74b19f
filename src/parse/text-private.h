/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Shared between the text parsers: the text source and the line-level helpers. */
#pragma once

#include <glib.h>

#include "model/event.h"
#include "model/source.h"
#include "model/trace.h"
#include "util/input.h"
#include "util/scan.h"

/* Longest line accepted; a longer one is an error, not a diagnostic, because no
 * ftrace output comes close (the kernel's trace_seq is one page). */
#define FTL_TEXT_MAX_LINE (1u << 20)

typedef struct {
	gint32 pid;
	const char *comm;
} TextCpuTask;

typedef struct {
	FtlSource base;
	FtlInput *input;
	FtlStrPool *pool;
	const char *cur, *end;
	guint64 lineno;
	guint64 seq;
	FtlEvent ev;
	FtlEvent pending; /* the synthesized exit of a leaf, delivered next */
	gboolean has_pending;
	GArray *frames;	  /* FtlSlice, the frames of the current stack event */
	GArray *cpu_task; /* TextCpuTask per CPU: the task a separator switched to */
	GArray *last_ts;  /* gint64 per CPU, for the time_backwards diagnostic */
	gboolean fgraph;  /* saw function_graph lines */
	gboolean latency; /* saw latency-format lines */
	gboolean report;  /* trace-cmd report text */
	/* pre-interned names */
	const char *n_funcgraph_entry, *n_funcgraph_exit, *n_function, *n_marker, *n_printk,
		*n_comment, *n_sched_switch, *n_sched_wakeup, *n_irq_entry, *n_irq_exit, *n_lost,
		*n_kernel_stack, *n_user_stack, *n_task_switch, *n_buffer_start, *n_irq_graph,
		*n_raw;
} TextSource;

/* Parse results for one line. */
typedef enum {
	TEXT_LINE_NONE,	 /* not this parser's line */
	TEXT_LINE_EVENT, /* ev filled */
	TEXT_LINE_LEAF,	 /* ev filled with an entry; the exit goes to pending */
} TextLineResult;

/* Small scanners over [p, e). */
static inline const char *text_skip_ws(const char *p, const char *e)
{
	while (p < e && (*p == ' ' || *p == '\t'))
		p++;
	return p;
}

static inline const char *text_skip_digits(const char *p, const char *e)
{
	while (p < e && g_ascii_isdigit(*p))
		p++;
	return p;
}

static inline gboolean text_has_prefix(const char *p, const char *e, const char *lit)
{
	for (; *lit; lit++, p++)
		if (p >= e || *p != *lit)
			return FALSE;
	return TRUE;
}

const char *ftl_text_intern(TextSource *ts, const char *p, const char *e);

/* Line parsers: [p, e) is the line without its newline and leading blanks. */
TextLineResult ftl_text_parse_event_line(TextSource *ts, const char *p, const char *e);
TextLineResult ftl_text_parse_hwbranch_line(TextSource *ts, const char *p, const char *e);
TextLineResult ftl_text_parse_fgraph_line(TextSource *ts, const char *p, const char *e);
/* The function part of a function_graph line ("f() {", "f();", "} /" "* f *" "/", comments),
 * shared with trace-cmd report's funcgraph_entry/exit events. depth comes from
 * the indent; duration (ns or FTL_TS_NONE) and mark from the duration column. */
TextLineResult ftl_text_parse_fgraph_call(TextSource *ts, const char *p, const char *e, gint depth,
					  gint64 duration, char mark);
/* Classifies "name: payload" (or the function tracer's "f <-p") after the
 * event prefix and fills the kind-specific part of ts->ev. */
TextLineResult ftl_text_classify_payload(TextSource *ts, const char *p, const char *e);
/* If the following lines are " => frame" lines, collects them into ts->frames. */
void ftl_text_collect_frames(TextSource *ts);
