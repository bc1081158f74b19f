/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Appending short pieces to a GString by the million. */
#pragma once

#include <glib.h>
#include <string.h>

/* n bytes of s onto out: a copy when it has room (GLib 2.74's
 * g_string_append_len() is a call to g_string_insert_len(), which checks
 * for overlap and position on every piece; 2.76 inlines it). */
static inline void ftl_string_put(GString *out, const char *s, gsize n)
{
	if (out->len + n >= out->allocated_len) {
		g_string_append_len(out, s, (gssize)n);
		return;
	}
	memcpy(out->str + out->len, s, n);
	out->len += n;
	out->str[out->len] = 0;
}
