/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The command table, global options and shared command plumbing. */
#include "config.h"

#include "cli/cli.h"

#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "analysis/quality.h"
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
	  ftl_cmd_info, FTL_CMD_RESULTS | FTL_CMD_EVENTS, FTL_INPUT_EVENTS,
	  FTL_COUNTS_FIELDS | FTL_QUALITY_FIELDS },
	{ "dump", "FILE...", "one normalized line per event",
	  "Prints every event as: timestamp (ns), CPU, pid, comm, kind, name and fields.\n"
	  "Honours --cpu, --pid, --time, -e and --filter. The view to check what ftlens\n"
	  "understood, and the field names --filter compares.",
	  ftl_cmd_dump, FTL_CMD_RESULTS | FTL_CMD_EVENTS, FTL_INPUT_EVENTS,
	  FTL_FIELDS_ALL | FTL_FIELD_TEXT },
	{ "report", "FILE...", "the batch report: quality, top functions, CPUs, markers",
	  "Prints a header (input, tracer, span, CPUs, events, lost events, the window in\n"
	  "which every CPU's data is complete and caveats), the top functions by self\n"
	  "and by total time, a per-CPU summary, markers, and the longest calls.",
	  ftl_cmd_report, FTL_CMD_RESULTS | FTL_CMD_EVENTS | FTL_CMD_SOURCES, FTL_INPUT_EVENTS,
	  FTL_FIELDS_ALL },
	{ "graph", "[FUNCTION] FILE...", "merged call tree with calls, total and self time",
	  "Rebuilds function_graph call trees and merges them by call path, like\n"
	  "uftrace graph; rooted at FUNCTION (all its calls merged) when given.",
	  ftl_cmd_graph, FTL_CMD_RESULTS | FTL_CMD_EVENTS | FTL_CMD_SOURCES, FTL_INPUT_EVENTS,
	  FTL_FIELDS_ALL },
	{ "split", "--per-cpu -o DIR FILE...", "one file per CPU in the input's dialect",
	  "Writes DIR/cpuN/trace for every CPU, with the input's own lines, so that\n"
	  "each file reads like the kernel's per_cpu/cpuN/trace.",
	  ftl_cmd_split, FTL_CMD_RESULTS | FTL_CMD_EVENTS, FTL_INPUT_EVENTS,
	  FTL_FIELDS_ALL | FTL_FIELD_TEXT },
	{ "markers", "[--span START END] FILE...", "trace_marker writes and spans between them",
	  "Lists markers (trace_marker writes, trace_printk, function_graph comments)\n"
	  "with time, CPU, task and delta; --span START END pairs them into spans and\n"
	  "shows what each CPU did inside each span.",
	  ftl_cmd_markers, FTL_CMD_RESULTS | FTL_CMD_EVENTS, FTL_INPUT_EVENTS, FTL_FIELDS_ALL },
	{ "diff", "A B", "per-function calls, total and self time compared",
	  "Compares the function statistics of two traces, sorted by absolute change.",
	  ftl_cmd_diff, FTL_CMD_RESULTS | FTL_CMD_EVENTS, FTL_INPUT_EVENTS, FTL_FIELDS_ALL },
	{ "stack", "FILE... | --diff A B", "stack tracer tables: the max stack and stack hogs",
	  "Reads stack_trace tables, stack_max_size values and ftlens stack series,\n"
	  "checks each table's arithmetic and prints the deepest stack with a bar per\n"
	  "frame, the functions ranked by frame size and, over many tables, how often\n"
	  "each sits on a maximum stack; --diff compares the deepest stacks of two inputs.",
	  ftl_cmd_stack, FTL_CMD_RESULTS | FTL_CMD_SOURCES, FTL_INPUT_STACKS, FTL_FIELDS_ALL },
	{ "record", "[options] [-- COMMAND ARGS]",
	  "capture: trace.dat, flight recorder, stack snapshots",
	  "Records the kernel's ring buffer through tracefs, in a private instance that is\n"
	  "removed afterwards (or the top-level buffer, whose settings are put back), with\n"
	  "trace-cmd's option letters, around COMMAND or until Ctrl-C / --duration, into a\n"
	  "trace.dat (version 6) or a raw directory. --flight saves the top-level buffer each\n"
	  "time tracing_on drops to 0; --stack saves the stack tracer's maxima.",
	  ftl_cmd_record, 0, 0, FTL_FIELDS_ALL },
	{ "oops", "LOG...", "kernel reports in a console log, with the ftrace dump before them",
	  "Finds every kernel report (Oops, BUG, WARNING, KASAN, lockdep, hung task, panic...)\n"
	  "in serial console, dmesg or syslog captures and prints its title, task, kernel,\n"
	  "faulting function, registers and call trace. An ftrace dump printed with it\n"
	  "(ftrace_dump_on_oops) is read back as a trace: the last events of every CPU, the\n"
	  "calls still open on the crashing CPU, the markers. --extract-trace OUT writes\n"
	  "that dump as a text trace every other command reads.",
	  ftl_cmd_oops, FTL_CMD_RESULTS | FTL_CMD_SOURCES, FTL_INPUT_CONSOLE, FTL_FIELDS_ALL },
	{ "arm-oops", "[-p TRACER] [-e EVENT]... [-b KB] | --disarm",
	  "make an oops dump the trace to the console; undo it",
	  "Sets ftrace_dump_on_oops, the buffer size, the tracer and the events of the\n"
	  "top-level instance (the one buffer an oops dump prints) and turns tracing on;\n"
	  "prints each setting before and after and saves the old values in\n"
	  "$FTLENS_STATE_DIR/arm-oops.state (default /run/ftlens); --disarm restores them.",
	  ftl_cmd_arm_oops, FTL_CMD_RESULTS, 0, FTL_FIELDS_ALL },
	{ "tui", "FILE...", "browse a trace interactively in the terminal",
	  "Events, the call graph, functions, a timeline per CPU, markers, a flame graph,\n"
	  "data quality, stack tables and kernel reports, in a curses screen that comes up\n"
	  "at once and fills in as the input is read. h shows the keys; ftlens tui --keys\n"
	  "prints them.",
	  ftl_cmd_tui, FTL_CMD_EVENTS | FTL_CMD_SOURCES,
	  FTL_INPUT_EVENTS | FTL_INPUT_CONSOLE | FTL_INPUT_STACKS, FTL_FIELDS_ALL },
	{ "flame", "-o OUT.svg FILE... | --diff A B | --stack FILE...",
	  "flame graph, icicle, flame chart, differential flame graph or stack chart (SVG)",
	  "Draws an interactive SVG (hover, click to zoom, Ctrl-F to search) from\n"
	  "function_graph calls (width = exact inclusive time), stack traces or function\n"
	  "samples, or folded stacks: --chart puts calls in time, --inverted draws an icicle,\n"
	  "--diff A B colours the change, --stack draws the stack tracer's deepest stacks.",
	  ftl_cmd_flame, FTL_CMD_EVENTS | FTL_CMD_SOURCES, FTL_INPUT_EVENTS | FTL_INPUT_FOLDED | FTL_INPUT_STACKS,
	  FTL_FIELDS_ALL },
	{ "export", "--to FORMAT -o OUT FILE...", "folded stacks, speedscope or Chrome/Perfetto JSON",
	  "Writes the calls of a trace for other tools: folded stacks (flamegraph.pl,\n"
	  "speedscope), speedscope's own format (a timeline per task) or Chrome's\n"
	  "trace-event JSON (Perfetto UI, chrome://tracing) with scheduler lines.",
	  ftl_cmd_export, FTL_CMD_EVENTS, FTL_INPUT_EVENTS, FTL_FIELDS_ALL },
	{ "sched", "[--per-span START END] FILE...",
	  "who ran where and how late: CPUs, tasks, wakeup latency, interrupts",
	  "From sched_switch, sched_waking/sched_wakeup, irq_handler_* and softirq_* events\n"
	  "(or, without sched_switch, the task each event names): per CPU busy, idle and\n"
	  "interrupt time; per task run, wait and sleep time, switches (voluntary and\n"
	  "preempted) and migrations; wakeup latency percentiles, RT and normal apart, and\n"
	  "the worst wakeups with their waker; interrupt and softirq durations. Every\n"
	  "figure says its window and what could not be paired.",
	  ftl_cmd_sched, FTL_CMD_RESULTS | FTL_CMD_EVENTS, FTL_INPUT_EVENTS, FTL_FIELDS_ALL },
	{ "timeline", "-o OUT.svg [--tasks PID,...|top N] FILE...",
	  "per-CPU lanes over time as an interactive SVG",
	  "One lane per CPU: the running task coloured by task (a legend of the busiest),\n"
	  "idle empty, interrupts hatched, lost events shaded red, time before a CPU's first\n"
	  "event grey, markers as labelled vertical lines; --tasks adds a lane per task with\n"
	  "runnable time hollow. Hover shows an interval's task, start and duration; the\n"
	  "wheel zooms, dragging pans, a double click resets. Intervals thinner than a\n"
	  "pixel merge into one summary per pixel, so the file stays under 5 MB.",
	  ftl_cmd_timeline, FTL_CMD_EVENTS, FTL_INPUT_EVENTS, FTL_FIELDS_ALL },
	{ "plot", "KIND -o OUT.(png|svg|pdf) [--script-only] FILE...",
	  "plots through gnuplot: durations, latency, rate, cpu, stack",
	  "KIND is durations -f FUNC [-f FUNC]... (call duration histogram, log x, and\n"
	  "CDF per function), latency (wakeup latency histogram and CDF, RT and normal\n"
	  "priorities apart), rate [--by cpu|event] (events per second over time, with\n"
	  "the markers), cpu (per-CPU busy % over time) or stack (stack_max_size over\n"
	  "the snapshots of a `record --stack` series). OUT.dat and OUT.gp are\n"
	  "written beside OUT from a template in ftlens's data directory, then gnuplot runs\n"
	  "them (by argv, no shell); --script-only leaves them for you to edit and run.",
	  ftl_cmd_plot, FTL_CMD_EVENTS, FTL_INPUT_EVENTS | FTL_INPUT_STACKS, FTL_FIELDS_ALL },
	{ "index", "FILE", "build the sparse index that --time windows seek with",
	  "Reads a single-file text trace once and caches its sparse index in\n"
	  "$XDG_CACHE_HOME/ftlens/ (default ~/.cache/ftlens/): every 4096th event's\n"
	  "line offset and timestamp with the parser's state there, and the whole\n"
	  "file's totals. Later --time windows parse only the part of the file they\n"
	  "need, with the same output. Any pass over a file of 16 MiB or more builds\n"
	  "it too; --no-index turns both off. Prints what the index holds.",
	  ftl_cmd_index, FTL_CMD_EVENTS, FTL_INPUT_EVENTS, FTL_FIELDS_ALL },
	{ "fleet", "report|sched|oops|compare [options] INPUT...",
	  "many traces and logs merged on a Dask cluster",
	  "Runs ftlens on every file (files, directories, globs, or --manifest CSV\n"
	  "giving each file its labels) on a Dask cluster: a local one on this machine\n"
	  "(--workers N), or the one at --scheduler tcp://HOST:PORT. `fleet report`\n"
	  "merges function statistics per label (--by LABEL) with the traces where each\n"
	  "is worst, `fleet sched` wakeup latency and run time, `fleet oops` counts\n"
	  "crash signatures, `fleet compare --by LABEL A B` reports the per-trace p50\n"
	  "and p99 that changed beyond a bootstrap interval. Percentiles come from\n"
	  "merged histograms. A file that fails is listed with its error. `ftlens fleet\n"
	  "COMMAND --help` lists each command's options; see ftlens-fleet(1).",
	  ftl_cmd_fleet, 0, 0, FTL_FIELDS_ALL },
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
	  ftl_cmd_capture_script, 0, 0, FTL_FIELDS_ALL },
	{ NULL, NULL, NULL, NULL, NULL, 0, 0, 0 },
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
		"\noptions of every command: --color WHEN, --width N, --verbose\n"
		"commands that read events (all but stack, oops, record, arm-oops) select them\n"
		"  with --cpu LIST, --pid LIST, --time START,END, -e EVENTS,\n"
		"  --filter 'EVENTS: EXPR', -v (the -e/--filter after it filter out),\n"
		"  --relative-to PATTERN, --wallclock PATTERN=ISO8601, --buffer NAME, --dump N,\n"
		"  and read with --strict, --no-index, --max-expand SIZE, -j N, --merge\n"
		"commands that print results: -F/--format text|csv|json, --json, --no-pager\n"
		"  (long output to a terminal goes through $PAGER, default less -FRX)\n"
		"A selection that keeps no event, or a term of it that matches nothing, is an\n"
		"error (exit 1) in every command. 'ftlens help COMMAND' shows a command's options.\n");
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

