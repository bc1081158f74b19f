/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The per-CPU record streams of one trace.dat buffer: pages read (and
 * decompressed) and split into records by worker threads, a few blocks
 * ahead of the reader, so that memory stays bounded whatever the file's
 * size. Private to parse/. */
#pragma once

#include <glib.h>

#include "parse/tep.h"
#include "parse/tracedat-layout.h"

typedef struct _FtlDatStreams FtlDatStreams;

/* A chunk of a compressed CPU's data. */
typedef struct {
	guint64 offset; /* of its compressed bytes in the file */
	guint32 csize;	/* compressed bytes */
	guint32 usize;	/* bytes once decompressed */
	guint64 ustart; /* where its bytes start in the CPU's decompressed data */
} FtlDatChunk;

/* The chunk table of a compressed CPU whose data (its chunk count first) is
 * size bytes at offset of file fd (file_size bytes): a count, then per chunk
 * its compressed and uncompressed sizes before its bytes. FtlDatChunk per
 * chunk up to the first damaged header, which *bad then describes (NULL:
 * none; g_free it). */
GArray *ftl_dat_chunks_read(int fd, guint64 file_size, gboolean big_endian, guint64 offset,
			    guint64 size, char **bad);

typedef enum {
	FTL_DAT_CHUNK_LOADED,
	FTL_DAT_CHUNK_UNREAD,	/* its bytes cannot be read (or held) */
	FTL_DAT_CHUNK_UNPACKED, /* they do not decompress to its size */
} FtlDatChunkLoad;

/* Chunk c of file fd decompressed (how) into *data: c->usize bytes, then
 * FTL_PAGES_SLACK zeroed ones. *packed and *data are buffers of *packed_cap
 * and *data_cap bytes (NULL and 0 at first), grown as needed and kept by
 * the caller for the next chunk. */
FtlDatChunkLoad ftl_dat_chunk_load(int fd, FtlDatCompress how, const FtlDatChunk *c,
				   guchar **packed, gsize *packed_cap, guchar **data,
				   gsize *data_cap);

typedef struct {
	guint64 ts;
	const guchar *data; /* the event's payload */
	guint32 size;	    /* its bytes */
	gint32 id;	    /* its common fields, read by the worker; -1: not read */
	gint64 missed;	    /* events lost before it: 0 none, -1 lost but not counted */
	guint64 where;	    /* the event's file offset; in compressed data, its offset
			     * in the CPU's decompressed data */
	gint32 pid, flags;
	const char *text; /* its payload text rendered by the worker (render
			   * callback), NULL when it was not */
	guint32 text_len;
	gboolean text_plain; /* the text needs no escaping (ftl_escape_plain_run()) */
} FtlDatRecord;

/* A damaged page or chunk a worker skipped: reported by the reader's thread
 * through this callback when it reaches that block. */
typedef void (*FtlDatBadFunc)(gpointer data, guint32 cpu, const char *what);

/* Streams for every CPU of buffer b (of the file at path laid out as l),
 * ordered by CPU number, read by threads threads in all, the caller's
 * among them: threads - 1 workers (0 or 1: the caller's thread reads).
 * commit_size and old_format as for ftl_pages_new(). The workers read
 * each record's common fields as common says (copied; NULL or not ok: they
 * leave them to the reader). The chunk tables of compressed data are read
 * here; damage in them becomes bad-page notes, not errors. NULL with error
 * set when the file cannot be opened. Free with ftl_dat_streams_free(). */
FtlDatStreams *ftl_dat_streams_new(const char *path, const FtlDatLayout *l, const FtlDatBuffer *b,
				   guint commit_size, gboolean old_format,
				   const FtlTepCommon *common, guint threads, FtlDatBadFunc bad,
				   gpointer bad_data, GError **error);
void ftl_dat_streams_free(FtlDatStreams *s);
/* Renders the payload text of r (its id read: r->id >= 0) into out on a
 * worker thread; FALSE, out unchanged, when the reader's thread must. Must be
 * thread-safe. */
typedef gboolean (*FtlDatRenderFunc)(gpointer data, const FtlDatRecord *r, GString *out);
/* Before the first read: the workers render every record's payload text
 * with fn, into FtlDatRecord.text. Nothing when there are no workers (the
 * reader's thread would render it twice). */
void ftl_dat_streams_set_render(FtlDatStreams *s, FtlDatRenderFunc fn, gpointer data);
guint ftl_dat_streams_count(const FtlDatStreams *s);
guint32 ftl_dat_streams_cpu(const FtlDatStreams *s, guint i);
/* The next record of stream i, NULL when it is drained. The record and its
 * data stay valid until ftl_dat_streams_advance(s, i). */
const FtlDatRecord *ftl_dat_streams_peek(FtlDatStreams *s, guint i);
void ftl_dat_streams_advance(FtlDatStreams *s, guint i);
/* The records of stream i not peeked at yet, up to the end of a block:
 * *n of them (at least one), NULL when the stream is drained. They stay
 * valid until the next call for i, which takes the block after (so one
 * call per block instead of a peek and an advance per record). Do not mix
 * with peek and advance but through ftl_dat_streams_seek_time(). */
const FtlDatRecord *ftl_dat_streams_take(FtlDatStreams *s, guint i, guint *n);
/* Starts every stream (again) at its first record at ts or later, found
 * by a binary search over its blocks (their first records' timestamps),
 * so exact when a CPU's timestamps never go down. Records peeked before
 * are gone. */
void ftl_dat_streams_seek_time(FtlDatStreams *s, guint64 ts);

G_DEFINE_AUTOPTR_CLEANUP_FUNC(FtlDatStreams, ftl_dat_streams_free)
