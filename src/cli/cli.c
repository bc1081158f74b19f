/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The command table, global options and shared command plumbing. */
#include "config.h"

#include "cli/cli.h"

#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "cli/pager.h"
#include "parse/open.h"
#include "parse/text-index.h"
#include "util/color.h"
#include "util/error.h"
#include "util/escape.h"
#include "util/input.h"
#include "util/linereader.h"
#include "views/table.h"

/* --width's bounds: narrower cuts every name, wider is no screen */
#define CLI_MIN_WIDTH 40
#define CLI_MAX_WIDTH 1000

const FtlCommand ftl_commands[] = {
	{ "info", "FILE...", "what a trace holds: dialect, tracer, CPUs, spans, counts",
	  "Reads the whole trace and prints its dialect, tracer, CPUs, the time span and\n"
	  "event lines per CPU, event counts by name, markers, lost events and the\n"
	  "header's entry counts. --format json prints one JSON object for scripts.",
	  ftl_cmd_info, FTL_CMD_RESULTS },
	{ "dump", "FILE...", "one normalized line per event",
	  "Prints every event as: timestamp (ns), CPU, pid, comm, kind, name and fields.\n"
	  "Honours --cpu, --pid, --time, -e and --filter. The view to check what ftlens\n"
	  "understood, and the field names --filter compares.",
	  ftl_cmd_dump, FTL_CMD_RESULTS },
	{ "report", "FILE...", "the batch report: quality, top functions, CPUs, markers",
	  "Prints a header (input, tracer, span, CPUs, events, lost events, the window in\n"
	  "which every CPU's data is complete and caveats), the top functions by self\n"
	  "and by total time, a per-CPU summary, markers, and the longest calls.",
	  ftl_cmd_report, FTL_CMD_RESULTS },
	{ "graph", "[FUNCTION] FILE...", "merged call tree with calls, total and self time",
	  "Rebuilds function_graph call trees and merges them by call path, like\n"
	  "uftrace graph; rooted at FUNCTION (all its calls merged) when given.",
	  ftl_cmd_graph, FTL_CMD_RESULTS },
	{ "split", "--per-cpu -o DIR FILE...", "one file per CPU in the input's dialect",
	  "Writes DIR/cpuN/trace for every CPU, with the input's own lines, so that\n"
	  "each file reads like the kernel's per_cpu/cpuN/trace.",
	  ftl_cmd_split, FTL_CMD_RESULTS },
	{ "markers", "[--span START END] FILE...", "trace_marker writes and spans between them",
	  "Lists markers (trace_marker writes, trace_printk, function_graph comments)\n"
	  "with time, CPU, task and delta; --span START END pairs them into spans and\n"
	  "shows what each CPU did inside each span.",
	  ftl_cmd_markers, FTL_CMD_RESULTS },
	{ "diff", "A B", "per-function calls, total and self time compared",
	  "Compares the function statistics of two traces, sorted by absolute change.",
	  ftl_cmd_diff, FTL_CMD_RESULTS },
	{ "stack", "FILE... | --diff A B", "stack tracer tables: the max stack and stack hogs",
	  "Reads stack_trace tables, stack_max_size values and ftlens stack series,\n"
	  "checks each table's arithmetic and prints the deepest stack with a bar per\n"
	  "frame, the functions ranked by frame size and, over many tables, how often\n"
	  "each sits on a maximum stack; --diff compares the deepest stacks of two inputs.",
	  ftl_cmd_stack, FTL_CMD_RESULTS },
	{ "record", "[options] [-- COMMAND ARGS]",
	  "capture: trace.dat, flight recorder, stack snapshots",
	  "Records the kernel's ring buffer through tracefs, in a private instance that is\n"
	  "removed afterwards (or the top-level buffer, whose settings are put back), with\n"
	  "trace-cmd's option letters, around COMMAND or until Ctrl-C / --duration, into a\n"
	  "trace.dat (version 6) or a raw directory. --flight saves the top-level buffer each\n"
	  "time tracing_on drops to 0; --stack saves the stack tracer's maxima.",
	  ftl_cmd_record, 0 },
	{ "oops", "LOG...", "kernel reports in a console log, with the ftrace dump before them",
	  "Finds every kernel report (Oops, BUG, WARNING, KASAN, lockdep, hung task, panic...)\n"
	  "in serial console, dmesg or syslog captures and prints its title, task, kernel,\n"
	  "faulting function, registers and call trace. An ftrace dump printed with it\n"
	  "(ftrace_dump_on_oops) is read back as a trace: the last events of every CPU, the\n"
	  "calls still open on the crashing CPU, the markers. --extract-trace OUT writes\n"
	  "that dump as a text trace every other command reads.",
	  ftl_cmd_oops, FTL_CMD_RESULTS },
	{ "arm-oops", "[-p TRACER] [-e EVENT]... [-b KB] | --disarm",
	  "make an oops dump the trace to the console; undo it",
	  "Sets ftrace_dump_on_oops, the buffer size, the tracer and the events of the\n"
	  "top-level instance (the one buffer an oops dump prints) and turns tracing on;\n"
	  "prints each setting before and after and saves the old values in\n"
	  "$FTLENS_STATE_DIR/arm-oops.state (default /run/ftlens); --disarm restores them.",
	  ftl_cmd_arm_oops, FTL_CMD_RESULTS },
	{ "tui", "FILE...", "browse a trace interactively in the terminal",
	  "Events, the call graph, functions, a timeline per CPU, markers, a flame graph,\n"
	  "data quality, stack tables and kernel reports, in a curses screen that comes up\n"
	  "at once and fills in as the input is read. h shows the keys; ftlens tui --keys\n"
	  "prints them.",
	  ftl_cmd_tui, 0 },
	{ "flame", "-o OUT.svg FILE... | --diff A B | --stack FILE...",
	  "flame graph, icicle, flame chart, differential flame graph or stack chart (SVG)",
	  "Draws an interactive SVG (hover, click to zoom, Ctrl-F to search) from\n"
	  "function_graph calls (width = exact inclusive time), stack traces or function\n"
	  "samples, or folded stacks: --chart puts calls in time, --inverted draws an icicle,\n"
	  "--diff A B colours the change, --stack draws the stack tracer's deepest stacks.",
	  ftl_cmd_flame, 0 },
	{ "export", "--to FORMAT -o OUT FILE...", "folded stacks, speedscope or Chrome/Perfetto JSON",
	  "Writes the calls of a trace for other tools: folded stacks (flamegraph.pl,\n"
	  "speedscope), speedscope's own format (a timeline per task) or Chrome's\n"
	  "trace-event JSON (Perfetto UI, chrome://tracing) with scheduler lines.",
	  ftl_cmd_export, 0 },
	{ "sched", "[--per-span START END] FILE...",
	  "who ran where and how late: CPUs, tasks, wakeup latency, interrupts",
	  "From sched_switch, sched_waking/sched_wakeup, irq_handler_* and softirq_* events\n"
	  "(or, without sched_switch, the task each event names): per CPU busy, idle and\n"
	  "interrupt time; per task run, wait and sleep time, switches (voluntary and\n"
	  "preempted) and migrations; wakeup latency percentiles, RT and normal apart, and\n"
	  "the worst wakeups with their waker; interrupt and softirq durations. Every\n"
	  "figure says its window and what could not be paired.",
	  ftl_cmd_sched, FTL_CMD_RESULTS },
	{ "timeline", "-o OUT.svg [--tasks PID,...|top N] FILE...",
	  "per-CPU lanes over time as an interactive SVG",
	  "One lane per CPU: the running task coloured by task (a legend of the busiest),\n"
	  "idle empty, interrupts hatched, lost events shaded red, time before a CPU's first\n"
	  "event grey, markers as labelled vertical lines; --tasks adds a lane per task with\n"
	  "runnable time hollow. Hover shows an interval's task, start and duration; the\n"
	  "wheel zooms, dragging pans, a double click resets. Intervals thinner than a\n"
	  "pixel merge into one summary per pixel, so the file stays under 5 MB.",
	  ftl_cmd_timeline, 0 },
	{ "plot", "KIND -o OUT.(png|svg|pdf) [--script-only] FILE...",
	  "plots through gnuplot: durations, latency, rate, cpu, stack",
	  "KIND is durations -f FUNC [-f FUNC]... (call duration histogram, log x, and\n"
	  "CDF per function), latency (wakeup latency histogram and CDF, RT and normal\n"
	  "priorities apart), rate [--by cpu|event] (events per second over time, with\n"
	  "the markers), cpu (per-CPU busy % over time) or stack (stack_max_size over\n"
	  "the snapshots of a `record --stack` series). OUT.dat and OUT.gp are\n"
	  "written beside OUT from a template in ftlens's data directory, then gnuplot runs\n"
	  "them (by argv, no shell); --script-only leaves them for you to edit and run.",
	  ftl_cmd_plot, 0 },
	{ "index", "FILE", "build the sparse index that --time windows seek with",
	  "Reads a single-file text trace once and caches its sparse index in\n"
	  "$XDG_CACHE_HOME/ftlens/ (default ~/.cache/ftlens/): every 4096th event's\n"
	  "line offset and timestamp with the parser's state there, and the whole\n"
	  "file's totals. Later --time windows parse only the part of the file they\n"
	  "need, with the same output. Any pass over a file of 16 MiB or more builds\n"
	  "it too; --no-index turns both off. Prints what the index holds.",
	  ftl_cmd_index, 0 },
	{ "capture-script", "[record's options] [--flight | --oops] [-- COMMAND ARGS]",
	  "a POSIX sh script that captures on a board with busybox only",
	  "Prints a shell script for busybox ash (dash, any POSIX sh) that, run as root on\n"
	  "the board, records like `ftlens record` with these options in a private instance\n"
	  "(or the top-level buffer, put back afterwards), reads every CPU's\n"
	  "trace_pipe_raw while tracing and saves the pages, the formats, kallsyms, the\n"
	  "per-CPU stats, trace_clock and uname as a tar stream on standard output (sh\n"
	  "cap.sh > cap.tar) or a directory (sh cap.sh -o DIR). Every command reads both.\n"
	  "--flight saves the buffer each time tracing_on drops to 0; --oops arms\n"
	  "ftrace_dump_on_oops for a serial console capture.",
	  ftl_cmd_capture_script, 0 },
	{ NULL, NULL, NULL, NULL, NULL, 0 },
};

