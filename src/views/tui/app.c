/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The TUI's state and what keys do to it: the one key table (keys.c) maps a
 * key to a command, the app does the global ones and hands the others to
 * the panel shown; each returns a reaction for the loop. */
#include "config.h"

#include "views/tui/app.h"

#include <string.h>

#include "util/error.h"
#include "util/escape.h"
#include "util/scan.h"
#include "views/tui/tui.h"

static const FtlTuiPanelClass *const app_panel_classes[FTL_TUI_N_PANELS] = {
	&ftl_tui_events_panel,	 &ftl_tui_graph_panel,	 &ftl_tui_funcs_panel,
	&ftl_tui_timeline_panel, &ftl_tui_markers_panel, &ftl_tui_flame_panel,
	&ftl_tui_quality_panel,	 &ftl_tui_stack_panel,	 &ftl_tui_oops_panel,
	&ftl_tui_sched_panel,
};

gboolean ftl_tui_panel_lookup(const char *name, gint *id, GError **error)
{
	g_autoptr(GString) names = g_string_new(NULL);
	for (guint i = 0; i < FTL_TUI_N_PANELS; i++) {
		if (!g_ascii_strcasecmp(name, app_panel_classes[i]->name)) {
			*id = (gint)i;
			return TRUE;
		}
		g_autofree char *low = g_ascii_strdown(app_panel_classes[i]->name, -1);
		g_string_append_printf(names, "%s%s", i ? ", " : "", low);
	}
	g_set_error(error, FTL_ERROR, FTL_ERROR_USAGE, "tui: --panel '%s': expected one of %s",
		    name, names->str);
	return FALSE;
}

FtlTuiPanel *ftl_tui_app_panel(FtlTuiApp *app, FtlTuiPanelId id)
{
	return app->panels[id];
}

static FtlTuiPanel *app_shown(FtlTuiApp *app)
{
	return app->panels[app->current];
}

/* The panel shown, when it has something to act on: one that waits for
 * the model or has nothing in it is drawn by the app, and its view state
 * may still name an older model's parts (its tick does not run). */
static FtlTuiPanel *app_live(FtlTuiApp *app)
{
	FtlTuiPanel *p = app_shown(app);
	const FtlTuiPanelClass *k = p->klass;
	if ((k->needs_model && !app->model) || (k->empty && k->empty(app)))
		return NULL;
	return p;
}

/* The Events list under the filter stack as it is now. */
static void app_events_start(FtlTuiApp *app)
{
	g_clear_pointer(&app->events, ftl_tui_events_free);
	if (!app->opt->open && !app->first)
		return;
	FtlTuiSeeker seeker = ftl_tui_seeker_new(app->opt, &app->io, g_steal_pointer(&app->first));
	app->events = ftl_tui_events_new(seeker, &app->io, ftl_tui_filter_push(app->filter, NULL));
}

static void app_loader_start(FtlTuiApp *app)
{
	app->loader_due = 0;
	app->loader = ftl_tui_loader_start(app->opt, &app->io,
					   ftl_tui_filter_push(app->filter, NULL), NULL);
}

static void app_loader_cancel(FtlTuiLoader **l)
{
	if (!*l)
		return;
	ftl_tui_loader_cancel(*l);
	ftl_tui_model_free(ftl_tui_loader_finish(g_steal_pointer(l), NULL));
}

static void app_loader_stop(FtlTuiApp *app)
{
	app_loader_cancel(&app->side_loader);
	app_loader_cancel(&app->tree_loader);
	app_loader_cancel(&app->loader);
}

static void app_rebuild(FtlTuiApp *app)
{
	/* the new list starts where the old one was */
	FtlTuiPanel *ev = app->panels[FTL_TUI_PANEL_EVENTS];
	gint64 ts = app->events ? ev->klass->cursor_time(ev, app) : FTL_TS_NONE;
	if (ts != FTL_TS_NONE)
		app->follow_ts = ts;
	app_loader_stop(app);
	app_loader_start(app);
	app_events_start(app);
}

FtlTuiApp *ftl_tui_app_new(const FtlTuiOptions *opt)
{
	FtlTuiApp *app = g_new0(FtlTuiApp, 1);
	app->opt = opt;
	g_rw_lock_init(&app->io.lock);
	app->filter = ftl_tui_filter_new(opt->filter);
	app->view = opt->view;
	if (app->view)
		ftl_tui_app_view_filters(app, FALSE);
	app->first = opt->first;
	app->mark[0] = app->mark[1] = FTL_TS_NONE;
	app->follow_ts = FTL_TS_NONE;
	app->go.show = FTL_TUI_N_PANELS;
	app->prompt_text = g_string_new(NULL);
	for (guint i = 0; i < G_N_ELEMENTS(app->bookmarks); i++)
		app->bookmarks[i] = (FtlTuiBookmark){ FTL_TS_NONE, -1 };
	for (guint i = 0; i < FTL_TUI_N_PANELS; i++) {
		app->panels[i] = app_panel_classes[i]->new ();
		app->panels[i]->klass = app_panel_classes[i];
	}
	/* the list first, from the trace already open: the first screen at
	 * once; the model's reading, which takes every core, right after */
	app_events_start(app);
	app->loader_due = MAX(g_get_monotonic_time(), 1);
	app->current = FTL_TUI_PANEL_EVENTS;
	if (!app_panel_classes[FTL_TUI_PANEL_EVENTS]->available(app))
		for (guint i = 0; i < FTL_TUI_N_PANELS; i++)
			if (app_panel_classes[i]->available(app)) {
				app->current = i;
				break;
			}
	return app;
}

