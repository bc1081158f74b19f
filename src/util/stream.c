/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Front-to-back input: read() on files, pipes, FIFOs and devices, with gzip and
 * zstd inflated a buffer at a time, so memory and disk stay flat whatever the
 * input expands to. */
#include "config.h"

#include "util/stream.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>

#include "util/error.h"
#include "util/fdio.h"

/* Compressed input is read this much at a time. */
#define STREAM_IBUF (256u << 10)
/* what the compression probe and the FIFO check read into it first */
#define STREAM_PROBE 16u

struct _FtlStream {
	char *path;
	int fd; /* -1 for memory */
	gboolean regular;
	guint64 size;	 /* bytes of the file as opened; 0 when unknown */
	guint64 limit;	 /* raw bytes to read: a regular file's size at open,
			  * or the end of a range (ftl_stream_seek_range) */
	guint64 raw_pos; /* raw bytes read from fd (or memory) */
	guint64 dev, ino;
	gint64 mtime_ns;
	FtlCompression comp;
	/* raw bytes read but not yet decoded: the magic probe, compressed data */
	guchar *ibuf;
	gsize ibuf_cap, ibuf_pos, ibuf_len;
	gboolean raw_eof;
	z_stream zs;
	gboolean zs_init;
	int z_ret;
	ZSTD_DStream *zd;
	size_t zd_last;
	/* decoded bytes handed out by peek() and not yet read() */
	char *head;
	gsize head_cap, head_pos, head_len;
	/* memory streams */
	const char *mem;
	GDestroyNotify mem_free;
};

const char *ftl_compression_name(FtlCompression c)
{
	switch (c) {
	case FTL_COMPRESSION_GZIP:
		return "gzip";
	case FTL_COMPRESSION_ZSTD:
		return "zstd";
	default:
		return "none";
	}
}

FtlCompression ftl_compression_sniff(const guchar *m, gsize len)
{
	if (len >= 2 && m[0] == 0x1f && m[1] == 0x8b)
		return FTL_COMPRESSION_GZIP;
	if (len >= 4 && m[0] == 0x28 && m[1] == 0xb5 && m[2] == 0x2f && m[3] == 0xfd)
		return FTL_COMPRESSION_ZSTD;
	return FTL_COMPRESSION_NONE;
}

static gboolean stream_errno(GError **error, const char *path, int err)
{
	g_set_error(error, FTL_ERROR, FTL_ERROR_IO, "'%s': %s", path, g_strerror(err));
	return FALSE;
}

/* Reads raw bytes: a regular file up to the size it had when opened. */
static gssize stream_raw_read(FtlStream *s, void *buf, gsize len, GError **error)
{
	if (s->mem) {
		gsize n = (gsize)MIN((guint64)len, s->limit - s->raw_pos);
		memcpy(buf, s->mem + s->raw_pos, n);
		s->raw_pos += n;
		return (gssize)n;
	}
	if (s->regular)
		len = (gsize)MIN((guint64)len, s->limit - s->raw_pos);
	if (len == 0)
		return 0;
	gssize n = ftl_fd_read(s->fd, buf, len);
	if (n < 0) {
		stream_errno(error, s->path, errno);
		return -1;
	}
	if (n == 0 && s->regular) {
		g_set_error(error, FTL_ERROR, FTL_ERROR_IO,
			    "'%s': the file shrank while being read (%" G_GUINT64_FORMAT
			    " of %" G_GUINT64_FORMAT " bytes)",
			    s->path, s->raw_pos, s->limit);
		return -1;
	}
	s->raw_pos += (guint64)n;
	return n;
}

/* ibuf holds at least cap bytes. It starts empty: plain input is read
 * straight into the caller's buffer and needs only the few bytes the probe
 * looked at, so the full STREAM_IBUF is made only for a decompressor (a
 * trace opened from memory, as the TUI and console dumps do, or a small
 * file, no longer allocates and frees 256 KB for nothing). */
