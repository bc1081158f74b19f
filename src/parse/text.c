/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The text source: takes the parsed chunks of a text trace in input order
 * (util/linereader.h parses them, text-chunk.c is the parser) and settles
 * what depends on the lines before each chunk: line and sequence numbers,
 * tasks inferred from task switches, header facts, diagnostics, the task
 * table. */
#include "config.h"

#include "parse/text.h"

#include <errno.h>
#include <glib/gstdio.h>
#include <string.h>
#include <unistd.h>

#include "parse/index.h"
#include "parse/text-chunk.h"
#include "parse/text-prior.h"
#include "util/error.h"
#include "util/linereader.h"
#include "util/slots.h"

/* The sniff looks at the lines that start in the first SNIFF_BYTES. */
#define SNIFF_BYTES 65536
/* Parsed chunks kept for reuse, so that steady reading allocates nothing. */
#define TEXT_SPARE_CHUNKS 32

/* The sparse index's work on a pass (parse/index.h): recording restart
 * points on a pass from the start, or, after a seek to one, stopping at a
 * later one and restoring the whole file's end state. */
typedef struct {
	FtlIndex *build;	 /* recording; saved at the end */
	GError *save_error;	 /* why the built index was not saved */
	gboolean saved;
	guint64 next_point;	 /* event number the next point may be at */
	gint64 max_seen, seg_min;
	gboolean untimed;	 /* an event without a timestamp went by */
	FtlIndex *used;		 /* seeked with it */
	FtlIndex *kept;		 /* fresh, kept for a seek_event before the pass */
	guint64 stop;		 /* file offset to stop at; G_MAXUINT64: the end */
	gint stop_point;	 /* its point in used, -1 none */
	guint64 n_given;	 /* events given so far: the next one's number */
	gboolean ended;
} TextIndexing;

typedef struct {
	FtlSource base;
	FtlInput *input; /* memory inputs: the text the stream borrows */
	FtlLineReader *reader;
	TextNames names;
	TextChunkCtx ctx;
	GMutex spare_lock;
	GPtrArray *spare; /* TextChunk, for reuse */
	/* the chunk in hand */
	const FtlLineChunk *lc;
	TextChunk *chunk;
	guint ev_idx, op_idx;
	/* a leaf's exit, made from the entry given last, is given next */
	gboolean leaf_exit_due;
	guint leaf_exit_fix;
	FtlEvent leaf_exit;
	guint64 base_line, base_seq; /* lines and seq numbers before the chunk */
	gboolean done;
	/* carried from chunk to chunk */
	GArray *cpu_task; /* TextCpuTask per CPU: the task a separator switched to */
	GArray *last_ts;  /* gint64 per CPU, for the time_backwards diagnostic */
	gboolean fgraph, latency, report;
	guint64 fast_lines; /* lines the fast path took, for FTLENS_TEXT_PARSE=verify */
	guint64 decoded;    /* optional fields decoded, for the same */
	TextIndexing *ix; /* NULL unless a sparse index is built or used */
	TextPrior *prior; /* made when a CPU's first event comes before any switch */
} TextSource;

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
			src->tracer = ftl_strpool_intern_len(ts->ctx.pool, p, (gsize)(q - p));
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

/* ---- chunks ------------------------------------------------------------ */

static gpointer text_parse_chunk(const FtlLineChunk *lc, gpointer data)
{
	TextSource *ts = data;
	g_mutex_lock(&ts->spare_lock);
	TextChunk *c =
		ts->spare->len ? g_ptr_array_steal_index_fast(ts->spare, ts->spare->len - 1) : NULL;
	g_mutex_unlock(&ts->spare_lock);
	if (!c)
		c = ftl_text_chunk_new();
	ftl_text_chunk_parse(c, &ts->ctx, lc->text, lc->len);
	return c;
}

static void text_spare_chunk(gpointer result, gpointer data)
{
	TextSource *ts = data;
	g_mutex_lock(&ts->spare_lock);
	if (ts->spare->len < TEXT_SPARE_CHUNKS) {
		g_ptr_array_add(ts->spare, result);
		result = NULL;
	}
	g_mutex_unlock(&ts->spare_lock);
	ftl_text_chunk_free(result);
}

static void text_take_chunk(TextSource *ts, const FtlLineChunk *lc)
{
	ts->lc = lc;
	ts->chunk = lc->result;
	ts->ev_idx = ts->op_idx = 0;
}

static void text_stats_add(FtlSourceStats *a, const FtlSourceStats *b)
{
	a->total_lines += b->total_lines;
	a->header_lines += b->header_lines;
	a->event_lines += b->event_lines;
	a->special_lines += b->special_lines;
	a->blank_lines += b->blank_lines;
	a->unparsed_lines += b->unparsed_lines;
	a->events += b->events;
}

static gboolean text_long_line(TextSource *ts, guint64 line, guint64 len, GError **error)
{
	if (len > FTL_LINE_LONG_CAP)
		g_set_error(error, FTL_ERROR, FTL_ERROR_PARSE,
			    "'%s': line %" G_GUINT64_FORMAT ": line is more than %" G_GUINT64_FORMAT
			    " bytes long (limit %u); not an ftrace text trace",
			    ts->base.path, line, FTL_LINE_LONG_CAP, FTL_TEXT_MAX_LINE);
	else
		g_set_error(error, FTL_ERROR, FTL_ERROR_PARSE,
			    "'%s': line %" G_GUINT64_FORMAT ": line is %" G_GUINT64_FORMAT
			    " bytes long (limit %u); not an ftrace text trace",
			    ts->base.path, line, len, FTL_TEXT_MAX_LINE);
	return FALSE;
}

