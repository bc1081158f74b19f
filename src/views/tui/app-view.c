/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Saved views in the app: what the app itself keeps (the panel, the
 * filters, marks, bookmarks, the time mode, the trace it was saved for),
 * the panels' own state through their save/restore, Z and O. */
#include "config.h"

#include <glib/gstdio.h>
#include <string.h>

#include "util/escape.h"
#include "views/tui/app.h"
#include "views/tui/tui.h"

static const char *const view_marks[2] = { "mark_a", "mark_b" };

/* ---- saving ------------------------------------------------------------------ */

static void view_take_trace(FtlTuiApp *app, FtlTuiView *v)
{
	const char *const *paths = app->opt->paths;
	guint n = paths ? MIN(g_strv_length((char **)paths), 64) : 0;
	g_autoptr(GPtrArray) abs = g_ptr_array_new_with_free_func(g_free);
	g_autofree gint64 *sizes = g_new0(gint64, n + 1);
	for (guint i = 0; i < n; i++) {
		GStatBuf st;
		g_ptr_array_add(abs, g_canonicalize_filename(paths[i], NULL));
		sizes[i] = g_stat(paths[i], &st) == 0 ? MAX((gint64)st.st_size, 0) : 0;
	}
	ftl_tui_view_set_names(v, "trace", "paths", (const char *const *)abs->pdata, n);
	ftl_tui_view_set_ints(v, "trace", "sizes", sizes, n);
	/* a model being read again (a filter changed) is not the filters' yet */
	if (!app->model || app->loader || app->loader_due)
		return;
	if (app->model->first_ts != FTL_TS_NONE)
		ftl_tui_view_set_int(v, "trace", "first", app->model->first_ts);
	ftl_tui_view_set_int(v, "trace", "events", (gint64)MIN(app->model->n_events,
								      (guint64)G_MAXINT64));
}

FtlTuiView *ftl_tui_app_view_take(FtlTuiApp *app)
{
	FtlTuiView *v = ftl_tui_view_new();
	view_take_trace(app, v);
	ftl_tui_view_set_name(v, "view", "panel", app->panels[app->current]->klass->name);
	ftl_tui_view_set_int(v, "view", "time_mode", app->time_mode);
	GPtrArray *items = app->filter->items;
	g_autoptr(GPtrArray) texts = g_ptr_array_new();
	for (guint i = 0; i < MIN(items->len, 64); i++)
		g_ptr_array_add(texts, (gpointer)ftl_tui_filter_item_text(items->pdata[i]));
	ftl_tui_view_set_names(v, "view", "filters", (const char *const *)texts->pdata,
			       texts->len);
	for (int i = 0; i < 2; i++)
		if (app->mark[i] != FTL_TS_NONE)
			ftl_tui_view_set_int(v, "view", view_marks[i], app->mark[i]);
	/* the Timeline's cursor, that the Events list goes to when shown */
	if (app->follow_ts != FTL_TS_NONE)
		ftl_tui_view_set_int(v, "view", "follow", app->follow_ts);
	for (guint i = 0; i < G_N_ELEMENTS(app->bookmarks); i++) {
		const FtlTuiBookmark *bm = &app->bookmarks[i];
		if (bm->ts == FTL_TS_NONE)
			continue;
		char key[32];
		g_snprintf(key, sizeof key, "bookmark_%c", 'a' + i);
		ftl_tui_view_set_int(v, "view", key, bm->ts);
		g_snprintf(key, sizeof key, "bookmark_row_%c", 'a' + i);
		ftl_tui_view_set_int(v, "view", key, MAX(bm->row, -1));
	}
	for (guint i = 0; i < FTL_TUI_N_PANELS; i++) {
		FtlTuiPanel *p = app->panels[i];
		if (p->klass->save && app->model && ftl_tui_app_panel_has(app, i))
			p->klass->save(p, app, v);
	}
	return v;
}

FtlTuiReaction ftl_tui_app_view_save(FtlTuiApp *app, const char *name)
{
	g_autoptr(GError) error = NULL;
	/* a name, never a path: a key typed by mistake writes in the views
	 * directory alone */
	g_autofree char *path = ftl_tui_view_name_ok(name, &error)
					? ftl_tui_view_resolve(name, &error)
					: NULL;
	g_autoptr(FtlTuiView) v = path ? ftl_tui_app_view_take(app) : NULL;
	if (!v || !ftl_tui_view_save(v, path, &error)) {
		g_autofree char *msg = ftl_escape(error->message, -1);
		ftl_tui_app_say(app, TRUE, "save view: %s", msg);
		return FTL_TUI_REACT_STATUS;
	}
	g_autofree char *safe = ftl_escape(path, -1);
	ftl_tui_app_say(app, FALSE, "view saved: %s", safe);
	return FTL_TUI_REACT_STATUS;
}

/* ---- opening ----------------------------------------------------------------- */

void ftl_tui_app_view_filters(FtlTuiApp *app, gboolean rebuild)
{
	g_auto(GStrv) texts = ftl_tui_view_get_names(app->view, "view", "filters");
	FtlTuiFilter *f = ftl_tui_filter_new(app->opt->filter);
	for (guint i = 0; texts && texts[i]; i++) {
		/* checked when the file was read */
		FtlTuiFilterItem *it = ftl_tui_filter_item_parse(texts[i], NULL);
		if (!it)
			continue;
		FtlTuiFilter *next = ftl_tui_filter_push(f, it);
		ftl_tui_filter_item_unref(it);
		ftl_tui_filter_free(f);
		f = next;
	}
	if (!rebuild) {
		ftl_tui_filter_free(app->filter);
		app->filter = f;
		return;
	}
	ftl_tui_app_set_filter(app, f);
	/* where the Events list goes is the view's to say */
	app->follow_ts = FTL_TS_NONE;
}

