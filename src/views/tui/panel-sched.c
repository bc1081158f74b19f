/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The Sched panel: `ftlens sched`'s tables (CPUs, tasks, wakeup latency,
 * the worst wakeups, interrupts) from the same analysis, for the whole
 * trace, each --span span or the window between marks A and B. Enter on a
 * task filters every panel to it; on a wakeup, shows the waking event in
 * Events with the switch that ran the task as mark B. Durations are in
 * microseconds to the nanosecond, the figures `sched --csv` gives. */
#include "config.h"

#include <string.h>

#include "views/sched.h"
#include "views/tui/app.h"

typedef enum { ROW_TEXT, ROW_TASK, ROW_WAKEUP } SchedRowKind;

typedef struct {
	SchedRowKind kind;
	gint32 pid;
	FtlSchedWakeup w;
} SchedRow;

typedef struct {
	FtlTuiPanel base;
	FtlTuiLines lines;
	GArray *rows; /* SchedRow, one per line */
	GString *header;
	FtlSchedSort sort;
	guint scope; /* 0: the whole trace; then the spans; then A..B */
	guint64 built_model; /* FtlTuiModel.gen of app->model */
	guint64 built_sched; /* ... of the model its figures came from, 0 none */
	guint64 built_key;
	gboolean built;
} SchedPanel;

static const char *const sched_sort_names[] = { "run",	   "wait", "switches",
						"latency", "pid",  "comm" };
G_STATIC_ASSERT(G_N_ELEMENTS(sched_sort_names) == FTL_TUI_VIEW_SCHED_SORTS);
static const char *const sched_class_names[FTL_SCHED_LAT_N] = { "all", "rt", "normal" };

/* ns as microseconds to the nanosecond ("1234.567"), "-" for none. */
static const char *sched_us(gint64 ns, char *buf, gsize size)
{
	if (ns == FTL_TS_NONE)
		return "-";
	g_snprintf(buf, size, "%s%" G_GINT64_FORMAT ".%03d", ns < 0 ? "-" : "",
		   ABS(ns) / 1000, (int)(ABS(ns) % 1000));
	return buf;
}

/* ---- scopes ------------------------------------------------------------------ */

/* The spans as `sched --per-span` takes them: those with an end. */
static GArray *sched_span_windows(FtlTuiApp *app)
{
	GArray *w = g_array_new(FALSE, FALSE, sizeof(FtlTuiSpan));
	const FtlSpans *spans = app->model ? app->model->spans : NULL;
	for (guint i = 0; spans && i < ftl_spans_count(spans); i++) {
		const FtlSpan *sp = ftl_spans_get(spans, i);
		if (sp->duration == FTL_TS_NONE)
			continue;
		FtlTuiSpan s = { sp->start.ts, sp->end.ts };
		g_array_append_val(w, s);
	}
	return w;
}

static gboolean sched_marks(FtlTuiApp *app)
{
	return app->mark[0] != FTL_TS_NONE && app->mark[1] != FTL_TS_NONE;
}

/* Scopes: the whole trace, the spans, A..B when both are set. */
static guint sched_n_scopes(FtlTuiApp *app, guint n_spans)
{
	return 1 + n_spans + (sched_marks(app) ? 1 : 0);
}

/* The windows of every scope past the first, and a key that names them. */
static GArray *sched_windows(FtlTuiApp *app, guint64 *key)
{
	GArray *w = sched_span_windows(app);
	if (sched_marks(app)) {
		FtlTuiSpan s = { MIN(app->mark[0], app->mark[1]), MAX(app->mark[0], app->mark[1]) };
		g_array_append_val(w, s);
	}
	guint64 k = 1469598103934665603ull;
	for (guint i = 0; i < w->len; i++) {
		const FtlTuiSpan *s = &g_array_index(w, FtlTuiSpan, i);
		k = (k ^ (guint64)s->t0) * 1099511628211ull;
		k = (k ^ (guint64)s->t1) * 1099511628211ull;
	}
	*key = ftl_tui_side_key(FTL_TUI_SIDE_SCHED, k);
	return w;
}

