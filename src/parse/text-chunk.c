/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The lines of one chunk: blank, header, special and event lines told apart,
 * events handed to the line parsers (text-fgraph.c, text-event.c) in the order
 * they are tried, stack frames gathered under their event. */
#include "config.h"

#include "parse/text-chunk.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "parse/text-event.h"
#include "parse/text-fgraph.h"

TextParseMode ftl_text_parse_mode(void)
{
	const char *env = g_getenv("FTLENS_TEXT_PARSE");
	if (g_strcmp0(env, "general") == 0)
		return TEXT_PARSE_GENERAL;
	if (g_strcmp0(env, "verify") == 0)
		return TEXT_PARSE_VERIFY;
	return TEXT_PARSE_FAST;
}

guint ftl_text_decode(TextParseMode mode, guint skip)
{
	if (mode == TEXT_PARSE_GENERAL || g_strcmp0(g_getenv("FTLENS_DECODE"), "all") == 0)
		return FTL_FIELDS_ALL;
	return FTL_FIELDS_ALL & ~skip;
}

TextChunk *ftl_text_chunk_new(void)
{
	TextChunk *c = g_new0(TextChunk, 1);
	c->events = g_array_new(FALSE, FALSE, sizeof(FtlEvent));
	c->fix = g_array_new(FALSE, FALSE, sizeof(guint8));
	c->ops = g_array_new(FALSE, FALSE, sizeof(TextOp));
	c->frames = g_array_new(FALSE, FALSE, sizeof(FtlSlice));
	c->addrs = g_array_new(FALSE, FALSE, sizeof(guint64));
	c->cpu_task = g_array_new(FALSE, TRUE, sizeof(TextCpuTask));
	return c;
}

void ftl_text_chunk_free(TextChunk *c)
{
	if (!c)
		return;
	g_array_unref(c->events);
	g_array_unref(c->fix);
	g_array_unref(c->ops);
	g_array_unref(c->frames);
	g_array_unref(c->addrs);
	g_array_unref(c->cpu_task);
	g_free(c);
}

gboolean ftl_text_chunk_can_cut(const char *line, const char *end)
{
	const char *p = text_skip_ws(line, end);
	if (end - p < 2)
		return FALSE; /* cannot tell yet */
	return !(p[0] == '=' && p[1] == '>');
}

/* Header lines of 2.6.2x latency traces that were printed without '#'. */
static gboolean chunk_old_header_line(const char *p, const char *e, gboolean *latency)
{
	*latency = FALSE;
	if (g_strstr_len(p, e - p, "latency trace v")) {
		*latency = TRUE;
		return TRUE;
	}
	return text_has_prefix(p, e, "latency:") || text_has_prefix(p, e, "| task:") ||
	       text_has_prefix(p, e, "=> started at:") || text_has_prefix(p, e, "=> ended at:") ||
	       text_has_prefix(p, e, "-----------------") || text_has_prefix(p, e, "_------=>");
}

/* trace-cmd report of several buffers puts the buffer's name before each
 * line ("%*s: "): the line after "NAME: " when it is one, else p. */
static const char *chunk_skip_instance(const char *p, const char *e)
{
	const char *q = p;
	while (q < e && (g_ascii_isalnum(*q) || *q == '_' || *q == '-' || *q == '.'))
		q++;
	if (q == p || q + 1 >= e || q[0] != ':' || q[1] != ' ')
		return p;
	return text_skip_ws(q + 1, e);
}

/* "CPU:N [LOST N EVENTS]", "CPU:N [N EVENTS DROPPED]", "CPU:N [EVENTS
 * DROPPED]" (trace-cmd, when the ring buffer did not say how many: count 0,
 * the model's "not said"), "CPU N is empty", and trace-cmd report's
 * preamble. Returns TEXT_LINE_EVENT for a lost-event line, TEXT_LINE_NONE
 * with *special set for a line to count as special. */
