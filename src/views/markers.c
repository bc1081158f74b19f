/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The views of `ftlens markers`: the markers table and the spans tables. */
#include "config.h"

#include "views/markers.h"

#include <string.h>

#include "util/escape.h"
#include "util/timefmt.h"
#include "views/merge.h"

/* Text shows the details of this many spans; CSV and JSON show all. */
#define MARKERS_TEXT_SPANS 20
/* Text ranks this many spans by duration; CSV and JSON give every span its rank. */
#define MARKERS_TEXT_SLOWEST 10

typedef struct {
	const FtlMarkersViewOptions *opt;
	gboolean text;
	gboolean wall_dates; /* text: the markers fall on more than one UTC date */
	guint anchor;	     /* the marker the wall clock comes from */
} MarkersView;

static gint64 markers_rel(const MarkersView *v, gint64 ts)
{
	return ts == FTL_TS_NONE || v->opt->origin == FTL_TS_NONE ? ts : ts - v->opt->origin;
}

/* ISO 8601 UTC: with the date and ns, or (text, all on one date) the time of
 * day in us, which is what fits next to the marker text. */
static char *markers_wall_format(gint64 wall_ns, gboolean full, gboolean date)
{
	gint64 sec = wall_ns / 1000000000, ns = wall_ns % 1000000000;
	if (ns < 0) {
		sec--;
		ns += 1000000000;
	}
	g_autoptr(GDateTime) dt = g_date_time_new_from_unix_utc(sec);
	if (!dt)
		return g_strdup("?");
	g_autofree char *base = g_date_time_format(dt, date ? "%Y-%m-%dT%H:%M:%S" : "%H:%M:%S");
	if (full)
		return g_strdup_printf("%s.%09" G_GINT64_FORMAT "Z", base, ns);
	return g_strdup_printf("%s.%06" G_GINT64_FORMAT "%s", base, ns / 1000, date ? "Z" : "");
}

static gboolean markers_same_date(gint64 a_ns, gint64 b_ns)
{
	const gint64 day = G_GINT64_CONSTANT(86400000000000);
	gint64 a = a_ns / day - (a_ns % day < 0), b = b_ns / day - (b_ns % day < 0);
	return a == b;
}

static const char *markers_origin_name(FtlMarkerOrigin o)
{
	switch (o) {
	case FTL_MARKER_TRACE_MARKER:
		return "trace_marker";
	case FTL_MARKER_PRINTK:
		return "printk";
	case FTL_MARKER_COMMENT:
		return "comment";
	}
	return "?";
}

static char *markers_wall(const MarkersView *v, const FtlMarker *mk)
{
	if (v->opt->wall_offset == FTL_TS_NONE || mk->ts == FTL_TS_NONE)
		return NULL;
	return markers_wall_format(mk->ts + v->opt->wall_offset, !v->text,
				   !v->text || v->wall_dates);
}

enum {
	M_TS,
	M_REL,
	M_DELTA,
	M_CPU,
	M_PID,
	M_COMM,
	M_ORIGIN,
	M_CALLER,
	M_LINE,
	M_WALL_NS,
	M_WALL,
	M_TEXT
};
/* comm is never cut, so that the marker text is what gets cut to fit */
static const FtlColumn markers_cols[] = {
	[M_TS] = { "ts_ns", "time", FTL_COL_TS },
	[M_REL] = { "rel_ts_ns", "time (rel)", FTL_COL_TS },
	[M_DELTA] = { "delta_ns", "delta", FTL_COL_NS },
	[M_CPU] = { "cpu", "cpu", FTL_COL_INT },
	[M_PID] = { "pid", "pid", FTL_COL_INT },
	[M_COMM] = { "comm", "comm", FTL_COL_STR, FTL_COL_NO_CUT },
	[M_ORIGIN] = { "origin", "origin", FTL_COL_STR, FTL_COL_HIDE_TEXT },
	[M_CALLER] = { "caller", "caller", FTL_COL_STR, FTL_COL_HIDE_TEXT },
	[M_LINE] = { "line", "line", FTL_COL_INT, FTL_COL_HIDE_TEXT },
	[M_WALL_NS] = { "wall_ns", "wall ns", FTL_COL_INT, FTL_COL_HIDE_TEXT },
	[M_WALL] = { "wall", "wall (UTC)", FTL_COL_STR, FTL_COL_NO_CUT },
	[M_TEXT] = { "text", "text", FTL_COL_STR, FTL_COL_KEEP_START },
};