/* The chunk in hand is used up: its totals join the source's. FALSE with
 * error when the input ended in an error after it. */
static gboolean text_end_chunk(TextSource *ts, GError **error)
{
	TextChunk *c = ts->chunk;
	const FtlLineChunk *lc = ts->lc;
	text_stats_add(&ts->base.stats, &c->stats);
	ts->base_line += c->stats.total_lines;
	ts->base_seq += c->seqs;
	ts->fast_lines += c->fast_lines;
	ts->decoded += c->decoded;
	ts->fgraph |= c->fgraph;
	ts->latency |= c->latency;
	ts->report |= c->report;
	ts->chunk = NULL;
	if (lc->long_line) {
		ts->base.stats.total_lines++;
		return text_long_line(ts, ts->base_line + 1, lc->long_line, error);
	}
	if (lc->error) {
		g_propagate_error(error, g_error_copy(lc->error));
		return FALSE;
	}
	return TRUE;
}

static gboolean text_unparsed(TextSource *ts, const TextOp *op, GError **error)
{
	FtlTrace *trace = ts->base.trace;
	guint64 line = ts->base_line + op->line;
	ftl_diags_add(ftl_trace_diags(trace),
		      op->truncated ? FTL_DIAG_TRUNCATED_LINE : FTL_DIAG_UNPARSED_LINE,
		      &(FtlDiagLoc){ ts->base.path, line, ts->base.cpu_hint }, op->p, op->len, 0);
	if (ftl_trace_flags(trace) & FTL_OPEN_STRICT) {
		/* as read: main.c makes the message visible */
		g_autofree char *txt = g_strndup(op->p, MIN(op->len, 80));
		g_set_error(error, FTL_ERROR, FTL_ERROR_PARSE,
			    "'%s': line %" G_GUINT64_FORMAT ": %s: '%s'", ts->base.path, line,
			    op->truncated ? "truncated last line" : "line not recognized", txt);
		return FALSE;
	}
	return TRUE;
}

static gboolean text_apply_op(TextSource *ts, const TextOp *op, GError **error)
{
	switch (op->kind) {
	case TEXT_OP_HEADER:
		text_header_line(ts, op->p, op->p + op->len);
		return TRUE;
	case TEXT_OP_OLD_LATENCY:
		ts->base.time_relative = TRUE;
		return TRUE;
	case TEXT_OP_CPUS:
		ts->base.header_cpus = (gint)op->len;
		return TRUE;
	case TEXT_OP_UNPARSED:
		return text_unparsed(ts, op, error);
	case TEXT_OP_LONG_LINE:
		return text_long_line(ts, ts->base_line + op->line, op->len, error);
	}
	return TRUE;
}

/* ---- events ------------------------------------------------------------ */

static void text_last_ts_init(gpointer slot, guint idx)
{
	*(gint64 *)slot = FTL_TS_NONE;
}

static guint64 text_event_offset(const TextSource *ts, const FtlEvent *ev);

/* Reads the input for the look ahead (text-prior.h): the memory it is in,
 * or a regular file; nothing from a pipe or a compressed file. */
static gsize text_prior_read(gpointer data, guint64 off, char *buf, gsize len)
{
	TextSource *ts = data;
	if (ts->input) {
		if (off >= ts->input->size)
			return 0;
		gsize n = (gsize)MIN((guint64)len, ts->input->size - off);
		memcpy(buf, ts->input->data + off, n);
		return n;
	}
	FtlStream *s = ftl_line_reader_stream(ts->reader);
	if (!ftl_stream_is_seekable(s))
		return 0;
	gsize got = 0;
	while (got < len) {
		ssize_t n = pread(ftl_stream_fd(s), buf + got, len - got, (off_t)(off + got));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		got += (gsize)n;
	}
	return got;
}

/* The task of an event on a CPU that no switch line before it named: the
 * one the CPU's next switch line switches out, taken as the CPU's task. */
static void text_prior_task(TextSource *ts, FtlEvent *ev, TextCpuTask *t)
{
	if (!ts->prior)
		ts->prior = ftl_text_prior_new(&ts->ctx, text_prior_read, ts);
	if (ftl_text_prior_task(ts->prior, text_event_offset(ts, ev), ev->cpu, &t->pid, &t->comm))
		ftl_tasks_note(ftl_trace_tasks(ts->base.trace), t->pid, -1, t->comm, FALSE);
}

/* What the event's line could not know: its place in the input, the task
 * of a CPU's last task switch, the tracer's name. */
