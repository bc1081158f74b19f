/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The text source: walks the lines of a mapped text trace, accounts for every
 * line, reads headers and special lines, and hands event lines to the dialect
 * parsers (text-event.c, text-fgraph.c). */
#include "config.h"

#include "parse/text.h"

#include <string.h>

#include "parse/text-private.h"
#include "util/error.h"
#include "util/slots.h"

const char *ftl_text_intern(TextSource *ts, const char *p, const char *e)
{
	return ftl_strpool_intern_len(ts->pool, p, (gsize)(e - p));
}

/* ---- header lines ---------------------------------------------------- */

static void text_header_line(TextSource *ts, const char *p, const char *e)
{
	FtlSource *src = &ts->base;
	src->has_header = TRUE;
	p = text_skip_ws(p, e);
	const char *q;
	if (text_has_prefix(p, e, "tracer:")) {
		p = text_skip_ws(p + 7, e);
		q = p;
		while (q < e && *q != ' ' && *q != '\t')
			q++;
		if (q > p)
			src->tracer = ftl_text_intern(ts, p, q);
		return;
	}
	if (text_has_prefix(p, e, "entries-in-buffer/entries-written:")) {
		guint64 a, b;
		p = text_skip_ws(p + 34, e);
		if ((q = ftl_scan_u64(p, e, &a)) && q < e && *q == '/' &&
		    ftl_scan_u64(q + 1, e, &b)) {
			src->entries_in_buffer = (gint64)a;
			src->entries_written = (gint64)b;
		}
	}
	/* "#P:N" ends both the entries line and the latency summary line. */
	const char *hp = g_strstr_len(p, e - p, "#P:");
	if (hp) {
		guint64 n;
		if (ftl_scan_u64(hp + 3, e, &n) && n < 100000)
			src->header_cpus = (gint)n;
	}
	if (g_strstr_len(p, e - p, "latency trace v"))
		src->time_relative = TRUE;
}

/* Header lines of 2.6.2x latency traces that were printed without '#'. */
static gboolean text_old_header_line(TextSource *ts, const char *p, const char *e)
{
	if (g_strstr_len(p, e - p, "latency trace v")) {
		ts->base.time_relative = TRUE;
		return TRUE;
	}
	if (text_has_prefix(p, e, "latency:") || text_has_prefix(p, e, "| task:") ||
	    text_has_prefix(p, e, "=> started at:") || text_has_prefix(p, e, "=> ended at:") ||
	    text_has_prefix(p, e, "-----------------") || text_has_prefix(p, e, "_------=>"))
		return TRUE;
	return FALSE;
}

/* ---- special lines ---------------------------------------------------- */

static void text_event_reset(TextSource *ts)
{
	FtlEvent *ev = &ts->ev;
	memset(ev, 0, sizeof *ev);
	ev->ts = FTL_TS_NONE;
	ev->src = &ts->base;
	ev->line = ts->lineno;
	ev->seq = ts->seq;
	ev->cpu = ts->base.cpu_hint;
	ev->pid = -1;
	ev->tgid = -1;
}

/* "CPU:N [LOST N EVENTS]", "CPU:N [N EVENTS DROPPED]", "CPU N is empty", and
 * trace-cmd report's preamble. Returns TEXT_LINE_EVENT for a lost-event line,
 * TEXT_LINE_NONE with *special set for a line to count as special. */
