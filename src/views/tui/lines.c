/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A scrolling list of lines made from the model, with a cursor and jumps
 * to the Events list: the Markers, Quality, Stack and Oops panels. */
#include "config.h"

#include "views/tui/app.h"

#include "util/escape.h"

static void lines_free_line(gpointer p)
{
	g_free(((FtlTuiLine *)p)->text);
	g_free(((FtlTuiLine *)p)->histo_title);
}

void ftl_tui_lines_init(FtlTuiLines *l)
{
	l->lines = g_array_new(FALSE, TRUE, sizeof(FtlTuiLine));
	g_array_set_clear_func(l->lines, lines_free_line);
}

void ftl_tui_lines_clear(FtlTuiLines *l)
{
	g_clear_pointer(&l->lines, g_array_unref);
}

void ftl_tui_lines_reset(FtlTuiLines *l)
{
	g_array_set_size(l->lines, 0);
	l->built_key = 0;
}

FtlTuiLine *ftl_tui_lines_add(FtlTuiLines *l, FtlTuiStyle style, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	FtlTuiLine line = { .text = g_strdup_vprintf(fmt, ap), .style = style, .ts = FTL_TS_NONE,
			    .cpu = -1 };
	va_end(ap);
	g_array_append_val(l->lines, line);
	return &g_array_index(l->lines, FtlTuiLine, l->lines->len - 1);
}

const char *ftl_tui_lines_raw(GString *buf, const char *raw, gssize len)
{
	g_string_truncate(buf, 0);
	ftl_escape_append(buf, raw ? raw : "", raw ? len : 0);
	return buf->str;
}

void ftl_tui_cell(GString *out, const char *safe, int cols, gboolean right)
{
	gsize n = ftl_escape_fit(safe, (gsize)MAX(cols, 0));
	g_autofree char *cut = g_strndup(safe, n);
	int pad = cols - (int)ftl_escape_width(cut);
	if (right)
		for (int i = 0; i < pad; i++)
			g_string_append_c(out, ' ');
	g_string_append(out, cut);
	if (!right)
		for (int i = 0; i < pad; i++)
			g_string_append_c(out, ' ');
}

void ftl_tui_cell_mid(GString *out, const char *safe, int cols)
{
	if (cols < 3 || (int)ftl_escape_width(safe) <= cols) {
		ftl_tui_cell(out, safe, cols, FALSE);
		return;
	}
	gsize head = ftl_escape_fit(safe, (gsize)(cols - 1) / 2);
	g_autofree char *start = g_strndup(safe, head);
	int left = cols - (int)ftl_escape_width(start) - 1;
	g_string_append(out, start);
	g_string_append_c(out, '~');
	ftl_tui_cell(out, safe + ftl_escape_tail(safe, (gsize)left), left, FALSE);
}

/* The cursor line's histogram, or NULL. */
static const FtlTuiLine *lines_histo(const FtlTuiLines *l)
{
	if (l->cursor < 0 || l->cursor >= (gint64)l->lines->len)
		return NULL;
	const FtlTuiLine *line = &g_array_index(l->lines, FtlTuiLine, l->cursor);
	return line->histo ? line : NULL;
}

void ftl_tui_lines_draw(FtlTuiLines *l, FtlTuiCanvas *c, int y, int h, const char *header)
{
	const FtlTuiLine *hl = l->histo ? lines_histo(l) : NULL;
	if (hl) {
		FtlTuiHisto what = { hl->histo_title, hl->histo_noun, "COUNT", NULL, hl->histo };
		ftl_tui_histo_draw(c, y, h, &what);
		return;
	}
	int first = y;
	if (header) {
		ftl_tui_fill(c, y, 0, -1, FTL_TUI_STYLE_HEADER);
		ftl_tui_put(c, y, 0, -1, header, FTL_TUI_STYLE_HEADER);
		first++;
		h--;
	}
	l->page = h;
	gint64 n = l->lines->len;
	for (int row = 0; row < h && l->top + row < n; row++) {
		gint64 i = l->top + row;
		const FtlTuiLine *line = &g_array_index(l->lines, FtlTuiLine, i);
		gboolean cur = i == l->cursor;
		if (cur)
			ftl_tui_fill(c, first + row, 0, -1, FTL_TUI_STYLE_CURSOR);
		ftl_tui_put(c, first + row, 0, -1, line->text,
			    cur ? FTL_TUI_STYLE_CURSOR : line->style);
	}
}

