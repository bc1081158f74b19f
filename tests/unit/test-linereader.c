/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The parallel line reader: chunks of whole lines, in order, the same with one
 * thread and with four; cuts a line may forbid; lines too long; errors. */
#include "config.h"

#include <string.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "unit.h"
#include "util/error.h"
#include "util/linereader.h"

/* Lines of varied length, some of them " => frame" lines after an event. */
static GString *some_lines(gsize n)
{
	static const char pad[] = "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
				  "xxxxxxxxxxxxxxxxxxxxxxxxx";
	GString *s = g_string_new(NULL);
	for (guint i = 0; s->len < n; i++) {
		g_string_append_printf(s, "event %u %.*s\n", i, (int)(i * 7 % 90), pad);
		if (i % 97 == 0)
			for (guint f = 0; f < 40; f++)
				g_string_append_printf(s, "  => frame_%u\n", f);
	}
	return s;
}

typedef struct {
	guint64 index;
	gsize len;
	GThread *thread;
} Parsed;

static gpointer parse_chunk(const FtlLineChunk *c, gpointer data)
{
	Parsed *p = g_new0(Parsed, 1);
	p->index = c->index;
	p->len = c->len;
	p->thread = g_thread_self();
	return p;
}

static void free_result(gpointer result, gpointer data)
{
	g_free(result);
}

static gboolean not_a_frame(const char *line, const char *end)
{
	while (line < end && *line == ' ')
		line++;
	if (end - line < 2)
		return FALSE;
	return !(line[0] == '=' && line[1] == '>');
}

/* Reads text through a reader with threads threads; the chunks joined. */
static GString *read_chunks(const GString *text, guint threads, guint *n_chunks,
			    gboolean *frames_ok)
{
	FtlReadOptions ro = { .threads = threads };
	FtlLineReaderFuncs f = { parse_chunk, free_result, not_a_frame, NULL, 1 << 20 };
	FtlStream *s = ftl_stream_new_from_memory("mem", text->str, text->len, NULL);
	g_autoptr(FtlLineReader) r = ftl_line_reader_new(s, &f, &ro);
	GString *out = g_string_new(NULL);
	const FtlLineChunk *c;
	guint64 want = 0;
	*frames_ok = TRUE;
	*n_chunks = 0;
	while ((c = ftl_line_reader_next(r))) {
		const Parsed *p = c->result;
		CU_ASSERT_EQUAL(c->index, want);
		CU_ASSERT_EQUAL(p->index, want);
		CU_ASSERT_EQUAL(p->len, c->len);
		CU_ASSERT_EQUAL(c->offset, out->len);
		want++;
		if (c->len && !not_a_frame(c->text, c->text + c->len))
			*frames_ok = FALSE;
		if (!c->last)
			CU_ASSERT(c->len && c->text[c->len - 1] == '\n');
		g_string_append_len(out, c->text, c->len);
		(*n_chunks)++;
	}
	return out;
}

static void test_order_and_threads(void)
{
	g_autoptr(GString) text = some_lines(5 << 20);
	guint n1, n4;
	gboolean ok1, ok4;
	g_autoptr(GString) one = read_chunks(text, 1, &n1, &ok1);
	g_autoptr(GString) four = read_chunks(text, 4, &n4, &ok4);
	CU_ASSERT(n1 > 10);
	CU_ASSERT_EQUAL(n1, n4);
	CU_ASSERT_TRUE(g_string_equal(one, text));
	CU_ASSERT_TRUE(g_string_equal(four, text));
	CU_ASSERT_TRUE(ok1 && ok4);
}

static void test_no_final_newline(void)
{
	g_autoptr(GString) text = g_string_new("a\nb\nlast without newline");
	guint n;
	gboolean ok;
	g_autoptr(GString) got = read_chunks(text, 1, &n, &ok);
	CU_ASSERT_TRUE(g_string_equal(got, text));
}

/* A file another process appends to while it is read: what it held when
 * opened, whole lines only. A last line without its newline is read when
 * the file stays as it was (it is the file's last line), and left out when
 * the file grew (the writer was in the middle of it). */
