/* SPDX-License-Identifier: GPL-2.0-or-later */
/* When a trace gets a sparse index (parse/index.h): loaded from the cache
 * and used to seek to a --time window, or built on the pass that follows. */
#pragma once

#include <glib.h>

#include "model/trace.h"

typedef enum {
	FTL_INDEX_USE_AUTO,  /* use a fresh cache; build one for a large file */
	FTL_INDEX_USE_OFF,   /* --no-index: neither */
	FTL_INDEX_USE_BUILD, /* build one whatever the size, unless the cache is fresh */
} FtlIndexUse;

typedef enum {
	FTL_INDEX_NONE,	    /* not a single plain text file, --strict, or off */
	FTL_INDEX_BUILDING, /* the pass records one */
	FTL_INDEX_FRESH,    /* the cache is fresh; the window needs no seek */
	FTL_INDEX_SEEKED,   /* the pass starts and ends where the window needs */
	FTL_INDEX_REFUSED,  /* the cache did not match the file: open the trace again */
} FtlIndexState;

/* Applies use to trace (just opened, not yet iterated) for the window
 * [t_start, t_end] (FTL_TS_NONE: open side); a new index gets a point every
 * stride events (0: FTL_INDEX_STRIDE). *why (may be NULL) gets a line
 * for --verbose. After FTL_INDEX_REFUSED the trace cannot be read: free it
 * and open it again with FTL_INDEX_USE_OFF. */
FtlIndexState ftl_text_index_attach(FtlTrace *trace, gint64 t_start, gint64 t_end, FtlIndexUse use,
				    guint stride, char **why);
/* For a reader that jumps about in the whole file (the TUI): a fresh
 * cached index stays with the trace's source for ftl_trace_seek_event();
 * otherwise as ftl_text_index_attach() without a window (a large file, or
 * any with FTL_INDEX_USE_BUILD, gets one built on the pass that reads it to
 * the end, a point every stride events, 0: FTL_INDEX_STRIDE). */
FtlIndexState ftl_text_index_attach_seekable(FtlTrace *trace, FtlIndexUse use, guint stride,
					     char **why);
