/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Markers in time order, their wall-clock anchors, and spans between markers
 * matching start/end patterns with what each CPU did inside each span. */
#include "analysis/markers.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/histo.h"
#include "util/error.h"
#include "util/checked.h"
#include "util/scan.h"

/* ---- markers --------------------------------------------------------------- */

struct _FtlMarkers {
	GArray *items; /* FtlMarker */
	gboolean finished;
};

static void markers_clear_one(gpointer p)
{
	FtlMarker *mk = p;
	g_clear_pointer(&mk->text, g_free);
	g_clear_pointer(&mk->caller, g_free);
}

FtlMarkers *ftl_markers_new(void)
{
	FtlMarkers *m = g_new0(FtlMarkers, 1);
	m->items = g_array_new(FALSE, FALSE, sizeof(FtlMarker));
	g_array_set_clear_func(m->items, markers_clear_one);
	return m;
}

void ftl_markers_free(FtlMarkers *m)
{
	if (!m)
		return;
	g_array_unref(m->items);
	g_free(m);
}

static void markers_fill(FtlMarker *mk, const FtlEvent *ev)
{
	mk->ts = ev->ts;
	mk->delta = FTL_TS_NONE;
	mk->cpu = ev->cpu;
	mk->pid = ev->pid;
	mk->comm = ev->comm;
	mk->line = ev->line;
	mk->origin = ev->u.marker.origin;
	mk->text = g_strndup(ev->u.marker.text.p ? ev->u.marker.text.p : "", ev->u.marker.text.len);
	mk->caller = ev->u.marker.caller.len
			     ? g_strndup(ev->u.marker.caller.p, ev->u.marker.caller.len)
			     : NULL;
}

void ftl_markers_feed(FtlMarkers *m, const FtlEvent *ev)
{
	if (ev->kind != FTL_EVENT_MARKER)
		return;
	FtlMarker mk;
	markers_fill(&mk, ev);
	if (m->items->len) {
		const FtlMarker *prev = &g_array_index(m->items, FtlMarker, m->items->len - 1);
		/* an input without times has no deltas, not a delta of zero */
		if (prev->ts != FTL_TS_NONE && mk.ts != FTL_TS_NONE)
			mk.delta = mk.ts - prev->ts;
	}
	g_array_append_val(m->items, mk);
}

void ftl_markers_finish(FtlMarkers *m)
{
	m->finished = TRUE;
}

guint ftl_markers_count(const FtlMarkers *m)
{
	return m->items->len;
}

const FtlMarker *ftl_markers_get(const FtlMarkers *m, guint i)
{
	g_return_val_if_fail(i < m->items->len, NULL);
	return &g_array_index(m->items, FtlMarker, i);
}

/* Reads up to max_digits decimal digits; FALSE if there are none or more. */
static gboolean markers_read_digits(const char **p, guint max_digits, guint64 *out, guint *n_digits)
{
	const char *q = ftl_scan_u64(*p, *p + strlen(*p), out);
	if (!q || (guint)(q - *p) > max_digits)
		return FALSE;
	*n_digits = (guint)(q - *p);
	*p = q;
	return TRUE;
}

static gboolean markers_only_blanks(const char *p)
{
	for (; *p; p++)
		if (!g_ascii_isspace(*p))
			return FALSE;
	return TRUE;
}

