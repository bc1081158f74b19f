/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The Events panel's rows, read in a thread of its own (see evsource.h):
 * a cache of blocks of rows, the jobs the panel asks for, and the seeker
 * that reads from the start of the input. */
#include "config.h"

#include "views/tui/evsource.h"

#include <string.h>

#include "util/timefmt.h"

#define EV_BLOCK      128
#define EV_BLOCKS_MAX 256
#define EV_STEP	      4096 /* events between looks at cancel and the lock */
/* Rows ahead beyond which a seekable input is opened again at the index
 * point before them, not read through. */
#define EV_FAR (4 * EV_STEP)

typedef struct {
	guint64 block;
	guint n;
	guint64 used; /* tick of the last look: the least recent goes first */
	GStringChunk *strs;
	FtlTuiRow rows[EV_BLOCK];
} EvBlock;

struct _FtlTuiEvents {
	guint64 gen; /* ftl_tui_gen_next */
	GThread *thread;
	FtlTuiSeeker seeker;
	FtlTuiFilter *filter;
	GMutex lock;
	GCond cond;
	/* under lock */
	GHashTable *blocks; /* block number -> EvBlock* */
	GArray *wanted;	    /* guint64 block numbers asked for, newest last */
	GArray *checkpoints;
	gboolean lines_sorted; /* the model's: checkpoints' lines go up */
	gboolean ts_sorted;    /* the model's: a checkpoint can be found by time */
	FtlTuiCallSnaps *snaps; /* the names open at each checkpoint */
	GPtrArray *old_snaps;	/* snapshots a stream may still borrow names from */
	gint try_seek;		/* atomic: a new model, an index may have been built */
	guint64 n_list, n_seen;
	gboolean n_exact;
	FtlTuiFind find;
	gboolean find_pending, find_running, find_done;
	gint64 find_result;
	guint64 find_done_rows;
	gboolean quit, changed, working;
	GError *error;
	guint64 tick;
	gint cancel; /* atomic */
	FtlTuiIo *io;
	/* the reader thread's own */
	guint io_held;	/* events read under the shared lock, 0: not held */
	guint64 n_read; /* events taken from streams, all told */
	FtlTuiStream stream;
	gboolean open;
	guint64 next; /* list number of the next listed event of the stream */
	GString *scratch;
};

void ftl_tui_stream_clear(FtlTuiStream *s)
{
	g_clear_pointer(&s->iter, ftl_iter_free);
	g_clear_pointer(&s->trace, ftl_trace_free);
	ftl_tui_call_names_clear(&s->names);
	s->at = 0;
}

/* ---- the seeker: the input opened again, at an index point ---------------- */

typedef struct {
	const FtlTuiOptions *opt;
	FtlTuiIo *io;
	FtlTrace *first;
	gboolean broken; /* a seek failed: the index lied, read from the start */
} Seeker;

static FtlTrace *seeker_reopen(Seeker *s, GError **error)
{
	g_rw_lock_writer_lock(&s->io->lock);
	FtlTrace *trace =
		s->opt->open ? s->opt->open(s->opt->open_data, FTL_OPEN_BROWSE, error) : NULL;
	g_rw_lock_writer_unlock(&s->io->lock);
	return trace;
}

/* No index, but times in order: the stream starts at the checkpoint's
 * time, that many events before it. */
static FtlStatus seeker_seek_time(FtlTrace *trace, const FtlTuiCheckpoint *cp, guint64 *at)
{
	if (cp->ts == FTL_TS_NONE || cp->raw == 0 || cp->ties > cp->raw)
		return FTL_STATUS_EOF;
	FtlStatus st = ftl_trace_seek_time(trace, cp->ts, NULL);
	if (st == FTL_STATUS_OK)
		*at = cp->raw - cp->ties;
	return st;
}

static gboolean seeker_open(gpointer self, const FtlTuiCheckpoint *cp, FtlTuiStream *out,
			    GError **error)
{
	Seeker *s = self;
	FtlTrace *trace = g_steal_pointer(&s->first);
	if (!trace && !(trace = seeker_reopen(s, error)))
		return FALSE;
	guint64 at = 0;
	FtlStatus st = s->broken ? FTL_STATUS_EOF : ftl_trace_seek_event(trace, cp->raw, &at, NULL);
	if (st == FTL_STATUS_EOF && !s->broken)
		st = seeker_seek_time(trace, cp, &at);
	if (st == FTL_STATUS_ERROR) {
		/* the cache named a place the file does not hold: never again */
		s->broken = TRUE;
		ftl_trace_free(trace);
		if (!(trace = seeker_reopen(s, error)))
			return FALSE;
		at = 0;
	}
	out->trace = trace;
	out->iter = ftl_iter_new(trace, NULL);
	out->at = at;
	out->seekable = st == FTL_STATUS_OK;
	ftl_tui_call_names_init(&out->names);
	return TRUE;
}

