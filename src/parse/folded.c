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

/* Folded files are read front to back in chunks of a few buffers used
 * again and again: mapping a file of some 40 MB cost a page fault per 64
 * KiB touched and its first reads, where buffers that stay in the cache
 * cost one copy. A thread reads and splits the lines while the caller's
 * thread hands them to func: the two halves of the work take about as
 * long, and func runs on the caller's thread as if read in one. */
#define FOLDED_CHUNK   ((gsize)256 << 10)
#define FOLDED_BATCHES 4 /* chunks in flight between the threads */

/* One parsed line of a batch: the first same frames of the line before,
 * then frames[first, first + n_added). */
typedef struct {
	guint32 first, n_added, same;
	gint64 weight;
} FoldedLine;

/* A frame of the last line: bytes [off, off + len) of it. */
typedef struct {
	guint32 off, len;
} FoldedFrame;

/* A chunk of the file, its complete lines and their frames (into buf). */
typedef struct {
	char *buf;
	gsize cap;
	FoldedLine *lines;
	FtlSlice *frames;
	guint n_lines, cap_lines, n_frames, cap_frames;
	GError *error; /* the read ended with this error (the lines before it stand) */
	gboolean last; /* the end of the file (or of the reading, on error) */
} FoldedBatch;

typedef struct {
	const char *path;
	FtlStream *in;
	GAsyncQueue *free_q, *full_q; /* FoldedBatch */
	FoldedBatch *batch;	      /* being filled */
	FoldedFrame *frames;	      /* the frames of the last line, in prev */
	guint n, cap;
	const char *prev; /* the last line with frames, its stack prev_len bytes */
	gsize prev_len;
	GString *kept; /* prev, copied when the buffer moves under it */
	guint64 line;
	gint64 total; /* *total at the start, plus the weights read */
} FoldedReader;

/* How many of the previous line's frames the stack p[0..len) starts with:
 * a frame is shared when its bytes are and the new line ends a frame where
 * it ends; the others are dropped. */
static guint folded_same(FoldedReader *r, const char *p, gsize len)
{
	gsize cp = folded_common(r->prev, p, MIN(r->prev_len, len));
	/* the frames end in order, each but the last at a ';': those that end
	 * before cp are shared, found by bisection (a line has tens) */
	guint lo = 0, hi = r->n;
	while (lo < hi) {
		guint mid = (lo + hi) / 2;
		if ((gsize)r->frames[mid].off + r->frames[mid].len <= cp)
			lo = mid + 1;
		else
			hi = mid;
	}
	guint same = lo;
	if (same) {
		gsize end = (gsize)r->frames[same - 1].off + r->frames[same - 1].len;
		if (end == cp && end != len && p[end] != ';')
			same--; /* "a;bc" after "a;b": b is not shared */
	}
	r->n = same;
	return same;
}

/* Adds the frame p[f..fe) of the line at p to the last line's frames and
 * to the batch's. */
static void folded_push(FoldedReader *r, const char *p, const char *f, const char *fe)
{
	if (r->n == r->cap) {
		r->cap = MAX(2 * r->cap, 64);
		r->frames = g_renew(FoldedFrame, r->frames, r->cap);
	}
	r->frames[r->n++] = (FoldedFrame){ (guint32)(f - p), (guint32)(fe - f) };
	FoldedBatch *b = r->batch;
	if (b->n_frames == b->cap_frames) {
		b->cap_frames = MAX(2 * b->cap_frames, 16384);
		b->frames = g_renew(FtlSlice, b->frames, b->cap_frames);
	}
	b->frames[b->n_frames++] = (FtlSlice){ f, (guint32)(fe - f) };
}

/* Splits the line p[0..e) into the batch being filled. */
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
	if (w > G_MAXINT64 - r->total) {
		g_set_error(error, FTL_ERROR, FTL_ERROR_PARSE,
			    "'%s': line %" G_GUINT64_FORMAT
			    ": the weights add up past %" G_GINT64_FORMAT,
			    r->path, r->line, G_MAXINT64);
		return FALSE;
	}
	r->total += w;
	guint same = r->prev ? folded_same(r, p, (gsize)(se - p)) : 0;
	FoldedBatch *b = r->batch;
	guint32 first = b->n_frames;
	const char *f = same ? p + r->frames[same - 1].off + r->frames[same - 1].len + 1 : p;
	for (; f <= se;) {
		const char *semi = memchr(f, ';', (gsize)(se - f));
		const char *fe = semi ? semi : se;
		if (fe > f)
			folded_push(r, p, f, fe);
		f = fe + 1;
	}
	if (!r->n) {
		r->prev = NULL;
		return TRUE;
	}
	if (b->n_lines == b->cap_lines) {
		b->cap_lines = MAX(2 * b->cap_lines, 1024);
		b->lines = g_renew(FoldedLine, b->lines, b->cap_lines);
	}
	b->lines[b->n_lines++] = (FoldedLine){ first, b->n_frames - first, same, w };
	r->prev = p;
	r->prev_len = (gsize)(se - p);
	return TRUE;
}