gboolean ftl_markers_parse_wallclock(const char *text, gint64 *wall_ns)
{
	const char *p = text;
	guint64 sec, frac, ms;
	guint n;
	while (*p == ' ' || *p == '\t')
		p++;
	if (g_str_has_prefix(p, "ftlens-wallclock:")) {
		p += strlen("ftlens-wallclock:");
		while (*p == ' ' || *p == '\t')
			p++;
		/* the sum must stay below G_MAXINT64 ns (the year 2262) */
		if (!markers_read_digits(&p, 10, &sec, &n) || *p++ != '.' ||
		    sec > (guint64)G_MAXINT64 / 1000000000u - 1)
			return FALSE;
		/* exactly nine digits, so that ".5" is not read as 5 ns */
		if (!markers_read_digits(&p, 9, &frac, &n) || n != 9 || !markers_only_blanks(p))
			return FALSE;
		*wall_ns = (gint64)(sec * 1000000000u + frac);
		return TRUE;
	}
	if (g_str_has_prefix(p, "trace_event_clock_sync: realtime_ts=")) {
		p += strlen("trace_event_clock_sync: realtime_ts=");
		if (!markers_read_digits(&p, 13, &ms, &n) || !markers_only_blanks(p) ||
		    ms > (guint64)G_MAXINT64 / 1000000u)
			return FALSE;
		*wall_ns = (gint64)(ms * 1000000u);
		return TRUE;
	}
	return FALSE;
}

gboolean ftl_markers_wall_anchor(const FtlMarkers *m, guint *index, gint64 *offset_ns)
{
	for (guint i = 0; i < m->items->len; i++) {
		const FtlMarker *mk = &g_array_index(m->items, FtlMarker, i);
		gint64 wall;
		if (mk->ts == FTL_TS_NONE || !ftl_markers_parse_wallclock(mk->text, &wall))
			continue;
		if (index)
			*index = i;
		*offset_ns = wall - mk->ts;
		return TRUE;
	}
	return FALSE;
}

/* ---- spans ----------------------------------------------------------------- */

/* Bounds the per-task frame stack: function_graph never nests this deep, so a
 * larger depth is a damaged line, not a reason to allocate. */
#define SPANS_MAX_DEPTH 4096

typedef struct {
	const char *func;
	gint64 entry_ts;
	gint64 child_sum; /* durations of the exits one level deeper since this entry */
	gboolean valid;	  /* the entry was seen */
} SpansFrame;

/* What one function exit contributes to the spans open when it happens. */
typedef struct {
	const char *func;
	gint64 total;
	gint64 self;
} SpansSample;

typedef struct {
	FtlSpanCpu pub;
	GHashTable *funcs; /* func name -> FtlSpanFunc* (owned) */
} SpansCpuAcc;

typedef struct {
	guint64 ord; /* start order */
	FtlMarker start;
	char *key;
	GRegex *end_re;	  /* NULL when the substituted pattern did not compile */
	GHashTable *cpus; /* GINT_TO_POINTER(cpu) -> SpansCpuAcc* (owned) */
	guint64 events;
	SpansCpuAcc *last; /* the CPU of the previous event: most events repeat it */
} SpansOpen;

typedef struct {
	guint64 ord;
	FtlSpan span;
} SpansDone;

struct _FtlSpans {
	GRegex *start_re;
	char *end_pattern;
	GRegex *end_re;	    /* the end pattern when it has no references */
	GRegex *end_any_re; /* the end pattern with any text for \N */
	GPtrArray *open;    /* SpansOpen*, most recent last */
	GPtrArray *done;    /* SpansDone* */
	GHashTable *stacks; /* task key -> GArray of SpansFrame */
	gint last_key;
	GArray *last_stack;
	guint64 n_started;
	guint unmatched_starts;
	guint unmatched_ends;
	GArray *stats;	  /* FtlSpanStats, after finish */
	GArray *by_dur;	  /* guint span indexes, longest first, after finish */
};

static char *spans_expand(const char *pattern, const GMatchInfo *info, guint *max_ref)
{
	GString *out = g_string_new(NULL);
	guint max = 0;
	for (const char *p = pattern; *p; p++) {
		if (p[0] == '\\' && p[1] >= '1' && p[1] <= '9') {
			guint n = (guint)(p[1] - '0');
			max = MAX(max, n);
			if (info) {
				g_autofree char *grp = g_match_info_fetch(info, (gint)n);
				g_autofree char *esc = g_regex_escape_string(grp ? grp : "", -1);
				g_string_append(out, esc);
			} else {
				/* an unmatched end is recognized whatever the start captured */
				g_string_append(out, "(?:.*)");
			}
			p++;
		} else if (p[0] == '\\' && p[1]) {
			/* keep "\\1" an escaped backslash followed by 1 */
			g_string_append_len(out, p, 2);
			p++;
		} else {
			g_string_append_c(out, *p);
		}
	}
	if (max_ref)
		*max_ref = max;
	return g_string_free(out, FALSE);
}

