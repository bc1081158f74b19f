/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The k-way merge of sources: a binary min-heap of each source's pending event. */
#include "model/iter.h"

#include <stdlib.h>
#include <string.h>

#include "util/error.h"
#include "util/scan.h"

typedef struct {
	FtlSource *src;
	const FtlEvent *ev;
	guint idx; /* source index: the last tie-break, so output never depends on heap moves */
} IterSlot;

struct _FtlIter {
	FtlTrace *trace;
	FtlSelector sel;
	IterSlot *heap;
	guint n;
	gboolean started;
	FtlSource *advance; /* the source whose event was handed out last */
	guint advance_idx;
	gboolean note; /* several operands: the trace notes each event's time */
};

void ftl_filter_init(FtlFilter *f)
{
	f->cpus = NULL;
	f->pids = NULL;
	f->t_start = FTL_TS_NONE;
	f->t_end = FTL_TS_NONE;
	f->events = NULL;
	f->seen = NULL;
}

void ftl_filter_clear(FtlFilter *f)
{
	g_clear_pointer(&f->cpus, g_array_unref);
	g_clear_pointer(&f->pids, g_array_unref);
	g_clear_pointer(&f->events, ftl_event_filter_free);
	g_clear_pointer(&f->seen, ftl_selection_seen_free);
}

FtlSelectionSeen *ftl_selection_seen_new(gboolean full)
{
	FtlSelectionSeen *s = g_new0(FtlSelectionSeen, 1);
	s->full = full;
	s->names = g_hash_table_new(g_direct_hash, g_direct_equal);
	return s;
}

void ftl_selection_seen_free(FtlSelectionSeen *s)
{
	if (!s)
		return;
	g_hash_table_unref(s->names);
	g_free(s->pids);
	g_free(s);
}

static void seen_reset(const FtlFilter *f)
{
	FtlSelectionSeen *s = f->seen;
	GHashTable *names = s->names;
	gboolean full = s->full;
	g_free(s->pids);
	memset(s, 0, sizeof *s);
	s->names = names;
	s->full = full;
	g_hash_table_remove_all(names);
	s->ts_min = s->ts_max = s->first = s->last = FTL_TS_NONE;
	if (f->pids)
		s->pids = g_new0(guint8, f->pids->len);
}

/* Every merged event, before the selection: what the trace holds. */
static void seen_event(const FtlFilter *f, const FtlEvent *ev)
{
	FtlSelectionSeen *s = f->seen;
	s->events++;
	if (ev->ts != FTL_TS_NONE) {
		if (s->ts_min == FTL_TS_NONE || ev->ts < s->ts_min)
			s->ts_min = ev->ts;
		if (s->ts_max == FTL_TS_NONE || ev->ts > s->ts_max)
			s->ts_max = ev->ts;
		s->in_window += (f->t_start == FTL_TS_NONE || ev->ts >= f->t_start) &&
				(f->t_end == FTL_TS_NONE || ev->ts <= f->t_end);
	}
	if (ev->cpu >= 0 && ev->cpu < 64 * 64)
		s->cpus[ev->cpu / 64] |= G_GUINT64_CONSTANT(1) << (ev->cpu % 64);
	else if (ev->cpu >= 64 * 64)
		s->cpus_beyond++;
	if (f->pids)
		for (guint i = 0; i < f->pids->len; i++)
			s->pids[i] |= g_array_index(f->pids, gint32, i) == ev->pid;
	if (f->events && ev->name && !g_hash_table_contains(s->names, ev->name))
		g_hash_table_insert(s->names, (gpointer)ev->name, (gpointer)ev->system);
}

static void seen_selected(const FtlFilter *f, const FtlEvent *ev)
{
	FtlSelectionSeen *s = f->seen;
	s->selected++;
	if (ev->ts != FTL_TS_NONE) {
		if (s->first == FTL_TS_NONE)
			s->first = ev->ts;
		s->last = ev->ts;
	}
}

static gboolean seen_cpu(const FtlSelectionSeen *s, gint32 cpu)
{
	return cpu >= 0 && cpu < 64 * 64 && (s->cpus[cpu / 64] >> (cpu % 64) & 1);
}

/* "0-1, 3": the CPUs with events. */
static void seen_cpu_list(const FtlSelectionSeen *s, GString *out)
{
	for (gint32 c = 0; c < 64 * 64; c++) {
		if (!seen_cpu(s, c))
			continue;
		gint32 e = c;
		while (e + 1 < 64 * 64 && seen_cpu(s, e + 1))
			e++;
		g_string_append_printf(out, "%s%d", out->len ? ", " : "", c);
		if (e > c)
			g_string_append_printf(out, "-%d", e);
		c = e;
	}
}

