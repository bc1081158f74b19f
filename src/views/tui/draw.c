/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Small pieces every panel uses: durations as text, a task's colour,
 * scrolling a list so that its cursor shows, moving a cursor by a key. */
#include "config.h"

#include "views/tui/app.h"

#include "util/timefmt.h"

const char *ftl_tui_duration(gint64 ns, char *buf, gsize size)
{
	if (ns == FTL_TS_NONE) {
		g_strlcpy(buf, "-", size);
		return buf;
	}
	return ftl_duration_format(ns, buf, size);
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
