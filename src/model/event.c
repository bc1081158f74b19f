/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Event kinds and field access on event payloads. */
#include "model/event.h"

#include "model/source.h"
#include "util/scan.h"

#include <string.h>

static const char *const kind_names[FTL_EVENT_N_KINDS] = {
	[FTL_EVENT_GENERIC] = "event",
	[FTL_EVENT_FUNC_ENTRY] = "entry",
	[FTL_EVENT_FUNC_EXIT] = "exit",
	[FTL_EVENT_FUNC] = "func",
	[FTL_EVENT_MARKER] = "marker",
	[FTL_EVENT_SCHED_SWITCH] = "switch",
	[FTL_EVENT_SCHED_WAKEUP] = "wakeup",
	[FTL_EVENT_IRQ_ENTRY] = "irq-entry",
	[FTL_EVENT_IRQ_EXIT] = "irq-exit",
	[FTL_EVENT_LOST] = "lost",
	[FTL_EVENT_STACK] = "stack",
	[FTL_EVENT_TASK_SWITCH] = "task-switch",
	[FTL_EVENT_BUFFER_START] = "buffer-start",
};

const char *ftl_event_kind_name(FtlEventKind kind)
{
	return (guint)kind < FTL_EVENT_N_KINDS ? kind_names[kind] : "?";
}

gboolean ftl_slice_eq(FtlSlice s, const char *str)
{
	gsize n = strlen(str);
	return s.len == n && memcmp(s.p, str, n) == 0;
}

gboolean ftl_slice_to_i64(FtlSlice s, gint64 *out)
{
	const char *p = s.p, *e = s.p + s.len;
	gboolean neg = p < e && *p == '-';
	p += neg;
	gboolean hex = e - p > 2 && p[0] == '0' && (p[1] == 'x' || p[1] == 'X');
	guint64 v;
	const char *q = hex ? ftl_scan_hex(p, e, &v) : ftl_scan_u64(p, e, &v);
	if (!q || q != e)
		return FALSE;
	/* hex is a bit pattern: 0xffffffffffffffea reads as -22 */
	if ((neg || !hex) && v > (guint64)G_MAXINT64 + (neg ? 1 : 0))
		return FALSE;
	/* negate in unsigned arithmetic: -(2^63) has no positive twin */
	*out = neg ? (gint64)(0 - v) : (gint64)v;
	return TRUE;
}

static gboolean payload_is_key_char(char c)
{
	return g_ascii_isalnum(c) || c == '_' || c == '.' || c == '[' || c == ']';
}

/* Is there a "key=" starting at p[i]? Returns the '=' index or 0. */
static guint32 payload_key_at(const char *p, guint32 len, guint32 i)
{
	guint32 j = i;
	if (j >= len || !(g_ascii_isalpha(p[j]) || p[j] == '_'))
		return 0;
	while (j < len && payload_is_key_char(p[j]))
		j++;
	return j < len && p[j] == '=' ? j : 0;
}

gboolean ftl_payload_next_field(FtlSlice payload, guint32 *pos, FtlSlice *key, FtlSlice *value)
{
	const char *p = payload.p;
	guint32 len = payload.len, i = *pos, eq = 0;
	/* Find the next key= at a word start. */
	while (i < len) {
		while (i < len && p[i] == ' ')
			i++;
		if ((eq = payload_key_at(p, len, i)))
			break;
		while (i < len && p[i] != ' ')
			i++;
	}
	if (i >= len)
		return FALSE;
	key->p = p + i;
	key->len = eq - i;
	guint32 v = eq + 1, end;
	if (v < len && p[v] == '"') {
		/* Quoted string: runs to the closing quote that ends a word. */
		end = v + 1;
		while (end < len && !(p[end] == '"' && (end + 1 == len || p[end + 1] == ' ')))
			end++;
		if (end < len)
			end++;
	} else {
		end = v;
		while (end < len) {
			if (p[end] == ' ' && payload_key_at(p, len, end + 1))
				break;
			end++;
		}
	}
	guint32 vend = end;
	while (vend > v && p[vend - 1] == ' ')
		vend--;
	value->p = p + v;
	value->len = vend - v;
	*pos = end;
	return TRUE;
}

gboolean ftl_event_field(const FtlEvent *ev, const char *key, FtlSlice *value)
{
	if (ev->payload.len == 0 && ev->src && ev->src->ops->field)
		return ev->src->ops->field(ev->src, ev, key, value);
	guint32 pos = 0;
	FtlSlice k, v;
	while (ftl_payload_next_field(ev->payload, &pos, &k, &v)) {
		if (ftl_slice_eq(k, key)) {
			*value = v;
			return TRUE;
		}
	}
	return FALSE;
}

gboolean ftl_event_field_int(const FtlEvent *ev, const char *key, gint64 *out)
{
	FtlSlice v;
	if (!ftl_event_field(ev, key, &v))
		return FALSE;
	guint32 n = 0;
	while (n < v.len && v.p[n] != ' ')
		n++;
	v.len = n;
	return ftl_slice_to_i64(v, out);
}
