/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `ftlens markers`: the trace's markers with deltas and wall times, and spans
 * between start/end markers with what each CPU did inside them. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "analysis/markers.h"
#include "cli/cli.h"
#include "util/error.h"
#include "util/timefmt.h"
#include "views/info.h"
#include "views/table.h"
#include "util/escape.h"

#define MARKERS_WIDTH 100
/* Text shows the details of this many spans; CSV and JSON show all. */
#define MARKERS_TEXT_SPANS 20

typedef struct {
	FtlFormat format;
	gint64 origin;	     /* FTL_TS_NONE: absolute times */
	gint64 wall_offset;  /* FTL_TS_NONE: no wall clock */
	gboolean wall_dates; /* text: the markers fall on more than one UTC date */
	guint top;
} MarkersView;

static gint64 markers_rel(const MarkersView *v, gint64 ts)
{
	return ts == FTL_TS_NONE || v->origin == FTL_TS_NONE ? ts : ts - v->origin;
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

/* Text as the text view shows it: valid UTF-8, control characters as \xNN,
 * and at most max characters, cut at the end (the start of a marker is what
 * tells markers apart). max 0: not cut. */
static char *markers_visible(const char *s, guint max)
{
	GString *out = g_string_new(NULL);
	ftl_escape_append(out, s, -1);
	if (max && ftl_escape_width(out->str) > max) {
		g_string_truncate(out, ftl_escape_fit(out->str, max - 1));
		g_string_append_c(out, '~');
	}
	return g_string_free(out, FALSE);
}

static void markers_widen(guint *w, const char *s)
{
	*w = MAX(*w, (guint)g_utf8_strlen(s, -1));
}

static char *markers_comm(const FtlMarker *mk)
{
	/* as dump shows it: "<...>" for a task the input did not name */
	const char *c = mk->comm ? mk->comm : mk->pid >= 0 ? "<...>" : NULL;
	return g_strdup(c);
}

static char *markers_wall(const MarkersView *v, const FtlMarker *mk)
{
	if (v->wall_offset == FTL_TS_NONE || mk->ts == FTL_TS_NONE)
		return NULL;
	gboolean text = v->format == FTL_FORMAT_TEXT;
	return markers_wall_format(mk->ts + v->wall_offset, !text, !text || v->wall_dates);
}

/* The width left for the text column once the others are as wide as their
 * widest cell, so that the text, not the comm, is what gets cut. */
static guint markers_text_budget(const MarkersView *v, const FtlMarkers *m, const char *time_title)
{
	guint w_ts = (guint)strlen(time_title), w_delta = 5, w_cpu = 3, w_pid = 3, w_comm = 4;
	guint w_wall = v->wall_offset != FTL_TS_NONE ? 10 : 0;
	char buf[64];
	for (guint i = 0; i < ftl_markers_count(m); i++) {
		const FtlMarker *mk = ftl_markers_get(m, i);
		markers_widen(&w_ts, ftl_time_format_us(markers_rel(v, mk->ts), buf, sizeof buf));
		markers_widen(&w_delta, ftl_duration_format(mk->delta, buf, sizeof buf));
		g_snprintf(buf, sizeof buf, "%d", mk->cpu);
		markers_widen(&w_cpu, buf);
		g_snprintf(buf, sizeof buf, "%d", mk->pid);
		markers_widen(&w_pid, buf);
		g_autofree char *comm = markers_comm(mk);
		if (comm) {
			g_autofree char *vis = markers_visible(comm, 0);
			markers_widen(&w_comm, vis);
		}
		g_autofree char *wall = markers_wall(v, mk);
		if (wall)
			markers_widen(&w_wall, wall);
	}
	guint used = w_ts + w_delta + w_cpu + w_pid + w_comm + 2 * 5 + (w_wall ? w_wall + 2 : 0);
	return used + 12 < MARKERS_WIDTH ? MARKERS_WIDTH - used : 12;
}

static FtlTable *markers_table(const MarkersView *v, const FtlMarkers *m)
{
	gboolean text = v->format == FTL_FORMAT_TEXT;
	gboolean rel = v->origin != FTL_TS_NONE;
	gboolean wall = v->wall_offset != FTL_TS_NONE;
	FtlTable *t = ftl_table_new("markers");
	guint c_ts = G_MAXUINT, c_rel = G_MAXUINT, c_origin = G_MAXUINT, c_line = G_MAXUINT;
	guint c_wall_ns = G_MAXUINT, c_wall = G_MAXUINT, n = 0;
	const char *time_title = rel ? "time (rel)" : "time";
	if (text) {
		c_rel = n++;
		ftl_table_add_column(t, "ts_ns", time_title, FTL_COL_TS);
	} else {
		c_ts = n++;
		ftl_table_add_column(t, "ts_ns", "time", FTL_COL_TS);
		if (rel) {
			c_rel = n++;
			ftl_table_add_column(t, "rel_ts_ns", "time (rel)", FTL_COL_TS);
		}
	}
	guint c_delta = n++;
	ftl_table_add_column(t, "delta_ns", "delta", FTL_COL_NS);
	guint c_cpu = n++;
	ftl_table_add_column(t, "cpu", "cpu", FTL_COL_INT);
	guint c_pid = n++;
	ftl_table_add_column(t, "pid", "pid", FTL_COL_INT);
	guint c_comm = n++;
	ftl_table_add_column(t, "comm", "comm", text ? FTL_COL_VSTR : FTL_COL_STR);
	if (!text) {
		c_origin = n++;
		ftl_table_add_column(t, "origin", "origin", FTL_COL_STR);
		c_line = n++;
		ftl_table_add_column(t, "line", "line", FTL_COL_INT);
	}
	if (wall && !text) {
		c_wall_ns = n++;
		ftl_table_add_column(t, "wall_ns", "wall ns", FTL_COL_INT);
	}
	if (wall) {
		c_wall = n++;
		ftl_table_add_column(t, "wall", "wall (UTC)", FTL_COL_STR);
	}
	guint c_text = n++;
	ftl_table_add_column(t, "text", "text", text ? FTL_COL_VSTR : FTL_COL_STR);
	guint budget = text ? markers_text_budget(v, m, time_title) : 0;

	for (guint i = 0; i < ftl_markers_count(m); i++) {
		const FtlMarker *mk = ftl_markers_get(m, i);
		ftl_table_begin_row(t);
		if (c_ts != G_MAXUINT && mk->ts != FTL_TS_NONE)
			ftl_table_set_int(t, c_ts, mk->ts);
		if (c_rel != G_MAXUINT && mk->ts != FTL_TS_NONE)
			ftl_table_set_int(t, c_rel, markers_rel(v, mk->ts));
		if (mk->delta != FTL_TS_NONE)
			ftl_table_set_int(t, c_delta, mk->delta);
		if (mk->cpu >= 0)
			ftl_table_set_int(t, c_cpu, mk->cpu);
		if (mk->pid >= 0)
			ftl_table_set_int(t, c_pid, mk->pid);
		g_autofree char *comm = markers_comm(mk);
		if (text && comm) {
			g_autofree char *vis = markers_visible(comm, 0);
			ftl_table_set_str(t, c_comm, vis);
		} else {
			ftl_table_set_str(t, c_comm, comm);
		}
		if (c_origin != G_MAXUINT)
			ftl_table_set_str(t, c_origin, markers_origin_name(mk->origin));
		if (c_line != G_MAXUINT && mk->line)
			ftl_table_set_int(t, c_line, (gint64)mk->line);
		if (wall && mk->ts != FTL_TS_NONE) {
			if (c_wall_ns != G_MAXUINT)
				ftl_table_set_int(t, c_wall_ns, mk->ts + v->wall_offset);
			g_autofree char *w = markers_wall(v, mk);
			ftl_table_set_str(t, c_wall, w);
		}
		if (text) {
			g_autofree char *vis = markers_visible(mk->text, budget);
			ftl_table_set_str(t, c_text, vis);
		} else {
			ftl_table_set_str(t, c_text, mk->text);
		}
	}
	return t;
}

static FtlTable *markers_spans_table(const MarkersView *v, const FtlSpans *s)
{
	gboolean text = v->format == FTL_FORMAT_TEXT;
	gboolean rel = v->origin != FTL_TS_NONE;
	FtlTable *t = ftl_table_new("spans");
	ftl_table_add_column(t, "span", "#", FTL_COL_INT);
	if (text) {
		ftl_table_add_column(t, "start_ts_ns", rel ? "start (rel)" : "start", FTL_COL_TS);
		ftl_table_add_column(t, "end_ts_ns", rel ? "end (rel)" : "end", FTL_COL_TS);
	} else {
		ftl_table_add_column(t, "start_ts_ns", "start", FTL_COL_TS);
		ftl_table_add_column(t, "end_ts_ns", "end", FTL_COL_TS);
		if (rel) {
			ftl_table_add_column(t, "start_rel_ts_ns", "start (rel)", FTL_COL_TS);
			ftl_table_add_column(t, "end_rel_ts_ns", "end (rel)", FTL_COL_TS);
		}
	}
	ftl_table_add_column(t, "duration_ns", "duration", FTL_COL_NS);
	ftl_table_add_column(t, "events", "events", FTL_COL_INT);
	if (!text) {
		ftl_table_add_column(t, "start_line", "start line", FTL_COL_INT);
		ftl_table_add_column(t, "end_line", "end line", FTL_COL_INT);
		ftl_table_add_column(t, "start_cpu", "start cpu", FTL_COL_INT);
		ftl_table_add_column(t, "end_cpu", "end cpu", FTL_COL_INT);
	}
	ftl_table_add_column(t, "start_text", "start text", text ? FTL_COL_VSTR : FTL_COL_STR);
	ftl_table_add_column(t, "end_text", "end text", text ? FTL_COL_VSTR : FTL_COL_STR);
	guint budget[2] = { 0, 0 };
	if (text) {
		/* as for markers: cut the two texts, not the numbers */
		guint w_start = 5, w_end = 3, w_dur = 8, w_ev = 6, w_n = 1;
		char buf[64];
		for (guint i = 0; i < ftl_spans_count(s); i++) {
			const FtlSpan *sp = ftl_spans_get(s, i);
			markers_widen(&w_start, ftl_time_format_us(markers_rel(v, sp->start.ts),
								   buf, sizeof buf));
			markers_widen(&w_end, ftl_time_format_us(markers_rel(v, sp->end.ts), buf,
								 sizeof buf));
			markers_widen(&w_dur, ftl_duration_format(sp->duration, buf, sizeof buf));
			g_snprintf(buf, sizeof buf, "%" G_GUINT64_FORMAT, sp->events);
			markers_widen(&w_ev, buf);
			g_snprintf(buf, sizeof buf, "%u", i + 1);
			markers_widen(&w_n, buf);
		}
		if (rel) {
			w_start = MAX(w_start, strlen("start (rel)"));
			w_end = MAX(w_end, strlen("end (rel)"));
		}
		guint need[2] = { strlen("start text"), strlen("end text") };
		for (guint i = 0; i < ftl_spans_count(s); i++) {
			const FtlSpan *sp = ftl_spans_get(s, i);
			const char *texts[2] = { sp->start.text, sp->end.text };
			for (guint k = 0; k < 2; k++) {
				g_autofree char *vis = markers_visible(texts[k], 0);
				markers_widen(&need[k], vis);
			}
		}
		guint used = w_n + w_start + w_end + w_dur + w_ev + 2 * 6;
		guint room = used + 24 < MARKERS_WIDTH ? MARKERS_WIDTH - used : 24;
		/* the shorter text keeps its width when it fits in half the room */
		for (guint k = 0; k < 2; k++)
			budget[k] = need[1 - k] <= room / 2 ? room - need[1 - k]
				    : need[k] <= room / 2   ? need[k]
							    : room / 2;
	}
	for (guint i = 0; i < ftl_spans_count(s); i++) {
		const FtlSpan *sp = ftl_spans_get(s, i);
		guint c = 0;
		ftl_table_begin_row(t);
		ftl_table_set_int(t, c++, i + 1);
		const gint64 ts[2] = { sp->start.ts, sp->end.ts };
		for (guint k = 0; k < 2; k++, c++)
			if (ts[k] != FTL_TS_NONE)
				ftl_table_set_int(t, c, text ? markers_rel(v, ts[k]) : ts[k]);
		if (!text && rel)
			for (guint k = 0; k < 2; k++, c++)
				if (ts[k] != FTL_TS_NONE)
					ftl_table_set_int(t, c, markers_rel(v, ts[k]));
		if (sp->duration != FTL_TS_NONE)
			ftl_table_set_int(t, c, sp->duration);
		c++;
		ftl_table_set_int(t, c++, (gint64)sp->events);
		if (!text) {
			if (sp->start.line)
				ftl_table_set_int(t, c, (gint64)sp->start.line);
			c++;
			if (sp->end.line)
				ftl_table_set_int(t, c, (gint64)sp->end.line);
			c++;
			if (sp->start.cpu >= 0)
				ftl_table_set_int(t, c, sp->start.cpu);
			c++;
			if (sp->end.cpu >= 0)
				ftl_table_set_int(t, c, sp->end.cpu);
			c++;
		}
		const char *texts[2] = { sp->start.text, sp->end.text };
		for (guint k = 0; k < 2; k++, c++) {
			g_autofree char *valid = NULL;
			if (text)
				valid = markers_visible(texts[k], budget[k]);
			ftl_table_set_str(t, c, valid ? valid : texts[k]);
		}
	}
	return t;
}

/* The per-CPU rows of spans first..last (0-based, exclusive); the span column
 * when the table holds several spans (CSV, JSON). */
static FtlTable *markers_cpus_table(const FtlSpans *s, guint first, guint last, gboolean multi)
{
	FtlTable *t = ftl_table_new("span_cpus");
	guint n = multi ? 1 : 0;
	if (multi)
		ftl_table_add_column(t, "span", "span", FTL_COL_INT);
	ftl_table_add_column(t, "cpu", "cpu", FTL_COL_INT);
	ftl_table_add_column(t, "events", "events", FTL_COL_INT);
	ftl_table_add_column(t, "switches", "switches", FTL_COL_INT);
	ftl_table_add_column(t, "exits", "func exits", FTL_COL_INT);
	for (guint i = first; i < last; i++) {
		const FtlSpan *sp = ftl_spans_get(s, i);
		for (guint k = 0; k < sp->n_cpus; k++) {
			const FtlSpanCpu *c = &sp->cpus[k];
			ftl_table_begin_row(t);
			if (multi)
				ftl_table_set_int(t, 0, i + 1);
			if (c->cpu >= 0)
				ftl_table_set_int(t, n, c->cpu);
			ftl_table_set_int(t, n + 1, (gint64)c->events);
			ftl_table_set_int(t, n + 2, (gint64)c->switches);
			ftl_table_set_int(t, n + 3, (gint64)c->exits);
		}
	}
	return t;
}

static FtlTable *markers_funcs_table(const MarkersView *v, const FtlSpans *s, guint first,
				     guint last, gboolean multi)
{
	FtlTable *t = ftl_table_new("span_functions");
	guint n = multi ? 1 : 0;
	if (multi)
		ftl_table_add_column(t, "span", "span", FTL_COL_INT);
	ftl_table_add_column(t, "cpu", "cpu", FTL_COL_INT);
	ftl_table_add_column(t, "rank", "#", FTL_COL_INT);
	ftl_table_add_column(t, "func", "function (top by self time)", FTL_COL_STR);
	ftl_table_add_column(t, "calls", "calls", FTL_COL_INT);
	ftl_table_add_column(t, "self_ns", "self", FTL_COL_NS);
	ftl_table_add_column(t, "total_ns", "total", FTL_COL_NS);
	for (guint i = first; i < last; i++) {
		const FtlSpan *sp = ftl_spans_get(s, i);
		for (guint k = 0; k < sp->n_cpus; k++) {
			const FtlSpanCpu *c = &sp->cpus[k];
			for (guint f = 0; f < c->n_funcs && f < v->top; f++) {
				ftl_table_begin_row(t);
				if (multi)
					ftl_table_set_int(t, 0, i + 1);
				if (c->cpu >= 0)
					ftl_table_set_int(t, n, c->cpu);
				ftl_table_set_int(t, n + 1, f + 1);
				ftl_table_set_str(t, n + 2, c->funcs[f].func);
				ftl_table_set_int(t, n + 3, (gint64)c->funcs[f].calls);
				ftl_table_set_int(t, n + 4, c->funcs[f].self_ns);
				ftl_table_set_int(t, n + 5, c->funcs[f].total_ns);
			}
		}
	}
	return t;
}

/* Patterns are text too: control characters never reach the terminal. */
static void markers_puts_visible(const char *s)
{
	ftl_escape_fputs(s, stdout);
	fputc('\n', stdout);
}

static void markers_print_spans_text(const MarkersView *v, const FtlSpans *s, const char *start,
				     const char *end)
{
	guint n = ftl_spans_count(s), us = ftl_spans_unmatched_starts(s),
	      ue = ftl_spans_unmatched_ends(s);
	gboolean untimed = FALSE;
	for (guint i = 0; i < n; i++)
		untimed |= ftl_spans_get(s, i)->duration == FTL_TS_NONE;
	g_autofree char *head = g_strdup_printf(
		"spans '%s' .. '%s': %u span%s, %u unmatched start%s, %u unmatched end%s", start,
		end, n, n == 1 ? "" : "s", us, us == 1 ? "" : "s", ue, ue == 1 ? "" : "s");
	printf("\n");
	markers_puts_visible(head);
	if (untimed)
		printf("duration unknown: the input has no timestamps, so a span is the events "
		       "between\nits two marker lines in input order\n");
	if (!n)
		return;
	g_autoptr(FtlTable) spans = markers_spans_table(v, s);
	ftl_table_print_text(spans, stdout, 0, MARKERS_WIDTH);
	guint shown = MIN(n, MARKERS_TEXT_SPANS);
	for (guint i = 0; i < shown; i++) {
		const FtlSpan *sp = ftl_spans_get(s, i);
		char dbuf[48];
		printf("\nspan %u: %s\n", i + 1,
		       sp->duration == FTL_TS_NONE
			       ? "duration unknown"
			       : ftl_duration_format(sp->duration, dbuf, sizeof dbuf));
		g_autoptr(FtlTable) cpus = markers_cpus_table(s, i, i + 1, FALSE);
		ftl_table_print_text(cpus, stdout, 0, MARKERS_WIDTH);
		g_autoptr(FtlTable) funcs = markers_funcs_table(v, s, i, i + 1, FALSE);
		if (ftl_table_n_rows(funcs))
			ftl_table_print_text(funcs, stdout, 0, MARKERS_WIDTH);
	}
	if (shown < n)
		printf("\n(%u more spans; --format csv or json lists all)\n", n - shown);
}

/* --span takes two values, which GOption cannot: take "--span START END" (or
 * "--span=START END") out of argv before the options are parsed. */
static gboolean markers_take_span(int *argc, char **argv, char **start, char **end, GError **error)
{
	int out = 1;
	gboolean operands = FALSE;
	for (int i = 1; i < *argc; i++) {
		const char *a = argv[i];
		int take = 0;
		const char *s = NULL, *e = NULL;
		if (operands || strcmp(a, "--") == 0) {
			operands = TRUE;
		} else if (strcmp(a, "--span") == 0) {
			if (i + 2 >= *argc)
				goto missing;
			s = argv[i + 1];
			e = argv[i + 2];
			take = 3;
		} else if (g_str_has_prefix(a, "--span=")) {
			if (i + 1 >= *argc)
				goto missing;
			s = a + strlen("--span=");
			e = argv[i + 1];
			take = 2;
		}
		if (!take) {
			argv[out++] = argv[i];
			continue;
		}
		if (*start) {
			g_set_error(error, FTL_ERROR, FTL_ERROR_USAGE,
				    "markers: --span given twice");
			return FALSE;
		}
		*start = g_strdup(s);
		*end = g_strdup(e);
		i += take - 1;
	}
	*argc = out;
	argv[out] = NULL;
	return TRUE;
missing:
	g_set_error(error, FTL_ERROR, FTL_ERROR_USAGE,
		    "markers: --span needs two patterns: --span START END");
	return FALSE;
}

static FtlTable *markers_summary_table(const FtlSpans *s, const char *start, const char *end)
{
	FtlTable *t = ftl_table_new("span_summary");
	ftl_table_add_column(t, "start_pattern", "start pattern", FTL_COL_STR);
	ftl_table_add_column(t, "end_pattern", "end pattern", FTL_COL_STR);
	ftl_table_add_column(t, "spans", "spans", FTL_COL_INT);
	ftl_table_add_column(t, "unmatched_starts", "unmatched starts", FTL_COL_INT);
	ftl_table_add_column(t, "unmatched_ends", "unmatched ends", FTL_COL_INT);
	ftl_table_begin_row(t);
	ftl_table_set_str(t, 0, start);
	ftl_table_set_str(t, 1, end);
	ftl_table_set_int(t, 2, ftl_spans_count(s));
	ftl_table_set_int(t, 3, ftl_spans_unmatched_starts(s));
	ftl_table_set_int(t, 4, ftl_spans_unmatched_ends(s));
	return t;
}

static void markers_json_int_or_null(JsonBuilder *b, const char *key, gint64 v)
{
	json_builder_set_member_name(b, key);
	if (v == FTL_TS_NONE)
		json_builder_add_null_value(b);
	else
		json_builder_add_int_value(b, v);
}

gboolean ftl_cmd_markers(int argc, char **argv, GError **error)
{
	g_autofree char *format = NULL;
	g_autofree char *span_start = NULL;
	g_autofree char *span_end = NULL;
	char *span_help = NULL; /* never set: --span is taken out of argv first */
	gint top = 5;
	const GOptionEntry entries[] = {
		{ "span", 0, 0, G_OPTION_ARG_STRING, &span_help,
		  "Pair markers into spans: START and END are regexes; END may use \\1..\\9 "
		  "for START's groups",
		  "START END" },
		{ "top", 0, 0, G_OPTION_ARG_INT, &top,
		  "Functions shown per CPU and span (by self time; default 5)", "N" },
		{ "format", 'F', 0, G_OPTION_ARG_STRING, &format,
		  "Output format: text, csv or json", "FMT" },
		{ NULL },
	};
	if (!markers_take_span(&argc, argv, &span_start, &span_end, error))
		return FALSE;
	g_auto(FtlCliGlobals) g = { 0 };
	gboolean parsed = ftl_cli_parse(ftl_cli_find("markers"), entries, &g, &argc, &argv, error);
	g_free(span_help);
	if (!parsed)
		return FALSE;
	MarkersView v = { FTL_FORMAT_TEXT, FTL_TS_NONE, FTL_TS_NONE, FALSE, 5 };
	if (format && !ftl_format_parse(format, &v.format, error)) {
		g_prefix_error(error, "markers: ");
		return FALSE;
	}
	if (top < 0) {
		g_set_error(error, FTL_ERROR, FTL_ERROR_USAGE, "markers: --top %d: expected N >= 0",
			    top);
		return FALSE;
	}
	v.top = (guint)top;
	g_autoptr(FtlSpans) spans = NULL;
	if (span_start && !(spans = ftl_spans_new(span_start, span_end, error)))
		return FALSE;
	if (!ftl_cli_time_origin(&g, argc, argv, error))
		return FALSE;
	g_autoptr(FtlTrace) trace = ftl_cli_open_trace(&g, argc, argv, error);
	if (!trace)
		return FALSE;
	g_autoptr(FtlMarkers) m = ftl_markers_new();
	g_autoptr(FtlIter) it = ftl_iter_new(trace, &g.filter);
	const FtlEvent *ev;
	FtlStatus st;
	while ((st = ftl_iter_next(it, &ev, error)) == FTL_STATUS_OK) {
		ftl_markers_feed(m, ev);
		if (spans)
			ftl_spans_feed(spans, ev);
	}
	if (st == FTL_STATUS_ERROR)
		return FALSE;
	ftl_markers_finish(m);
	if (spans)
		ftl_spans_finish(spans);

	v.origin = g.origin_ns;
	v.wall_offset = g.wall_offset_ns;
	guint anchor = 0;
	gboolean auto_wall =
		v.wall_offset == FTL_TS_NONE && ftl_markers_wall_anchor(m, &anchor, &v.wall_offset);
	if (v.wall_offset != FTL_TS_NONE) {
		gint64 first = FTL_TS_NONE;
		for (guint i = 0; i < ftl_markers_count(m); i++) {
			gint64 ts = ftl_markers_get(m, i)->ts;
			if (ts == FTL_TS_NONE)
				continue;
			if (first == FTL_TS_NONE)
				first = ts;
			else if (!markers_same_date(first + v.wall_offset, ts + v.wall_offset))
				v.wall_dates = TRUE;
		}
	}

	g_autoptr(FtlTable) mt = markers_table(&v, m);
	if (v.format == FTL_FORMAT_JSON) {
		g_autoptr(JsonBuilder) b = json_builder_new();
		json_builder_begin_object(b);
		markers_json_int_or_null(b, "origin_ns", v.origin);
		markers_json_int_or_null(b, "wall_offset_ns", v.wall_offset);
		ftl_table_add_json(mt, b);
		if (spans) {
			guint n = ftl_spans_count(spans);
			g_autoptr(FtlTable) spt = markers_spans_table(&v, spans);
			g_autoptr(FtlTable) ct = markers_cpus_table(spans, 0, n, TRUE);
			g_autoptr(FtlTable) ft = markers_funcs_table(&v, spans, 0, n, TRUE);
			json_builder_set_member_name(b, "start_pattern");
			ftl_json_add_text(b, span_start);
			json_builder_set_member_name(b, "end_pattern");
			ftl_json_add_text(b, span_end);
			ftl_table_add_json(spt, b);
			json_builder_set_member_name(b, "unmatched_starts");
			json_builder_add_int_value(b, ftl_spans_unmatched_starts(spans));
			json_builder_set_member_name(b, "unmatched_ends");
			json_builder_add_int_value(b, ftl_spans_unmatched_ends(spans));
			ftl_table_add_json(ct, b);
			ftl_table_add_json(ft, b);
		}
		json_builder_end_object(b);
		g_autoptr(JsonNode) root = json_builder_get_root(b);
		ftl_json_print(root, stdout);
	} else if (v.format == FTL_FORMAT_CSV) {
		g_autoptr(FtlTable) sum = NULL, spt = NULL, ct = NULL, ft = NULL;
		if (spans) {
			guint n = ftl_spans_count(spans);
			sum = markers_summary_table(spans, span_start, span_end);
			spt = markers_spans_table(&v, spans);
			ct = markers_cpus_table(spans, 0, n, TRUE);
			ft = markers_funcs_table(&v, spans, 0, n, TRUE);
		}
		const FtlTable *all[] = { mt, sum, spt, ct, ft };
		ftl_table_print_csv_all(stdout, all, G_N_ELEMENTS(all));
	} else {
		if (v.origin != FTL_TS_NONE) {
			g_autofree char *line = g_strdup_printf(
				"times relative to the first marker matching '%s'", g.relative_to);
			markers_puts_visible(line);
		}
		if (auto_wall)
			printf("wall clock (UTC) from the marker at line %" G_GUINT64_FORMAT "\n",
			       ftl_markers_get(m, anchor)->line);
		else if (v.wall_offset != FTL_TS_NONE)
			printf("wall clock (UTC) from --wallclock\n");
		ftl_table_print_text(mt, stdout, 0, MARKERS_WIDTH);
		printf("%u marker%s\n", ftl_markers_count(m), ftl_markers_count(m) == 1 ? "" : "s");
		if (spans)
			markers_print_spans_text(&v, spans, span_start, span_end);
	}
	if (ftl_diags_any(ftl_trace_diags(trace)))
		ftl_diags_print_text(stderr, ftl_trace_diags(trace));
	return TRUE;
}
