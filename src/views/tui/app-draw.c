/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Drawing the TUI's frame: the tab row, the status line (progress, marks,
 * filters), the message or prompt line and the help screen; the panel
 * shown draws the rest. Everything here reads state, nothing changes it. */
#include "config.h"

#include "views/tui/app.h"

#include <string.h>

#include "util/escape.h"

#define APP_MIN_ROWS 6
#define APP_MIN_COLS 30

int ftl_tui_app_tabs(FtlTuiApp *app, int cols, FtlTuiTab tabs[FTL_TUI_N_PANELS])
{
	int x = 0;
	for (int level = 0; level < 3; level++) {
		x = 0;
		for (guint i = 0; i < FTL_TUI_N_PANELS; i++) {
			FtlTuiTab *t = &tabs[i];
			const FtlTuiPanelClass *k = app->panels[i]->klass;
			t->x = x;
			t->w = 0;
			t->text[0] = 0;
			if (!k->available(app))
				continue;
			int keep = i == app->current || level == 0 ? 24 : level == 1 ? 3 : 0;
			/* numbered as its key: 1..9, then 0 */
			g_snprintf(t->text, sizeof t->text, " %u%s%.*s ", (i + 1) % 10, keep ? " " : "",
				   keep, k->name);
			t->w = (int)strlen(t->text);
			x += t->w;
		}
		if (x <= cols)
			break;
	}
	return x;
}

static void app_draw_tabs(FtlTuiApp *app, FtlTuiCanvas *c)
{
	ftl_tui_fill(c, 0, 0, -1, FTL_TUI_STYLE_TAB);
	FtlTuiTab tabs[FTL_TUI_N_PANELS];
	int x = ftl_tui_app_tabs(app, c->cols, tabs);
	for (guint i = 0; i < FTL_TUI_N_PANELS; i++) {
		if (!tabs[i].w)
			continue;
		const FtlTuiPanelClass *k = app->panels[i]->klass;
		FtlTuiStyle st = i == app->current		   ? FTL_TUI_STYLE_TAB_ACTIVE
				 : k->empty && k->empty(app) ? FTL_TUI_STYLE_TAB_EMPTY
							     : FTL_TUI_STYLE_TAB;
		ftl_tui_put(c, 0, tabs[i].x, -1, tabs[i].text, st);
	}
	/* the input's name, from the command line: made visible all the same */
	g_autofree char *label =
		app->opt->compare
			? g_strdup_printf("A %s B %s", app->opt->label ? app->opt->label : "",
					  app->opt->compare->label ? app->opt->compare->label : "")
			: g_strdup(app->opt->label ? app->opt->label : "");
	g_autofree char *vis = ftl_escape(label, -1);
	int w = (int)ftl_escape_width(vis);
	if (x + 2 + w <= c->cols)
		ftl_tui_put(c, 0, c->cols - w - 1, w, vis, FTL_TUI_STYLE_TAB);
}

static void app_status_marks(FtlTuiApp *app, GString *s)
{
	char a[32], b[32], d[32];
	if (app->mark[0] != FTL_TS_NONE)
		g_string_append_printf(s, " A %s", ftl_tui_app_abs_time(app, app->mark[0], a, sizeof a));
	if (app->mark[1] != FTL_TS_NONE)
		g_string_append_printf(s, " B %s", ftl_tui_app_abs_time(app, app->mark[1], b, sizeof b));
	if (app->mark[0] != FTL_TS_NONE && app->mark[1] != FTL_TS_NONE) {
		gint64 delta = app->mark[1] - app->mark[0];
		g_string_append_printf(s, " B-A %s%s", delta < 0 ? "-" : "",
				       ftl_tui_duration(delta < 0 ? -delta : delta, d, sizeof d));
	}
}

