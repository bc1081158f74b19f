/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Data quality: the per-CPU summary (events, spans, lost events), the header
 * counts, and the window in which every CPU's data is complete, with caveats
 * in plain sentences. */
#include "analysis/quality.h"

#include <string.h>

#include "util/slots.h"
#include "util/timefmt.h"
#include "util/checked.h"

/* A CPU whose first event comes later than the earliest CPU's by more than
 * this share of the whole span is said to start late. Idle CPUs start a bit
 * late in any trace; a tenth of the span is well past that noise. */
#define QUALITY_LATE_SHARE 10

typedef struct {
	FtlCpuQuality pub;
	gboolean seen;
	/* A LOST line has no timestamp in text traces: the loss ends where the
	 * next event of that CPU begins, so it stays pending until then. */
	gboolean lost_pending;
	guint64 lost_counted;	/* the counts LOST marks give */
	guint64 lost_uncounted; /* LOST marks that give none */
	gint64 lost_resume_ts; /* timestamp after the last resolved LOST line */
	const char *lost_file; /* where the last LOST line was (borrowed from its source) */
	guint64 lost_line;
} QualityCpu;

struct _FtlQuality {
	FtlTrace *trace;
	GArray *slots; /* QualityCpu, index cpu + 1 (slot 0: events without a CPU) */
	GArray *rows;  /* QualityCpu, the seen slots sorted by cpu, after finish */
	FtlCpuQuality total;
	GPtrArray *caveats;
	gint64 win_start, win_end;
	gint64 evicted;
	gboolean finished;
};

FtlQuality *ftl_quality_new(FtlTrace *trace)
{
	FtlQuality *q = g_new0(FtlQuality, 1);
	q->trace = trace;
	q->slots = g_array_new(FALSE, TRUE, sizeof(QualityCpu));
	q->rows = g_array_new(FALSE, TRUE, sizeof(QualityCpu));
	q->caveats = g_ptr_array_new_with_free_func(g_free);
	q->win_start = q->win_end = FTL_TS_NONE;
	q->evicted = -1;
	return q;
}

void ftl_quality_free(FtlQuality *q)
{
	if (!q)
		return;
	g_array_unref(q->slots);
	g_array_unref(q->rows);
	g_ptr_array_unref(q->caveats);
	g_free(q);
}

/* slot 0 holds the events without a CPU */
static void quality_slot_init(gpointer slot, guint idx)
{
	QualityCpu *s = slot;
	s->pub.cpu = (gint32)idx - 1;
	s->pub.first_ts = s->pub.last_ts = FTL_TS_NONE;
	s->pub.overrun = -1;
	s->lost_resume_ts = FTL_TS_NONE;
}

static QualityCpu *quality_slot(FtlQuality *q, gint32 cpu)
{
	QualityCpu *s = ftl_slots_get(q->slots, cpu < 0 ? 0 : (guint)cpu + 1, sizeof(QualityCpu),
				      quality_slot_init);
	s->seen = TRUE;
	return s;
}

void ftl_quality_feed(FtlQuality *q, const FtlEvent *ev)
{
	if (ev->cpu >= 65536)
		return;
	QualityCpu *s = quality_slot(q, ev->cpu);
	s->pub.events++;
	/* A synthesized event repeats a line already fed (a leaf's exit); its
	 * computed time is no line's timestamp. */
	if (ev->flags & FTL_EVENT_F_SYNTH)
		return;
	if (ev->kind == FTL_EVENT_LOST) {
		s->pub.lost_lines++;
		if (ev->u.lost.count)
			s->lost_counted = ftl_sat_add_u64(s->lost_counted, ev->u.lost.count);
		else
			s->lost_uncounted++;
		s->lost_file = ev->src ? ev->src->path : NULL;
		s->lost_line = ev->line;
		if (ev->ts != FTL_TS_NONE) {
			/* Binary inputs know when the loss was noticed. */
			s->lost_resume_ts = MAX(s->lost_resume_ts, ev->ts);
			s->lost_pending = FALSE;
		} else {
			s->lost_pending = TRUE;
		}
		return;
	}
	if (ev->kind == FTL_EVENT_BUFFER_START) {
		s->pub.buffer_started++;
		return;
	}
	s->pub.event_lines++;
	if (ev->ts == FTL_TS_NONE)
		return;
	if (s->pub.first_ts == FTL_TS_NONE || ev->ts < s->pub.first_ts)
		s->pub.first_ts = ev->ts;
	if (s->pub.last_ts == FTL_TS_NONE || ev->ts > s->pub.last_ts)
		s->pub.last_ts = ev->ts;
	if (s->lost_pending) {
		s->lost_pending = FALSE;
		s->lost_resume_ts = MAX(s->lost_resume_ts, ev->ts);
	}
}