/* The options that take a value, short and long (ftl_cli_parse splits
 * "-j4" into "-j" "4" for GOption, which reads "-j4" as -j and -4). */
typedef struct {
	gchar short_name;
	const char *long_name;
} CliValued;

static void cli_note_valued(GArray *valued, const GOptionEntry *e)
{
	for (; valued && e->long_name; e++)
		if (e->arg != G_OPTION_ARG_NONE &&
		    !(e->flags & (G_OPTION_FLAG_NO_ARG | G_OPTION_FLAG_OPTIONAL_ARG)))
			g_array_append_val(valued, ((CliValued){ e->short_name, e->long_name }));
}

static const CliValued *cli_valued_short(GArray *valued, gchar c)
{
	for (guint i = 0; i < valued->len; i++)
		if (c && g_array_index(valued, CliValued, i).short_name == c)
			return &g_array_index(valued, CliValued, i);
	return NULL;
}

static gboolean cli_valued_long(GArray *valued, const char *name)
{
	for (guint i = 0; i < valued->len; i++)
		if (strcmp(g_array_index(valued, CliValued, i).long_name, name) == 0)
			return TRUE;
	return FALSE;
}

/* Splits each "-Xvalue" (X a short option taking a value, after any
 * flags grouped before it: "-vefoo") into "-X" "value", as getopt reads
 * it; a value given as the next argument is left alone, and "--" ends
 * the options. *argv is replaced only when something is split (the new
 * vector lives as long as the process, as main's does). */
