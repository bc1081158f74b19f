/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Folded stacks, FlameGraph's exchange format: one "frame;frame;frame N"
 * line per path, N an integer weight. ftlens writes them (export --to
 * folded) and reads them back for flame graphs and their differences. */
#pragma once

#include <glib.h>

#include "model/event.h"

/* TRUE when the first lines of data[0..size) read as folded stacks (and
 * not as a trace whose lines happen to end in a number). */
gboolean ftl_folded_sniff(const char *data, gsize size);

/* Called per line with its path, outermost first, and the weight. The path
 * is the first same frames of the line before (same is 0 on a file's first
 * line) followed by added[0..n_added) (borrowed until it returns; n_added
 * may be 0): folded lines come sorted, so a reader that keeps the previous
 * path need only look up the rest. */
typedef void (*FtlFoldedFunc)(const FtlSlice *added, guint n_added, guint same, gint64 weight,
			      gpointer data);

/* Reads path ("-": standard input; gzip and zstd too). A line that is not
 * "frames N" is an error naming the file and line, and so is one whose
 * weight takes *total (the weights read so far, across files; updated) past
 * G_MAXINT64: no sum of weights made from the lines can overflow then. */
gboolean ftl_folded_read(const char *path, FtlFoldedFunc func, gpointer data, gint64 *total,
			 GError **error);
