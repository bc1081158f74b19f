/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The Quality panel: the window in which every CPU's data is complete,
 * each CPU's counts, lost events and the call-tree repairs, each with a
 * jump to where it happened. */
#include "config.h"

#include "util/checked.h"
#include "views/quality.h"
#include "views/tui/app.h"

static void quality_window(FtlTuiLines *l, const FtlTuiApp *app, const FtlQuality *q)
{
	char a[32], b[32], d[32];
	gint64 t0 = ftl_quality_window_start(q), t1 = ftl_quality_window_end(q);
	if (t0 == FTL_TS_NONE || t1 == FTL_TS_NONE) {
		ftl_tui_lines_add(l, FTL_TUI_STYLE_WARN, "Complete window: unknown or empty");
	} else {
		FtlTuiLine *line = ftl_tui_lines_add(
			l, FTL_TUI_STYLE_NORMAL, "Complete window: %s - %s (%s)",
			ftl_tui_app_abs_time(app, t0, a, sizeof a), ftl_tui_app_abs_time(app, t1, b, sizeof b),
			ftl_tui_duration(ftl_sat_sub_i64(t1, t0), d, sizeof d));
		line->ts = t0;
	}
	gint64 evicted = ftl_quality_evicted(q);
	if (evicted >= 0)
		ftl_tui_lines_add(l, evicted ? FTL_TUI_STYLE_WARN : FTL_TUI_STYLE_NORMAL,
				  "Overwritten in the ring buffer: %" G_GINT64_FORMAT " events",
				  evicted);
}

static void quality_cpus(FtlTuiLines *l, const FtlTuiApp *app, const FtlQuality *q)
{
	ftl_tui_lines_add(l, FTL_TUI_STYLE_HEADER, "%5s %11s %15s %15s %6s %10s", "CPU",
			  "EVENT LINES", "FIRST", "LAST", "LOST", "LOST EVTS");
	for (guint i = 0; i < ftl_quality_n_cpus(q); i++) {
		const FtlCpuQuality *c = ftl_quality_cpu(q, i);
		char a[32], b[32], n[32];
		FtlTuiLine *line = ftl_tui_lines_add(
			l, c->lost_lines || c->lost_events ? FTL_TUI_STYLE_WARN : FTL_TUI_STYLE_NORMAL,
			"%5d %11" G_GUINT64_FORMAT " %15s %15s %6" G_GUINT64_FORMAT " %10s", c->cpu,
			c->event_lines, ftl_tui_app_abs_time(app, c->first_ts, a, sizeof a),
			ftl_tui_app_abs_time(app, c->last_ts, b, sizeof b), c->lost_lines,
			ftl_lost_format(c->lost_events, n, sizeof n));
		line->ts = c->first_ts;
	}
}

static void quality_diags(FtlTuiLines *l, FtlTuiApp *app, GString *buf)
{
	FtlDiags *d = ftl_trace_diags(app->model->trace);
	if (!ftl_diags_any(d))
		return;
	ftl_tui_lines_add(l, FTL_TUI_STYLE_HEADER,
			  "Diagnostics and repairs (Enter: the first one)");
	for (guint k = 0; k < FTL_DIAG_N_KINDS; k++) {
		const FtlDiagEntry *e = ftl_diags_get(d, k);
		if (!e || !e->count)
			continue;
		FtlTuiLine *line = ftl_tui_lines_add(
			l, FTL_TUI_STYLE_WARN,
			"%-16s %8" G_GUINT64_FORMAT "  first: %s:%" G_GUINT64_FORMAT,
			ftl_diag_kind_name(k), e->count, ftl_tui_lines_raw(buf, e->first_file, -1),
			e->first_line);
		line->line = e->first_line;
		line->cpu = -1;
		/* first_text was made visible by the diagnostics already */
		if (e->first_text)
			ftl_tui_lines_add(l, FTL_TUI_STYLE_DIM, "    %s", e->first_text)->line =
				e->first_line;
	}
}

static void quality_lost(FtlTuiLines *l, FtlTuiApp *app)
{
	GArray *lost = app->model->lost;
	if (!lost->len)
		return;
	ftl_tui_lines_add(l, FTL_TUI_STYLE_HEADER, "Lost events (%u places)", lost->len);
	for (guint i = 0; i < lost->len; i++) {
		const FtlTuiLost *x = &g_array_index(lost, FtlTuiLost, i);
		char t[32], n[32] = "unknown";
		if (x->count)
			g_snprintf(n, sizeof n, "%" G_GUINT64_FORMAT, x->count);
		FtlTuiLine *line =
			ftl_tui_lines_add(l, FTL_TUI_STYLE_WARN, "%15s  CPU %d lost %s events",
					  ftl_tui_app_abs_time(app, x->ts, t, sizeof t), x->cpu, n);
		line->ts = x->ts;
		line->line = x->line;
		line->cpu = x->cpu;
	}
}

static void quality_build(FtlTuiLines *l, FtlTuiApp *app, GString *header)
{
	if (!app->model || !app->model->trace)
		return;
	const FtlQuality *q = app->model->quality;
	g_autoptr(GString) buf = g_string_new(NULL);
	g_string_assign(header, "Data quality");
	quality_window(l, app, q);
	GPtrArray *caveats = ftl_quality_caveats(q);
	for (guint i = 0; caveats && i < caveats->len; i++)
		ftl_tui_lines_add(l, FTL_TUI_STYLE_WARN, "%s",
				  ftl_tui_lines_raw(buf, g_ptr_array_index(caveats, i), -1));
	quality_cpus(l, app, q);
	quality_lost(l, app);
	quality_diags(l, app, buf);
}

static FtlTuiPanel *quality_new(void)
{
	return ftl_tui_lines_panel_new(quality_build);
}

const FtlTuiPanelClass ftl_tui_quality_panel = {
	FTL_TUI_LINES_PANEL_METHODS, .id = FTL_TUI_PANEL_QUALITY,    .name = "Quality",
	.new = quality_new,	     .available = ftl_tui_app_has_events, .needs_model = TRUE,
};
