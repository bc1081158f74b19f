/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The terminal canvas: one of the two files that include curses (the other
 * reads keys). It owns the terminal while the TUI runs: started on copies
 * of the terminal's descriptors, so that a library lending stdout or
 * stderr meanwhile (libtracecmd's guard does) cannot take the screen, and
 * always given back by ftl_tui_canvas_free(). */
#include "config.h"

#include "views/tui/terminal.h"

#include <curses.h>
#include <stdio.h>
#include <string.h>
#include <term.h>
#include <unistd.h>

#include "util/error.h"

typedef struct {
	FtlTuiCanvas base;
	SCREEN *screen;
	FILE *out, *in;
	attr_t attrs[FTL_TUI_N_STYLES];
	struct termios modes; /* before curses */
	gboolean have_modes;
} CursesCanvas;

static void curses_put(FtlTuiCanvas *c, int y, int x, const char *text, FtlTuiStyle style)
{
	CursesCanvas *cc = (CursesCanvas *)c;
	attrset(cc->attrs[style]);
	/* curses cuts at the edge; the last cell of the last row is written
	 * without scrolling (scrollok is off), so ERR there is harmless */
	mvaddstr(y, x, text);
	attrset(A_NORMAL);
}

static void curses_erase(FtlTuiCanvas *c)
{
	(void)c;
	erase();
}

static void curses_flush(FtlTuiCanvas *c)
{
	(void)c;
	refresh();
}

static void curses_free(FtlTuiCanvas *c)
{
	CursesCanvas *cc = (CursesCanvas *)c;
	endwin();
	delscreen(cc->screen);
	fclose(cc->out);
	fclose(cc->in);
	g_free(cc);
}

static const FtlTuiCanvasOps curses_ops = {
	.put = curses_put,
	.erase = curses_erase,
	.flush = curses_flush,
	.free = curses_free,
};

/* Colour pairs, or attributes alone on a monochrome terminal. */
static void curses_styles(CursesCanvas *cc, gboolean color)
{
	static const struct {
		short fg, bg;
		attr_t attr, mono;
	} map[FTL_TUI_N_STYLES] = {
		[FTL_TUI_STYLE_NORMAL] = { -1, -1, A_NORMAL, A_NORMAL },
		[FTL_TUI_STYLE_TAB] = { COLOR_WHITE, COLOR_BLUE, A_NORMAL, A_REVERSE },
		[FTL_TUI_STYLE_TAB_ACTIVE] = { COLOR_BLACK, COLOR_CYAN, A_BOLD, A_BOLD },
		[FTL_TUI_STYLE_TAB_EMPTY] = { COLOR_BLACK, COLOR_BLUE, A_BOLD, A_DIM | A_REVERSE },
		[FTL_TUI_STYLE_HEADER] = { COLOR_YELLOW, -1, A_BOLD, A_BOLD | A_UNDERLINE },
		[FTL_TUI_STYLE_CURSOR] = { COLOR_BLACK, COLOR_CYAN, A_NORMAL, A_REVERSE },
		[FTL_TUI_STYLE_STATUS] = { COLOR_BLACK, COLOR_WHITE, A_NORMAL, A_REVERSE },
		[FTL_TUI_STYLE_MATCH] = { COLOR_BLACK, COLOR_YELLOW, A_NORMAL, A_STANDOUT },
		[FTL_TUI_STYLE_MARK] = { COLOR_MAGENTA, -1, A_BOLD, A_BOLD },
		[FTL_TUI_STYLE_DIM] = { -1, -1, A_DIM, A_DIM },
		[FTL_TUI_STYLE_WARN] = { COLOR_RED, -1, A_BOLD, A_BOLD },
		[FTL_TUI_STYLE_IRQ] = { COLOR_RED, -1, A_NORMAL, A_UNDERLINE },
		[FTL_TUI_STYLE_ERROR] = { COLOR_WHITE, COLOR_RED, A_BOLD, A_BOLD | A_REVERSE },
		[FTL_TUI_STYLE_BAR] = { COLOR_GREEN, -1, A_NORMAL, A_NORMAL },
		[FTL_TUI_STYLE_TASK0 + 0] = { COLOR_BLACK, COLOR_GREEN, A_NORMAL, A_NORMAL },
		[FTL_TUI_STYLE_TASK0 + 1] = { COLOR_BLACK, COLOR_YELLOW, A_NORMAL, A_BOLD },
		[FTL_TUI_STYLE_TASK0 + 2] = { COLOR_WHITE, COLOR_BLUE, A_NORMAL, A_NORMAL },
		[FTL_TUI_STYLE_TASK0 + 3] = { COLOR_BLACK, COLOR_MAGENTA, A_NORMAL, A_BOLD },
		[FTL_TUI_STYLE_TASK0 + 4] = { COLOR_BLACK, COLOR_CYAN, A_NORMAL, A_NORMAL },
		[FTL_TUI_STYLE_TASK0 + 5] = { COLOR_BLACK, COLOR_RED, A_NORMAL, A_BOLD },
	};
	color = color && has_colors() && start_color() == OK;
	if (color)
		use_default_colors();
	cc->base.color = color;
	for (int s = 0; s < FTL_TUI_N_STYLES; s++) {
		if (!color || (map[s].fg == -1 && map[s].bg == -1) || s + 1 >= COLOR_PAIRS) {
			cc->attrs[s] = color ? map[s].attr : map[s].mono;
			continue;
		}
		init_pair((short)(s + 1), map[s].fg, map[s].bg);
		cc->attrs[s] = COLOR_PAIR(s + 1) | map[s].attr;
	}
}

FtlTuiCanvas *ftl_tui_canvas_curses_new(gboolean color, gboolean utf8, GError **error)
{
	if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) {
		g_set_error(error, FTL_ERROR, FTL_ERROR_USAGE,
			    "tui: needs a terminal on standard input and output");
		return NULL;
	}
	struct termios modes;
	gboolean have_modes = tcgetattr(STDIN_FILENO, &modes) == 0;
	int out_fd = dup(STDOUT_FILENO), in_fd = dup(STDIN_FILENO);
	FILE *out = out_fd >= 0 ? fdopen(out_fd, "w") : NULL;
	FILE *in = in_fd >= 0 ? fdopen(in_fd, "r") : NULL;
	SCREEN *screen = out && in ? newterm(NULL, out, in) : NULL;
	if (!screen) {
		if (out)
			fclose(out);
		else if (out_fd >= 0)
			close(out_fd);
		if (in)
			fclose(in);
		else if (in_fd >= 0)
			close(in_fd);
		g_set_error(error, FTL_ERROR, FTL_ERROR_USAGE,
			    "tui: cannot drive this terminal (TERM=%s)",
			    g_getenv("TERM") ? g_getenv("TERM") : "unset");
		return NULL;
	}
	CursesCanvas *cc = g_new0(CursesCanvas, 1);
	cc->base.ops = &curses_ops;
	cc->screen = screen;
	cc->out = out;
	cc->in = in;
	cc->modes = modes;
	cc->have_modes = have_modes;
	cc->base.utf8 = utf8;
	set_term(screen);
	cbreak();
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	scrollok(stdscr, FALSE);
	set_escdelay(25);
	curs_set(0);
	curses_styles(cc, color);
	ftl_tui_canvas_curses_resize(&cc->base);
	return &cc->base;
}

