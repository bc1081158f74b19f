/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Inputs read front to back: plain, gzip and zstd, a file that shrinks or
 * grows while read, memory, and what peek() leaves for read(). */
#include "config.h"

#include <fcntl.h>
#include <glib/gstdio.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>

#include "unit.h"
#include "util/error.h"
#include "util/stream.h"

static char *tmp_file(const void *data, gsize len)
{
	char *path = NULL;
	int fd = g_file_open_tmp("ftl-stream-XXXXXX", &path, NULL);
	g_assert(fd >= 0);
	g_assert(write(fd, data, len) == (gssize)len);
	close(fd);
	return path;
}

/* Some text of n bytes: numbered lines. */
static GString *some_text(gsize n)
{
	GString *s = g_string_new(NULL);
	for (guint i = 0; s->len < n; i++)
		g_string_append_printf(s, "line %u of some text\n", i);
	g_string_truncate(s, n);
	return s;
}

/* Everything s gives, read step bytes at a time; NULL with *error on failure. */
static GString *read_all(FtlStream *s, gsize step, GError **error)
{
	GString *out = g_string_new(NULL);
	char *buf = g_malloc(step);
	for (;;) {
		gssize n = ftl_stream_read(s, buf, step, error);
		if (n < 0) {
			g_free(buf);
			g_string_free(out, TRUE);
			return NULL;
		}
		if (n == 0)
			break;
		g_string_append_len(out, buf, n);
	}
	g_free(buf);
	return out;
}

static GByteArray *gzip_bytes(const char *data, gsize len)
{
	z_stream zs = { 0 };
	g_assert(deflateInit2(&zs, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) == Z_OK);
	GByteArray *out = g_byte_array_sized_new((guint)deflateBound(&zs, len));
	g_byte_array_set_size(out, (guint)deflateBound(&zs, len));
	zs.next_in = (Bytef *)data;
	zs.avail_in = (uInt)len;
	zs.next_out = out->data;
	zs.avail_out = out->len;
	g_assert(deflate(&zs, Z_FINISH) == Z_STREAM_END);
	g_byte_array_set_size(out, (guint)zs.total_out);
	deflateEnd(&zs);
	return out;
}

