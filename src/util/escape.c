/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The one escaper for text from a trace (policy in escape.h). */
#include "config.h"

#include "util/escape.h"
#include "util/nocov.h"

#include <string.h>

static const char escape_hex[] = "0123456789abcdef";

static void escape_byte(GString *out, guchar c)
{
	char b[4] = { '\\', 'x', escape_hex[c >> 4], escape_hex[c & 15] };
	g_string_append_len(out, b, 4);
}

/* Whether the 8 bytes at p hold one that needs escaping: below 0x20,
 * above 0x7e, or a backslash. */
static inline gboolean escape_word_has(const guchar *p)
{
	const guint64 ones = 0x0101010101010101ull, highs = 0x8080808080808080ull;
	guint64 w;
	memcpy(&w, p, 8);
	guint64 low = (w - ones * 0x20) & ~w & highs;
	guint64 high = ((w + ones) | w) & highs;
	guint64 x = w ^ (ones * '\\');
	guint64 bs = (x - ones) & ~x & highs;
	return (low | high | bs) != 0;
}

/* Where the run of bytes from p that need no escaping ends (e when they
 * all do): printable ASCII but the backslash. Eight bytes a step, tested
 * at once (a dump escapes every payload, comm and name). */
FTL_NO_COVERAGE static const guchar *escape_plain_end(const guchar *p, const guchar *e)
{
	const guchar *start = p;
	while (e - p >= 8 && !escape_word_has(p))
		p += 8;
	/* the tail: the last eight bytes at once, over some already seen */
	if (e - p < 8 && (p == e || (e - start >= 8 && !escape_word_has(e - 8))))
		return e;
	while (p < e && *p >= 0x20 && *p < 0x7f && *p != '\\')
		p++;
	return p;
}

gsize ftl_escape_plain_run(const char *s, gsize n)
{
	const guchar *p = (const guchar *)s;
	return (gsize)(escape_plain_end(p, p + n) - p);
}

/* It ran on every byte of every output: no branch worth a fuzzer's
 * attention. */
FTL_NO_COVERAGE gsize ftl_escape_plain_len(const char *s)
{
	const guchar *p = (const guchar *)s;
	while (*p >= 0x20 && *p < 0x7f)
		p++;
	return (gsize)(p - (const guchar *)s);
}

/* Code points that would steer a terminal or reorder what it shows. */
gboolean ftl_escape_is_hidden(gunichar u)
{
	if (u >= 0x80 && u <= 0x9f)
		return TRUE;
	switch (u) {
	case 0x061c:
	case 0x200e:
	case 0x200f:
	case 0x2028:
	case 0x2029:
		return TRUE;
	default:
		return (u >= 0x202a && u <= 0x202e) || (u >= 0x2066 && u <= 0x2069);
	}
}

/* The length of the valid UTF-8 sequence at p (at most n bytes), 0 when it
 * is not one. Overlong forms, surrogates and code points past U+10FFFF are
 * not valid. */
static gsize escape_utf8_len(const guchar *p, gsize n, gunichar *u)
{
	guchar c = p[0];
	gsize len;
	gunichar min;
	if (c >= 0xc2 && c <= 0xdf)
		len = 2, min = 0x80, *u = c & 0x1f;
	else if (c >= 0xe0 && c <= 0xef)
		len = 3, min = 0x800, *u = c & 0x0f;
	else if (c >= 0xf0 && c <= 0xf4)
		len = 4, min = 0x10000, *u = c & 0x07;
	else
		return 0;
	if (n < len)
		return 0;
	for (gsize i = 1; i < len; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		*u = (*u << 6) | (p[i] & 0x3f);
	}
	if (*u < min || *u > 0x10ffff || (*u >= 0xd800 && *u <= 0xdfff))
		return 0;
	return len;
}

