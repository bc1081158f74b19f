/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The one escaper: every class of hostile text made visible, one policy. */
#include "config.h"

#include <string.h>

#include "unit.h"
#include "util/escape.h"

static void expect(const char *in, gssize len, const char *want)
{
	g_autofree char *got = ftl_escape(in, len);
	CU_ASSERT_STRING_EQUAL(got, want);
	if (strcmp(got, want) != 0)
		fprintf(stderr, "\n  got '%s' want '%s'\n", got, want);
	CU_ASSERT_TRUE(g_utf8_validate(got, -1, NULL));
}

static void test_plain(void)
{
	expect("do_sys_openat2", -1, "do_sys_openat2");
	expect("", -1, "");
	expect(NULL, -1, "");
	expect("abc", 2, "ab");
}

static void test_c0_and_del(void)
{
	/* ESC, BEL, TAB, LF, CR, NUL inside a slice, DEL */
	expect("a\x1b[2Jb", -1, "a\\x1b[2Jb");
	expect("\a\t\n\r", -1, "\\x07\\x09\\x0a\\x0d");
	expect("x\0y", 3, "x\\x00y");
	expect("\x7f", -1, "\\x7f");
	/* OSC 52, a clipboard write */
	expect("\x1b]52;c;aGk=\x07", -1, "\\x1b]52;c;aGk=\\x07");
}

static void test_backslash(void)
{
	/* a literal "\x1b" written by a process differs from ESC */
	expect("\\x1b", -1, "\\\\x1b");
}

static void test_c1(void)
{
	/* the one-byte CSI of 8-bit terminals: not UTF-8 on its own */
	expect("a\x9b" "31mb", -1, "a\\x9b31mb");
	/* U+009B encoded as UTF-8, and the ends of the C1 range */
	expect("\xc2\x9b", -1, "\\u009b");
	expect("\xc2\x80\xc2\x9f", -1, "\\u0080\\u009f");
	/* U+00A0 is past C1: kept */
	expect("\xc2\xa0", -1, "\xc2\xa0");
}

static void test_invalid_utf8(void)
{
	expect("\xff\xfe", -1, "\\xff\\xfe");
	/* a sequence cut short, at the end and before ASCII */
	expect("ab\xc3", -1, "ab\\xc3");
	expect("\xe2\x82x", -1, "\\xe2\\x82x");
	/* overlong '/', a UTF-16 surrogate, past U+10FFFF */
	expect("\xc0\xaf", -1, "\\xc0\\xaf");
	expect("\xed\xa0\x80", -1, "\\xed\\xa0\\x80");
	expect("\xf4\x90\x80\x80", -1, "\\xf4\\x90\\x80\\x80");
	/* valid multi-byte text is kept */
	expect("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x94\xa5", -1,
	       "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x94\xa5");
}

static void test_bidi(void)
{
	/* RLO reorders what a terminal shows; the isolates and marks too */
	expect("evil\xe2\x80\xaetxt.exe", -1, "evil\\u202etxt.exe");
	expect("\xe2\x80\xaa\xe2\x80\xac\xe2\x81\xa6\xe2\x81\xa9", -1,
	       "\\u202a\\u202c\\u2066\\u2069");
	expect("\xe2\x80\x8e\xe2\x80\x8f\xd8\x9c", -1, "\\u200e\\u200f\\u061c");
	expect("a\xe2\x80\xa8" "b", -1, "a\\u2028b");
}

static void test_long_runs(void)
{
	/* a megabyte of ESC and a megabyte of plain text, both whole */
	gsize n = 1 << 20;
	g_autofree char *esc = g_malloc(n);
	memset(esc, 0x1b, n);
	g_autofree char *got = ftl_escape(esc, (gssize)n);
	CU_ASSERT_EQUAL(strlen(got), 4 * n);
	CU_ASSERT_EQUAL(strncmp(got + 4 * (n - 1), "\\x1b", 4), 0);
	g_autofree char *plain = g_malloc(n + 1);
	memset(plain, 'q', n);
	plain[n] = 0;
	g_autofree char *same = ftl_escape(plain, -1);
	CU_ASSERT_STRING_EQUAL(same, plain);
}