static void text_settle(TextSource *ts, FtlEvent *ev, guint fix)
{
	/* an event the parser made (a leaf's exit) has no line of its own to
	 * look ahead from: its entry looked already */
	if ((fix & TEXT_FIX_TASK) && !(ev->flags & FTL_EVENT_F_SYNTH)) {
		TextCpuTask *t = ftl_text_cpu_task(ts->cpu_task, ev->cpu);
		if (t && t->pid < 0)
			text_prior_task(ts, ev, t);
	}
	ev->line += ts->base_line;
	ev->seq += ts->base_seq;
	if (fix & TEXT_FIX_TASK) {
		const TextCpuTask *t = ftl_text_cpu_task(ts->cpu_task, ev->cpu);
		if (t && t->pid >= 0) {
			ev->pid = t->pid;
			ev->comm = t->comm;
			ev->flags |= FTL_EVENT_F_PID_INFERRED;
		}
	}
	if (fix & TEXT_FIX_TRACER)
		ev->name = ts->base.tracer ? ts->base.tracer : ts->names.raw;
	if (ev->kind == FTL_EVENT_TASK_SWITCH) {
		TextCpuTask *t = ftl_text_cpu_task(ts->cpu_task, ev->cpu);
		if (t) {
			t->pid = ev->u.sw.next_pid;
			t->comm = ev->u.sw.next_comm;
		}
		ftl_tasks_note(ftl_trace_tasks(ts->base.trace), ev->u.sw.next_pid, -1,
			       ev->u.sw.next_comm, FALSE);
	}
}

/* The task table, lost events and clock checks of an event of a line. */
static void text_account(TextSource *ts, const FtlEvent *ev)
{
	gint64 *last = ev->ts != FTL_TS_NONE && ev->cpu >= 0 && ev->cpu < 4096
			       ? ftl_slots_get(ts->last_ts, (guint)ev->cpu, sizeof(gint64),
					       text_last_ts_init)
			       : NULL;
	ftl_source_account(&ts->base, ev, last, ev->payload, FALSE);
}

/* ---- the sparse index ---------------------------------------------------- */

static guint64 text_event_offset(const TextSource *ts, const FtlEvent *ev)
{
	return ts->lc->offset + (guint64)(ev->raw.p - ts->lc->text);
}

/* A restart point at ev, before it is settled: the state the lines before
 * it left. The previous point's segment ends here. */
static void text_index_point(TextSource *ts, const FtlEvent *ev)
{
	TextIndexing *ix = ts->ix;
	FtlIndex *idx = ix->build;
	guint n = ftl_index_n_points(idx);
	if (n)
		((FtlIndexPoint *)ftl_index_point(idx, n - 1))->min_from = ix->seg_min;
	ix->seg_min = G_MAXINT64;
	FtlIndexPoint *p = ftl_index_add_point(idx);
	p->offset = text_event_offset(ts, ev);
	p->event_no = ix->n_given;
	p->ts = ev->ts;
	p->max_before = ix->max_seen;
	p->min_from = G_MAXINT64;
	p->line = ts->base_line + ev->line;
	p->seq = ts->base_seq + ev->seq;
	p->tracer = ftl_index_string(idx, ts->base.tracer);
	guint ncpu = MAX(ts->cpu_task->len, ts->last_ts->len);
	for (guint i = 0; i < ncpu; i++) {
		const TextCpuTask *t = i < ts->cpu_task->len
					       ? &g_array_index(ts->cpu_task, TextCpuTask, i)
					       : NULL;
		FtlIndexCpu c = { t ? t->pid : -1, ftl_index_string(idx, t ? t->comm : NULL),
				  i < ts->last_ts->len ? g_array_index(ts->last_ts, gint64, i)
						       : FTL_TS_NONE };
		ftl_index_add_cpu(idx, &c);
	}
	ix->next_point = ix->n_given + ftl_index_stride(idx);
}

/* The source's state where a window stops, against the stop point's: the
 * events given since the start point and, per CPU, the task of its last
 * switch and its last timestamp, as parsing the lines between left them.
 * A point whose offset, count or CPU state was forged (a valid checksum
 * says nothing of that) fails here. */
static gboolean text_index_stop_state_ok(const TextSource *ts)
{
	const TextIndexing *ix = ts->ix;
	const FtlIndexPoint *p = ftl_index_point(ix->used, (guint)ix->stop_point);
	if (ix->n_given != p->event_no)
		return FALSE;
	const FtlIndexCpu *cpus = ftl_index_cpus(ix->used, p);
	guint n = MAX(MAX(ts->cpu_task->len, ts->last_ts->len), p->n_cpus);
	for (guint i = 0; i < n; i++) {
		const TextCpuTask *t = i < ts->cpu_task->len
					       ? &g_array_index(ts->cpu_task, TextCpuTask, i)
					       : NULL;
		gint64 last = i < ts->last_ts->len ? g_array_index(ts->last_ts, gint64, i)
						   : FTL_TS_NONE;
		const FtlIndexCpu *c = i < p->n_cpus ? &cpus[i] : NULL;
		if ((t ? t->pid : -1) != (c ? c->pid : -1) ||
		    g_strcmp0(t ? t->comm : NULL, c ? ftl_index_str(ix->used, c->comm) : NULL) ||
		    last != (c ? c->last_ts : FTL_TS_NONE))
			return FALSE;
	}
	return TRUE;
}

/* The window reached its stop point (ev: the event there; NULL: the input
 * ended at the point's offset): FALSE with error when what the lines gave
 * disagrees with the point. */
static gboolean text_index_stop_check(TextSource *ts, const FtlEvent *ev, GError **error)
{
	TextIndexing *ix = ts->ix;
	if (!ix->used || ix->stop_point < 0)
		return TRUE;
	const FtlIndexPoint *p = ftl_index_point(ix->used, (guint)ix->stop_point);
	if ((!ev || (text_event_offset(ts, ev) == p->offset && ev->ts == p->ts &&
		     ts->base_line + ev->line == p->line && ts->base_seq + ev->seq == p->seq)) &&
	    text_index_stop_state_ok(ts))
		return TRUE;
	g_autofree char *cache = ftl_index_cache_path(ts->base.path);
	g_unlink(cache);
	g_set_error(error, FTL_ERROR, FTL_ERROR_FORMAT,
		    "'%s': the index cache disagrees with the file at offset %" G_GUINT64_FORMAT
		    " (its events or CPU state there): removed, the next run rebuilds it",
		    ts->base.path, p->offset);
	return FALSE;
}