/* The buffer is about to move: the last line's stack (which the next line
 * is compared with) goes to r->kept. */
static void folded_keep_prev(FoldedReader *r)
{
	if (!r->prev || r->prev == r->kept->str)
		return;
	g_string_truncate(r->kept, 0);
	g_string_append_len(r->kept, r->prev, (gssize)r->prev_len);
	r->prev = r->kept->str;
}

/* The next batch to fill, empty, with room for at least need bytes. */
static FoldedBatch *folded_take(FoldedReader *r, gsize need)
{
	FoldedBatch *b = g_async_queue_pop(r->free_q);
	b->n_lines = b->n_frames = 0;
	if (b->cap < need) {
		b->cap = need;
		b->buf = g_realloc(b->buf, b->cap);
	}
	return b;
}

/* Reads a chunk after the len bytes the batch holds and splits its lines;
 * the line cut at its end moves to the next batch. FALSE at the end. */
static gboolean folded_chunk(FoldedReader *r, gsize *len)
{
	FoldedBatch *b = r->batch;
	gssize n = ftl_stream_read(r->in, b->buf + *len, b->cap - *len, &b->error);
	if (n < 0)
		return FALSE;
	*len += (gsize)n;
	const char *p = b->buf, *end = b->buf + *len;
	for (;;) {
		const char *nl = memchr(p, '\n', (gsize)(end - p));
		if (!nl && (n > 0 || p == end))
			break; /* the rest of this line is still to come */
		const char *e = nl ? nl : end;
		if (!folded_line(r, p, e, &b->error))
			return FALSE;
		p = nl ? nl + 1 : end;
	}
	if (n == 0)
		return FALSE;
	folded_keep_prev(r);
	gsize rest = (gsize)(end - p);
	/* room for a chunk after the cut line, twice its length at least (a
	 * line longer than the buffer) */
	FoldedBatch *next = folded_take(r, MAX(FOLDED_CHUNK, 2 * rest));
	memcpy(next->buf, p, rest);
	*len = rest;
	g_async_queue_push(r->full_q, b);
	r->batch = next;
	return TRUE;
}

static gpointer folded_thread(gpointer data)
{
	FoldedReader *r = data;
	gsize len = 0;
	r->batch = folded_take(r, FOLDED_CHUNK);
	while (folded_chunk(r, &len))
		;
	r->batch->last = TRUE;
	g_async_queue_push(r->full_q, r->batch);
	return NULL;
}

static void folded_batch_free(gpointer data)
{
	FoldedBatch *b = data;
	g_free(b->buf);
	g_free(b->lines);
	g_free(b->frames);
	g_clear_error(&b->error);
	g_free(b);
}

/* Hands each line of the batches the thread fills to func, to the last. */
static gboolean folded_consume(FoldedReader *r, FtlFoldedFunc func, gpointer data, GError **error)
{
	for (;;) {
		FoldedBatch *b = g_async_queue_pop(r->full_q);
		for (guint i = 0; i < b->n_lines; i++) {
			const FoldedLine *l = &b->lines[i];
			func(l->n_added ? b->frames + l->first : NULL, l->n_added, l->same,
			     l->weight, data);
		}
		gboolean last = b->last, failed = b->error != NULL;
		if (failed)
			g_propagate_error(error, g_steal_pointer(&b->error));
		g_async_queue_push(r->free_q, b);
		if (last || failed)
			return !failed;
	}
}

gboolean ftl_folded_read(const char *path, FtlFoldedFunc func, gpointer data, gint64 *total,
			 GError **error)
{
	g_autoptr(FtlStream) in = ftl_stream_open(path, error);
	if (!in)
		return FALSE;
	g_autoptr(GString) kept = g_string_new(NULL);
	FoldedReader r = { .path = path, .in = in, .kept = kept, .total = *total };
	r.free_q = g_async_queue_new_full(folded_batch_free);
	r.full_q = g_async_queue_new_full(folded_batch_free);
	for (guint i = 0; i < FOLDED_BATCHES; i++) {
		g_async_queue_push(r.free_q, g_new0(FoldedBatch, 1));
	}
	GThread *t = g_thread_new("ftlens-folded", folded_thread, &r);
	gboolean ok = folded_consume(&r, func, data, error);
	g_thread_join(t);
	*total = r.total;
	g_async_queue_unref(r.free_q);
	g_async_queue_unref(r.full_q);
	g_free(r.frames);
	return ok;
}