/* The analysis that has scope p->scope, or NULL while it is read. */
/* The model whose analysis the scope shows, NULL while it is read. */
static const FtlTuiModel *sched_source(SchedPanel *p, FtlTuiApp *app)
{
	if (p->scope == 0)
		return app->model;
	guint64 key;
	GArray *w = sched_windows(app, &key);
	ftl_tui_app_want_sched(app, w, key);
	return ftl_tui_app_side(app, key);
}

/* ---- lines ------------------------------------------------------------------- */

static FtlTuiLine *sched_add(SchedPanel *p, SchedRow row, FtlTuiStyle style, const char *fmt, ...)
	G_GNUC_PRINTF(4, 5);

static FtlTuiLine *sched_add(SchedPanel *p, SchedRow row, FtlTuiStyle style, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	g_autofree char *text = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	g_array_append_val(p->rows, row);
	return ftl_tui_lines_add(&p->lines, style, "%s", text);
}

static const SchedRow sched_text = { .kind = ROW_TEXT, .pid = -1 };

/* The columns most read first, so that 80 columns show them. */
static void sched_cpus(SchedPanel *p, const FtlSchedScope *sc)
{
	char a[32], b[32], c[32], d[32], e[32];
	sched_add(p, sched_text, FTL_TUI_STYLE_HEADER, "CPUs");
	sched_add(p, sched_text, FTL_TUI_STYLE_DIM, "%4s %13s %13s %12s %12s %9s %6s %14s", "CPU",
		  "BUSY us", "IDLE us", "IRQ us", "SOFTIRQ us", "SWITCHES", "LOST", "WINDOW us");
	for (guint i = 0; i < sc->n_cpus; i++) {
		const FtlSchedCpu *k = &sc->cpus[i];
		char lost[24] = "?";
		if (k->lost_events != FTL_LOST_UNKNOWN)
			g_snprintf(lost, sizeof lost, "%" G_GINT64_FORMAT, k->lost_events);
		sched_add(p, sched_text, FTL_TUI_STYLE_NORMAL,
			  "%4d %13s %13s %12s %12s %9" G_GUINT64_FORMAT " %6s %14s", k->cpu,
			  sched_us(k->busy_ns, b, sizeof b), sched_us(k->idle_ns, c, sizeof c),
			  sched_us(k->hardirq_ns, d, sizeof d), sched_us(k->softirq_ns, e, sizeof e),
			  k->switches, lost, sched_us(k->t1 - k->t0, a, sizeof a));
	}
}

static void sched_tasks(SchedPanel *p, const FtlSchedScope *sc, GString *buf)
{
	char a[32], b[32], c[32], d[32], e[32];
	sched_add(p, sched_text, FTL_TUI_STYLE_HEADER,
		  "Tasks by %s (%u; s: sort, Enter: filter every panel to the task)",
		  sched_sort_names[p->sort], sc->n_tasks);
	sched_add(p, sched_text, FTL_TUI_STYLE_DIM, "%7s %-16s %13s %12s %10s %7s %7s %10s %14s",
		  "PID", "COMM", "RUN us", "WAIT us", "LAT MAX", "WAKEUPS", "SW", "LAT AVG",
		  "SLEEP us");
	g_autoptr(GPtrArray) order = ftl_sched_tasks_sorted(sc, p->sort);
	for (guint i = 0; i < order->len; i++) {
		const FtlSchedTask *t = g_ptr_array_index(order, i);
		g_autoptr(GString) comm = g_string_new(NULL);
		ftl_tui_cell(comm, ftl_tui_lines_raw(buf, t->comm ? t->comm : "<...>", -1), 16,
			     FALSE);
		SchedRow row = { .kind = ROW_TASK, .pid = t->pid };
		sched_add(p, row, FTL_TUI_STYLE_NORMAL,
			  "%7d %s %13s %12s %10s %7" G_GUINT64_FORMAT " %7" G_GUINT64_FORMAT
			  " %10s %14s",
			  t->pid, comm->str, sched_us(t->run_ns, a, sizeof a),
			  sched_us(t->wait_ns, b, sizeof b),
			  sched_us(t->wakeups ? t->lat_max : FTL_TS_NONE, e, sizeof e), t->wakeups,
			  t->switches,
			  sched_us(t->wakeups ? t->lat_sum / (gint64)t->wakeups : FTL_TS_NONE, d,
				   sizeof d),
			  sched_us(t->sleep_ns, c, sizeof c));
	}
}