static void stream_ibuf_grow(FtlStream *s, gsize cap)
{
	if (s->ibuf_cap >= cap)
		return;
	s->ibuf = g_realloc(s->ibuf, cap);
	s->ibuf_cap = cap;
}

/* Tops up ibuf with raw input; sets raw_eof at the end. */
static gboolean stream_fill(FtlStream *s, GError **error)
{
	stream_ibuf_grow(s, STREAM_IBUF);
	if (s->ibuf_pos == s->ibuf_len)
		s->ibuf_pos = s->ibuf_len = 0;
	if (s->ibuf_len == s->ibuf_cap || s->raw_eof)
		return TRUE;
	gssize n = stream_raw_read(s, s->ibuf + s->ibuf_len, s->ibuf_cap - s->ibuf_len, error);
	if (n < 0)
		return FALSE;
	if (n == 0)
		s->raw_eof = TRUE;
	s->ibuf_len += (gsize)n;
	return TRUE;
}

static gssize stream_plain(FtlStream *s, void *buf, gsize len, GError **error)
{
	if (s->ibuf_pos < s->ibuf_len) {
		gsize n = MIN(len, s->ibuf_len - s->ibuf_pos);
		memcpy(buf, s->ibuf + s->ibuf_pos, n);
		s->ibuf_pos += n;
		return (gssize)n;
	}
	if (s->raw_eof)
		return 0;
	gssize n = stream_raw_read(s, buf, len, error);
	if (n == 0)
		s->raw_eof = TRUE;
	return n;
}

static guint64 stream_consumed(const FtlStream *s)
{
	return s->raw_pos - (s->ibuf_len - s->ibuf_pos);
}

static gssize stream_gzip(FtlStream *s, void *buf, gsize len, GError **error)
{
	for (;;) {
		if (s->ibuf_pos == s->ibuf_len && !stream_fill(s, error))
			return -1;
		if (s->ibuf_pos == s->ibuf_len) {
			if (s->z_ret == Z_STREAM_END)
				return 0;
			g_set_error(error, FTL_ERROR, FTL_ERROR_PARSE,
				    "'%s': offset %" G_GUINT64_FORMAT ": gzip data is truncated",
				    s->path, stream_consumed(s));
			return -1;
		}
		if (s->z_ret == Z_STREAM_END) /* concatenated members, as `cat a.gz b.gz` makes */
			inflateReset(&s->zs);
		s->zs.next_in = s->ibuf + s->ibuf_pos;
		s->zs.avail_in = (uInt)(s->ibuf_len - s->ibuf_pos);
		s->zs.next_out = buf;
		s->zs.avail_out = (uInt)MIN(len, (gsize)G_MAXUINT32);
		uInt before = s->zs.avail_out;
		s->z_ret = inflate(&s->zs, Z_NO_FLUSH);
		s->ibuf_pos = s->ibuf_len - s->zs.avail_in;
		if (s->z_ret != Z_OK && s->z_ret != Z_STREAM_END && s->z_ret != Z_BUF_ERROR) {
			g_set_error(error, FTL_ERROR, FTL_ERROR_PARSE,
				    "'%s': offset %" G_GUINT64_FORMAT ": corrupt gzip data (%s)",
				    s->path, stream_consumed(s),
				    s->zs.msg ? s->zs.msg : "inflate failed");
			return -1;
		}
		if (before != s->zs.avail_out)
			return (gssize)(before - s->zs.avail_out);
	}
}

