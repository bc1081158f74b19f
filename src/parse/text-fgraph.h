/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The line parser for function_graph lines. */
#pragma once

#include "parse/text-line.h"

/* [p, e) is the line without its newline and leading blanks. */
TextLineResult ftl_text_parse_fgraph_line(TextLine *tl, const char *p, const char *e);

/* The fixed columns of a function_graph layout, as offsets from the start
 * of a line: learned from one line, then every line of the chunk is tried
 * at them (the fast path) before the general parser. */
typedef struct {
	gint time_bar;	/* the '|' after an abstime column, -1: none */
	gint cpu_close; /* the CPU column's ')' */
	gint proc_bar;	/* the '|' after a funcgraph-proc column, -1: none */
	gint bar;	/* the '|' after the duration column, before the call */
} TextFgraphLayout;

/* The layout of [line, e), a line the general parser read as a call:
 * FALSE when it has no columns the fast path can fix. */
gboolean ftl_text_fgraph_learn(TextFgraphLayout *l, const char *line, const char *e);
/* [line, e) at l's offsets (p: its first non-blank), filled exactly as
 * ftl_text_parse_fgraph_line() fills it, or TEXT_LINE_NONE (tl->ev then
 * needs a reset) when the line is not "[TIME |] CPU) [TASK-PID |] DURATION
 * |  name() {" (or "name();", "}") at those offsets: the general parser's
 * then. */
TextLineResult ftl_text_parse_fgraph_fast(TextLine *tl, const TextFgraphLayout *l,
					  const char *line, const char *p, const char *e);