static TextLineResult chunk_special_line(TextLine *tl, const char *p, const char *e,
					 gboolean *special)
{
	guint64 cpu, n = 0;
	const char *q, *lost = chunk_skip_instance(p, e);
	*special = FALSE;
	if (text_has_prefix(lost, e, "CPU:") && (q = ftl_scan_u64(lost + 4, e, &cpu))) {
		q = text_skip_ws(q, e);
		const char *d = q < e && *q == '[' ? ftl_scan_u64(q + 1, e, &n) : NULL;
		if (text_has_prefix(q, e, "[LOST ")) {
			if (!ftl_scan_u64(q + 6, e, &n))
				return TEXT_LINE_NONE;
		} else if (!(d && text_has_prefix(d, e, " EVENTS DROPPED]")) &&
			   !text_has_prefix(q, e, "[EVENTS DROPPED]")) {
			return TEXT_LINE_NONE;
		}
		FtlEvent *ev = tl->ev;
		ev->kind = FTL_EVENT_LOST;
		ev->name = tl->n->lost;
		ev->cpu = (gint32)cpu;
		ev->u.lost.count = n;
		ev->payload = (FtlSlice){ p, (guint32)(e - p) };
		return TEXT_LINE_EVENT;
	}
	if (text_has_prefix(p, e, "cpus=") && ftl_scan_u64(p + 5, e, &n)) {
		tl->report = TRUE;
		tl->ev->u.lost.count = n; /* the count, for the caller's op */
		*special = TRUE;
		return TEXT_LINE_NONE;
	}
	if (text_has_prefix(p, e, "version = ") || text_has_prefix(p, e, "version=")) {
		tl->report = TRUE;
		*special = TRUE;
		return TEXT_LINE_NONE;
	}
	/* funcgraph-overrun: " (Overruns: N)" after a return */
	if (text_has_prefix(p, e, "(Overruns: ") && ftl_scan_u64(p + 11, e, &n)) {
		*special = TRUE;
		return TEXT_LINE_NONE;
	}
	if (text_has_prefix(p, e, "CPU ") && (q = ftl_scan_u64(p + 4, e, &cpu)) &&
	    text_has_prefix(q, e, " is empty")) {
		*special = TRUE;
		return TEXT_LINE_NONE;
	}
	/* The dash rule around function_graph task-switch blocks. */
	if (e - p >= 10) {
		const char *d = p;
		while (d < e && *d == '-')
			d++;
		if (text_skip_ws(d, e) == e && d - p >= 10) {
			*special = TRUE;
			return TEXT_LINE_NONE;
		}
	}
	return TEXT_LINE_NONE;
}

/* "##### CPU 2 buffer started ####" */
static gboolean chunk_buffer_started(TextLine *tl, const char *p, const char *e)
{
	guint64 cpu;
	const char *q;
	if (!text_has_prefix(p, e, "##### CPU ") || !(q = ftl_scan_u64(p + 10, e, &cpu)) ||
	    !text_has_prefix(q, e, " buffer started"))
		return FALSE;
	FtlEvent *ev = tl->ev;
	ev->kind = FTL_EVENT_BUFFER_START;
	ev->name = tl->n->buffer_start;
	ev->cpu = (gint32)cpu;
	ev->payload = (FtlSlice){ p, (guint32)(e - p) };
	return TRUE;
}

typedef struct {
	TextChunk *c;
	TextLine tl;
	const char *text, *cur, *end;
	guint64 lineno, seq;
	TextParseMode mode;
	TextFgraphLayout layout; /* the fast path's, when have_layout */
	gboolean have_layout;
} ChunkParse;

/* One frame as trace-cmd prints it, "func (ffffffff8108a9a0)" (its ftrace
 * plugin) or "func" (the format's "%ps"), into the chunk's frames: the
 * function and, apart, the address. */
static void chunk_add_frame(TextChunk *c, const char *p, const char *e)
{
	while (e > p && (e[-1] == ' ' || e[-1] == '\t'))
		e--;
	guint64 addr = 0;
	const char *open = e > p && e[-1] == ')' ? g_strrstr_len(p, e - p, "(") : NULL;
	if (open && open > p && open[-1] == ' ' && e - open - 2 >= 1 && e - open - 2 <= 16) {
		const char *h = open + 1;
		while (h < e - 1 && g_ascii_isxdigit(*h))
			h++;
		if (h == e - 1) {
			addr = g_ascii_strtoull(open + 1, NULL, 16);
			e = open;
			while (e > p && e[-1] == ' ')
				e--;
		}
	}
	FtlSlice f = { p, (guint32)(e - p) };
	g_array_append_val(c->frames, f);
	g_array_append_val(c->addrs, addr);
}

/* Gathers the frames of the stack event in hand: the one its own line may
 * end with ("kernel_stack: \t=> try_to_wake_up") and the " => frame" lines
 * after it (the frames' index stands in the pointer until the chunk is
 * done: the array may move). */