const FtlCommand *ftl_cli_find(const char *name)
{
	for (const FtlCommand *c = ftl_commands; c->name; c++)
		if (strcmp(c->name, name) == 0)
			return c;
	return NULL;
}

void ftl_cli_print_usage(FILE *out)
{
	fprintf(out, "usage: ftlens [--version] [--help] <command> [options] [FILE...]\n\n"
		     "Offline analysis of Linux ftrace output.\n\ncommands:\n");
	for (const FtlCommand *c = ftl_commands; c->name; c++)
		fprintf(out, "  %-10s %s\n", c->name, c->summary);
	fprintf(out,
		"\nglobal options (every command): --cpu LIST, --pid LIST, --time START,END,\n"
		"  --relative-to PATTERN, --wallclock PATTERN=ISO8601, --buffer NAME, --strict,\n"
		"  --max-expand SIZE, -j N, --color WHEN, --width N, --verbose, --no-index,\n"
		"  -e EVENTS, --filter 'EVENTS: EXPR', -v (the -e/--filter after it filter out)\n"
		"commands that print results: -F/--format text|csv|json, --json, --no-pager\n"
		"  (long output to a terminal goes through $PAGER, default less -FRX)\n"
		"'ftlens help COMMAND' shows a command's options.\n");
}

/* -e EVENTS and --filter 'EVENTS: EXPR', in command-line order so that
 * -v inverts those after it, as in trace-cmd report. */
