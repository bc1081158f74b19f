/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The Events panel: every event in KernelShark's list columns (time, CPU,
 * task-pid, latency flags, event, info), function_graph lines indented with
 * their durations, rows read in the background (evsource.h). */
#include "config.h"

#include <string.h>

#include "util/escape.h"
#include "views/tui/app.h"

typedef struct {
	FtlTuiPanel base;
	gint64 cursor, top;
	int hscroll;
	guint64 seen; /* the list the state refers to: ftl_tui_events_gen */
	gboolean finding;   /* a find of this panel runs */
	FtlTuiFindKind find_kind;
	gint64 find_from;
	gint64 jump_from, jump_to; /* Enter: where a call jump came from, and went */
} EventsPanel;

static FtlTuiPanel *events_new(void)
{
	EventsPanel *e = g_new0(EventsPanel, 1);
	e->jump_from = e->jump_to = -1;
	return &e->base;
}

static void events_free(FtlTuiPanel *p)
{
	g_free(p);
}

/* ---- columns --------------------------------------------------------------- */

typedef struct {
	int time, cpu, task, lat, event, info; /* x of each; lat < 0: not shown */
} EventsCols;

static EventsCols events_cols(int cols)
{
	EventsCols k;
	gboolean wide = cols >= 110;
	k.time = 0;
	k.cpu = 15;
	k.task = 21;
	k.lat = wide ? 40 : -1;
	k.event = wide ? 47 : 38;
	k.info = wide ? 69 : 55;
	return k;
}

static FtlTuiStyle events_kind_style(const FtlTuiRow *r)
{
	switch (r->kind) {
	case FTL_EVENT_MARKER:
		return FTL_TUI_STYLE_MARK;
	case FTL_EVENT_LOST:
		return FTL_TUI_STYLE_WARN;
	case FTL_EVENT_IRQ_ENTRY:
	case FTL_EVENT_IRQ_EXIT:
		return FTL_TUI_STYLE_IRQ;
	default:
		return FTL_TUI_STYLE_NORMAL;
	}
}

/* The Info column of a function_graph row, as the kernel prints it:
 * duration, then the call indented by its depth. Raw: escaped when drawn. */
static void events_graph_info(GString *out, const FtlTuiRow *r)
{
	char d[32] = "";
	if (r->duration != FTL_TS_NONE)
		ftl_tui_duration(r->duration, d, sizeof d);
	g_string_append_printf(out, "%11s | %*s", d, 2 * CLAMP(r->depth, 0, 40), "");
	const char *f = r->func ? r->func : "?";
	if (r->kind == FTL_EVENT_FUNC_EXIT)
		g_string_append_printf(out, "} /* %s */", f);
	else
		g_string_append_printf(out, "%s()%s", f, r->leaf ? ";" : " {");
}

static void events_time(FtlTuiApp *app, const EventsPanel *e, gint64 i, const FtlTuiRow *r,
			char *buf, gsize size)
{
	if (app->time_mode == FTL_TUI_TIME_PREV && r->ts != FTL_TS_NONE) {
		const FtlTuiRow *prev =
			i > 0 ? ftl_tui_events_row(app->events, (guint64)i - 1) : NULL;
		char d[32];
		if (prev && prev->ts != FTL_TS_NONE) {
			g_snprintf(buf, size, "+%s",
				   ftl_tui_duration(r->ts - prev->ts, d, sizeof d));
			return;
		}
	}
	(void)e;
	ftl_tui_app_time(app, r->ts, buf, size);
}

/* Trace text from column `skip` of its visible form on (horizontal scroll). */
static void events_put_scrolled(FtlTuiCanvas *c, int y, int x, const char *raw, gssize len,
				int skip, FtlTuiStyle style)
{
	g_autofree char *safe = ftl_escape(raw, len);
	const char *s = safe + ftl_escape_fit(safe, (gsize)skip);
	ftl_tui_put(c, y, x, -1, s, style);
}