static gboolean seeker_reseek(gpointer self, const FtlTuiCheckpoint *cp, FtlTuiStream *s)
{
	Seeker *sk = self;
	if (sk->broken || cp->raw == 0)
		return FALSE;
	FtlStatus st = ftl_trace_seek_time(s->trace, cp->ts, NULL);
	if (st == FTL_STATUS_ERROR) {
		sk->broken = TRUE; /* the stream's trace is unusable: opened again */
		ftl_tui_stream_clear(s);
	}
	if (st != FTL_STATUS_OK)
		return FALSE;
	ftl_iter_free(s->iter);
	s->iter = ftl_iter_new(s->trace, NULL);
	s->at = cp->raw - cp->ties;
	s->seekable = TRUE;
	ftl_tui_call_names_clear(&s->names);
	ftl_tui_call_names_init(&s->names);
	return TRUE;
}

static void seeker_free(gpointer self)
{
	Seeker *s = self;
	ftl_trace_free(s->first);
	g_free(s);
}

static const FtlTuiSeekerOps seeker_ops = { seeker_open, seeker_reseek, seeker_free };

FtlTuiSeeker ftl_tui_seeker_new(const FtlTuiOptions *opt, FtlTuiIo *io, FtlTrace *first)
{
	Seeker *s = g_new0(Seeker, 1);
	s->opt = opt;
	s->io = io;
	s->first = first;
	return (FtlTuiSeeker){ &seeker_ops, s };
}

/* ---- rows ----------------------------------------------------------------- */

static const char *ev_strdup(EvBlock *b, const char *s)
{
	return s ? g_string_chunk_insert_const(b->strs, s) : NULL;
}

/* The event's text after its name, raw: what KernelShark's Info column shows. */
static void ev_info(GString *out, const FtlEvent *e)
{
	g_string_truncate(out, 0);
	switch (e->kind) {
	case FTL_EVENT_FUNC_ENTRY:
	case FTL_EVENT_FUNC_EXIT:
		break; /* drawn from func, depth and duration */
	case FTL_EVENT_FUNC:
		if (e->u.fn.parent)
			g_string_append_printf(out, "<-%s", e->u.fn.parent);
		break;
	case FTL_EVENT_MARKER:
		g_string_append_len(out, e->u.marker.text.p, e->u.marker.text.len);
		break;
	case FTL_EVENT_LOST:
		if (e->u.lost.count)
			g_string_append_printf(out, "[LOST %" G_GUINT64_FORMAT " EVENTS]",
					       e->u.lost.count);
		else
			g_string_append(out, "[LOST EVENTS]");
		break;
	case FTL_EVENT_STACK:
		for (guint32 i = 0; i < e->u.stack.n_frames; i++) {
			if (i)
				g_string_append(out, " <- ");
			g_string_append_len(out, e->u.stack.frames[i].p, e->u.stack.frames[i].len);
		}
		break;
	case FTL_EVENT_TASK_SWITCH:
		g_string_append_printf(
			out, "%s-%d => %s-%d", e->u.sw.prev_comm ? e->u.sw.prev_comm : "<...>",
			e->u.sw.prev_pid, e->u.sw.next_comm ? e->u.sw.next_comm : "<...>",
			e->u.sw.next_pid);
		break;
	default:
		if (e->payload.len)
			g_string_append_len(out, e->payload.p, e->payload.len);
		else if (e->src)
			ftl_source_payload(e->src, e, out);
		break;
	}
}

static void ev_row_fill(EvBlock *b, FtlTuiRow *row, const FtlEvent *e, const char *func,
			GString *scratch)
{
	memset(row, 0, sizeof *row);
	row->ts = e->ts;
	row->line = e->line;
	row->cpu = e->cpu;
	row->pid = e->pid;
	row->kind = e->kind;
	row->flags = e->flags;
	memcpy(row->lat, e->lat, sizeof row->lat);
	row->lat[sizeof row->lat - 1] = 0;
	row->comm = ev_strdup(b, e->comm);
	row->name = ev_strdup(b, e->name);
	row->func = ev_strdup(b, func);
	row->duration = FTL_TS_NONE;
	if (e->kind == FTL_EVENT_FUNC_ENTRY || e->kind == FTL_EVENT_FUNC_EXIT) {
		row->depth = e->u.graph.depth;
		row->duration = e->u.graph.duration;
		/* a text "f();" line: the entry carries the duration printed */
		row->leaf = e->kind == FTL_EVENT_FUNC_ENTRY && e->u.graph.duration != FTL_TS_NONE;
	}
	ev_info(scratch, e);
	row->info = g_string_chunk_insert_len(b->strs, scratch->str, (gssize)scratch->len);
}

