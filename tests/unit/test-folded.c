/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The folded stacks reader: the paths and weights it hands over, across
 * the chunks its reading thread fills, against a plain split of the lines. */
#include "config.h"

#include <glib/gstdio.h>
#include <string.h>

#include "unit.h"
#include "parse/folded.h"

/* What the reader handed over: each line's whole path ("a;b;c"), rebuilt
 * from the frames the line before shares and the added ones, and weight. */
typedef struct {
	GPtrArray *frames; /* the last path's frames (char *) */
	GString *got;	   /* "path weight\n" per line */
	guint calls, bad;  /* lines, and lines given an impossible path */
} Seen;

static void seen_line(const FtlSlice *added, guint n_added, guint same, gint64 weight,
		      gpointer data)
{
	Seen *s = data;
	s->bad += same > s->frames->len;
	g_ptr_array_set_size(s->frames, MIN(same, s->frames->len));
	for (guint i = 0; i < n_added; i++) {
		s->bad += !added[i].len || memchr(added[i].p, ';', added[i].len);
		g_ptr_array_add(s->frames, g_strndup(added[i].p, added[i].len));
	}
	s->bad += !s->frames->len;
	for (guint i = 0; i < s->frames->len; i++)
		g_string_append_printf(s->got, "%s%s", i ? ";" : "",
				       (char *)g_ptr_array_index(s->frames, i));
	g_string_append_printf(s->got, " %" G_GINT64_FORMAT "\n", weight);
	s->calls++;
}

/* The same from a plain split: blank frames dropped, blanks around the
 * weight and a CR at the end ignored, lines without frames skipped. (By
 * hand: the sanitizers' strstr() takes the whole string's length per call.) */
static void expect_lines(const char *text, GString *want, guint *lines)
{
	for (const char *p = text; *p;) {
		const char *nl = strchr(p, '\n');
		const char *e = nl ? nl : p + strlen(p);
		const char *next = nl ? nl + 1 : e;
		while (e > p && g_ascii_isspace(e[-1]))
			e--;
		const char *sp = e;
		while (sp > p && sp[-1] != ' ')
			sp--;
		if (sp == p) {
			p = next;
			continue;
		}
		const char *se = sp - 1;
		while (se > p && se[-1] == ' ')
			se--;
		gsize at = want->len;
		for (const char *f = p; f < se;) {
			const char *fe = memchr(f, ';', (gsize)(se - f));
			fe = fe ? fe : se;
			if (fe > f) {
				if (want->len > at)
					g_string_append_c(want, ';');
				g_string_append_len(want, f, fe - f);
			}
			f = fe + 1;
		}
		if (want->len > at) {
			g_string_append_c(want, ' ');
			g_string_append_len(want, sp, e - sp);
			g_string_append_c(want, '\n');
			(*lines)++;
		}
		p = next;
	}
}

static char *write_tmp(const char *text, gsize len)
{
	char *path = NULL;
	int fd = g_file_open_tmp("ftl-folded-XXXXXX", &path, NULL);
	CU_ASSERT_TRUE_FATAL(fd >= 0);
	close(fd);
	CU_ASSERT_TRUE_FATAL(g_file_set_contents(path, text, (gssize)len, NULL));
	return path;
}

/* Reads text through a file; the error (or NULL) and the lines seen. */
static GError *read_text(const char *text, Seen *s, gint64 *total)
{
	g_autofree char *path = write_tmp(text, strlen(text));
	GError *error = NULL;
	s->frames = g_ptr_array_new_with_free_func(g_free);
	s->got = g_string_new(NULL);
	s->calls = s->bad = 0;
	gboolean ok = ftl_folded_read(path, seen_line, s, total, &error);
	CU_ASSERT_EQUAL(ok, error == NULL);
	g_unlink(path);
	g_ptr_array_free(s->frames, TRUE);
	return error;
}

/* Some 2 MB of paths that share prefixes, in order and not, with blank
 * frames, CRLF ends, blank lines and one line of 600 KB: several chunks,
 * lines cut at every chunk's end, a line longer than a chunk. */
