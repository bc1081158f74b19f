/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `ftlens tui FILE...`: sorts the inputs (event traces, stack tables,
 * console logs), opens them once to check them before the screen comes up,
 * and hands them to the TUI (views/tui/). */
#include "config.h"

#include <string.h>

#include "analysis/counters.h"
#include "analysis/markers.h"
#include "analysis/oops.h"
#include "cli/cli.h"
#include "util/error.h"
#include "util/scan.h"
#include "views/tui/source-line.h"
#include "views/tui/tui.h"
#include "views/tui/view.h"

/* The TUI reads the event trace several times: each opens it again
 * through the door, with the index kept for seeking. */
static FtlTrace *tui_open(gpointer data, FtlOpenFlags more, GError **error)
{
	return ftl_inputs_open_seekable(data, more, error);
}

/* Stack tables, a console log's reports and its dump, and event traces:
 * each operand as the door sorted it. */
static gboolean tui_inputs(FtlInputs *in, FtlTuiOptions *opt, FtlStackSet *stacks, FtlOops **oops,
			   GError **error)
{
	if (!ftl_inputs_read_stacks(in, stacks, error))
		return FALSE;
	opt->stacks = ftl_stack_set_n_tables(stacks) ? stacks : NULL;
	if (ftl_inputs_n(in, FTL_INPUT_CONSOLE)) {
		const FtlConsole *con = ftl_inputs_console(in, 0, error);
		if (!con)
			return FALSE;
		*oops = ftl_oops_find(con);
		opt->console = con;
		opt->oops = *oops;
		guint dump;
		/* a log without a dump is still worth its reports: no error then */
		if (ftl_console_pick_dump(con, 0, &dump, NULL)) {
			if (ftl_inputs_n(in, FTL_INPUT_EVENTS)) {
				g_set_error(error, FTL_ERROR, FTL_ERROR_USAGE,
					    "tui: '%s' holds an ftrace dump: open it without other "
					    "traces",
					    con->path);
				return FALSE;
			}
			opt->oops_cpu = ftl_oops_dump_cpu(*oops, dump);
		}
	}
	if (ftl_inputs_has_events(in))
		opt->open = tui_open;
	return TRUE;
}

/* The selection, checked as every event command checks it once the TUI
 * has read the whole trace (the first model). */
typedef struct {
	FtlCliGlobals *g;
	gboolean checked;
} TuiSelection;

static gboolean tui_selected(gpointer data, FtlTrace *trace, GError **error)
{
	TuiSelection *sel = data;
	sel->checked = TRUE;
	return ftl_cli_check_selection(sel->g, trace, error);
}

/* The options that say where to open, checked before the screen comes up. */
static gboolean tui_start_check(FtlTuiStart *st, const char *at, const char *span_start,
				const char *span_end, char *const *counters, GError **error)
{
	gint id;
	if (at) {
		if (!ftl_scan_seconds_str(at, &st->at)) {
			g_set_error(error, FTL_ERROR, FTL_ERROR_USAGE,
				    "tui: --at '%s': expected a time in seconds (12345.678901234)",
				    at);
			return FALSE;
		}
		st->at_set = TRUE;
	}
	if (st->panel && !ftl_tui_panel_lookup(st->panel, &id, error))
		return FALSE;
	if (st->marker) {
		g_autoptr(GError) local = NULL;
		g_autoptr(GRegex) re = g_regex_new(st->marker, G_REGEX_RAW, 0, &local);
		if (!re) {
			g_set_error(error, FTL_ERROR, FTL_ERROR_USAGE, "tui: --marker '%s': %s",
				    st->marker, local->message);
			return FALSE;
		}
	}
	/* a bad pattern is one message before the screen, as in markers */
	g_autoptr(FtlSpans) spans = span_start ? ftl_spans_new(span_start, span_end, error) : NULL;
	if (span_start && !spans)
		return FALSE;
	/* a bad --counter too, as in timeline */
	g_autoptr(FtlCounters) c = ftl_counters_new_specs(counters, error);
	if (!c)
		g_prefix_error(error, "tui: ");
	return c != NULL;
}

/* --view NAME|FILE, read before the screen: a bad one is one message. */
static FtlTuiView *tui_view_load(const char *view, GError **error)
{
	g_autofree char *path = ftl_tui_view_resolve(view, error);
	FtlTuiView *v = path ? ftl_tui_view_load(path, error) : NULL;
	if (!v)
		g_prefix_error(error, "tui: --view: ");
	return v;
}