static void app_status_progress(FtlTuiApp *app, GString *s)
{
	guint64 done;
	if (app->loader) {
		char t[32];
		gint64 at = ftl_tui_loader_time(app->loader);
		g_string_append_printf(s, " reading: %" G_GUINT64_FORMAT " events",
				       ftl_tui_loader_events(app->loader));
		if (at != FTL_TS_NONE)
			g_string_append_printf(s, ", at %s", ftl_tui_app_abs_time(app, at, t, sizeof t));
		g_string_append(s, " |");
	} else if (app->loader_due) {
		g_string_append(s, " reading: 0 events |");
	}
	if (app->tree_loader) {
		static const char *const groups[] = { "all", "per-CPU", "per-task" };
		g_string_append_printf(s, " %s tree: %" G_GUINT64_FORMAT " events |",
				       groups[app->tree_group],
				       ftl_tui_loader_events(app->tree_loader));
	}
	if (app->events && ftl_tui_events_finding(app->events, &done))
		g_string_append_printf(s, " searching: %" G_GUINT64_FORMAT " rows (Esc stops) |",
				       done);
}

static void app_draw_status(FtlTuiApp *app, FtlTuiCanvas *c, int y)
{
	ftl_tui_fill(c, y, 0, -1, FTL_TUI_STYLE_STATUS);
	g_autoptr(GString) left = g_string_new(NULL);
	app_status_progress(app, left);
	/* --compare: the panels of one trace show A's, and say so */
	if (app->opt->compare && app->current != FTL_TUI_PANEL_FUNCS &&
	    app->current != FTL_TUI_PANEL_GRAPH && app->current != FTL_TUI_PANEL_TIMELINE)
		g_string_append(left, " A only (x: B) |");
	for (guint i = 0; i < ftl_tui_filter_depth(app->filter); i++) {
		/* the user's own words, but shown like any text from outside */
		g_autofree char *f = ftl_escape(
			ftl_tui_filter_item_text(g_ptr_array_index(app->filter->items, i)), -1);
		g_string_append_printf(left, " [%s]", f);
	}
	g_autoptr(GString) right = g_string_new(NULL);
	app_status_marks(app, right);
	int w = (int)ftl_escape_width(right->str);
	ftl_tui_put(c, y, 0, MAX(c->cols - w - 1, 0), left->str, FTL_TUI_STYLE_STATUS);
	if (w < c->cols)
		ftl_tui_put(c, y, c->cols - w - 1, w, right->str, FTL_TUI_STYLE_STATUS);
}

static void app_draw_bottom(FtlTuiApp *app, FtlTuiCanvas *c, int y)
{
	static const char *const prompts[] = { "", "/", "?", "filter: ", "time: ", "save view as: ",
					       "open view" };
	if (app->prompt) {
		g_autofree char *text = ftl_escape(app->prompt_text->str, -1);
		g_autofree char *label = app->prompt == FTL_TUI_PROMPT_OPEN_VIEW
						 ? ftl_tui_app_view_prompt()
						 : g_strdup(prompts[app->prompt]);
		g_autofree char *line = g_strdup_printf("%s%s", label, text);
		int w = (int)ftl_escape_width(line);
		/* keep the end of a long entry in view */
		const char *show = line;
		while (w >= c->cols && *show) {
			const char *next = g_utf8_next_char(show);
			char ch[8] = { 0 };
			memcpy(ch, show, MIN((gsize)(next - show), sizeof ch - 1));
			w -= (int)ftl_escape_width(ch);
			show = next;
		}
		ftl_tui_put(c, y, 0, -1, show, FTL_TUI_STYLE_NORMAL);
		ftl_tui_put(c, y, MIN(w, c->cols - 1), 1, "_", FTL_TUI_STYLE_CURSOR);
	} else if (app->pending) {
		ftl_tui_put(c, y, 0, -1,
			    app->pending == 'm' ? "bookmark: a letter" : "go to bookmark: a letter",
			    FTL_TUI_STYLE_NORMAL);
	} else if (app->message) {
		ftl_tui_put(c, y, 0, -1, app->message,
			    app->message_error ? FTL_TUI_STYLE_ERROR : FTL_TUI_STYLE_NORMAL);
	} else if (!app->help) {
		ftl_tui_put(c, y, 0, -1, "h: help  q: quit  Tab: next panel  /: search  f: filter",
			    FTL_TUI_STYLE_DIM);
	}
}

/* The keys of the panel shown first, then those of every panel, then the
 * other panels' own; each part sorted by key. */