char *ftl_filter_unmatched(const FtlFilter *f, const char *label)
{
	const FtlSelectionSeen *s = f ? f->seen : NULL;
	if (!s || !s->full)
		return NULL;
	g_autoptr(GString) out = g_string_new(NULL);
	if (f->cpus) {
		for (guint i = 0; i < f->cpus->len; i++) {
			gint32 c = g_array_index(f->cpus, gint32, i);
			if (seen_cpu(s, c))
				continue;
			g_autoptr(GString) have = g_string_new(NULL);
			seen_cpu_list(s, have);
			g_string_append_printf(out, "%s--cpu %d: no event of '%s' is on CPU %d (%s%s)",
					       out->len ? "\n" : "", c, label, c,
					       have->len ? "it has events on CPUs " : "it has no event",
					       have->str);
			break;
		}
	}
	if (f->pids) {
		for (guint i = 0; i < f->pids->len; i++)
			if (!s->pids[i])
				g_string_append_printf(out, "%s--pid %d: no event of '%s' is of pid %d",
						       out->len ? "\n" : "", g_array_index(f->pids, gint32, i),
						       label, g_array_index(f->pids, gint32, i));
	}
	gboolean window = f->t_start != FTL_TS_NONE || f->t_end != FTL_TS_NONE;
	if (window && s->events && s->ts_min == FTL_TS_NONE)
		g_string_append_printf(out, "%s--time: no event of '%s' has a timestamp to select by",
				       out->len ? "\n" : "", label);
	/* what was read differs with a sparse index (it seeks near the
	 * window): only the window's own events decide, so that the answer
	 * is the same with and without one */
	if (window && s->ts_min != FTL_TS_NONE && !s->in_window)
		g_string_append_printf(out, "%s--time: no event of '%s' lies in the window",
				       out->len ? "\n" : "", label);
	if (f->events) {
		g_autofree char *ev = ftl_event_filter_unmatched(f->events, s->names, label);
		if (ev)
			g_string_append_printf(out, "%s%s", out->len ? "\n" : "", ev);
	}
	return out->len ? g_string_free(g_steal_pointer(&out), FALSE) : NULL;
}

static gboolean filter_in_list(const GArray *list, gint32 v)
{
	for (guint i = 0; i < list->len; i++)
		if (g_array_index(list, gint32, i) == v)
			return TRUE;
	return FALSE;
}

gboolean ftl_filter_match(const FtlFilter *f, const FtlEvent *ev)
{
	if (!f)
		return TRUE;
	if (f->cpus && !filter_in_list(f->cpus, ev->cpu))
		return FALSE;
	if (f->pids && !filter_in_list(f->pids, ev->pid))
		return FALSE;
	if (ev->ts != FTL_TS_NONE) {
		if (f->t_start != FTL_TS_NONE && ev->ts < f->t_start)
			return FALSE;
		if (f->t_end != FTL_TS_NONE && ev->ts > f->t_end)
			return FALSE;
	}
	return !f->events || ftl_event_filter_match(f->events, ev);
}

static gboolean filter_list_bad(const char *text, GError **error)
{
	g_set_error(error, FTL_ERROR, FTL_ERROR_USAGE,
		    "'%s': expected a list of numbers and ranges like 0,2-3", text);
	return FALSE;
}

gboolean ftl_filter_parse_list(const char *text, GArray **out, GError **error)
{
	if (!*text)
		return filter_list_bad(text, error);
	g_autoptr(GArray) arr = g_array_new(FALSE, FALSE, sizeof(gint32));
	g_auto(GStrv) parts = g_strsplit(text, ",", -1);
	for (guint i = 0; parts[i]; i++) {
		const char *p = g_strstrip(parts[i]), *e = p + strlen(p);
		guint64 a, b;
		const char *end = ftl_scan_u64(p, e, &a);
		if (!end || a > G_MAXINT32)
			return filter_list_bad(text, error);
		b = a;
		if (end < e && *end == '-') {
			end = ftl_scan_u64(end + 1, e, &b);
			if (!end || b < a || b > G_MAXINT32 || b - a > 1000000)
				return filter_list_bad(text, error);
		}
		if (end != e)
			return filter_list_bad(text, error);
		for (guint64 v = a; v <= b; v++) {
			gint32 x = (gint32)v;
			g_array_append_val(arr, x);
		}
	}
	*out = g_steal_pointer(&arr);
	return TRUE;
}