static void sched_latency(SchedPanel *p, const FtlSchedScope *sc, const char *scope)
{
	char v[7][32];
	sched_add(p, sched_text, FTL_TUI_STYLE_HEADER, "Wakeup latency (H: a class's histogram)");
	sched_add(p, sched_text, FTL_TUI_STYLE_DIM, "%-7s %8s %10s %10s %10s %10s %10s %10s",
		  "CLASS", "WAKEUPS", "MIN us", "AVG us", "P50 us", "P95 us", "P99 us", "MAX us");
	for (guint c = 0; c < FTL_SCHED_LAT_N; c++) {
		const FtlHisto *h = sc->lat[c].histo;
		guint64 n = ftl_histo_count(h);
		FtlTuiLine *line = sched_add(p, sched_text, FTL_TUI_STYLE_NORMAL,
			  "%-7s %8" G_GUINT64_FORMAT " %10s %10s %10s %10s %10s %10s",
			  sched_class_names[c], n, sched_us(ftl_histo_min(h), v[0], 32),
			  sched_us(n ? ftl_histo_sum(h) / (gint64)n : FTL_TS_NONE, v[1], 32),
			  sched_us(ftl_histo_percentile(h, 50), v[2], 32),
			  sched_us(ftl_histo_percentile(h, 95), v[3], 32),
			  sched_us(ftl_histo_percentile(h, 99), v[4], 32),
			  sched_us(ftl_histo_max(h), v[5], 32));
		/* H: the class's histogram, the bins `plot latency` draws */
		line->histo = h;
		line->histo_title = g_strdup_printf("Wakeup latency, %s (%s)", sched_class_names[c],
						    scope);
		line->histo_noun = "wakeups";
	}
}

static void sched_worst(SchedPanel *p, FtlTuiApp *app, const FtlSchedScope *sc, GString *buf)
{
	char lat[32], t[48];
	sched_add(p, sched_text, FTL_TUI_STYLE_HEADER,
		  "Worst wakeups (Enter: the wakeup in Events, the switch that ran it as mark B)");
	sched_add(p, sched_text, FTL_TUI_STYLE_DIM, "%3s %10s %14s %4s %7s %-16s %7s %s", "#",
		  "LATENCY us", "WOKEN AT", "CPU", "PID", "COMM", "WAKER", "WAKER COMM");
	for (guint i = 0; i < sc->n_worst; i++) {
		const FtlSchedWakeup *w = &sc->worst[i];
		g_autoptr(GString) comm = g_string_new(NULL);
		ftl_tui_cell(comm, ftl_tui_lines_raw(buf, w->comm ? w->comm : "<...>", -1), 16,
			     FALSE);
		SchedRow row = { .kind = ROW_WAKEUP, .pid = w->pid, .w = *w };
		char waker[16] = "-";
		if (w->waker_pid >= 0)
			g_snprintf(waker, sizeof waker, "%d", w->waker_pid);
		FtlTuiLine *line = sched_add(
			p, row, FTL_TUI_STYLE_NORMAL, "%3u %10s %14s %4d %7d %s %7s %s", i + 1,
			sched_us(w->latency, lat, sizeof lat),
			ftl_tui_app_abs_time(app, w->wake_ts, t, sizeof t), w->cpu, w->pid,
			comm->str, waker,
			w->waker_pid < 0 ? ""
					 : ftl_tui_lines_raw(buf, w->waker_comm ? w->waker_comm
										: "<...>",
							     -1));
		line->ts = w->wake_ts;
		line->cpu = w->waker_cpu;
	}
}