static void test_chunks(void)
{
	GRand *rnd = g_rand_new_with_seed(7);
	g_autoptr(GString) t = g_string_new(NULL);
	for (guint i = 0; t->len < 2u << 20; i++) {
		guint depth = g_rand_int_range(rnd, 1, 40);
		for (guint d = 0; d < depth; d++)
			g_string_append_printf(t, "%sfn_%u_%u", d ? ";" : "", d,
					       g_rand_int_range(rnd, 0, d < 8 ? 2 : 50));
		if (i % 97 == 0)
			g_string_append(t, ";;");
		g_string_append_printf(t, " %u%s\n", g_rand_int_range(rnd, 1, 1000000),
				       i % 13 == 0 ? "\r" : "");
		if (i % 501 == 0)
			g_string_append(t, "\n");
		if (i == 3000) {
			g_string_append(t, "fn_0_0");
			for (guint k = 0; k < 60000; k++)
				g_string_append(t, ";long_frame");
			g_string_append(t, " 5\n");
		}
	}
	g_rand_free(rnd);
	g_autoptr(GString) want = g_string_new(NULL);
	guint lines = 0;
	expect_lines(t->str, want, &lines);
	Seen s;
	gint64 total = 10;
	GError *error = read_text(t->str, &s, &total);
	CU_ASSERT_PTR_NULL(error);
	CU_ASSERT_EQUAL(s.calls, lines);
	CU_ASSERT_EQUAL(s.bad, 0);
	CU_ASSERT_TRUE(lines > 5000);
	CU_ASSERT_TRUE(g_string_equal(s.got, want));
	gint64 sum = 10;
	for (const char *p = want->str; (p = strchr(p, ' ')); p++)
		sum += g_ascii_strtoll(p + 1, NULL, 10);
	CU_ASSERT_EQUAL(total, sum);
	g_string_free(s.got, TRUE);
}

/* A bad line far into the file: one error naming it, the lines before it
 * handed over, none after. */
static void test_error_late(void)
{
	g_autoptr(GString) t = g_string_new(NULL);
	for (guint i = 0; i < 50000; i++)
		g_string_append_printf(t, "a;b%u;c %u\n", i % 7, i + 1);
	g_string_append(t, "a;b;c nonsense\n");
	for (guint i = 0; i < 50000; i++)
		g_string_append(t, "a;b 1\n");
	Seen s;
	gint64 total = 0;
	g_autoptr(GError) error = read_text(t->str, &s, &total);
	CU_ASSERT_PTR_NOT_NULL_FATAL(error);
	CU_ASSERT_PTR_NOT_NULL(strstr(error->message, ": line 50001: not folded stacks"));
	CU_ASSERT_EQUAL(s.calls, 50000);
	g_string_free(s.got, TRUE);
	/* a missing file: the error names it, nothing is handed over */
	GError *missing = NULL;
	CU_ASSERT_FALSE(ftl_folded_read("/nonexistent/x.folded", seen_line, &s, &total, &missing));
	CU_ASSERT_PTR_NOT_NULL(missing);
	g_clear_error(&missing);
}

/* Frames that start alike: a frame is shared only when the line ends it
 * where the line before did. */
static void test_prefixes(void)
{
	static const char text[] = "a;b 1\na;bc 2\na;bc;d 3\na;b;c 4\na;b 5\nab 6\na 7\n"
				   "a;;b 8\na;b;;c;; 9\n";
	Seen s;
	gint64 total = 0;
	GError *error = read_text(text, &s, &total);
	CU_ASSERT_PTR_NULL(error);
	CU_ASSERT_STRING_EQUAL(s.got->str, "a;b 1\na;bc 2\na;bc;d 3\na;b;c 4\na;b 5\nab 6\na 7\n"
					   "a;b 8\na;b;c 9\n");
	CU_ASSERT_EQUAL(s.bad, 0);
	g_string_free(s.got, TRUE);
}

/* Weights that pass G_MAXINT64 across files: the second file's line says so. */
static void test_total_overflow(void)
{
	Seen s;
	gint64 total = G_MAXINT64 - 10;
	GError *error = read_text("a 5\nb;c 5\n", &s, &total);
	CU_ASSERT_PTR_NULL(error);
	CU_ASSERT_EQUAL(total, G_MAXINT64);
	g_string_free(s.got, TRUE);
	total = G_MAXINT64 - 10;
	error = read_text("a 5\nb;c 5\nd 1\n", &s, &total);
	CU_ASSERT_PTR_NOT_NULL_FATAL(error);
	CU_ASSERT_PTR_NOT_NULL(strstr(error->message, ": line 3: the weights add up past"));
	CU_ASSERT_EQUAL(s.calls, 2);
	g_string_free(s.got, TRUE);
	g_error_free(error);
}

static const UnitTest tests[] = {
	{ "paths across chunks, a line longer than a chunk", test_chunks },
	{ "a bad line far into the file", test_error_late },
	{ "frames that start alike", test_prefixes },
	{ "weights past 2^63-1", test_total_overflow },
	{ NULL, NULL },
};

int main(void)
{
	return unit_run("folded", tests);
}