static void cli_split_attached(GArray *valued, int *argc, char ***argv)
{
	static GPtrArray *kept; /* what was made, reachable to the end */
	g_autoptr(GPtrArray) out = g_ptr_array_new();
	gboolean changed = FALSE, options = TRUE;
	for (int i = 0; i < *argc; i++) {
		char *a = (*argv)[i];
		int split = 0;
		gboolean value_next = FALSE;
		if (i == 0 || !options)
			;
		else if (strcmp(a, "--") == 0)
			options = FALSE;
		else if (g_str_has_prefix(a, "--"))
			value_next = !strchr(a, '=') && cli_valued_long(valued, a + 2);
		else if (a[0] == '-' && a[1])
			for (int j = 1; a[j]; j++)
				if (cli_valued_short(valued, a[j])) {
					split = a[j + 1] ? j + 1 : 0;
					value_next = !split;
					break;
				}
		if (split) {
			if (!kept)
				kept = g_ptr_array_new();
			char *opt = g_strndup(a, (gsize)split);
			g_ptr_array_add(kept, opt);
			g_ptr_array_add(out, opt);
			g_ptr_array_add(out, a + split);
			changed = TRUE;
		} else {
			g_ptr_array_add(out, a);
		}
		if (value_next && i + 1 < *argc)
			g_ptr_array_add(out, (*argv)[++i]);
	}
	if (!changed)
		return;
	*argc = (int)out->len;
	g_ptr_array_add(out, NULL);
	char **v = (char **)g_ptr_array_free(g_steal_pointer(&out), FALSE);
	g_ptr_array_add(kept, v);
	*argv = v;
}