static void test_append_and_fputs(void)
{
	g_autoptr(GString) s = g_string_new("k=");
	ftl_escape_append(s, "v\x1b", -1);
	CU_ASSERT_STRING_EQUAL(s->str, "k=v\\x1b");
	char *buf = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&buf, &size);
	ftl_escape_fputs("\x9b", f);
	fclose(f);
	CU_ASSERT_STRING_EQUAL(buf, "\\x9b");
	free(buf);
}

/* Escaping what was appended raw equals appending it escaped. */
static void test_since(void)
{
	const char *cases[] = { "plain text", "", "a\\b", "tab\there", "\x9b[31m", "\xe2\x80\xae",
				"ok \xc3\xa9 then \x1b" };
	for (guint i = 0; i < G_N_ELEMENTS(cases); i++) {
		g_autoptr(GString) want = g_string_new("head\x01 ");
		ftl_escape_append(want, cases[i], -1);
		g_autoptr(GString) got = g_string_new("head\x01 ");
		gsize at = got->len;
		g_string_append(got, cases[i]);
		ftl_escape_since(got, at);
		CU_ASSERT_STRING_EQUAL(got->str, want->str);
	}
}

static void test_width_and_fit(void)
{
	CU_ASSERT_EQUAL(ftl_escape_width("abc"), 3);
	/* two wide CJK characters, a combining acute accent */
	CU_ASSERT_EQUAL(ftl_escape_width("\xe6\x97\xa5\xe6\x9c\xac"), 4);
	CU_ASSERT_EQUAL(ftl_escape_width("e\xcc\x81"), 1);
	/* fit never cuts a character, nor a wide one in half */
	CU_ASSERT_EQUAL(ftl_escape_fit("abcdef", 3), 3);
	CU_ASSERT_EQUAL(ftl_escape_fit("\xe6\x97\xa5\xe6\x9c\xac", 3), 3);
	CU_ASSERT_EQUAL(ftl_escape_fit("caf\xc3\xa9!", 4), 5);
	CU_ASSERT_EQUAL(ftl_escape_fit("ab", 10), 2);
	/* the shortest suffix that fits: the end of a long name */
	CU_ASSERT_EQUAL(ftl_escape_tail("abcdef", 3), 3);
	CU_ASSERT_EQUAL(ftl_escape_tail("\xe6\x97\xa5\xe6\x9c\xac", 3), 3);
	CU_ASSERT_EQUAL(ftl_escape_tail("x\xc3\xa9!", 2), 1);
	CU_ASSERT_EQUAL(ftl_escape_tail("ab", 10), 0);
	CU_ASSERT_EQUAL(ftl_escape_tail("ab", 0), 2);
}

static void test_plain_len(void)
{
	CU_ASSERT_EQUAL(ftl_escape_plain_len(""), 0);
	CU_ASSERT_EQUAL(ftl_escape_plain_len(" ~az{}"), 6);
	/* every byte outside 0x20-0x7e stops it */
	for (guint b = 1; b < 256; b++) {
		char s[4] = { 'a', (char)b, 'b', 0 };
		CU_ASSERT_EQUAL(ftl_escape_plain_len(s), b >= 0x20 && b < 0x7f ? 3 : 1);
	}
}

/* The width and the tail as one character at a time gives them. */
static gsize ref_cols(const char *p)
{
	if ((guchar)*p < 0x80)
		return 1;
	gunichar u = g_utf8_get_char(p);
	return g_unichar_iszerowidth(u) ? 0 : g_unichar_iswide(u) ? 2 : 1;
}

