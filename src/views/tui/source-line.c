/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The line under Functions and Graph that says where the selected function
 * is defined, from the kernel's debug info (--vmlinux, --debuginfo, or the
 * Debian files for the trace's release): the answer `report --by file`
 * gives, through the same source map. Only the selected function is looked
 * up, when it is drawn; the map keeps every answer. */
#include "config.h"

#include "views/tui/source-line.h"

struct _FtlTuiSources {
	FtlSourceMap *map; /* the thread's until `ready`, then the screen's */
	GThread *thread;
	gint ready;	       /* atomic: the first reading is done */
	gboolean said_reading; /* the line said so: redraw when ready */
};

/* The first answer reads the symbol table, the tree's prefix (from
 * start_kernel's unit) and a unit: done here, off the screen's thread. */
static gpointer sources_warm(gpointer data)
{
	FtlTuiSources *s = data;
	const char *file;
	guint line;
	ftl_source_map_where(s->map, "start_kernel", &file, &line);
	g_atomic_int_set(&s->ready, 1);
	return NULL;
}

FtlTuiSources *ftl_tui_sources_new(FtlDebugInfo *dbg)
{
	FtlTuiSources *s = g_new0(FtlTuiSources, 1);
	s->map = ftl_source_map_new(dbg, FTL_SOURCE_BY_FILE);
	s->thread = g_thread_new("ftlens-sources", sources_warm, s);
	return s;
}

void ftl_tui_sources_wait(FtlTuiSources *s)
{
	if (s->thread)
		g_thread_join(s->thread);
	s->thread = NULL;
}

void ftl_tui_sources_free(FtlTuiSources *s)
{
	if (!s)
		return;
	ftl_tui_sources_wait(s);
	ftl_source_map_free(s->map);
	g_free(s);
}

int ftl_tui_source_rows(FtlTuiApp *app, int h)
{
	/* without debug info, or with no room for a row below the header,
	 * the panel keeps every row */
	return app->opt->sources && h > 2 ? 1 : 0;
}

void ftl_tui_source_draw(FtlTuiApp *app, FtlTuiCanvas *c, int y, const char *func)
{
	FtlTuiSources *s = app->opt->sources;
	ftl_tui_fill(c, y, 0, -1, FTL_TUI_STYLE_HEADER);
	if (!func)
		return;
	if (!g_atomic_int_get(&s->ready)) {
		s->said_reading = TRUE;
		ftl_tui_put(c, y, 0, -1, "defined at: reading the debug info...",
			    FTL_TUI_STYLE_HEADER);
		return;
	}
	int x = ftl_tui_put(c, y, 0, -1, "defined at ", FTL_TUI_STYLE_HEADER);
	const char *file = NULL;
	guint line = 0;
	if (!ftl_source_map_where(s->map, func, &file, &line)) {
		x += ftl_tui_put_raw(c, y, x, -1, func, -1, FTL_TUI_STYLE_HEADER);
		ftl_tui_put(c, y, x, -1, ": not in the debug info", FTL_TUI_STYLE_HEADER);
		return;
	}
	g_autofree char *where = g_strdup_printf("%s:%u", file, line);
	x += ftl_tui_put_raw(c, y, x, -1, where, -1, FTL_TUI_STYLE_HEADER);
	x += ftl_tui_put(c, y, x, -1, "  ", FTL_TUI_STYLE_HEADER);
	ftl_tui_put_raw(c, y, x, -1, func, -1, FTL_TUI_STYLE_HEADER);
}

FtlTuiReaction ftl_tui_source_tick(FtlTuiApp *app)
{
	FtlTuiSources *s = app->opt->sources;
	if (!s || !s->said_reading || !g_atomic_int_get(&s->ready))
		return FTL_TUI_REACT_NONE;
	s->said_reading = FALSE;
	return FTL_TUI_REACT_REDRAW;
}
