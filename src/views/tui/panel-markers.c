/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The Markers panel: trace_marker writes, trace_printk messages and
 * function_graph comments with time, CPU, task and the delta to the one
 * before; with --span START END, the spans' duration statistics, the
 * slowest spans and every span after them; Enter shows one in Events. */
#include "config.h"

#include "views/tui/app.h"

#include "util/escape.h"

/* The Markers panel ranks this many spans by duration. */
#define MARKERS_SLOWEST 10

static const char *markers_empty(FtlTuiApp *app)
{
	if (!app->model || (app->model->markers && (ftl_markers_count(app->model->markers) ||
						   (app->model->spans &&
						    ftl_spans_count(app->model->spans)))))
		return NULL;
	return "no trace_marker writes in this input";
}

static void markers_row(FtlTuiLines *l, FtlTuiApp *app, const FtlMarker *m, GString *buf)
{
	char t[48], d[32], cpu[16] = "";
	ftl_tui_app_time(app, m->ts, t, sizeof t);
	if (m->cpu >= 0)
		g_snprintf(cpu, sizeof cpu, "[%03d]", m->cpu);
	g_autoptr(GString) row = g_string_new(NULL);
	g_string_printf(row, "%14s %-5s ", t, cpu);
	if (m->pid >= 0) {
		g_autofree char *raw =
			g_strdup_printf("%s-%d", m->comm ? m->comm : "<...>", m->pid);
		ftl_tui_cell(row, ftl_tui_lines_raw(buf, raw, -1), 16, FALSE);
	} else {
		ftl_tui_cell(row, "-", 16, FALSE);
	}
	ftl_tui_duration(m->delta, d, sizeof d);
	g_string_append_printf(row, " %11s  %s", d, ftl_tui_lines_raw(buf, m->text, -1));
	FtlTuiLine *line = ftl_tui_lines_add(l, FTL_TUI_STYLE_NORMAL, "%s", row->str);
	line->ts = m->ts;
	line->line = m->line;
	line->cpu = m->cpu;
}

/* One line of span statistics, the figures `ftlens markers --span` prints
 * (analysis/markers.h); Enter goes to the slowest span of the row. */
static void markers_stats_row(FtlTuiLines *l, const FtlSpans *s, const FtlSpanStats *st,
			      GString *buf)
{
	char v[7][32];
	const gint64 ns[] = { st->min, st->avg, st->p50, st->p95, st->p99, st->max };
	for (guint k = 0; k < G_N_ELEMENTS(ns); k++)
		ftl_tui_duration(ns[k], v[k], sizeof v[k]);
	g_autoptr(GString) row = g_string_new(NULL);
	ftl_tui_cell_mid(row, ftl_tui_lines_raw(buf, st->key ? st->key : "(all)", -1), 24);
	g_string_append_printf(row, " %7" G_GUINT64_FORMAT " %11s %11s %11s %11s %11s %11s",
			       st->count, v[0], v[1], v[2], v[3], v[4], v[5]);
	FtlTuiLine *line = ftl_tui_lines_add(l, FTL_TUI_STYLE_NORMAL, "%s", row->str);
	if (!st->count)
		return;
	/* H: the durations of the row's spans, the figures above in bins */
	line->histo = st->histo;
	line->histo_title = g_strdup_printf(
		"Span durations, %s", ftl_tui_lines_raw(buf, st->key ? st->key : "all spans", -1));
	line->histo_noun = "spans";
	const FtlSpan *sp = ftl_spans_get(s, st->slowest);
	line->ts = sp->start.ts;
	line->line = sp->start.line;
	line->cpu = sp->start.cpu;
}

static void markers_stats(FtlTuiLines *l, const FtlSpans *s, GString *buf)
{
	if (!ftl_spans_n_stats(s) || !ftl_spans_stats(s, 0)->count)
		return;
	ftl_tui_lines_add(l, FTL_TUI_STYLE_HEADER, "%-24s %7s %11s %11s %11s %11s %11s %11s",
			  "Span durations (H)", "COUNT", "MIN", "AVG", "P50", "P95", "P99", "MAX");
	for (guint i = 0; i < ftl_spans_n_stats(s); i++)
		markers_stats_row(l, s, ftl_spans_stats(s, i), buf);
}