FtlTuiReaction ftl_tui_lines_command(FtlTuiLines *l, FtlTuiApp *app, FtlTuiCmd cmd,
				     const FtlTuiInput *in)
{
	gint64 n = l->lines->len;
	if (l->histo && lines_histo(l)) {
		/* over the list: Esc or H again closes it */
		if (cmd != FTL_TUI_CMD_BACK && cmd != FTL_TUI_CMD_HISTOGRAM)
			return FTL_TUI_REACT_NONE;
		l->histo = FALSE;
		return FTL_TUI_REACT_REDRAW;
	}
	l->histo = FALSE;
	if (cmd == FTL_TUI_CMD_HISTOGRAM) {
		if (lines_histo(l)) {
			l->histo = TRUE;
			return FTL_TUI_REACT_REDRAW;
		}
		ftl_tui_app_say(app, FALSE, "H: on a row with a histogram");
		return FTL_TUI_REACT_STATUS;
	}
	if (ftl_tui_move(&l->cursor, n, l->page, cmd)) {
		ftl_tui_scroll(&l->top, l->cursor, l->page);
		return FTL_TUI_REACT_REDRAW;
	}
	if (cmd == FTL_TUI_CMD_CLICK && in->y >= 2 && l->top + in->y - 2 < n) {
		l->cursor = l->top + in->y - 2;
		return FTL_TUI_REACT_REDRAW;
	}
	if (cmd != FTL_TUI_CMD_ACTIVATE || l->cursor >= n)
		return FTL_TUI_REACT_NONE;
	const FtlTuiLine *line = &g_array_index(l->lines, FtlTuiLine, l->cursor);
	if (line->line && app->events)
		return ftl_tui_go_line(app, line->line, line->cpu);
	if (line->ts != FTL_TS_NONE && app->events)
		return ftl_tui_go_time(app, line->ts);
	ftl_tui_app_say(app, FALSE, "nothing to go to from this line");
	return FTL_TUI_REACT_STATUS;
}

FtlTuiReaction ftl_tui_lines_search(FtlTuiLines *l, FtlTuiApp *app, GRegex *re, int dir)
{
	gint64 n = l->lines->len;
	for (gint64 i = l->cursor + dir; i >= 0 && i < n; i += dir) {
		if (g_regex_match(re, g_array_index(l->lines, FtlTuiLine, i).text, 0, NULL)) {
			l->cursor = i;
			ftl_tui_scroll(&l->top, l->cursor, l->page);
			return FTL_TUI_REACT_REDRAW;
		}
	}
	ftl_tui_app_say(app, TRUE, "no match");
	return FTL_TUI_REACT_STATUS;
}

gint64 ftl_tui_lines_time(FtlTuiLines *l)
{
	if (l->cursor < 0 || l->cursor >= (gint64)l->lines->len)
		return FTL_TS_NONE;
	return g_array_index(l->lines, FtlTuiLine, l->cursor).ts;
}

/* ---- panels that are such a list ------------------------------------------ */

typedef struct {
	FtlTuiPanel base;
	FtlTuiLines lines;
	FtlTuiLinesBuild build;
	GString *header;
	guint64 built_model; /* FtlTuiModel.gen */
	guint64 built_key;
	gboolean built;
} LinesPanel;

FtlTuiPanel *ftl_tui_lines_panel_new(FtlTuiLinesBuild build)
{
	LinesPanel *lp = g_new0(LinesPanel, 1);
	ftl_tui_lines_init(&lp->lines);
	lp->build = build;
	lp->header = g_string_new(NULL);
	return &lp->base;
}

void ftl_tui_lines_panel_free(FtlTuiPanel *p)
{
	LinesPanel *lp = (LinesPanel *)p;
	ftl_tui_lines_clear(&lp->lines);
	g_string_free(lp->header, TRUE);
	g_free(lp);
}

void ftl_tui_lines_panel_draw(FtlTuiPanel *p, FtlTuiApp *app, FtlTuiCanvas *c, int y, int h)
{
	LinesPanel *lp = (LinesPanel *)p;
	(void)app;
	ftl_tui_lines_draw(&lp->lines, c, y, h, lp->header->len ? lp->header->str : NULL);
	p->page = lp->lines.page;
}

FtlTuiReaction ftl_tui_lines_panel_command(FtlTuiPanel *p, FtlTuiApp *app, FtlTuiCmd cmd,
					   const FtlTuiInput *in)
{
	return ftl_tui_lines_command(&((LinesPanel *)p)->lines, app, cmd, in);
}

FtlTuiReaction ftl_tui_lines_panel_search(FtlTuiPanel *p, FtlTuiApp *app, GRegex *re, int dir)
{
	return ftl_tui_lines_search(&((LinesPanel *)p)->lines, app, re, dir);
}

gint64 ftl_tui_lines_panel_time(FtlTuiPanel *p, FtlTuiApp *app)
{
	(void)app;
	return ftl_tui_lines_time(&((LinesPanel *)p)->lines);
}

FtlTuiReaction ftl_tui_lines_panel_tick(FtlTuiPanel *p, FtlTuiApp *app)
{
	LinesPanel *lp = (LinesPanel *)p;
	guint64 key = (guint64)app->time_mode * 1000003u ^ (guint64)app->mark[0];
	guint64 gen = app->model ? app->model->gen : 0;
	if (lp->built && lp->built_model == gen && lp->built_key == key)
		return FTL_TUI_REACT_NONE;
	lp->built = TRUE;
	lp->built_model = gen;
	lp->built_key = key;
	ftl_tui_lines_reset(&lp->lines);
	g_string_truncate(lp->header, 0);
	lp->build(&lp->lines, app, lp->header);
	gint64 n = lp->lines.lines->len;
	lp->lines.cursor = CLAMP(lp->lines.cursor, 0, MAX(n - 1, 0));
	ftl_tui_scroll(&lp->lines.top, lp->lines.cursor, MAX(lp->lines.page, 1));
	return FTL_TUI_REACT_REDRAW;
}