/* Each CPU's lost events by the one rule (model/trace.h), the statistics'
 * overrun, and the whole trace's sums. */
static void quality_lost_and_total(FtlQuality *q)
{
	FtlCpuQuality *t = &q->total;
	memset(t, 0, sizeof *t);
	t->cpu = -1;
	t->first_ts = t->last_ts = FTL_TS_NONE;
	gboolean all_stats = q->rows->len > 0;
	gint64 overrun = 0;
	for (guint i = 0; i < q->rows->len; i++) {
		QualityCpu *c = &g_array_index(q->rows, QualityCpu, i);
		c->pub.lost_events = ftl_trace_cpu_lost(q->trace, c->pub.cpu, c->lost_counted,
							c->lost_uncounted);
		const FtlCpuStats *st = ftl_trace_cpustats(q->trace, c->pub.cpu);
		c->pub.overrun = st ? (gint64)MIN(st->overrun, (guint64)G_MAXINT64) : -1;
		if (c->pub.overrun < 0)
			all_stats = FALSE;
		else
			overrun = ftl_lost_sum(overrun, c->pub.overrun);
		t->events += c->pub.events;
		t->event_lines += c->pub.event_lines;
		t->lost_lines += c->pub.lost_lines;
		t->buffer_started += c->pub.buffer_started;
		t->lost_events = ftl_lost_sum(t->lost_events, c->pub.lost_events);
		if (c->pub.first_ts != FTL_TS_NONE) {
			if (t->first_ts == FTL_TS_NONE || c->pub.first_ts < t->first_ts)
				t->first_ts = c->pub.first_ts;
			if (t->last_ts == FTL_TS_NONE || c->pub.last_ts > t->last_ts)
				t->last_ts = c->pub.last_ts;
		}
	}
	t->overrun = all_stats ? overrun : -1;
	/* the statistics count per CPU; the header, where it is the kernel's,
	 * says the same sum */
	gint64 in_buffer, written;
	ftl_trace_header_entries(q->trace, &in_buffer, &written);
	if (t->overrun >= 0)
		q->evicted = t->overrun;
	else if (in_buffer >= 0 && written >= 0)
		q->evicted = MAX(written - in_buffer, 0);
}

static gint quality_row_cmp(gconstpointer a, gconstpointer b)
{
	const QualityCpu *x = a, *y = b;
	return (x->pub.cpu > y->pub.cpu) - (x->pub.cpu < y->pub.cpu);
}

static const char *quality_basename(const char *path)
{
	if (!path)
		return "?";
	const char *s = strrchr(path, '/');
	return s && s[1] ? s + 1 : path;
}