char *ftl_spans_substitute(const char *pattern, const GMatchInfo *info)
{
	return spans_expand(pattern, info, NULL);
}

static GRegex *spans_compile(const char *what, const char *pattern, GError **error)
{
	g_autoptr(GError) local = NULL;
	/* RAW: marker text is whatever a process wrote, not necessarily UTF-8 */
	GRegex *re = g_regex_new(pattern, G_REGEX_RAW, 0, &local);
	if (!re)
		g_set_error(error, FTL_ERROR, FTL_ERROR_USAGE, "--span: %s pattern '%s': %s", what,
			    pattern, local->message);
	return re;
}

static void spans_cpu_acc_free(gpointer p)
{
	SpansCpuAcc *acc = p;
	g_hash_table_unref(acc->funcs);
	g_free(acc);
}

static void spans_open_free(gpointer p)
{
	SpansOpen *o = p;
	g_free(o->start.text);
	g_free(o->start.caller);
	g_free(o->key);
	g_clear_pointer(&o->end_re, g_regex_unref);
	g_hash_table_unref(o->cpus);
	g_free(o);
}

static void spans_done_free(gpointer p)
{
	SpansDone *d = p;
	g_free(d->span.start.text);
	g_free(d->span.start.caller);
	g_free(d->span.end.text);
	g_free(d->span.end.caller);
	g_free(d->span.key);
	for (guint i = 0; i < d->span.n_cpus; i++)
		g_free(d->span.cpus[i].funcs);
	g_free(d->span.cpus);
	g_free(d);
}

FtlSpans *ftl_spans_new(const char *start_pattern, const char *end_pattern, GError **error)
{
	g_autoptr(GRegex) start_re = spans_compile("start", start_pattern, error);
	if (!start_re)
		return NULL;
	guint max_ref = 0;
	g_autofree char *any = spans_expand(end_pattern, NULL, &max_ref);
	guint groups = (guint)g_regex_get_capture_count(start_re);
	if (max_ref > groups) {
		g_set_error(error, FTL_ERROR, FTL_ERROR_USAGE,
			    "--span: end pattern '%s' refers to \\%u but start pattern '%s' has %u "
			    "group%s",
			    end_pattern, max_ref, start_pattern, groups, groups == 1 ? "" : "s");
		return NULL;
	}
	g_autoptr(GRegex) end_any_re = spans_compile("end", any, error);
	if (!end_any_re) {
		g_prefix_error(error, "(with any text for \\N) ");
		return NULL;
	}
	FtlSpans *s = g_new0(FtlSpans, 1);
	s->start_re = g_steal_pointer(&start_re);
	s->end_pattern = g_strdup(end_pattern);
	if (max_ref == 0)
		s->end_re = g_regex_ref(end_any_re);
	s->end_any_re = g_steal_pointer(&end_any_re);
	s->open = g_ptr_array_new_with_free_func(spans_open_free);
	s->done = g_ptr_array_new_with_free_func(spans_done_free);
	s->stacks = g_hash_table_new_full(g_direct_hash, g_direct_equal, NULL,
					  (GDestroyNotify)g_array_unref);
	return s;
}