static void events_draw_row(EventsPanel *e, FtlTuiApp *app, FtlTuiCanvas *c, int y, gint64 i,
			    const FtlTuiRow *r, EventsCols k)
{
	gboolean cur = i == e->cursor;
	FtlTuiStyle st = cur ? FTL_TUI_STYLE_CURSOR : FTL_TUI_STYLE_NORMAL;
	if (cur)
		ftl_tui_fill(c, y, 0, -1, st);
	char buf[48];
	events_time(app, e, i, r, buf, sizeof buf);
	gboolean marked = r->ts != FTL_TS_NONE && (r->ts == app->mark[0] || r->ts == app->mark[1]);
	ftl_tui_put_right(c, y, k.time, 14, buf, cur ? st : marked ? FTL_TUI_STYLE_MARK : st);
	if (r->cpu >= 0) {
		g_snprintf(buf, sizeof buf, "[%03d]", r->cpu);
		ftl_tui_put(c, y, k.cpu, 5, buf, st);
	}
	g_autofree char *task = g_strdup_printf("%s-%d", r->comm ? r->comm : "<...>", r->pid);
	if (r->pid < 0)
		ftl_tui_put(c, y, k.task, 16, "-", st);
	else
		ftl_tui_put_raw(c, y, k.task, 16, task, -1, st);
	if (k.lat >= 0)
		ftl_tui_put_raw(c, y, k.lat, 6, r->lat, -1, st);
	ftl_tui_put_raw(c, y, k.event, k.info - k.event - 1, r->name ? r->name : "-", -1,
			cur ? st : events_kind_style(r));
	if (r->kind == FTL_EVENT_FUNC_ENTRY || r->kind == FTL_EVENT_FUNC_EXIT) {
		g_autoptr(GString) g = g_string_new(NULL);
		events_graph_info(g, r);
		events_put_scrolled(c, y, k.info, g->str, (gssize)g->len, e->hscroll, st);
	} else {
		events_put_scrolled(c, y, k.info, r->info, -1, e->hscroll, st);
	}
}

static void events_draw(FtlTuiPanel *p, FtlTuiApp *app, FtlTuiCanvas *c, int y, int h)
{
	EventsPanel *e = (EventsPanel *)p;
	EventsCols k = events_cols(c->cols);
	ftl_tui_fill(c, y, 0, -1, FTL_TUI_STYLE_HEADER);
	static const char *const time_titles[] = { "TIME", "DELTA", "SINCE A" };
	ftl_tui_put_right(c, y, k.time, 14, time_titles[app->time_mode], FTL_TUI_STYLE_HEADER);
	ftl_tui_put(c, y, k.cpu, 5, "CPU", FTL_TUI_STYLE_HEADER);
	ftl_tui_put(c, y, k.task, 16, "TASK-PID", FTL_TUI_STYLE_HEADER);
	if (k.lat >= 0)
		ftl_tui_put(c, y, k.lat, 6, "LAT", FTL_TUI_STYLE_HEADER);
	ftl_tui_put(c, y, k.event, 16, "EVENT", FTL_TUI_STYLE_HEADER);
	ftl_tui_put(c, y, k.info, -1, "INFO", FTL_TUI_STYLE_HEADER);
	p->page = h - 1;
	gboolean exact;
	guint64 n = ftl_tui_events_count(app->events, &exact);
	if (exact && n == 0) {
		ftl_tui_put(c, y + 2, 2, -1,
			    ftl_tui_filter_depth(app->filter)
				    ? "no event passes the filters (Esc pops one)"
				    : "no events",
			    FTL_TUI_STYLE_DIM);
		return;
	}
	for (int row = 0; row < h - 1; row++) {
		gint64 i = e->top + row;
		if (exact && (guint64)i >= n)
			break;
		const FtlTuiRow *r = ftl_tui_events_row(app->events, (guint64)i);
		if (r)
			events_draw_row(e, app, c, y + 1 + row, i, r, k);
		else
			ftl_tui_put(c, y + 1 + row, k.info, -1, "...",
				    i == e->cursor ? FTL_TUI_STYLE_CURSOR : FTL_TUI_STYLE_DIM);
	}
}

/* ---- moving ---------------------------------------------------------------- */

/* Rows the cursor may reach: all once they are counted, a page past the
 * last one read before. */
static gint64 events_limit(EventsPanel *e, FtlTuiApp *app)
{
	gboolean exact;
	guint64 n = ftl_tui_events_count(app->events, &exact);
	if (exact)
		return (gint64)n;
	return MAX((gint64)n, e->cursor + 1) + MAX(e->base.page, 1);
}

static FtlTuiReaction events_goto(EventsPanel *e, gint64 row)
{
	e->cursor = MAX(row, 0);
	ftl_tui_scroll(&e->top, e->cursor, e->base.page);
	if (e->cursor >= e->top + e->base.page / 2 && e->cursor - e->base.page / 2 >= 0 &&
	    row != e->top)
		e->top = MAX(e->top, e->cursor - e->base.page / 2); /* a jump lands mid-screen */
	return FTL_TUI_REACT_REDRAW;
}

void ftl_tui_events_panel_goto_row(FtlTuiPanel *p, gint64 row)
{
	EventsPanel *e = (EventsPanel *)p;
	e->cursor = row;
	e->top = MAX(row - MAX(e->base.page, 2) / 2, 0);
}

gint64 ftl_tui_events_panel_row(FtlTuiPanel *p)
{
	return ((EventsPanel *)p)->cursor;
}

