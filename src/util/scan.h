/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The one module that reads numbers and times out of text: traces, tracefs
 * files, command-line options. Every scanner checks for overflow: a number
 * too large for its type is no number (NULL / FALSE), never a wrapped one.
 *
 * The [p, e) scanners return the end of what they read, or NULL when there
 * is no number at p (or it overflows); they read only decimal digits (no
 * sign, no blanks). The _str forms take a whole NUL-terminated string,
 * blanks around it allowed. */
#pragma once

#include <glib.h>

/* Decimal digits to a guint64, checking each digit for overflow. */
const char *ftl_scan_u64_checked(const char *p, const char *e, guint64 *out);

/* Decimal digits to a guint64. Inline: parsers call it a few times per line
 * on one- to six-digit numbers; 19 digits cannot overflow, so only a longer
 * run takes the checked scan. */
static inline const char *ftl_scan_u64(const char *p, const char *e, guint64 *out)
{
	const char *s = p;
	const char *safe = e - p > 19 ? p + 19 : e;
	guint64 v = 0;
	while (p < safe && (guint)(*p - '0') < 10)
		v = v * 10 + (guint)(*p++ - '0');
	if (G_UNLIKELY(p == safe && p < e && (guint)(*p - '0') < 10))
		return ftl_scan_u64_checked(s, e, out);
	if (p == s)
		return NULL;
	*out = v;
	return p;
}
/* Hexadecimal digits (an optional "0x" first) to a guint64. */
const char *ftl_scan_hex(const char *p, const char *e, guint64 *out);
/* "SSS.FFFFFF" seconds (1..9 fraction digits read, more ignored) to ns. */
const char *ftl_scan_sec(const char *p, const char *e, gint64 *ns);
/* "12.345" microseconds (any fraction length, ns precision) to ns. */
const char *ftl_scan_usecs(const char *p, const char *e, gint64 *ns);
/* The digits of a fraction of a second (p is past the point) to ns: the
 * first nine read, more skipped. Returns their end: p itself, and *ns 0,
 * when there are none. */
const char *ftl_scan_frac_ns(const char *p, const char *e, gint64 *ns);

/* A whole string: unsigned decimal; with base 0, "0x" selects hex. */
gboolean ftl_scan_u64_str(const char *s, guint base, guint64 *out);
/* A whole string: decimal with an optional '-' or '+'. */
gboolean ftl_scan_i64_str(const char *s, gint64 *out);
/* A whole string of non-negative seconds ("12", "12.5", ".25", "1e-6") to
 * ns, exact to the nanosecond (no floating point; finer digits round half
 * up). */
gboolean ftl_scan_seconds_str(const char *s, gint64 *ns);
