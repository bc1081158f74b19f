/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The terminal canvas (canvas-curses.c): the terminal in curses mode from
 * ftl_tui_canvas_curses_new() until ftl_tui_canvas_free(). */
#pragma once

#include "views/tui/canvas.h"

/* Takes the terminal; an error when standard input or output is not one. */
FtlTuiCanvas *ftl_tui_canvas_curses_new(gboolean color, gboolean utf8, GError **error);
/* The terminal's size, after it changed. */
void ftl_tui_canvas_curses_resize(FtlTuiCanvas *c);
/* The next flush repaints every cell (Ctrl-L). */
void ftl_tui_canvas_curses_clear(FtlTuiCanvas *c);