char *ftl_tui_row_text(const FtlTuiRow *row)
{
	return g_strdup_printf("%s-%d %s %s %s", row->comm ? row->comm : "<...>", row->pid,
			       row->name ? row->name : "", row->func ? row->func : "",
			       row->info ? row->info : "");
}

static EvBlock *ev_block_new(guint64 block)
{
	EvBlock *b = g_new0(EvBlock, 1);
	b->block = block;
	b->strs = g_string_chunk_new(4096);
	return b;
}

static void ev_block_free(gpointer p)
{
	EvBlock *b = p;
	g_string_chunk_free(b->strs);
	g_free(b);
}

/* ---- the reader thread --------------------------------------------------- */

static gboolean ev_cancelled(FtlTuiEvents *ev)
{
	return g_atomic_int_get(&ev->cancel) != 0;
}

/* Reading shares the input lock with the model's thread; it is let go
 * every EV_STEP events and before the stream is opened again. */
static FtlStatus ev_iter_next(FtlTuiEvents *ev, const FtlEvent **e, GError **error)
{
	if (!ev->io_held)
		g_rw_lock_reader_lock(&ev->io->lock);
	FtlStatus st = ftl_iter_next(ev->stream.iter, e, error);
	ev->n_read++;
	if (++ev->io_held == EV_STEP || st != FTL_STATUS_OK) {
		g_rw_lock_reader_unlock(&ev->io->lock);
		ev->io_held = 0;
	}
	return st;
}

static void ev_io_release(FtlTuiEvents *ev)
{
	if (ev->io_held) {
		g_rw_lock_reader_unlock(&ev->io->lock);
		ev->io_held = 0;
	}
}

/* The next event of the list (*index its number), or EOF; ERROR with
 * no error set when cancelled while events are passed over: a filter
 * that keeps few of a 1 GiB input's events read it all before a block
 * was full, and Esc (which joins this thread) waited minutes. */
static FtlStatus ev_next(FtlTuiEvents *ev, const FtlEvent **e, const char **func, guint64 *index,
			 GError **error)
{
	for (guint64 skipped = 0;; skipped++) {
		if (skipped % EV_STEP == EV_STEP - 1 && ev_cancelled(ev))
			return FTL_STATUS_ERROR;
		FtlStatus st = ev_iter_next(ev, e, error);
		if (st != FTL_STATUS_OK) {
			if (st == FTL_STATUS_EOF) {
				g_mutex_lock(&ev->lock);
				ev->n_exact = TRUE;
				ev->n_list = ev->next;
				g_mutex_unlock(&ev->lock);
			}
			return st;
		}
		ev->stream.at++;
		*func = ftl_tui_call_names_feed(&ev->stream.names, *e);
		/* every event through the selection, as in the model's loader */
		if (!ftl_tui_filter_pass_model(ev->filter, &ev->stream.sel, *e))
			continue;
		if (((*e)->flags & FTL_EVENT_F_SYNTH) && (*e)->kind == FTL_EVENT_FUNC_EXIT)
			continue;
		if (!ftl_tui_filter_pass_names(ev->filter, *e, *func))
			continue;
		*index = ev->next++;
		return FTL_STATUS_OK;
	}
}

/* The last checkpoint at or before list row target ({0, 0} without one)
 * and the snapshot of the names open there (NULL without one). */
static FtlTuiCheckpoint ev_checkpoint(FtlTuiEvents *ev, guint64 target, FtlTuiCallSnaps **snaps)
{
	FtlTuiCheckpoint cp = { .ts = FTL_TS_NONE, .place = FTL_TS_NONE };
	gboolean found = FALSE;
	g_mutex_lock(&ev->lock);
	if (ev->checkpoints && ev->checkpoints->len) {
		const FtlTuiCheckpoint *c = (const FtlTuiCheckpoint *)ev->checkpoints->data;
		for (guint lo = 0, hi = ev->checkpoints->len; lo < hi;) {
			guint mid = lo + (hi - lo) / 2;
			if (c[mid].index <= target)
				cp = c[mid], found = TRUE, lo = mid + 1;
			else
				hi = mid;
		}
	}
	*snaps = found ? ev->snaps : NULL;
	if (!ev->ts_sorted)
		cp.ts = FTL_TS_NONE; /* not to be found by its time */
	g_mutex_unlock(&ev->lock);
	return cp;
}