void ftl_spans_free(FtlSpans *s)
{
	if (!s)
		return;
	g_regex_unref(s->start_re);
	g_clear_pointer(&s->end_re, g_regex_unref);
	g_regex_unref(s->end_any_re);
	g_free(s->end_pattern);
	g_ptr_array_unref(s->open);
	g_ptr_array_unref(s->done);
	g_hash_table_unref(s->stacks);
	for (guint i = 0; s->stats && i < s->stats->len; i++)
		ftl_histo_free(g_array_index(s->stats, FtlSpanStats, i).histo);
	if (s->stats)
		g_array_unref(s->stats);
	if (s->by_dur)
		g_array_unref(s->by_dur);
	g_free(s);
}

/* function_graph depths belong to a task (its return stack follows it across
 * CPUs), so frames are kept per pid; the idle tasks (pid 0 on every CPU) and
 * unknown pids fall back to one stack per CPU. */
static GArray *spans_stack(FtlSpans *s, const FtlEvent *ev)
{
	gint key = ev->pid > 0 ? ev->pid : -(ev->cpu + 2);
	if (s->last_stack && s->last_key == key)
		return s->last_stack;
	GArray *st = g_hash_table_lookup(s->stacks, GINT_TO_POINTER(key));
	if (!st) {
		st = g_array_new(FALSE, TRUE, sizeof(SpansFrame));
		g_hash_table_insert(s->stacks, GINT_TO_POINTER(key), st);
	}
	s->last_key = key;
	s->last_stack = st;
	return st;
}

static SpansFrame *spans_frame(GArray *st, gint32 depth)
{
	if ((guint)depth >= st->len)
		g_array_set_size(st, (guint)depth + 1);
	return &g_array_index(st, SpansFrame, depth);
}

/* Keeps the frame stacks up to date; TRUE with *out filled for an exit whose
 * duration is known (printed, or exit time minus entry time). */
static gboolean spans_track(FtlSpans *s, const FtlEvent *ev, SpansSample *out)
{
	if (ev->kind != FTL_EVENT_FUNC_ENTRY && ev->kind != FTL_EVENT_FUNC_EXIT)
		return FALSE;
	gint32 d = ev->u.graph.depth;
	if (d < 0 || d >= SPANS_MAX_DEPTH)
		return FALSE;
	GArray *st = spans_stack(s, ev);
	SpansFrame *f = spans_frame(st, d);
	if (ev->kind == FTL_EVENT_FUNC_ENTRY) {
		*f = (SpansFrame){ ev->u.graph.func, ev->ts, 0, TRUE };
		return FALSE;
	}
	const char *func = ev->u.graph.func ? ev->u.graph.func : f->valid ? f->func : NULL;
	gint64 dur = ev->u.graph.duration;
	if (dur == FTL_TS_NONE && f->valid && f->entry_ts != FTL_TS_NONE && ev->ts != FTL_TS_NONE)
		dur = ftl_sat_sub_i64(ev->ts, f->entry_ts);
	gint64 children = f->child_sum;
	*f = (SpansFrame){ NULL, FTL_TS_NONE, 0, FALSE };
	if (dur == FTL_TS_NONE)
		return FALSE;
	if (d > 0)
		spans_frame(st, d - 1)->child_sum = ftl_sat_add_i64(spans_frame(st, d - 1)->child_sum, dur);
	out->func = func ? func : "?";
	out->total = dur;
	/* rounding in the printed durations can make the children look longer */
	out->self = MAX(ftl_sat_sub_i64(dur, children), 0);
	return TRUE;
}