static void chunk_collect_frames(ChunkParse *cp, FtlEvent *ev)
{
	GArray *frames = cp->c->frames;
	guint first = frames->len;
	const char *pe = ev->payload.p + ev->payload.len;
	if (text_has_prefix(ev->payload.p, pe, "=>"))
		chunk_add_frame(cp->c, text_skip_ws(ev->payload.p + 2, pe), pe);
	const char *cur = cp->cur;
	while (cur < cp->end) {
		const char *nl = memchr(cur, '\n', (gsize)(cp->end - cur));
		const char *le = nl ? nl : cp->end;
		const char *next = nl ? nl + 1 : cp->end;
		if (le > cur && le[-1] == '\r')
			le--;
		const char *p = text_skip_ws(cur, le);
		if (!text_has_prefix(p, le, "=>"))
			break;
		chunk_add_frame(cp->c, text_skip_ws(p + 2, le), le);
		cp->lineno++;
		cp->c->stats.total_lines++;
		cp->c->stats.special_lines++;
		cur = next;
	}
	cp->cur = cur;
	ev->u.stack.frames = (const FtlSlice *)(uintptr_t)first;
	ev->u.stack.n_frames = frames->len - first;
}

/* The slot of one more element at the end of a, which has room for *room
 * elements of size bytes: GArray's append and set_size cost a call per line
 * and this a store. a is not zero-terminated, so its len may move within
 * what it holds. */
static inline gpointer chunk_push(GArray *a, guint *room, gsize size)
{
	guint len = a->len;
	if (G_UNLIKELY(len >= *room)) {
		/* from 256 elements: 1024 events (172 KB) were an mmap and an
		 * munmap for every small input under ASan's allocator */
		g_array_set_size(a, MAX(2 * len, 256u));
		*room = a->len;
		g_array_set_size(a, len);
	}
	a->len = len + 1;
	return a->data + (gsize)len * size;
}

/* A fresh event slot at the end of the chunk's events, for a line parser. */
static FtlEvent *chunk_new_event(ChunkParse *cp)
{
	TextChunk *c = cp->c;
	cp->tl.ev = chunk_push(c->events, &c->events_room, sizeof(FtlEvent));
	ftl_text_line_reset(&cp->tl, cp->lineno, cp->seq);
	return cp->tl.ev;
}

static void chunk_drop_event(ChunkParse *cp)
{
	g_array_set_size(cp->c->events, cp->c->events->len - 1);
}

/* Keeps the event in hand (a leaf's exit is made from it later, but
 * numbered and counted now). */
static void chunk_keep_event(ChunkParse *cp)
{
	TextChunk *c = cp->c;
	*(guint8 *)chunk_push(c->fix, &c->fix_room, 1) = cp->tl.fix;
	c->stats.events++;
	if (cp->tl.fix & TEXT_FIX_LEAF) {
		cp->seq++;
		c->stats.events++;
	}
}

static void chunk_op(ChunkParse *cp, TextOpKind kind, const char *p, gsize len, gboolean truncated)
{
	TextOp op = { kind, cp->c->events->len, cp->lineno, p, len, truncated };
	g_array_append_val(cp->c->ops, op);
}

/* The parsers of event lines, in the order they are tried. */
static TextLineResult chunk_parse_event(ChunkParse *cp, const char *p, const char *le)
{
	TextLine *tl = &cp->tl;
	TextLineResult r = ftl_text_parse_fgraph_line(tl, p, le);
	if (r == TEXT_LINE_NONE) {
		ftl_text_line_reset(tl, cp->lineno, cp->seq);
		r = ftl_text_parse_event_line(tl, p, le);
	}
	if (r == TEXT_LINE_NONE) {
		ftl_text_line_reset(tl, cp->lineno, cp->seq);
		r = ftl_text_parse_hwbranch_line(tl, p, le);
	}
	return r;
}

/* The event parsed from [line, le) is complete: its raw text (a stack
 * event's with the frame lines after it) and the accounting. */
static void chunk_event_done(ChunkParse *cp, const char *line, const char *le)
{
	FtlEvent *ev = cp->tl.ev;
	ev->raw = (FtlSlice){ line, (guint32)(le - line) };
	if (ev->kind == FTL_EVENT_STACK) {
		chunk_collect_frames(cp, ev);
		const char *re = cp->cur;
		if (re > line && re[-1] == '\n')
			re--;
		if (re > line && re[-1] == '\r')
			re--;
		ev->raw.len = (guint32)(MAX(re, le) - line);
	}
	/* A LOST line is an event for the analyses but a special line for the
	 * accounting, so event_lines per CPU sum to event_lines. */
	if (ev->kind == FTL_EVENT_LOST)
		cp->c->stats.special_lines++;
	else
		cp->c->stats.event_lines++;
	chunk_keep_event(cp);
}

static void chunk_known(ChunkParse *cp, const char *line)
{
	if (cp->c->first_known == G_MAXSIZE)
		cp->c->first_known = (gsize)(line - cp->text);
}

