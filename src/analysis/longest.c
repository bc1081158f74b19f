/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The N longest timed calls, kept sorted in a small array (N is tens). */
#include "analysis/longest.h"

#include <string.h>

struct _FtlLongest {
	guint cap;
	GArray *calls; /* FtlCall, longest first */
};

FtlLongest *ftl_longest_new(guint n)
{
	FtlLongest *l = g_new0(FtlLongest, 1);
	l->cap = MAX(n, 1);
	l->calls = g_array_sized_new(FALSE, FALSE, sizeof(FtlCall), l->cap + 1);
	return l;
}

void ftl_longest_free(FtlLongest *l)
{
	if (!l)
		return;
	g_array_unref(l->calls);
	g_free(l);
}

void ftl_longest_add_call(const FtlCall *call, gpointer data)
{
	FtlLongest *l = data;
	if (call->duration == FTL_TS_NONE)
		return;
	guint n = l->calls->len;
	if (n == l->cap && g_array_index(l->calls, FtlCall, n - 1).duration >= call->duration)
		return;
	guint i = n;
	/* ties keep input order: an earlier call stays ahead */
	while (i > 0 && g_array_index(l->calls, FtlCall, i - 1).duration < call->duration)
		i--;
	g_array_insert_val(l->calls, i, *call);
	if (l->calls->len > l->cap)
		g_array_set_size(l->calls, l->cap);
}

guint ftl_longest_count(const FtlLongest *l)
{
	return l->calls->len;
}

const FtlCall *ftl_longest_get(const FtlLongest *l, guint i)
{
	return &g_array_index(l->calls, FtlCall, i);
}