static FtlTable *markers_table(const MarkersView *v, const FtlMarkers *m)
{
	gboolean rel = v->opt->origin != FTL_TS_NONE;
	gboolean wall = v->opt->wall_offset != FTL_TS_NONE;
	FtlTable *t = ftl_table_new("markers", markers_cols, G_N_ELEMENTS(markers_cols));
	/* text shows one time column, relative when asked */
	if (v->text)
		ftl_table_omit(t, rel ? M_TS : M_REL);
	else if (!rel)
		ftl_table_omit(t, M_REL);
	if (!wall) {
		ftl_table_omit(t, M_WALL_NS);
		ftl_table_omit(t, M_WALL);
	}
	for (guint i = 0; i < ftl_markers_count(m); i++) {
		const FtlMarker *mk = ftl_markers_get(m, i);
		ftl_table_begin_row(t);
		if (mk->ts != FTL_TS_NONE) {
			ftl_table_set_int(t, M_TS, mk->ts);
			ftl_table_set_int(t, M_REL, markers_rel(v, mk->ts));
		}
		if (mk->delta != FTL_TS_NONE)
			ftl_table_set_int(t, M_DELTA, mk->delta);
		if (mk->cpu >= 0)
			ftl_table_set_int(t, M_CPU, mk->cpu);
		if (mk->pid >= 0)
			ftl_table_set_int(t, M_PID, mk->pid);
		/* as dump shows it: "<...>" for a task the input did not name */
		ftl_table_set_str(t, M_COMM, mk->comm ? mk->comm : mk->pid >= 0 ? "<...>" : NULL);
		ftl_table_set_str(t, M_ORIGIN, markers_origin_name(mk->origin));
		ftl_table_set_str(t, M_CALLER, mk->caller);
		if (mk->line)
			ftl_table_set_int(t, M_LINE, (gint64)mk->line);
		if (wall && mk->ts != FTL_TS_NONE) {
			ftl_table_set_int(t, M_WALL_NS, mk->ts + v->opt->wall_offset);
			g_autofree char *w = markers_wall(v, mk);
			ftl_table_set_str(t, M_WALL, w);
		}
		ftl_table_set_str(t, M_TEXT, mk->text);
	}
	return t;
}

enum {
	S_SPAN,
	S_RANK,
	S_START,
	S_END,
	S_START_REL,
	S_END_REL,
	S_DURATION,
	S_EVENTS,
	S_START_LINE,
	S_END_LINE,
	S_START_CPU,
	S_END_CPU,
	S_KEY,
	S_START_TEXT,
	S_END_TEXT,
	S_AT
};
static const FtlColumn spans_cols[] = {
	[S_SPAN] = { "span", "#", FTL_COL_INT },
	[S_START] = { "start_ts_ns", "start", FTL_COL_TS },
	[S_END] = { "end_ts_ns", "end", FTL_COL_TS },
	[S_START_REL] = { "start_rel_ts_ns", "start (rel)", FTL_COL_TS },
	[S_END_REL] = { "end_rel_ts_ns", "end (rel)", FTL_COL_TS },
	[S_DURATION] = { "duration_ns", "duration", FTL_COL_NS },
	[S_EVENTS] = { "events", "events", FTL_COL_INT },
	[S_START_LINE] = { "start_line", "start line", FTL_COL_INT, FTL_COL_HIDE_TEXT },
	[S_END_LINE] = { "end_line", "end line", FTL_COL_INT, FTL_COL_HIDE_TEXT },
	[S_START_CPU] = { "start_cpu", "start cpu", FTL_COL_INT, FTL_COL_HIDE_TEXT },
	[S_END_CPU] = { "end_cpu", "end cpu", FTL_COL_INT, FTL_COL_HIDE_TEXT },
	[S_START_TEXT] = { "start_text", "start text", FTL_COL_STR, FTL_COL_KEEP_START },
	[S_END_TEXT] = { "end_text", "end text", FTL_COL_STR, FTL_COL_KEEP_START },
	[S_RANK] = { "rank", "#", FTL_COL_INT },
	[S_KEY] = { "key", "key", FTL_COL_STR },
	[S_AT] = FTL_COLUMN_AT,
};

/* The spans in start order, or (ranked) the longest first, at most max
 * rows (0: all). */
