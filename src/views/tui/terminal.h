/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The terminal canvas (canvas-curses.c): the terminal in curses mode from
 * ftl_tui_canvas_curses_new() until ftl_tui_canvas_free(). */
#pragma once

#include <stddef.h>
#include <termios.h>

#include "views/tui/canvas.h"

/* What gives the terminal back without curses, from a handler of a fatal
 * signal (write() and tcsetattr() only): the bytes that leave the
 * alternate screen, show the cursor, reset attributes, the keypad and
 * mouse reporting, and the terminal's modes from before curses. */
typedef struct {
	int fd; /* -1: nothing to restore */
	char seq[512];
	size_t len;
	int modes_fd; /* the terminal read, whose modes they are */
	struct termios modes;
	int have_modes;
} FtlTuiTermRestore;

/* Takes the terminal; an error when standard input or output is not one. */
FtlTuiCanvas *ftl_tui_canvas_curses_new(gboolean color, gboolean utf8, GError **error);
/* Fills r for c (curses started): ftl_tui_term_restore() then undoes it. */
void ftl_tui_canvas_curses_restore_info(FtlTuiCanvas *c, FtlTuiTermRestore *r);
/* Async-signal-safe: writes r's bytes and sets its modes. */
void ftl_tui_term_restore(const FtlTuiTermRestore *r);
/* The terminal's size, after it changed. */
void ftl_tui_canvas_curses_resize(FtlTuiCanvas *c);
/* The next flush repaints every cell (Ctrl-L). */
void ftl_tui_canvas_curses_clear(FtlTuiCanvas *c);