static gboolean cli_opt_events(const char *name, const char *value, gpointer data,
			       GError **error)
{
	FtlCliGlobals *g = data;
	if (!g->filter.events)
		g->filter.events = ftl_event_filter_new();
	g->inverted |= g->invert;
	if (strcmp(name, "--filter") == 0)
		return ftl_event_filter_add_expr(g->filter.events, value, g->invert, error);
	return ftl_event_filter_add_events(g->filter.events, value, g->invert, error);
}

static gboolean cli_opt_invert(const char *name, const char *value, gpointer data,
			       GError **error)
{
	(void)name, (void)value, (void)error;
	((FtlCliGlobals *)data)->invert = TRUE;
	return TRUE;
}

/* A command's own option wins over a global one of the same name or
 * letter (record's -e enables an event; it does not select one). */
static gboolean cli_entry_taken(const GOptionEntry *own, const GOptionEntry *e)
{
	for (; own && own->long_name; own++)
		if (strcmp(own->long_name, e->long_name) == 0 ||
		    (e->short_name && own->short_name == e->short_name))
			return TRUE;
	return FALSE;
}

/* The options of every command that prints results, spelt alike on each. */
static GOptionGroup *cli_output_group(FtlCliGlobals *g)
{
	const GOptionEntry entries[] = {
		{ "format", 'F', 0, G_OPTION_ARG_STRING, &g->format_s,
		  "Output format: text, csv or json", "FMT" },
		{ "json", 0, 0, G_OPTION_ARG_NONE, &g->json, "Same as --format json", NULL },
		{ "no-pager", 0, 0, G_OPTION_ARG_NONE, &g->no_pager,
		  "Never page text output ($PAGER, default less -FRX, on a terminal)", NULL },
		{ NULL },
	};
	GOptionGroup *grp = g_option_group_new("output", "Output options:",
					       "Show the output options", NULL, NULL);
	g_option_group_add_entries(grp, entries);
	return grp;
}