/* The options of every command that prints results, spelt alike on each. */
static GOptionGroup *cli_output_group(FtlCliGlobals *g, GArray *valued)
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
	cli_note_valued(valued, entries);
	return grp;
}

/* The options of the commands that show source lines (FTL_CMD_SOURCES). */
static GOptionGroup *cli_debuginfo_group(FtlCliGlobals *g, GArray *valued)
{
	FtlDebugInfoOptions *o = &g->debuginfo;
	const GOptionEntry entries[] = {
		{ "vmlinux", 0, 0, G_OPTION_ARG_FILENAME, &o->vmlinux,
		  "The kernel's vmlinux with debug info (default: " FTL_DEBUGINFO_ROOT
		  "/boot/vmlinux-RELEASE for the release the input names)",
		  "FILE" },
		{ "modules", 0, 0, G_OPTION_ARG_FILENAME, &o->modules,
		  "Where the modules' debug files (NAME.ko, NAME.ko.debug) are, searched "
		  "recursively (default: DIR/lib/modules/RELEASE)",
		  "DIR" },
		{ "debuginfo", 0, 0, G_OPTION_ARG_FILENAME, &o->root,
		  "The root of Debian's debug info layout (default " FTL_DEBUGINFO_ROOT ")", "DIR" },
		{ "force-debuginfo", 0, 0, G_OPTION_ARG_NONE, &o->force,
		  "Use a vmlinux even when its release or build is not the input's", NULL },
		{ "no-debuginfo", 0, 0, G_OPTION_ARG_NONE, &o->none,
		  "Show no source lines, even when debug info is there", NULL },
		{ NULL },
	};
	GOptionGroup *grp = g_option_group_new("debuginfo", "Debug info options (source lines):",
					       "Show the debug info options", NULL, NULL);
	g_option_group_add_entries(grp, entries);
	cli_note_valued(valued, entries);
	return grp;
}

/* The options of the commands that select events (FTL_CMD_EVENTS). */
static GOptionGroup *cli_selection_group(FtlCliGlobals *g, const GOptionEntry *own,
					 GArray *valued)
{
	const GOptionEntry entries[] = {
		{ "cpu", 0, 0, G_OPTION_ARG_STRING, &g->cpu_list,
		  "Only events on these CPUs (e.g. 0,2-3)", "LIST" },
		{ "pid", 0, 0, G_OPTION_ARG_STRING, &g->pid_list, "Only events of these pids",
		  "LIST" },
		{ "time", 0, 0, G_OPTION_ARG_STRING, &g->time_range,
		  "Only events in this window, seconds (either side may be empty)", "START,END" },
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
		{ "relative-to", 0, 0, G_OPTION_ARG_STRING, &g->relative_to,
		  "Show times relative to the first marker matching PATTERN (a regex); --time "
		  "is read relative to it too",
		  "PATTERN" },
		{ "wallclock", 0, 0, G_OPTION_ARG_STRING, &g->wallclock,
		  "Map trace time to wall time: the first marker matching PATTERN was at ISO8601",
		  "PATTERN=ISO8601" },
		{ "buffer", 0, 0, G_OPTION_ARG_STRING, &g->buffer,
		  "Read only this ring buffer of a trace.dat (top, or an instance name)", "NAME" },
		{ "merge", 0, 0, G_OPTION_ARG_NONE, &g->merge,
		  "Read several traces as one even when they cannot be one capture (other "
		  "kernels, clocks or CPU counts, a CPU twice, times far apart)",
		  NULL },
		{ "dump", 0, 0, G_OPTION_ARG_INT, &g->dump,
		  "A console log's Nth ftrace dump (default: the first with lines in it)", "N" },
		{ "strict", 0, 0, G_OPTION_ARG_NONE, &g->strict,
		  "Treat the first unrecognized line as an error", NULL },
		{ "no-index", 0, 0, G_OPTION_ARG_NONE, &g->no_index,
		  "Neither use nor build the sparse index of a text trace (ftlens index)", NULL },
		{ "max-expand", 0, 0, G_OPTION_ARG_STRING, &g->max_expand,
		  "Disk a compressed input or a pipe may expand to when a seekable copy "
		  "is needed (default 4G)",
		  "SIZE" },
		{ "jobs", 'j', 0, G_OPTION_ARG_INT, &g->jobs,
		  "Threads that read: text parse threads; a trace.dat's reader and N-1 page readers "
		  "(default $FTLENS_JOBS, else the online CPUs)",
		  "N" },
		{ NULL },
	};
	GOptionGroup *grp = g_option_group_new("selection", "Options that select events:",
					       "Show the options that select events", g, NULL);
	for (const GOptionEntry *e = entries; e->long_name; e++)
		if (!cli_entry_taken(own, e)) {
			g_option_group_add_entries(grp, (GOptionEntry[]){ *e, { NULL } });
			cli_note_valued(valued, (GOptionEntry[]){ *e, { NULL } });
		}
	return grp;
}