/* The stream open now moved to checkpoint cp's time, without opening the
 * input again (a trace.dat: a binary search of its pages); FALSE when it
 * cannot, or (jump) would start no further on than it is. */
static gboolean ev_reseek(FtlTuiEvents *ev, const FtlTuiCheckpoint *cp, gboolean jump)
{
	if (!ev->open || !ev->seeker.ops->reseek || cp->ts == FTL_TS_NONE || cp->ties > cp->raw)
		return FALSE;
	if (jump && cp->raw - cp->ties <= ev->stream.at)
		return FALSE;
	g_rw_lock_reader_lock(&ev->io->lock);
	gboolean ok = ev->seeker.ops->reseek(ev->seeker.self, cp, &ev->stream);
	g_rw_lock_reader_unlock(&ev->io->lock);
	if (!ev->stream.iter)
		ev->open = FALSE; /* left unusable */
	return ok;
}

/* Opens a stream from which list row `target` is ahead: from the last
 * checkpoint at or before it, starting at the index point before that
 * when the input has one. jump: the stream open now stays when the new
 * one would start no further on. */
static gboolean ev_reopen(FtlTuiEvents *ev, guint64 target, gboolean jump, GError **error)
{
	FtlTuiCallSnaps *snaps;
	FtlTuiCheckpoint cp = ev_checkpoint(ev, target, &snaps);
	ev_io_release(ev);
	if (!ev_reseek(ev, &cp, jump)) {
		/* The stream open now is replaced when going back, and when it
		 * seeks (the new one starts within an index stride of cp, which
		 * lies EV_FAR past it): let go first, so that the two streams'
		 * chunks parsed ahead (megabytes each) are never held at once.
		 * On a failed open the list has no stream, and opens one next. */
		if (ev->open && (!jump || ev->stream.seekable)) {
			ftl_tui_stream_clear(&ev->stream);
			ev->open = FALSE;
		}
		FtlTuiStream s = { 0 };
		if (!ev->seeker.ops->open(ev->seeker.self, &cp, &s, error))
			return FALSE;
		if (jump && ev->open && s.at <= ev->stream.at) {
			ftl_tui_stream_clear(&s);
			g_atomic_int_set(&ev->try_seek, s.seekable);
			return TRUE;
		}
		ftl_tui_stream_clear(&ev->stream);
		ev->stream = s;
		ev->open = TRUE;
	}
	/* from where the seeker started to the checkpoint: names only, or
	 * nothing when the model left the names open there */
	const FtlEvent *e;
	while (ev->stream.at < cp.raw) {
		FtlStatus st = ev_iter_next(ev, &e, error);
		if (st == FTL_STATUS_ERROR)
			return FALSE;
		if (st == FTL_STATUS_EOF)
			break;
		ev->stream.at++;
		if (!snaps)
			ftl_tui_call_names_feed(&ev->stream.names, e);
	}
	if (snaps)
		ftl_tui_call_snaps_restore(snaps, cp.names, &ev->stream.names);
	/* the events read to get here were not selected: the selection
	 * starts at the checkpoint, placed as the model placed it */
	ftl_selector_init(&ev->stream.sel, ev->filter->global, FALSE);
	ev->stream.sel.last_ts = cp.place;
	ev->next = cp.index;
	return TRUE;
}

/* Whether list row target is so far ahead of the stream that opening the
 * input again near it is cheaper than reading there. */
static gboolean ev_far(FtlTuiEvents *ev, guint64 target)
{
	if (target < ev->next + EV_FAR || !(ev->stream.seekable || g_atomic_int_get(&ev->try_seek)))
		return FALSE;
	FtlTuiCallSnaps *snaps;
	FtlTuiCheckpoint cp = ev_checkpoint(ev, target, &snaps);
	return cp.raw > ev->stream.at + EV_FAR;
}

/* Positions the stream so that the next listed event is row target (or
 * the end comes first). FALSE on error or cancel. */
static gboolean ev_seek(FtlTuiEvents *ev, guint64 target, GError **error)
{
	if (!ev->open || ev->next > target || ev_far(ev, target))
		if (!ev_reopen(ev, target, ev->open && ev->next <= target, error))
			return FALSE;
	while (ev->next < target) {
		const FtlEvent *e;
		const char *func;
		guint64 i;
		FtlStatus st = ev_next(ev, &e, &func, &i, error);
		if (st == FTL_STATUS_ERROR)
			return FALSE;
		if (st == FTL_STATUS_EOF)
			return TRUE;
		if (i % EV_STEP == 0 && ev_cancelled(ev))
			return FALSE;
	}
	return TRUE;
}

