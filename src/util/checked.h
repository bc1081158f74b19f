/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Checked and saturating arithmetic for values that come from a trace:
 * timestamps, durations, sums of spans, counts, sizes and depths. A trace
 * can hold any 64-bit value, so plain `a - b` or `a + b` on them is a
 * signed overflow (undefined) or a wrapped total (a negative duration).
 *
 * The ftl_checked_* forms return FALSE when the exact result does not fit
 * (the caller turns that into a diagnostic or refuses the value); the
 * ftl_sat_* forms clamp to the type's range, for sums that only grow and
 * are printed (a total of G_MAXINT64 ns reads as "too large", never as a
 * negative figure). */
#pragma once

#include <glib.h>

/* a - b into *out; FALSE (and *out untouched) when it overflows. */
static inline gboolean ftl_checked_sub_i64(gint64 a, gint64 b, gint64 *out)
{
	gint64 r;
	if (__builtin_sub_overflow(a, b, &r))
		return FALSE;
	*out = r;
	return TRUE;
}

/* a + b into *out; FALSE (and *out untouched) when it overflows. */
static inline gboolean ftl_checked_add_i64(gint64 a, gint64 b, gint64 *out)
{
	gint64 r;
	if (__builtin_add_overflow(a, b, &r))
		return FALSE;
	*out = r;
	return TRUE;
}

/* a + b, clamped to [G_MININT64, G_MAXINT64]. */
static inline gint64 ftl_sat_add_i64(gint64 a, gint64 b)
{
	gint64 r;
	if (__builtin_add_overflow(a, b, &r))
		return b > 0 ? G_MAXINT64 : G_MININT64;
	return r;
}

/* a - b, clamped to [G_MININT64, G_MAXINT64]. */
static inline gint64 ftl_sat_sub_i64(gint64 a, gint64 b)
{
	gint64 r;
	if (__builtin_sub_overflow(a, b, &r))
		return b < 0 ? G_MAXINT64 : G_MININT64;
	return r;
}

/* a * b, clamped to [G_MININT64, G_MAXINT64]. */
static inline gint64 ftl_sat_mul_i64(gint64 a, gint64 b)
{
	gint64 r;
	if (__builtin_mul_overflow(a, b, &r))
		return (a < 0) != (b < 0) ? G_MININT64 : G_MAXINT64;
	return r;
}

/* a + b, clamped to G_MAXUINT64. */
static inline guint64 ftl_sat_add_u64(guint64 a, guint64 b)
{
	guint64 r;
	if (__builtin_add_overflow(a, b, &r))
		return G_MAXUINT64;
	return r;
}

/* A count from a trace (lost events, calls) as a non-negative gint64, the
 * type JSON and the tables print: values above G_MAXINT64 saturate, so a
 * count is never printed negative. */
static inline gint64 ftl_sat_count_i64(guint64 v)
{
	return v > (guint64)G_MAXINT64 ? G_MAXINT64 : (gint64)v;
}