static GOptionContext *cli_context(const FtlCommand *cmd, const GOptionEntry *entries, gpointer data,
				   FtlCliGlobals *g)
{
	const GOptionEntry global_entries[] = {
		{ "cpu", 0, 0, G_OPTION_ARG_STRING, &g->cpu_list,
		  "Only events on these CPUs (e.g. 0,2-3)", "LIST" },
		{ "pid", 0, 0, G_OPTION_ARG_STRING, &g->pid_list, "Only events of these pids",
		  "LIST" },
		{ "time", 0, 0, G_OPTION_ARG_STRING, &g->time_range,
		  "Only events in this window, seconds (either side may be empty)", "START,END" },
		{ "strict", 0, 0, G_OPTION_ARG_NONE, &g->strict,
		  "Treat the first unrecognized line as an error", NULL },
		{ "relative-to", 0, 0, G_OPTION_ARG_STRING, &g->relative_to,
		  "Show times relative to the first marker matching PATTERN (a regex)", "PATTERN" },
		{ "wallclock", 0, 0, G_OPTION_ARG_STRING, &g->wallclock,
		  "Map trace time to wall time: the first marker matching PATTERN was at ISO8601",
		  "PATTERN=ISO8601" },
		{ "buffer", 0, 0, G_OPTION_ARG_STRING, &g->buffer,
		  "Read only this ring buffer of a trace.dat (top, or an instance name)", "NAME" },
		{ "max-expand", 0, 0, G_OPTION_ARG_STRING, &g->max_expand,
		  "Disk a compressed input or a pipe may expand to when a seekable copy "
		  "is needed (default 4G)",
		  "SIZE" },
		{ "jobs", 'j', 0, G_OPTION_ARG_INT, &g->jobs,
		  "Threads that parse a text trace (default $FTLENS_JOBS, else the online CPUs)",
		  "N" },
		{ "color", 0, 0, G_OPTION_ARG_STRING, &g->color,
		  "Color output: auto, always or never", "WHEN" },
		{ "verbose", 0, 0, G_OPTION_ARG_NONE, &g->verbose, "Say more", NULL },
		{ "no-index", 0, 0, G_OPTION_ARG_NONE, &g->no_index,
		  "Neither use nor build the sparse index of a text trace (ftlens index)", NULL },
		{ "event", 'e', 0, G_OPTION_ARG_CALLBACK, (gpointer)cli_opt_events,
		  "Only these events: NAME, SYSTEM or SYSTEM:NAME, globs, comma-separated",
		  "EVENTS" },
		{ "filter", 0, 0, G_OPTION_ARG_CALLBACK, (gpointer)cli_opt_events,
		  "Only events that pass a trace-cmd report -F filter, e.g. "
		  "'sched_switch: prev_pid == 1 && next_comm ~ \"kworker*\"'",
		  "'EVENTS: EXPR'" },
		{ "invert", 'v', G_OPTION_FLAG_NO_ARG, G_OPTION_ARG_CALLBACK,
		  (gpointer)cli_opt_invert, "The -e and --filter options after this one filter out",
		  NULL },
		{ "width", 0, 0, G_OPTION_ARG_INT, &g->width,
		  "Width of text tables in columns (default: the terminal's; 100 when output is "
		  "not a terminal)",
		  "N" },
		{ NULL },
	};
	g_autofree char *param = g_strdup_printf("%s %s", cmd->name, cmd->args);
	GOptionContext *ctx = g_option_context_new(param);
	g_option_context_set_summary(ctx, cmd->description);
	if (entries) {
		/* a group of our own so that callbacks get the command's data */
		GOptionGroup *own = g_option_group_new(NULL, NULL, NULL, data, NULL);
		g_option_group_add_entries(own, entries);
		g_option_context_set_main_group(ctx, own);
	}
	if (cmd->flags & FTL_CMD_RESULTS)
		g_option_context_add_group(ctx, cli_output_group(g));
	GOptionGroup *grp = g_option_group_new(
		"global", "Options of every command:", "Show the global options", g, NULL);
	for (const GOptionEntry *e = global_entries; e->long_name; e++)
		if (!cli_entry_taken(entries, e))
			g_option_group_add_entries(grp, (GOptionEntry[]){ *e, { NULL } });
	g_option_context_add_group(ctx, grp);
	return ctx;
}