void ftl_tui_events_panel_find(FtlTuiPanel *p, FtlTuiApp *app, const FtlTuiFind *find)
{
	EventsPanel *e = (EventsPanel *)p;
	if (!app->events)
		return;
	e->seen = ftl_tui_events_gen(app->events);
	e->finding = TRUE;
	e->find_kind = find->kind;
	e->find_from = e->cursor;
	ftl_tui_events_find(app->events, find);
}

static FtlTuiReaction events_activate(EventsPanel *e, FtlTuiApp *app)
{
	const FtlTuiRow *r = ftl_tui_events_row(app->events, (guint64)e->cursor);
	if (!r)
		return FTL_TUI_REACT_NONE;
	if (e->jump_to == e->cursor && e->jump_from >= 0) {
		gint64 back = e->jump_from;
		e->jump_from = e->cursor;
		e->jump_to = back;
		return events_goto(e, back);
	}
	FtlTuiFind f = { .from = (guint64)e->cursor, .cpu = r->cpu, .depth = r->depth };
	if (r->kind == FTL_EVENT_FUNC_ENTRY && !r->leaf)
		f.kind = FTL_TUI_FIND_EXIT;
	else if (r->kind == FTL_EVENT_FUNC_EXIT)
		f.kind = FTL_TUI_FIND_ENTRY;
	else {
		ftl_tui_app_say(app, FALSE, "%s",
				r->leaf ? "a leaf: its entry and exit are this line"
					: "Enter jumps between a call's entry and exit");
		return FTL_TUI_REACT_STATUS;
	}
	ftl_tui_events_panel_find(&e->base, app, &f);
	return FTL_TUI_REACT_STATUS;
}

static FtlTuiReaction events_command(FtlTuiPanel *p, FtlTuiApp *app, FtlTuiCmd cmd,
				     const FtlTuiInput *in)
{
	EventsPanel *e = (EventsPanel *)p;
	gint64 n = events_limit(e, app);
	if (cmd == FTL_TUI_CMD_BOTTOM) {
		gboolean exact;
		ftl_tui_events_count(app->events, &exact);
		if (!exact)
			ftl_tui_app_say(app, FALSE,
					"still counting the events: G again goes further");
	}
	if (ftl_tui_move(&e->cursor, n, p->page, cmd)) {
		ftl_tui_scroll(&e->top, e->cursor, p->page);
		return FTL_TUI_REACT_REDRAW;
	}
	switch (cmd) {
	case FTL_TUI_CMD_CLICK:
		if (in->y >= 2 && in->y - 2 < p->page)
			return events_goto(e, MIN(e->top + in->y - 2, n - 1));
		return FTL_TUI_REACT_NONE;
	case FTL_TUI_CMD_LEFT:
		e->hscroll = MAX(e->hscroll - 8, 0);
		return FTL_TUI_REACT_REDRAW;
	case FTL_TUI_CMD_RIGHT:
		e->hscroll += 8;
		return FTL_TUI_REACT_REDRAW;
	case FTL_TUI_CMD_ACTIVATE:
		return events_activate(e, app);
	default:
		return FTL_TUI_REACT_NONE;
	}
}

static FtlTuiReaction events_search(FtlTuiPanel *p, FtlTuiApp *app, GRegex *re, int dir)
{
	EventsPanel *e = (EventsPanel *)p;
	FtlTuiFind f = {
		.kind = FTL_TUI_FIND_REGEX, .from = (guint64)e->cursor, .dir = dir, .re = re
	};
	ftl_tui_events_panel_find(p, app, &f);
	return FTL_TUI_REACT_STATUS;
}

static gint64 events_cursor_time(FtlTuiPanel *p, FtlTuiApp *app)
{
	EventsPanel *e = (EventsPanel *)p;
	const FtlTuiRow *r =
		app->events ? ftl_tui_events_row(app->events, (guint64)e->cursor) : NULL;
	return r ? r->ts : FTL_TS_NONE;
}

static FtlTuiReaction events_goto_time(FtlTuiPanel *p, FtlTuiApp *app, gint64 ts)
{
	FtlTuiFind f = { .kind = FTL_TUI_FIND_TIME, .ts = ts };
	ftl_tui_events_panel_find(p, app, &f);
	return FTL_TUI_REACT_STATUS; /* the row once it is found */
}

/* A find of this panel ended: go there. */
static FtlTuiReaction events_found(EventsPanel *e, FtlTuiApp *app, gint64 row)
{
	static const char *const what[] = { "no match", "no exit for this call in the trace",
					    "no entry for this exit in the trace",
					    "no event at or after that time",
					    "no event from that line", "no event at or after that time" };
	e->finding = FALSE;
	if (row == -2)
		return FTL_TUI_REACT_STATUS; /* Esc: its "stopped" stays */
	if (row < 0) {
		ftl_tui_app_say(app, TRUE, "%s", what[e->find_kind]);
		return FTL_TUI_REACT_STATUS;
	}
	if (e->find_kind == FTL_TUI_FIND_EXIT || e->find_kind == FTL_TUI_FIND_ENTRY) {
		e->jump_from = e->find_from;
		e->jump_to = row;
	}
	return events_goto(e, row);
}