static gboolean filter_parse_seconds(const char *s, gint64 *ns)
{
	s = g_strstrip((char *)s);
	if (!*s) {
		*ns = FTL_TS_NONE;
		return TRUE;
	}
	return ftl_scan_seconds_str(s, ns); /* exact: no rounding through a double */
}

gboolean ftl_filter_parse_time(const char *text, gint64 *start, gint64 *end, GError **error)
{
	g_auto(GStrv) parts = g_strsplit(text, ",", -1);
	if (g_strv_length(parts) != 2 || !filter_parse_seconds(parts[0], start) ||
	    !filter_parse_seconds(parts[1], end) ||
	    (*start != FTL_TS_NONE && *end != FTL_TS_NONE && *end < *start)) {
		g_set_error(error, FTL_ERROR, FTL_ERROR_USAGE,
			    "'%s': expected START,END in seconds, e.g. 12.5,13 or 12.5,", text);
		return FALSE;
	}
	return TRUE;
}

void ftl_selector_init(FtlSelector *s, const FtlFilter *f, gboolean count)
{
	s->filter = NULL;
	s->count = NULL;
	s->last_ts = FTL_TS_NONE;
	/* counting what passes keeps the unfiltered fast path */
	if (count && f && f->seen) {
		seen_reset(f);
		s->count = f;
	}
	/* a filter that lets everything through costs nothing per event */
	if (f && (f->cpus || f->pids || f->events || (s->count && f->seen->full) ||
		  f->t_start != FTL_TS_NONE || f->t_end != FTL_TS_NONE))
		s->filter = f;
}

FtlIter *ftl_iter_new(FtlTrace *trace, const FtlFilter *filter)
{
	FtlIter *it = g_new0(FtlIter, 1);
	it->trace = trace;
	ftl_selector_init(&it->sel, filter, TRUE);
	it->heap = g_new0(IterSlot, ftl_trace_n_sources(trace) + 1);
	it->note = ftl_trace_n_operands(trace) > 1;
	return it;
}

void ftl_iter_free(FtlIter *it)
{
	if (!it)
		return;
	g_free(it->heap);
	g_free(it);
}

static inline gboolean iter_less(const IterSlot *a, const IterSlot *b)
{
	if (a->ev->ts != b->ev->ts)
		return a->ev->ts < b->ev->ts;
	if (a->ev->cpu != b->ev->cpu)
		return a->ev->cpu < b->ev->cpu;
	if (a->ev->seq != b->ev->seq)
		return a->ev->seq < b->ev->seq;
	return a->idx < b->idx;
}

static void iter_sift_down(FtlIter *it, guint i)
{
	for (;;) {
		guint l = 2 * i + 1, r = l + 1, m = i;
		if (l < it->n && iter_less(&it->heap[l], &it->heap[m]))
			m = l;
		if (r < it->n && iter_less(&it->heap[r], &it->heap[m]))
			m = r;
		if (m == i)
			return;
		IterSlot tmp = it->heap[i];
		it->heap[i] = it->heap[m];
		it->heap[m] = tmp;
		i = m;
	}
}

static void iter_sift_up(FtlIter *it, guint i)
{
	while (i > 0) {
		guint p = (i - 1) / 2;
		if (!iter_less(&it->heap[i], &it->heap[p]))
			return;
		IterSlot tmp = it->heap[i];
		it->heap[i] = it->heap[p];
		it->heap[p] = tmp;
		i = p;
	}
}

/* Pulls src's next event into the heap. The slot the last event handed out
 * still holds (the root, at replace) takes it, so that when src stays the
 * earliest, as it does for a run of events of one CPU and always for one
 * source, a sift costs two comparisons and no pop and push. */
static FtlStatus iter_pull(FtlIter *it, FtlSource *src, guint idx, gboolean replace, GError **error)
{
	const FtlEvent *ev = NULL;
	FtlStatus st = src->ops->next(src, &ev, error);
	if (st == FTL_STATUS_EOF)
		ftl_source_end(src);
	if (st == FTL_STATUS_OK && replace) {
		it->heap[0].ev = ev;
		if (it->n > 1)
			iter_sift_down(it, 0);
		return st;
	}
	if (replace) {
		/* src is used up (or failed): its slot goes */
		it->heap[0] = it->heap[--it->n];
		iter_sift_down(it, 0);
	}
	if (st != FTL_STATUS_OK)
		return st;
	it->heap[it->n] = (IterSlot){ src, ev, idx };
	iter_sift_up(it, it->n++);
	return FTL_STATUS_OK;
}

/* An event without a timestamp (function_graph's task-switch block, a
 * comment) stands where the input put it: inside a time window when the last
 * timed event before it (last_ts) is, or, with none before it, when the
 * window has no start. Else a window would let every such event of the
 * trace through. */
