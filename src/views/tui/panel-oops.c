/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The Oops panel: the kernel reports of a console log (title, task, where
 * it faulted, the call trace) and the last events of each CPU from the
 * ftrace dump printed with them, each linked into Events. */
#include "config.h"

#include "views/tui/app.h"

static gboolean oops_available(FtlTuiApp *app)
{
	return app->opt->console != NULL;
}

static void oops_frame(FtlTuiLines *l, const FtlOopsFrame *f, GString *buf)
{
	GString *s = g_string_new(f->reliable ? "    " : "  ? ");
	if (f->func)
		g_string_append_printf(s, "%s+0x%" G_GINT64_MODIFIER "x",
				       ftl_tui_lines_raw(buf, f->func, -1), f->offset);
	else if (f->address)
		g_string_append_printf(s, "0x%s", ftl_tui_lines_raw(buf, f->address, -1));
	if (f->module)
		g_string_append_printf(s, " [%s]", ftl_tui_lines_raw(buf, f->module, -1));
	if (f->source)
		g_string_append_printf(s, "  %s", ftl_tui_lines_raw(buf, f->source, -1));
	ftl_tui_lines_add(l, f->reliable ? FTL_TUI_STYLE_NORMAL : FTL_TUI_STYLE_DIM, "%s", s->str);
	g_string_free(s, TRUE);
}

static void oops_report(FtlTuiLines *l, const FtlConsole *con, const FtlOopsReport *r, guint i,
			GString *buf)
{
	ftl_tui_lines_add(l, FTL_TUI_STYLE_HEADER, "Report %u: %s (%s, line %" G_GUINT64_FORMAT ")",
			  i + 1, ftl_tui_lines_raw(buf, r->title, -1), ftl_oops_kind_name(r->kind),
			  ftl_console_line(con, r->header_line)->lineno);
	if (r->pid >= 0 || r->cpu >= 0) {
		g_autofree char *comm = g_strdup(ftl_tui_lines_raw(buf, r->comm, -1));
		ftl_tui_lines_add(l, FTL_TUI_STYLE_NORMAL, "  CPU %d  PID %d  %s  %s  %s", r->cpu,
				  r->pid, comm, r->tainted ? "tainted" : "not tainted",
				  ftl_tui_lines_raw(buf, r->release, -1));
	}
	if (r->has_fault) {
		ftl_tui_lines_add(l, FTL_TUI_STYLE_WARN,
				  "  at %s:", ftl_tui_lines_raw(buf, r->fault_reg, -1));
		oops_frame(l, &r->fault, buf);
	}
	if (r->location)
		ftl_tui_lines_add(l, FTL_TUI_STYLE_NORMAL, "  at %s",
				  ftl_tui_lines_raw(buf, r->location, -1));
	const FtlOopsStack *trace = ftl_oops_report_trace(r);
	if (trace) {
		ftl_tui_lines_add(l, FTL_TUI_STYLE_NORMAL, "  %s",
				  trace->label ? ftl_tui_lines_raw(buf, trace->label, -1)
					       : "Call Trace:");
		for (guint k = 0; k < trace->frames->len; k++)
			oops_frame(l, &g_array_index(trace->frames, FtlOopsFrame, k), buf);
	}
}

/* The dump's last events per CPU: Enter shows each in Events. */
static void oops_trail(FtlTuiLines *l, const FtlOopsTrail *t, GString *buf)
{
	ftl_tui_lines_add(l, FTL_TUI_STYLE_HEADER,
			  "Last events per CPU in the ftrace dump (Enter: in Events)");
	for (guint i = 0; i < ftl_oops_trail_n_cpus(t); i++) {
		const FtlOopsCpu *c = ftl_oops_trail_cpu(t, i);
		ftl_tui_lines_add(l, FTL_TUI_STYLE_NORMAL,
				  "  CPU %d: %" G_GUINT64_FORMAT " events%s", c->cpu, c->events,
				  c->lost ? ", some lost" : "");
		for (guint k = 0; k < c->n_last; k++) {
			const FtlOopsEvent *e = &c->last[k];
			char t0[32];
			FtlTuiLine *line =
				ftl_tui_lines_add(l, FTL_TUI_STYLE_DIM, "    %s  %s",
						  ftl_time_format_us(e->ts, t0, sizeof t0),
						  ftl_tui_lines_raw(buf, e->text, -1));
			line->line = e->line;
			line->cpu = c->cpu;
			line->ts = e->ts;
		}
	}
}

static void oops_build(FtlTuiLines *l, FtlTuiApp *app, GString *header)
{
	const FtlConsole *con = app->opt->console;
	if (!con)
		return;
	g_autoptr(GString) buf = g_string_new(NULL);
	const FtlOops *o = app->opt->oops;
	guint n = o ? ftl_oops_count(o) : 0;
	g_string_printf(header, "%s: %u kernel report%s, %u ftrace dump%s",
			ftl_tui_lines_raw(buf, con->path, -1), n, n == 1 ? "" : "s",
			con->dumps->len, con->dumps->len == 1 ? "" : "s");
	for (guint i = 0; i < n; i++)
		oops_report(l, con, ftl_oops_get(o, i), i, buf);
	if (app->model && app->model->trail)
		oops_trail(l, app->model->trail, buf);
}

static FtlTuiPanel *oops_new(void)
{
	return ftl_tui_lines_panel_new(oops_build);
}

const FtlTuiPanelClass ftl_tui_oops_panel = {
	FTL_TUI_LINES_PANEL_METHODS, .id = FTL_TUI_PANEL_OOPS, .name = "Oops", .new = oops_new,
	.available = oops_available,
};