static void ev_store(FtlTuiEvents *ev, EvBlock *b)
{
	g_mutex_lock(&ev->lock);
	b->used = ++ev->tick;
	if (g_hash_table_size(ev->blocks) >= EV_BLOCKS_MAX) {
		GHashTableIter it;
		gpointer k, v;
		EvBlock *old = NULL;
		g_hash_table_iter_init(&it, ev->blocks);
		while (g_hash_table_iter_next(&it, &k, &v))
			if (!old || ((EvBlock *)v)->used < old->used)
				old = v;
		g_hash_table_remove(ev->blocks, &old->block);
	}
	g_hash_table_replace(ev->blocks, &b->block, b);
	if (b->block * EV_BLOCK + b->n > ev->n_seen)
		ev->n_seen = b->block * EV_BLOCK + b->n;
	ev->changed = TRUE;
	g_mutex_unlock(&ev->lock);
}

static gboolean ev_fetch(FtlTuiEvents *ev, guint64 block, GError **error)
{
	if (!ev_seek(ev, block * EV_BLOCK, error))
		return FALSE;
	EvBlock *b = ev_block_new(block);
	while (b->n < EV_BLOCK && ev->next == block * EV_BLOCK + b->n) {
		const FtlEvent *e;
		const char *func;
		guint64 i;
		FtlStatus st = ev_next(ev, &e, &func, &i, error);
		if (st == FTL_STATUS_ERROR) {
			ev_block_free(b);
			return FALSE;
		}
		if (st == FTL_STATUS_EOF)
			break;
		ev_row_fill(b, &b->rows[b->n++], e, func, ev->scratch);
	}
	ev_store(ev, b);
	return TRUE;
}

/* ---- finds ----------------------------------------------------------------- */

typedef enum { EV_NO, EV_YES, EV_STOP } EvMatch;

static EvMatch ev_match(FtlTuiEvents *ev, const FtlTuiFind *f, const FtlEvent *e, const char *func)
{
	switch (f->kind) {
	case FTL_TUI_FIND_REGEX: {
		ev_info(ev->scratch, e);
		g_autofree char *text =
			g_strdup_printf("%s-%d %s %s %s", e->comm ? e->comm : "<...>", e->pid,
					e->name ? e->name : "", func ? func : "", ev->scratch->str);
		return g_regex_match(f->re, text, 0, NULL) ? EV_YES : EV_NO;
	}
	case FTL_TUI_FIND_EXIT:
		if (e->cpu != f->cpu ||
		    (e->kind != FTL_EVENT_FUNC_EXIT && e->kind != FTL_EVENT_FUNC_ENTRY))
			return EV_NO;
		if (e->u.graph.depth == f->depth)
			return e->kind == FTL_EVENT_FUNC_EXIT ? EV_YES : EV_STOP;
		/* an exit above the call: its own exit was never printed */
		return e->u.graph.depth < f->depth ? EV_STOP : EV_NO;
	case FTL_TUI_FIND_ENTRY:
		return e->kind == FTL_EVENT_FUNC_ENTRY && e->cpu == f->cpu &&
				       e->u.graph.depth == f->depth
			       ? EV_YES
			       : EV_NO;
	case FTL_TUI_FIND_TIME:
		return e->ts != FTL_TS_NONE && e->ts >= f->ts ? EV_YES : EV_NO;
	case FTL_TUI_FIND_LINE:
		return e->line == f->line && (f->cpu < 0 || e->cpu == f->cpu) ? EV_YES : EV_NO;
	case FTL_TUI_FIND_EVENT:
		if (e->ts == FTL_TS_NONE || e->ts < f->ts)
			return EV_NO;
		if (e->ts > f->ts)
			return EV_STOP;
		return e->cpu == f->cpu && e->name && !strcmp(e->name, f->name) ? EV_YES : EV_NO;
	}
	return EV_STOP;
}

static void ev_progress(FtlTuiEvents *ev, guint64 rows)
{
	g_mutex_lock(&ev->lock);
	ev->find_done_rows = rows;
	g_mutex_unlock(&ev->lock);
}

/* Where a find of input line `line` starts: the last checkpoint on an
 * earlier line, when lines go up through the list; else the first row. */
static guint64 ev_line_from(FtlTuiEvents *ev, guint64 line)
{
	guint64 from = 0;
	g_mutex_lock(&ev->lock);
	if (ev->lines_sorted && ev->checkpoints) {
		const FtlTuiCheckpoint *c = (const FtlTuiCheckpoint *)ev->checkpoints->data;
		for (guint lo = 0, hi = ev->checkpoints->len; lo < hi;) {
			guint mid = lo + (hi - lo) / 2;
			if (c[mid].line < line)
				from = c[mid].index, lo = mid + 1;
			else
				hi = mid;
		}
	}
	g_mutex_unlock(&ev->lock);
	return from;
}

