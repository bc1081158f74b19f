/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The parallel line reader: cuts a stream into chunks of whole lines and runs a
 * parse function on each chunk on a pool of threads, handing the parsed chunks
 * back in input order. Every text source reads through it; with one thread
 * (-j 1) it reads and parses on the caller's thread, with the same results.
 *
 * The parse function must be a pure function of the chunk's text (and of data
 * it only reads): chunks are parsed out of order and concurrently. What
 * depends on earlier lines is left for the consumer, who sees the chunks in
 * order. */
#pragma once

#include <glib.h>

#include "util/input.h"
#include "util/stream.h"

typedef struct {
	const char *text; /* whole lines; only the last chunk's last line may lack its newline */
	gsize len;
	guint64 index;	/* 0, 1, ... in input order */
	guint64 offset; /* offset of text in the (decompressed) stream */
	gboolean last;	/* nothing follows: the end of the input, a long line or an error */
	/* > 0: after text comes a line longer than max_line without a newline within
	 * it: its length, or FTL_LINE_LONG_CAP + 1 when it was not counted to its end.
	 * Its first MIN(long_line, FTL_LINE_LONG_HEAD) bytes follow text (text + len). */
	guint64 long_line;
	GError *error;	 /* the stream failed after text (I/O, corrupt compressed data) */
	gpointer result; /* what the parse function made of text */
} FtlLineChunk;

/* How far a line that is too long is counted to say its length. */
#define FTL_LINE_LONG_CAP ((guint64)64 << 20)
/* How much of its start is kept, for messages. */
#define FTL_LINE_LONG_HEAD ((gsize)4096)

typedef struct {
	/* Parses chunk->text; runs on any thread. Returns the result to store. */
	gpointer (*parse)(const FtlLineChunk *chunk, gpointer data);
	/* Frees (or recycles) a result once its chunk is left; any thread. */
	void (*free_result)(gpointer result, gpointer data);
	/* FALSE when a chunk must not begin with the line at [line, end) (end may
	 * cut it short): it belongs with the line before it. NULL: any line. */
	gboolean (*can_cut)(const char *line, const char *end);
	gpointer data;
	gsize max_line; /* longest line a chunk holds */
} FtlLineReaderFuncs;

typedef struct _FtlLineReader FtlLineReader;

/* Takes ownership of stream; funcs is copied. Nothing is read until the first
 * ftl_line_reader_next(). */
FtlLineReader *ftl_line_reader_new(FtlStream *stream, const FtlLineReaderFuncs *funcs,
				   const FtlReadOptions *ro);
/* At most chunks (2 or more) parsed ahead of the consumer, whatever the
 * pool could take: a reader asked for a screenful at a time. 0: the pool's
 * share again (the default). FTL_LINE_READER_ON_DEMAND: none ahead, each
 * chunk parsed when it is asked for (a sniff that may seek away next). */
#define FTL_LINE_READER_ON_DEMAND 1u
void ftl_line_reader_set_ahead(FtlLineReader *r, guint chunks);
/* Waits for in-flight work, then frees everything, results included. */
void ftl_line_reader_free(FtlLineReader *r);
/* The next chunk in input order, parsed. The chunk returned before is left
 * (its text and result freed) first. NULL after the last chunk; the last
 * chunk stays valid until ftl_line_reader_free(). */
const FtlLineChunk *ftl_line_reader_next(FtlLineReader *r);
/* Starts reading again at offset of a seekable stream (a line start): the
 * chunk in hand and the ones in flight are dropped. */
gboolean ftl_line_reader_seek(FtlLineReader *r, guint64 offset, GError **error);
/* The same, and the input then ends at end (a line start; G_MAXUINT64: the
 * stream's end), as ftl_stream_seek_range() makes it: nothing past it is
 * read or parsed. */
gboolean ftl_line_reader_seek_range(FtlLineReader *r, guint64 offset, guint64 end, GError **error);
FtlStream *ftl_line_reader_stream(FtlLineReader *r);


G_DEFINE_AUTOPTR_CLEANUP_FUNC(FtlLineReader, ftl_line_reader_free)