static GString *read_file_after(const char *held, const char *appended)
{
	g_autofree char *path = NULL;
	int fd = g_file_open_tmp("ftl-lr-XXXXXX", &path, NULL);
	CU_ASSERT_FATAL(fd >= 0);
	CU_ASSERT_FATAL(write(fd, held, strlen(held)) == (ssize_t)strlen(held));
	FtlStream *s = ftl_stream_open(path, NULL);
	CU_ASSERT_FATAL(s != NULL);
	if (*appended)
		CU_ASSERT_FATAL(write(fd, appended, strlen(appended)) == (ssize_t)strlen(appended));
	close(fd);
	FtlReadOptions ro = { .threads = 1 };
	FtlLineReaderFuncs f = { parse_chunk, free_result, not_a_frame, NULL, 1 << 20 };
	g_autoptr(FtlLineReader) r = ftl_line_reader_new(s, &f, &ro);
	GString *out = g_string_new(NULL);
	for (const FtlLineChunk *c; (c = ftl_line_reader_next(r));)
		g_string_append_len(out, c->text, c->len);
	g_unlink(path);
	return out;
}

static void test_growing_file(void)
{
	g_autoptr(GString) grew = read_file_after("a\nb\nhalf a li", "ne\nc\n");
	CU_ASSERT_STRING_EQUAL(grew->str, "a\nb\n");
	g_autoptr(GString) whole = read_file_after("a\nb\nlast without newline", "");
	CU_ASSERT_STRING_EQUAL(whole->str, "a\nb\nlast without newline");
	g_autoptr(GString) ends = read_file_after("a\nb\n", "c\n");
	CU_ASSERT_STRING_EQUAL(ends->str, "a\nb\n");
	/* one line, not yet ended: nothing whole to read */
	g_autoptr(GString) one = read_file_after("half", " a line\n");
	CU_ASSERT_STRING_EQUAL(one->str, "");
}

static void test_long_line(void)
{
	g_autoptr(GString) text = g_string_new("short\n");
	g_string_append_len(text, "y", 1);
	for (guint i = 0; i < (3u << 20); i++)
		g_string_append_c(text, 'x');
	g_string_append(text, "\nafter\n");
	FtlReadOptions ro = { .threads = 2 };
	FtlLineReaderFuncs f = { parse_chunk, free_result, NULL, NULL, 1 << 20 };
	FtlStream *s = ftl_stream_new_from_memory("mem", text->str, text->len, NULL);
	g_autoptr(FtlLineReader) r = ftl_line_reader_new(s, &f, &ro);
	const FtlLineChunk *c, *last = NULL;
	GString *seen = g_string_new(NULL);
	while ((c = ftl_line_reader_next(r))) {
		g_string_append_len(seen, c->text, c->len);
		last = c;
	}
	CU_ASSERT_PTR_NOT_NULL_FATAL(last);
	CU_ASSERT_TRUE(last->last);
	CU_ASSERT_EQUAL(last->long_line, (3u << 20) + 1);
	CU_ASSERT_STRING_EQUAL(seen->str, "short\n");
	CU_ASSERT(last->text[last->len] == 'y' && last->text[last->len + 1] == 'x');
	g_string_free(seen, TRUE);
}

static void test_seek(void)
{
	g_autoptr(GString) text = some_lines(1 << 20);
	const char *mid = strchr(text->str + text->len / 2, '\n') + 1;
	while (!not_a_frame(mid, text->str + text->len))
		mid = strchr(mid, '\n') + 1;
	FtlReadOptions ro = { .threads = 3 };
	FtlLineReaderFuncs f = { parse_chunk, free_result, not_a_frame, NULL, 1 << 20 };
	FtlStream *s = ftl_stream_new_from_memory("mem", text->str, text->len, NULL);
	g_autoptr(FtlLineReader) r = ftl_line_reader_new(s, &f, &ro);
	CU_ASSERT_PTR_NOT_NULL(ftl_line_reader_next(r));
	g_autoptr(GError) err = NULL;
	CU_ASSERT_TRUE(ftl_line_reader_seek(r, (guint64)(mid - text->str), &err));
	GString *rest = g_string_new(NULL);
	const FtlLineChunk *c;
	while ((c = ftl_line_reader_next(r)))
		g_string_append_len(rest, c->text, c->len);
	CU_ASSERT_STRING_EQUAL(rest->str, mid);
	g_string_free(rest, TRUE);
	/* a range: the input ends at a line start, nothing after it is read */
	const char *end = strchr(mid + 100000, '\n') + 1;
	guint64 from = (guint64)(mid - text->str), to = (guint64)(end - text->str);
	CU_ASSERT_TRUE(ftl_line_reader_seek_range(r, from, to, &err));
	rest = g_string_new(NULL);
	while ((c = ftl_line_reader_next(r))) {
		CU_ASSERT(c->offset + c->len <= to);
		g_string_append_len(rest, c->text, c->len);
	}
	CU_ASSERT_EQUAL(rest->len, to - from);
	CU_ASSERT(memcmp(rest->str, mid, rest->len) == 0);
	g_string_free(rest, TRUE);
	/* and a plain seek after it reads to the stream's end again */
	CU_ASSERT_TRUE(ftl_line_reader_seek(r, from, &err));
	gsize n = 0;
	while ((c = ftl_line_reader_next(r)))
		n += c->len;
	CU_ASSERT_EQUAL(n, strlen(mid));
}

