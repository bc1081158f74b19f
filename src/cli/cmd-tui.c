/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `ftlens tui FILE...`: sorts the inputs (event traces, stack tables,
 * console logs), opens them once to check them before the screen comes up,
 * and hands them to the TUI (views/tui/). */
#include "config.h"

#include <string.h>

#include "analysis/oops.h"
#include "cli/cli.h"
#include "parse/console.h"
#include "parse/open.h"
#include "parse/stacktrace.h"
#include "parse/text-index.h"
#include "util/error.h"
#include "util/input.h"
#include "views/tui/tui.h"

typedef enum { TUI_EVENTS, TUI_STACK, TUI_CONSOLE } TuiInputKind;

/* How the TUI opens the event input again: a trace is read once, and the
 * TUI reads it several times. */
typedef struct {
	GPtrArray *paths;
	FtlOpenFlags flags;
	const char *buffer;
	const FtlConsole *console; /* the events are its dump `dump` */
	guint dump;
	FtlIndexUse index; /* a single text file: its sparse index, to seek with */
} TuiOpen;

static FtlTrace *tui_open(gpointer data, FtlOpenFlags more, GError **error)
{
	TuiOpen *o = data;
	FtlOpenFlags flags = o->flags | more;
	if (o->console)
		return ftl_console_dump_open(o->console, o->dump, flags, error);
	const char *const *paths = (const char *const *)o->paths->pdata;
	FtlTrace *trace = ftl_trace_open_buffer(paths, o->paths->len, flags, o->buffer, error);
	/* the Events list seeks with a fresh index; a large file without one
	 * gets it from the model's pass, which reads it to the end */
	if (trace &&
	    ftl_text_index_attach_seekable(trace, o->index, 0, NULL) == FTL_INDEX_REFUSED) {
		ftl_trace_free(trace);
		trace = ftl_trace_open_buffer(paths, o->paths->len, flags, o->buffer, error);
	}
	return trace;
}

static TuiInputKind tui_sniff(const char *path, GError **error, gboolean *ok)
{
	*ok = TRUE;
	if (g_file_test(path, G_FILE_TEST_IS_DIR)) {
		g_autofree char *st = g_build_filename(path, "stack_trace", NULL);
		g_autofree char *tr = g_build_filename(path, "trace", NULL);
		return g_file_test(st, G_FILE_TEST_EXISTS) && !g_file_test(tr, G_FILE_TEST_EXISTS)
			       ? TUI_STACK
			       : TUI_EVENTS;
	}
	if (!strcmp(path, "-"))
		return TUI_EVENTS; /* standard input can be read only once: the trace reader's */
	g_autoptr(FtlInput) in = ftl_input_open(path, error);
	if (!in) {
		*ok = FALSE;
		return TUI_EVENTS;
	}
	if (ftl_stacktrace_sniff(in->data, in->size, NULL) != FTL_STACK_INPUT_NONE)
		return TUI_STACK;
	return ftl_console_sniff(in->data, in->size) ? TUI_CONSOLE : TUI_EVENTS;
}

/* The console log's first ftrace dump with something in it, if any. */
static gboolean tui_console(FtlTuiOptions *opt, TuiOpen *o, FtlConsole *con, FtlOops *oops)
{
	opt->console = con;
	opt->oops = oops;
	/* a log without a dump is still worth its reports: no error then */
	if (!ftl_console_pick_dump(con, 0, &o->dump, NULL))
		return FALSE;
	o->console = con;
	opt->oops_cpu = ftl_oops_dump_cpu(oops, o->dump);
	return TRUE;
}

