/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Diagnostics: data anomalies that are counted and located, never fatal. */
#pragma once

#include <glib.h>

typedef enum {
	FTL_DIAG_UNPARSED_LINE,	 /* a line no parser recognized */
	FTL_DIAG_TRUNCATED_LINE, /* last line without newline that did not parse */
	FTL_DIAG_LOST_EVENTS,	 /* the kernel dropped events (LOST / DROPPED lines) */
	FTL_DIAG_TIME_BACKWARDS, /* timestamps going back within one CPU */
	FTL_DIAG_BAD_DURATION,	 /* a function_graph duration that did not parse */
	FTL_DIAG_UNKNOWN_CPU,	 /* an event without a CPU in a multi-CPU input */
	FTL_DIAG_ORPHAN_EXIT,	 /* call-tree repairs (analysis) */
	FTL_DIAG_OPEN_AT_END,
	FTL_DIAG_DEPTH_JUMP,
	FTL_DIAG_UNKNOWN_EVENT, /* binary inputs: an event id without a format */
	FTL_DIAG_BAD_PAGE,	/* binary inputs: a ring-buffer page that does not decode */
	FTL_DIAG_BINARY_BYTES,	   /* console logs: control or NUL bytes on a line */
	FTL_DIAG_CUT_LINE,	   /* console logs: a message cut short by another one */
	FTL_DIAG_DUMP_UNENDED,	   /* an ftrace dump without its closing delimiter */
	FTL_DIAG_DUMP_INTERLEAVED, /* other messages printed inside an ftrace dump */
	FTL_DIAG_REPORT_CUT,	   /* a kernel report the log ends inside */
	FTL_DIAG_DEEP_CALLS, /* calls nested deeper than the call tree keeps (analysis) */
	/* a text trace holds fewer entries than its header says its buffer had:
	 * cut, or saved while tracing went on (amount: the missing entries) */
	FTL_DIAG_ENTRIES_SHORT,
	/* calls on new paths once the merged call tree held its node budget,
	 * counted in "[other]" (analysis; amount: the budget) */
	FTL_DIAG_NODE_BUDGET,
	/* binary inputs: an event id whose format the file holds but ftlens
	 * left out (refused by tep-check, crashed the trial, did not parse) */
	FTL_DIAG_BAD_FORMAT,
	FTL_DIAG_N_KINDS
} FtlDiagKind;

typedef struct {
	guint64 count;
	guint64 amount;	  /* e.g. number of lost events, when the input says */
	char *first_file; /* NULL if count == 0 */
	guint64 first_line;
	gint first_cpu;
	char *first_text; /* the offending text (its first 160 bytes) made visible */
	guint first_rank; /* first_file's place among the inputs (ftl_diags_rank_file) */
} FtlDiagEntry;

/* Where an anomaly was seen: what the input does not say is NULL, 0, -1. */
typedef struct {
	const char *file;
	guint64 line; /* 1-based; 0 in binary inputs */
	gint cpu;
} FtlDiagLoc;

typedef struct _FtlDiags FtlDiags;

FtlDiags *ftl_diags_new(void);
void ftl_diags_free(FtlDiags *d);
/* Gives file the next place among d's inputs (the order they were given
 * in); a file given again keeps its place. */
void ftl_diags_rank_file(FtlDiags *d, const char *file);
/* Counts one occurrence at *at (NULL: nowhere) and adds amount to kind's.
 * The first one keeps its location and its text: text_len bytes of text
 * (-1: up to its NUL; text NULL: none), the first 160 of them, made
 * visible. With several inputs the first input holding one wins (the
 * order their chunks are read in, by chunk size or threads, must not choose
 * it); within one input, or among inputs never ranked (after those
 * ranked), the one counted first. */
void ftl_diags_add(FtlDiags *d, FtlDiagKind kind, const FtlDiagLoc *at, const char *text,
		   gssize text_len, guint64 amount);
/* Replaces kind's entry by a copy of from (an index restoring what a full
 * scan counted); from->first_text is visible already. */
void ftl_diags_set(FtlDiags *d, FtlDiagKind kind, const FtlDiagEntry *from);
/* Borrowed; lives as long as d. */
const FtlDiagEntry *ftl_diags_get(const FtlDiags *d, FtlDiagKind kind);
const char *ftl_diag_kind_name(FtlDiagKind kind);
const char *ftl_diag_kind_summary(FtlDiagKind kind);
gboolean ftl_diags_any(const FtlDiags *d);

G_DEFINE_AUTOPTR_CLEANUP_FUNC(FtlDiags, ftl_diags_free)
