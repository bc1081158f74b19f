/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Stack charts: the stack tracer's deepest stacks drawn to scale, one box
 * per frame as tall as its bytes, snapshots side by side on one byte axis,
 * the biggest hogs coloured and the stack limit drawn as a line. */
#pragma once

#include <glib.h>
#include <stdio.h>

#include "model/stack.h"

typedef struct {
	guint width;	      /* px (0: 1200) */
	const char *title;    /* NULL: a default */
	const char *subtitle; /* may be NULL */
	gint64 limit;	      /* bytes; > 0: drawn as a line (e.g. THREAD_SIZE 16384) */
	guint max_columns;    /* the deepest this many tables are drawn (0: 48) */
} FtlStackSvgOptions;

/* Writes the tables of set (read and finished) to out; *bytes (may be
 * NULL) gets the document's size. FALSE with error when no table has frames
 * or writing fails. */
gboolean ftl_stack_svg_write(FtlStackSet *set, const FtlStackSvgOptions *opt, FILE *out,
			     guint64 *bytes, GError **error);