static FtlTuiReaction events_tick(FtlTuiPanel *p, FtlTuiApp *app)
{
	EventsPanel *e = (EventsPanel *)p;
	if (!app->events)
		return FTL_TUI_REACT_NONE;
	if (e->seen != ftl_tui_events_gen(app->events)) {
		/* the filters changed: stay at the same time */
		e->seen = ftl_tui_events_gen(app->events);
		e->cursor = e->top = 0;
		e->jump_from = e->jump_to = -1;
		e->finding = FALSE;
		if (app->follow_ts != FTL_TS_NONE) {
			FtlTuiFind f = { .kind = FTL_TUI_FIND_TIME, .ts = app->follow_ts };
			app->follow_ts = FTL_TS_NONE;
			ftl_tui_events_panel_find(p, app, &f);
		}
		return FTL_TUI_REACT_REDRAW;
	}
	gint64 row;
	if (e->finding && ftl_tui_events_found(app->events, &row))
		return events_found(e, app, row);
	gboolean exact;
	guint64 n = ftl_tui_events_count(app->events, &exact);
	if (exact && e->cursor >= (gint64)n && n > 0) {
		e->cursor = (gint64)n - 1;
		ftl_tui_scroll(&e->top, e->cursor, p->page);
		return FTL_TUI_REACT_REDRAW;
	}
	return FTL_TUI_REACT_NONE;
}

/* The cursor's row and the first row shown, and the event at the cursor
 * (its time, CPU and name): the row on this trace, the event on another. */
static void events_save(FtlTuiPanel *p, FtlTuiApp *app, FtlTuiView *v)
{
	EventsPanel *e = (EventsPanel *)p;
	if (!app->events)
		return;
	ftl_tui_view_set_int(v, "events", "row", MAX(e->cursor, 0));
	ftl_tui_view_set_int(v, "events", "top", MAX(e->top, 0));
	/* the rows it showed: a jump before it is drawn again lands as it would have */
	ftl_tui_view_set_int(v, "events", "page", CLAMP(p->page, 0, 100000));
	const FtlTuiRow *r = ftl_tui_events_row(app->events, (guint64)e->cursor);
	if (!r || r->ts == FTL_TS_NONE)
		return;
	ftl_tui_view_set_int(v, "events", "ts", r->ts);
	ftl_tui_view_set_int(v, "events", "cpu", MAX(r->cpu, -1));
	if (r->name && *r->name)
		ftl_tui_view_set_name(v, "events", "event", r->name);
}

static void events_restore(FtlTuiPanel *p, FtlTuiApp *app, const FtlTuiView *v, gboolean same)
{
	EventsPanel *e = (EventsPanel *)p;
	gint64 row, top, ts, cpu;
	if (!app->events)
		return;
	e->seen = ftl_tui_events_gen(app->events);
	e->jump_from = e->jump_to = -1;
	if (!p->page && ftl_tui_view_get_int(v, "events", "page", &row))
		p->page = (int)row;
	if (same && ftl_tui_view_get_int(v, "events", "row", &row)) {
		e->finding = FALSE;
		e->cursor = row;
		e->top = ftl_tui_view_get_int(v, "events", "top", &top) ? MIN(top, row) : row;
		return;
	}
	if (!ftl_tui_view_get_int(v, "events", "ts", &ts))
		return;
	g_autofree char *name = ftl_tui_view_get_name(v, "events", "event");
	FtlTuiFind f = { .kind = FTL_TUI_FIND_TIME, .ts = ts };
	if (name && strlen(name) < sizeof f.name && ftl_tui_view_get_int(v, "events", "cpu", &cpu)) {
		f.kind = FTL_TUI_FIND_EVENT;
		f.cpu = (gint32)cpu;
		g_strlcpy(f.name, name, sizeof f.name);
	}
	ftl_tui_events_panel_find(p, app, &f);
}

const FtlTuiPanelClass ftl_tui_events_panel = {
	.id = FTL_TUI_PANEL_EVENTS,
	.name = "Events",
	.new = events_new,
	.free = events_free,
	.available = ftl_tui_app_has_events,
	.draw = events_draw,
	.command = events_command,
	.search = events_search,
	.cursor_time = events_cursor_time,
	.goto_time = events_goto_time,
	.tick = events_tick,
	.save = events_save,
	.restore = events_restore,
};