static gssize stream_zstd(FtlStream *s, void *buf, gsize len, GError **error)
{
	for (;;) {
		if (s->ibuf_pos == s->ibuf_len && !stream_fill(s, error))
			return -1;
		ZSTD_inBuffer in = { s->ibuf + s->ibuf_pos, s->ibuf_len - s->ibuf_pos, 0 };
		if (in.size == 0 && s->zd_last == 0)
			return 0; /* the input ended where a frame did */
		ZSTD_outBuffer out = { buf, len, 0 };
		s->zd_last = ZSTD_decompressStream(s->zd, &out, &in);
		s->ibuf_pos += in.pos;
		if (ZSTD_isError(s->zd_last)) {
			g_set_error(error, FTL_ERROR, FTL_ERROR_PARSE,
				    "'%s': offset %" G_GUINT64_FORMAT ": corrupt zstd data (%s)",
				    s->path, stream_consumed(s), ZSTD_getErrorName(s->zd_last));
			return -1;
		}
		if (out.pos)
			return (gssize)out.pos;
		if (in.size == 0) {
			g_set_error(error, FTL_ERROR, FTL_ERROR_PARSE,
				    "'%s': offset %" G_GUINT64_FORMAT ": zstd data is truncated",
				    s->path, stream_consumed(s));
			return -1;
		}
	}
}

static gssize stream_decode(FtlStream *s, void *buf, gsize len, GError **error)
{
	switch (s->comp) {
	case FTL_COMPRESSION_GZIP:
		return stream_gzip(s, buf, len, error);
	case FTL_COMPRESSION_ZSTD:
		return stream_zstd(s, buf, len, error);
	default:
		return stream_plain(s, buf, len, error);
	}
}

gssize ftl_stream_read(FtlStream *s, void *buf, gsize len, GError **error)
{
	if (s->head_pos < s->head_len) {
		gsize n = MIN(len, s->head_len - s->head_pos);
		memcpy(buf, s->head + s->head_pos, n);
		s->head_pos += n;
		return (gssize)n;
	}
	return stream_decode(s, buf, len, error);
}

const char *ftl_stream_peek(FtlStream *s, gsize want, gsize *len, GError **error)
{
	if (s->head_pos > 0) {
		memmove(s->head, s->head + s->head_pos, s->head_len - s->head_pos);
		s->head_len -= s->head_pos;
		s->head_pos = 0;
	}
	if (want > s->head_cap) {
		s->head = g_realloc(s->head, want);
		s->head_cap = want;
	}
	while (s->head_len < want) {
		gssize n = stream_decode(s, s->head + s->head_len, want - s->head_len, error);
		if (n < 0)
			return NULL;
		if (n == 0)
			break;
		s->head_len += (gsize)n;
	}
	*len = MIN(want, s->head_len);
	return s->head ? s->head : "";
}

/* Waits for a FIFO's writer: without one, reading would see an end of file at
 * once (O_NONBLOCK) or block for ever. A writer that opened it but has not
 * written yet is fine: then reads block until it does. */
static gboolean stream_wait_fifo(FtlStream *s, GError **error)
{
	struct pollfd pfd = { .fd = s->fd, .events = POLLIN };
	int n;
	do
		n = poll(&pfd, 1, FTL_STREAM_FIFO_WAIT_MS);
	while (n < 0 && errno == EINTR);
	if (n > 0)
		return TRUE; /* data, or a writer that came and left (the end) */
	stream_ibuf_grow(s, STREAM_PROBE);
	ssize_t r = read(s->fd, s->ibuf, 1);
	if (r > 0) {
		s->ibuf_len = 1;
		s->raw_pos = 1;
		return TRUE;
	}
	if (r < 0 && errno == EAGAIN)
		return TRUE;
	g_set_error(error, FTL_ERROR, FTL_ERROR_IO,
		    "'%s': a FIFO that no process writes to (waited %d s for a writer)", s->path,
		    FTL_STREAM_FIFO_WAIT_MS / 1000);
	return FALSE;
}