gboolean ftl_cli_print_command_help(const FtlCommand *cmd, GError **error)
{
	/* The command's own entries are only known to it: ask it for --help. */
	char *argv[] = { (char *)cmd->name, "--help-all", NULL };
	return cmd->run(2, argv, error);
}

/* -j N, else $FTLENS_JOBS, else every online CPU: the text parse threads. */
static gboolean cli_set_jobs(gint jobs, GError **error)
{
	const char *env = g_getenv("FTLENS_JOBS");
	guint64 n = (guint64)jobs;
	if (jobs < 0 || jobs > 1024) {
		g_set_error(error, FTL_ERROR, FTL_ERROR_USAGE, "-j %d: expected 1 to 1024", jobs);
		return FALSE;
	}
	if (!jobs && env && *env &&
	    (!g_ascii_string_to_unsigned(env, 10, 1, 1024, &n, NULL))) {
		g_set_error(error, FTL_ERROR, FTL_ERROR_USAGE,
			    "FTLENS_JOBS='%s': expected 1 to 1024", env);
		return FALSE;
	}
	if (n)
		ftl_line_reader_set_threads((guint)n);
	return TRUE;
}

/* Text tables fill the terminal when stdout is one, else 100 columns, so
 * that what a script or a file gets does not depend on the window. */
static gboolean cli_width(const FtlCliGlobals *g, GError **error)
{
	if (g->width && (g->width < CLI_MIN_WIDTH || g->width > CLI_MAX_WIDTH)) {
		g_set_error(error, FTL_ERROR, FTL_ERROR_USAGE,
			    "--width %d: expected %d to %d columns", g->width, CLI_MIN_WIDTH,
			    CLI_MAX_WIDTH);
		return FALSE;
	}
	gint cols = g->width ? g->width : 100;
	struct winsize ws;
	if (!g->width && isatty(STDOUT_FILENO) && ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 &&
	    ws.ws_col)
		cols = CLAMP(ws.ws_col, CLI_MIN_WIDTH, CLI_MAX_WIDTH);
	ftl_table_set_width((guint)cols);
	return TRUE;
}

/* --color, -F/--json, and the pager: decided before any output, in this
 * order, since a pager takes stdout away from the terminal. */