static void quality_caveat_lost(FtlQuality *q, const QualityCpu *c)
{
	char t[64];
	GString *s = g_string_new(NULL);
	g_string_append_printf(s, "CPU %d lost ", c->pub.cpu);
	if (c->pub.lost_events == FTL_LOST_UNKNOWN)
		g_string_append(s, "events (how many is not given)");
	else
		g_string_append_printf(s, "%" G_GINT64_FORMAT " events", c->pub.lost_events);
	if (c->pub.overrun >= 0)
		g_string_append(s, " (its ring-buffer statistics say)");
	if (!c->pub.lost_lines) {
		g_string_append(s, "; no mark in the data says where");
		g_ptr_array_add(q->caveats, g_string_free(s, FALSE));
		return;
	}
	g_string_append_printf(s, " in %" G_GUINT64_FORMAT " LOST line%s", c->pub.lost_lines,
			       c->pub.lost_lines == 1 ? "" : "s");
	const char *which = c->pub.lost_lines == 1 ? "" : "the last ";
	if (c->lost_pending)
		g_string_append_printf(s, ", %safter its last event", which);
	else if (c->lost_resume_ts != FTL_TS_NONE)
		g_string_append_printf(s, ", %sbefore %s", which,
				       ftl_time_format_us(c->lost_resume_ts, t, sizeof t));
	g_string_append_printf(s, " (%s:%" G_GUINT64_FORMAT ")", quality_basename(c->lost_file),
			       c->lost_line);
	g_ptr_array_add(q->caveats, g_string_free(s, FALSE));
}

static void quality_caveats(FtlQuality *q, gint64 min_first, gint64 max_last)
{
	char t1[64], d[64];
	gboolean any_ts = min_first != FTL_TS_NONE;
	if (!any_ts && q->total.event_lines)
		g_ptr_array_add(q->caveats,
				g_strdup("The input has no timestamps: no CPU has a time span and "
					 "there is no complete window to report."));
	if (q->evicted > 0)
		g_ptr_array_add(
			q->caveats,
			g_strdup_printf("%s %" G_GINT64_FORMAT " events were "
					"overwritten before the trace was read%s: the oldest "
					"data is gone.",
					q->total.overrun >= 0 ? "The CPU statistics say"
							      : "The header says",
					q->evicted,
					q->total.overrun >= 0
						? ""
						: " (entries-written minus entries-in-buffer)"));
	for (guint i = 0; i < q->rows->len; i++) {
		const QualityCpu *c = &g_array_index(q->rows, QualityCpu, i);
		if (c->pub.lost_lines || c->pub.lost_events > 0)
			quality_caveat_lost(q, c);
	}
	if (any_ts) {
		/* damaged binary inputs can carry absurd timestamps: no overflow */
		gint64 span;
		if (__builtin_sub_overflow(max_last, min_first, &span))
			span = G_MAXINT64;
		const QualityCpu *earliest = NULL;
		for (guint i = 0; i < q->rows->len; i++) {
			const QualityCpu *c = &g_array_index(q->rows, QualityCpu, i);
			if (c->pub.first_ts == min_first) {
				earliest = c;
				break;
			}
		}
		for (guint i = 0; i < q->rows->len; i++) {
			const QualityCpu *c = &g_array_index(q->rows, QualityCpu, i);
			if (c->pub.first_ts == FTL_TS_NONE || c->pub.cpu < 0 || c == earliest)
				continue;
			gint64 gap;
			if (__builtin_sub_overflow(c->pub.first_ts, min_first, &gap) || gap <= 0)
				continue;
			ftl_time_format_us(c->pub.first_ts, t1, sizeof t1);
			ftl_duration_format(gap, d, sizeof d);
			if (c->pub.buffer_started)
				g_ptr_array_add(
					q->caveats,
					g_strdup_printf("CPU %d starts at %s, %s after CPU %d: "
							"the kernel marked its buffer as started "
							"late, its older events were overwritten.",
							c->pub.cpu, t1, d, earliest->pub.cpu));
			else if (gap > span / QUALITY_LATE_SHARE && c->pub.overrun != 0)
				/* not when its statistics say it overwrote none */
				g_ptr_array_add(
					q->caveats,
					g_strdup_printf("CPU %d starts at %s, %s after CPU %d: "
							"its older events were probably "
							"overwritten (in overwrite mode a busy "
							"CPU's buffer wraps first).",
							c->pub.cpu, t1, d, earliest->pub.cpu));
		}
		if (q->win_start == FTL_TS_NONE)
			g_ptr_array_add(
				q->caveats,
				g_strdup("There is no time window in which every CPU's data "
					 "is complete."));
	}
	const QualityCpu *nocpu = q->rows->len ? &g_array_index(q->rows, QualityCpu, 0) : NULL;
	if (nocpu && nocpu->pub.cpu < 0 && q->rows->len > 1 && nocpu->pub.event_lines)
		g_ptr_array_add(q->caveats,
				g_strdup_printf("%" G_GUINT64_FORMAT " events carry no CPU number.",
						nocpu->pub.event_lines));
}