void ftl_tui_app_free(FtlTuiApp *app)
{
	if (!app)
		return;
	app_loader_stop(app);
	ftl_tui_go_clear(app);
	g_clear_pointer(&app->events, ftl_tui_events_free);
	for (guint i = 0; i < FTL_TUI_N_PANELS; i++)
		app->panels[i]->klass->free(app->panels[i]);
	ftl_tui_model_free(app->model);
	ftl_tui_model_free(app->side_model);
	ftl_tui_filter_free(app->filter);
	ftl_tui_view_free(app->view_owned);
	ftl_trace_free(app->first);
	if (app->search)
		g_regex_unref(app->search);
	g_string_free(app->prompt_text, TRUE);
	g_free(app->message);
	g_clear_error(&app->error);
	g_rw_lock_clear(&app->io.lock);
	g_free(app);
}

GError *ftl_tui_app_take_error(FtlTuiApp *app)
{
	return g_steal_pointer(&app->error);
}

const FtlCallNode *ftl_tui_app_tree_root(FtlTuiApp *app, FtlCallTreeGroup group)
{
	return app->model && app->model->trees[group] ? ftl_calltree_root(app->model->trees[group])
						      : NULL;
}

/* The per-CPU and per-task trees are each as big as the one of all calls,
 * and few sessions look at them: one is read when a panel asks for it. */
void ftl_tui_app_want_tree(FtlTuiApp *app, FtlCallTreeGroup group)
{
	/* while a new model is built, the shown one's filter is not the stack's */
	if (!app->model || app->model->trees[group] || app->loader || !app->opt->open)
		return;
	if (app->tree_loader && app->tree_group == group)
		return;
	app_loader_cancel(&app->tree_loader);
	app->tree_group = group;
	app->tree_loader = ftl_tui_loader_start_tree(app->opt, &app->io,
						     ftl_tui_filter_push(app->filter, NULL), group);
}

/* The model a loader read, or NULL with the app's error set (reading
 * failed) or not (cancelled). */
static FtlTuiModel *app_loader_take(FtlTuiApp *app, FtlTuiLoader **l)
{
	g_autoptr(GError) error = NULL;
	FtlTuiModel *m = ftl_tui_loader_finish(g_steal_pointer(l), &error);
	if (!m && error && !app->error)
		app->error = g_steal_pointer(&error);
	return m;
}

static FtlTuiReaction app_tree_ready(FtlTuiApp *app)
{
	g_autoptr(FtlTuiModel) m = app_loader_take(app, &app->tree_loader);
	if (!m)
		return FTL_TUI_REACT_QUIT;
	ftl_tui_model_take_tree(app->model, m, app->tree_group);
	return FTL_TUI_REACT_REDRAW;
}

/* Whether key is read or being read; else the side loader is free. */
static gboolean app_side_has(FtlTuiApp *app, guint64 key)
{
	if (!app->model || app->loader || !app->opt->open ||
	    (app->side_loader ? app->side_loading : app->side_read) == key)
		return TRUE;
	app_loader_cancel(&app->side_loader);
	app->side_loading = key;
	return FALSE;
}

void ftl_tui_app_want_sched(FtlTuiApp *app, GArray *windows, guint64 key)
{
	if (app_side_has(app, key)) {
		g_array_unref(windows);
		return;
	}
	app->side_loader = ftl_tui_loader_start_sched(
		app->opt, &app->io, ftl_tui_filter_push(app->filter, NULL), windows);
}

void ftl_tui_app_want_durations(FtlTuiApp *app, const char *func, guint64 key)
{
	if (!app_side_has(app, key))
		app->side_loader = ftl_tui_loader_start_durations(
			app->opt, &app->io, ftl_tui_filter_push(app->filter, NULL), func);
}

void ftl_tui_app_want_wakeups(FtlTuiApp *app, gint32 pid, guint64 key)
{
	if (!app_side_has(app, key))
		app->side_loader = ftl_tui_loader_start_wakeups(
			app->opt, &app->io, ftl_tui_filter_push(app->filter, NULL), pid);
}

