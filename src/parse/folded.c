/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Reading folded stacks ("a;b;c 123" lines) into paths and weights. */
#include "config.h"

#include "parse/folded.h"

#include <string.h>

#include "util/error.h"
#include "util/stream.h"
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
	guint64 v = 0;
	if (e - d <= 18) {
		/* up to 18 digits cannot overflow: no checks per digit */
		for (const char *q = d; q < e; q++)
			v = v * 10 + (guint64)(*q - '0');
	} else if (ftl_scan_u64(d, e, &v) != e || v > G_MAXINT64) {
		return NULL;
	}
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
		if (x != y) {
#if G_BYTE_ORDER == G_LITTLE_ENDIAN
			/* the lowest differing byte is the first */
			return i + (gsize)(__builtin_ctzll(x ^ y) >> 3);
#else
			break;
#endif
		}
	}
	while (i < n && a[i] == b[i])
		i++;
	return i;
}

/* Folded files are read front to back through a buffer used again and again:
 * mapping a file of some 40 MB cost a page fault per 64 KiB touched and its
 * first reads, where a buffer that stays in the cache costs one copy. */
#define FOLDED_CHUNK ((gsize)256 << 10)

typedef struct {
	const char *path;
	FtlFoldedFunc func;
	gpointer data;
	FtlSlice *frames; /* the frames of the last line, into prev */
	guint n, cap;
	const char *prev; /* the last line with frames, its stack prev_len bytes */
	gsize prev_len;
	GString *kept; /* prev, copied when the buffer moves under it */
	guint64 line;
	gint64 *total;
} FoldedReader;

/* How many of the previous line's frames the stack p[0..len) starts with:
 * a frame is shared when its bytes are and the new line ends a frame where
 * it ends. The shared slices are moved into p, the others dropped. */
static guint folded_same(FoldedReader *r, const char *p, gsize len)
{
	gsize cp = folded_common(r->prev, p, MIN(r->prev_len, len));
	guint same = 0;
	for (; same < r->n; same++) {
		FtlSlice *s = &r->frames[same];
		gsize at = (gsize)(s->p - r->prev), end = at + s->len;
		if (end > cp || (end == cp && end != len && p[end] != ';'))
			break;
		s->p = p + at;
	}
	r->n = same;
	return same;
}

static void folded_push(FoldedReader *r, const char *f, const char *fe)
{
	if (r->n == r->cap) {
		r->cap = MAX(2 * r->cap, 64);
		r->frames = g_renew(FtlSlice, r->frames, r->cap);
	}
	r->frames[r->n++] = (FtlSlice){ f, (guint32)(fe - f) };
}

static gboolean folded_line(FoldedReader *r, const char *p, const char *e, GError **error)
{
	r->line++;
	if (e == p || (e - p == 1 && *p == '\r'))
		return TRUE;
	gint64 w;
	const char *se = folded_weight(p, e, &w);
	if (!se) {
		g_set_error(error, FTL_ERROR, FTL_ERROR_PARSE,
			    "'%s': line %" G_GUINT64_FORMAT
			    ": not folded stacks (expected 'frame;frame COUNT')",
			    r->path, r->line);
		return FALSE;
	}
	if (w > G_MAXINT64 - *r->total) {
		g_set_error(error, FTL_ERROR, FTL_ERROR_PARSE,
			    "'%s': line %" G_GUINT64_FORMAT ": the weights add up past %" G_GINT64_FORMAT,
			    r->path, r->line, G_MAXINT64);
		return FALSE;
	}
	*r->total += w;
	guint same = r->prev ? folded_same(r, p, (gsize)(se - p)) : 0;
	const char *f = same ? r->frames[same - 1].p + r->frames[same - 1].len + 1 : p;
	for (; f <= se;) {
		const char *semi = memchr(f, ';', (gsize)(se - f));
		const char *fe = semi ? semi : se;
		if (fe > f)
			folded_push(r, f, fe);
		f = fe + 1;
	}
	if (r->n) {
		r->func(r->frames, r->n, same, w, r->data);
		r->prev = p;
		r->prev_len = (gsize)(se - p);
	} else {
		r->prev = NULL;
	}
	return TRUE;
}

/* The buffer is about to move: the last line's stack (which the next line
 * is compared with) and its frames go to r->kept. */
static void folded_keep_prev(FoldedReader *r)
{
	if (!r->prev || r->prev == r->kept->str)
		return;
	g_string_truncate(r->kept, 0);
	g_string_append_len(r->kept, r->prev, (gssize)r->prev_len);
	for (guint i = 0; i < r->n; i++)
		r->frames[i].p = r->kept->str + (r->frames[i].p - r->prev);
	r->prev = r->kept->str;
}

gboolean ftl_folded_read(const char *path, FtlFoldedFunc func, gpointer data, gint64 *total,
			 GError **error)
{
	g_autoptr(FtlStream) in = ftl_stream_open(path, error);
	if (!in)
		return FALSE;
	g_autoptr(GString) kept = g_string_new(NULL);
	FoldedReader r = { .path = path, .func = func, .data = data, .kept = kept, .total = total };
	gsize cap = FOLDED_CHUNK, len = 0;
	g_autofree char *buf = g_malloc(cap);
	gboolean ok = TRUE;
	for (;;) {
		gssize n = ftl_stream_read(in, buf + len, cap - len, error);
		if (n < 0) {
			ok = FALSE;
			break;
		}
		len += (gsize)n;
		const char *p = buf, *end = buf + len;
		for (;;) {
			const char *nl = memchr(p, '\n', (gsize)(end - p));
			if (!nl && (n > 0 || p == end))
				break; /* the rest of this line is still to come */
			const char *e = nl ? nl : end;
			if (!(ok = folded_line(&r, p, e, error)))
				break;
			p = nl ? nl + 1 : end;
		}
		if (!ok || n == 0)
			break;
		folded_keep_prev(&r);
		len = (gsize)(end - p);
		memmove(buf, p, len);
		if (len == cap) { /* a line longer than the buffer */
			cap *= 2;
			buf = g_realloc(buf, cap);
		}
	}
	g_free(r.frames);
	return ok;
}
