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
 * cost one copy. A thread reads the chunks, finds their lines and checks
 * their weights; the caller's thread splits each line into frames against
 * the line before and hands it to func, as if read in one. (The reading
 * thread also split the lines once: it was then busy all the time and the
 * caller's thread a third of it.) */
#define FOLDED_CHUNK   ((gsize)256 << 10)
#define FOLDED_BATCHES 4 /* chunks in flight between the threads */

/* One line of a batch: its stack is buf[off, off + len). */
typedef struct {
	gsize off, len;
	gint64 weight;
} FoldedLine;

/* A frame of the last line: bytes [off, off + len) of it. */
typedef struct {
	guint32 off, len;
} FoldedFrame;

/* A chunk of the file and its complete lines (into buf). */
typedef struct {
	char *buf;
	gsize cap;
	FoldedLine *lines;
	guint n_lines, cap_lines;
	GError *error; /* the read ended with this error (the lines before it stand) */
	gboolean last; /* the end of the file (or of the reading, on error) */
} FoldedBatch;

/* The reading thread's. */
typedef struct {
	const char *path;
	FtlStream *in;
	GAsyncQueue *free_q, *full_q; /* FoldedBatch */
	FoldedBatch *batch;	      /* being filled */
	guint64 line;
	gint64 total; /* *total at the start, plus the weights read */
} FoldedReader;

/* The caller's thread's: the last line split, and the next one's frames. */
typedef struct {
	FoldedFrame *frames; /* the frames of the last line, in prev */
	guint n, cap;
	const char *prev; /* the last line with frames, its stack prev_len bytes */
	gsize prev_len;
	GString *kept;	 /* prev, copied when its batch goes back to be refilled */
	FtlSlice *added; /* the frames a line adds, for func */
	guint cap_added;
} FoldedSplit;

/* How many of the previous line's frames the stack p[0..len) starts with:
 * a frame is shared when its bytes are and the new line ends a frame where
 * it ends; the others are dropped. */
static guint folded_same(FoldedSplit *sp, const char *p, gsize len)
{
	gsize cp = folded_common(sp->prev, p, MIN(sp->prev_len, len));
	/* the frames end in order, each but the last at a ';': those that end
	 * before cp are shared, found by bisection (a line has tens) */
	guint lo = 0, hi = sp->n;
	while (lo < hi) {
		guint mid = (lo + hi) / 2;
		if ((gsize)sp->frames[mid].off + sp->frames[mid].len <= cp)
			lo = mid + 1;
		else
			hi = mid;
	}
	guint same = lo;
	if (same) {
		gsize end = (gsize)sp->frames[same - 1].off + sp->frames[same - 1].len;
		if (end == cp && end != len && p[end] != ';')
			same--; /* "a;bc" after "a;b": b is not shared */
	}
	sp->n = same;
	return same;
}

/* Adds the frame p[f..fe) of the line at p to the last line's frames and
 * to those the line adds (n_added of them so far). */
static void folded_push(FoldedSplit *sp, const char *p, const char *f, const char *fe,
			guint n_added)
{
	if (sp->n == sp->cap) {
		sp->cap = MAX(2 * sp->cap, 64);
		sp->frames = g_renew(FoldedFrame, sp->frames, sp->cap);
	}
	sp->frames[sp->n++] = (FoldedFrame){ (guint32)(f - p), (guint32)(fe - f) };
	if (n_added == sp->cap_added) {
		sp->cap_added = MAX(2 * sp->cap_added, 64);
		sp->added = g_renew(FtlSlice, sp->added, sp->cap_added);
	}
	sp->added[n_added] = (FtlSlice){ f, (guint32)(fe - f) };
}

/* Splits the stack p[0..len) against the line before and hands it to func. */
static void folded_split(FoldedSplit *sp, const char *p, gsize len, gint64 weight,
			 FtlFoldedFunc func, gpointer data)
{
	const char *se = p + len;
	guint same = sp->prev ? folded_same(sp, p, len) : 0;
	guint n_added = 0;
	const char *f = same ? p + sp->frames[same - 1].off + sp->frames[same - 1].len + 1 : p;
	for (; f <= se;) {
		const char *semi = memchr(f, ';', (gsize)(se - f));
		const char *fe = semi ? semi : se;
		if (fe > f)
			folded_push(sp, p, f, fe, n_added++);
		f = fe + 1;
	}
	if (!sp->n) {
		sp->prev = NULL;
		return;
	}
	func(n_added ? sp->added : NULL, n_added, same, weight, data);
	sp->prev = p;
	sp->prev_len = len;
}

/* The last line's batch goes back to be refilled: its stack (which the
 * next line is compared with) goes to sp->kept. */
static void folded_keep_prev(FoldedSplit *sp)
{
	if (!sp->prev || sp->prev == sp->kept->str)
		return;
	g_string_truncate(sp->kept, 0);
	g_string_append_len(sp->kept, sp->prev, (gssize)sp->prev_len);
	sp->prev = sp->kept->str;
}

/* Checks the line p[0..e) and adds it to the batch being filled. */
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
	FoldedBatch *b = r->batch;
	if (b->n_lines == b->cap_lines) {
		b->cap_lines = MAX(2 * b->cap_lines, 1024);
		b->lines = g_renew(FoldedLine, b->lines, b->cap_lines);
	}
	b->lines[b->n_lines++] = (FoldedLine){ (gsize)(p - b->buf), (gsize)(se - p), w };
	return TRUE;
}

/* The next batch to fill, empty, with room for at least need bytes. */
static FoldedBatch *folded_take(FoldedReader *r, gsize need)
{
	FoldedBatch *b = g_async_queue_pop(r->free_q);
	b->n_lines = 0;
	if (b->cap < need) {
		b->cap = need;
		b->buf = g_realloc(b->buf, b->cap);
	}
	return b;
}

/* Reads a chunk after the len bytes the batch holds and finds its lines;
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
	g_clear_error(&b->error);
	g_free(b);
}

/* Splits each line of the batches the thread fills and hands it to func,
 * to the last. */
static gboolean folded_consume(FoldedReader *r, FoldedSplit *sp, FtlFoldedFunc func, gpointer data,
			       GError **error)
{
	for (;;) {
		FoldedBatch *b = g_async_queue_pop(r->full_q);
		for (guint i = 0; i < b->n_lines; i++) {
			const FoldedLine *l = &b->lines[i];
			folded_split(sp, b->buf + l->off, l->len, l->weight, func, data);
		}
		folded_keep_prev(sp);
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
	FoldedReader r = { .path = path, .in = in, .total = *total };
	FoldedSplit sp = { .kept = kept };
	r.free_q = g_async_queue_new_full(folded_batch_free);
	r.full_q = g_async_queue_new_full(folded_batch_free);
	for (guint i = 0; i < FOLDED_BATCHES; i++) {
		g_async_queue_push(r.free_q, g_new0(FoldedBatch, 1));
	}
	GThread *t = g_thread_new("ftlens-folded", folded_thread, &r);
	gboolean ok = folded_consume(&r, &sp, func, data, error);
	g_thread_join(t);
	*total = r.total;
	g_async_queue_unref(r.free_q);
	g_async_queue_unref(r.full_q);
	g_free(sp.frames);
	g_free(sp.added);
	return ok;
}
