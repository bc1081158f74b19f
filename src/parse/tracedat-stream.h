/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The per-CPU record streams of one trace.dat buffer: pages read (and
 * decompressed) and split into records by worker threads, a few blocks
 * ahead of the reader, so that memory stays bounded whatever the file's
 * size. Private to parse/. */
#pragma once

#include <glib.h>

#include "parse/tracedat-layout.h"

typedef struct _FtlDatStreams FtlDatStreams;

typedef struct {
	guint64 ts;
	const guchar *data; /* the event's payload */
	guint32 size;	    /* its bytes */
	gint64 missed;	    /* events lost before it: 0 none, -1 lost but not counted */
	guint64 where;	    /* the event's file offset; in compressed data, its offset
			     * in the CPU's decompressed data */
} FtlDatRecord;

/* A damaged page or chunk a worker skipped: reported by the reader's thread
 * through this callback when it reaches that block. */
typedef void (*FtlDatBadFunc)(gpointer data, guint32 cpu, const char *what);

/* Streams for every CPU of buffer b (of the file at path laid out as l),
 * ordered by CPU number, with threads worker threads (0 or 1: the caller's
 * thread reads). commit_size and old_format as for ftl_pages_new(). The
 * chunk tables of compressed data are read here; damage in them becomes
 * bad-page notes, not errors. NULL with error set when the file cannot be
 * opened. Free with ftl_dat_streams_free(). */
FtlDatStreams *ftl_dat_streams_new(const char *path, const FtlDatLayout *l, const FtlDatBuffer *b,
				   guint commit_size, gboolean old_format, guint threads,
				   FtlDatBadFunc bad, gpointer bad_data, GError **error);
void ftl_dat_streams_free(FtlDatStreams *s);
guint ftl_dat_streams_count(const FtlDatStreams *s);
guint32 ftl_dat_streams_cpu(const FtlDatStreams *s, guint i);
/* The next record of stream i, NULL when it is drained. The record and its
 * data stay valid until ftl_dat_streams_advance(s, i). */
const FtlDatRecord *ftl_dat_streams_peek(FtlDatStreams *s, guint i);
void ftl_dat_streams_advance(FtlDatStreams *s, guint i);
/* Starts every stream (again) at its first record at ts or later, found
 * by a binary search over its blocks (their first records' timestamps),
 * so exact when a CPU's timestamps never go down. Records peeked before
 * are gone. */
void ftl_dat_streams_seek_time(FtlDatStreams *s, guint64 ts);

G_DEFINE_AUTOPTR_CLEANUP_FUNC(FtlDatStreams, ftl_dat_streams_free)
