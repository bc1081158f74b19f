/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Driving the TUI without a terminal, for the TUI's tests: an input opened
 * as `ftlens tui` opens it (a trace, a console log, stack tables), the app
 * over the plain-text canvas, screens drawn until they settle. */
#pragma once

#include <glib/gstdio.h>
#include <string.h>

#include "analysis/oops.h"
#include "parse/console.h"
#include "parse/index.h"
#include "parse/open.h"
#include "parse/stacktrace.h"
#include "parse/text-index.h"
#include "unit.h"
#include "views/tui/app.h"

typedef struct {
	FtlTuiOptions opt;
	char *path; /* relative to dir, so that screens do not name the build's place */
	char *cwd;
	FtlStackSet *stacks;
	FtlConsole *console;
	FtlOops *oops;
	guint dump;
	FtlTuiApp *app;
	FtlTuiCanvas *canvas;
	gboolean indexed; /* opened as ftlens tui does: seeking with a cached index */
	gboolean unsettled; /* keys come while the input is still read */
} Tui;

static inline FtlTrace *tui_reopen(gpointer data, FtlOpenFlags flags, GError **error)
{
	Tui *t = data;
	if (t->console)
		return ftl_console_dump_open(t->console, t->dump, flags, NULL, error);
	FtlTrace *trace = ftl_trace_open(t->path, flags, error);
	if (trace && t->indexed)
		CU_ASSERT_EQUAL(ftl_text_index_attach_seekable(trace, FTL_INDEX_USE_AUTO, 0, NULL),
				FTL_INDEX_FRESH);
	return trace;
}

static inline void tui_start(Tui *t, int rows, int cols)
{
	t->opt.label = t->path ? t->path : "console";
	t->opt.open_data = t;
	t->opt.oops_cpu = t->oops ? t->opt.oops_cpu : -1;
	t->opt.utf8 = TRUE;
	if (t->opt.open) {
		g_autoptr(GError) error = NULL;
		t->opt.first = tui_reopen(t, FTL_OPEN_BROWSE, &error);
		if (!t->opt.first)
			fprintf(stderr, "\nopening %s: %s\n", t->opt.label,
				error ? error->message : "no error said");
		CU_ASSERT_PTR_NOT_NULL_FATAL(t->opt.first);
	}
	t->app = ftl_tui_app_new(&t->opt);
	t->canvas = ftl_tui_canvas_text_new(rows, cols, TRUE);
	if (!t->unsettled)
		ftl_tui_app_settle(t->app);
}

/* An event input (a trace file or a directory of them). */
static inline void tui_open_trace(Tui *t, const char *path, int rows, int cols)
{
	t->path = g_strdup(path);
	t->opt.open = tui_reopen;
	tui_start(t, rows, cols);
}

/* A console log: its reports, and its first ftrace dump as the events. */
static inline void tui_open_console(Tui *t, const char *path, int rows, int cols)
{
	g_autoptr(GError) error = NULL;
	t->path = g_strdup(path); /* the title; the events come from the dump */
	t->console = ftl_console_read(path, NULL, &error);
	CU_ASSERT_PTR_NOT_NULL_FATAL(t->console);
	t->oops = ftl_oops_find(t->console);
	t->opt.console = t->console;
	t->opt.oops = t->oops;
	t->opt.oops_cpu = -1;
	if (ftl_console_pick_dump(t->console, 0, &t->dump, NULL)) {
		t->opt.oops_cpu = ftl_oops_dump_cpu(t->oops, t->dump);
		t->opt.open = tui_reopen;
	}
	tui_start(t, rows, cols);
}

static inline void tui_open_stacks(Tui *t, const char *path, int rows, int cols)
{
	g_autoptr(GError) error = NULL;
	t->stacks = ftl_stack_set_new();
	CU_ASSERT_TRUE_FATAL(ftl_stacktrace_read(t->stacks, path, NULL, &error));
	ftl_stacktrace_finish(t->stacks);
	t->opt.stacks = t->stacks;
	tui_start(t, rows, cols);
}

static inline void tui_close(Tui *t)
{
	ftl_tui_app_free(t->app);
	ftl_tui_canvas_free(t->canvas);
	if (t->stacks)
		ftl_stack_set_free(t->stacks);
	if (t->oops)
		ftl_oops_free(t->oops);
	if (t->console)
		ftl_console_free(t->console);
	g_free(t->path);
	if (t->cwd)
		CU_ASSERT_EQUAL(g_chdir(t->cwd), 0);
	g_free(t->cwd);
}

/* Works in dir until tui_close(): inputs are named relative to it. */
static inline void tui_in(Tui *t, const char *dir)
{
	t->cwd = g_get_current_dir();
	CU_ASSERT_EQUAL_FATAL(g_chdir(dir), 0);
}

/* Opens path as A and b_path as B (`tui A --compare B`): b holds B's
 * options and lives until tui_close(t). */
static inline void tui_open_compare(Tui *t, Tui *b, const char *path, const char *b_path,
				    int rows, int cols)
{
	b->path = g_strdup(b_path);
	b->opt = (FtlTuiOptions){
		.label = b->path,
		.open = tui_reopen,
		.open_data = b,
		.oops_cpu = -1,
		.utf8 = TRUE,
		.origin = FTL_TS_NONE,
		.compare = &t->opt,
	};
	t->opt.compare = &b->opt;
	tui_open_trace(t, path, rows, cols);
}

/* Draws until the screen stops changing: a draw asks for the rows it
 * lacks, and settling reads them. */
static inline char *tui_screen(Tui *t)
{
	char *last = NULL;
	for (int i = 0; i < 20; i++) {
		ftl_tui_app_draw(t->app, t->canvas);
		char *now = ftl_tui_canvas_text_dump(t->canvas);
		if (last && !strcmp(last, now)) {
			g_free(last);
			return now;
		}
		g_free(last);
		last = now;
		ftl_tui_app_settle(t->app);
	}
	return last;
}

/* Types script (input.h's key names), drawing before each key as the loop
 * does (paging needs the page drawn); the reaction of the last key. */
static inline FtlTuiReaction tui_keys(Tui *t, const char *script)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(GArray) keys = ftl_tui_keys_parse(script, &error);
	CU_ASSERT_PTR_NOT_NULL_FATAL(keys);
	FtlTuiReaction r = FTL_TUI_REACT_NONE;
	for (guint i = 0; i < keys->len; i++) {
		g_free(tui_screen(t));
		FtlTuiInput in = { g_array_index(keys, gint, i), 0, 0 };
		if (in.key == FTL_TUI_KEY_RESIZE)
			continue;
		r = ftl_tui_app_key(t->app, &in);
		ftl_tui_app_settle(t->app);
	}
	return r;
}