/* Where a find of time ts starts: the last checkpoint before ts. */
static guint64 ev_time_from(FtlTuiEvents *ev, gint64 ts)
{
	guint64 from = 0;
	g_mutex_lock(&ev->lock);
	const FtlTuiCheckpoint *c = ev->checkpoints && ev->checkpoints->len
					    ? (const FtlTuiCheckpoint *)ev->checkpoints->data
					    : NULL;
	for (guint k = 0; c && k < ev->checkpoints->len && c[k].ts != FTL_TS_NONE && c[k].ts < ts;
	     k++)
		from = c[k].index;
	g_mutex_unlock(&ev->lock);
	return from;
}

/* The first matching row in [from, end); -1 none; -2 error or cancel. */
static gint64 ev_scan(FtlTuiEvents *ev, const FtlTuiFind *f, guint64 from, guint64 end,
		      gboolean last, GError **error)
{
	if (!ev_seek(ev, from, error))
		return -2;
	gint64 found = -1;
	while (ev->next < end) {
		const FtlEvent *e;
		const char *func;
		guint64 i;
		FtlStatus st = ev_next(ev, &e, &func, &i, error);
		if (st == FTL_STATUS_ERROR)
			return -2;
		if (st == FTL_STATUS_EOF)
			break;
		EvMatch m = ev_match(ev, f, e, func);
		if (m == EV_STOP)
			break;
		if (m == EV_YES) {
			found = (gint64)i;
			if (!last)
				break;
		}
		if ((i - from) % EV_STEP == 0) {
			if (ev_cancelled(ev))
				return -2;
			ev_progress(ev, i - from);
		}
	}
	return found;
}

/* Backward: the last match before f->from. A seeker that starts anywhere
 * reads windows back from there, each twice the one before; one that
 * starts at the beginning reads forward once. */
static gint64 ev_scan_back(FtlTuiEvents *ev, const FtlTuiFind *f, GError **error)
{
	if (!ev->stream.seekable)
		return ev_scan(ev, f, 0, f->from, TRUE, error);
	guint64 end = f->from, width = EV_STEP;
	while (end > 0) {
		guint64 start = end > width ? end - width : 0;
		gint64 r = ev_scan(ev, f, start, end, TRUE, error);
		if (r != -1)
			return r;
		end = start;
		width *= 2;
	}
	return -1;
}

static gint64 ev_run_find(FtlTuiEvents *ev, const FtlTuiFind *f, GError **error)
{
	switch (f->kind) {
	case FTL_TUI_FIND_REGEX:
		if (f->dir < 0)
			return ev_scan_back(ev, f, error);
		return ev_scan(ev, f, f->from + 1, G_MAXUINT64, FALSE, error);
	case FTL_TUI_FIND_EXIT:
		return ev_scan(ev, f, f->from + 1, G_MAXUINT64, FALSE, error);
	case FTL_TUI_FIND_ENTRY:
		return ev_scan_back(ev, f, error);
	case FTL_TUI_FIND_TIME:
		return ev_scan(ev, f, ev_time_from(ev, f->ts), G_MAXUINT64, FALSE, error);
	case FTL_TUI_FIND_EVENT: {
		gint64 r = ev_scan(ev, f, ev_time_from(ev, f->ts), G_MAXUINT64, FALSE, error);
		if (r != -1)
			return r;
		FtlTuiFind at = { .kind = FTL_TUI_FIND_TIME, .ts = f->ts };
		return ev_scan(ev, &at, ev_time_from(ev, f->ts), G_MAXUINT64, FALSE, error);
	}
	case FTL_TUI_FIND_LINE:
		return ev_scan(ev, f, ev_line_from(ev, f->line), G_MAXUINT64, FALSE, error);
	}
	return -1;
}

/* ---- the thread and the panel's side -------------------------------------- */

static gboolean ev_block_cached(FtlTuiEvents *ev, guint64 block)
{
	return g_hash_table_contains(ev->blocks, &block);
}

/* Under lock: the next job. FALSE when told to quit. */
static gboolean ev_take_job(FtlTuiEvents *ev, FtlTuiFind *find, gboolean *is_find, guint64 *block)
{
	for (;;) {
		if (ev->quit)
			return FALSE;
		if (ev->find_pending) {
			*find = ev->find;
			if (find->re)
				g_regex_ref(find->re);
			ev->find_pending = FALSE;
			ev->find_running = TRUE;
			ev->find_done_rows = 0;
			*is_find = TRUE;
			break;
		}
		while (ev->wanted->len) {
			*block = g_array_index(ev->wanted, guint64, ev->wanted->len - 1);
			g_array_set_size(ev->wanted, ev->wanted->len - 1);
			if (!ev_block_cached(ev, *block)) {
				*is_find = FALSE;
				goto take;
			}
		}
		ev->working = FALSE;
		g_cond_broadcast(&ev->cond);
		g_cond_wait(&ev->cond, &ev->lock);
	}
take:
	ev->working = TRUE;
	g_atomic_int_set(&ev->cancel, 0);
	return TRUE;
}