guint64 ftl_tui_side_key(FtlTuiSideKind kind, guint64 hash)
{
	return (hash & ~(3ull << 62)) | ((guint64)kind << 62);
}

const FtlTuiModel *ftl_tui_app_side(FtlTuiApp *app, guint64 key)
{
	return app->side_model && app->side_read == key ? app->side_model : NULL;
}

static FtlTuiReaction app_side_ready(FtlTuiApp *app)
{
	FtlTuiModel *m = app_loader_take(app, &app->side_loader);
	if (!m)
		return FTL_TUI_REACT_QUIT;
	ftl_tui_model_free(app->side_model);
	app->side_model = m;
	app->side_read = app->side_loading;
	return FTL_TUI_REACT_REDRAW;
}

gboolean ftl_tui_app_has_events(FtlTuiApp *app)
{
	return app->events != NULL;
}

const char *ftl_tui_app_no_calls(FtlTuiApp *app)
{
	if (!app->model || app->model->has_graph)
		return NULL;
	return ftl_tui_filter_depth(app->filter)
		       ? "no function calls pass the filters (Esc pops one)"
		       : "no function calls in this input: a function_graph or function trace has them";
}

gboolean ftl_tui_app_panel_has(FtlTuiApp *app, FtlTuiPanelId id)
{
	const FtlTuiPanelClass *k = app_panel_classes[id];
	return k->available(app) && !(k->empty && k->empty(app));
}

/* ---- panels ---------------------------------------------------------------- */

/* Shows panel id. The Events list goes first where the Timeline's cursor
 * is, when that moved: its goto_time only moves its own cursor. */
static FtlTuiReaction app_show(FtlTuiApp *app, FtlTuiPanelId id)
{
	if (!app_panel_classes[id]->available(app)) {
		ftl_tui_app_say(app, TRUE, "%s: nothing in this input for it",
				app_panel_classes[id]->name);
		return FTL_TUI_REACT_STATUS;
	}
	app->current = id;
	FtlTuiPanel *p = app_shown(app);
	if (id == FTL_TUI_PANEL_EVENTS && app->follow_ts != FTL_TS_NONE && p->klass->goto_time) {
		gint64 ts = app->follow_ts;
		app->follow_ts = FTL_TS_NONE;
		p->klass->goto_time(p, app, ts);
	}
	return FTL_TUI_REACT_SWITCH | FTL_TUI_REACT_REDRAW;
}

static FtlTuiReaction app_cycle(FtlTuiApp *app, int dir)
{
	guint id = app->current;
	for (guint n = 0; n < FTL_TUI_N_PANELS; n++) {
		id = (id + FTL_TUI_N_PANELS + (guint)dir) % FTL_TUI_N_PANELS;
		if (ftl_tui_app_panel_has(app, id))
			return app_show(app, id);
	}
	return FTL_TUI_REACT_NONE;
}

void ftl_tui_app_set_filter(FtlTuiApp *app, FtlTuiFilter *f)
{
	ftl_tui_filter_free(app->filter);
	app->filter = f;
	app_rebuild(app);
}

static FtlTuiReaction app_push_filter(FtlTuiApp *app, FtlTuiFilterItem *item)
{
	FtlTuiFilter *f = ftl_tui_filter_push(app->filter, item);
	ftl_tui_filter_item_unref(item);
	ftl_tui_filter_free(app->filter);
	app->filter = f;
	app_rebuild(app);
	return FTL_TUI_REACT_REBUILD | FTL_TUI_REACT_REDRAW;
}

static FtlTuiReaction app_pop_filter(FtlTuiApp *app)
{
	if (!ftl_tui_filter_depth(app->filter))
		return FTL_TUI_REACT_NONE;
	FtlTuiFilter *f = ftl_tui_filter_pop(app->filter);
	ftl_tui_filter_free(app->filter);
	app->filter = f;
	app_rebuild(app);
	return FTL_TUI_REACT_REBUILD | FTL_TUI_REACT_REDRAW;
}

static FtlTuiReaction app_events_find(FtlTuiApp *app, const FtlTuiFind *f)
{
	if (!app->events)
		return FTL_TUI_REACT_NONE;
	app->follow_ts = FTL_TS_NONE; /* the find says where */
	ftl_tui_events_panel_find(app->panels[FTL_TUI_PANEL_EVENTS], app, f);
	return app_show(app, FTL_TUI_PANEL_EVENTS);
}

static FtlTuiReaction app_events_at_time(FtlTuiApp *app, gint64 ts)
{
	if (ts == FTL_TS_NONE)
		return FTL_TUI_REACT_NONE;
	FtlTuiFind f = { .kind = FTL_TUI_FIND_TIME, .ts = ts };
	return app_events_find(app, &f);
}