/* Before ev is settled and given: FALSE when the pass stops before it. */
static gboolean text_index_event(TextSource *ts, const FtlEvent *ev)
{
	TextIndexing *ix = ts->ix;
	gboolean synth = (ev->flags & FTL_EVENT_F_SYNTH) != 0;
	if (!synth && ix->stop != G_MAXUINT64 && text_event_offset(ts, ev) >= ix->stop)
		return FALSE;
	if (ix->build) {
		if (!synth && ix->n_given >= ix->next_point)
			text_index_point(ts, ev);
		if (ev->ts == FTL_TS_NONE) {
			ix->untimed = TRUE;
		} else {
			ix->max_seen = MAX(ix->max_seen, ev->ts);
			ix->seg_min = MIN(ix->seg_min, ev->ts);
		}
	}
	ix->n_given++;
	return TRUE;
}

/* The source's end state, for the index being built. */
static void text_index_end_state(TextSource *ts, FtlIndexEnd *end)
{
	FtlSource *src = &ts->base;
	FtlIndex *idx = ts->ix->build;
	*end = (FtlIndexEnd){ .stats = src->stats,
			      .entries_in_buffer = src->entries_in_buffer,
			      .entries_written = src->entries_written,
			      .header_cpus = src->header_cpus,
			      .tracer = ftl_index_string(idx, src->tracer) };
	end->flags = (src->has_header ? FTL_INDEX_END_HEADER : 0) |
		     (src->time_relative ? FTL_INDEX_END_RELATIVE : 0) |
		     (ts->fgraph ? FTL_INDEX_END_FGRAPH : 0) |
		     (ts->latency ? FTL_INDEX_END_LATENCY : 0) |
		     (ts->report ? FTL_INDEX_END_REPORT : 0) |
		     (ts->ix->untimed ? 0 : FTL_INDEX_END_TIMED);
	const FtlDiags *d = ftl_trace_diags(src->trace);
	for (guint i = 0; i < FTL_INDEX_N_DIAGS; i++) {
		const FtlDiagEntry *e = ftl_diags_get(d, ftl_index_diag_kinds[i]);
		end->diags[i] = (FtlIndexDiag){ e->count, e->amount, e->first_line, e->first_cpu,
						ftl_index_string(idx, e->first_text) };
	}
	g_autoptr(GPtrArray) tasks = ftl_tasks_sorted(ftl_trace_tasks(src->trace));
	for (guint i = 0; i < tasks->len; i++) {
		const FtlTask *t = g_ptr_array_index(tasks, i);
		ftl_index_add_task(idx, t->pid, t->tgid, t->comm);
	}
}

/* After a seek: the whole file's totals, header facts, diagnostics and
 * tasks, as a full scan would leave them. */
static void text_index_restore_end(TextSource *ts)
{
	FtlSource *src = &ts->base;
	const FtlIndex *idx = ts->ix->used;
	const FtlIndexEnd *end = ftl_index_end(idx);
	FtlStrPool *pool = ftl_trace_pool(src->trace);
	src->stats = end->stats;
	src->entries_in_buffer = end->entries_in_buffer;
	src->entries_written = end->entries_written;
	src->header_cpus = end->header_cpus;
	const char *tracer = ftl_index_str(idx, end->tracer);
	src->tracer = tracer ? ftl_strpool_intern(pool, tracer) : NULL;
	src->has_header = (end->flags & FTL_INDEX_END_HEADER) != 0;
	src->time_relative = (end->flags & FTL_INDEX_END_RELATIVE) != 0;
	ts->fgraph = (end->flags & FTL_INDEX_END_FGRAPH) != 0;
	ts->latency = (end->flags & FTL_INDEX_END_LATENCY) != 0;
	ts->report = (end->flags & FTL_INDEX_END_REPORT) != 0;
	for (guint i = 0; i < FTL_INDEX_N_DIAGS; i++) {
		const FtlIndexDiag *x = &end->diags[i];
		FtlDiagEntry e = { x->count, x->amount, x->count ? src->path : NULL, x->first_line,
				   x->first_cpu, (char *)ftl_index_str(idx, x->first_text), 0 };
		ftl_diags_set(ftl_trace_diags(src->trace), ftl_index_diag_kinds[i], &e);
	}
	for (guint i = 0; i < ftl_index_n_tasks(idx); i++) {
		const FtlIndexTask *t = ftl_index_task(idx, i);
		const char *comm = ftl_index_str(idx, t->comm);
		ftl_tasks_note(ftl_trace_tasks(src->trace), t->pid, t->tgid,
			       comm ? ftl_strpool_intern(pool, comm) : NULL, FALSE);
	}
}

/* The pass reached the end (or the stop point) without an error. */
static void text_index_ended(TextSource *ts)
{
	TextIndexing *ix = ts->ix;
	if (ix->ended)
		return;
	ix->ended = TRUE;
	if (ix->used) {
		text_index_restore_end(ts);
		return;
	}
	if (!ix->build)
		return; /* an index kept for a seek that never came */
	FtlIndexEnd end;
	text_index_end_state(ts, &end);
	ftl_index_finish(ix->build, &end, ix->seg_min);
	ix->saved = ftl_index_save(ix->build, ts->base.path, &ix->save_error);
}