static gboolean filter_time_placed(const FtlFilter *f, gint64 last_ts)
{
	if (last_ts == FTL_TS_NONE)
		return f->t_start == FTL_TS_NONE;
	return (f->t_start == FTL_TS_NONE || last_ts >= f->t_start) &&
	       (f->t_end == FTL_TS_NONE || last_ts <= f->t_end);
}

gboolean ftl_filter_match_placed(const FtlFilter *f, gint64 last_ts, const FtlEvent *ev)
{
	if (!f)
		return TRUE;
	if (ev->ts == FTL_TS_NONE && !filter_time_placed(f, last_ts))
		return FALSE;
	return ftl_filter_match(f, ev);
}

/* selector_pass() with a filter. */
G_GNUC_NO_INLINE static gboolean selector_pass_filtered(FtlSelector *s, const FtlEvent *ev)
{
	const FtlFilter *f = s->filter;
	if (G_UNLIKELY(s->count && s->count->seen->full))
		seen_event(f, ev);
	if (ev->ts != FTL_TS_NONE)
		s->last_ts = ev->ts;
	/* an untimed event stands at last_ts; a timed one by its own time */
	if (!ftl_filter_match_placed(f, s->last_ts, ev))
		return FALSE;
	if (s->count)
		seen_selected(s->count, ev);
	return TRUE;
}

/* ftl_selector_pass(), inline in the iterator: without a filter, a few
 * stores per event. */
static inline gboolean selector_pass(FtlSelector *s, const FtlEvent *ev)
{
	if (G_UNLIKELY(s->filter != NULL))
		return selector_pass_filtered(s, ev);
	if (ev->ts != FTL_TS_NONE)
		s->last_ts = ev->ts;
	if (s->count)
		seen_selected(s->count, ev);
	return TRUE;
}

gboolean ftl_selector_pass(FtlSelector *s, const FtlEvent *ev)
{
	return selector_pass(s, ev);
}

/* ftl_iter_next() when one source is left and nothing is filtered (a
 * trace.dat merges its CPUs itself): its next event as it comes, without
 * the heap's bookkeeping. */
G_GNUC_NO_INLINE static FtlStatus iter_next_one(FtlIter *it, const FtlEvent **out, GError **error)
{
	FtlSource *src = it->advance;
	const FtlEvent *ev = NULL;
	FtlStatus st = src->ops->next(src, &ev, error);
	if (G_LIKELY(st == FTL_STATUS_OK)) {
		it->heap[0].ev = ev;
		if (G_UNLIKELY(it->note))
			ftl_trace_note_event(it->trace, it->heap[0].idx, ev);
		selector_pass(&it->sel, ev); /* nothing to select: it counts */
		*out = ev;
		return st;
	}
	if (st == FTL_STATUS_EOF)
		ftl_source_end(src);
	/* used up (or failed): its slot goes, as in iter_pull() */
	it->advance = NULL;
	it->n = 0;
	return st == FTL_STATUS_ERROR ? st : FTL_STATUS_EOF;
}

/* ftl_iter_next() over the heap. */
G_GNUC_NO_INLINE static FtlStatus iter_next_merge(FtlIter *it, const FtlEvent **out, GError **error)
{
	if (!it->started) {
		it->started = TRUE;
		for (guint i = 0; i < ftl_trace_n_sources(it->trace); i++) {
			FtlStatus st =
				iter_pull(it, ftl_trace_source(it->trace, i), i, FALSE, error);
			if (st == FTL_STATUS_ERROR)
				return st;
		}
	}
	for (;;) {
		/* the root is the event handed out last: its source's next replaces it */
		if (it->advance) {
			FtlSource *src = it->advance;
			it->advance = NULL;
			FtlStatus st = iter_pull(it, src, it->advance_idx, TRUE, error);
			if (st == FTL_STATUS_ERROR)
				return st;
		}
		if (it->n == 0)
			return FTL_STATUS_EOF;
		const IterSlot *top = &it->heap[0];
		it->advance = top->src;
		it->advance_idx = top->idx;
		if (G_UNLIKELY(it->note))
			ftl_trace_note_event(it->trace, top->idx, top->ev);
		if (selector_pass(&it->sel, top->ev)) {
			*out = top->ev;
			return FTL_STATUS_OK;
		}
	}
}

/* Both paths out of line: the one taken per event pays no spills of the
 * other's registers. */
FtlStatus ftl_iter_next(FtlIter *it, const FtlEvent **out, GError **error)
{
	if (it->advance && it->n == 1 && !it->sel.filter)
		return iter_next_one(it, out, error);
	return iter_next_merge(it, out, error);
}