static void spans_account(SpansOpen *o, const FtlEvent *ev, const SpansSample *sample)
{
	o->events++;
	SpansCpuAcc *acc = o->last;
	if (!acc || acc->pub.cpu != ev->cpu) {
		acc = g_hash_table_lookup(o->cpus, GINT_TO_POINTER(ev->cpu));
		if (!acc) {
			acc = g_new0(SpansCpuAcc, 1);
			acc->pub.cpu = ev->cpu;
			acc->funcs = g_hash_table_new_full(g_str_hash, g_str_equal, NULL, g_free);
			g_hash_table_insert(o->cpus, GINT_TO_POINTER(ev->cpu), acc);
		}
		o->last = acc;
	}
	acc->pub.events++;
	if (ev->kind == FTL_EVENT_SCHED_SWITCH || ev->kind == FTL_EVENT_TASK_SWITCH)
		acc->pub.switches++;
	if (ev->kind == FTL_EVENT_FUNC_EXIT)
		acc->pub.exits++;
	if (!sample)
		return;
	FtlSpanFunc *fn = g_hash_table_lookup(acc->funcs, sample->func);
	if (!fn) {
		fn = g_new0(FtlSpanFunc, 1);
		fn->func = sample->func;
		g_hash_table_insert(acc->funcs, (gpointer)sample->func, fn);
	}
	fn->calls++;
	fn->self_ns += sample->self;
	fn->total_ns += sample->total;
}

static int spans_cmp_func(const void *a, const void *b)
{
	const FtlSpanFunc *x = a, *y = b;
	if (x->self_ns != y->self_ns)
		return x->self_ns > y->self_ns ? -1 : 1;
	return strcmp(x->func, y->func);
}

static int spans_cmp_cpu(const void *a, const void *b)
{
	const FtlSpanCpu *x = a, *y = b;
	return (x->cpu > y->cpu) - (x->cpu < y->cpu);
}

/* Turns an open span into a finished one; o is freed. */
static void spans_close(FtlSpans *s, SpansOpen *o, const FtlEvent *end_ev)
{
	SpansDone *d = g_new0(SpansDone, 1);
	d->ord = o->ord;
	d->span.start = o->start;
	o->start.text = NULL;
	o->start.caller = NULL;
	d->span.key = g_steal_pointer(&o->key);
	markers_fill(&d->span.end, end_ev);
	d->span.duration = d->span.start.ts != FTL_TS_NONE && d->span.end.ts != FTL_TS_NONE
				   ? d->span.end.ts - d->span.start.ts
				   : FTL_TS_NONE;
	d->span.events = o->events;
	d->span.n_cpus = g_hash_table_size(o->cpus);
	d->span.cpus = g_new0(FtlSpanCpu, d->span.n_cpus);
	GHashTableIter hi;
	gpointer v;
	guint i = 0;
	g_hash_table_iter_init(&hi, o->cpus);
	while (g_hash_table_iter_next(&hi, NULL, &v)) {
		SpansCpuAcc *acc = v;
		FtlSpanCpu *c = &d->span.cpus[i++];
		*c = acc->pub;
		c->n_funcs = g_hash_table_size(acc->funcs);
		c->funcs = g_new0(FtlSpanFunc, c->n_funcs);
		GHashTableIter fi;
		gpointer fv;
		guint k = 0;
		g_hash_table_iter_init(&fi, acc->funcs);
		while (g_hash_table_iter_next(&fi, NULL, &fv))
			c->funcs[k++] = *(FtlSpanFunc *)fv;
		if (c->n_funcs > 1)
			qsort(c->funcs, c->n_funcs, sizeof *c->funcs, spans_cmp_func);
	}
	if (d->span.n_cpus > 1)
		qsort(d->span.cpus, d->span.n_cpus, sizeof *d->span.cpus, spans_cmp_cpu);
	g_ptr_array_add(s->done, d);
	spans_open_free(o);
}

/* Closes the most recent open start whose end pattern text matches. */
static gboolean spans_try_close(FtlSpans *s, const FtlEvent *ev, const char *text)
{
	for (guint i = s->open->len; i-- > 0;) {
		SpansOpen *o = g_ptr_array_index(s->open, i);
		if (!o->end_re || !g_regex_match(o->end_re, text, 0, NULL))
			continue;
		spans_close(s, g_ptr_array_steal_index(s->open, i), ev);
		return TRUE;
	}
	return FALSE;
}