static void sched_irqs(SchedPanel *p, const FtlSchedScope *sc, GString *buf)
{
	char a[32], b[32], c[32];
	sched_add(p, sched_text, FTL_TUI_STYLE_HEADER, "Interrupts");
	sched_add(p, sched_text, FTL_TUI_STYLE_DIM, "%-7s %5s %-20s %9s %14s %10s %10s", "KIND",
		  "ID", "NAME", "COUNT", "TOTAL us", "MIN us", "MAX us");
	for (guint i = 0; i < sc->n_irqs; i++) {
		const FtlSchedIrq *q = &sc->irqs[i];
		g_autoptr(GString) name = g_string_new(NULL);
		ftl_tui_cell(name, ftl_tui_lines_raw(buf, q->name, -1), 20, FALSE);
		sched_add(p, sched_text, FTL_TUI_STYLE_NORMAL,
			  "%-7s %5d %s %9" G_GUINT64_FORMAT " %14s %10s %10s",
			  q->kind == FTL_SCHED_HARDIRQ ? "irq" : "softirq", q->id, name->str,
			  q->count, sched_us(q->total_ns, a, sizeof a),
			  sched_us(q->min_ns, b, sizeof b), sched_us(q->max_ns, c, sizeof c));
	}
}

static void sched_scope_name(SchedPanel *p, FtlTuiApp *app, guint n_spans, const FtlSchedScope *sc,
			     GString *out)
{
	char a[48], b[48];
	if (p->scope == 0)
		g_string_append(out, "whole trace");
	else if (p->scope <= n_spans)
		g_string_append_printf(out, "span %u of %u", p->scope, n_spans);
	else
		g_string_append(out, "marks A..B");
	if (sc && sc->t0 != FTL_TS_NONE)
		g_string_append_printf(out, " %s .. %s", ftl_tui_app_abs_time(app, sc->t0, a, sizeof a),
				       ftl_tui_app_abs_time(app, sc->t1, b, sizeof b));
}

static void sched_build(SchedPanel *p, FtlTuiApp *app, const FtlSched *s, guint index,
			guint n_spans)
{
	g_autoptr(GString) buf = g_string_new(NULL);
	const FtlSchedScope *sc = s && index < ftl_sched_n_scopes(s) ? ftl_sched_scope(s, index) : NULL;
	g_string_assign(p->header, "Sched: ");
	sched_scope_name(p, app, n_spans, sc, p->header);
	g_string_append_printf(p->header, "  (w: scope %u of %u)", p->scope + 1,
			       sched_n_scopes(app, n_spans));
	if (!s) {
		sched_add(p, sched_text, FTL_TUI_STYLE_DIM, "reading the scheduling of this scope...");
		return;
	}
	if (!sc || sc->t0 == FTL_TS_NONE) {
		sched_add(p, sched_text, FTL_TUI_STYLE_DIM, "no event in this scope");
		return;
	}
	sched_cpus(p, sc);
	sched_add(p, sched_text, FTL_TUI_STYLE_NORMAL, " ");
	sched_tasks(p, sc, buf);
	sched_add(p, sched_text, FTL_TUI_STYLE_NORMAL, " ");
	g_autoptr(GString) scope = g_string_new(NULL);
	sched_scope_name(p, app, n_spans, NULL, scope);
	sched_latency(p, sc, scope->str);
	sched_add(p, sched_text, FTL_TUI_STYLE_NORMAL, " ");
	sched_worst(p, app, sc, buf);
	sched_add(p, sched_text, FTL_TUI_STYLE_NORMAL, " ");
	sched_irqs(p, sc, buf);
}

/* ---- the panel ---------------------------------------------------------------- */

