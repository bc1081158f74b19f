/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Formatting of trace timestamps, durations and numbers. */
#pragma once

#include <glib.h>

#define FTL_TS_NONE G_MININT64

/* Writes "SSSS.UUUUUU" (microseconds, rounded half up as the kernel and
 * trace-cmd report print them) into buf;
 * FTL_TS_NONE prints as "-". Returns buf. */
char *ftl_time_format_us(gint64 ns, char *buf, gsize size);
/* Writes "SSSS.NNNNNNNNN" (nanoseconds) into buf. Returns buf. */
char *ftl_time_format_ns(gint64 ns, char *buf, gsize size);
/* Human duration: "812 ns", "12.345 us", "3.200 ms", "1.500 s". */
char *ftl_duration_format(gint64 ns, char *buf, gsize size);
/* v as printf's "%.Nf" writes it, N = decimals (at most 6), and v as
 * "%" G_GINT64_FORMAT: the same text, without printf's cost for the values
 * views write by the million. Return buf. */
char *ftl_fixed_format(double v, guint decimals, char *buf, gsize size);
char *ftl_int_format(gint64 v, char *buf, gsize size);
/* The same three written backwards, no NUL, so that they end at end:
 * return where they start, at most FTL_NUM_BACK bytes before end (a dump
 * right-aligns them in its columns). */
#define FTL_NUM_BACK 48
char *ftl_time_format_us_back(gint64 ns, char *end);
char *ftl_time_format_ns_back(gint64 ns, char *end);
char *ftl_int_format_back(gint64 v, char *end);