/* Says that an error is B's: "tui: --compare: ..." (once "tui: "). */
static void tui_compare_error(GError **error)
{
	if (!error || !*error)
		return;
	const char *msg = (*error)->message;
	char *said = g_strdup_printf("tui: --compare: %s",
				     g_str_has_prefix(msg, "tui: ") ? msg + 5 : msg);
	g_free((*error)->message);
	(*error)->message = said;
}

/* --compare B: B's options, A's but for its input; B is opened once here
 * so that an unreadable B is one message before the screen. */
static gboolean tui_compare(FtlTuiOptions *opt, FtlTuiOptions *b, const char *path,
			    FtlInputs *in, GError **error)
{
	if (!opt->open || !ftl_inputs_has_events(in)) {
		g_set_error(error, FTL_ERROR, FTL_ERROR_USAGE,
			    "tui: --compare '%s': both A and B must be event traces (%s has none)",
			    path, opt->open ? "B" : "A");
		return FALSE;
	}
	g_autoptr(FtlTrace) trace = tui_open(in, FTL_OPEN_NONE, error);
	if (!trace) {
		tui_compare_error(error);
		return FALSE;
	}
	*b = (FtlTuiOptions){
		.label = path,
		.open = tui_open,
		.open_data = in,
		.filter = opt->filter,
		.span_start = opt->span_start,
		.span_end = opt->span_end,
		.counters = opt->counters,
		.oops_cpu = -1,
		.utf8 = opt->utf8,
		.color = opt->color,
		.mouse = opt->mouse,
		.origin = FTL_TS_NONE, /* A's origin means nothing on B's clock */
		.compare = opt,
	};
	opt->compare = b;
	return TRUE;
}

/* What tui_open_run takes besides the options: --view, the operands (a
 * saved view records them), and --compare's trace. */
typedef struct {
	const char *view;
	int n_operands;
	char **operands;
	const char *compare;
} TuiRun;

/* Sorts and opens the inputs, so that bad input is one message before the
 * screen, then runs the TUI on them (beside the trace of --compare, when
 * given). */
static gboolean tui_open_run(FtlCliGlobals *g, FtlTuiOptions *opt, const TuiRun *run,
			     GError **error)
{
	g_autoptr(FtlInputs) other = run->compare ? ftl_cli_setup_path(g, run->compare, error) : NULL;
	if (run->compare && !other) {
		tui_compare_error(error);
		return FALSE;
	}
	g_autoptr(FtlTuiView) saved = run->view ? tui_view_load(run->view, error) : NULL;
	if (run->view && !saved)
		return FALSE;
	opt->view = saved;
	g_autofree char **paths = g_new0(char *, MAX(run->n_operands, 0) + 1);
	for (int i = 0; i < run->n_operands; i++)
		paths[i] = run->operands[i];
	opt->paths = (const char *const *)paths;
	ftl_tui_memory_init();
	g_autoptr(FtlStackSet) stacks = ftl_stack_set_new();
	g_autoptr(FtlOops) oops = NULL;
	if (!tui_inputs(g->inputs, opt, stacks, &oops, error))
		return FALSE;
	/* the Events list reads the trace opened here */
	if (opt->open && !(opt->first = tui_open(g->inputs, FTL_OPEN_BROWSE, error)))
		return FALSE;
	if (opt->first && !ftl_cli_check_related(g, opt->first, FALSE, error))
		return FALSE;
	FtlTuiOptions b;
	if (other && !tui_compare(opt, &b, run->compare, other, error))
		return FALSE;
	/* Functions and Graph say where the selected function is defined
	 * when the kernel's debug info is given or found for the trace's
	 * release; a vmlinux of another build is refused before the screen */
	g_autoptr(FtlDebugInfo) dbg = NULL;
	if (opt->first && !g->debuginfo.none) {
		dbg = ftl_cli_debuginfo(g, ftl_trace_label(opt->first), ftl_trace_kernel(opt->first),
					ftl_trace_build_id(opt->first), NULL, NULL, error);
		if (!dbg && error && *error)
			return FALSE;
	}
	opt->sources = dbg ? ftl_tui_sources_new(dbg) : NULL;
	gboolean ok = ftl_tui_run(opt, error);
	g_clear_pointer(&opt->sources, ftl_tui_sources_free);
	return ok;
}