static FtlTable *markers_spans_table(const MarkersView *v, const FtlSpans *s, gboolean ranked,
				     guint max)
{
	gboolean rel = v->opt->origin != FTL_TS_NONE;
	FtlTable *t = ftl_table_new(ranked ? "slowest_spans" : "spans", spans_cols,
				    G_N_ELEMENTS(spans_cols));
	if (v->text && rel) {
		ftl_table_omit(t, S_START);
		ftl_table_omit(t, S_END);
	} else if (!rel || v->text) {
		ftl_table_omit(t, S_START_REL);
		ftl_table_omit(t, S_END_REL);
	}
	guint n = ranked ? ftl_spans_stats(s, 0)->count : ftl_spans_count(s);
	if (max && n > max)
		n = max;
	/* rank by span index, for the table in start order */
	g_autofree guint *rank = g_new0(guint, ftl_spans_count(s) + 1);
	for (guint r = 0; r < ftl_spans_stats(s, 0)->count; r++)
		rank[ftl_spans_by_duration(s, r)] = r + 1;
	if (v->text && (!ranked || ftl_spans_n_stats(s) < 2))
		ftl_table_omit(t, S_KEY);
	/* the text list of spans keeps its texts at the line's end; the
	 * slowest ones carry the rank and the time to paste */
	if (v->text && !ranked) {
		ftl_table_omit(t, S_RANK);
		ftl_table_omit(t, S_AT);
	}
	if (ranked) {
		ftl_table_set_title(t, S_SPAN, "span");
		ftl_table_omit(t, S_EVENTS);
		ftl_table_omit(t, S_END);
		ftl_table_omit(t, S_END_REL);
		ftl_table_omit(t, S_END_TEXT);
	}
	for (guint row = 0; row < n; row++) {
		guint i = ranked ? ftl_spans_by_duration(s, row) : row;
		const FtlSpan *sp = ftl_spans_get(s, i);
		ftl_table_begin_row(t);
		ftl_table_set_int(t, S_SPAN, i + 1);
		if (rank[i])
			ftl_table_set_int(t, S_RANK, rank[i]);
		ftl_table_set_str(t, S_KEY, sp->key);
		if (sp->start.ts != FTL_TS_NONE) {
			ftl_table_set_int(t, S_START, sp->start.ts);
			ftl_table_set_int(t, S_START_REL, markers_rel(v, sp->start.ts));
			ftl_table_set_at(t, S_AT, sp->start.ts);
		}
		if (sp->end.ts != FTL_TS_NONE) {
			ftl_table_set_int(t, S_END, sp->end.ts);
			ftl_table_set_int(t, S_END_REL, markers_rel(v, sp->end.ts));
		}
		if (sp->duration != FTL_TS_NONE)
			ftl_table_set_int(t, S_DURATION, sp->duration);
		ftl_table_set_int(t, S_EVENTS, (gint64)sp->events);
		if (sp->start.line)
			ftl_table_set_int(t, S_START_LINE, (gint64)sp->start.line);
		if (sp->end.line)
			ftl_table_set_int(t, S_END_LINE, (gint64)sp->end.line);
		if (sp->start.cpu >= 0)
			ftl_table_set_int(t, S_START_CPU, sp->start.cpu);
		if (sp->end.cpu >= 0)
			ftl_table_set_int(t, S_END_CPU, sp->end.cpu);
		ftl_table_set_str(t, S_START_TEXT, sp->start.text);
		ftl_table_set_str(t, S_END_TEXT, sp->end.text);
	}
	return t;
}

/* The per-CPU rows of spans first..last (0-based, exclusive); the span column
 * when the table holds several spans (CSV, JSON). */
static FtlTable *markers_cpus_table(const FtlSpans *s, guint first, guint last, gboolean multi)
{
	enum { C_SPAN, C_CPU, C_EVENTS, C_SWITCHES, C_EXITS };
	static const FtlColumn cols[] = {
		[C_SPAN] = { "span", "span", FTL_COL_INT },
		[C_CPU] = { "cpu", "cpu", FTL_COL_INT },
		[C_EVENTS] = { "events", "events", FTL_COL_INT },
		[C_SWITCHES] = { "switches", "switches", FTL_COL_INT },
		[C_EXITS] = { "exits", "func exits", FTL_COL_INT },
	};
	FtlTable *t = ftl_table_new("span_cpus", cols, G_N_ELEMENTS(cols));
	if (!multi)
		ftl_table_omit(t, C_SPAN);
	for (guint i = first; i < last; i++) {
		const FtlSpan *sp = ftl_spans_get(s, i);
		for (guint k = 0; k < sp->n_cpus; k++) {
			const FtlSpanCpu *c = &sp->cpus[k];
			ftl_table_begin_row(t);
			ftl_table_set_int(t, C_SPAN, i + 1);
			if (c->cpu >= 0)
				ftl_table_set_int(t, C_CPU, c->cpu);
			ftl_table_set_int(t, C_EVENTS, (gint64)c->events);
			ftl_table_set_int(t, C_SWITCHES, (gint64)c->switches);
			ftl_table_set_int(t, C_EXITS, (gint64)c->exits);
		}
	}
	return t;
}