FtlTuiReaction ftl_tui_app_go(FtlTuiApp *app, FtlTuiReaction r)
{
	if (!(r & FTL_TUI_REACT_GO))
		return r;
	FtlTuiGo go = app->go;
	app->go = (FtlTuiGo){ .show = FTL_TUI_N_PANELS };
	r &= ~(FtlTuiReaction)FTL_TUI_REACT_GO;
	if (go.filter)
		r |= app_push_filter(app, go.filter);
	if (go.find)
		r |= app_events_find(app, &go.at);
	else if (go.show < FTL_TUI_N_PANELS)
		r |= app_show(app, go.show);
	return r;
}

static gint64 app_cursor_time(FtlTuiApp *app)
{
	FtlTuiPanel *p = app_live(app);
	return p && p->klass->cursor_time ? p->klass->cursor_time(p, app) : FTL_TS_NONE;
}

/* ---- the prompt ---------------------------------------------------------- */

static const char *app_time_unit(const char *s, gint64 *div)
{
	static const struct {
		const char *unit;
		gint64 div;
	} units[] = { { "ns", 1000000000 }, { "us", 1000000 }, { "ms", 1000 }, { "s", 1 } };
	gsize n = strlen(s);
	for (guint i = 0; i < G_N_ELEMENTS(units); i++) {
		gsize u = strlen(units[i].unit);
		if (n > u && !strcmp(s + n - u, units[i].unit)) {
			*div = units[i].div;
			return s + n - u;
		}
	}
	*div = 1;
	return s + n;
}

gboolean ftl_tui_parse_time(const char *text, gint64 cursor, gint64 start, gint64 origin,
			    gint64 *out, GError **error)
{
	g_autofree char *s = g_strstrip(g_strdup(text));
	gint64 base = origin == FTL_TS_NONE ? 0 : origin, sign = 1, div, ns;
	char *p = s;
	if (*p == '^' || *p == '+' || *p == '-') {
		base = *p == '^' ? start : cursor;
		sign = *p == '-' ? -1 : 1;
		p++;
		if (base == FTL_TS_NONE) {
			g_set_error(error, FTL_ERROR, FTL_ERROR_USAGE, "time: '%s': %s has no time",
				    text, *s == '^' ? "the trace" : "the cursor");
			return FALSE;
		}
	}
	char *unit = (char *)app_time_unit(p, &div);
	*unit = 0;
	if (!*p || !ftl_scan_seconds_str(p, &ns)) {
		g_set_error(error, FTL_ERROR, FTL_ERROR_USAGE,
			    "time: '%s': expected seconds (12.5), ^1.5ms, +1.5ms or -20us", text);
		return FALSE;
	}
	*out = base + sign * (ns / div);
	return TRUE;
}

static FtlTuiReaction app_search(FtlTuiApp *app, int dir)
{
	FtlTuiPanel *p = app_live(app);
	if (!app->search) {
		ftl_tui_app_say(app, TRUE, "no search yet: / or ? starts one");
		return FTL_TUI_REACT_STATUS;
	}
	if (!p || !p->klass->search) {
		ftl_tui_app_say(app, TRUE, "%s: no search here", app_shown(app)->klass->name);
		return FTL_TUI_REACT_STATUS;
	}
	return p->klass->search(p, app, app->search, dir);
}

static FtlTuiReaction app_prompt_commit(FtlTuiApp *app, FtlTuiPromptKind kind, const char *text)
{
	g_autoptr(GError) error = NULL;
	switch (kind) {
	case FTL_TUI_PROMPT_SEARCH:
	case FTL_TUI_PROMPT_SEARCH_BACK: {
		/* smart case, as less -i: lower case matches either case */
		gboolean upper = FALSE;
		for (const char *c = text; *c; c = g_utf8_next_char(c))
			upper |= g_unichar_isupper(g_utf8_get_char(c));
		GRegex *re = g_regex_new(text, upper ? 0 : G_REGEX_CASELESS, 0, &error);
		if (!re)
			break;
		if (app->search)
			g_regex_unref(app->search);
		app->search = re;
		app->search_dir = kind == FTL_TUI_PROMPT_SEARCH ? 1 : -1;
		return app_search(app, app->search_dir);
	}
	case FTL_TUI_PROMPT_FILTER: {
		FtlTuiFilterItem *it = ftl_tui_filter_item_parse(text, &error);
		if (!it)
			break;
		return app_push_filter(app, it);
	}
	case FTL_TUI_PROMPT_TIME: {
		gint64 ts;
		gint64 start = app->model ? app->model->first_ts : FTL_TS_NONE;
		if (!ftl_tui_parse_time(text, app_cursor_time(app), start, app->opt->origin, &ts,
					&error))
			break;
		FtlTuiPanel *p = app_live(app);
		if (p && p->klass->goto_time)
			return p->klass->goto_time(p, app, ts);
		return app_events_at_time(app, ts);
	}
	case FTL_TUI_PROMPT_SAVE_VIEW:
		return ftl_tui_app_view_save(app, text);
	case FTL_TUI_PROMPT_OPEN_VIEW:
		return ftl_tui_app_view_open(app, text);
	case FTL_TUI_PROMPT_NONE:
		break;
	}
	if (error)
		ftl_tui_app_say(app, TRUE, "%s", error->message);
	return FTL_TUI_REACT_STATUS;
}

