/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The Timeline's wakeup links (W): the selected task's wakeups read by the
 * scheduling analysis beside the model, listed with their waker, and the
 * one selected jumps to its waking event. The panel draws the marks. */
#include "config.h"

#include "views/tui/wakes.h"

#include "util/escape.h"

void ftl_tui_wakes_init(FtlTuiWakes *w)
{
	w->pid = -1;
	w->cursor = w->top = 0;
	w->drawn = 0;
}

void ftl_tui_wakes_show(FtlTuiWakes *w, gint32 pid)
{
	w->pid = pid;
	w->cursor = w->top = 0;
	w->drawn = 0;
}

/* Names pid's wakeups among the app's side analyses. */
static guint64 wakes_key(gint32 pid)
{
	return ftl_tui_side_key(FTL_TUI_SIDE_WAKEUPS, (guint32)pid);
}

FtlTuiReaction ftl_tui_wakes_tick(FtlTuiWakes *w, FtlTuiApp *app)
{
	if (w->pid < 0 || !app->model)
		return FTL_TUI_REACT_NONE;
	ftl_tui_app_want_wakeups(app, w->pid, wakes_key(w->pid));
	const FtlTuiModel *side = ftl_tui_app_side(app, wakes_key(w->pid));
	if ((side ? side->gen : 0) == w->drawn)
		return FTL_TUI_REACT_NONE;
	w->drawn = side ? side->gen : 0;
	return FTL_TUI_REACT_REDRAW;
}

const GArray *ftl_tui_wakes_get(FtlTuiWakes *w, FtlTuiApp *app)
{
	if (w->pid < 0)
		return NULL;
	const FtlTuiModel *side = ftl_tui_app_side(app, wakes_key(w->pid));
	return side ? side->wakeups : NULL;
}

const FtlSchedWakeup *ftl_tui_wakes_selected(FtlTuiWakes *w, FtlTuiApp *app)
{
	const GArray *a = ftl_tui_wakes_get(w, app);
	if (!a || w->cursor < 0 || w->cursor >= (gint64)a->len)
		return NULL;
	return &g_array_index(a, FtlSchedWakeup, w->cursor);
}

/* ns as microseconds to the nanosecond, as sched --csv gives them. */
static void wakes_us(gint64 ns, char *buf, gsize size)
{
	g_snprintf(buf, size, "%s%" G_GINT64_FORMAT ".%03d", ns < 0 ? "-" : "", ABS(ns) / 1000,
		   (int)(ABS(ns) % 1000));
}

void ftl_tui_wakes_draw(FtlTuiWakes *w, FtlTuiApp *app, FtlTuiCanvas *c, int y, int h,
			const char *comm)
{
	const FtlTuiModel *side = ftl_tui_app_side(app, wakes_key(w->pid));
	g_autofree char *who = g_strdup_printf("%s-%d", comm ? comm : "<...>", w->pid);
	g_autofree char *safe = ftl_escape(who, -1);
	ftl_tui_fill(c, y, 0, -1, FTL_TUI_STYLE_HEADER);
	if (!side || !side->wakeups) {
		g_autofree char *t = g_strdup_printf("Wakeups of %s: reading them...", safe);
		ftl_tui_put(c, y, 0, -1, t, FTL_TUI_STYLE_HEADER);
		return;
	}
	const GArray *a = side->wakeups;
	g_autofree char *more =
		side->wakeups_more ? g_strdup_printf(" (and %" G_GUINT64_FORMAT " more)",
						     side->wakeups_more)
				   : g_strdup("");
	g_autofree char *title = g_strdup_printf(
		"Wakeups of %s: %u%s (W: close, Enter: the waking event, A..B its latency)", safe,
		a->len, more);
	ftl_tui_put(c, y, 0, -1, title, FTL_TUI_STYLE_HEADER);
	if (h < 3)
		return;
	char head[128];
	g_snprintf(head, sizeof head, "%6s %14s %12s %4s %4s  %s", "#", "WOKEN AT", "LATENCY us",
		   "CPU", "RAN", "WOKEN BY");
	ftl_tui_put(c, y + 1, 0, -1, head, FTL_TUI_STYLE_DIM);
	if (!a->len) {
		ftl_tui_put(c, y + 2, 2, -1, "no wakeup of this task was followed by its switch",
			    FTL_TUI_STYLE_DIM);
		return;
	}
	int rows = h - 2;
	w->cursor = CLAMP(w->cursor, 0, (gint64)a->len - 1);
	ftl_tui_scroll(&w->top, w->cursor, rows);
	for (int r = 0; r < rows && w->top + r < (gint64)a->len; r++) {
		gint64 i = w->top + r;
		const FtlSchedWakeup *k = &g_array_index(a, FtlSchedWakeup, i);
		gboolean cur = i == w->cursor;
		FtlTuiStyle st = cur ? FTL_TUI_STYLE_CURSOR : FTL_TUI_STYLE_NORMAL;
		char t[48], lat[32], cpu[16] = "-", row[128];
		wakes_us(k->latency, lat, sizeof lat);
		if (k->waker_cpu >= 0)
			g_snprintf(cpu, sizeof cpu, "%d", k->waker_cpu);
		g_snprintf(row, sizeof row, "%6" G_GINT64_FORMAT " %14s %12s %4s %4d  ", i + 1,
			   ftl_tui_app_abs_time(app, k->wake_ts, t, sizeof t), lat, cpu, k->cpu);
		if (cur)
			ftl_tui_fill(c, y + 2 + r, 0, -1, st);
		int x = ftl_tui_put(c, y + 2 + r, 0, -1, row, st);
		if (k->waker_pid < 0) {
			ftl_tui_put(c, y + 2 + r, x, -1, "-", st);
			continue;
		}
		g_autofree char *waker = g_strdup_printf(
			"%s-%d", k->waker_comm ? k->waker_comm : "<...>", k->waker_pid);
		ftl_tui_put_raw(c, y + 2 + r, x, -1, waker, -1, st);
	}
}

FtlTuiReaction ftl_tui_wakes_command(FtlTuiWakes *w, FtlTuiApp *app, FtlTuiCmd cmd, int page,
				     gboolean *moved)
{
	*moved = FALSE;
	if (w->pid < 0)
		return FTL_TUI_REACT_NONE;
	if (cmd == FTL_TUI_CMD_BACK) {
		ftl_tui_wakes_show(w, -1);
		return FTL_TUI_REACT_REDRAW;
	}
	const GArray *a = ftl_tui_wakes_get(w, app);
	if (!a)
		return FTL_TUI_REACT_NONE;
	if (cmd == FTL_TUI_CMD_UP || cmd == FTL_TUI_CMD_DOWN || cmd == FTL_TUI_CMD_PAGE_UP ||
	    cmd == FTL_TUI_CMD_PAGE_DOWN) {
		/* a task without wakeups: the arrows move the rows */
		*moved = a->len && ftl_tui_move(&w->cursor, a->len, MAX(page, 1), cmd);
		return *moved ? FTL_TUI_REACT_REDRAW : FTL_TUI_REACT_NONE;
	}
	const FtlSchedWakeup *k = ftl_tui_wakes_selected(w, app);
	if (cmd != FTL_TUI_CMD_ACTIVATE || !k)
		return FTL_TUI_REACT_NONE;
	/* as Enter on a worst wakeup in Sched: the latency is A..B */
	app->mark[0] = k->wake_ts;
	app->mark[1] = k->ts;
	return ftl_tui_go_event(app, k->wake_ts, k->waker_cpu, k->wake_event);
}
