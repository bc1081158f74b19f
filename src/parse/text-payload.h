/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The payload of an event line and function_graph's call text: below the line
 * parsers (text-event.c, text-fgraph.c), which both use them. */
#pragma once

#include "parse/text-line.h"

/* Classifies "name: payload" (or the function tracer's "f <-p") after the
 * event prefix and fills the kind-specific part of tl->ev. */
TextLineResult ftl_text_classify_payload(TextLine *tl, const char *p, const char *e);
/* The function part of a function_graph line ("f() {", "f();", "} /" "* f *" "/", comments),
 * shared with trace-cmd report's funcgraph_entry/exit events. depth comes from
 * the indent; duration (ns or FTL_TS_NONE) and mark from the duration column. */
TextLineResult ftl_text_parse_fgraph_call(TextLine *tl, const char *p, const char *e, gint depth,
					  gint64 duration, char mark);
/* The fast path's call text: [f, e) is "name() {", "name();" or "}" and
 * nothing else (trailing blanks aside), filled as ftl_text_parse_fgraph_call()
 * fills it; TEXT_LINE_NONE for anything else, which is that function's. */
TextLineResult ftl_text_parse_fgraph_call_fast(TextLine *tl, const char *f, const char *e,
					       gint depth, gint64 duration, char mark);