static TextLineResult text_special_line(TextSource *ts, const char *p, const char *e,
					gboolean *special)
{
	guint64 cpu, n;
	const char *q;
	*special = FALSE;
	if (text_has_prefix(p, e, "CPU:") && (q = ftl_scan_u64(p + 4, e, &cpu))) {
		q = text_skip_ws(q, e);
		if (text_has_prefix(q, e, "[LOST ")) {
			q = ftl_scan_u64(q + 6, e, &n);
			if (!q)
				return TEXT_LINE_NONE;
		} else if (q < e && *q == '[' && (q = ftl_scan_u64(q + 1, e, &n)) &&
			   text_has_prefix(q, e, " EVENTS DROPPED]")) {
		} else {
			return TEXT_LINE_NONE;
		}
		text_event_reset(ts);
		ts->ev.kind = FTL_EVENT_LOST;
		ts->ev.name = ts->n_lost;
		ts->ev.cpu = (gint32)cpu;
		ts->ev.u.lost.count = n;
		ts->ev.payload = (FtlSlice){ p, (guint32)(e - p) };
		return TEXT_LINE_EVENT;
	}
	if (text_has_prefix(p, e, "cpus=") && ftl_scan_u64(p + 5, e, &n)) {
		ts->base.header_cpus = (gint)MIN(n, 100000);
		ts->report = TRUE;
		*special = TRUE;
		return TEXT_LINE_NONE;
	}
	if (text_has_prefix(p, e, "version = ") || text_has_prefix(p, e, "version=")) {
		ts->report = TRUE;
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
static gboolean text_buffer_started(TextSource *ts, const char *p, const char *e)
{
	guint64 cpu;
	const char *q;
	if (!text_has_prefix(p, e, "##### CPU ") || !(q = ftl_scan_u64(p + 10, e, &cpu)) ||
	    !text_has_prefix(q, e, " buffer started"))
		return FALSE;
	text_event_reset(ts);
	ts->ev.kind = FTL_EVENT_BUFFER_START;
	ts->ev.name = ts->n_buffer_start;
	ts->ev.cpu = (gint32)cpu;
	ts->ev.payload = (FtlSlice){ p, (guint32)(e - p) };
	return TRUE;
}

void ftl_text_collect_frames(TextSource *ts)
{
	g_array_set_size(ts->frames, 0);
	const char *cur = ts->cur;
	while (cur < ts->end) {
		const char *nl = memchr(cur, '\n', (gsize)(ts->end - cur));
		const char *le = nl ? nl : ts->end;
		const char *next = nl ? nl + 1 : ts->end;
		if (le > cur && le[-1] == '\r')
			le--;
		const char *p = text_skip_ws(cur, le);
		if (!text_has_prefix(p, le, "=>"))
			break;
		p = text_skip_ws(p + 2, le);
		FtlSlice f = { p, (guint32)(le - p) };
		g_array_append_val(ts->frames, f);
		ts->lineno++;
		ts->base.stats.total_lines++;
		ts->base.stats.special_lines++;
		cur = next;
	}
	ts->cur = cur;
	ts->ev.u.stack.frames = (const FtlSlice *)(void *)ts->frames->data;
	ts->ev.u.stack.n_frames = ts->frames->len;
}

/* ---- the source ------------------------------------------------------- */

/* Read pages are handed back in steps of this size, so the resident set of a
 * multi-GB trace stays around this size. */
#define TEXT_RELEASE_STEP ((gsize)32 << 20)

static void text_last_ts_init(gpointer slot, guint idx)
{
	*(gint64 *)slot = FTL_TS_NONE;
}

static void text_account_event(TextSource *ts)
{
	FtlEvent *ev = &ts->ev;
	/* A LOST line is an event for the analyses but a special line for the
	 * accounting, so event_lines per CPU sum to event_lines. */
	if (ev->kind == FTL_EVENT_LOST)
		ts->base.stats.special_lines++;
	else
		ts->base.stats.event_lines++;
	ts->base.stats.events++;
	FtlTrace *trace = ts->base.trace;
	if (ev->pid >= 0 && !(ev->flags & FTL_EVENT_F_PID_INFERRED))
		ftl_tasks_note(ftl_trace_tasks(trace), ev->pid, ev->tgid, ev->comm, FALSE);
	if (ev->kind == FTL_EVENT_LOST)
		ftl_diags_add(ftl_trace_diags(trace), FTL_DIAG_LOST_EVENTS, ts->base.path, ev->line,
			      ev->cpu, ev->payload.p, ev->payload.len, ev->u.lost.count);
	if (ev->ts != FTL_TS_NONE && ev->cpu >= 0 && ev->cpu < 4096 &&
	    !(ev->flags & FTL_EVENT_F_SYNTH)) {
		gint64 *last = ftl_slots_get(ts->last_ts, (guint)ev->cpu, text_last_ts_init);
		if (*last != FTL_TS_NONE && ev->ts < *last)
			ftl_diags_add(ftl_trace_diags(trace), FTL_DIAG_TIME_BACKWARDS,
				      ts->base.path, ev->line, ev->cpu, NULL, 0, 0);
		*last = ev->ts;
	}
}

static FtlStatus text_unparsed(TextSource *ts, const char *p, const char *e, gboolean last,
			       GError **error)
{
	FtlTrace *trace = ts->base.trace;
	gboolean truncated = last;
	ts->base.stats.unparsed_lines++;
	ftl_diags_add(ftl_trace_diags(trace),
		      truncated ? FTL_DIAG_TRUNCATED_LINE : FTL_DIAG_UNPARSED_LINE, ts->base.path,
		      ts->lineno, ts->base.cpu_hint, p, (gsize)(e - p), 0);
	if (ftl_trace_flags(trace) & FTL_OPEN_STRICT) {
		/* as read: main.c makes the message visible */
		g_autofree char *txt = g_strndup(p, (gsize)MIN(e - p, 80));
		g_set_error(error, FTL_ERROR, FTL_ERROR_PARSE,
			    "'%s': line %" G_GUINT64_FORMAT ": %s: '%s'", ts->base.path, ts->lineno,
			    truncated ? "truncated last line" : "line not recognized", txt);
		return FTL_STATUS_ERROR;
	}
	return FTL_STATUS_OK;
}

/* The parsers of event lines, in the order they are tried. */
static TextLineResult text_parse_event(TextSource *ts, const char *p, const char *le)
{
	text_event_reset(ts);
	TextLineResult r = ftl_text_parse_fgraph_line(ts, p, le);
	if (r == TEXT_LINE_NONE) {
		text_event_reset(ts);
		r = ftl_text_parse_event_line(ts, p, le);
	}
	if (r == TEXT_LINE_NONE) {
		text_event_reset(ts);
		r = ftl_text_parse_hwbranch_line(ts, p, le);
	}
	return r;
}

/* The event parsed from [line, le) is complete: its raw text (a stack
 * event's with the frame lines after it), the accounting, and the exit a
 * leaf leaves for the next call. */
static void text_event_done(TextSource *ts, const char *line, const char *le, TextLineResult r)
{
	ts->ev.raw = (FtlSlice){ line, (guint32)(le - line) };
	if (ts->ev.kind == FTL_EVENT_STACK) {
		ftl_text_collect_frames(ts);
		const char *re = ts->cur;
		if (re > line && re[-1] == '\n')
			re--;
		if (re > line && re[-1] == '\r')
			re--;
		ts->ev.raw.len = (guint32)(MAX(re, le) - line);
	}
	text_account_event(ts);
	if (r == TEXT_LINE_LEAF)
		ts->has_pending = TRUE;
}

static FtlStatus text_next(FtlSource *src, const FtlEvent **out, GError **error)
{
	TextSource *ts = (TextSource *)src;
	if (ts->has_pending) {
		ts->has_pending = FALSE;
		ts->pending.seq = ++ts->seq;
		ts->ev = ts->pending;
		src->stats.events++;
		*out = &ts->ev;
		return FTL_STATUS_OK;
	}
	if (ts->input &&
	    (gsize)(ts->cur - ts->input->data) >= ts->input->released + TEXT_RELEASE_STEP)
		ftl_input_release(ts->input,
				  (gsize)(ts->cur - ts->input->data) - TEXT_RELEASE_STEP / 2);
	while (ts->cur < ts->end) {
		const char *line = ts->cur;
		const char *nl = memchr(line, '\n', (gsize)(ts->end - line));
		const char *le = nl ? nl : ts->end;
		ts->cur = nl ? nl + 1 : ts->end;
		ts->lineno++;
		src->stats.total_lines++;
		if ((gsize)(le - line) > FTL_TEXT_MAX_LINE) {
			g_set_error(error, FTL_ERROR, FTL_ERROR_PARSE,
				    "'%s': line %" G_GUINT64_FORMAT
				    ": line is %zu bytes long (limit %u); not an ftrace text trace",
				    src->path, ts->lineno, (gsize)(le - line), FTL_TEXT_MAX_LINE);
			return FTL_STATUS_ERROR;
		}
		if (le > line && le[-1] == '\r')
			le--;
		const char *p = text_skip_ws(line, le);
		if (p == le) {
			src->stats.blank_lines++;
			continue;
		}
		ts->seq++;
		if (*p == '#') {
			if (text_buffer_started(ts, p, le)) {
				ts->ev.raw = (FtlSlice){ line, (guint32)(le - line) };
				src->stats.special_lines++;
				src->stats.events++;
				*out = &ts->ev;
				return FTL_STATUS_OK;
			}
			src->stats.header_lines++;
			text_header_line(ts, p + 1, le);
			continue;
		}
		gboolean special;
		TextLineResult r = text_special_line(ts, p, le, &special);
		if (special) {
			src->stats.special_lines++;
			continue;
		}
		if (r == TEXT_LINE_NONE)
			r = text_parse_event(ts, p, le);
		if (r == TEXT_LINE_NONE && text_old_header_line(ts, p, le)) {
			src->stats.header_lines++;
			continue;
		}
		if (r == TEXT_LINE_NONE) {
			if (text_unparsed(ts, p, le, nl == NULL, error) != FTL_STATUS_OK)
				return FTL_STATUS_ERROR;
			continue;
		}
		text_event_done(ts, line, le, r);
		*out = &ts->ev;
		return FTL_STATUS_OK;
	}
	return FTL_STATUS_EOF;
}

static void text_free(FtlSource *src)
{
	TextSource *ts = (TextSource *)src;
	ftl_input_free(ts->input);
	g_array_unref(ts->frames);
	g_array_unref(ts->cpu_task);
	g_array_unref(ts->last_ts);
	ftl_source_clear(src);
	g_free(ts);
}

const char *ftl_text_source_dialect(FtlSource *src)
{
	TextSource *ts = (TextSource *)src;
	if (ts->report)
		return "trace-cmd-report";
	if (ts->fgraph)
		return src->has_header ? "function_graph" : "function_graph-pipe";
	if (ts->latency || src->time_relative)
		return "latency";
	return src->has_header ? "trace" : "trace_pipe";
}

static const FtlSourceOps text_ops = {
	.name = "text",
	.next = text_next,
	.free = text_free,
	.dialect = ftl_text_source_dialect,
};

FtlSource *ftl_text_source_new(FtlTrace *trace, FtlInput *input, gint cpu_hint)
{
	TextSource *ts = g_new0(TextSource, 1);
	ftl_source_init(&ts->base, &text_ops, input->path);
	ts->base.cpu_hint = cpu_hint;
	ts->input = input;
	ts->pool = ftl_trace_pool(trace);
	ts->cur = input->data;
	ts->end = input->data + input->size;
	ts->frames = g_array_new(FALSE, FALSE, sizeof(FtlSlice));
	ts->cpu_task = g_array_new(FALSE, TRUE, sizeof(TextCpuTask));
	ts->last_ts = g_array_new(FALSE, FALSE, sizeof(gint64));
	FtlStrPool *pool = ts->pool;
	ts->n_funcgraph_entry = ftl_strpool_intern(pool, "funcgraph_entry");
	ts->n_funcgraph_exit = ftl_strpool_intern(pool, "funcgraph_exit");
	ts->n_function = ftl_strpool_intern(pool, "function");
	ts->n_marker = ftl_strpool_intern(pool, "tracing_mark_write");
	ts->n_printk = ftl_strpool_intern(pool, "bprint");
	ts->n_comment = ftl_strpool_intern(pool, "comment");
	ts->n_sched_switch = ftl_strpool_intern(pool, "sched_switch");
	ts->n_sched_wakeup = ftl_strpool_intern(pool, "sched_wakeup");
	ts->n_irq_entry = ftl_strpool_intern(pool, "irq_handler_entry");
	ts->n_irq_exit = ftl_strpool_intern(pool, "irq_handler_exit");
	ts->n_lost = ftl_strpool_intern(pool, "lost");
	ts->n_kernel_stack = ftl_strpool_intern(pool, "kernel_stack");
	ts->n_user_stack = ftl_strpool_intern(pool, "user_stack");
	ts->n_task_switch = ftl_strpool_intern(pool, "task_switch");
	ts->n_buffer_start = ftl_strpool_intern(pool, "buffer_started");
	ts->n_irq_graph = ftl_strpool_intern(pool, "irq");
	ts->n_raw = ftl_strpool_intern(pool, "raw");
	return &ts->base;
}

#define SNIFF_LINES 200

gboolean ftl_text_sniff(FtlInput *input, GError **error)
{
	/* Run the real parsers over the first lines of a scratch copy of the source. */
	g_autoptr(FtlTrace) scratch = ftl_trace_new(input->path, FTL_OPEN_NONE);
	FtlInput view = *input;
	view.size = MIN(input->size, (gsize)65536);
	TextSource *ts = (TextSource *)ftl_text_source_new(scratch, &view, -1);
	ts->input = NULL; /* borrowed view: not ours to free */
	ftl_trace_add_source(scratch, &ts->base);
	const FtlEvent *ev;
	guint64 first_bad = 0;
	while (ts->base.stats.total_lines < SNIFF_LINES) {
		guint64 before = ts->base.stats.unparsed_lines;
		FtlStatus st = text_next(&ts->base, &ev, NULL);
		/* '#' lines alone do not make a trace: a README or a mail has them */
		if (ts->base.stats.event_lines || ts->base.stats.special_lines)
			return TRUE;
		if (st != FTL_STATUS_OK && ts->base.stats.unparsed_lines == before)
			break;
		if (!first_bad && ts->base.stats.unparsed_lines) {
			const FtlDiagEntry *d =
				ftl_diags_get(ftl_trace_diags(scratch), FTL_DIAG_UNPARSED_LINE);
			if (!d->count)
				d = ftl_diags_get(ftl_trace_diags(scratch),
						  FTL_DIAG_TRUNCATED_LINE);
			first_bad = d->first_line;
		}
		if (st != FTL_STATUS_OK)
			break;
	}
	/* an idle CPU's or a quiet tracer's file: its header and nothing else */
	if (ts->base.stats.header_lines && !ts->base.stats.unparsed_lines)
		return TRUE;
	if (!first_bad) {
		g_set_error(error, FTL_ERROR, FTL_ERROR_EMPTY,
			    "'%s': no trace lines (only blank lines)", input->path);
		return FALSE;
	}
	/* the line as read: main.c makes the message visible */
	const char *p = view.data, *e = view.data + view.size;
	for (guint64 l = 1; l < first_bad && p < e; l++) {
		const char *nl = memchr(p, '\n', (gsize)(e - p));
		p = nl ? nl + 1 : e;
	}
	const char *nl = memchr(p, '\n', (gsize)(e - p));
	g_autofree char *bad_text = g_strndup(p, MIN((gsize)((nl ? nl : e) - p), 60));
	g_set_error(error, FTL_ERROR, FTL_ERROR_FORMAT,
		    "'%s': line %" G_GUINT64_FORMAT ": not an ftrace trace format ftlens knows: '%s'",
		    input->path, first_bad, bad_text);
	return FALSE;
}