static FtlTable *markers_funcs_table(const MarkersView *v, const FtlSpans *s, guint first,
				     guint last, gboolean multi)
{
	enum { F_SPAN, F_CPU, F_RANK, F_FUNC, F_CALLS, F_SELF, F_TOTAL };
	static const FtlColumn cols[] = {
		[F_SPAN] = { "span", "span", FTL_COL_INT },
		[F_CPU] = { "cpu", "cpu", FTL_COL_INT },
		[F_RANK] = { "rank", "#", FTL_COL_INT },
		[F_FUNC] = { "func", "function (top by self time)", FTL_COL_STR },
		[F_CALLS] = { "calls", "calls", FTL_COL_INT },
		[F_SELF] = { "self_ns", "self", FTL_COL_NS },
		[F_TOTAL] = { "total_ns", "total", FTL_COL_NS },
	};
	FtlTable *t = ftl_table_new("span_functions", cols, G_N_ELEMENTS(cols));
	if (!multi)
		ftl_table_omit(t, F_SPAN);
	for (guint i = first; i < last; i++) {
		const FtlSpan *sp = ftl_spans_get(s, i);
		for (guint k = 0; k < sp->n_cpus; k++) {
			const FtlSpanCpu *c = &sp->cpus[k];
			for (guint f = 0; f < c->n_funcs && f < v->opt->top; f++) {
				ftl_table_begin_row(t);
				ftl_table_set_int(t, F_SPAN, i + 1);
				if (c->cpu >= 0)
					ftl_table_set_int(t, F_CPU, c->cpu);
				ftl_table_set_int(t, F_RANK, f + 1);
				ftl_table_set_str(t, F_FUNC, c->funcs[f].func);
				ftl_table_set_int(t, F_CALLS, (gint64)c->funcs[f].calls);
				ftl_table_set_int(t, F_SELF, c->funcs[f].self_ns);
				ftl_table_set_int(t, F_TOTAL, c->funcs[f].total_ns);
			}
		}
	}
	return t;
}

/* Count, min, avg, percentiles and max of the span durations: all spans,
 * then each key. */
static FtlTable *markers_stats_table(const MarkersView *v, const FtlSpans *s)
{
	enum { T_KEY, T_COUNT, T_MIN, T_AVG, T_P50, T_P95, T_P99, T_MAX, T_SLOWEST };
	static const FtlColumn cols[] = {
		[T_KEY] = { "key", "spans", FTL_COL_STR, FTL_COL_KEEP_START },
		[T_COUNT] = { "count", "count", FTL_COL_INT },
		[T_MIN] = { "min_ns", "min", FTL_COL_NS },
		[T_AVG] = { "avg_ns", "avg", FTL_COL_NS },
		[T_P50] = { "p50_ns", "p50", FTL_COL_NS },
		[T_P95] = { "p95_ns", "p95", FTL_COL_NS },
		[T_P99] = { "p99_ns", "p99", FTL_COL_NS },
		[T_MAX] = { "max_ns", "max", FTL_COL_NS },
		[T_SLOWEST] = { "slowest_span", "slowest", FTL_COL_INT },
	};
	FtlTable *t = ftl_table_new("span_stats", cols, G_N_ELEMENTS(cols));
	for (guint i = 0; i < ftl_spans_n_stats(s); i++) {
		const FtlSpanStats *st = ftl_spans_stats(s, i);
		ftl_table_begin_row(t);
		/* text names the row of all spans; CSV and JSON leave its key null */
		if (st->key || v->text)
			ftl_table_set_str(t, T_KEY, st->key ? st->key : "(all)");
		ftl_table_set_int(t, T_COUNT, (gint64)st->count);
		if (!st->count)
			continue;
		ftl_table_set_int(t, T_MIN, st->min);
		ftl_table_set_int(t, T_AVG, st->avg);
		ftl_table_set_int(t, T_P50, st->p50);
		ftl_table_set_int(t, T_P95, st->p95);
		ftl_table_set_int(t, T_P99, st->p99);
		ftl_table_set_int(t, T_MAX, st->max);
		ftl_table_set_int(t, T_SLOWEST, st->slowest + 1);
	}
	return t;
}