static FtlTuiReaction app_prompt_key(FtlTuiApp *app, gint key)
{
	GString *t = app->prompt_text;
	if (key == FTL_TUI_KEY_ESC) {
		app->prompt = FTL_TUI_PROMPT_NONE;
	} else if (key == FTL_TUI_KEY_ENTER) {
		FtlTuiPromptKind kind = app->prompt;
		g_autofree char *text = g_strdup(t->str);
		app->prompt = FTL_TUI_PROMPT_NONE;
		if (*text)
			return app_prompt_commit(app, kind, text) | FTL_TUI_REACT_STATUS;
	} else if (key == FTL_TUI_KEY_BACKSPACE) {
		if (!t->len)
			app->prompt = FTL_TUI_PROMPT_NONE;
		else
			g_string_truncate(
				t,
				(gsize)(g_utf8_find_prev_char(t->str, t->str + t->len) - t->str));
	} else if (key == 0x15) { /* C-u: clear */
		g_string_truncate(t, 0);
	} else if (key < FTL_TUI_KEY_BASE && g_unichar_isprint((gunichar)key) && t->len < 256) {
		g_string_append_unichar(t, (gunichar)key);
	}
	return FTL_TUI_REACT_STATUS;
}

static FtlTuiReaction app_prompt(FtlTuiApp *app, FtlTuiPromptKind kind)
{
	app->prompt = kind;
	g_string_truncate(app->prompt_text, 0);
	return FTL_TUI_REACT_STATUS;
}

/* ---- marks and bookmarks ------------------------------------------------- */

static FtlTuiReaction app_mark(FtlTuiApp *app, int which)
{
	gint64 ts = app_cursor_time(app);
	if (ts == FTL_TS_NONE) {
		ftl_tui_app_say(app, TRUE, "mark %c: no time at the cursor", 'A' + which);
		return FTL_TUI_REACT_STATUS;
	}
	app->mark[which] = ts;
	return FTL_TUI_REACT_REDRAW;
}

static FtlTuiReaction app_bookmark_key(FtlTuiApp *app, gint key)
{
	gint what = app->pending;
	app->pending = 0;
	if (key < 'a' || key > 'z') {
		ftl_tui_app_say(app, TRUE, "bookmarks are letters a-z");
		return FTL_TUI_REACT_STATUS;
	}
	FtlTuiBookmark *bm = &app->bookmarks[key - 'a'];
	if (what == 'm') {
		bm->ts = app_cursor_time(app);
		bm->row = app->current == FTL_TUI_PANEL_EVENTS
				  ? ftl_tui_events_panel_row(app->panels[FTL_TUI_PANEL_EVENTS])
				  : -1;
		ftl_tui_app_say(app, FALSE, "bookmark %c set", (char)key);
		return FTL_TUI_REACT_STATUS;
	}
	if (bm->row >= 0 && app->events) {
		ftl_tui_events_panel_goto_row(app->panels[FTL_TUI_PANEL_EVENTS], bm->row);
		app->follow_ts = FTL_TS_NONE;
		return app_show(app, FTL_TUI_PANEL_EVENTS);
	}
	if (bm->ts != FTL_TS_NONE)
		return app_events_at_time(app, bm->ts);
	ftl_tui_app_say(app, TRUE, "bookmark %c: not set (m%c sets it)", (char)key, (char)key);
	return FTL_TUI_REACT_STATUS;
}

/* ---- keys ------------------------------------------------------------------ */

static FtlTuiReaction app_back(FtlTuiApp *app, const FtlTuiInput *in)
{
	if (app->events && ftl_tui_events_finding(app->events, NULL)) {
		ftl_tui_events_cancel(app->events);
		ftl_tui_app_say(app, FALSE, "stopped");
		return FTL_TUI_REACT_STATUS;
	}
	FtlTuiPanel *p = app_live(app);
	FtlTuiReaction r = p ? p->klass->command(p, app, FTL_TUI_CMD_BACK, in) : 0;
	return r ? r : app_pop_filter(app);
}

/* A click in the tab row shows the panel clicked. */
static FtlTuiReaction app_click_tab(FtlTuiApp *app, int x)
{
	FtlTuiTab tabs[FTL_TUI_N_PANELS];
	ftl_tui_app_tabs(app, app->cols, tabs);
	for (guint i = 0; i < FTL_TUI_N_PANELS; i++)
		if (tabs[i].w && x >= tabs[i].x && x < tabs[i].x + tabs[i].w)
			return app_show(app, i);
	return FTL_TUI_REACT_NONE;
}

