/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Where the TUI draws: a grid of terminal cells. Two implementations: the
 * curses one (canvas-curses.c, one of the two files that include curses)
 * and a plain-text one (canvas-text.c) that tests read back as golden
 * screens. Panels only ever draw through the helpers below, so drawing is
 * the same code whatever the canvas. */
#pragma once

#include <glib.h>

/* What a cell means; each canvas maps it to what it can show (colours and
 * attributes on a terminal, nothing in the text canvas but the cursor row). */
typedef enum {
	FTL_TUI_STYLE_NORMAL,
	FTL_TUI_STYLE_TAB,	  /* a panel's name in the tab row */
	FTL_TUI_STYLE_TAB_ACTIVE, /* the panel shown */
	FTL_TUI_STYLE_TAB_EMPTY,  /* a panel with nothing in this input */
	FTL_TUI_STYLE_HEADER,	  /* column titles */
	FTL_TUI_STYLE_CURSOR,	  /* the selected row or item */
	FTL_TUI_STYLE_STATUS,	  /* the status line */
	FTL_TUI_STYLE_MATCH,	  /* a search match */
	FTL_TUI_STYLE_MARK,	  /* marks A/B and bookmarks */
	FTL_TUI_STYLE_DIM,	  /* secondary text: unknown, synthesized */
	FTL_TUI_STYLE_WARN,	  /* lost events, repairs, slow calls */
	FTL_TUI_STYLE_IRQ,	  /* interrupt context */
	FTL_TUI_STYLE_ERROR,
	FTL_TUI_STYLE_BAR,   /* proportion bars */
	FTL_TUI_STYLE_TASK0, /* FTL_TUI_N_TASK_STYLES colours for tasks and frames */
	FTL_TUI_N_STYLES = FTL_TUI_STYLE_TASK0 + 6,
} FtlTuiStyle;

#define FTL_TUI_N_TASK_STYLES (FTL_TUI_N_STYLES - FTL_TUI_STYLE_TASK0)

typedef struct _FtlTuiCanvas FtlTuiCanvas;

typedef struct {
	/* Draws text (valid UTF-8 without control characters: the escaper's
	 * output or the program's own words) at row y from column x, cut at the
	 * right edge. */
	void (*put)(FtlTuiCanvas *c, int y, int x, const char *text, FtlTuiStyle style);
	/* Blanks every cell of the canvas. */
	void (*erase)(FtlTuiCanvas *c);
	/* Shows what was drawn (a terminal refresh); may be NULL. */
	void (*flush)(FtlTuiCanvas *c);
	void (*free)(FtlTuiCanvas *c);
} FtlTuiCanvasOps;

struct _FtlTuiCanvas {
	const FtlTuiCanvasOps *ops;
	int rows, cols;
	gboolean utf8;	/* block and line characters may be used; else ASCII */
	gboolean color; /* styles may use colour; else attributes only */
};

void ftl_tui_canvas_free(FtlTuiCanvas *c);
void ftl_tui_canvas_erase(FtlTuiCanvas *c);
void ftl_tui_canvas_flush(FtlTuiCanvas *c);

/* The program's own text (safe), cut to w columns (w < 0: to the edge).
 * Returns the columns used. */
int ftl_tui_put(FtlTuiCanvas *c, int y, int x, int w, const char *text, FtlTuiStyle style);
/* The same, right-aligned in w columns. */
int ftl_tui_put_right(FtlTuiCanvas *c, int y, int x, int w, const char *text, FtlTuiStyle style);
/* Text from a trace (len < 0: NUL-terminated), made visible through the
 * one escaper (util/escape.h) before it is drawn. */
int ftl_tui_put_raw(FtlTuiCanvas *c, int y, int x, int w, const char *raw, gssize len,
		    FtlTuiStyle style);
/* w cells of blank (x to the edge when w < 0) in style. */
void ftl_tui_fill(FtlTuiCanvas *c, int y, int x, int w, FtlTuiStyle style);
/* A horizontal bar of frac (0..1) of w cells: block characters with
 * eighths on a UTF-8 canvas, '#' otherwise. */
void ftl_tui_bar(FtlTuiCanvas *c, int y, int x, int w, double frac, FtlTuiStyle style);

/* The text canvas: rows x cols of blanks. Free with ftl_tui_canvas_free(). */
FtlTuiCanvas *ftl_tui_canvas_text_new(int rows, int cols, gboolean utf8);
/* Resizes it (contents blanked). */
void ftl_tui_canvas_text_resize(FtlTuiCanvas *c, int rows, int cols);
/* What it shows: one line per row, trailing blanks cut, each row prefixed
 * by '>' when a cell of it has the cursor style, else ' '. g_free(). */
char *ftl_tui_canvas_text_dump(FtlTuiCanvas *c);

G_DEFINE_AUTOPTR_CLEANUP_FUNC(FtlTuiCanvas, ftl_tui_canvas_free)