static void ev_job_done(FtlTuiEvents *ev, gboolean is_find, gint64 r, GError *error)
{
	g_mutex_lock(&ev->lock);
	if (is_find && !ev->find_pending) {
		ev->find_running = FALSE;
		ev->find_done = TRUE;
		ev->find_result = r < -1 ? -2 : r < 0 ? -1 : r;
		ev->changed = TRUE;
	}
	if (error && !ev->error) {
		ev->error = error;
		ev->quit = TRUE; /* the input cannot be read further */
		ev->changed = TRUE;
	} else if (error) {
		g_error_free(error);
	}
	g_mutex_unlock(&ev->lock);
}

static gpointer ev_thread(gpointer data)
{
	FtlTuiEvents *ev = data;
	g_mutex_lock(&ev->lock);
	for (;;) {
		FtlTuiFind find = { 0 };
		gboolean is_find = FALSE;
		guint64 block = 0;
		if (!ev_take_job(ev, &find, &is_find, &block))
			break;
		g_mutex_unlock(&ev->lock);
		GError *error = NULL;
		gint64 r = 0;
		if (is_find)
			r = ev_run_find(ev, &find, &error);
		else if (!ev_fetch(ev, block, &error))
			r = -2;
		ev_io_release(ev);
		if (find.re)
			g_regex_unref(find.re);
		ev_job_done(ev, is_find, r, error);
		g_mutex_lock(&ev->lock);
	}
	ev->working = FALSE;
	g_cond_broadcast(&ev->cond);
	g_mutex_unlock(&ev->lock);
	return NULL;
}

FtlTuiEvents *ftl_tui_events_new(FtlTuiSeeker seeker, FtlTuiIo *io, FtlTuiFilter *filter)
{
	FtlTuiEvents *ev = g_new0(FtlTuiEvents, 1);
	ev->gen = ftl_tui_gen_next();
	ev->seeker = seeker;
	ev->io = io;
	ev->filter = filter;
	g_mutex_init(&ev->lock);
	g_cond_init(&ev->cond);
	ev->blocks = g_hash_table_new_full(g_int64_hash, g_int64_equal, NULL, ev_block_free);
	ev->wanted = g_array_new(FALSE, FALSE, sizeof(guint64));
	ev->old_snaps = g_ptr_array_new_with_free_func((GDestroyNotify)ftl_tui_call_snaps_unref);
	ev->scratch = g_string_new(NULL);
	ev->thread = g_thread_new("ftlens-events", ev_thread, ev);
	return ev;
}

void ftl_tui_events_free(FtlTuiEvents *ev)
{
	if (!ev)
		return;
	g_mutex_lock(&ev->lock);
	ev->quit = TRUE;
	g_atomic_int_set(&ev->cancel, 1);
	g_cond_broadcast(&ev->cond);
	g_mutex_unlock(&ev->lock);
	g_thread_join(ev->thread);
	ftl_tui_stream_clear(&ev->stream);
	ev->seeker.ops->free(ev->seeker.self);
	ftl_tui_filter_free(ev->filter);
	g_hash_table_unref(ev->blocks);
	g_array_unref(ev->wanted);
	if (ev->checkpoints)
		g_array_unref(ev->checkpoints);
	ftl_tui_call_snaps_unref(ev->snaps);
	g_ptr_array_unref(ev->old_snaps);
	if (ev->find.re)
		g_regex_unref(ev->find.re);
	g_clear_error(&ev->error);
	g_string_free(ev->scratch, TRUE);
	g_mutex_clear(&ev->lock);
	g_cond_clear(&ev->cond);
	g_free(ev);
}

void ftl_tui_events_set_model(FtlTuiEvents *ev, const FtlTuiModel *m)
{
	g_mutex_lock(&ev->lock);
	if (ev->checkpoints)
		g_array_unref(ev->checkpoints);
	ev->checkpoints = m->checkpoints ? g_array_ref(m->checkpoints) : NULL;
	ev->lines_sorted = m->lines_sorted;
	ev->ts_sorted = m->ts_sorted;
	if (ev->snaps)
		g_ptr_array_add(ev->old_snaps, ev->snaps);
	ev->snaps = m->call_snaps ? ftl_tui_call_snaps_ref(m->call_snaps) : NULL;
	g_atomic_int_set(&ev->try_seek, TRUE);
	ev->n_list = m->n_list;
	ev->n_exact = TRUE;
	g_mutex_unlock(&ev->lock);
}

