/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Line parsers for event lines ("comm-pid [cpu] flags ts: name: payload" in all
 * its layouts) and hw-branch tracer lines. */
#pragma once

#include "parse/text-line.h"

/* [p, e) is the line without its newline and leading blanks. */
TextLineResult ftl_text_parse_event_line(TextLine *tl, const char *p, const char *e);
TextLineResult ftl_text_parse_hwbranch_line(TextLine *tl, const char *p, const char *e);