static FtlTuiPanel *sched_new(void)
{
	SchedPanel *p = g_new0(SchedPanel, 1);
	ftl_tui_lines_init(&p->lines);
	p->rows = g_array_new(FALSE, FALSE, sizeof(SchedRow));
	p->header = g_string_new(NULL);
	p->sort = FTL_SCHED_SORT_RUN;
	return &p->base;
}

static void sched_free(FtlTuiPanel *base)
{
	SchedPanel *p = (SchedPanel *)base;
	ftl_tui_lines_clear(&p->lines);
	g_array_unref(p->rows);
	g_string_free(p->header, TRUE);
	g_free(p);
}

static const char *sched_empty(FtlTuiApp *app)
{
	if (!app->model || !app->model->sched)
		return NULL;
	const FtlSchedScope *sc = ftl_sched_scope(app->model->sched, 0);
	if (sc->t0 == FTL_TS_NONE)
		return "no timed events in this input";
	return NULL;
}

static FtlTuiReaction sched_tick(FtlTuiPanel *base, FtlTuiApp *app)
{
	SchedPanel *p = (SchedPanel *)base;
	if (!app->model || !app->model->sched)
		return FTL_TUI_REACT_NONE;
	g_autoptr(GArray) spans = sched_span_windows(app);
	guint n_scopes = sched_n_scopes(app, spans->len);
	if (p->scope >= n_scopes)
		p->scope = 0;
	/* only the panel shown reads a window's analysis */
	const FtlTuiModel *src =
		app->current == FTL_TUI_PANEL_SCHED || p->scope == 0 ? sched_source(p, app) : NULL;
	const FtlSched *s = src ? src->sched : NULL;
	guint index = p->scope;
	guint64 key = (guint64)p->sort * 1000003u ^ (guint64)p->scope * 7919u ^
		      (guint64)app->mark[0] * 31u ^ (guint64)app->mark[1];
	if (p->built && p->built_model == app->model->gen &&
	    p->built_sched == (src ? src->gen : 0) && p->built_key == key)
		return FTL_TUI_REACT_NONE;
	p->built = TRUE;
	p->built_model = app->model->gen;
	p->built_sched = src ? src->gen : 0;
	p->built_key = key;
	ftl_tui_lines_reset(&p->lines);
	g_array_set_size(p->rows, 0);
	sched_build(p, app, s, index, spans->len);
	gint64 n = p->lines.lines->len;
	p->lines.cursor = CLAMP(p->lines.cursor, 0, MAX(n - 1, 0));
	ftl_tui_scroll(&p->lines.top, p->lines.cursor, MAX(p->lines.page, 1));
	return FTL_TUI_REACT_REDRAW;
}

static void sched_draw(FtlTuiPanel *base, FtlTuiApp *app, FtlTuiCanvas *c, int y, int h)
{
	SchedPanel *p = (SchedPanel *)base;
	(void)app;
	ftl_tui_lines_draw(&p->lines, c, y, h, p->header->len ? p->header->str : NULL);
	base->page = p->lines.page;
}

static FtlTuiReaction sched_activate(SchedPanel *p, FtlTuiApp *app)
{
	if (p->lines.cursor < 0 || p->lines.cursor >= (gint64)p->rows->len)
		return FTL_TUI_REACT_NONE;
	const SchedRow *row = &g_array_index(p->rows, SchedRow, p->lines.cursor);
	if (row->kind == ROW_TASK) {
		g_autofree char *text = g_strdup_printf("pid %d", row->pid);
		g_autoptr(GError) error = NULL;
		FtlTuiFilterItem *item = ftl_tui_filter_item_parse(text, &error);
		if (!item) {
			ftl_tui_app_say(app, TRUE, "%s", error->message);
			return FTL_TUI_REACT_STATUS;
		}
		return ftl_tui_go_filter(app, item);
	}
	if (row->kind == ROW_WAKEUP && app->events) {
		/* the latency is A..B: the wakeup, then the switch that ran it */
		app->mark[0] = row->w.wake_ts;
		app->mark[1] = row->w.ts;
		return ftl_tui_go_event(app, row->w.wake_ts, row->w.waker_cpu, row->w.wake_event);
	}
	ftl_tui_app_say(app, FALSE, "Enter: on a task or a wakeup");
	return FTL_TUI_REACT_STATUS;
}

