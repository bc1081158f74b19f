/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Formatting of trace timestamps, durations and numbers. */
#include "util/timefmt.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* The digits of q, a point before the last decimals of them. */
static char *fixed_digits(guint64 q, guint decimals, gboolean neg, char *buf, gsize size)
{
	char tmp[48];
	/* a string: g_strlcpy reads its source to the NUL */
	char *e = tmp + sizeof tmp - 1, *d = e;
	*e = '\0';
	guint n = 0;
	do {
		if (decimals && n == decimals)
			*--d = '.';
		*--d = (char)('0' + q % 10);
		q /= 10;
		n++;
	} while (q || n <= decimals);
	if (neg)
		*--d = '-';
	g_strlcpy(buf, d, MIN(size, (gsize)(e - d) + 1));
	return buf;
}

char *ftl_time_format_us(gint64 ns, char *buf, gsize size)
{
	if (ns == FTL_TS_NONE) {
		g_strlcpy(buf, "-", size);
		return buf;
	}
	/* rounded to the nearest microsecond, half up, as the kernel's
	 * ns2usecs() and libtraceevent (trace-cmd report, KernelShark) do:
	 * a truncation would print 0.000001 s less than they do for every
	 * time whose sub-microsecond part is 500 ns or more */
	guint64 v = ns < 0 ? -(guint64)ns : (guint64)ns;
	guint64 us = v / 1000u + (v % 1000u >= 500u);
	return fixed_digits(us, 6, ns < 0 && us, buf, size);
}

/* "%s%llu.%09llu" of the sign, seconds and nanoseconds, without printf (a
 * dump formats millions). */
char *ftl_time_format_ns(gint64 ns, char *buf, gsize size)
{
	if (ns == FTL_TS_NONE) {
		g_strlcpy(buf, "-", size);
		return buf;
	}
	return fixed_digits(ns < 0 ? -(guint64)ns : (guint64)ns, 9, ns < 0, buf, size);
}

char *ftl_int_format(gint64 v, char *buf, gsize size)
{
	return fixed_digits(v < 0 ? -(guint64)v : (guint64)v, 0, v < 0, buf, size);
}

char *ftl_fixed_format(double v, guint decimals, char *buf, gsize size)
{
	static const double scale[] = { 1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6 };
	double r = decimals < G_N_ELEMENTS(scale) ? v * scale[decimals] : -1;
	/* r is within 1e-7 of the exact v * 10^N below 1e9: rounded to the
	 * nearest integer it is printf's result, unless it is that close to a
	 * tie (printf rounds the exact value) or negative (-0.0 prints '-') */
	double fl = floor(r);
	if (!(r >= 0 && r < 1e9) || signbit(v) || fabs(r - fl - 0.5) < 1e-6) {
		snprintf(buf, size, "%.*f", (int)decimals, v);
		return buf;
	}
	return fixed_digits((guint64)fl + (r - fl > 0.5), decimals, FALSE, buf, size);
}

char *ftl_duration_format(gint64 ns, char *buf, gsize size)
{
	if (ns == FTL_TS_NONE) {
		g_strlcpy(buf, "-", size);
		return buf;
	}
	double v = (double)ns, a = v < 0 ? -v : v;
	/* pick the unit from the rounded value, so 999999999 ns is "1.000 s" */
	const char *unit = a < 1000 ? " ns" : a < 999999.5 ? " us" : a < 999999500.0 ? " ms" : " s";
	if (a < 1000)
		ftl_int_format(ns, buf, size);
	else
		ftl_fixed_format(v / (a < 999999.5	? 1e3
				      : a < 999999500.0 ? 1e6
							: 1e9),
				 3, buf, size);
	g_strlcat(buf, unit, size);
	return buf;
}
