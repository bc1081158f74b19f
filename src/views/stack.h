/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What `ftlens stack` prints: the deepest stack with a bar per frame, the
 * stack hogs, the per-function aggregate over many tables, the tables read
 * and their inconsistencies; or two stacks compared. Text, CSV or JSON. */
#pragma once

#include <stdio.h>

#include "analysis/stackhog.h"
#include "model/stack.h"
#include "symbols/debuginfo.h"
#include "views/table.h"

/* The widest bar, in characters; a frame's bar is its Size over the
 * largest Size of its table times this. */
#define FTL_STACK_BAR_WIDTH 30

/* Prints the report for every table of set, as analysed in h. top limits
 * the rows of the ranked tables in text (CSV and JSON list all). */
/* With dbg (may be NULL) the deepest stack's frames gain their source and
 * inline chain, the functions where they are defined. */
void ftl_stack_view_print(const FtlStackSet *set, const FtlStackHogs *h, FtlFormat format,
			  guint top, FtlDebugInfo *dbg, const FtlTextStyle *style, FILE *out);
/* Prints a against b as compared in d; n_a and n_b are how many tables with
 * frames each input held (a and b are the deepest of them). */
void ftl_stack_view_print_diff(const FtlStackSet *set, const FtlStackTable *a, guint n_a,
			       const FtlStackTable *b, guint n_b, const FtlStackDiff *d,
			       FtlFormat format, guint top, const FtlTextStyle *style, FILE *out);
/* The bar of a frame of size bytes when the table's largest frame is max:
 * '#' characters, at least one for any positive size. Free with g_free(). */
char *ftl_stack_view_bar(gint64 size, gint64 max);
