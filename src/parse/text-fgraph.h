/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The line parser for function_graph lines. */
#pragma once

#include "parse/text-line.h"

/* [p, e) is the line without its newline and leading blanks. */
TextLineResult ftl_text_parse_fgraph_line(TextLine *tl, const char *p, const char *e);