static void markers_span_row(FtlTuiLines *l, FtlTuiApp *app, const FtlSpans *s, guint i,
			     const char *rank, GString *buf)
{
	const FtlSpan *sp = ftl_spans_get(s, i);
	char t[48], d[32];
	ftl_tui_app_time(app, sp->start.ts, t, sizeof t);
	ftl_tui_duration(sp->duration, d, sizeof d);
	g_autofree char *start = g_strdup(ftl_tui_lines_raw(buf, sp->start.text, -1));
	FtlTuiLine *line = ftl_tui_lines_add(
		l, FTL_TUI_STYLE_NORMAL, "%4s %14s %11s %8" G_GUINT64_FORMAT " events  %s -> %s",
		rank, t, d, sp->events, start, ftl_tui_lines_raw(buf, sp->end.text, -1));
	line->ts = sp->start.ts;
	line->line = sp->start.line;
	line->cpu = sp->start.cpu;
}

/* The longest spans first, as `markers --span` ranks them. */
static void markers_slowest(FtlTuiLines *l, FtlTuiApp *app, const FtlSpans *s, GString *buf)
{
	guint n = MIN(ftl_spans_stats(s, 0)->count, MARKERS_SLOWEST);
	if (!n)
		return;
	ftl_tui_lines_add(l, FTL_TUI_STYLE_HEADER, "Slowest spans (%u of %" G_GUINT64_FORMAT ")",
			  n, ftl_spans_stats(s, 0)->count);
	for (guint r = 0; r < n; r++) {
		char rank[16];
		g_snprintf(rank, sizeof rank, "%u", r + 1);
		markers_span_row(l, app, s, ftl_spans_by_duration(s, r), rank, buf);
	}
}

static void markers_spans(FtlTuiLines *l, FtlTuiApp *app, const FtlSpans *s, GString *buf)
{
	ftl_tui_lines_add(
		l, FTL_TUI_STYLE_HEADER, "Spans (%u; starts left open: %u, ends unmatched: %u)",
		ftl_spans_count(s), ftl_spans_unmatched_starts(s), ftl_spans_unmatched_ends(s));
	for (guint i = 0; i < ftl_spans_count(s); i++)
		markers_span_row(l, app, s, i, "", buf);
}

static void markers_build(FtlTuiLines *l, FtlTuiApp *app, GString *header)
{
	if (!app->model)
		return;
	static const char *const titles[] = { "TIME", "DELTA", "SINCE A" };
	g_autofree char *cols = g_strdup_printf("%14s %-5s %-16s %11s  %s", titles[app->time_mode],
						"CPU", "TASK-PID", "SINCE PREV", "TEXT");
	g_autoptr(GString) buf = g_string_new(NULL);
	const FtlSpans *s = app->model->spans;
	const FtlMarkers *m = app->model->markers;
	if (!s) {
		g_string_assign(header, cols);
	} else {
		/* the figures first: thousands of markers would bury them */
		g_autofree char *end = ftl_escape(app->opt->span_end, -1);
		g_string_printf(header, "Spans '%s' .. '%s'",
				ftl_tui_lines_raw(buf, app->opt->span_start, -1), end);
		markers_stats(l, s, buf);
		markers_slowest(l, app, s, buf);
		if (ftl_markers_count(m))
			ftl_tui_lines_add(l, FTL_TUI_STYLE_HEADER, "%s", cols);
	}
	for (guint i = 0; i < ftl_markers_count(m); i++)
		markers_row(l, app, ftl_markers_get(m, i), buf);
	if (s)
		markers_spans(l, app, s, buf);
}

static FtlTuiPanel *markers_new(void)
{
	return ftl_tui_lines_panel_new(markers_build);
}

const FtlTuiPanelClass ftl_tui_markers_panel = {
	FTL_TUI_LINES_PANEL_METHODS, .id = FTL_TUI_PANEL_MARKERS,    .name = "Markers",
	.new = markers_new,	     .available = ftl_tui_app_has_events, .empty = markers_empty, .needs_model = TRUE,
};
