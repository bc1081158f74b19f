/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Formatting of trace timestamps, durations and numbers. */
#include "util/timefmt.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* "00" to "99". */
static const char digit_pairs[201] = "00010203040506070809101112131415161718192021222324"
				     "25262728293031323334353637383940414243444546474849"
				     "50515253545556575859606162636465666768697071727374"
				     "75767778798081828384858687888990919293949596979899";

/* The digits of q, a point before the last decimals of them (a dump
 * formats three numbers per event: two digits per division), written
 * backwards so that they end at end; returns where they start, at most
 * FTL_NUM_BACK bytes before end. */
static char *fixed_digits_back(guint64 q, guint decimals, gboolean neg, char *end)
{
	char *d = end;
	guint n = 0;
	decimals = MIN(decimals, 20u);
	for (; n + 2 <= decimals; n += 2, q /= 100) {
		d -= 2;
		memcpy(d, digit_pairs + 2 * (q % 100), 2);
	}
	if (n < decimals) {
		*--d = (char)('0' + q % 10);
		q /= 10;
	}
	if (decimals)
		*--d = '.';
	for (; q >= 100; q /= 100) {
		d -= 2;
		memcpy(d, digit_pairs + 2 * (q % 100), 2);
	}
	if (q >= 10) {
		d -= 2;
		memcpy(d, digit_pairs + 2 * q, 2);
	} else {
		*--d = (char)('0' + q);
	}
	if (neg)
		*--d = '-';
	return d;
}

/* The text from d to end into buf (size bytes), cut to fit, NUL ended. */
static char *copy_out(const char *d, const char *end, char *buf, gsize size)
{
	if (size) {
		gsize len = MIN((gsize)(end - d), size - 1);
		memcpy(buf, d, len);
		buf[len] = '\0';
	}
	return buf;
}

static char *fixed_digits(guint64 q, guint decimals, gboolean neg, char *buf, gsize size)
{
	char tmp[FTL_NUM_BACK];
	return copy_out(fixed_digits_back(q, decimals, neg, tmp + sizeof tmp), tmp + sizeof tmp,
			buf, size);
}

/* "-", for FTL_TS_NONE. */
static char *none_back(char *end)
{
	*--end = '-';
	return end;
}

char *ftl_time_format_us_back(gint64 ns, char *end)
{
	if (ns == FTL_TS_NONE)
		return none_back(end);
	/* rounded to the nearest microsecond, half up, as the kernel's
	 * ns2usecs() and libtraceevent (trace-cmd report, KernelShark) do:
	 * a truncation would print 0.000001 s less than they do for every
	 * time whose sub-microsecond part is 500 ns or more */
	guint64 v = ns < 0 ? -(guint64)ns : (guint64)ns;
	guint64 us = v / 1000u + (v % 1000u >= 500u);
	return fixed_digits_back(us, 6, ns < 0 && us, end);
}

char *ftl_time_format_us(gint64 ns, char *buf, gsize size)
{
	char tmp[FTL_NUM_BACK];
	return copy_out(ftl_time_format_us_back(ns, tmp + sizeof tmp), tmp + sizeof tmp, buf, size);
}

/* "%s%llu.%09llu" of the sign, seconds and nanoseconds, without printf (a
 * dump formats millions). */
char *ftl_time_format_ns_back(gint64 ns, char *end)
{
	if (ns == FTL_TS_NONE)
		return none_back(end);
	return fixed_digits_back(ns < 0 ? -(guint64)ns : (guint64)ns, 9, ns < 0, end);
}

char *ftl_time_format_ns(gint64 ns, char *buf, gsize size)
{
	char tmp[FTL_NUM_BACK];
	return copy_out(ftl_time_format_ns_back(ns, tmp + sizeof tmp), tmp + sizeof tmp, buf, size);
}

char *ftl_int_format_back(gint64 v, char *end)
{
	return fixed_digits_back(v < 0 ? -(guint64)v : (guint64)v, 0, v < 0, end);
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
