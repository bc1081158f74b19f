/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Drawing helpers shared by every canvas: cutting text to columns, the
 * escaper in front of trace text, bars. */
#include "config.h"

#include "views/tui/canvas.h"

#include <string.h>

#include "util/escape.h"

void ftl_tui_canvas_free(FtlTuiCanvas *c)
{
	if (c)
		c->ops->free(c);
}

void ftl_tui_canvas_erase(FtlTuiCanvas *c)
{
	c->ops->erase(c);
}

void ftl_tui_canvas_flush(FtlTuiCanvas *c)
{
	if (c->ops->flush)
		c->ops->flush(c);
}

static int canvas_room(const FtlTuiCanvas *c, int y, int x, int w)
{
	if (y < 0 || y >= c->rows || x < 0 || x >= c->cols)
		return 0;
	if (w < 0 || x + w > c->cols)
		w = c->cols - x;
	return w;
}

int ftl_tui_put(FtlTuiCanvas *c, int y, int x, int w, const char *text, FtlTuiStyle style)
{
	w = canvas_room(c, y, x, w);
	if (w <= 0 || !text || !*text)
		return 0;
	gsize n = ftl_escape_fit(text, (gsize)w);
	if (!n)
		return 0;
	if (text[n]) {
		g_autofree char *cut = g_strndup(text, n);
		c->ops->put(c, y, x, cut, style);
		return (int)ftl_escape_width(cut);
	}
	c->ops->put(c, y, x, text, style);
	return (int)ftl_escape_width(text);
}

int ftl_tui_put_right(FtlTuiCanvas *c, int y, int x, int w, const char *text, FtlTuiStyle style)
{
	int tw = (int)ftl_escape_width(text);
	if (tw < w)
		x += w - tw;
	return ftl_tui_put(c, y, x, w, text, style);
}

int ftl_tui_put_raw(FtlTuiCanvas *c, int y, int x, int w, const char *raw, gssize len,
		    FtlTuiStyle style)
{
	if (!raw)
		return 0;
	g_autofree char *safe = ftl_escape(raw, len);
	return ftl_tui_put(c, y, x, w, safe, style);
}

void ftl_tui_fill(FtlTuiCanvas *c, int y, int x, int w, FtlTuiStyle style)
{
	w = canvas_room(c, y, x, w);
	if (w <= 0)
		return;
	char *blank = g_malloc((gsize)w + 1);
	memset(blank, ' ', (gsize)w);
	blank[w] = 0;
	c->ops->put(c, y, x, blank, style);
	g_free(blank);
}

void ftl_tui_bar(FtlTuiCanvas *c, int y, int x, int w, double frac, FtlTuiStyle style)
{
	/* U+2588 full block, then U+2589..U+258F: seven eighths down to one */
	static const char *const eighth[8] = { "",	 "\u258f", "\u258e", "\u258d",
					       "\u258c", "\u258b", "\u258a", "\u2589" };
	w = canvas_room(c, y, x, w);
	if (w <= 0 || !(frac > 0))
		return;
	if (frac > 1)
		frac = 1;
	long units = (long)(frac * w * (c->utf8 ? 8 : 1) + 0.5); /* frac > 0: rounds */
	if (units == 0)
		units = 1; /* something, however small, is not nothing */
	GString *s = g_string_new(NULL);
	long full = c->utf8 ? units / 8 : units;
	for (long i = 0; i < full; i++)
		g_string_append(s, c->utf8 ? "\u2588" : "#");
	if (c->utf8)
		g_string_append(s, eighth[units % 8]);
	c->ops->put(c, y, x, s->str, style);
	g_string_free(s, TRUE);
}