static gboolean tui_inputs(int argc, char **argv, FtlTuiOptions *opt, TuiOpen *o,
			   FtlStackSet *stacks, FtlConsole **con, FtlOops **oops, GError **error)
{
	for (int i = 1; i < argc; i++) {
		gboolean ok;
		TuiInputKind kind = tui_sniff(argv[i], error, &ok);
		if (!ok)
			return FALSE;
		if (kind == TUI_STACK && !ftl_stacktrace_read(stacks, argv[i], error))
			return FALSE;
		if (kind == TUI_CONSOLE) {
			if (*con) {
				g_set_error(error, FTL_ERROR, FTL_ERROR_USAGE,
					    "tui: '%s': one console log at a time", argv[i]);
				return FALSE;
			}
			if (!(*con = ftl_console_read(argv[i], error)))
				return FALSE;
			*oops = ftl_oops_find(*con);
		}
		if (kind == TUI_EVENTS)
			g_ptr_array_add(o->paths, argv[i]);
	}
	ftl_stacktrace_finish(stacks);
	opt->stacks = ftl_stack_set_n_tables(stacks) ? stacks : NULL;
	gboolean dump = *con && tui_console(opt, o, *con, *oops);
	if (dump && o->paths->len) {
		g_set_error(error, FTL_ERROR, FTL_ERROR_USAGE,
			    "tui: '%s' holds an ftrace dump: open it without other traces",
			    (*con)->path);
		return FALSE;
	}
	if (dump || o->paths->len)
		opt->open = tui_open;
	return TRUE;
}

gboolean ftl_cmd_tui(int argc, char **argv, GError **error)
{
	gboolean ascii = FALSE, mouse = FALSE, no_mouse = FALSE, keys = FALSE;
	const GOptionEntry entries[] = {
		{ "ascii", 0, 0, G_OPTION_ARG_NONE, &ascii,
		  "ASCII bars and lines, not UTF-8 blocks", NULL },
		{ "mouse", 0, 0, G_OPTION_ARG_NONE, &mouse,
		  "Take the mouse: the wheel scrolls, a click selects (not the terminal's "
		  "selection)",
		  NULL },
		/* the default since the mouse is left alone; kept for scripts */
		{ "no-mouse", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_NONE, &no_mouse, NULL, NULL },
		{ "keys", 0, 0, G_OPTION_ARG_NONE, &keys, "Print the key table and exit", NULL },
		{ NULL },
	};
	g_auto(FtlCliGlobals) g = { 0 };
	if (!ftl_cli_parse(ftl_cli_find("tui"), entries, &g, &argc, &argv, error))
		return FALSE;
	if (keys) {
		g_autofree char *table = ftl_tui_keys_text();
		fputs(table, stdout);
		return TRUE;
	}
	if (argc < 2) {
		g_set_error(error, FTL_ERROR, FTL_ERROR_USAGE,
			    "tui: no input file given (try 'ftlens help tui')");
		return FALSE;
	}
	g_autoptr(GPtrArray) paths = g_ptr_array_new();
	TuiOpen o = { paths, g.strict ? FTL_OPEN_STRICT : FTL_OPEN_NONE,	 g.buffer, NULL,
		      0,     g.no_index ? FTL_INDEX_USE_OFF : FTL_INDEX_USE_AUTO };
	const char *no_color = g_getenv("NO_COLOR");
	FtlTuiOptions opt = {
		.label = argv[1],
		.open_data = &o,
		.filter = &g.filter,
		.oops_cpu = -1,
		.utf8 = g_get_charset(NULL) && !ascii,
		.color = g_strcmp0(g.color, "never") &&
			 (!no_color || !*no_color || !g_strcmp0(g.color, "always")),
		.mouse = mouse && !no_mouse,
	};
	ftl_tui_memory_init();
	g_autoptr(FtlStackSet) stacks = ftl_stack_set_new();
	g_autoptr(FtlConsole) con = NULL;
	g_autoptr(FtlOops) oops = NULL;
	if (!tui_inputs(argc, argv, &opt, &o, stacks, &con, &oops, error))
		return FALSE;
	/* opened here, so that bad input is one message before the screen;
	 * the Events list reads it */
	if (opt.open && !(opt.first = tui_open(&o, FTL_OPEN_BROWSE, error)))
		return FALSE;
	return ftl_tui_run(&opt, error);
}