/* Reads the first bytes to see whether they are compressed; they stay in ibuf. */
static gboolean stream_probe(FtlStream *s, GError **error)
{
	stream_ibuf_grow(s, STREAM_PROBE);
	while (s->ibuf_len < 4 && !s->raw_eof) {
		gssize n = stream_raw_read(s, s->ibuf + s->ibuf_len, 4 - s->ibuf_len, error);
		if (n < 0)
			return FALSE;
		if (n == 0)
			s->raw_eof = TRUE;
		s->ibuf_len += (gsize)n;
	}
	s->comp = ftl_compression_sniff(s->ibuf, s->ibuf_len);
	if (s->comp == FTL_COMPRESSION_GZIP) {
		if (inflateInit2(&s->zs, 15 + 32) != Z_OK) {
			g_set_error(error, FTL_ERROR, FTL_ERROR_IO, "'%s': zlib init failed",
				    s->path);
			return FALSE;
		}
		s->zs_init = TRUE;
		s->z_ret = Z_OK;
	} else if (s->comp == FTL_COMPRESSION_ZSTD) {
		s->zd = ZSTD_createDStream();
		if (!s->zd) {
			g_set_error(error, FTL_ERROR, FTL_ERROR_IO, "'%s': zstd init failed",
				    s->path);
			return FALSE;
		}
		ZSTD_initDStream(s->zd);
		s->zd_last = 1; /* inside a frame until one ends */
	}
	return TRUE;
}

/* A file's identity as caches key it, from its stat. */
static void stream_id(const struct stat *st, guint64 *dev, guint64 *ino, guint64 *size,
		      gint64 *mtime_ns)
{
	*dev = (guint64)st->st_dev;
	*ino = (guint64)st->st_ino;
	*size = (guint64)st->st_size;
	*mtime_ns =
		(gint64)st->st_mtim.tv_sec * G_GINT64_CONSTANT(1000000000) + st->st_mtim.tv_nsec;
}

static FtlStream *stream_alloc(const char *path)
{
	FtlStream *s = g_new0(FtlStream, 1);
	s->path = g_strdup(path);
	s->fd = -1;
	s->limit = G_MAXUINT64;
	return s;
}

/* Standard input: a regular file (a redirect, or the copy
 * ftl_input_spool_stdin() made) is opened anew at the offset it had first, so
 * every stream over "-" reads all of it; anything else is read once. */