static GPtrArray *app_help_rows(FtlTuiApp *app)
{
	g_autoptr(GPtrArray) sorted = ftl_tui_keys_sorted();
	GPtrArray *rows = g_ptr_array_new();
	guint here = 1u << app->current;
	for (int part = 0; part < 3; part++)
		for (guint i = 0; i < sorted->len; i++) {
			const FtlTuiBinding *b = g_ptr_array_index(sorted, i);
			int p = b->panels == FTL_TUI_ALL ? 1 : (b->panels & here) ? 0 : 2;
			if (p == part)
				g_ptr_array_add(rows, (gpointer)b);
		}
	return rows;
}

void ftl_tui_app_draw_help(FtlTuiApp *app, FtlTuiCanvas *c, int y, int h)
{
	g_autoptr(GPtrArray) rows = app_help_rows(app);
	g_autofree char *head =
		g_strdup_printf(" Key        Where                   What (%s's own keys first)",
				app->panels[app->current]->klass->name);
	ftl_tui_put(c, y, 0, -1, head, FTL_TUI_STYLE_HEADER);
	int n = (int)rows->len, top = MIN(app->help_top, MAX(n - (h - 1), 0));
	for (int i = 0; i + 1 < h && top + i < n; i++) {
		const FtlTuiBinding *b = g_ptr_array_index(rows, top + i);
		char buf[8];
		g_autofree char *where = ftl_tui_keys_panels(b->panels);
		ftl_tui_put(c, y + 1 + i, 1, 10, ftl_tui_key_name(b->key, buf), FTL_TUI_STYLE_MARK);
		ftl_tui_put(c, y + 1 + i, 12, 23, where, FTL_TUI_STYLE_DIM);
		ftl_tui_put(c, y + 1 + i, 36, -1, b->help, FTL_TUI_STYLE_NORMAL);
	}
}

void ftl_tui_app_draw(FtlTuiApp *app, FtlTuiCanvas *c)
{
	app->rows = c->rows;
	app->cols = c->cols;
	ftl_tui_canvas_erase(c);
	if (c->rows < APP_MIN_ROWS || c->cols < APP_MIN_COLS) {
		ftl_tui_put(c, 0, 0, -1, "ftlens: terminal too small", FTL_TUI_STYLE_ERROR);
		return;
	}
	app_draw_tabs(app, c);
	int h = c->rows - 3;
	FtlTuiPanel *p = app->panels[app->current];
	const char *empty = p->klass->empty ? p->klass->empty(app) : NULL;
	if (app->help) {
		ftl_tui_app_draw_help(app, c, 1, h);
	} else if (empty || (p->klass->needs_model && !app->model)) {
		/* the tab is there from the first screen: it says what it waits
		 * for, or why it stays empty */
		g_autofree char *what =
			empty ? g_strdup_printf("%s: %s", p->klass->name, empty)
			      : g_strdup_printf("%s: reading the input (%" G_GUINT64_FORMAT
						" events so far); it shows once they are read",
						p->klass->name,
						app->loader ? ftl_tui_loader_events(app->loader) : 0);
		ftl_tui_fill(c, 1, 0, -1, FTL_TUI_STYLE_HEADER);
		ftl_tui_put(c, 1, 0, -1, p->klass->name, FTL_TUI_STYLE_HEADER);
		ftl_tui_put(c, 3, 2, -1, what, empty ? FTL_TUI_STYLE_DIM : FTL_TUI_STYLE_NORMAL);
	} else {
		p->klass->draw(p, app, c, 1, h);
	}
	app_draw_status(app, c, c->rows - 2);
	app_draw_bottom(app, c, c->rows - 1);
}

void ftl_tui_app_draw_status(FtlTuiApp *app, FtlTuiCanvas *c)
{
	if (c->rows < APP_MIN_ROWS || c->cols < APP_MIN_COLS)
		return;
	app_draw_status(app, c, c->rows - 2);
	ftl_tui_fill(c, c->rows - 1, 0, -1, FTL_TUI_STYLE_NORMAL);
	app_draw_bottom(app, c, c->rows - 1);
}
