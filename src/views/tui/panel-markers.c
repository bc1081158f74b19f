/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The Markers panel: trace_marker writes, trace_printk messages and
 * function_graph comments with time, CPU, task and the delta to the one
 * before; spans (--span START END) after them; Enter shows one in Events. */
#include "config.h"

#include "views/tui/app.h"

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

static void markers_spans(FtlTuiLines *l, FtlTuiApp *app, const FtlSpans *s, GString *buf)
{
	ftl_tui_lines_add(
		l, FTL_TUI_STYLE_HEADER, "Spans (%u; starts left open: %u, ends unmatched: %u)",
		ftl_spans_count(s), ftl_spans_unmatched_starts(s), ftl_spans_unmatched_ends(s));
	for (guint i = 0; i < ftl_spans_count(s); i++) {
		const FtlSpan *sp = ftl_spans_get(s, i);
		char t[48], d[32];
		ftl_tui_app_time(app, sp->start.ts, t, sizeof t);
		ftl_tui_duration(sp->duration, d, sizeof d);
		g_autofree char *start = g_strdup(ftl_tui_lines_raw(buf, sp->start.text, -1));
		FtlTuiLine *line = ftl_tui_lines_add(
			l, FTL_TUI_STYLE_NORMAL,
			"%14s %11s %8" G_GUINT64_FORMAT " events  %s -> %s", t, d, sp->events,
			start, ftl_tui_lines_raw(buf, sp->end.text, -1));
		line->ts = sp->start.ts;
		line->line = sp->start.line;
		line->cpu = sp->start.cpu;
	}
}

static void markers_build(FtlTuiLines *l, FtlTuiApp *app, GString *header)
{
	if (!app->model)
		return;
	static const char *const titles[] = { "TIME", "DELTA", "SINCE A" };
	g_string_printf(header, "%14s %-5s %-16s %11s  %s", titles[app->time_mode], "CPU",
			"TASK-PID", "SINCE PREV", "TEXT");
	g_autoptr(GString) buf = g_string_new(NULL);
	const FtlMarkers *m = app->model->markers;
	for (guint i = 0; i < ftl_markers_count(m); i++)
		markers_row(l, app, ftl_markers_get(m, i), buf);
	if (app->model->spans)
		markers_spans(l, app, app->model->spans, buf);
}

static FtlTuiPanel *markers_new(void)
{
	return ftl_tui_lines_panel_new(markers_build);
}

const FtlTuiPanelClass ftl_tui_markers_panel = {
	FTL_TUI_LINES_PANEL_METHODS, .id = FTL_TUI_PANEL_MARKERS,    .name = "Markers",
	.new = markers_new,	     .available = ftl_tui_app_has_events, .empty = markers_empty, .needs_model = TRUE,
};
