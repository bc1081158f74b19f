/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Inputs mapped for random access: a file truncated while mapped reads as
 * zeros and is reported (no SIGBUS); expanded copies stay within --max-expand. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>
#include <zlib.h>

#include "unit.h"
#include "util/error.h"
#include "util/fdio.h"
#include "util/input.h"

static char *tmp_file(const void *data, gsize len)
{
	char *path = NULL;
	int fd = g_file_open_tmp("ftl-input-XXXXXX", &path, NULL);
	g_assert(fd >= 0);
	g_assert(write(fd, data, len) == (gssize)len);
	close(fd);
	return path;
}

static void test_truncated_while_mapped(void)
{
	/* memcheck turns the kernel's SIGBUS past a truncated mapping into a
	 * SIGSEGV of its own: the guard cannot be seen at work there */
	if (g_getenv("FTL_VALGRIND")) {
		printf("test_truncated_while_mapped: skipped under valgrind (no SIGBUS there)\n");
		return;
	}
	gsize size = 1 << 20;
	g_autofree char *data = g_malloc(size);
	memset(data, 'a', size);
	g_autofree char *path = tmp_file(data, size);
	g_autoptr(GError) err = NULL;
	g_autoptr(FtlInput) in = ftl_input_open(path, NULL, &err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(in);
	CU_ASSERT_EQUAL(in->size, size);
	CU_ASSERT_TRUE(ftl_input_check(in, &err));
	CU_ASSERT_EQUAL(truncate(path, 4096), 0);
	/* past the new end: a SIGBUS without the guard */
	volatile char c = in->data[size - 1];
	CU_ASSERT_EQUAL(c, 0);
	CU_ASSERT_EQUAL(in->data[0], 'a');
	CU_ASSERT_FALSE(ftl_input_check(in, &err));
	CU_ASSERT(err && strstr(err->message, "shrank") && strstr(err->message, path));
	g_unlink(path);
}

static void test_max_expand(void)
{
	/* 8 MiB of zeros in a few KiB of gzip */
	gsize size = 8 << 20;
	g_autofree char *zeros = g_malloc0(size);
	uLongf zlen = compressBound(size);
	g_autofree Bytef *z = g_malloc(zlen);
	z_stream zs = { 0 };
	g_assert(deflateInit2(&zs, 9, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) == Z_OK);
	zs.next_in = (Bytef *)zeros;
	zs.avail_in = (uInt)size;
	zs.next_out = z;
	zs.avail_out = (uInt)zlen;
	g_assert(deflate(&zs, Z_FINISH) == Z_STREAM_END);
	g_autofree char *path = tmp_file(z, zs.total_out);
	deflateEnd(&zs);

	g_autoptr(GError) err = NULL;
	FtlReadOptions one_mib = { .max_expand = 1 << 20 };
	g_autoptr(FtlInput) small = ftl_input_open(path, &one_mib, &err);
	CU_ASSERT_PTR_NULL(small);
	CU_ASSERT(err && strstr(err->message, "--max-expand") && strstr(err->message, "1 MiB"));
	g_clear_error(&err);
	g_autoptr(FtlInput) all = ftl_input_open(path, NULL, &err); /* the default */
	CU_ASSERT_PTR_NOT_NULL_FATAL(all);
	CU_ASSERT_EQUAL(all->size, size);
	CU_ASSERT_EQUAL(all->compression, FTL_COMPRESSION_GZIP);
	g_unlink(path);
}

static void test_parse_size(void)
{
	guint64 v;
	CU_ASSERT_TRUE(ftl_input_parse_size("4G", &v) && v == (4ull << 30));
	CU_ASSERT_TRUE(ftl_input_parse_size("512M", &v) && v == (512ull << 20));
	CU_ASSERT_TRUE(ftl_input_parse_size("512MiB", &v) && v == (512ull << 20));
	CU_ASSERT_TRUE(ftl_input_parse_size("100", &v) && v == 100);
	CU_ASSERT_FALSE(ftl_input_parse_size("", &v));
	CU_ASSERT_FALSE(ftl_input_parse_size("G", &v));
	CU_ASSERT_FALSE(ftl_input_parse_size("4X", &v));
	CU_ASSERT_FALSE(ftl_input_parse_size("99999999999T", &v));
}

/* ---- util/fdio.h: whole buffers through interrupted, partial calls ---- */

static void on_alarm(int sig)
{
	(void)sig;
}

typedef struct {
	int fd;
	GString *got;
} PipeReader;

static gpointer pipe_drain(gpointer data)
{
	PipeReader *r = data;
	char buf[4096];
	ssize_t n;
	while ((n = read(r->fd, buf, sizeof buf)) != 0) {
		if (n > 0)
			g_string_append_len(r->got, buf, n);
		g_usleep(50); /* slow: the writer fills the pipe and blocks */
	}
	return NULL;
}

static void test_fd_write_all_interrupted(void)
{
	/* a timer signal without SA_RESTART interrupts the blocked writes:
	 * some return EINTR, some a part of the buffer */
	struct sigaction sa = { .sa_handler = on_alarm }, old;
	sigaction(SIGALRM, &sa, &old);
	struct itimerval tick = { { 0, 500 }, { 0, 500 } }, off = { 0 };
	int p[2];
	CU_ASSERT_FATAL(pipe(p) == 0);
	gsize len = 4 << 20;
	g_autofree char *data = g_malloc(len);
	for (gsize i = 0; i < len; i++)
		data[i] = (char)(i * 7 + i / 4096);
	PipeReader r = { p[0], g_string_new(NULL) };
	GThread *t = g_thread_new("drain", pipe_drain, &r);
	setitimer(ITIMER_REAL, &tick, NULL);
	int e = ftl_fd_write_all(p[1], data, len, -1);
	setitimer(ITIMER_REAL, &off, NULL);
	sigaction(SIGALRM, &old, NULL);
	close(p[1]);
	g_thread_join(t);
	close(p[0]);
	CU_ASSERT_EQUAL(e, 0);
	CU_ASSERT_EQUAL(r.got->len, len);
	CU_ASSERT(r.got->len == len && memcmp(r.got->str, data, len) == 0);
	g_string_free(r.got, TRUE);
}

static void test_fd_pwrite_pread(void)
{
	g_autofree char *path = tmp_file("", 0);
	int fd = open(path, O_RDWR);
	CU_ASSERT_FATAL(fd >= 0);
	CU_ASSERT_EQUAL(ftl_fd_write_all(fd, "world", 5, 6), 0);
	CU_ASSERT_EQUAL(ftl_fd_write_all(fd, "hello ", 6, 0), 0);
	char buf[11];
	CU_ASSERT_EQUAL(ftl_fd_pread_all(fd, buf, 11, 0), 0);
	CU_ASSERT(memcmp(buf, "hello world", 11) == 0);
	/* the file ends before the buffer is full */
	CU_ASSERT_EQUAL(ftl_fd_pread_all(fd, buf, 11, 1), EIO);
	close(fd);
	CU_ASSERT_EQUAL(ftl_fd_write_all(fd, "x", 1, -1), EBADF);
	CU_ASSERT_EQUAL(ftl_fd_pread_all(fd, buf, 1, 0), EBADF);
	g_unlink(path);
}

static void test_fd_read_send(void)
{
	int s[2];
	CU_ASSERT_FATAL(socketpair(AF_UNIX, SOCK_STREAM, 0, s) == 0);
	CU_ASSERT_EQUAL(ftl_fd_send_all(s[0], "abcd", 4), 0);
	CU_ASSERT_EQUAL(ftl_fd_write(s[0], "ef", 2), 2);
	char buf[8];
	CU_ASSERT_EQUAL(ftl_fd_read_all(s[1], buf, 3), 0);
	CU_ASSERT(memcmp(buf, "abc", 3) == 0);
	/* one read: what is there, not what was asked for */
	CU_ASSERT_EQUAL(ftl_fd_read(s[1], buf, sizeof buf), 3);
	CU_ASSERT(memcmp(buf, "def", 3) == 0);
	/* the writer gone: a read at the end, a send without SIGPIPE */
	close(s[0]);
	CU_ASSERT_EQUAL(ftl_fd_read(s[1], buf, sizeof buf), 0);
	CU_ASSERT_EQUAL(ftl_fd_read_all(s[1], buf, 1), EIO);
	CU_ASSERT_EQUAL(ftl_fd_send_all(s[1], "x", 1), EPIPE);
	close(s[1]);
	CU_ASSERT_EQUAL(ftl_fd_read(s[1], buf, 1), -1);
	CU_ASSERT_EQUAL(errno, EBADF);
}

static const UnitTest tests[] = {
	{ "a file truncated while mapped: zeros and an error", test_truncated_while_mapped },
	{ "--max-expand bounds the expanded copy", test_max_expand },
	{ "sizes: 4G, 512M, bytes", test_parse_size },
	{ "fd_write_all: a whole buffer through interrupted, partial writes",
	  test_fd_write_all_interrupted },
	{ "fd_write_all at offsets, fd_pread_all, their errors", test_fd_pwrite_pread },
	{ "fd_read, fd_write, fd_read_all, fd_send_all on a socket", test_fd_read_send },
	{ NULL, NULL },
};

int main(void)
{
	return unit_run("input", tests);
}
