/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The bottom of the text parsers: what a line parser fills (TextLine), the
 * scanners it reads with, and interning through a per-thread name cache.
 * Line parsers see one line at a time and nothing of the lines before it
 * outside their chunk: what depends on earlier chunks is marked on the event
 * (TextFix) and settled by the text source, which sees the chunks in order. */
#pragma once

#include <glib.h>
#include <string.h>

#include "model/event.h"
#include "model/source.h"
#include "util/scan.h"
#include "util/strpool.h"

/* Longest line accepted; a longer one is an error, not a diagnostic, because no
 * ftrace output comes close (the kernel's trace_seq is one page). */
#define FTL_TEXT_MAX_LINE (1u << 20)

/* Event names the parsers give, interned once per source. */
typedef struct {
	const char *funcgraph_entry, *funcgraph_exit, *function, *marker, *printk, *comment,
		*sched_switch, *sched_wakeup, *irq_entry, *irq_exit, *lost, *kernel_stack,
		*user_stack, *task_switch, *buffer_start, *irq_graph, *raw, *hw_branch;
} TextNames;

void ftl_text_names_init(TextNames *n, FtlStrPool *pool);

typedef struct {
	gint32 pid; /* -1: no task switch seen (in this chunk) */
	const char *comm;
} TextCpuTask;

/* The slot of cpu in a TextCpuTask array (grown on first use, pid -1), or
 * NULL for a CPU number out of range. Valid until the array grows. */
TextCpuTask *ftl_text_cpu_task(GArray *cpu_task, gint32 cpu);

/* What the source settles when the chunk's turn comes. */
typedef enum {
	TEXT_FIX_TASK = 1u << 0,   /* pid/comm from the CPU's last task switch */
	TEXT_FIX_TRACER = 1u << 1, /* name: the tracer the header named, else "raw" */
	/* a leaf's entry, whose exit the source makes from it and gives next
	 * (ftl_text_leaf_exit()): a chunk holds one event for the line */
	TEXT_FIX_LEAF = 1u << 2,
} TextFix;

typedef struct _TextNameCache TextNameCache;

/* A line parser's work space: the event it fills and what it may look up. */
typedef struct {
	FtlEvent *ev;
	guint8 fix;	/* TextFix for ev */
	FtlSource *src; /* ev->src */
	gint cpu_hint;
	FtlStrPool *pool;
	TextNameCache *cache; /* this thread's */
	const TextNames *n;
	GArray *cpu_task; /* TextCpuTask per CPU: task switches seen in this chunk */
	GArray *frames;	  /* FtlSlice: the frames of stack events in this chunk */
	gboolean fgraph;  /* saw function_graph lines */
	gboolean latency; /* saw latency-format lines */
	gboolean report;  /* trace-cmd report text */
	guint decode;	   /* FtlEventFields the parsers decode (the rest stay empty) */
	guint64 decoded;   /* optional fields decoded, a count for tests */
} TextLine;

/* Whether tl decodes field (an FtlEventFields bit); counts the answers
 * that say yes. */
static inline gboolean text_decodes(TextLine *tl, guint field)
{
	if (!(tl->decode & field))
		return FALSE;
	tl->decoded++;
	return TRUE;
}

/* Parse results for one line. */
typedef enum {
	TEXT_LINE_NONE,	 /* not this parser's line */
	TEXT_LINE_EVENT, /* ev filled (a leaf's entry: fix has TEXT_FIX_LEAF, and
			  * ev the line's return value) */
} TextLineResult;

/* Binds tl to this thread's name cache for pool; call before parsing on a thread. */
void ftl_text_line_bind(TextLine *tl, FtlStrPool *pool);
/* Resets tl->ev for a line: no time, the hinted CPU, no task. */
void ftl_text_line_reset(TextLine *tl, guint64 line, guint64 seq);
/* A leaf's exit into *exit, made from its entry as parsed (TEXT_FIX_LEAF),
 * and the entry as it is given: the line's return value is the exit's. */
void ftl_text_leaf_exit(FtlEvent *entry, FtlEvent *exit, const TextNames *n);
/* Interned copy of [p, e): a name seen lately costs a probe of the cache and
 * a compare, not a hash of the whole name and a lookup under the pool's lock. */
const char *ftl_text_intern(TextLine *tl, const char *p, const char *e);

/* Small scanners over [p, e). */
/* Past the spaces (not tabs) at p, eight at a time first: for function_graph's
 * indentation and blank columns, long runs (text_skip_ws is faster over the
 * short ones between columns). */
static inline const char *text_skip_spaces(const char *p, const char *e)
{
	guint64 w;
	while (e - p >= 8 && (memcpy(&w, p, 8), w == 0x2020202020202020ull))
		p += 8;
	while (p < e && *p == ' ')
		p++;
	return p;
}

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