static int stream_stdin_fd(void)
{
	static gint64 origin = -1;
	struct stat st;
	if (fstat(STDIN_FILENO, &st) < 0 || !S_ISREG(st.st_mode))
		return dup(STDIN_FILENO);
	if (origin < 0)
		origin = MAX(lseek(STDIN_FILENO, 0, SEEK_CUR), 0);
	/* /proc gives a description with an offset of its own; dup() shares fd 0's */
	int fd = open("/proc/self/fd/0", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		fd = dup(STDIN_FILENO);
	if (fd >= 0)
		lseek(fd, (off_t)origin, SEEK_SET);
	return fd;
}

FtlStream *ftl_stream_open(const char *path, GError **error)
{
	g_autoptr(FtlStream) s = stream_alloc(path);
	gboolean is_stdin = g_strcmp0(path, "-") == 0;
	/* O_NONBLOCK: opening a FIFO without a writer would block for ever */
	s->fd = is_stdin ? stream_stdin_fd() : open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (s->fd < 0) {
		stream_errno(error, path, errno);
		return NULL;
	}
	struct stat st;
	if (fstat(s->fd, &st) < 0) {
		stream_errno(error, path, errno);
		return NULL;
	}
	if (S_ISDIR(st.st_mode)) {
		g_set_error(error, FTL_ERROR, FTL_ERROR_FORMAT, "'%s': is a directory", path);
		return NULL;
	}
	/* tracefs and procfs files say they are empty: read those as streams */
	s->regular = !is_stdin && S_ISREG(st.st_mode) && st.st_size > 0;
	if (s->regular) {
		stream_id(&st, &s->dev, &s->ino, &s->size, &s->mtime_ns);
		s->limit = s->size;
	}
	if (!is_stdin && S_ISFIFO(st.st_mode) && !stream_wait_fifo(s, error))
		return NULL;
	if (!is_stdin) {
		int fl = fcntl(s->fd, F_GETFL);
		if (fl >= 0)
			fcntl(s->fd, F_SETFL, fl & ~O_NONBLOCK);
	}
	if (!stream_probe(s, error))
		return NULL;
	if (s->regular)
		posix_fadvise(s->fd, 0, 0, POSIX_FADV_SEQUENTIAL);
	return g_steal_pointer(&s);
}

FtlStream *ftl_stream_new_from_memory(const char *label, const char *data, gsize size,
				      GDestroyNotify free_data)
{
	FtlStream *s = stream_alloc(label);
	s->mem = data ? data : "";
	/* no bytes may come as NULL (g_memdup2 of 0): nothing to free then */
	s->mem_free = data ? free_data : NULL;
	s->size = s->limit = size;
	s->raw_eof = size == 0;
	return s;
}

void ftl_stream_free(FtlStream *s)
{
	if (!s)
		return;
	if (s->fd >= 0)
		close(s->fd);
	if (s->zs_init)
		inflateEnd(&s->zs);
	if (s->zd)
		ZSTD_freeDStream(s->zd);
	if (s->mem_free)
		s->mem_free((gpointer)s->mem);
	g_free(s->ibuf);
	g_free(s->head);
	g_free(s->path);
	g_free(s);
}

const char *ftl_stream_path(const FtlStream *s)
{
	return s->path;
}

FtlCompression ftl_stream_compression(const FtlStream *s)
{
	return s->comp;
}

guint64 ftl_stream_input_size(const FtlStream *s)
{
	return s->size;
}

guint64 ftl_stream_input_pos(const FtlStream *s)
{
	return stream_consumed(s);
}

gboolean ftl_stream_is_seekable(const FtlStream *s)
{
	return (s->regular || s->mem) && s->comp == FTL_COMPRESSION_NONE;
}

gboolean ftl_stream_seek(FtlStream *s, guint64 offset, GError **error)
{
	return ftl_stream_seek_range(s, offset, G_MAXUINT64, error);
}

gboolean ftl_stream_seek_range(FtlStream *s, guint64 offset, guint64 end, GError **error)
{
	g_return_val_if_fail(ftl_stream_is_seekable(s), FALSE);
	if (offset > s->size) {
		g_set_error(error, FTL_ERROR, FTL_ERROR_IO,
			    "'%s': offset %" G_GUINT64_FORMAT " is past the end (%" G_GUINT64_FORMAT
			    " bytes)",
			    s->path, offset, s->size);
		return FALSE;
	}
	if (!s->mem && lseek(s->fd, (off_t)offset, SEEK_SET) < 0)
		return stream_errno(error, s->path, errno);
	s->raw_pos = offset;
	s->limit = CLAMP(end, offset, s->size);
	s->ibuf_pos = s->ibuf_len = 0;
	s->head_pos = s->head_len = 0;
	s->raw_eof = offset == s->limit;
	return TRUE;
}

int ftl_stream_fd(const FtlStream *s)
{
	return s->fd;
}

gboolean ftl_stream_grew(const FtlStream *s)
{
	struct stat st;
	return s->regular && s->limit == s->size && fstat(s->fd, &st) == 0 &&
	       (guint64)st.st_size > s->size;
}

gboolean ftl_file_id(const char *path, guint64 *dev, guint64 *ino, guint64 *size, gint64 *mtime_ns)
{
	struct stat st;
	if (stat(path, &st) < 0 || !S_ISREG(st.st_mode))
		return FALSE;
	stream_id(&st, dev, ino, size, mtime_ns);
	return TRUE;
}

gboolean ftl_stream_file_id(const FtlStream *s, guint64 *dev, guint64 *ino, guint64 *size,
			    gint64 *mtime_ns)
{
	if (!s->regular)
		return FALSE;
	*dev = s->dev;
	*ino = s->ino;
	*size = s->size;
	*mtime_ns = s->mtime_ns;
	return TRUE;
}