static void test_plain_small_reads(void)
{
	g_autoptr(GString) text = some_text(300000);
	g_autofree char *path = tmp_file(text->str, text->len);
	g_autoptr(GError) err = NULL;
	g_autoptr(FtlStream) s = ftl_stream_open(path, &err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	CU_ASSERT_TRUE(ftl_stream_is_seekable(s));
	CU_ASSERT_EQUAL(ftl_stream_input_size(s), text->len);
	gsize n;
	const char *head = ftl_stream_peek(s, 100, &n, &err);
	CU_ASSERT_EQUAL(n, 100);
	CU_ASSERT(memcmp(head, text->str, 100) == 0);
	g_autoptr(GString) got = read_all(s, 777, &err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(got);
	CU_ASSERT_EQUAL(got->len, text->len);
	CU_ASSERT(memcmp(got->str, text->str, text->len) == 0);
	CU_ASSERT_EQUAL(ftl_stream_input_pos(s), text->len);
	g_unlink(path);
}

static void test_gzip_members(void)
{
	g_autoptr(GString) a = some_text(200000), b = some_text(1000);
	g_autoptr(GByteArray) za = gzip_bytes(a->str, a->len), zb = gzip_bytes(b->str, b->len);
	g_byte_array_append(za, zb->data, zb->len); /* as `cat a.gz b.gz` */
	g_autofree char *path = tmp_file(za->data, za->len);
	g_autoptr(GError) err = NULL;
	g_autoptr(FtlStream) s = ftl_stream_open(path, &err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	CU_ASSERT_EQUAL(ftl_stream_compression(s), FTL_COMPRESSION_GZIP);
	CU_ASSERT_FALSE(ftl_stream_is_seekable(s));
	g_autoptr(GString) got = read_all(s, 4096, &err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(got);
	CU_ASSERT_EQUAL(got->len, a->len + b->len);
	CU_ASSERT(memcmp(got->str, a->str, a->len) == 0);
	g_unlink(path);

	/* cut short: an error, after what could be read */
	g_autofree char *cut = tmp_file(za->data, za->len / 2);
	g_autoptr(FtlStream) c = ftl_stream_open(cut, &err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	g_autoptr(GString) none = read_all(c, 4096, &err);
	CU_ASSERT_PTR_NULL(none);
	CU_ASSERT(err && strstr(err->message, "gzip data is truncated"));
	g_unlink(cut);
}

static void test_zstd_frames(void)
{
	g_autoptr(GString) a = some_text(500000);
	gsize bound = ZSTD_compressBound(a->len);
	g_autofree char *z = g_malloc(2 * bound);
	gsize n1 = ZSTD_compress(z, bound, a->str, a->len, 1);
	gsize n2 = ZSTD_compress(z + n1, bound, a->str, 1000, 1);
	CU_ASSERT_FATAL(!ZSTD_isError(n1) && !ZSTD_isError(n2));
	g_autofree char *path = tmp_file(z, n1 + n2);
	g_autoptr(GError) err = NULL;
	g_autoptr(FtlStream) s = ftl_stream_open(path, &err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	CU_ASSERT_EQUAL(ftl_stream_compression(s), FTL_COMPRESSION_ZSTD);
	g_autoptr(GString) got = read_all(s, 65536, &err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(got);
	CU_ASSERT_EQUAL(got->len, a->len + 1000);
	g_unlink(path);

	g_autofree char *cut = tmp_file(z, n1 - 10);
	g_autoptr(FtlStream) c = ftl_stream_open(cut, &err);
	g_autoptr(GString) none = read_all(c, 65536, &err);
	CU_ASSERT_PTR_NULL(none);
	CU_ASSERT(err && strstr(err->message, "zstd data is truncated"));
	g_unlink(cut);
}

/* A file cut short while being read is an error naming it, not a shorter input. */
static void test_shrinks(void)
{
	g_autoptr(GString) text = some_text(1 << 20);
	g_autofree char *path = tmp_file(text->str, text->len);
	g_autoptr(GError) err = NULL;
	g_autoptr(FtlStream) s = ftl_stream_open(path, &err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	char buf[4096];
	gsize got = 0;
	while (got < 200000) {
		gssize n = ftl_stream_read(s, buf, sizeof buf, &err);
		CU_ASSERT_FATAL(n > 0);
		got += (gsize)n;
	}
	CU_ASSERT_EQUAL(truncate(path, 100000), 0);
	g_autoptr(GString) rest = read_all(s, 4096, &err);
	CU_ASSERT_PTR_NULL(rest);
	CU_ASSERT(err && strstr(err->message, "shrank") && strstr(err->message, path));
	g_unlink(path);
}

/* A file that grows while being read gives what it held when opened. */
static void test_grows(void)
{
	g_autoptr(GString) text = some_text(100000);
	g_autofree char *path = tmp_file(text->str, text->len);
	g_autoptr(GError) err = NULL;
	g_autoptr(FtlStream) s = ftl_stream_open(path, &err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	FILE *f = fopen(path, "a");
	fputs("more lines\nand more\n", f);
	fclose(f);
	g_autoptr(GString) got = read_all(s, 4096, &err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(got);
	CU_ASSERT_EQUAL(got->len, text->len);
	g_unlink(path);
}

static void test_memory_and_seek(void)
{
	static const char text[] = "one\ntwo\nthree\n";
	g_autoptr(FtlStream) s = ftl_stream_new_from_memory("mem", text, sizeof text - 1, NULL);
	g_autoptr(GError) err = NULL;
	CU_ASSERT_STRING_EQUAL(ftl_stream_path(s), "mem");
	CU_ASSERT_TRUE(ftl_stream_is_seekable(s));
	CU_ASSERT_TRUE(ftl_stream_seek(s, 4, &err));
	g_autoptr(GString) got = read_all(s, 3, &err);
	CU_ASSERT_STRING_EQUAL(got->str, "two\nthree\n");
	CU_ASSERT_FALSE(ftl_stream_seek(s, 100, &err));
}

static void test_errors(void)
{
	g_autoptr(GError) err = NULL;
	g_autofree char *dir = g_dir_make_tmp("ftl-stream-XXXXXX", NULL);
	CU_ASSERT_PTR_NULL(ftl_stream_open(dir, &err));
	CU_ASSERT(err && strstr(err->message, "is a directory"));
	g_clear_error(&err);
	g_autofree char *loop = g_build_filename(dir, "loop", NULL);
	CU_ASSERT_EQUAL(symlink(loop, loop), 0);
	CU_ASSERT_PTR_NULL(ftl_stream_open(loop, &err));
	CU_ASSERT(err && strstr(err->message, loop));
	g_unlink(loop);
	g_rmdir(dir);
}

static const UnitTest tests[] = {
	{ "plain file: peek, then small reads", test_plain_small_reads },
	{ "gzip: concatenated members; cut short is an error", test_gzip_members },
	{ "zstd: two frames; cut short is an error", test_zstd_frames },
	{ "a file that shrinks while read", test_shrinks },
	{ "a file that grows while read", test_grows },
	{ "memory streams seek", test_memory_and_seek },
	{ "a directory, a symlink loop", test_errors },
	{ NULL, NULL },
};

int main(void)
{
	return unit_run("stream", tests);
}