void ftl_escape_append(GString *out, const char *s, gssize len)
{
	if (!s)
		return;
	gsize n = len < 0 ? strlen(s) : (gsize)len;
	const guchar *p = (const guchar *)s, *e = p + n;
	while (p < e) {
		/* copy the run that needs nothing in one go */
		const guchar *run = p;
		p = escape_plain_end(p, e);
		if (p > run)
			g_string_append_len(out, (const char *)run, p - run);
		if (p == e)
			break;
		guchar c = *p;
		if (c == '\\') {
			g_string_append(out, "\\\\");
			p++;
			continue;
		}
		if (c < 0x80) {
			escape_byte(out, c);
			p++;
			continue;
		}
		gunichar u;
		gsize ulen = escape_utf8_len(p, (gsize)(e - p), &u);
		if (!ulen) {
			escape_byte(out, c);
			p++;
		} else if (ftl_escape_is_hidden(u)) {
			g_string_append_printf(out, "\\u%04x", u);
			p += ulen;
		} else {
			g_string_append_len(out, (const char *)p, (gssize)ulen);
			p += ulen;
		}
	}
}

char *ftl_escape(const char *s, gssize len)
{
	GString *out = g_string_sized_new(s ? (len < 0 ? strlen(s) : (gsize)len) + 1 : 1);
	ftl_escape_append(out, s, len);
	return g_string_free(out, FALSE);
}

void ftl_escape_since(GString *out, gsize from)
{
	if (from >= out->len)
		return;
	const guchar *p = (const guchar *)out->str + from, *e = (const guchar *)out->str + out->len;
	/* the run ftl_escape_append() copies as it is */
	p = escape_plain_end(p, e);
	if (p == e)
		return;
	gsize keep = (gsize)(p - (const guchar *)out->str);
	g_autofree char *rest = g_strndup((const char *)p, (gsize)(e - p));
	gsize len = (gsize)(e - p);
	g_string_truncate(out, keep);
	ftl_escape_append(out, rest, (gssize)len);
}

void ftl_escape_fputs(const char *s, FILE *out)
{
	g_autofree char *v = ftl_escape(s, -1);
	fputs(v, out);
}

static guint escape_unichar_cols(gunichar u)
{
	if (g_unichar_iszerowidth(u))
		return 0;
	return g_unichar_iswide(u) ? 2 : 1;
}

gsize ftl_escape_width(const char *s)
{
	gsize w = 0;
	for (const char *p = s; *p; p = g_utf8_next_char(p)) {
		/* printable ASCII, a column a byte, counted in one go (a
		 * table's cells are measured again and again) */
		gsize run = ftl_escape_plain_len(p);
		w += run;
		p += run;
		if (!*p)
			break;
		if ((guchar)*p < 0x80)
			w++;
		else
			w += escape_unichar_cols(g_utf8_get_char(p));
	}
	return w;
}

gsize ftl_escape_fit(const char *s, gsize cols)
{
	gsize w = 0;
	const char *p = s;
	while (*p) {
		guint cw = (guchar)*p < 0x80 ? 1 : escape_unichar_cols(g_utf8_get_char(p));
		if (w + cw > cols)
			break;
		w += cw;
		p = g_utf8_next_char(p);
	}
	return (gsize)(p - s);
}

gsize ftl_escape_tail(const char *s, gsize cols)
{
	/* one pass: the width of what is left goes down by each character's */
	gsize w = ftl_escape_width(s);
	const char *p = s;
	while (*p && w > cols) {
		gsize run = MIN(ftl_escape_plain_len(p), w - cols);
		if (run) { /* printable ASCII: a column a byte */
			w -= run;
			p += run;
			continue;
		}
		w -= (guchar)*p < 0x80 ? 1 : escape_unichar_cols(g_utf8_get_char(p));
		p = g_utf8_next_char(p);
	}
	return (gsize)(p - s);
}

char *ftl_escape_markup(const char *s, gssize len)
{
	if (!s)
		return g_strdup("");
	g_autofree char *valid = g_utf8_make_valid(s, len);
	return ftl_escape(valid, -1);
}