/* x: --compare's B becomes A (the Events list and every panel read it)
 * and A B. Times set on A's clock mean nothing on B's: marks and
 * bookmarks go. */
static FtlTuiReaction app_swap(FtlTuiApp *app)
{
	if (!app->opt->compare) {
		ftl_tui_app_say(app, TRUE, "x: no trace to swap with (tui A --compare B)");
		return FTL_TUI_REACT_STATUS;
	}
	app->opt = app->opt->compare;
	app->mark[0] = app->mark[1] = FTL_TS_NONE;
	for (guint i = 0; i < G_N_ELEMENTS(app->bookmarks); i++)
		app->bookmarks[i] = (FtlTuiBookmark){ FTL_TS_NONE, -1 };
	app_rebuild(app);
	app->follow_ts = FTL_TS_NONE;
	g_autofree char *a = ftl_escape(app->opt->label, -1);
	ftl_tui_app_say(app, FALSE, "A is now %s", a);
	return FTL_TUI_REACT_REBUILD | FTL_TUI_REACT_REDRAW;
}

static FtlTuiReaction app_command(FtlTuiApp *app, FtlTuiCmd cmd, const FtlTuiInput *in)
{
	switch (cmd) {
	case FTL_TUI_CMD_CLICK:
		if (in->y == 0)
			return app_click_tab(app, in->x);
		break;
	case FTL_TUI_CMD_QUIT:
		return FTL_TUI_REACT_QUIT;
	case FTL_TUI_CMD_COMPARE_SWAP:
		return app_swap(app);
	case FTL_TUI_CMD_HELP:
		app->help = TRUE;
		app->help_top = 0;
		return FTL_TUI_REACT_REDRAW;
	case FTL_TUI_CMD_NEXT_PANEL:
		return app_cycle(app, 1);
	case FTL_TUI_CMD_PREV_PANEL:
		return app_cycle(app, -1);
	case FTL_TUI_CMD_SEARCH:
		return app_prompt(app, FTL_TUI_PROMPT_SEARCH);
	case FTL_TUI_CMD_SEARCH_BACK:
		return app_prompt(app, FTL_TUI_PROMPT_SEARCH_BACK);
	case FTL_TUI_CMD_NEXT_MATCH:
		return app_search(app, app->search_dir);
	case FTL_TUI_CMD_PREV_MATCH:
		return app_search(app, -app->search_dir);
	case FTL_TUI_CMD_FILTER:
		return app_prompt(app, FTL_TUI_PROMPT_FILTER);
	case FTL_TUI_CMD_GOTO_TIME:
		return app_prompt(app, FTL_TUI_PROMPT_TIME);
	case FTL_TUI_CMD_SAVE_VIEW: {
		g_autofree char *name = ftl_tui_view_default_name(app->opt->label);
		app_prompt(app, FTL_TUI_PROMPT_SAVE_VIEW);
		g_string_assign(app->prompt_text, name);
		return FTL_TUI_REACT_STATUS;
	}
	case FTL_TUI_CMD_OPEN_VIEW:
		return app_prompt(app, FTL_TUI_PROMPT_OPEN_VIEW);
	case FTL_TUI_CMD_BACK:
		return app_back(app, in);
	case FTL_TUI_CMD_MARK_A:
	case FTL_TUI_CMD_MARK_B:
		return app_mark(app, cmd == FTL_TUI_CMD_MARK_B);
	case FTL_TUI_CMD_BOOKMARK:
		app->pending = 'm';
		return FTL_TUI_REACT_STATUS;
	case FTL_TUI_CMD_JUMP_BOOKMARK:
		app->pending = '\'';
		return FTL_TUI_REACT_STATUS;
	case FTL_TUI_CMD_REDRAW:
		return FTL_TUI_REACT_CLEAR | FTL_TUI_REACT_REDRAW;
	case FTL_TUI_CMD_RESIZE:
		return FTL_TUI_REACT_REDRAW;
	case FTL_TUI_CMD_TIME_MODE:
		app->time_mode = (app->time_mode + 1) % FTL_TUI_N_TIME_MODES;
		ftl_tui_app_say(app, FALSE, "time: %s",
				app->time_mode == FTL_TUI_TIME_ABS    ? "absolute"
				: app->time_mode == FTL_TUI_TIME_PREV ? "since the row before"
								      : "since mark A");
		return FTL_TUI_REACT_REDRAW;
	default:
		break;
	}
	if (cmd >= FTL_TUI_CMD_PANEL_1 && cmd <= FTL_TUI_CMD_PANEL_9)
		return app_show(app, (FtlTuiPanelId)(cmd - FTL_TUI_CMD_PANEL_1));
	if (cmd == FTL_TUI_CMD_PANEL_10)
		return app_show(app, (FtlTuiPanelId)9);
	FtlTuiPanel *p = app_live(app);
	return p ? p->klass->command(p, app, cmd, in) : FTL_TUI_REACT_NONE;
}