void ftl_tui_canvas_curses_resize(FtlTuiCanvas *c)
{
	c->rows = LINES;
	c->cols = COLS;
}

void ftl_tui_canvas_curses_clear(FtlTuiCanvas *c)
{
	(void)c;
	clearok(curscr, TRUE);
}

static void curses_restore_add(FtlTuiTermRestore *r, const char *seq)
{
	/* tigetstr: (char *)-1 when the name is not a string capability */
	if (!seq || seq == (char *)-1)
		return;
	size_t n = strlen(seq);
	if (r->len + n < sizeof r->seq) {
		memcpy(r->seq + r->len, seq, n);
		r->len += n;
	}
}

void ftl_tui_canvas_curses_restore_info(FtlTuiCanvas *c, FtlTuiTermRestore *r)
{
	CursesCanvas *cc = (CursesCanvas *)c;
	memset(r, 0, sizeof *r);
	r->fd = fileno(cc->out);
	/* xterm's mouse reporting, whichever mode curses asked for */
	curses_restore_add(r, "\033[?1000l\033[?1002l\033[?1003l\033[?1006l");
	curses_restore_add(r, tigetstr("sgr0"));
	curses_restore_add(r, tigetstr("cnorm"));
	curses_restore_add(r, tigetstr("rmkx"));
	curses_restore_add(r, tigetstr("rmcup"));
	curses_restore_add(r, "\r\n");
	r->modes_fd = fileno(cc->in);
	r->modes = cc->modes;
	r->have_modes = cc->have_modes;
}

void ftl_tui_term_restore(const FtlTuiTermRestore *r)
{
	if (r->fd < 0)
		return;
	for (size_t done = 0; done < r->len;) {
		ssize_t n = write(r->fd, r->seq + done, r->len - done);
		if (n <= 0)
			break;
		done += (size_t)n;
	}
	if (r->have_modes)
		tcsetattr(r->modes_fd, TCSANOW, &r->modes);
}