static FtlTable *markers_summary_table(const FtlSpans *s, const char *start, const char *end)
{
	enum { P_START, P_END, P_SPANS, P_UNSTART, P_UNEND };
	static const FtlColumn cols[] = {
		[P_START] = { "start_pattern", "start pattern", FTL_COL_STR },
		[P_END] = { "end_pattern", "end pattern", FTL_COL_STR },
		[P_SPANS] = { "spans", "spans", FTL_COL_INT },
		[P_UNSTART] = { "unmatched_starts", "unmatched starts", FTL_COL_INT },
		[P_UNEND] = { "unmatched_ends", "unmatched ends", FTL_COL_INT },
	};
	FtlTable *t = ftl_table_new("span_summary", cols, G_N_ELEMENTS(cols));
	ftl_table_begin_row(t);
	ftl_table_set_str(t, P_START, start);
	ftl_table_set_str(t, P_END, end);
	ftl_table_set_int(t, P_SPANS, ftl_spans_count(s));
	ftl_table_set_int(t, P_UNSTART, ftl_spans_unmatched_starts(s));
	ftl_table_set_int(t, P_UNEND, ftl_spans_unmatched_ends(s));
	return t;
}

static void markers_print_spans_text(const MarkersView *v, const FtlSpans *s, FILE *out)
{
	guint n = ftl_spans_count(s), us = ftl_spans_unmatched_starts(s),
	      ue = ftl_spans_unmatched_ends(s);
	gboolean untimed = FALSE;
	for (guint i = 0; i < n; i++)
		untimed |= ftl_spans_get(s, i)->duration == FTL_TS_NONE;
	g_autofree char *head = g_strdup_printf(
		"spans '%s' .. '%s': %u span%s, %u unmatched start%s, %u unmatched end%s",
		v->opt->span_start, v->opt->span_end, n, n == 1 ? "" : "s", us, us == 1 ? "" : "s",
		ue, ue == 1 ? "" : "s");
	fputc('\n', out);
	ftl_escape_fputs(head, out); /* patterns are text too */
	fputc('\n', out);
	if (untimed)
		fprintf(out, "duration unknown: the input has no timestamps, so a span is the "
			     "events between\nits two marker lines in input order\n");
	if (!n)
		return;
	g_autoptr(FtlTable) spans = markers_spans_table(v, s, FALSE, 0);
	ftl_table_print_text(spans, out, 0, v->opt->style);
	if (ftl_spans_stats(s, 0)->count) {
		fputs("\nspan durations (percentiles: exact up to 256, else within 1.6%)\n", out);
		g_autoptr(FtlTable) stats = markers_stats_table(v, s);
		ftl_table_print_text(stats, out, 0, v->opt->style);
		fputs("\nslowest spans\n", out);
		g_autoptr(FtlTable) slow = markers_spans_table(v, s, TRUE, MARKERS_TEXT_SLOWEST);
		ftl_table_print_text(slow, out, 0, v->opt->style);
	}
	guint shown = MIN(n, MARKERS_TEXT_SPANS);
	for (guint i = 0; i < shown; i++) {
		const FtlSpan *sp = ftl_spans_get(s, i);
		char dbuf[48];
		fprintf(out, "\nspan %u: %s\n", i + 1,
			sp->duration == FTL_TS_NONE
				? "duration unknown"
				: ftl_duration_format(sp->duration, dbuf, sizeof dbuf));
		g_autoptr(FtlTable) cpus = markers_cpus_table(s, i, i + 1, FALSE);
		ftl_table_print_text(cpus, out, 0, v->opt->style);
		g_autoptr(FtlTable) funcs = markers_funcs_table(v, s, i, i + 1, FALSE);
		if (ftl_table_n_rows(funcs))
			ftl_table_print_text(funcs, out, 0, v->opt->style);
	}
	if (shown < n)
		fprintf(out, "\n(%u more spans; --format csv or json lists all)\n", n - shown);
}