static FtlTuiReaction app_help_key(FtlTuiApp *app, gint key)
{
	const FtlTuiBinding *b = ftl_tui_keys_lookup(key, app->current);
	FtlTuiCmd cmd = b ? b->cmd : FTL_TUI_N_CMDS;
	gint64 top = app->help_top;
	if (cmd == FTL_TUI_CMD_RESIZE)
		return FTL_TUI_REACT_REDRAW;
	if (ftl_tui_move(&top, G_MAXINT32, app->rows - 4, cmd)) {
		app->help_top = (int)MIN(top, G_MAXINT32);
		return FTL_TUI_REACT_REDRAW;
	}
	app->help = FALSE;
	return cmd == FTL_TUI_CMD_QUIT ? FTL_TUI_REACT_QUIT : FTL_TUI_REACT_REDRAW;
}

FtlTuiReaction ftl_tui_app_key(FtlTuiApp *app, const FtlTuiInput *in)
{
	FtlTuiReaction r;
	if (in->key == FTL_TUI_KEY_TICK)
		return ftl_tui_app_tick(app);
	if (in->key != FTL_TUI_KEY_RESIZE)
		g_clear_pointer(&app->message, g_free);
	if (app->prompt && in->key != FTL_TUI_KEY_RESIZE)
		r = app_prompt_key(app, in->key);
	else if (app->pending)
		r = app_bookmark_key(app, in->key);
	else if (app->help)
		r = app_help_key(app, in->key);
	else {
		const FtlTuiBinding *b = ftl_tui_keys_lookup(in->key, app->current);
		if (b) {
			r = app_command(app, b->cmd, in);
		} else {
			char buf[8];
			ftl_tui_app_say(app, TRUE, "%s: no such key here (h: help)",
					ftl_tui_key_name(in->key, buf));
			r = FTL_TUI_REACT_STATUS;
		}
	}
	r = ftl_tui_app_go(app, r);
	if (r & (FTL_TUI_REACT_REBUILD | FTL_TUI_REACT_SWITCH))
		r |= ftl_tui_app_tick(app);
	return r;
}

/* ---- background results ------------------------------------------------ */

static FtlTuiReaction app_model_ready(FtlTuiApp *app)
{
	g_autoptr(GError) error = NULL;
	FtlTuiModel *m = app_loader_take(app, &app->loader);
	if (!m)
		return FTL_TUI_REACT_QUIT;
	FtlTuiModel *old = app->model;
	app->model = m;
	/* windows read under the old filter */
	app_loader_cancel(&app->side_loader);
	g_clear_pointer(&app->side_model, ftl_tui_model_free);
	app->side_read = 0;
	if (app->events)
		ftl_tui_events_set_model(app->events, m);
	for (guint i = 0; i < FTL_TUI_N_PANELS; i++)
		if (app->panels[i]->klass->model_changed)
			app->panels[i]->klass->model_changed(app->panels[i], app, old);
	ftl_tui_model_free(old);
	if (m->counted && !app->selection_checked && app->opt->selected) {
		app->selection_checked = TRUE;
		/* and a --counter that drew nothing, as sched and timeline say */
		if (!app->opt->selected(app->opt->selected_data, m->trace, &error) ||
		    (m->counters &&
		     !ftl_counters_check_user(m->counters, "tui", ftl_trace_label(m->trace), &error))) {
			if (!app->error)
				app->error = g_steal_pointer(&error);
			return FTL_TUI_REACT_QUIT;
		}
	}
	if (!app_panel_classes[app->current]->available(app))
		app_cycle(app, 1);
	return FTL_TUI_REACT_REDRAW;
}

/* The first model is due once the first rows are read (or 0.3 s went by
 * without them). */
static void app_loader_due(FtlTuiApp *app)
{
	gboolean exact;
	if (!app->loader_due)
		return;
	if (!app->events || ftl_tui_events_count(app->events, &exact) > 0 || exact ||
	    g_get_monotonic_time() - app->loader_due > 300000)
		app_loader_start(app);
}

gboolean ftl_tui_app_busy(FtlTuiApp *app)
{
	return app->loader_due || (app->events && ftl_tui_events_busy(app->events));
}

/* Where the command line said to open, once the first model is read: a
 * marker and a function are found in it, a time in the Events list (or the
 * panel asked for, when it goes to a time). */