static gboolean cli_output(const FtlCommand *cmd, FtlCliGlobals *g, GError **error)
{
	FtlColorWhen when;
	if (!ftl_color_parse(g->color, &when)) {
		g_set_error(error, FTL_ERROR, FTL_ERROR_USAGE,
			    "%s: --color '%s': expected auto, always or never", cmd->name, g->color);
		return FALSE;
	}
	ftl_color_init(when);
	g->format = g->json ? FTL_FORMAT_JSON : FTL_FORMAT_TEXT;
	g->format_given = g->json || g->format_s;
	if (g->format_s && !ftl_format_parse(g->format_s, &g->format, error)) {
		g_prefix_error(error, "%s: ", cmd->name);
		return FALSE;
	}
	if (g->json && g->format != FTL_FORMAT_JSON) {
		g_set_error(error, FTL_ERROR, FTL_ERROR_USAGE,
			    "%s: --json and --format %s disagree", cmd->name, g->format_s);
		return FALSE;
	}
	return TRUE;
}

gboolean ftl_cli_parse(const FtlCommand *cmd, const GOptionEntry *entries, FtlCliGlobals *g,
		       int *argc, char ***argv, GError **error)
{
	return ftl_cli_parse_data(cmd, entries, NULL, g, argc, argv, error);
}

gboolean ftl_cli_parse_data(const FtlCommand *cmd, const GOptionEntry *entries, gpointer data,
			    FtlCliGlobals *g, int *argc, char ***argv, GError **error)
{
	memset(g, 0, sizeof *g);
	ftl_filter_init(&g->filter);
	g->origin_ns = FTL_TS_NONE;
	g->wall_offset_ns = FTL_TS_NONE;
	g_autoptr(GOptionContext) ctx = cli_context(cmd, entries, data, g);
	g_option_context_set_help_enabled(ctx, TRUE);
	g_autoptr(GError) local = NULL;
	if (!g_option_context_parse(ctx, argc, argv, &local)) {
		g_set_error(error, FTL_ERROR, FTL_ERROR_USAGE, "%s: %s", cmd->name, local->message);
		return FALSE;
	}
	if (!cli_output(cmd, g, error))
		return FALSE;
	if (!cli_set_jobs(g->jobs, error))
		return FALSE;
	guint64 max_expand;
	if (g->max_expand) {
		if (!ftl_input_parse_size(g->max_expand, &max_expand)) {
			g_set_error(error, FTL_ERROR, FTL_ERROR_USAGE,
				    "--max-expand '%s': expected a size such as 4G or 512M",
				    g->max_expand);
			return FALSE;
		}
		ftl_input_set_max_expand(max_expand);
	}
	if (!cli_width(g, error))
		return FALSE;
	if (g->cpu_list && !ftl_filter_parse_list(g->cpu_list, &g->filter.cpus, error)) {
		g_prefix_error(error, "--cpu: ");
		return FALSE;
	}
	if (g->pid_list && !ftl_filter_parse_list(g->pid_list, &g->filter.pids, error)) {
		g_prefix_error(error, "--pid: ");
		return FALSE;
	}
	if (g->time_range &&
	    !ftl_filter_parse_time(g->time_range, &g->filter.t_start, &g->filter.t_end, error)) {
		g_prefix_error(error, "--time: ");
		return FALSE;
	}
	if (g->invert && !g->inverted) {
		g_set_error(error, FTL_ERROR, FTL_ERROR_USAGE,
			    "%s: -v inverts the -e and --filter options after it, and none follows "
			    "(--verbose says more)",
			    cmd->name);
		return FALSE;
	}
	for (int i = 1; i < *argc; i++) {
		const char *a = (*argv)[i];
		if (a[0] == '-' && a[1] && strcmp(a, "--") != 0) {
			g_set_error(error, FTL_ERROR, FTL_ERROR_USAGE, "%s: unknown option '%s'",
				    cmd->name, a);
			return FALSE;
		}
	}
	/* last: the width and colour above asked the terminal itself */
	if ((cmd->flags & FTL_CMD_RESULTS) && !g->no_pager)
		ftl_pager_start();
	return TRUE;
}