static void spans_open(FtlSpans *s, const FtlEvent *ev, const GMatchInfo *info)
{
	SpansOpen *o = g_new0(SpansOpen, 1);
	o->ord = s->n_started++;
	markers_fill(&o->start, ev);
	gint groups = g_match_info_get_match_count(info);
	if (groups > 1) {
		GString *key = g_string_new(NULL);
		for (gint i = 1; i < groups; i++) {
			g_autofree char *grp = g_match_info_fetch(info, i);
			if (i > 1)
				g_string_append_c(key, ' ');
			g_string_append(key, grp ? grp : "");
		}
		o->key = g_string_free(key, FALSE);
	}
	if (s->end_re) {
		o->end_re = g_regex_ref(s->end_re);
	} else {
		g_autofree char *pat = spans_expand(s->end_pattern, info, NULL);
		/* escaped text cannot break a pattern that compiled with (?:.*) in
		 * its place; if it ever does, the start stays unmatched */
		o->end_re = g_regex_new(pat, G_REGEX_RAW, 0, NULL);
	}
	o->cpus = g_hash_table_new_full(g_direct_hash, g_direct_equal, NULL, spans_cpu_acc_free);
	g_ptr_array_add(s->open, o);
}

void ftl_spans_feed(FtlSpans *s, const FtlEvent *ev)
{
	SpansSample sample;
	gboolean have_sample = spans_track(s, ev, &sample);
	g_autofree char *text = NULL;
	gboolean closed = FALSE;
	if (ev->kind == FTL_EVENT_MARKER) {
		text = g_strndup(ev->u.marker.text.p ? ev->u.marker.text.p : "",
				 ev->u.marker.text.len);
		closed = spans_try_close(s, ev, text);
	}
	/* the markers of a span are its bounds, not events inside it; they are
	 * inside any span that encloses it */
	for (guint i = 0; i < s->open->len; i++)
		spans_account(g_ptr_array_index(s->open, i), ev, have_sample ? &sample : NULL);
	if (!text || closed)
		return;
	g_autoptr(GMatchInfo) info = NULL;
	if (g_regex_match(s->start_re, text, 0, &info))
		spans_open(s, ev, info);
	else if (g_regex_match(s->end_any_re, text, 0, NULL))
		s->unmatched_ends++;
}

static int spans_cmp_done(gconstpointer a, gconstpointer b)
{
	const SpansDone *x = *(SpansDone *const *)a, *y = *(SpansDone *const *)b;
	return (x->ord > y->ord) - (x->ord < y->ord);
}

typedef struct {
	FtlSpanStats st;
} SpansKeyAcc;

static void spans_key_add(SpansKeyAcc *a, const FtlSpan *sp, guint i, const FtlSpans *s)
{
	if (!ftl_histo_count(a->st.histo) ||
	    sp->duration > ftl_spans_get(s, a->st.slowest)->duration)
		a->st.slowest = i;
	ftl_histo_add(a->st.histo, sp->duration);
}

static void spans_key_finish(SpansKeyAcc *a)
{
	FtlSpanStats *st = &a->st;
	st->count = ftl_histo_count(st->histo);
	if (!st->count) {
		st->min = st->avg = st->p50 = st->p95 = st->p99 = st->max = FTL_TS_NONE;
		return;
	}
	st->min = ftl_histo_min(st->histo);
	st->max = ftl_histo_max(st->histo);
	st->avg = ftl_histo_sum(st->histo) / (gint64)st->count;
	st->p50 = ftl_histo_percentile(st->histo, 50);
	st->p95 = ftl_histo_percentile(st->histo, 95);
	st->p99 = ftl_histo_percentile(st->histo, 99);
}

static int spans_cmp_stats(const void *a, const void *b)
{
	const FtlSpanStats *x = a, *y = b;
	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	return strcmp(x->key, y->key);
}

