/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Maps an input file, inflating gzip/zstd to an unlinked temporary file first so
 * that every parser sees one stable byte range and memory stays flat. */
#include "config.h"

#include "util/input.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>

#include "util/error.h"

#define INPUT_CHUNK (1u << 20)

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

static int input_tmpfile(const char *path, GError **error)
{
	const char *dir = g_get_tmp_dir();
	int fd = open(dir, O_TMPFILE | O_RDWR | O_EXCL, 0600);
	if (fd < 0) {
		/* Filesystems without O_TMPFILE: create and unlink at once. */
		g_autofree char *tmpl = g_build_filename(dir, "ftlens-XXXXXX", NULL);
		fd = g_mkstemp(tmpl);
		if (fd >= 0)
			unlink(tmpl);
	}
	if (fd < 0)
		g_set_error(error, FTL_ERROR, FTL_ERROR_IO,
			    "'%s': cannot create a temporary file in %s: %s", path, dir,
			    g_strerror(errno));
	return fd;
}

static gboolean input_write_all(int fd, const void *buf, gsize len, const char *path,
				GError **error)
{
	const char *p = buf;
	while (len > 0) {
		ssize_t n = write(fd, p, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			g_set_error(error, FTL_ERROR, FTL_ERROR_IO,
				    "'%s': writing the inflated copy failed: %s", path,
				    g_strerror(errno));
			return FALSE;
		}
		p += n;
		len -= (gsize)n;
	}
	return TRUE;
}

static ssize_t input_read(int fd, void *buf, gsize len)
{
	ssize_t n;
	do
		n = read(fd, buf, len);
	while (n < 0 && errno == EINTR);
	return n;
}

static gboolean input_inflate_gzip(int in_fd, int out_fd, const char *path, GError **error)
{
	z_stream zs = { 0 };
	if (inflateInit2(&zs, 15 + 32) != Z_OK) {
		g_set_error(error, FTL_ERROR, FTL_ERROR_IO, "'%s': zlib init failed", path);
		return FALSE;
	}
	g_autofree guchar *ibuf = g_malloc(INPUT_CHUNK);
	g_autofree guchar *obuf = g_malloc(INPUT_CHUNK);
	int ret = Z_OK;
	gboolean ok = TRUE, eof = FALSE;
	while (ok) {
		if (zs.avail_in == 0 && !eof) {
			ssize_t n = input_read(in_fd, ibuf, INPUT_CHUNK);
			if (n < 0) {
				g_set_error(error, FTL_ERROR, FTL_ERROR_IO, "'%s': %s", path,
					    g_strerror(errno));
				ok = FALSE;
				break;
			}
			eof = n == 0;
			zs.next_in = ibuf;
			zs.avail_in = (uInt)n;
		}
		if (zs.avail_in == 0 && eof) {
			if (ret != Z_STREAM_END) {
				g_set_error(error, FTL_ERROR, FTL_ERROR_PARSE,
					    "'%s': offset %lu: gzip data is truncated", path,
					    zs.total_in);
				ok = FALSE;
			}
			break;
		}
		if (ret == Z_STREAM_END) {
			/* Concatenated members, as `cat a.gz b.gz` makes. */
			inflateReset(&zs);
		}
		zs.next_out = obuf;
		zs.avail_out = INPUT_CHUNK;
		ret = inflate(&zs, Z_NO_FLUSH);
		if (ret != Z_OK && ret != Z_STREAM_END && ret != Z_BUF_ERROR) {
			g_set_error(error, FTL_ERROR, FTL_ERROR_PARSE,
				    "'%s': offset %lu: corrupt gzip data (%s)", path, zs.total_in,
				    zs.msg ? zs.msg : "inflate failed");
			ok = FALSE;
			break;
		}
		ok = input_write_all(out_fd, obuf, INPUT_CHUNK - zs.avail_out, path, error);
	}
	inflateEnd(&zs);
	return ok;
}

