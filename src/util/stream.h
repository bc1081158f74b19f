/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Inputs read front to back: files, standard input, pipes, FIFOs and character
 * devices, with gzip and zstd decompressed chunk by chunk on the way, never
 * expanded whole. The text parsers read every input this way; a regular file
 * is read up to the size it had when opened, so a file that grows meanwhile
 * gives what it held then and one that shrinks is an error, not a signal. */
#pragma once

#include <glib.h>

typedef enum {
	FTL_COMPRESSION_NONE,
	FTL_COMPRESSION_GZIP,
	FTL_COMPRESSION_ZSTD,
} FtlCompression;

const char *ftl_compression_name(FtlCompression c);
/* The compression the first bytes of a stream announce (gzip or zstd magic). */
FtlCompression ftl_compression_sniff(const guchar *p, gsize len);

typedef struct _FtlStream FtlStream;

/* How long opening a FIFO waits for a writer before it is an error. */
#define FTL_STREAM_FIFO_WAIT_MS 5000

/* Opens path ("-" is standard input) for reading. A directory, a FIFO that no
 * writer opens within FTL_STREAM_FIFO_WAIT_MS and unreadable files are errors
 * naming the path. Free with ftl_stream_free(). */
FtlStream *ftl_stream_open(const char *path, GError **error);
/* A stream over size bytes of memory, which it borrows (data must outlive it)
 * unless free_data is given: then it is called on data when the stream is
 * freed. label names the stream in messages. Never compressed. */
FtlStream *ftl_stream_new_from_memory(const char *label, const char *data, gsize size,
				      GDestroyNotify free_data);
void ftl_stream_free(FtlStream *s);

/* Reads up to len decompressed bytes into buf: the count, 0 at the end, -1
 * with error set (I/O, corrupt or cut compressed data, a file that shrank). */
gssize ftl_stream_read(FtlStream *s, void *buf, gsize len, GError **error);
/* The first bytes of the (decompressed) stream, without consuming them: up to
 * want bytes, fewer only when the stream is shorter. *len gets the count;
 * the data lives until the next call on s. NULL with error set on failure. */
const char *ftl_stream_peek(FtlStream *s, gsize want, gsize *len, GError **error);

const char *ftl_stream_path(const FtlStream *s);
FtlCompression ftl_stream_compression(const FtlStream *s);
/* Bytes of the underlying file (compressed size for compressed files), 0
 * when unknown (pipes, devices, memory sizes are known). */
guint64 ftl_stream_input_size(const FtlStream *s);
/* Bytes of the underlying file consumed so far, for progress. */
guint64 ftl_stream_input_pos(const FtlStream *s);
/* TRUE for a regular, uncompressed file: stream offsets are file offsets and
 * ftl_stream_seek() works. */
gboolean ftl_stream_is_seekable(const FtlStream *s);
/* Moves a seekable stream to offset (a file offset; peeked bytes are dropped). */
gboolean ftl_stream_seek(FtlStream *s, guint64 offset, GError **error);
/* The same, and the stream then ends at end (a file offset, at most the
 * file's size; G_MAXUINT64 for its size) as if the file ended there: a
 * reader that needs only [offset, end) reads nothing after it. */
gboolean ftl_stream_seek_range(FtlStream *s, guint64 offset, guint64 end, GError **error);
/* The file descriptor read from (-1 for memory); borrowed. */
int ftl_stream_fd(const FtlStream *s);
/* Whether s, a regular file read to the size it had when opened, is longer
 * now: another process is appending to it, and the last bytes read may be
 * part of a line it was writing. */
gboolean ftl_stream_grew(const FtlStream *s);
/* Identity of a regular file as opened (for caches keyed by it); FALSE for
 * anything else. */
gboolean ftl_stream_file_id(const FtlStream *s, guint64 *dev, guint64 *ino, guint64 *size,
			    gint64 *mtime_ns);
/* The same identity of the regular file at path, taken now; FALSE when it
 * cannot be read or is not a regular file. */
gboolean ftl_file_id(const char *path, guint64 *dev, guint64 *ino, guint64 *size, gint64 *mtime_ns);

G_DEFINE_AUTOPTR_CLEANUP_FUNC(FtlStream, ftl_stream_free)