guint64 ftl_tui_events_count(FtlTuiEvents *ev, gboolean *exact)
{
	g_mutex_lock(&ev->lock);
	guint64 n = ev->n_exact ? ev->n_list : ev->n_seen;
	if (exact)
		*exact = ev->n_exact;
	g_mutex_unlock(&ev->lock);
	return n;
}

const FtlTuiRow *ftl_tui_events_row(FtlTuiEvents *ev, guint64 i)
{
	guint64 block = i / EV_BLOCK;
	const FtlTuiRow *row = NULL;
	g_mutex_lock(&ev->lock);
	EvBlock *b = g_hash_table_lookup(ev->blocks, &block);
	if (b) {
		b->used = ++ev->tick;
		if (i % EV_BLOCK < b->n)
			row = &b->rows[i % EV_BLOCK];
	} else if (!ev->n_exact || i < ev->n_list) {
		guint k;
		for (k = 0; k < ev->wanted->len; k++)
			if (g_array_index(ev->wanted, guint64, k) == block)
				break;
		if (k == ev->wanted->len) {
			if (ev->wanted->len >= 64)
				g_array_remove_index(ev->wanted, 0);
			g_array_append_val(ev->wanted, block);
			g_cond_broadcast(&ev->cond);
		}
	}
	g_mutex_unlock(&ev->lock);
	return row;
}

void ftl_tui_events_find(FtlTuiEvents *ev, const FtlTuiFind *find)
{
	g_mutex_lock(&ev->lock);
	if (ev->find.re)
		g_regex_unref(ev->find.re);
	ev->find = *find;
	if (ev->find.re)
		g_regex_ref(ev->find.re);
	ev->find_pending = TRUE;
	ev->find_done = FALSE;
	ev->find_done_rows = 0;
	if (ev->find_running)
		g_atomic_int_set(&ev->cancel, 1);
	g_cond_broadcast(&ev->cond);
	g_mutex_unlock(&ev->lock);
}

gboolean ftl_tui_events_found(FtlTuiEvents *ev, gint64 *index)
{
	g_mutex_lock(&ev->lock);
	gboolean done = ev->find_done;
	if (done) {
		*index = ev->find_result;
		ev->find_done = FALSE;
	}
	g_mutex_unlock(&ev->lock);
	return done;
}

gboolean ftl_tui_events_finding(FtlTuiEvents *ev, guint64 *done)
{
	g_mutex_lock(&ev->lock);
	gboolean r = ev->find_pending || ev->find_running;
	if (done)
		*done = ev->find_done_rows;
	g_mutex_unlock(&ev->lock);
	return r;
}

void ftl_tui_events_cancel(FtlTuiEvents *ev)
{
	g_mutex_lock(&ev->lock);
	ev->find_pending = FALSE;
	if (ev->find_running)
		g_atomic_int_set(&ev->cancel, 1);
	g_mutex_unlock(&ev->lock);
}

gboolean ftl_tui_events_changed(FtlTuiEvents *ev)
{
	g_mutex_lock(&ev->lock);
	gboolean c = ev->changed;
	ev->changed = FALSE;
	g_mutex_unlock(&ev->lock);
	return c;
}

gboolean ftl_tui_events_failed(FtlTuiEvents *ev, GError **error)
{
	g_mutex_lock(&ev->lock);
	gboolean failed = ev->error != NULL;
	if (failed)
		g_propagate_error(error, g_steal_pointer(&ev->error));
	g_mutex_unlock(&ev->lock);
	return failed;
}

gboolean ftl_tui_events_busy(FtlTuiEvents *ev)
{
	g_mutex_lock(&ev->lock);
	gboolean busy = ev->working || ev->find_pending || ev->wanted->len;
	g_mutex_unlock(&ev->lock);
	return busy;
}

guint64 ftl_tui_events_gen(const FtlTuiEvents *ev)
{
	return ev ? ev->gen : 0;
}

guint64 ftl_tui_events_n_read(FtlTuiEvents *ev)
{
	return ev->n_read;
}

void ftl_tui_events_wait(FtlTuiEvents *ev)
{
	g_mutex_lock(&ev->lock);
	while (!ev->quit && (ev->working || ev->find_pending || ev->wanted->len))
		g_cond_wait(&ev->cond, &ev->lock);
	g_mutex_unlock(&ev->lock);
}
