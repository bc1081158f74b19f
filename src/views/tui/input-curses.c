/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The terminal's key reader: one of the two files that include curses (the
 * other draws). Curses key codes, mouse reports and resizes become the
 * TUI's own keys (input.h). */
#include "config.h"

#include "views/tui/input.h"

#include <curses.h>

struct _FtlTuiInputReader {
	gboolean mouse;
};

FtlTuiInputReader *ftl_tui_input_new(gboolean mouse)
{
	FtlTuiInputReader *r = g_new0(FtlTuiInputReader, 1);
	if (mouse) {
		mmask_t old;
		r->mouse = mousemask(BUTTON1_CLICKED | BUTTON1_PRESSED | BUTTON4_PRESSED
#ifdef BUTTON5_PRESSED
					     | BUTTON5_PRESSED
#endif
				     ,
				     &old) != 0;
		mouseinterval(0);
	}
	return r;
}

void ftl_tui_input_free(FtlTuiInputReader *r)
{
	if (r && r->mouse)
		mousemask(0, NULL);
	g_free(r);
}

static FtlTuiInput input_mouse(void)
{
	FtlTuiInput in = { FTL_TUI_KEY_TICK, 0, 0 };
	MEVENT m;
	if (getmouse(&m) != OK)
		return in;
	in.y = m.y;
	in.x = m.x;
	if (m.bstate & BUTTON4_PRESSED)
		in.key = FTL_TUI_KEY_WHEEL_UP;
#ifdef BUTTON5_PRESSED
	else if (m.bstate & BUTTON5_PRESSED)
		in.key = FTL_TUI_KEY_WHEEL_DOWN;
#endif
	else if (m.bstate & (BUTTON1_CLICKED | BUTTON1_PRESSED))
		in.key = FTL_TUI_KEY_CLICK;
	return in;
}

static gint input_function_key(wint_t ch)
{
	static const struct {
		int curses;
		gint key;
	} map[] = {
		{ KEY_UP, FTL_TUI_KEY_UP },	    { KEY_DOWN, FTL_TUI_KEY_DOWN },
		{ KEY_LEFT, FTL_TUI_KEY_LEFT },	    { KEY_RIGHT, FTL_TUI_KEY_RIGHT },
		{ KEY_PPAGE, FTL_TUI_KEY_PGUP },    { KEY_NPAGE, FTL_TUI_KEY_PGDN },
		{ KEY_HOME, FTL_TUI_KEY_HOME },	    { KEY_END, FTL_TUI_KEY_END },
		{ KEY_BTAB, FTL_TUI_KEY_BACKTAB },  { KEY_BACKSPACE, FTL_TUI_KEY_BACKSPACE },
		{ KEY_DC, FTL_TUI_KEY_DELETE },	    { KEY_F(1), FTL_TUI_KEY_F1 },
		{ KEY_RESIZE, FTL_TUI_KEY_RESIZE }, { KEY_ENTER, FTL_TUI_KEY_ENTER },
	};
	for (guint i = 0; i < G_N_ELEMENTS(map); i++)
		if (map[i].curses == (int)ch)
			return map[i].key;
	return FTL_TUI_KEY_TICK;
}

FtlTuiInput ftl_tui_input_read(FtlTuiInputReader *r, int timeout_ms)
{
	FtlTuiInput in = { FTL_TUI_KEY_TICK, 0, 0 };
	wint_t ch;
	(void)r;
	timeout(timeout_ms);
	int rc = get_wch(&ch);
	if (rc == ERR)
		return in;
	if (rc == KEY_CODE_YES) {
		if (ch == KEY_MOUSE)
			return input_mouse();
		in.key = input_function_key(ch);
		return in;
	}
	/* Terminals send Backspace as DEL or BS and Enter as CR; the app sees
	 * one key for each. */
	switch (ch) {
	case '\r':
		in.key = FTL_TUI_KEY_ENTER;
		break;
	case '\177':
	case '\b':
		in.key = FTL_TUI_KEY_BACKSPACE;
		break;
	default:
		in.key = (gint)ch;
		break;
	}
	return in;
}
