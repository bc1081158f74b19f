/* SPDX-License-Identifier: GPL-2.0-or-later */
/* FtlIter: all sources of a trace merged by (ts, cpu, seq), with the global
 * --cpu/--pid/--time and -e/--filter filters applied. */
#pragma once

#include <glib.h>

#include "model/event-filter.h"
#include "model/trace.h"

typedef struct {
	GArray *cpus;	/* gint32 list; NULL = all */
	GArray *pids;	/* gint32 list; NULL = all */
	gint64 t_start; /* ns, inclusive; FTL_TS_NONE = open */
	gint64 t_end;	/* ns, inclusive; FTL_TS_NONE = open */
	FtlEventFilter *events; /* -e / --filter / -v; NULL = all; owned */
} FtlFilter;

void ftl_filter_init(FtlFilter *f);
void ftl_filter_clear(FtlFilter *f);
/* Events without a timestamp pass a time filter here (an iterator places
 * them by the timed events around them); events without a CPU or pid fail a
 * CPU or pid filter. */
gboolean ftl_filter_match(const FtlFilter *f, const FtlEvent *ev);
/* Parses "0,2-3" into a gint32 list. */
gboolean ftl_filter_parse_list(const char *text, GArray **out, GError **error);
/* Parses "START,END" in seconds (either side may be empty). */
gboolean ftl_filter_parse_time(const char *text, gint64 *start, gint64 *end, GError **error);

typedef struct _FtlIter FtlIter;

/* The iterator borrows trace and filter (may be NULL); both must outlive it.
 * A trace can be iterated once. */
FtlIter *ftl_iter_new(FtlTrace *trace, const FtlFilter *filter);
void ftl_iter_free(FtlIter *it);
/* *ev is borrowed until the next call. Returns FTL_STATUS_EOF at the end. */
FtlStatus ftl_iter_next(FtlIter *it, const FtlEvent **ev, GError **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC(FtlIter, ftl_iter_free)