FtlTuiReaction ftl_tui_app_view_open(FtlTuiApp *app, const char *name)
{
	g_autoptr(GError) error = NULL;
	g_autofree char *path = ftl_tui_view_resolve(name, &error);
	FtlTuiView *v = path ? ftl_tui_view_load(path, &error) : NULL;
	if (!v) {
		g_autofree char *msg = ftl_escape(error->message, -1);
		ftl_tui_app_say(app, TRUE, "open view: %s", msg);
		return FTL_TUI_REACT_STATUS;
	}
	ftl_tui_view_free(app->view_owned);
	app->view_owned = v;
	app->view = v;
	ftl_tui_app_view_filters(app, TRUE);
	ftl_tui_app_say(app, FALSE, "opening the view...");
	return FTL_TUI_REACT_REBUILD | FTL_TUI_REACT_REDRAW;
}

/* Whether the saved view was (key in [trace]) what here is; a view saved
 * before the trace was read does not say. */
static gboolean view_same_int(const FtlTuiView *saved, const FtlTuiView *here, const char *key)
{
	gint64 x = 0, y = 0;
	if (!ftl_tui_view_get_int(saved, "trace", key, &x))
		return TRUE;
	return ftl_tui_view_get_int(here, "trace", key, &y) && x == y;
}

/* Whether the view was saved for this trace: the same sizes, first event
 * and count of events (under the same filters); else why not, for the
 * status line. */
static char *view_other_trace(FtlTuiApp *app, const FtlTuiView *v)
{
	g_autoptr(FtlTuiView) here = ftl_tui_view_new();
	view_take_trace(app, here);
	g_auto(GStrv) paths = ftl_tui_view_get_names(v, "trace", "paths");
	guint n_was, n_is;
	g_autofree gint64 *was = ftl_tui_view_get_ints(v, "trace", "sizes", &n_was);
	g_autofree gint64 *is = ftl_tui_view_get_ints(here, "trace", "sizes", &n_is);
	const char *why = NULL;
	if (n_was != n_is || (n_was && memcmp(was, is, n_was * sizeof *was)))
		why = "other sizes";
	else if (!view_same_int(v, here, "first"))
		why = "another first event";
	else if (!view_same_int(v, here, "events"))
		why = "another count of events";
	if (!why)
		return NULL;
	g_autofree char *base = paths && paths[0] ? g_path_get_basename(paths[0]) : NULL;
	g_autofree char *safe = base ? ftl_escape(base, -1) : g_strdup("another trace");
	return g_strdup_printf("saved for %s (%s)", safe, why);
}

FtlTuiReaction ftl_tui_app_view_apply(FtlTuiApp *app)
{
	const FtlTuiView *v = app->view;
	app->view = NULL;
	g_autofree char *other = view_other_trace(app, v);
	gint64 x;
	if (ftl_tui_view_get_int(v, "view", "time_mode", &x))
		app->time_mode = (FtlTuiTimeMode)x;
	for (int i = 0; i < 2; i++)
		app->mark[i] = ftl_tui_view_get_int(v, "view", view_marks[i], &x) ? x : FTL_TS_NONE;
	for (guint i = 0; i < G_N_ELEMENTS(app->bookmarks); i++) {
		char key[32];
		FtlTuiBookmark bm = { FTL_TS_NONE, -1 };
		g_snprintf(key, sizeof key, "bookmark_%c", 'a' + i);
		if (ftl_tui_view_get_int(v, "view", key, &x)) {
			bm.ts = x;
			g_snprintf(key, sizeof key, "bookmark_row_%c", 'a' + i);
			/* a row names an event of this trace only */
			if (!other && ftl_tui_view_get_int(v, "view", key, &x))
				bm.row = x;
		}
		app->bookmarks[i] = bm;
	}
	for (guint i = 0; i < FTL_TUI_N_PANELS; i++) {
		FtlTuiPanel *p = app->panels[i];
		if (p->klass->restore && ftl_tui_app_panel_has(app, i))
			p->klass->restore(p, app, v, !other);
	}
	app->follow_ts = ftl_tui_view_get_int(v, "view", "follow", &x) ? x : FTL_TS_NONE;
	FtlTuiReaction r = FTL_TUI_REACT_REDRAW;
	g_autofree char *panel = ftl_tui_view_get_name(v, "view", "panel");
	gint id;
	if (panel && ftl_tui_panel_lookup(panel, &id, NULL) && ftl_tui_app_panel_has(app, id))
		r |= ftl_tui_go_panel(app, (FtlTuiPanelId)id);
	const char *path = ftl_tui_view_path(v);
	g_autofree char *base = g_path_get_basename(path ? path : "view");
	g_autofree char *safe = ftl_escape(base, -1);
	if (other)
		ftl_tui_app_say(app, TRUE, "view %s: %s: applied what fits", safe, other);
	else
		ftl_tui_app_say(app, FALSE, "view %s opened", safe);
	return r;
}

char *ftl_tui_app_view_prompt(void)
{
	g_autoptr(GPtrArray) names = ftl_tui_view_list();
	if (!names->len)
		return g_strdup("open view (none saved; a file with a '/'): ");
	GString *s = g_string_new("open view (");
	for (guint i = 0; i < names->len && s->len < 200; i++)
		g_string_append_printf(s, "%s%s", i ? ", " : "", (char *)names->pdata[i]);
	g_string_append(s, "): ");
	return g_string_free(s, FALSE);
}
