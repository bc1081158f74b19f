/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Small pieces every panel uses: durations and times as text, a message
 * for the status line, where a panel sends the user (FtlTuiGo), a task's
 * colour, scrolling a list so that its
 * cursor shows, moving a cursor by a key. */
#include "config.h"

#include <string.h>

#include "views/tui/app.h"

#include "util/checked.h"
#include "util/timefmt.h"

const char *ftl_tui_duration(gint64 ns, char *buf, gsize size)
{
	if (ns == FTL_TS_NONE) {
		g_strlcpy(buf, "-", size);
		return buf;
	}
	return ftl_duration_format(ns, buf, size);
}

void ftl_tui_app_say(FtlTuiApp *app, gboolean error, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	g_free(app->message);
	app->message = g_strdup_vprintf(fmt, ap);
	app->message_error = error;
	va_end(ap);
}

char *ftl_tui_app_time(FtlTuiApp *app, gint64 ts, char *buf, gsize size)
{
	if (ts != FTL_TS_NONE && app->time_mode == FTL_TUI_TIME_MARK &&
	    app->mark[0] != FTL_TS_NONE) {
		gint64 d = ts - app->mark[0];
		char t[32];
		ftl_time_format_us(d < 0 ? -d : d, t, sizeof t);
		g_snprintf(buf, size, "%c%s", d < 0 ? '-' : '+', t);
		return buf;
	}
	return ftl_tui_app_abs_time(app, ts, buf, size);
}

char *ftl_tui_app_abs_time(const FtlTuiApp *app, gint64 ts, char *buf, gsize size)
{
	gint64 origin = app->opt->origin;
	if (ts != FTL_TS_NONE && origin != FTL_TS_NONE)
		ts = ftl_sat_sub_i64(ts, origin);
	return ftl_time_format_us(ts, buf, size);
}

void ftl_tui_go_clear(FtlTuiApp *app)
{
	if (app->go.filter)
		ftl_tui_filter_item_unref(app->go.filter);
	app->go = (FtlTuiGo){ .show = FTL_TUI_N_PANELS };
}

/* A panel's request replaces one it made before and the app did not do
 * (a key's reaction is always acted on at once). */
static FtlTuiReaction go_set(FtlTuiApp *app, FtlTuiGo go)
{
	ftl_tui_go_clear(app);
	app->go = go;
	return FTL_TUI_REACT_GO;
}

FtlTuiReaction ftl_tui_go_panel(FtlTuiApp *app, FtlTuiPanelId id)
{
	return go_set(app, (FtlTuiGo){ .show = id });
}

FtlTuiReaction ftl_tui_go_time(FtlTuiApp *app, gint64 ts)
{
	if (ts == FTL_TS_NONE)
		return FTL_TUI_REACT_NONE;
	FtlTuiGo go = { .find = TRUE, .show = FTL_TUI_PANEL_EVENTS };
	go.at = (FtlTuiFind){ .kind = FTL_TUI_FIND_TIME, .ts = ts };
	return go_set(app, go);
}

FtlTuiReaction ftl_tui_go_event(FtlTuiApp *app, gint64 ts, gint32 cpu, const char *name)
{
	if (!name || strlen(name) >= sizeof((FtlTuiFind){ 0 }.name))
		return ftl_tui_go_time(app, ts);
	FtlTuiGo go = { .find = TRUE, .show = FTL_TUI_PANEL_EVENTS };
	go.at = (FtlTuiFind){ .kind = FTL_TUI_FIND_EVENT, .ts = ts, .cpu = cpu };
	g_strlcpy(go.at.name, name, sizeof go.at.name);
	return go_set(app, go);
}

FtlTuiReaction ftl_tui_go_line(FtlTuiApp *app, guint64 line, gint32 cpu)
{
	if (!line)
		return FTL_TUI_REACT_NONE;
	FtlTuiGo go = { .find = TRUE, .show = FTL_TUI_PANEL_EVENTS };
	go.at = (FtlTuiFind){ .kind = FTL_TUI_FIND_LINE, .line = line, .cpu = cpu };
	return go_set(app, go);
}

FtlTuiReaction ftl_tui_go_filter(FtlTuiApp *app, FtlTuiFilterItem *item)
{
	return go_set(app, (FtlTuiGo){ .filter = item, .show = FTL_TUI_PANEL_EVENTS });
}

FtlTuiStyle ftl_tui_name_style(const char *name, gint32 id)
{
	guint h = name ? g_str_hash(name) : (guint)id * 2654435761u;
	return FTL_TUI_STYLE_TASK0 + (FtlTuiStyle)(h % FTL_TUI_N_TASK_STYLES);
}

void ftl_tui_scroll(gint64 *top, gint64 cursor, int h)
{
	if (h < 1)
		h = 1;
	if (cursor < *top)
		*top = cursor;
	else if (cursor >= *top + h)
		*top = cursor - h + 1;
	if (*top < 0)
		*top = 0;
}

void ftl_tui_click(gint64 *cursor, gint64 top, gint64 n, int page, const FtlTuiInput *in)
{
	if (in->y >= 2 && in->y - 2 < page && top + in->y - 2 < n)
		*cursor = top + in->y - 2;
}

gboolean ftl_tui_move(gint64 *cursor, gint64 n, int page, FtlTuiCmd cmd)
{
	gint64 c = *cursor;
	page = MAX(page - 1, 1);
	switch (cmd) {
	case FTL_TUI_CMD_UP:
		c--;
		break;
	case FTL_TUI_CMD_DOWN:
		c++;
		break;
	case FTL_TUI_CMD_WHEEL_UP:
		c -= 3;
		break;
	case FTL_TUI_CMD_WHEEL_DOWN:
		c += 3;
		break;
	case FTL_TUI_CMD_PAGE_UP:
		c -= page;
		break;
	case FTL_TUI_CMD_PAGE_DOWN:
		c += page;
		break;
	case FTL_TUI_CMD_TOP:
		c = 0;
		break;
	case FTL_TUI_CMD_BOTTOM:
		c = n - 1;
		break;
	default:
		return FALSE;
	}
	if (c >= n)
		c = n - 1;
	if (c < 0)
		c = 0;
	*cursor = c;
	return TRUE;
}