static GOptionContext *cli_context(const FtlCommand *cmd, const GOptionEntry *entries, gpointer data,
				   FtlCliGlobals *g, GArray *valued)
{
	const GOptionEntry global_entries[] = {
		{ "color", 0, 0, G_OPTION_ARG_STRING, &g->color,
		  "Color output: auto, always or never", "WHEN" },
		{ "verbose", 0, 0, G_OPTION_ARG_NONE, &g->verbose,
		  "Say more (with events: how many were selected, first and last time)", NULL },
		{ "width", 0, 0, G_OPTION_ARG_INT, &g->width,
		  "Width of text tables in columns (default: the terminal's; names whole when "
		  "output is not a terminal)",
		  "N" },
		{ NULL },
	};
	g_autofree char *param = g_strdup_printf("%s %s", cmd->name, cmd->args);
	GOptionContext *ctx = g_option_context_new(param);
	g_option_context_set_summary(ctx, cmd->description);
	if (entries) {
		/* a group of our own so that callbacks get the command's data;
		 * added first, and not as GOption's main group (which its help
		 * lists last), so that `ftlens help CMD` shows them first */
		g_autofree char *title = g_strdup_printf("Options of ftlens %s:", cmd->name);
		GOptionGroup *own = g_option_group_new(cmd->name, title, "Show the command's options",
						       data, NULL);
		g_option_group_add_entries(own, entries);
		cli_note_valued(valued, entries);
		g_option_context_add_group(ctx, own);
	}
	if (cmd->flags & FTL_CMD_RESULTS)
		g_option_context_add_group(ctx, cli_output_group(g, valued));
	if (cmd->flags & FTL_CMD_EVENTS)
		g_option_context_add_group(ctx, cli_selection_group(g, entries, valued));
	if (cmd->flags & FTL_CMD_SOURCES)
		g_option_context_add_group(ctx, cli_debuginfo_group(g, valued));
	GOptionGroup *grp = g_option_group_new(
		"global", "Options of every command:", "Show the global options", g, NULL);
	for (const GOptionEntry *e = global_entries; e->long_name; e++)
		if (!cli_entry_taken(entries, e)) {
			g_option_group_add_entries(grp, (GOptionEntry[]){ *e, { NULL } });
			cli_note_valued(valued, (GOptionEntry[]){ *e, { NULL } });
		}
	g_option_context_add_group(ctx, grp);
	return ctx;
}

gboolean ftl_cli_print_command_help(const FtlCommand *cmd, GError **error)
{
	/* The command's own entries are only known to it: ask it for --help. */
	char *argv[] = { (char *)cmd->name, "--help-all", NULL };
	return cmd->run(cmd, 2, argv, error);
}

void ftl_cli_print_commands(FILE *out)
{
	static const struct {
		FtlInputKind kind;
		const char *name;
	} kinds[] = { { FTL_INPUT_EVENTS, "events" },
		      { FTL_INPUT_CONSOLE, "console" },
		      { FTL_INPUT_STACKS, "stacks" },
		      { FTL_INPUT_FOLDED, "folded" } };
	for (const FtlCommand *c = ftl_commands; c->name; c++) {
		fprintf(out, "%s\t", c->name);
		gboolean any = FALSE;
		for (guint i = 0; i < G_N_ELEMENTS(kinds); i++)
			if (c->inputs & kinds[i].kind)
				fprintf(out, "%s%s", any ? "," : "", kinds[i].name), any = TRUE;
		fprintf(out, "%s\t%s\t%s\n", any ? "" : "-",
			c->flags & FTL_CMD_EVENTS ? "selects" : "-",
			c->flags & FTL_CMD_RESULTS ? "results" : "-");
	}
}

/* -j N, else $FTLENS_JOBS, else every online CPU (0): the text parse
 * threads and the trace.dat page readers every input of the command is
 * read with. */
static gboolean cli_jobs(FtlCliGlobals *g, GError **error)
{
	const char *env = g_getenv("FTLENS_JOBS");
	gint jobs = g->jobs;
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
	g->read.threads = (guint)n;
	return TRUE;
}

/* Text tables fit the terminal when stdout is one (saying so when a name
 * was cut), --width when given; else nothing is cut, so that what a script
 * or a file gets is whole and does not depend on the window. */
static gboolean cli_width(FtlCliGlobals *g, GError **error)
{
	if (g->width && (g->width < CLI_MIN_WIDTH || g->width > CLI_MAX_WIDTH)) {
		g_set_error(error, FTL_ERROR, FTL_ERROR_USAGE,
			    "--width %d: expected %d to %d columns", g->width, CLI_MIN_WIDTH,
			    CLI_MAX_WIDTH);
		return FALSE;
	}
	gint cols = g->width;
	struct winsize ws;
	if (!g->width && isatty(STDOUT_FILENO)) {
		cols = 100;
		if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col)
			cols = CLAMP(ws.ws_col, CLI_MIN_WIDTH, CLI_MAX_WIDTH);
		g->style.cuts = &g->cuts;
	}
	g->style.width = (guint)cols;
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
	g->style.color = ftl_color_decide(when, STDOUT_FILENO);
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