void ftl_cli_globals_clear(FtlCliGlobals *g)
{
	ftl_filter_clear(&g->filter);
	g_clear_pointer(&g->color, g_free);
	g_clear_pointer(&g->format_s, g_free);
	g_clear_pointer(&g->cpu_list, g_free);
	g_clear_pointer(&g->pid_list, g_free);
	g_clear_pointer(&g->time_range, g_free);
	g_clear_pointer(&g->relative_to, g_free);
	g_clear_pointer(&g->wallclock, g_free);
	g_clear_pointer(&g->buffer, g_free);
	g_clear_pointer(&g->max_expand, g_free);
}

gboolean ftl_cli_stdin_twice(int argc, char **argv, GError **error)
{
	for (int i = 1; i < argc; i++)
		if (!strcmp(argv[i], "-"))
			return ftl_input_spool_stdin(error);
	return TRUE;
}

FtlTrace *ftl_cli_open_trace(const FtlCliGlobals *g, int argc, char **argv, GError **error)
{
	if (argc < 2) {
		g_set_error(error, FTL_ERROR, FTL_ERROR_USAGE,
			    "%s: no input file given (try 'ftlens help %s')", argv[0], argv[0]);
		return NULL;
	}
	FtlOpenFlags flags = g->open_flags | (g->strict ? FTL_OPEN_STRICT : FTL_OPEN_NONE);
	const char *const *paths = (const char *const *)argv + 1;
	FtlTrace *trace = ftl_trace_open_buffer(paths, (guint)argc - 1, flags, g->buffer, error);
	if (!trace)
		return NULL;
	g_autofree char *why = NULL;
	FtlIndexUse use = g->no_index ? FTL_INDEX_USE_OFF : g->build_index ? FTL_INDEX_USE_BUILD
									 : FTL_INDEX_USE_AUTO;
	FtlIndexState st = ftl_text_index_attach(trace, g->filter.t_start, g->filter.t_end, use,
						 g->build_index, &why);
	if (g->verbose && why)
		ftl_escape_fputs(why, stderr), fputc('\n', stderr);
	if (st == FTL_INDEX_REFUSED) {
		/* the source seeked and found the cache wrong: read it all */
		ftl_trace_free(trace);
		trace = ftl_trace_open_buffer(paths, (guint)argc - 1, flags, g->buffer, error);
	}
	return trace;
}

int ftl_cli_exit_code(const GError *error)
{
	if (error &&
	    (g_error_matches(error, FTL_ERROR, FTL_ERROR_USAGE) || error->domain == G_OPTION_ERROR))
		return 2;
	return 1;
}

gboolean ftl_cli_take_pair(const char *cmd, const char *option, int *argc, char **argv, char **a,
			   char **b, GError **error)
{
	gsize olen = strlen(option);
	int out = 1;
	gboolean operands = FALSE;
	for (int i = 1; i < *argc; i++) {
		const char *arg = argv[i];
		int take = 0;
		const char *x = NULL, *y = NULL;
		if (operands || strcmp(arg, "--") == 0) {
			operands = TRUE;
		} else if (strcmp(arg, option) == 0) {
			if (i + 2 >= *argc)
				goto missing;
			x = argv[i + 1];
			y = argv[i + 2];
			take = 3;
		} else if (strncmp(arg, option, olen) == 0 && arg[olen] == '=') {
			if (i + 1 >= *argc)
				goto missing;
			x = arg + olen + 1;
			y = argv[i + 1];
			take = 2;
		}
		if (!take) {
			argv[out++] = argv[i];
			continue;
		}
		if (*a) {
			g_set_error(error, FTL_ERROR, FTL_ERROR_USAGE, "%s: %s given twice", cmd,
				    option);
			return FALSE;
		}
		*a = g_strdup(x);
		*b = g_strdup(y);
		i += take - 1;
	}
	*argc = out;
	argv[out] = NULL;
	return TRUE;
missing:
	g_set_error(error, FTL_ERROR, FTL_ERROR_USAGE, "%s: %s needs two values: %s A B", cmd,
		    option, option);
	return FALSE;
}