static gboolean input_inflate_zstd(int in_fd, int out_fd, const char *path, GError **error)
{
	ZSTD_DStream *zs = ZSTD_createDStream();
	if (!zs) {
		g_set_error(error, FTL_ERROR, FTL_ERROR_IO, "'%s': zstd init failed", path);
		return FALSE;
	}
	ZSTD_initDStream(zs);
	gsize isize = ZSTD_DStreamInSize(), osize = ZSTD_DStreamOutSize();
	g_autofree guchar *ibuf = g_malloc(isize);
	g_autofree guchar *obuf = g_malloc(osize);
	gboolean ok = TRUE;
	size_t last = 0;
	guint64 consumed = 0;
	for (;;) {
		ssize_t n = input_read(in_fd, ibuf, isize);
		if (n < 0) {
			g_set_error(error, FTL_ERROR, FTL_ERROR_IO, "'%s': %s", path,
				    g_strerror(errno));
			ok = FALSE;
			break;
		}
		if (n == 0) {
			if (last != 0) {
				g_set_error(error, FTL_ERROR, FTL_ERROR_PARSE,
					    "'%s': offset %" G_GUINT64_FORMAT
					    ": zstd data is truncated",
					    path, consumed);
				ok = FALSE;
			}
			break;
		}
		ZSTD_inBuffer zin = { ibuf, (size_t)n, 0 };
		while (ok && zin.pos < zin.size) {
			ZSTD_outBuffer zout = { obuf, osize, 0 };
			last = ZSTD_decompressStream(zs, &zout, &zin);
			if (ZSTD_isError(last)) {
				g_set_error(error, FTL_ERROR, FTL_ERROR_PARSE,
					    "'%s': offset %" G_GUINT64_FORMAT
					    ": corrupt zstd data (%s)",
					    path, consumed + zin.pos, ZSTD_getErrorName(last));
				ok = FALSE;
				break;
			}
			ok = input_write_all(out_fd, obuf, zout.pos, path, error);
		}
		consumed += (guint64)n;
		if (!ok)
			break;
	}
	ZSTD_freeDStream(zs);
	return ok;
}

static gboolean input_copy(int in_fd, int out_fd, const char *path, GError **error)
{
	g_autofree guchar *buf = g_malloc(INPUT_CHUNK);
	for (;;) {
		ssize_t n = input_read(in_fd, buf, INPUT_CHUNK);
		if (n < 0) {
			g_set_error(error, FTL_ERROR, FTL_ERROR_IO, "'%s': %s", path,
				    g_strerror(errno));
			return FALSE;
		}
		if (n == 0)
			return TRUE;
		if (!input_write_all(out_fd, buf, (gsize)n, path, error))
			return FALSE;
	}
}