/* --keys: the key table. */
static gboolean tui_print_keys(void)
{
	g_autofree char *table = ftl_tui_keys_text();
	fputs(table, stdout);
	return TRUE;
}

/* Colour unless --color never, or NO_COLOR set and no --color always. */
static gboolean tui_color(const FtlCliGlobals *g)
{
	const char *no_color = g_getenv("NO_COLOR");
	return g_strcmp0(g->color, "never") &&
	       (!no_color || !*no_color || !g_strcmp0(g->color, "always"));
}

/* long: its option table is half of it; the checks are tui_start_check()'s */
gboolean ftl_cmd_tui(const FtlCommand *cmd, int argc, char **argv, GError **error)
{
	gboolean ascii = FALSE, mouse = FALSE, no_mouse = FALSE, keys = FALSE;
	g_autofree char *at = NULL, *marker = NULL, *func = NULL, *panel = NULL, *view = NULL;
	g_autofree char *span_start = NULL, *span_end = NULL, *compare = NULL;
	g_auto(GStrv) counter_specs = NULL;
	char *span_help = NULL; /* never set: --span is taken out of argv first */
	const GOptionEntry entries[] = {
		{ "at", 0, 0, G_OPTION_ARG_STRING, &at,
		  "Open the Events list (or --panel) at the first event at or after this time, "
		  "as report, sched and markers print it",
		  "SECONDS" },
		{ "marker", 0, 0, G_OPTION_ARG_STRING, &marker,
		  "Open the Events list at the first marker matching this regex", "REGEX" },
		{ "func", 0, 0, G_OPTION_ARG_STRING, &func,
		  "Open the Graph on this function's first call (Functions with --panel "
		  "functions)",
		  "NAME" },
		{ "panel", 0, 0, G_OPTION_ARG_STRING, &panel,
		  "Open this panel: events, graph, functions, timeline, markers, ...", "NAME" },
		{ "view", 0, 0, G_OPTION_ARG_STRING, &view,
		  "Open a view saved with Z: a name (in ~/.config/ftlens/views) or a file with a "
		  "'/'",
		  "NAME|FILE" },
		{ "span", 0, 0, G_OPTION_ARG_STRING, &span_help,
		  "Marker spans (START and END regexes, as markers --span): Markers' statistics, "
		  "scopes of Sched",
		  "START END" },
		{ "compare", 0, 0, G_OPTION_ARG_FILENAME, &compare,
		  "Compare with this trace (B): Functions and Graph show both and the change, "
		  "Timeline A's CPUs above B's",
		  "B" },
		{ "counter", 0, 0, G_OPTION_ARG_STRING_ARRAY, &counter_specs,
		  "Also a counter row in the Timeline: EVENT's numeric FIELD, per KEY field "
		  "(default cpu_id, else the CPU), as timeline --counter",
		  "EVENT:FIELD[:KEY]" },
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
	if (!ftl_cli_take_pair("tui", "--span", &argc, argv, &span_start, &span_end, error))
		return FALSE;
	g_auto(FtlCliGlobals) g = { 0 };
	gboolean parsed = ftl_cli_parse(cmd, entries, &g, &argc, &argv, error);
	g_free(span_help);
	if (!parsed)
		return FALSE;
	FtlTuiStart start = { .marker = marker, .func = func, .panel = panel };
	if (!tui_start_check(&start, at, span_start, span_end, counter_specs, error))
		return FALSE;
	if (keys)
		return tui_print_keys();
	if (!ftl_cli_setup(&g, cmd->inputs, argc, argv, error))
		return FALSE;
	TuiSelection sel = { &g, FALSE };
	FtlTuiOptions opt = {
		.label = argv[1],
		.open_data = g.inputs,
		.filter = &g.filter,
		.oops_cpu = -1,
		.utf8 = g_get_charset(NULL) && !ascii,
		.color = tui_color(&g),
		.mouse = mouse && !no_mouse,
		.origin = g.origin_ns,
		.selected = tui_selected,
		.selected_data = &sel,
		.span_start = span_start,
		.span_end = span_end,
		.counters = counter_specs,
		.start = start,
	};
	TuiRun run = { view, argc - 1, argv + 1, compare };
	gboolean ok = tui_open_run(&g, &opt, &run, error);
	/* the screen is gone: --verbose says what the model selected */
	if (sel.checked)
		ftl_cli_say_selected(&g);
	return ok;
}