/* What GOption left: operands, or options it did not know. GOption leaves
 * "--" where it was: what follows is operands, dashed or not, and the "--"
 * itself goes. */
static gboolean cli_operands(const FtlCommand *cmd, int *argc, char **argv, GError **error)
{
	for (int i = 1; i < *argc; i++) {
		const char *a = argv[i];
		if (strcmp(a, "--") == 0) {
			memmove(argv + i, argv + i + 1, sizeof *argv * (gsize)(*argc - i));
			--*argc;
			return TRUE;
		}
		if (a[0] == '-' && a[1]) {
			g_set_error(error, FTL_ERROR, FTL_ERROR_USAGE, "%s: unknown option '%s'",
				    cmd->name, a);
			return FALSE;
		}
	}
	return TRUE;
}

gboolean ftl_cli_parse_data(const FtlCommand *cmd, const GOptionEntry *entries, gpointer data,
			    FtlCliGlobals *g, int *argc, char ***argv, GError **error)
{
	memset(g, 0, sizeof *g);
	g->cmd = cmd;
	ftl_filter_init(&g->filter);
	g->origin_ns = FTL_TS_NONE;
	g->wall_offset_ns = FTL_TS_NONE;
	g_autoptr(GArray) valued = g_array_new(FALSE, FALSE, sizeof(CliValued));
	g_autoptr(GOptionContext) ctx = cli_context(cmd, entries, data, g, valued);
	g_option_context_set_help_enabled(ctx, TRUE);
	cli_split_attached(valued, argc, argv);
	g_autoptr(GError) local = NULL;
	if (!g_option_context_parse(ctx, argc, argv, &local)) {
		g_set_error(error, FTL_ERROR, FTL_ERROR_USAGE, "%s: %s", cmd->name, local->message);
		return FALSE;
	}
	if (!cli_output(cmd, g, error))
		return FALSE;
	if (!cli_jobs(g, error))
		return FALSE;
	if (g->max_expand) {
		if (!ftl_input_parse_size(g->max_expand, &g->read.max_expand) ||
		    !g->read.max_expand) {
			g_set_error(error, FTL_ERROR, FTL_ERROR_USAGE,
				    "--max-expand '%s': expected a size such as 4G or 512M",
				    g->max_expand);
			return FALSE;
		}
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
	if (g->dump < 0) {
		g_set_error(error, FTL_ERROR, FTL_ERROR_USAGE, "%s: --dump %d: expected 1 or more",
			    cmd->name, g->dump);
		return FALSE;
	}
	/* every event command counts what it selects (an empty answer is an
	 * error); what the trace holds besides, only to say which term
	 * matched nothing or for --verbose */
	if (cmd->flags & FTL_CMD_EVENTS)
		g->filter.seen = ftl_selection_seen_new(g->verbose || ftl_cli_selecting(g));
	if (g->invert && !g->inverted) {
		g_set_error(error, FTL_ERROR, FTL_ERROR_USAGE,
			    "%s: -v inverts the -e and --filter options after it, and none follows "
			    "(--verbose says more)",
			    cmd->name);
		return FALSE;
	}
	if (!cli_operands(cmd, argc, *argv, error))
		return FALSE;
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
	g_clear_pointer(&g->inputs, ftl_inputs_free);
	ftl_debuginfo_options_clear(&g->debuginfo);
}

FtlDebugInfo *ftl_cli_debuginfo(const FtlCliGlobals *g, const char *input, const char *release,
				const char *build_id, const char *build, char **note,
				GError **error)
{
	g_autofree char *missing = NULL;
	FtlDebugInfo *d = ftl_debuginfo_open(&g->debuginfo, input, release, build, build_id, &missing,
					     error);
	if (note)
		*note = NULL;
	if (!d && note && missing)
		*note = g_strdup_printf("no %s (apt-get install linux-image-%s-dbg, or --vmlinux)",
					missing, release);
	else if (!d && note && !release && !g->debuginfo.none && !(error && *error))
		*note = g_strdup("the input names no kernel release (--vmlinux to give one)");
	return d;
}

gboolean ftl_cli_parse_source_by(const char *cmd, const char *option, const FtlCliGlobals *g,
				 const char *text, FtlSourceBy *by, GError **error)
{
	if (!ftl_source_by_parse(text, by)) {
		g_set_error(error, FTL_ERROR, FTL_ERROR_USAGE, "%s: %s '%s': expected file or dir",
			    cmd, option, text);
		return FALSE;
	}
	if (g->debuginfo.none) {
		g_set_error(error, FTL_ERROR, FTL_ERROR_USAGE,
			    "%s: %s %s needs the kernel's debug info, which --no-debuginfo refuses",
			    cmd, option, text);
		return FALSE;
	}
	return TRUE;
}

FtlDebugInfo *ftl_cli_source_debuginfo(const char *cmd, const FtlCliGlobals *g, FtlTrace *trace,
				       GError **error)
{
	g_autofree char *note = NULL;
	FtlDebugInfo *d = ftl_cli_debuginfo(g, trace ? ftl_trace_label(trace) : "the input",
					    trace ? ftl_trace_kernel(trace) : NULL,
					    trace ? ftl_trace_build_id(trace) : NULL, NULL, &note, error);
	if (!d && error && !*error)
		g_set_error(error, FTL_ERROR, FTL_ERROR_IO,
			    "%s: functions by source need the kernel's debug info: %s", cmd,
			    note ? note : "none found");
	return d;
}

/* The selection options given, as a person typed them ("--cpu 9 --time
 * 1,2 -e 'irq'"); "" when none. */
char *ftl_cli_selection_text(const FtlCliGlobals *g)
{
	GString *out = g_string_new(NULL);
	const struct {
		const char *opt;
		const char *value;
	} sel[] = { { "--cpu", g->cpu_list },
		    { "--pid", g->pid_list },
		    { "--time", g->time_range },
		    { "--relative-to", g->relative_to },
		    { "--wallclock", g->wallclock },
		    { "--buffer", g->buffer } };
	for (guint i = 0; i < G_N_ELEMENTS(sel); i++)
		if (sel[i].value)
			g_string_append_printf(out, "%s%s '%s'", out->len ? " " : "", sel[i].opt,
					       sel[i].value);
	if (g->dump)
		g_string_append_printf(out, "%s--dump %d", out->len ? " " : "", g->dump);
	g_autofree char *events = ftl_event_filter_describe(g->filter.events);
	if (*events)
		g_string_append_printf(out, "%s%s", out->len ? " " : "", events);
	return g_string_free(out, FALSE);
}

gboolean ftl_cli_selecting(const FtlCliGlobals *g)
{
	g_autofree char *sel = ftl_cli_selection_text(g);
	return *sel != 0;
}

gboolean ftl_cli_no_selection(const FtlCliGlobals *g, const char *mode, GError **error)
{
	g_autofree char *sel = ftl_cli_selection_text(g);
	if (!*sel)
		return TRUE;
	g_set_error(error, FTL_ERROR, FTL_ERROR_USAGE,
		    "%s: %s: these options select events, and %s has none to select", mode, sel,
		    mode);
	return FALSE;
}

gboolean ftl_cli_setup(FtlCliGlobals *g, guint accept, int argc, char **argv, GError **error)
{
	const char *name = g->cmd->name;
	/* what the command reads is decoded; a selection may read anything */
	g->read.skip = ftl_cli_selecting(g) ? 0 : FTL_FIELDS_ALL & ~g->cmd->fields;
	g->read.eager = g->cmd->fields & FTL_FIELD_TEXT;
	FtlInputsOptions o = {
		.command = name,
		.accept = accept,
		.flags = g->open_flags | (g->strict ? FTL_OPEN_STRICT : FTL_OPEN_NONE),
		.buffer = g->buffer,
		.index = g->no_index ? FTL_INDEX_USE_OFF
		       : g->build_index ? FTL_INDEX_USE_BUILD
					: FTL_INDEX_USE_AUTO,
		.index_stride = g->build_index,
		.dump = (guint)g->dump,
		.read_twice = g->relative_to || g->wallclock,
		.verbose = g->verbose,
		.read = g->read,
	};
	g_clear_pointer(&g->inputs, ftl_inputs_free);
	g->inputs = ftl_inputs_sort(&o, argv + 1, argc > 1 ? (guint)argc - 1 : 0, error);
	if (!g->inputs)
		return FALSE;
	if (ftl_inputs_note(g->inputs)) {
		g_autofree char *v = ftl_escape(ftl_inputs_note(g->inputs), -1);
		fprintf(stderr, "ftlens: %s: note: %s\n", name, v);
	}
	if (!ftl_inputs_has_events(g->inputs)) {
		if (ftl_inputs_kinds(g->inputs) & FTL_INPUT_FOLDED)
			return ftl_cli_no_selection(g, "folded stacks", error);
		return TRUE;
	}
	return ftl_cli_time_origin(g, error);
}

gboolean ftl_cli_check_related(const FtlCliGlobals *g, FtlTrace *trace, gboolean read_done,
			       GError **error)
{
	g_autoptr(GError) local = NULL;
	if (g->merge || ftl_trace_check_related(trace, read_done, &local))
		return TRUE;
	/* the TUI has the way to look at two runs: side by side */
	gboolean tui = !strcmp(g->cmd->name, "tui");
	g_set_error(error, FTL_ERROR, FTL_ERROR_USAGE,
		    "%s: unrelated inputs: %s (%s--merge reads them as one trace anyway)",
		    g->cmd->name, local->message,
		    tui ? "tui A --compare B shows them side by side; " : "");
	return FALSE;
}

gboolean ftl_cli_check_related_first(FtlCliGlobals *g, GError **error)
{
	if (g->merge || ftl_inputs_n(g->inputs, FTL_INPUT_EVENTS) < 2)
		return TRUE;
	g_autoptr(FtlTrace) trace = ftl_cli_open_trace(g, error);
	if (!trace)
		return FALSE;
	FtlIter *it = ftl_iter_new(trace, NULL);
	const FtlEvent *ev;
	FtlStatus st;
	while ((st = ftl_iter_next(it, &ev, error)) == FTL_STATUS_OK)
		;
	ftl_iter_free(it);
	return st != FTL_STATUS_ERROR && ftl_cli_check_related(g, trace, TRUE, error);
}

FtlTrace *ftl_cli_open_trace(FtlCliGlobals *g, GError **error)
{
	g_autoptr(FtlTrace) trace = ftl_inputs_open_trace(g->inputs, g->filter.t_start,
							  g->filter.t_end, FTL_OPEN_NONE, error);
	/* what the headers say is refused before any output */
	if (!trace || !ftl_cli_check_related(g, trace, FALSE, error))
		return NULL;
	return g_steal_pointer(&trace);
}

FtlInputs *ftl_cli_setup_path(FtlCliGlobals *g, const char *path, GError **error)
{
	char *argv[] = { (char *)g->cmd->name, (char *)path, NULL };
	FtlInputs *all = g_steal_pointer(&g->inputs);
	/* the origin is the whole command line's: set up once already */
	g_autofree char *rel = g_steal_pointer(&g->relative_to);
	g_autofree char *wall = g_steal_pointer(&g->wallclock);
	FtlInputs *one = NULL;
	if (ftl_cli_setup(g, ftl_inputs_kinds(all), 2, argv, error))
		one = g_steal_pointer(&g->inputs);
	g_clear_pointer(&g->inputs, ftl_inputs_free);
	g->inputs = all;
	g->relative_to = g_steal_pointer(&rel);
	g->wallclock = g_steal_pointer(&wall);
	return one;
}

FtlTrace *ftl_cli_open_path(FtlCliGlobals *g, char *path, GError **error)
{
	FtlInputs *one = ftl_cli_setup_path(g, path, error);
	if (!one)
		return NULL;
	/* opened as the command's operands are: swapped in for the while */
	FtlInputs *all = g_steal_pointer(&g->inputs);
	g->inputs = one;
	FtlTrace *trace = ftl_cli_open_trace(g, error);
	ftl_inputs_free(g->inputs);
	g->inputs = all;
	return trace;
}

/* "12.345678" seconds of a timestamp as the views print it (origin moved) */
static void cli_seconds(const FtlCliGlobals *g, GString *out, gint64 ts)
{
	if (ts == FTL_TS_NONE) {
		g_string_append(out, "none");
		return;
	}
	gint64 t = g->origin_ns != FTL_TS_NONE ? ts - g->origin_ns : ts;
	g_string_append_printf(out, "%s%" G_GINT64_FORMAT ".%09" G_GINT64_FORMAT, t < 0 ? "-" : "",
			       ABS(t) / 1000000000, ABS(t) % 1000000000);
}

void ftl_cli_say_selected(const FtlCliGlobals *g)
{
	const FtlSelectionSeen *s = g->filter.seen;
	if (!s || !s->full || !g->verbose)
		return;
	g_autoptr(GString) line = g_string_new(NULL);
	g_string_append_printf(line, "ftlens: %s: selected %" G_GUINT64_FORMAT " of %" G_GUINT64_FORMAT
			       " events, first ", g->cmd->name, s->selected, s->events);
	cli_seconds(g, line, s->first);
	g_string_append(line, ", last ");
	cli_seconds(g, line, s->last);
	fprintf(stderr, "%s\n", line->str);
}

gboolean ftl_cli_check_selection(const FtlCliGlobals *g, FtlTrace *trace, GError **error)
{
	const char *name = g->cmd->name;
	const FtlSelectionSeen *s = g->filter.seen;
	if (!ftl_cli_check_related(g, trace, TRUE, error))
		return FALSE;
	g_autofree char *unmatched = ftl_filter_unmatched(&g->filter, ftl_trace_label(trace));
	if (unmatched) {
		g_set_error(error, FTL_ERROR, FTL_ERROR_EMPTY, "%s: %s", name, unmatched);
		return FALSE;
	}
	if (!s || s->selected)
		return TRUE;
	g_autofree char *sel = ftl_cli_selection_text(g);
	if (*sel)
		/* no count of the events read: a sparse index reads fewer */
		g_set_error(error, FTL_ERROR, FTL_ERROR_EMPTY, "%s: %s together select no event of %s",
			    name, sel, ftl_trace_label(trace));
	else
		g_set_error(error, FTL_ERROR, FTL_ERROR_EMPTY, "%s: no events in %s", name,
			    ftl_trace_label(trace));
	return FALSE;
}

gboolean ftl_cli_finish(FtlCliGlobals *g, FtlTrace *trace, GError **error)
{
	ftl_cli_say_selected(g);
	return ftl_cli_check_selection(g, trace, error);
}

gboolean ftl_cli_parse_per(const FtlCliGlobals *g, const char *per, gboolean none_ok,
			   FtlCallTreeGroup *group, GError **error)
{
	*group = FTL_CALLTREE_GROUP_NONE;
	if (!per || (none_ok && !strcmp(per, "none")))
		return TRUE;
	if (!strcmp(per, "cpu") || !strcmp(per, "task")) {
		*group = per[0] == 'c' ? FTL_CALLTREE_GROUP_CPU : FTL_CALLTREE_GROUP_TASK;
		return TRUE;
	}
	g_set_error(error, FTL_ERROR, FTL_ERROR_USAGE, "%s: --per '%s': expected cpu or task%s",
		    g->cmd->name, per, none_ok ? " (or none)" : "");
	return FALSE;
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
