/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Formatting of trace timestamps and durations. */
#pragma once

#include <glib.h>

#define FTL_TS_NONE G_MININT64

/* Writes "SSSS.UUUUUU" (microsecond precision, as the kernel prints) into buf;
 * FTL_TS_NONE prints as "-". Returns buf. */
char *ftl_time_format_us(gint64 ns, char *buf, gsize size);
/* Writes "SSSS.NNNNNNNNN" (nanoseconds) into buf. Returns buf. */
char *ftl_time_format_ns(gint64 ns, char *buf, gsize size);
/* Human duration: "812 ns", "12.345 us", "3.200 ms", "1.500 s". */
char *ftl_duration_format(gint64 ns, char *buf, gsize size);