static void chunk_header(ChunkParse *cp, const char *line)
{
	if (cp->c->first_header == G_MAXSIZE)
		cp->c->first_header = (gsize)(line - cp->text);
}

/* The general parsers' answer for a line the fast path did not take; a
 * call line teaches the fast path its layout (which then takes the lines
 * like it). */
static TextLineResult chunk_parse_general(ChunkParse *cp, const char *line, const char *p,
					  const char *le)
{
	TextLineResult r = chunk_parse_event(cp, p, le);
	FtlEventKind k = cp->tl.ev->kind;
	if (r != TEXT_LINE_NONE && cp->mode != TEXT_PARSE_GENERAL &&
	    (k == FTL_EVENT_FUNC_ENTRY || k == FTL_EVENT_FUNC_EXIT))
		cp->have_layout = ftl_text_fgraph_learn(&cp->layout, line, le);
	return r;
}

static gboolean chunk_slice_eq(FtlSlice a, FtlSlice b)
{
	return a.p == b.p && a.len == b.len;
}

/* Do two events of one line say the same? (FTLENS_TEXT_PARSE=verify) */
static gboolean chunk_events_agree(const FtlEvent *a, const FtlEvent *b)
{
	if (a->ts != b->ts || a->seq != b->seq || a->line != b->line || a->src != b->src ||
	    a->cpu != b->cpu || a->pid != b->pid || a->tgid != b->tgid || a->flags != b->flags ||
	    a->kind != b->kind || strcmp(a->lat, b->lat) || a->name != b->name ||
	    a->system != b->system || a->comm != b->comm || !chunk_slice_eq(a->payload, b->payload))
		return FALSE;
	if (a->kind != FTL_EVENT_FUNC_ENTRY && a->kind != FTL_EVENT_FUNC_EXIT)
		return TRUE;
	return a->u.graph.func == b->u.graph.func && a->u.graph.depth == b->u.graph.depth &&
	       a->u.graph.duration == b->u.graph.duration &&
	       a->u.graph.has_retval == b->u.graph.has_retval &&
	       (!a->u.graph.has_retval || (a->u.graph.retval == b->u.graph.retval &&
					   a->u.graph.retval_hex == b->u.graph.retval_hex)) &&
	       a->u.graph.mark == b->u.graph.mark;
}

/* FTLENS_TEXT_PARSE=verify: the line the fast path took once more through
 * the general parsers, whose events must be the same; abort() if not (a
 * test's failure, never a user's run). */
static TextLineResult chunk_verify(ChunkParse *cp, const char *p, const char *le,
				   TextLineResult fast)
{
	TextLine *tl = &cp->tl;
	FtlEvent ev = *tl->ev;
	gboolean fgraph = tl->fgraph;
	guint8 fix = tl->fix;
	ftl_text_line_reset(tl, cp->lineno, cp->seq);
	gboolean special;
	TextLineResult r = chunk_special_line(tl, p, le, &special);
	if (r == TEXT_LINE_NONE && !special)
		r = chunk_parse_event(cp, p, le);
	if (r != fast || special || fix != tl->fix || !chunk_events_agree(&ev, tl->ev)) {
		g_printerr("ftlens: FTLENS_TEXT_PARSE=verify: line %" G_GUINT64_FORMAT
			   " of a chunk: the fast path and the general parser disagree: '%.*s'\n",
			   cp->lineno, (int)MIN(le - p, 200), p);
		abort();
	}
	tl->fgraph |= fgraph;
	return r;
}

