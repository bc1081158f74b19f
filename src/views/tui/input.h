/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Keys as the TUI sees them, whoever reads them: the curses reader
 * (input-curses.c, one of the two files that include curses) or a test's
 * key script. */
#pragma once

#include <glib.h>

/* A key is a Unicode code point (Enter is '\n', Esc 0x1b, Tab '\t', Ctrl-L
 * 0x0c) or one of these, above every code point. */
enum {
	FTL_TUI_KEY_ENTER = '\n',
	FTL_TUI_KEY_ESC = 0x1b,
	FTL_TUI_KEY_TAB = '\t',
	FTL_TUI_KEY_CTRL_L = 0x0c,
	FTL_TUI_KEY_BASE = 0x200000,
	FTL_TUI_KEY_UP = FTL_TUI_KEY_BASE,
	FTL_TUI_KEY_DOWN,
	FTL_TUI_KEY_LEFT,
	FTL_TUI_KEY_RIGHT,
	FTL_TUI_KEY_PGUP,
	FTL_TUI_KEY_PGDN,
	FTL_TUI_KEY_HOME,
	FTL_TUI_KEY_END,
	FTL_TUI_KEY_BACKTAB,
	FTL_TUI_KEY_BACKSPACE,
	FTL_TUI_KEY_DELETE,
	FTL_TUI_KEY_F1,
	FTL_TUI_KEY_RESIZE,   /* the terminal changed size */
	FTL_TUI_KEY_WHEEL_UP, /* mouse */
	FTL_TUI_KEY_WHEEL_DOWN,
	FTL_TUI_KEY_CLICK, /* y, x say where */
	FTL_TUI_KEY_TICK,  /* no key within the reader's timeout */
};

typedef struct {
	gint key;
	int y, x; /* FTL_TUI_KEY_CLICK: the cell clicked */
} FtlTuiInput;

/* "j", "Enter", "S-Tab", "C-l", "PgDn", "F1", "Space"...: the key's name in
 * the help screen and in key scripts; a static string or buf. */
const char *ftl_tui_key_name(gint key, char buf[8]);
/* Reads a key script: characters stand for themselves, "<Name>" for a
 * named key ("<Enter>", "<Esc>", "<Up>", "<C-l>", "<S-Tab>", "<Resize>"),
 * "<<" for '<'. Returns the keys (gint) or NULL with error. */
GArray *ftl_tui_keys_parse(const char *script, GError **error);

/* The terminal's key reader (input-curses.c). */
typedef struct _FtlTuiInputReader FtlTuiInputReader;
/* Reads from the terminal the curses canvas opened; with mouse when the
 * terminal offers it. */
FtlTuiInputReader *ftl_tui_input_new(gboolean mouse);
void ftl_tui_input_free(FtlTuiInputReader *r);
/* Waits at most timeout_ms for a key; FTL_TUI_KEY_TICK when none came. */
FtlTuiInput ftl_tui_input_read(FtlTuiInputReader *r, int timeout_ms);