/* Gives ev, whose TextFix is fix, settled and accounted, unless the
 * stop point of an index is reached at it. */
static FtlStatus text_give(TextSource *ts, FtlEvent *ev, guint fix, const FtlEvent **out,
			   GError **error)
{
	if (ts->ix && !text_index_event(ts, ev)) {
		ts->done = TRUE;
		ts->chunk = NULL;
		ts->leaf_exit_due = FALSE;
		if (!text_index_stop_check(ts, ev, error))
			return FTL_STATUS_ERROR;
		text_index_ended(ts);
		return FTL_STATUS_EOF;
	}
	text_settle(ts, ev, fix);
	/* a leaf's exit and the buffer-started line are not lines of events */
	if (!(ev->flags & FTL_EVENT_F_SYNTH) && ev->kind != FTL_EVENT_BUFFER_START)
		text_account(ts, ev);
	*out = ev;
	return FTL_STATUS_OK;
}

static FtlStatus text_next(FtlSource *src, const FtlEvent **out, GError **error)
{
	TextSource *ts = (TextSource *)src;
	for (;;) {
		if (ts->leaf_exit_due) {
			ts->leaf_exit_due = FALSE;
			return text_give(ts, &ts->leaf_exit, ts->leaf_exit_fix, out, error);
		}
		if (!ts->chunk) {
			gboolean was_done = ts->done;
			const FtlLineChunk *lc = ts->done ? NULL : ftl_line_reader_next(ts->reader);
			if (!lc) {
				ts->done = TRUE;
				/* the input cut at the stop point's offset ends here */
				if (ts->ix && !was_done && !ts->ix->ended &&
				    ts->ix->stop != G_MAXUINT64 && !text_index_stop_check(ts, NULL, error))
					return FTL_STATUS_ERROR;
				if (ts->ix)
					text_index_ended(ts);
				return FTL_STATUS_EOF;
			}
			text_take_chunk(ts, lc);
		}
		TextChunk *c = ts->chunk;
		while (ts->op_idx < c->ops->len) {
			const TextOp *op = &g_array_index(c->ops, TextOp, ts->op_idx);
			if (op->at > ts->ev_idx)
				break;
			ts->op_idx++;
			if (!text_apply_op(ts, op, error)) {
				ts->done = TRUE;
				ts->chunk = NULL;
				return FTL_STATUS_ERROR;
			}
		}
		if (ts->ev_idx < c->events->len) {
			FtlEvent *ev = &g_array_index(c->events, FtlEvent, ts->ev_idx);
			guint fix = g_array_index(c->fix, guint8, ts->ev_idx);
			ts->ev_idx++;
			if (fix & TEXT_FIX_LEAF) {
				ftl_text_leaf_exit(ev, &ts->leaf_exit, &ts->names);
				ts->leaf_exit_fix = fix;
				ts->leaf_exit_due = TRUE;
			}
			return text_give(ts, ev, fix, out, error);
		}
		if (!text_end_chunk(ts, error)) {
			ts->done = TRUE;
			return FTL_STATUS_ERROR;
		}
	}
}