static void test_width_random(void)
{
	/* ASCII, controls, DEL, e-acute, a combining accent, CJK, an emoji */
	static const char *const parts[] = { "a", "Z", " ", "~", "\t", "\x1b", "\x7f",
					     "\xc3\xa9", "\xcc\x81", "\xe6\x97\xa5",
					     "\xf0\x9f\x98\x80", "abcdefgh" };
	GRand *rnd = g_rand_new_with_seed(31);
	for (guint i = 0; i < 2000; i++) {
		g_autoptr(GString) s = g_string_new(NULL);
		guint n = (guint)g_rand_int_range(rnd, 0, 24);
		for (guint k = 0; k < n; k++)
			g_string_append(s, parts[g_rand_int_range(rnd, 0, G_N_ELEMENTS(parts))]);
		gsize want = 0;
		for (const char *p = s->str; *p; p = g_utf8_next_char(p))
			want += ref_cols(p);
		CU_ASSERT_EQUAL(ftl_escape_width(s->str), want);
		gsize cols = (gsize)g_rand_int_range(rnd, 0, (gint)want + 2);
		gsize left = want;
		const char *p = s->str;
		while (*p && left > cols) {
			left -= ref_cols(p);
			p = g_utf8_next_char(p);
		}
		CU_ASSERT_EQUAL(ftl_escape_tail(s->str, cols), (gsize)(p - s->str));
	}
	g_rand_free(rnd);
}

/* The escaper's own per-byte rule, a character at a time. */
static void ref_escape_byte(GString *out, guchar c)
{
	if (c == '\\')
		g_string_append(out, "\\\\");
	else if (c >= 0x20 && c < 0x7f)
		g_string_append_c(out, (char)c);
	else
		g_string_append_printf(out, "\\x%02x", c);
}

/* Runs of plain text are found eight bytes at a time: each ASCII byte and
 * each byte above it, at every place of a word and across words, in
 * texts of every length up to three words, escaped as a byte at a time. */
static void test_every_byte_everywhere(void)
{
	for (guint c = 1; c < 256; c++) {
		/* one byte in a plain text; above 0x7f a lone byte is invalid
		 * UTF-8, escaped as \xNN too, but for the C1 rule's \u */
		for (guint len = 1; len <= 24; len++) {
			for (guint at = 0; at < len; at++) {
				char s[32];
				memset(s, 'a' + (char)(at % 26), len);
				s[at] = (char)c;
				g_autoptr(GString) want = g_string_new(NULL);
				for (guint i = 0; i < len; i++)
					ref_escape_byte(want, (guchar)s[i]);
				g_autoptr(GString) got = g_string_new(NULL);
				ftl_escape_append(got, s, len);
				g_autoptr(GString) since = g_string_new("pre");
				g_string_append_len(since, s, len);
				ftl_escape_since(since, 3);
				if (strcmp(got->str, want->str) != 0 ||
				    strcmp(since->str + 3, want->str) != 0) {
					CU_FAIL("escaped differently from a byte at a time");
					g_printerr("byte 0x%02x at %u of %u: \"%s\"\n", c, at, len,
						   got->str);
					return;
				}
			}
		}
	}
}

static const UnitTest tests[] = {
	{ "plain text is copied", test_plain },
	{ "C0 controls and DEL", test_c0_and_del },
	{ "backslash doubled", test_backslash },
	{ "C1 controls", test_c1 },
	{ "invalid UTF-8", test_invalid_utf8 },
	{ "bidi overrides and separators", test_bidi },
	{ "very long runs", test_long_runs },
	{ "append and fputs", test_append_and_fputs },
	{ "escaping in place what was appended raw", test_since },
	{ "terminal width and fit", test_width_and_fit },
	{ "printable ASCII runs", test_plain_len },
	{ "width and tail of random text, as a character at a time", test_width_random },
	{ "every byte at every place of a word", test_every_byte_everywhere },
	{ NULL, NULL },
};

int main(void)
{
	return unit_run("escape", tests);
}