/* One line that is not blank: [line, le) as read, p its first non-blank. */
static void chunk_line(ChunkParse *cp, const char *line, const char *p, const char *le,
		       gboolean has_nl)
{
	TextChunk *c = cp->c;
	cp->seq++;
	if (cp->have_layout && *p != '#') {
		/* a line the fast path takes is no header or special line:
		 * it begins with a digit, they with a '#', a letter, '(' or '-' */
		chunk_new_event(cp);
		TextLineResult r = ftl_text_parse_fgraph_fast(&cp->tl, &cp->layout, line, p, le);
		if (r != TEXT_LINE_NONE) {
			if (cp->mode == TEXT_PARSE_VERIFY)
				chunk_verify(cp, p, le, r);
			c->fast_lines++;
			chunk_event_done(cp, line, le);
			chunk_known(cp, line);
			return;
		}
		chunk_drop_event(cp);
	}
	if (*p == '#') {
		chunk_new_event(cp);
		if (chunk_buffer_started(&cp->tl, p, le)) {
			cp->tl.ev->raw = (FtlSlice){ line, (guint32)(le - line) };
			c->stats.special_lines++;
			chunk_keep_event(cp);
		} else {
			chunk_drop_event(cp);
			c->stats.header_lines++;
			chunk_op(cp, TEXT_OP_HEADER, p + 1, (gsize)(le - p - 1), FALSE);
			chunk_header(cp, line);
			return;
		}
		chunk_known(cp, line);
		return;
	}
	gboolean special, latency;
	chunk_new_event(cp);
	TextLineResult r = chunk_special_line(&cp->tl, p, le, &special);
	if (special) {
		guint64 cpus = cp->tl.ev->u.lost.count;
		chunk_drop_event(cp);
		if (text_has_prefix(p, le, "cpus="))
			chunk_op(cp, TEXT_OP_CPUS, NULL, (gsize)MIN(cpus, 100000), FALSE);
		c->stats.special_lines++;
		chunk_known(cp, line);
		return;
	}
	if (r == TEXT_LINE_NONE)
		r = chunk_parse_general(cp, line, p, le);
	if (r != TEXT_LINE_NONE) {
		chunk_event_done(cp, line, le);
		chunk_known(cp, line);
		return;
	}
	chunk_drop_event(cp);
	if (chunk_old_header_line(p, le, &latency)) {
		c->stats.header_lines++;
		if (latency)
			chunk_op(cp, TEXT_OP_OLD_LATENCY, p, (gsize)(le - p), FALSE);
		chunk_header(cp, line);
		return;
	}
	c->stats.unparsed_lines++;
	if (c->first_bad == G_MAXSIZE) {
		c->first_bad = (gsize)(line - cp->text);
		c->first_bad_line = cp->lineno;
	}
	chunk_op(cp, TEXT_OP_UNPARSED, p, (gsize)(le - p), !has_nl);
}

static void chunk_reset(TextChunk *c)
{
	g_array_set_size(c->events, 0);
	g_array_set_size(c->fix, 0);
	g_array_set_size(c->ops, 0);
	g_array_set_size(c->frames, 0);
	g_array_set_size(c->addrs, 0);
	g_array_set_size(c->cpu_task, 0);
	memset(&c->stats, 0, sizeof c->stats);
	c->seqs = 0;
	c->fast_lines = 0;
	c->decoded = 0;
	c->fgraph = c->latency = c->report = FALSE;
	c->first_known = c->first_header = c->first_bad = G_MAXSIZE;
	c->first_bad_line = 0;
}

void ftl_text_chunk_parse(TextChunk *c, const TextChunkCtx *ctx, const char *text, gsize len)
{
	chunk_reset(c);
	ChunkParse cp = {
		.c = c,
		.tl = { .src = ctx->src,
			.cpu_hint = ctx->cpu_hint,
			.n = ctx->names,
			.cpu_task = c->cpu_task,
			.frames = c->frames,
			.decode = ctx->decode },
		.mode = ctx->mode,
		.text = text,
		.cur = text,
		.end = text + len,
	};
	ftl_text_line_bind(&cp.tl, ctx->pool);
	while (cp.cur < cp.end) {
		const char *line = cp.cur;
		const char *nl = memchr(line, '\n', (gsize)(cp.end - line));
		const char *le = nl ? nl : cp.end;
		cp.cur = nl ? nl + 1 : cp.end;
		cp.lineno++;
		c->stats.total_lines++;
		if ((gsize)(le - line) > FTL_TEXT_MAX_LINE) {
			chunk_op(&cp, TEXT_OP_LONG_LINE, line, (gsize)(le - line), FALSE);
			break;
		}
		if (le > line && le[-1] == '\r')
			le--;
		const char *p = text_skip_ws(line, le);
		if (p == le) {
			c->stats.blank_lines++;
			continue;
		}
		chunk_line(&cp, line, p, le, nl != NULL);
	}
	/* the frames' array is final: their pointers can be set */
	for (guint i = 0; c->frames->len && i < c->events->len; i++) {
		FtlEvent *ev = &g_array_index(c->events, FtlEvent, i);
		if (ev->kind == FTL_EVENT_STACK) {
			guint first = (guint)(uintptr_t)ev->u.stack.frames;
			ev->u.stack.frames = &g_array_index(c->frames, FtlSlice, first);
			ev->u.stack.addrs = &g_array_index(c->addrs, guint64, first);
		}
	}
	c->seqs = cp.seq;
	c->decoded = cp.tl.decoded;
	c->fgraph = cp.tl.fgraph;
	c->latency = cp.tl.latency;
	c->report = cp.tl.report;
}
