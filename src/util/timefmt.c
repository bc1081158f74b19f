/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Formatting of trace timestamps and durations. */
#include "util/timefmt.h"

#include <stdio.h>

char *ftl_time_format_us(gint64 ns, char *buf, gsize size)
{
	if (ns == FTL_TS_NONE) {
		g_strlcpy(buf, "-", size);
		return buf;
	}
	const char *sign = ns < 0 ? "-" : "";
	guint64 v = ns < 0 ? (guint64)-ns : (guint64)ns;
	snprintf(buf, size, "%s%" G_GUINT64_FORMAT ".%06" G_GUINT64_FORMAT, sign, v / 1000000000u,
		 (v % 1000000000u) / 1000u);
	return buf;
}

char *ftl_time_format_ns(gint64 ns, char *buf, gsize size)
{
	if (ns == FTL_TS_NONE) {
		g_strlcpy(buf, "-", size);
		return buf;
	}
	const char *sign = ns < 0 ? "-" : "";
	guint64 v = ns < 0 ? (guint64)-ns : (guint64)ns;
	snprintf(buf, size, "%s%" G_GUINT64_FORMAT ".%09" G_GUINT64_FORMAT, sign, v / 1000000000u,
		 v % 1000000000u);
	return buf;
}

char *ftl_duration_format(gint64 ns, char *buf, gsize size)
{
	if (ns == FTL_TS_NONE) {
		g_strlcpy(buf, "-", size);
		return buf;
	}
	double v = (double)ns, a = v < 0 ? -v : v;
	/* pick the unit from the rounded value, so 999999999 ns is "1.000 s" */
	if (a < 1000)
		snprintf(buf, size, "%" G_GINT64_FORMAT " ns", ns);
	else if (a < 999999.5)
		snprintf(buf, size, "%.3f us", v / 1e3);
	else if (a < 999999500.0)
		snprintf(buf, size, "%.3f ms", v / 1e6);
	else
		snprintf(buf, size, "%.3f s", v / 1e9);
	return buf;
}