void ftl_quality_finish(FtlQuality *q)
{
	if (q->finished)
		return;
	q->finished = TRUE;
	for (guint i = 0; i < q->slots->len; i++) {
		QualityCpu *s = &g_array_index(q->slots, QualityCpu, i);
		if (s->seen)
			g_array_append_val(q->rows, *s);
	}
	g_array_sort(q->rows, quality_row_cmp);
	quality_lost_and_total(q);

	gint64 start = FTL_TS_NONE, end = FTL_TS_NONE, min_first = FTL_TS_NONE,
	       max_last = FTL_TS_NONE;
	for (guint i = 0; i < q->rows->len; i++) {
		const QualityCpu *c = &g_array_index(q->rows, QualityCpu, i);
		/* A CPU with no timestamped event adds no bound. */
		if (c->pub.first_ts == FTL_TS_NONE)
			continue;
		start = start == FTL_TS_NONE ? c->pub.first_ts : MAX(start, c->pub.first_ts);
		end = end == FTL_TS_NONE ? c->pub.last_ts : MIN(end, c->pub.last_ts);
		min_first = min_first == FTL_TS_NONE ? c->pub.first_ts
						     : MIN(min_first, c->pub.first_ts);
		max_last = max_last == FTL_TS_NONE ? c->pub.last_ts : MAX(max_last, c->pub.last_ts);
	}
	if (start != FTL_TS_NONE) {
		/* Data before a loss is not complete on that CPU; a loss after a
		 * CPU's last event lies past end already. */
		for (guint i = 0; i < q->rows->len; i++) {
			const QualityCpu *c = &g_array_index(q->rows, QualityCpu, i);
			if (c->lost_resume_ts != FTL_TS_NONE)
				start = MAX(start, c->lost_resume_ts);
		}
		if (start <= end) {
			q->win_start = start;
			q->win_end = end;
		}
	}
	quality_caveats(q, min_first, max_last);
}

guint ftl_quality_n_cpus(const FtlQuality *q)
{
	return q->rows->len;
}

const FtlCpuQuality *ftl_quality_cpu(const FtlQuality *q, guint i)
{
	g_return_val_if_fail(i < q->rows->len, NULL);
	return &g_array_index(q->rows, QualityCpu, i).pub;
}

const FtlCpuQuality *ftl_quality_total(const FtlQuality *q)
{
	return &q->total;
}

gint64 ftl_quality_window_start(const FtlQuality *q)
{
	return q->win_start;
}

gint64 ftl_quality_window_end(const FtlQuality *q)
{
	return q->win_end;
}

gint64 ftl_quality_evicted(const FtlQuality *q)
{
	return q->evicted;
}

gboolean ftl_quality_covers(const FtlQuality *q, gint64 t0, gint64 t1)
{
	if (q->win_start == FTL_TS_NONE || t0 == FTL_TS_NONE || t1 == FTL_TS_NONE)
		return FALSE;
	return t0 >= q->win_start && t1 <= q->win_end && t0 <= t1;
}

GPtrArray *ftl_quality_caveats(const FtlQuality *q)
{
	return q->caveats;
}

FTL_CONSUMER_DEFINE(quality, FtlQuality);