static int spans_cmp_by_dur(gconstpointer a, gconstpointer b, gpointer data)
{
	const FtlSpans *s = data;
	guint i = *(const guint *)a, k = *(const guint *)b;
	gint64 x = ftl_spans_get(s, i)->duration, y = ftl_spans_get(s, k)->duration;
	if (x != y)
		return x > y ? -1 : 1;
	return (i > k) - (i < k);
}

/* The statistics per key and the spans by duration. */
static void spans_stats(FtlSpans *s)
{
	SpansKeyAcc all = { { .histo = ftl_histo_new() } };
	g_autoptr(GHashTable) keys = g_hash_table_new_full(g_str_hash, g_str_equal, NULL, g_free);
	s->by_dur = g_array_new(FALSE, FALSE, sizeof(guint));
	for (guint i = 0; i < ftl_spans_count(s); i++) {
		const FtlSpan *sp = ftl_spans_get(s, i);
		SpansKeyAcc *a = sp->key ? g_hash_table_lookup(keys, sp->key) : NULL;
		if (sp->key && !a) {
			a = g_new0(SpansKeyAcc, 1);
			a->st.key = sp->key;
			a->st.histo = ftl_histo_new();
			g_hash_table_insert(keys, sp->key, a);
		}
		if (sp->duration == FTL_TS_NONE)
			continue;
		g_array_append_val(s->by_dur, i);
		spans_key_add(&all, sp, i, s);
		if (a)
			spans_key_add(a, sp, i, s);
	}
	g_array_sort_with_data(s->by_dur, spans_cmp_by_dur, s);
	s->stats = g_array_new(FALSE, FALSE, sizeof(FtlSpanStats));
	spans_key_finish(&all);
	g_array_append_val(s->stats, all.st);
	GHashTableIter it;
	gpointer v;
	g_hash_table_iter_init(&it, keys);
	while (g_hash_table_iter_next(&it, NULL, &v)) {
		spans_key_finish(v);
		g_array_append_val(s->stats, ((SpansKeyAcc *)v)->st);
	}
	if (s->stats->len > 2)
		qsort(&g_array_index(s->stats, FtlSpanStats, 1), s->stats->len - 1,
		      sizeof(FtlSpanStats), spans_cmp_stats);
}

void ftl_spans_finish(FtlSpans *s)
{
	s->unmatched_starts += s->open->len;
	g_ptr_array_set_size(s->open, 0);
	g_ptr_array_sort(s->done, spans_cmp_done);
	g_hash_table_remove_all(s->stacks);
	s->last_stack = NULL;
	spans_stats(s);
}

guint ftl_spans_n_stats(const FtlSpans *s)
{
	return s->stats ? s->stats->len : 0;
}

const FtlSpanStats *ftl_spans_stats(const FtlSpans *s, guint i)
{
	g_return_val_if_fail(s->stats && i < s->stats->len, NULL);
	return &g_array_index(s->stats, FtlSpanStats, i);
}

guint ftl_spans_by_duration(const FtlSpans *s, guint rank)
{
	g_return_val_if_fail(s->by_dur && rank < s->by_dur->len, 0);
	return g_array_index(s->by_dur, guint, rank);
}

guint ftl_spans_count(const FtlSpans *s)
{
	return s->done->len;
}

const FtlSpan *ftl_spans_get(const FtlSpans *s, guint i)
{
	g_return_val_if_fail(i < s->done->len, NULL);
	return &((SpansDone *)g_ptr_array_index(s->done, i))->span;
}

guint ftl_spans_unmatched_starts(const FtlSpans *s)
{
	return s->unmatched_starts;
}

guint ftl_spans_n_open(const FtlSpans *s)
{
	return s->open->len;
}

guint ftl_spans_unmatched_ends(const FtlSpans *s)
{
	return s->unmatched_ends;
}

FTL_CONSUMER_DEFINE_KINDS(markers, FtlMarkers, FTL_PASS_KIND(FTL_EVENT_MARKER));

FTL_CONSUMER_DEFINE(spans, FtlSpans);