static gboolean input_map(FtlInput *in, int fd, GError **error)
{
	struct stat st;
	if (fstat(fd, &st) < 0) {
		g_set_error(error, FTL_ERROR, FTL_ERROR_IO, "'%s': %s", in->path,
			    g_strerror(errno));
		return FALSE;
	}
	in->size = (gsize)st.st_size;
	if (in->size == 0)
		return TRUE;
	void *p = mmap(NULL, in->size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (p == MAP_FAILED) {
		g_set_error(error, FTL_ERROR, FTL_ERROR_IO, "'%s': cannot map %zu bytes: %s",
			    in->path, in->size, g_strerror(errno));
		in->size = 0;
		return FALSE;
	}
	madvise(p, in->size, MADV_SEQUENTIAL);
	in->data = p;
	in->map_size = in->size;
	return TRUE;
}

FtlInput *ftl_input_open(const char *path, GError **error)
{
	g_autoptr(FtlInput) in = g_new0(FtlInput, 1);
	in->path = g_strdup(path);
	gboolean is_stdin = g_strcmp0(path, "-") == 0;
	int fd = is_stdin ? dup(STDIN_FILENO) : open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		g_set_error(error, FTL_ERROR, FTL_ERROR_IO, "'%s': %s", path, g_strerror(errno));
		return NULL;
	}
	struct stat st;
	if (fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
		close(fd);
		g_set_error(error, FTL_ERROR, FTL_ERROR_FORMAT, "'%s': is a directory", path);
		return NULL;
	}
	guchar magic[4] = { 0 };
	ssize_t got = 0;
	/* tracefs and procfs files say they are empty: read those as streams */
	gboolean seekable = !is_stdin && S_ISREG(st.st_mode) && st.st_size > 0;
	if (seekable) {
		got = pread(fd, magic, sizeof magic, 0);
		if (got < 0)
			got = 0;
	}
	if (got >= 2 && magic[0] == 0x1f && magic[1] == 0x8b)
		in->compression = FTL_COMPRESSION_GZIP;
	else if (got >= 4 && magic[0] == 0x28 && magic[1] == 0xb5 && magic[2] == 0x2f &&
		 magic[3] == 0xfd)
		in->compression = FTL_COMPRESSION_ZSTD;

	gboolean ok;
	if (seekable && in->compression == FTL_COMPRESSION_NONE) {
		ok = input_map(in, fd, error);
		close(fd);
		return ok ? g_steal_pointer(&in) : NULL;
	}
	int tmp = input_tmpfile(path, error);
	if (tmp < 0) {
		close(fd);
		return NULL;
	}
	if (in->compression == FTL_COMPRESSION_GZIP)
		ok = input_inflate_gzip(fd, tmp, path, error);
	else if (in->compression == FTL_COMPRESSION_ZSTD)
		ok = input_inflate_zstd(fd, tmp, path, error);
	else
		ok = input_copy(fd, tmp, path, error);
	close(fd);
	if (ok && !seekable) {
		/* A pipe may carry compressed data too: sniff the copy. */
		guchar m[4] = { 0 };
		if (pread(tmp, m, 4, 0) == 4 &&
		    ((m[0] == 0x1f && m[1] == 0x8b) ||
		     (m[0] == 0x28 && m[1] == 0xb5 && m[2] == 0x2f && m[3] == 0xfd))) {
			int tmp2 = input_tmpfile(path, error);
			ok = tmp2 >= 0 && lseek(tmp, 0, SEEK_SET) == 0;
			if (ok) {
				in->compression =
					m[0] == 0x1f ? FTL_COMPRESSION_GZIP : FTL_COMPRESSION_ZSTD;
				ok = in->compression == FTL_COMPRESSION_GZIP
					     ? input_inflate_gzip(tmp, tmp2, path, error)
					     : input_inflate_zstd(tmp, tmp2, path, error);
			}
			close(tmp);
			tmp = tmp2;
		}
	}
	if (ok)
		ok = input_map(in, tmp, error);
	if (tmp >= 0)
		close(tmp);
	return ok ? g_steal_pointer(&in) : NULL;
}

void ftl_input_release(FtlInput *in, gsize offset)
{
	gsize page = (gsize)sysconf(_SC_PAGESIZE);
	offset = MIN(offset, in->map_size) / page * page;
	if (!in->data || offset <= in->released)
		return;
	madvise((char *)in->data + in->released, offset - in->released, MADV_DONTNEED);
	in->released = offset;
}

void ftl_input_free(FtlInput *in)
{
	if (!in)
		return;
	if (in->data && in->map_size)
		munmap((void *)in->data, in->map_size);
	g_free(in->owned);
	g_free(in->path);
	g_free(in);
}

FtlInput *ftl_input_new_from_memory(const char *label, char *data, gsize size)
{
	FtlInput *in = g_new0(FtlInput, 1);
	in->path = g_strdup(label);
	in->owned = data;
	in->data = size ? data : NULL;
	in->size = size;
	return in;
}
