/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Reading folded stacks ("a;b;c 123" lines) into paths and weights. */
#include "config.h"

#include "parse/folded.h"

#include <string.h>

#include "util/error.h"
#include "util/input.h"
#include "util/scan.h"

/* The weight at the end of a line: digits after the last blank. */
static const char *folded_weight(const char *p, const char *e, gint64 *w)
{
	while (e > p && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'))
		e--;
	const char *d = e;
	while (d > p && g_ascii_isdigit(d[-1]))
		d--;
	if (d == e || d == p || (d[-1] != ' ' && d[-1] != '\t'))
		return NULL;
	guint64 v;
	if (ftl_scan_u64(d, e, &v) != e || v > G_MAXINT64)
		return NULL;
	*w = (gint64)v;
	const char *stack_end = d - 1;
	while (stack_end > p && (stack_end[-1] == ' ' || stack_end[-1] == '\t'))
		stack_end--;
	return stack_end;
}

gboolean ftl_folded_sniff(const char *data, gsize size)
{
	const char *p = data, *end = data + MIN(size, (gsize)65536);
	guint lines = 0, with_semicolon = 0;
	while (p < end && lines < 16) {
		const char *nl = memchr(p, '\n', (gsize)(end - p));
		const char *e = nl ? nl : end;
		if (!nl && end < data + size)
			break; /* a line cut by the sniff window */
		if (e > p && !(e - p == 1 && *p == '\r')) {
			gint64 w;
			/* traces indent their lines or start them with a comment */
			if (*p == ' ' || *p == '\t' || *p == '#' || !folded_weight(p, e, &w))
				return FALSE;
			if (memchr(p, ';', (gsize)(e - p)))
				with_semicolon++;
			lines++;
		}
		p = e + 1;
	}
	return lines > 0 && with_semicolon > 0;
}

/* How many bytes a[0..n) and b[0..n) have in common from the start. */
static gsize folded_common(const char *a, const char *b, gsize n)
{
	gsize i = 0;
	for (; i + 8 <= n; i += 8) {
		guint64 x, y;
		memcpy(&x, a + i, 8);
		memcpy(&y, b + i, 8);
		if (x != y)
			break;
	}
	while (i < n && a[i] == b[i])
		i++;
	return i;
}

/* How many of the previous line's frames (slices into prev, its stack
 * prev_len bytes long) the stack p[0..len) starts with: a frame is shared
 * when its bytes are and the new line ends a frame where it ends. */
static guint folded_same(GArray *frames, const char *prev, gsize prev_len, const char *p, gsize len)
{
	gsize cp = folded_common(prev, p, MIN(prev_len, len));
	guint same = 0;
	for (; same < frames->len; same++) {
		const FtlSlice *s = &g_array_index(frames, FtlSlice, same);
		gsize end = (gsize)(s->p - prev) + s->len;
		if (end > cp || (end == cp && end != len && p[end] != ';'))
			break;
	}
	/* the shared slices now point into this line: the next one compares with it */
	for (guint i = 0; i < same; i++) {
		FtlSlice *s = &g_array_index(frames, FtlSlice, i);
		s->p = p + (s->p - prev);
	}
	g_array_set_size(frames, same);
	return same;
}

gboolean ftl_folded_read(const char *path, FtlFoldedFunc func, gpointer data, GError **error)
{
	g_autoptr(FtlInput) in = ftl_input_open(path, error);
	if (!in)
		return FALSE;
	g_autoptr(GArray) frames = g_array_new(FALSE, FALSE, sizeof(FtlSlice));
	const char *p = in->data, *end = in->data + in->size;
	const char *prev = NULL; /* the last line with frames, its stack prev_len bytes */
	gsize prev_len = 0;
	guint64 line = 0;
	while (p && p < end) {
		const char *nl = memchr(p, '\n', (gsize)(end - p));
		const char *e = nl ? nl : end;
		line++;
		gint64 w;
		const char *se;
		if (e > p && !(e - p == 1 && *p == '\r')) {
			if (!(se = folded_weight(p, e, &w))) {
				g_set_error(error, FTL_ERROR, FTL_ERROR_PARSE,
					    "'%s': line %" G_GUINT64_FORMAT
					    ": not folded stacks (expected 'frame;frame COUNT')",
					    path, line);
				return FALSE;
			}
			guint same =
				prev ? folded_same(frames, prev, prev_len, p, (gsize)(se - p)) : 0;
			const char *f = p;
			if (same) {
				const FtlSlice *last = &g_array_index(frames, FtlSlice, same - 1);
				f = last->p + last->len + 1;
			}
			for (; f <= se;) {
				const char *semi = memchr(f, ';', (gsize)(se - f));
				const char *fe = semi ? semi : se;
				if (fe > f) {
					FtlSlice s = { f, (guint32)(fe - f) };
					g_array_append_val(frames, s);
				}
				f = fe + 1;
			}
			if (frames->len) {
				func((const FtlSlice *)(void *)frames->data, frames->len, same, w,
				     data);
				prev = p;
				prev_len = (gsize)(se - p);
			} else {
				prev = NULL;
			}
		}
		p = e + 1;
	}
	return TRUE;
}