static FtlTuiReaction sched_command(FtlTuiPanel *base, FtlTuiApp *app, FtlTuiCmd cmd,
				    const FtlTuiInput *in)
{
	SchedPanel *p = (SchedPanel *)base;
	if (p->lines.histo) /* a histogram over the tables takes the keys */
		return ftl_tui_lines_command(&p->lines, app, cmd, in);
	switch (cmd) {
	case FTL_TUI_CMD_SORT:
		p->sort = (p->sort + 1) % G_N_ELEMENTS(sched_sort_names);
		return sched_tick(base, app) | FTL_TUI_REACT_REDRAW;
	case FTL_TUI_CMD_SCOPE: {
		g_autoptr(GArray) spans = sched_span_windows(app);
		p->scope = (p->scope + 1) % sched_n_scopes(app, spans->len);
		return sched_tick(base, app) | FTL_TUI_REACT_REDRAW;
	}
	case FTL_TUI_CMD_ACTIVATE:
		return sched_activate(p, app);
	default:
		return ftl_tui_lines_command(&p->lines, app, cmd, in);
	}
}

static FtlTuiReaction sched_search(FtlTuiPanel *base, FtlTuiApp *app, GRegex *re, int dir)
{
	return ftl_tui_lines_search(&((SchedPanel *)base)->lines, app, re, dir);
}

static gint64 sched_cursor_time(FtlTuiPanel *base, FtlTuiApp *app)
{
	(void)app;
	return ftl_tui_lines_time(&((SchedPanel *)base)->lines);
}

static void sched_model_changed(FtlTuiPanel *base, FtlTuiApp *app, const FtlTuiModel *old)
{
	SchedPanel *p = (SchedPanel *)base;
	(void)app;
	(void)old;
	p->built = FALSE;
}

/* The sort, the scope (whole trace, a span, marks A..B) and the cursor's
 * line with the first line shown. */
static void sched_save(FtlTuiPanel *base, FtlTuiApp *app, FtlTuiView *v)
{
	SchedPanel *p = (SchedPanel *)base;
	(void)app;
	ftl_tui_view_set_int(v, "sched", "sort", p->sort);
	ftl_tui_view_set_int(v, "sched", "scope", MIN(p->scope, 100000));
	ftl_tui_view_set_int(v, "sched", "cursor", MAX(p->lines.cursor, 0));
	ftl_tui_view_set_int(v, "sched", "top", MAX(p->lines.top, 0));
}

/* A scope or line past what this trace has is cut by the next build. */
static void sched_restore(FtlTuiPanel *base, FtlTuiApp *app, const FtlTuiView *v, gboolean same)
{
	SchedPanel *p = (SchedPanel *)base;
	(void)app;
	(void)same;
	gint64 x;
	if (ftl_tui_view_get_int(v, "sched", "sort", &x))
		p->sort = (FtlSchedSort)x;
	if (ftl_tui_view_get_int(v, "sched", "scope", &x))
		p->scope = (guint)x;
	if (ftl_tui_view_get_int(v, "sched", "cursor", &x))
		p->lines.cursor = x;
	if (ftl_tui_view_get_int(v, "sched", "top", &x))
		p->lines.top = MIN(x, p->lines.cursor);
	p->built = FALSE;
}

const FtlTuiPanelClass ftl_tui_sched_panel = {
	.id = FTL_TUI_PANEL_SCHED,
	.name = "Sched",
	.new = sched_new,
	.free = sched_free,
	.available = ftl_tui_app_has_events,
	.empty = sched_empty,
	.needs_model = TRUE,
	.draw = sched_draw,
	.command = sched_command,
	.search = sched_search,
	.cursor_time = sched_cursor_time,
	.model_changed = sched_model_changed,
	.tick = sched_tick,
	.save = sched_save,
	.restore = sched_restore,
};
