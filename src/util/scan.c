/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Numbers and times from text, with overflow checks (scan.h). */
#include "config.h"

#include "util/scan.h"

#include <string.h>

#define SCAN_NS_MAX G_MAXINT64

const char *ftl_scan_u64_checked(const char *p, const char *e, guint64 *out)
{
	const char *s = p;
	guint64 v = 0;
	/* 19 digits cannot overflow: only the ones past them are checked */
	const char *safe = e - p > 19 ? p + 19 : e;
	while (p < safe && (guint)(*p - '0') < 10)
		v = v * 10 + (guint)(*p++ - '0');
	while (p < e && (guint)(*p - '0') < 10) {
		if (__builtin_mul_overflow(v, 10u, &v) ||
		    __builtin_add_overflow(v, (guint)(*p - '0'), &v))
			return NULL;
		p++;
	}
	if (p == s)
		return NULL;
	*out = v;
	return p;
}

const char *ftl_scan_hex(const char *p, const char *e, guint64 *out)
{
	if (e - p > 2 && p[0] == '0' && (p[1] == 'x' || p[1] == 'X') && g_ascii_isxdigit(p[2]))
		p += 2;
	const char *s = p;
	guint64 v = 0;
	while (p < e && g_ascii_isxdigit(*p)) {
		if (v >> 60)
			return NULL;
		v = v << 4 | (guint64)g_ascii_xdigit_value(*p);
		p++;
	}
	if (p == s)
		return NULL;
	*out = v;
	return p;
}

/* Up to max fraction digits after p (which is past the '.'), scaled to
 * max digits; the rest are skipped. */
static const char *scan_fraction(const char *p, const char *e, int max, guint64 *frac, int *nd)
{
	/* locals: stores through the pointers would alias the text */
	guint64 f = 0;
	int n = 0;
	for (; p < e && (guint)(*p - '0') < 10; p++)
		if (n < max) {
			f = f * 10 + (guint)(*p - '0');
			n++;
		}
	*nd = n;
	for (; n < max; n++)
		f *= 10;
	*frac = f;
	return p;
}

const char *ftl_scan_sec(const char *p, const char *e, gint64 *ns)
{
	guint64 sec, frac;
	int nd;
	const char *q = ftl_scan_u64(p, e, &sec);
	if (!q || q >= e || *q != '.' || sec > (guint64)(SCAN_NS_MAX / 1000000000) - 1)
		return NULL;
	q = scan_fraction(q + 1, e, 9, &frac, &nd);
	if (nd == 0)
		return NULL;
	*ns = (gint64)(sec * 1000000000ull + frac);
	return q;
}

const char *ftl_scan_usecs(const char *p, const char *e, gint64 *ns)
{
	guint64 us, frac = 0;
	int nd;
	const char *q = ftl_scan_u64(p, e, &us);
	if (!q || us > (guint64)(SCAN_NS_MAX / 1000) - 1)
		return NULL;
	if (q < e && *q == '.') {
		q++;
		/* function_graph prints three digits: no loop for them */
		if (e - q >= 3 && (guint)(q[0] - '0') < 10 && (guint)(q[1] - '0') < 10 &&
		    (guint)(q[2] - '0') < 10) {
			frac = (guint64)(q[0] - '0') * 100 + (guint64)(q[1] - '0') * 10 +
			       (guint64)(q[2] - '0');
			for (q += 3; q < e && (guint)(*q - '0') < 10; q++)
				;
		} else {
			q = scan_fraction(q, e, 3, &frac, &nd);
		}
	}
	*ns = (gint64)(us * 1000 + frac);
	return q;
}

const char *ftl_scan_frac_ns(const char *p, const char *e, gint64 *ns)
{
	guint64 frac;
	int nd;
	const char *q = scan_fraction(p, e, 9, &frac, &nd);
	*ns = (gint64)frac;
	return q;
}

/* s without the blanks around it, as [*p, *e). */
static void scan_trim(const char *s, const char **p, const char **e)
{
	*p = s;
	*e = s + strlen(s);
	while (*p < *e && g_ascii_isspace(**p))
		(*p)++;
	while (*e > *p && g_ascii_isspace((*e)[-1]))
		(*e)--;
}

gboolean ftl_scan_u64_str(const char *s, guint base, guint64 *out)
{
	const char *p, *e;
	scan_trim(s, &p, &e);
	gboolean hex = base == 16 ||
		       (base == 0 && e - p > 2 && p[0] == '0' && (p[1] == 'x' || p[1] == 'X'));
	const char *q = hex ? ftl_scan_hex(p, e, out) : ftl_scan_u64(p, e, out);
	return q && q == e;
}

gboolean ftl_scan_i64_str(const char *s, gint64 *out)
{
	const char *p, *e;
	scan_trim(s, &p, &e);
	gboolean neg = p < e && *p == '-';
	if (p < e && (*p == '-' || *p == '+'))
		p++;
	guint64 v;
	const char *q = ftl_scan_u64(p, e, &v);
	if (!q || q != e || v > (guint64)G_MAXINT64 + (neg ? 1 : 0))
		return FALSE;
	*out = neg ? (gint64)(0 - v) : (gint64)v;
	return TRUE;
}

/* digits * 10^scale into a non-negative gint64, rounding half up when
 * scale < 0; FALSE on overflow. */
static gboolean scan_scale(const char *digits, gint scale, gint64 *out)
{
	gsize n = strlen(digits);
	gint keep = (gint)n + MIN(scale, 0);
	guint64 v = 0;
	for (gint i = 0; i < keep; i++) {
		guint d = (guint)(digits[i] - '0');
		if (v > ((guint64)G_MAXINT64 - d) / 10)
			return FALSE;
		v = v * 10 + d;
	}
	if (scale < 0 && keep >= 0 && (gsize)keep < n && digits[keep] >= '5')
		v++;
	for (gint i = 0; i < scale; i++) {
		if (v > (guint64)G_MAXINT64 / 10)
			return FALSE;
		v *= 10;
	}
	if (v > (guint64)G_MAXINT64)
		return FALSE;
	*out = (gint64)v;
	return TRUE;
}

gboolean ftl_scan_seconds_str(const char *s, gint64 *ns)
{
	const char *p, *e;
	scan_trim(s, &p, &e);
	/* the digits without the point, and where the point was */
	g_autoptr(GString) digits = g_string_new(NULL);
	gint frac = 0;
	gboolean point = FALSE;
	for (; p < e && (g_ascii_isdigit(*p) || (*p == '.' && !point)); p++) {
		if (*p == '.')
			point = TRUE;
		else if (digits->len < 64)
			g_string_append_c(digits, *p), frac += point;
		else if (!point)
			return FALSE; /* more than 64 integer digits */
	}
	if (!digits->len)
		return FALSE;
	gint64 exp = 0;
	if (p < e && (*p == 'e' || *p == 'E')) {
		g_autofree char *x = g_strndup(p + 1, (gsize)(e - p - 1));
		if (!ftl_scan_i64_str(x, &exp) || exp < -100 || exp > 100)
			return FALSE;
		p = e;
	}
	if (p != e)
		return FALSE;
	return scan_scale(digits->str, 9 + (gint)exp - frac, ns) &&
	       *ns <= (G_MAXINT64 / 1000000000 - 1) * 1000000000;
}