static gpointer count_chunk(const FtlLineChunk *c, gpointer data)
{
	g_atomic_int_inc((gint *)data);
	return parse_chunk(c, NULL);
}

/* A reader of text in chunks of 4 KiB on three threads, its parses counted
 * in *parsed; text must outlive it. */
static FtlLineReader *counting_reader(const GString *text, gint *parsed)
{
	FtlReadOptions ro = { .threads = 3 };
	g_setenv("FTLENS_CHUNK_BYTES", "4096", TRUE);
	FtlLineReaderFuncs f = { count_chunk, free_result, not_a_frame, parsed, 1 << 20 };
	FtlStream *s = ftl_stream_new_from_memory("mem", text->str, text->len, NULL);
	FtlLineReader *r = ftl_line_reader_new(s, &f, &ro);
	g_unsetenv("FTLENS_CHUNK_BYTES");
	return r;
}

/* A reader capped at two chunks ahead parses no more than that while its
 * consumer holds the first, though the pool could take eight. */
static void test_ahead(void)
{
	g_autoptr(GString) text = some_lines(1 << 20);
	gint parsed = 0;
	g_autoptr(FtlLineReader) r = counting_reader(text, &parsed);
	ftl_line_reader_set_ahead(r, 2);
	CU_ASSERT_PTR_NOT_NULL(ftl_line_reader_next(r));
	g_usleep(300000); /* time for the pool to run ahead, were it let */
	CU_ASSERT(g_atomic_int_get(&parsed) <= 3);
	guint64 n = 1;
	while (ftl_line_reader_next(r))
		n++;
	CU_ASSERT_EQUAL((guint64)g_atomic_int_get(&parsed), n);
	CU_ASSERT(n > 100);
}

/* On demand, nothing is parsed beyond the chunk asked for: after the first,
 * a seek (which waits for every job in flight) finds one chunk parsed; then
 * the reader parses ahead again once it is asked to. */
static void test_on_demand(void)
{
	g_autoptr(GString) text = some_lines(1 << 20);
	gint parsed = 0;
	g_autoptr(FtlLineReader) r = counting_reader(text, &parsed);
	ftl_line_reader_set_ahead(r, FTL_LINE_READER_ON_DEMAND);
	const FtlLineChunk *c = ftl_line_reader_next(r);
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	g_usleep(100000); /* time for the pool to run ahead, were it let */
	guint64 off = c->offset + c->len;
	g_autoptr(GError) err = NULL;
	CU_ASSERT_TRUE(ftl_line_reader_seek(r, off, &err));
	CU_ASSERT_EQUAL(g_atomic_int_get(&parsed), 1);
	ftl_line_reader_set_ahead(r, 0);
	guint64 n = 0;
	while ((c = ftl_line_reader_next(r)))
		n++;
	CU_ASSERT_EQUAL((guint64)g_atomic_int_get(&parsed), n + 1);
	CU_ASSERT(n > 100);
}

static const UnitTest tests[] = {
	{ "chunks in order, the same with 1 and 4 threads", test_order_and_threads },
	{ "the last line may lack its newline", test_no_final_newline },
	{ "a file growing while read: what it held, whole lines only", test_growing_file },
	{ "a line too long ends the input with its length", test_long_line },
	{ "seek starts again at a line, a range ends where asked", test_seek },
	{ "a reader capped ahead parses no further", test_ahead },
	{ "on demand, only the chunk asked for is parsed", test_on_demand },
	{ NULL, NULL },
};

int main(void)
{
	return unit_run("linereader", tests);
}
