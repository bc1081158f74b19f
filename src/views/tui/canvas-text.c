/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The plain-text canvas: cells in memory, read back as lines, so that tests
 * drive the TUI with key scripts and compare its screens with golden ones
 * without a terminal. */
#include "config.h"

#include "views/tui/canvas.h"

#include <string.h>

#include "util/escape.h"
#include "util/nocov.h"

typedef struct {
	char text[16]; /* one character and its combining marks; "" for the
			* right half of a wide character */
	guint8 style;
} TextCell;

typedef struct {
	FtlTuiCanvas base;
	TextCell *cells;
} TextCanvas;

static void text_erase(FtlTuiCanvas *c)
{
	TextCanvas *t = (TextCanvas *)c;
	for (int i = 0; i < c->rows * c->cols; i++) {
		strcpy(t->cells[i].text, " ");
		t->cells[i].style = FTL_TUI_STYLE_NORMAL;
	}
}

/* A wide character cut in half by a later put leaves a blank. */
static void text_unsplit(TextCanvas *t, int y, int x)
{
	TextCell *row = t->cells + y * t->base.cols;
	if (x < t->base.cols && !row[x].text[0])
		strcpy(row[x].text, " ");
}

static void text_put(FtlTuiCanvas *c, int y, int x, const char *text, FtlTuiStyle style)
{
	TextCanvas *t = (TextCanvas *)c;
	TextCell *row = t->cells + y * c->cols;
	if (x > 0 && !row[x].text[0])
		strcpy(row[x - 1].text, " ");
	for (const char *p = text; *p && x <= c->cols; p = g_utf8_next_char(p)) {
		if ((guchar)*p < 0x80) {
			/* ASCII, one column (ftl_escape_width's count) */
			if (x + 1 > c->cols)
				break;
			row[x].text[0] = *p;
			row[x].text[1] = 0;
			row[x].style = (guint8)style;
			x++;
			continue;
		}
		gsize len = (gsize)(g_utf8_next_char(p) - p);
		char ch[8] = { 0 };
		memcpy(ch, p, MIN(len, sizeof ch - 1));
		int w = (int)ftl_escape_width(ch);
		if (w == 0) { /* a combining mark joins the cell before */
			if (x > 0 && strlen(row[x - 1].text) + len < sizeof row[0].text)
				strcat(row[x - 1].text, ch);
			continue;
		}
		if (x + w > c->cols)
			break;
		strcpy(row[x].text, ch);
		row[x].style = (guint8)style;
		if (w == 2) {
			row[x + 1].text[0] = 0;
			row[x + 1].style = (guint8)style;
		}
		x += w;
	}
	text_unsplit(t, y, x);
}

static void text_free(FtlTuiCanvas *c)
{
	TextCanvas *t = (TextCanvas *)c;
	g_free(t->cells);
	g_free(t);
}

static const FtlTuiCanvasOps text_ops = {
	.put = text_put,
	.erase = text_erase,
	.free = text_free,
};

FtlTuiCanvas *ftl_tui_canvas_text_new(int rows, int cols, gboolean utf8)
{
	TextCanvas *t = g_new0(TextCanvas, 1);
	t->base.ops = &text_ops;
	t->base.utf8 = utf8;
	ftl_tui_canvas_text_resize(&t->base, rows, cols);
	return &t->base;
}

void ftl_tui_canvas_text_resize(FtlTuiCanvas *c, int rows, int cols)
{
	TextCanvas *t = (TextCanvas *)c;
	c->rows = MAX(rows, 1);
	c->cols = MAX(cols, 1);
	g_free(t->cells);
	t->cells = g_new(TextCell, (gsize)c->rows * (gsize)c->cols);
	text_erase(c);
}

/* The tests' (and fuzz-tui's) reading of the screen, not the TUI's:
 * left out of a fuzzing build's coverage, it looked at every cell after
 * every step. */
FTL_NO_COVERAGE char *ftl_tui_canvas_text_dump(FtlTuiCanvas *c)
{
	TextCanvas *t = (TextCanvas *)c;
	GString *out = g_string_new(NULL);
	for (int y = 0; y < c->rows; y++) {
		const TextCell *row = t->cells + y * c->cols;
		gboolean cursor = FALSE;
		for (int x = 0; x < c->cols; x++)
			cursor |= row[x].style == FTL_TUI_STYLE_CURSOR;
		g_string_append_c(out, cursor ? '>' : ' ');
		gsize start = out->len;
		for (int x = 0; x < c->cols; x++) {
			if (row[x].text[0] && !row[x].text[1])
				g_string_append_c(out, row[x].text[0]);
			else
				g_string_append(out, row[x].text);
		}
		while (out->len > start && out->str[out->len - 1] == ' ')
			g_string_truncate(out, out->len - 1);
		g_string_append_c(out, '\n');
	}
	return g_string_free(out, FALSE);
}