static FtlTuiReaction app_start(FtlTuiApp *app)
{
	const FtlTuiStart *st = &app->opt->start;
	FtlTuiReaction r = FTL_TUI_REACT_REDRAW;
	gint id = -1;
	app->started = TRUE;
	if (st->panel && ftl_tui_panel_lookup(st->panel, &id, NULL))
		r |= app_show(app, (FtlTuiPanelId)id);
	if (st->func) {
		FtlTuiPanelId fid = id == FTL_TUI_PANEL_FUNCS ? FTL_TUI_PANEL_FUNCS
							      : FTL_TUI_PANEL_GRAPH;
		r |= app_show(app, fid);
		FtlTuiPanel *p = app_live(app);
		g_autofree char *esc = g_regex_escape_string(st->func, -1);
		g_autofree char *pat = g_strdup_printf("^%s$", esc);
		g_autoptr(GRegex) re = g_regex_new(pat, 0, 0, NULL);
		if (p && p->klass->tick)
			p->klass->tick(p, app);
		if (!p || !re || !(p->klass->search(p, app, re, 1) & FTL_TUI_REACT_REDRAW))
			ftl_tui_app_say(app, TRUE, "--func %s: no such function in %s", st->func,
					app_panel_classes[fid]->name);
	}
	if (st->marker) {
		g_autoptr(GRegex) re = g_regex_new(st->marker, G_REGEX_RAW, 0, NULL);
		const FtlMarkers *m = app->model->markers;
		guint i = 0;
		for (; re && m && i < ftl_markers_count(m); i++)
			if (g_regex_match(re, ftl_markers_get(m, i)->text, 0, NULL))
				break;
		if (!re || !m || i == ftl_markers_count(m)) {
			ftl_tui_app_say(app, TRUE, "--marker %s: no marker matches", st->marker);
		} else {
			const FtlMarker *mk = ftl_markers_get(m, i);
			r |= ftl_tui_app_go(app, mk->line ? ftl_tui_go_line(app, mk->line, mk->cpu)
							  : ftl_tui_go_time(app, mk->ts));
		}
	}
	if (st->at_set) {
		FtlTuiPanel *p = app_live(app);
		if (id >= 0 && p && p->klass->goto_time)
			r |= p->klass->goto_time(p, app, st->at);
		else
			r |= app_events_at_time(app, st->at);
	}
	return r;
}

FtlTuiReaction ftl_tui_app_tick(FtlTuiApp *app)
{
	FtlTuiReaction r = FTL_TUI_REACT_NONE;
	app_loader_due(app);
	if (app->loader) {
		r |= FTL_TUI_REACT_STATUS; /* progress */
		if (ftl_tui_loader_done(app->loader))
			r |= app_model_ready(app);
	}
	if (app->tree_loader) {
		r |= FTL_TUI_REACT_STATUS;
		if (ftl_tui_loader_done(app->tree_loader))
			r |= app_tree_ready(app);
	}
	if (app->side_loader && ftl_tui_loader_done(app->side_loader))
		r |= app_side_ready(app);
	if (app->events) {
		GError *error = NULL;
		if (ftl_tui_events_failed(app->events, &error)) {
			if (!app->error)
				app->error = error;
			else
				g_error_free(error);
			return FTL_TUI_REACT_QUIT;
		}
		if (ftl_tui_events_changed(app->events))
			r |= FTL_TUI_REACT_REDRAW;
		if (ftl_tui_events_finding(app->events, NULL))
			r |= FTL_TUI_REACT_STATUS;
	}
	/* a panel the inputs have nothing for has no model part to wait on */
	for (guint i = 0; i < FTL_TUI_N_PANELS; i++)
		if (app->panels[i]->klass->tick && ftl_tui_app_panel_has(app, i))
			r |= ftl_tui_app_go(app, app->panels[i]->klass->tick(app->panels[i], app));
	if (app->view && app->model && !app->loader && !app->loader_due && !app->error)
		r |= ftl_tui_app_go(app, ftl_tui_app_view_apply(app));
	if (!app->started && app->model && !app->loader && !app->error)
		r |= ftl_tui_app_go(app, app_start(app));
	if (app->error)
		r |= FTL_TUI_REACT_QUIT;
	return r;
}

void ftl_tui_app_settle(FtlTuiApp *app)
{
	/* a tick can ask for more (a panel's find, the rows of a jump) */
	if (app->loader_due)
		app_loader_start(app);
	for (int round = 0; round < 100; round++) {
		/* woken when each is done, not a poll: a millisecond's sleep
		 * per look was most of a fuzz-tui execution's wall time */
		if (app->loader)
			ftl_tui_loader_wait(app->loader);
		if (app->tree_loader)
			ftl_tui_loader_wait(app->tree_loader);
		if (app->side_loader)
			ftl_tui_loader_wait(app->side_loader);
		if (app->events)
			ftl_tui_events_wait(app->events);
		ftl_tui_app_tick(app);
		gboolean busy = app->loader || app->tree_loader || app->side_loader ||
				(app->events && ftl_tui_events_finding(app->events, NULL));
		if (!busy && (!app->events || !ftl_tui_events_changed(app->events)))
			break;
	}
}