static void markers_print_json(const MarkersView *v, FtlTable *mt, const FtlSpans *spans, FILE *out)
{
	g_autoptr(JsonBuilder) b = json_builder_new();
	json_builder_begin_object(b);
	ftl_merge_add_schema(b, FTL_SCHEMA_MARKERS);
	ftl_json_member_opt(b, "origin_ns", v->opt->origin, FTL_TS_NONE);
	ftl_json_member_opt(b, "wall_offset_ns", v->opt->wall_offset, FTL_TS_NONE);
	ftl_table_add_json(mt, b);
	if (spans) {
		guint n = ftl_spans_count(spans);
		g_autoptr(FtlTable) spt = markers_spans_table(v, spans, FALSE, 0);
		g_autoptr(FtlTable) ct = markers_cpus_table(spans, 0, n, TRUE);
		g_autoptr(FtlTable) ft = markers_funcs_table(v, spans, 0, n, TRUE);
		g_autoptr(FtlTable) stt = markers_stats_table(v, spans);
		ftl_json_member_text(b, "start_pattern", v->opt->span_start);
		ftl_table_add_json(stt, b);
		ftl_json_member_text(b, "end_pattern", v->opt->span_end);
		ftl_table_add_json(spt, b);
		ftl_json_member_int(b, "unmatched_starts", ftl_spans_unmatched_starts(spans));
		ftl_json_member_int(b, "unmatched_ends", ftl_spans_unmatched_ends(spans));
		ftl_table_add_json(ct, b);
		ftl_table_add_json(ft, b);
		/* the durations behind span statistics over many traces */
		ftl_merge_add_histo(b, "span_histogram", ftl_spans_stats(spans, 0)->histo);
	}
	json_builder_end_object(b);
	g_autoptr(JsonNode) root = json_builder_get_root(b);
	ftl_json_print(root, out);
}

static void markers_print_csv(const MarkersView *v, FtlTable *mt, const FtlSpans *spans, FILE *out)
{
	g_autoptr(FtlTable) sum = NULL, stt = NULL, spt = NULL, ct = NULL, ft = NULL;
	if (spans) {
		guint n = ftl_spans_count(spans);
		sum = markers_summary_table(spans, v->opt->span_start, v->opt->span_end);
		stt = markers_stats_table(v, spans);
		spt = markers_spans_table(v, spans, FALSE, 0);
		ct = markers_cpus_table(spans, 0, n, TRUE);
		ft = markers_funcs_table(v, spans, 0, n, TRUE);
	}
	const FtlTable *all[] = { mt, sum, spt, ct, ft, stt };
	ftl_table_print_csv_all(out, all, G_N_ELEMENTS(all));
}

static void markers_print_text(const MarkersView *v, const FtlMarkers *m, FtlTable *mt,
			       const FtlSpans *spans, FILE *out)
{
	if (v->opt->origin != FTL_TS_NONE) {
		g_autofree char *line = g_strdup_printf(
			"times relative to the first marker matching '%s'", v->opt->origin_pattern);
		ftl_escape_fputs(line, out);
		fputc('\n', out);
	}
	if (v->opt->wall_offset != FTL_TS_NONE && !v->opt->wall_from_option)
		fprintf(out, "wall clock (UTC) from the marker at line %" G_GUINT64_FORMAT "\n",
			ftl_markers_get(m, v->anchor)->line);
	else if (v->opt->wall_offset != FTL_TS_NONE)
		fprintf(out, "wall clock (UTC) from --wallclock\n");
	ftl_table_print_text(mt, out, 0, v->opt->style);
	fprintf(out, "%u marker%s\n", ftl_markers_count(m), ftl_markers_count(m) == 1 ? "" : "s");
	if (spans)
		markers_print_spans_text(v, spans, out);
}

void ftl_markers_print(const FtlMarkers *m, const FtlSpans *spans, const FtlMarkersViewOptions *opt,
		       FILE *out)
{
	MarkersView v = { opt, opt->format == FTL_FORMAT_TEXT, FALSE, 0 };
	if (opt->wall_offset != FTL_TS_NONE) {
		gint64 off;
		if (!opt->wall_from_option)
			ftl_markers_wall_anchor(m, &v.anchor, &off);
		gint64 first = FTL_TS_NONE;
		for (guint i = 0; i < ftl_markers_count(m); i++) {
			gint64 ts = ftl_markers_get(m, i)->ts;
			if (ts == FTL_TS_NONE)
				continue;
			if (first == FTL_TS_NONE)
				first = ts;
			else if (!markers_same_date(first + opt->wall_offset,
						    ts + opt->wall_offset))
				v.wall_dates = TRUE;
		}
	}
	g_autoptr(FtlTable) mt = markers_table(&v, m);
	if (opt->format == FTL_FORMAT_JSON)
		markers_print_json(&v, mt, spans, out);
	else if (opt->format == FTL_FORMAT_CSV)
		markers_print_csv(&v, mt, spans, out);
	else
		markers_print_text(&v, m, mt, spans, out);
}