static void text_free(FtlSource *src)
{
	TextSource *ts = (TextSource *)src;
	/* what a test needs to know that the fast path was checked at all */
	if (ts->ctx.mode == TEXT_PARSE_VERIFY && ts->base.trace)
		g_printerr("ftlens: FTLENS_TEXT_PARSE=verify: %" G_GUINT64_FORMAT
			   " of %" G_GUINT64_FORMAT " event lines through the fast path; "
			   "%" G_GUINT64_FORMAT " optional fields decoded\n",
			   ts->fast_lines, ts->base.stats.event_lines, ts->decoded);
	ftl_line_reader_free(ts->reader);
	ftl_input_free(ts->input);
	g_ptr_array_unref(ts->spare);
	g_mutex_clear(&ts->spare_lock);
	g_array_unref(ts->cpu_task);
	g_array_unref(ts->last_ts);
	ftl_text_prior_free(ts->prior);
	if (ts->ix) {
		ftl_index_free(ts->ix->build);
		ftl_index_free(ts->ix->used);
		ftl_index_free(ts->ix->kept);
		g_clear_error(&ts->ix->save_error);
		g_free(ts->ix);
	}
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

static FtlStatus text_seek_event(FtlSource *src, guint64 want, guint64 *at, GError **error);

static const FtlSourceOps text_ops = {
	.name = "text",
	.next = text_next,
	.free = text_free,
	.dialect = ftl_text_source_dialect,
	.seek_event = text_seek_event,
};

/* The reader's read-ahead for a pass: two chunks for a view that reads rows
 * as they are asked for (FTL_OPEN_BROWSE), else the pool's share. */
static void text_steady_ahead(TextSource *ts, FtlTrace *trace)
{
	ftl_line_reader_set_ahead(ts->reader, ftl_trace_flags(trace) & FTL_OPEN_BROWSE ? 2 : 0);
}

static TextSource *text_source_new(FtlTrace *trace, FtlStream *stream, gint cpu_hint)
{
	TextSource *ts = g_new0(TextSource, 1);
	ftl_source_init(&ts->base, &text_ops, ftl_stream_path(stream));
	ts->base.cpu_hint = cpu_hint;
	ts->cpu_task = g_array_new(FALSE, TRUE, sizeof(TextCpuTask));
	ts->last_ts = g_array_new(FALSE, FALSE, sizeof(gint64));
	ts->spare = g_ptr_array_new_with_free_func((GDestroyNotify)ftl_text_chunk_free);
	g_mutex_init(&ts->spare_lock);
	ftl_text_names_init(&ts->names, ftl_trace_pool(trace));
	ts->ctx = (TextChunkCtx){ .src = &ts->base,
				  .cpu_hint = cpu_hint,
				  .pool = ftl_trace_pool(trace),
				  .names = &ts->names,
				  .mode = ftl_text_parse_mode() };
	ts->ctx.decode = ftl_text_decode(ts->ctx.mode, ftl_trace_read_options(trace)->skip);
	FtlLineReaderFuncs funcs = {
		.parse = text_parse_chunk,
		.free_result = text_spare_chunk,
		.can_cut = ftl_text_chunk_can_cut,
		.data = ts,
		.max_line = FTL_TEXT_MAX_LINE,
	};
	ts->reader = ftl_line_reader_new(stream, &funcs, ftl_trace_read_options(trace));
	text_steady_ahead(ts, trace);
	return ts;
}

FtlSource *ftl_text_source_new(FtlTrace *trace, FtlInput *input, gint cpu_hint)
{
	FtlStream *s = ftl_stream_new_from_memory(input->path, input->data, input->size, NULL);
	TextSource *ts = text_source_new(trace, s, cpu_hint);
	ts->input = input;
	return &ts->base;
}

/* The line at p (in [p, e)) is where the input stops looking like a trace:
 * the message for it, which the sniff gives when no line before the end of
 * its window is known. */
static char *text_not_a_trace(TextSource *ts, guint64 line, const char *p, const char *e)
{
	const char *nl = memchr(p, '\n', (gsize)(e - p));
	/* the line as read: main.c makes the message visible */
	g_autofree char *bad = g_strndup(p, MIN((gsize)((nl ? nl : e) - p), 60));
	return g_strdup_printf("'%s': line %" G_GUINT64_FORMAT
			       ": not an ftrace trace format ftlens knows: '%s'",
			       ts->base.path, line, bad);
}

/* A chunk the sniff looked past: it holds no known line (so no event), only
 * blank and unrecognized lines, whose diagnostics are added now. A --strict
 * error is kept in *strict for when the sniff succeeds, as it would come
 * from the pass. */
static void text_sniff_skip(TextSource *ts, GError **strict)
{
	TextChunk *c = ts->chunk;
	for (; ts->op_idx < c->ops->len; ts->op_idx++) {
		const TextOp *op = &g_array_index(c->ops, TextOp, ts->op_idx);
		GError *e = NULL;
		if (!text_apply_op(ts, op, &e)) {
			if (!*strict)
				*strict = e;
			else
				g_error_free(e);
		}
	}
	text_end_chunk(ts, NULL);
}

/* Why the sniff stops at the chunk in hand: the first unrecognized line in
 * the window (or a line too long), an input error, or only blank lines. */
static gboolean text_sniff_fail(TextSource *ts, char *bad, GError **error)
{
	const FtlLineChunk *lc = ts->lc;
	if (bad) {
		g_set_error_literal(error, FTL_ERROR, FTL_ERROR_FORMAT, bad);
		g_free(bad);
		return FALSE;
	}
	if (ts->chunk->first_known == G_MAXSIZE && lc->error) {
		g_propagate_error(error, g_error_copy(lc->error));
		return FALSE;
	}
	g_set_error(error, FTL_ERROR, FTL_ERROR_EMPTY, "'%s': no trace lines (only blank lines)",
		    ts->base.path);
	return FALSE;
}

/* Is the start of the input an ftrace text trace? Some line that starts in
 * its first SNIFF_BYTES parses as a header, event or special line. Decided
 * on the chunks read for real, whatever their size: the chunk with the first
 * known line is kept in hand for the pass. */
static gboolean text_sniff(TextSource *ts, GError **error)
{
	char *bad = NULL; /* the first unrecognized line in the window */
	gboolean header = FALSE; /* a header line in the window */
	GError *strict = NULL;
	const FtlLineChunk *lc;
	while ((lc = ftl_line_reader_next(ts->reader))) {
		text_take_chunk(ts, lc);
		TextChunk *c = ts->chunk;
		if (c->first_known != G_MAXSIZE && lc->offset + c->first_known < SNIFF_BYTES) {
			g_free(bad);
			if (strict) {
				g_propagate_error(error, strict);
				return FALSE;
			}
			return TRUE;
		}
		header |= c->first_header != G_MAXSIZE && lc->offset + c->first_header < SNIFF_BYTES;
		if (!bad && c->first_bad != G_MAXSIZE && lc->offset + c->first_bad < SNIFF_BYTES)
			bad = text_not_a_trace(ts, ts->base_line + c->first_bad_line,
					       lc->text + c->first_bad, lc->text + lc->len);
		if (!bad && lc->long_line && lc->offset + lc->len < SNIFF_BYTES)
			bad = text_not_a_trace(
				ts, ts->base_line + c->stats.total_lines + 1, lc->text + lc->len,
				lc->text + lc->len + MIN(lc->long_line, FTL_LINE_LONG_HEAD));
		if (lc->last || lc->offset + lc->len >= SNIFF_BYTES) {
			g_clear_error(&strict);
			/* an idle CPU's or a quiet tracer's file: its header and nothing else */
			if (header && !bad)
				return TRUE;
			return text_sniff_fail(ts, bad, error);
		}
		text_sniff_skip(ts, &strict);
	}
	/* the input ended after chunks of blank or unrecognized lines */
	g_clear_error(&strict);
	if (bad) {
		g_set_error_literal(error, FTL_ERROR, FTL_ERROR_FORMAT, bad);
		g_free(bad);
		return FALSE;
	}
	return TRUE;
}

FtlSource *ftl_text_source_open(FtlTrace *trace, FtlStream *stream, gint cpu_hint, GError **error)
{
	TextSource *ts = text_source_new(trace, stream, cpu_hint);
	ts->base.trace = trace;
	/* the sniff reads a chunk (rarely more): none parsed ahead of it, since
	 * an indexed --time window seeks away from them (the pass's first
	 * chunk asks for the full read-ahead) */
	ftl_line_reader_set_ahead(ts->reader, FTL_LINE_READER_ON_DEMAND);
	gboolean ok = text_sniff(ts, error);
	text_steady_ahead(ts, trace);
	if (!ok) {
		text_free(&ts->base);
		return NULL;
	}
	return &ts->base;
}

/* ---- the sparse index: the source's side ------------------------------- */

gboolean ftl_text_source_is(const FtlSource *src)
{
	return src && src->ops == &text_ops;
}

gboolean ftl_text_source_index_key(FtlSource *src, FtlIndexKey *key)
{
	TextSource *ts = (TextSource *)src;
	FtlStream *s = ftl_line_reader_stream(ts->reader);
	return ftl_text_source_is(src) && !ts->input && ftl_stream_is_seekable(s) &&
	       ftl_stream_file_id(s, &key->dev, &key->ino, &key->size, &key->mtime_ns);
}

static TextIndexing *text_indexing(TextSource *ts)
{
	if (!ts->ix) {
		ts->ix = g_new0(TextIndexing, 1);
		ts->ix->stop = G_MAXUINT64;
		ts->ix->stop_point = -1;
	}
	return ts->ix;
}

gboolean ftl_text_source_decodes_all(FtlSource *src)
{
	return ((TextSource *)src)->ctx.decode == FTL_FIELDS_ALL;
}

void ftl_text_source_build_index(FtlSource *src, const FtlIndexKey *key, guint stride)
{
	TextSource *ts = (TextSource *)src;
	TextIndexing *ix = text_indexing(ts);
	g_return_if_fail(!ix->build && !ix->used && ix->n_given == 0);
	ix->build = ftl_index_new(key, stride);
	ix->max_seen = FTL_TS_NONE;
	ix->seg_min = G_MAXINT64;
}

const FtlIndex *ftl_text_source_built(FtlSource *src, const GError **save_error)
{
	TextSource *ts = (TextSource *)src;
	*save_error = ts->ix ? ts->ix->save_error : NULL;
	return ts->ix && ts->ix->ended && ts->ix->build ? ts->ix->build : NULL;
}

/* The chunk read after a seek to p must begin with p's event, at a line
 * start: a cache that passed its checks but names another place is refused,
 * never believed. */
static gboolean text_seek_check(TextSource *ts, const FtlLineChunk *lc, const FtlIndexPoint *p)
{
	char before = '\n';
	int fd = ftl_stream_fd(ftl_line_reader_stream(ts->reader));
	if (p->offset > 0 && (fd < 0 || pread(fd, &before, 1, (off_t)p->offset - 1) != 1))
		return FALSE;
	if (before != '\n' || !lc || lc->offset != p->offset || !lc->result)
		return FALSE;
	const TextChunk *c = lc->result;
	if (c->events->len == 0)
		return FALSE;
	const FtlEvent *ev = &g_array_index(c->events, FtlEvent, 0);
	if (c->ops->len && g_array_index(c->ops, TextOp, 0).at == 0)
		return FALSE;
	return !(ev->flags & FTL_EVENT_F_SYNTH) && ev->raw.p == lc->text && ev->line == 1 &&
	       ev->seq == 1 && ev->ts == p->ts;
}

/* Where the input may end for a window that stops at point p: its offset
 * when a chunk could begin there (a line start, not a continuation of the
 * event before: the index may lie), else the end of the file, and the
 * source stops at the point all the same (ix->stop). */
static guint64 text_window_end(TextSource *ts, const FtlIndexPoint *p)
{
	char buf[256];
	int fd = ftl_stream_fd(ftl_line_reader_stream(ts->reader));
	if (fd < 0 || p->offset == 0)
		return G_MAXUINT64;
	ssize_t n = pread(fd, buf, sizeof buf, (off_t)p->offset - 1);
	if (n < 2 || buf[0] != '\n' || !ftl_text_chunk_can_cut(buf + 1, buf + n))
		return G_MAXUINT64;
	return p->offset;
}

/* The line at point p parsed on its own, before a window relies on it:
 * TRUE when an event of p's timestamp begins there, at a line start. */
static gboolean text_point_line_ok(TextSource *ts, const FtlIndexPoint *p)
{
	char buf[4097];
	int fd = ftl_stream_fd(ftl_line_reader_stream(ts->reader));
	off_t at = p->offset ? (off_t)p->offset - 1 : 0;
	ssize_t n = fd < 0 ? -1 : pread(fd, buf, sizeof buf, at);
	if (n <= 0 || (p->offset && (n < 2 || buf[0] != '\n')))
		return FALSE;
	const char *line = p->offset ? buf + 1 : buf, *e = buf + n;
	const char *nl = memchr(line, '\n', (gsize)(e - line));
	TextChunk *c = ftl_text_chunk_new();
	ftl_text_chunk_parse(c, &ts->ctx, line, (gsize)((nl ? nl + 1 : e) - line));
	const FtlEvent *ev = c->events->len ? &g_array_index(c->events, FtlEvent, 0) : NULL;
	gboolean ok = ev && !(ev->flags & FTL_EVENT_F_SYNTH) && ev->raw.p == line && ev->ts == p->ts;
	ftl_text_chunk_free(c);
	return ok;
}

/* The state the lines before point p left. */
static void text_seek_state(TextSource *ts, const FtlIndex *idx, const FtlIndexPoint *p)
{
	FtlStrPool *pool = ftl_trace_pool(ts->base.trace);
	const FtlIndexCpu *cpus = ftl_index_cpus(idx, p);
	ts->base_line = p->line - 1;
	ts->base_seq = p->seq - 1;
	ts->leaf_exit_due = FALSE;
	ts->ix->n_given = p->event_no;
	memset(&ts->base.stats, 0, sizeof ts->base.stats);
	const char *tracer = ftl_index_str(idx, p->tracer);
	ts->base.tracer = tracer ? ftl_strpool_intern(pool, tracer) : NULL;
	g_array_set_size(ts->cpu_task, p->n_cpus);
	g_array_set_size(ts->last_ts, p->n_cpus);
	for (guint i = 0; i < p->n_cpus; i++) {
		const char *comm = ftl_index_str(idx, cpus[i].comm);
		g_array_index(ts->cpu_task, TextCpuTask, i) =
			(TextCpuTask){ cpus[i].pid, comm ? ftl_strpool_intern(pool, comm) : NULL };
		g_array_index(ts->last_ts, gint64, i) = cpus[i].last_ts;
	}
}

static gboolean text_seek_refuse(const FtlSource *src, const FtlIndexPoint *p, GError **error)
{
	g_set_error(error, FTL_ERROR, FTL_ERROR_FORMAT,
		    "'%s': the index cache names offset %" G_GUINT64_FORMAT
		    ", where no such event starts",
		    src->path, p->offset);
	return FALSE;
}

gboolean ftl_text_source_seek_index(FtlSource *src, FtlIndex *idx, gint start, gint stop,
				    GError **error)
{
	TextSource *ts = (TextSource *)src;
	g_autoptr(FtlIndex) owned = idx;
	TextIndexing *ix = text_indexing(ts);
	g_return_val_if_fail(!ix->build && !ix->used && ix->n_given == 0, FALSE);
	/* a window between two points is a few chunks: parsing a pool's
	 * share of chunks ahead would parse several times what it reads */
	if (stop >= 0)
		ftl_line_reader_set_ahead(ts->reader, 2);
	/* both points a window uses are checked against their lines: the
	 * start's when its chunk is read, the stop's here, and the state the
	 * lines between leave against the stop's (text_index_stop_check()) */
	if (stop >= 0 && !text_point_line_ok(ts, ftl_index_point(idx, (guint)stop)))
		return text_seek_refuse(src, ftl_index_point(idx, (guint)stop), error);
	if (start >= 0) {
		const FtlIndexPoint *p = ftl_index_point(idx, (guint)start);
		/* the input as if it ended at the stop point: the chunks after
		 * it are neither read nor parsed */
		guint64 end = stop >= 0 ? text_window_end(ts, ftl_index_point(idx, (guint)stop))
					: G_MAXUINT64;
		if (!ftl_line_reader_seek_range(ts->reader, p->offset, end, error))
			return FALSE;
		ts->chunk = NULL;
		const FtlLineChunk *lc = ftl_line_reader_next(ts->reader);
		if (!text_seek_check(ts, lc, p))
			return text_seek_refuse(src, p, error);
		text_take_chunk(ts, lc);
		text_seek_state(ts, idx, p);
	}
	ix->stop = stop >= 0 ? ftl_index_point(idx, (guint)stop)->offset : G_MAXUINT64;
	ix->stop_point = stop;
	ix->used = g_steal_pointer(&owned);
	return TRUE;
}

void ftl_text_source_keep_index(FtlSource *src, FtlIndex *idx)
{
	TextSource *ts = (TextSource *)src;
	TextIndexing *ix = text_indexing(ts);
	if (ix->build || ix->used || ix->kept || ix->n_given) {
		ftl_index_free(idx);
		return;
	}
	ix->kept = idx;
}

/* The kept index's point at or before want, then as a --time window's seek
 * to it (the whole file's end state restored at the end). */
static FtlStatus text_seek_event(FtlSource *src, guint64 want, guint64 *at, GError **error)
{
	TextSource *ts = (TextSource *)src;
	TextIndexing *ix = ts->ix;
	*at = 0;
	if (!ix || !ix->kept || ix->n_given)
		return FTL_STATUS_EOF;
	gint k = ftl_index_find_event(ix->kept, want);
	if (k <= 0)
		return FTL_STATUS_OK; /* the first point is the first event */
	*at = ftl_index_point(ix->kept, (guint)k)->event_no;
	FtlIndex *idx = g_steal_pointer(&ix->kept);
	return ftl_text_source_seek_index(src, idx, k, -1, error) ? FTL_STATUS_OK
								 : FTL_STATUS_ERROR;
}
