/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `ftlens capture-script`: prints the POSIX sh script that captures on a
 * board with busybox only, with record's option letters; the script is
 * data/capture.sh, the settings are written in by capture/capture-script.c. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "capture/capture-script.h"
#include "cli/capture-opts.h"
#include "cli/cli.h"
#include "model/iter.h"
#include "util/datadir.h"
#include "util/error.h"
#include "util/output.h"

typedef struct {
	FtlCaptureOpts t;
	char *output, *cpus, *stop_on;
	char **events;
	gint pid, hits, oops_dump;
	double duration;
	gboolean pid_filter, until_off, flight, oops;
} ScriptArgs;

static void script_args_clear(ScriptArgs *a)
{
	ftl_capture_opts_clear(&a->t);
	g_free(a->output);
	g_free(a->cpus);
	g_free(a->stop_on);
	g_strfreev(a->events);
}

static gboolean script_usage(GError **error, const char *msg)
{
	g_set_error(error, FTL_ERROR, FTL_ERROR_USAGE, "capture-script: %s", msg);
	return FALSE;
}

/* The combinations that make no sense on the board either. */
static gboolean script_check(const ScriptArgs *a, char **cmd, int argc, GError **error)
{
	if (argc > 1)
		return script_usage(error, "no FILE operands: put the command to run after --");
	if (a->flight && a->oops)
		return script_usage(error, "--flight and --oops are separate modes");
	if (a->oops && (cmd || a->duration || a->until_off || a->pid_filter || a->hits ||
			a->stop_on))
		return script_usage(error, "--oops arms the board and ends: no command, "
					   "--duration, --until-off, --hits or --stop-on");
	if (!a->flight && (a->hits || a->stop_on))
		return script_usage(error, "--hits and --stop-on go with --flight");
	if (a->flight && (a->pid_filter || a->until_off))
		return script_usage(error, "--flight stops at every tracing_off() by itself: no "
					   "--until-off or --pid-filter");
	if (!a->oops && a->oops_dump)
		return script_usage(error, "--oops-cpu goes with --oops");
	if (a->pid_filter && !cmd)
		return script_usage(error,
				    "--pid-filter filters on the command's pid: give one after --");
	if (a->pid_filter && a->pid)
		return script_usage(error, "-P and --pid-filter each name the one process to "
					   "trace: pick one");
	if (a->pid < 0)
		return script_usage(error, "-P: expected a pid");
	if (a->duration < 0 || a->duration > 1e7)
		return script_usage(error, "--duration: expected seconds >= 0");
	if (a->t.buffer_kb < 0)
		return script_usage(error, "-b: expected KB per CPU");
	if (a->hits < 0)
		return script_usage(error, "--hits: expected a count of 1 or more");
	if (a->t.max_depth < -1)
		return script_usage(error, "--max-graph-depth: expected 0 or more");
	if (cmd && !cmd[0])
		return script_usage(error, "nothing after --");
	return TRUE;
}

static gboolean script_write(const ScriptArgs *a, char **cmd, GError **error)
{
	g_autoptr(GArray) cpus = NULL;
	if (a->cpus && !ftl_filter_parse_list(a->cpus, &cpus, error)) {
		g_prefix_error(error, "capture-script: --cpu: ");
		return FALSE;
	}
	FtlCaptureScriptOptions o = {
		.mode = a->flight ? FTL_CAPTURE_FLIGHT : a->oops ? FTL_CAPTURE_OOPS : FTL_CAPTURE_RECORD,
		.tracer = a->t.tracer,
		.events = (const char *const *)a->events,
		.buffer_kb = (guint)a->t.buffer_kb,
		.clock = a->t.clock,
		.filter = (const char *const *)a->t.ftrace_filter,
		.notrace = (const char *const *)a->t.notrace,
		.graph = (const char *const *)a->t.graph,
		.max_depth = a->t.max_depth,
		.options = (const char *const *)a->t.options,
		.cpus = cpus ? (const gint32 *)(void *)cpus->data : NULL,
		.n_cpus = cpus ? cpus->len : 0,
		.pid = a->pid,
		.pid_filter = a->pid_filter,
		.duration = a->duration,
		.until_off = a->until_off,
		.argv = cmd,
		.hits = (guint)a->hits,
		.stop_on = a->stop_on,
		.oops_dump = a->oops_dump ? 2 : 0,
	};
	g_autofree char *tmpl = ftl_datadir_read("capture.sh", NULL, error);
	if (!tmpl)
		return FALSE;
	g_autofree char *text = ftl_capture_script_render(&o, tmpl, error);
	if (!text)
		return FALSE;
	return ftl_output_write_all(a->output ? a->output : "-", NULL, text, strlen(text), error);
}

gboolean ftl_cmd_capture_script(const FtlCommand *cmd, int argc, char **argv, GError **error)
{
	ScriptArgs a = { .t = FTL_CAPTURE_OPTS_INIT };
	const GOptionEntry own[] = {
		{ "event", 'e', 0, G_OPTION_ARG_STRING_ARRAY, &a.events,
		  "Enable events: SYSTEM, SYSTEM:EVENT, globs, all (repeatable)", "EVENT" },
		{ "cpu", 0, 0, G_OPTION_ARG_STRING, &a.cpus,
		  "Trace only these CPUs (tracing_cpumask; e.g. 0,2-3)", "LIST" },
		{ "trace-pid", 'P', 0, G_OPTION_ARG_INT, &a.pid,
		  "Only the events of the board's process PID and its children", "PID" },
		{ "pid-filter", 0, 0, G_OPTION_ARG_NONE, &a.pid_filter,
		  "Only the command's events and its children's", NULL },
		{ "duration", 0, 0, G_OPTION_ARG_DOUBLE, &a.duration, "Stop after S seconds", "S" },
		{ "until-off", 0, 0, G_OPTION_ARG_NONE, &a.until_off,
		  "Stop when tracing_on drops to 0 (the kernel's or a program's tracing_off())",
		  NULL },
		{ "flight", 0, 0, G_OPTION_ARG_NONE, &a.flight,
		  "Flight recorder: save the buffer each time tracing_on drops to 0, then re-arm",
		  NULL },
		{ "hits", 0, 0, G_OPTION_ARG_INT, &a.hits,
		  "--flight: stops to save (default 1; more go to hitK/)", "N" },
		{ "stop-on", 0, 0, G_OPTION_ARG_STRING, &a.stop_on,
		  "--flight: stop tracing on this event (a traceoff trigger)",
		  "SYSTEM:EVENT[:FILTER]" },
		{ "oops", 0, 0, G_OPTION_ARG_NONE, &a.oops,
		  "Crash mode: arm ftrace_dump_on_oops and leave the board armed", NULL },
		{ "oops-cpu", 0, 0, G_OPTION_ARG_NONE, &a.oops_dump,
		  "--oops: dump only the oopsing CPU's buffer (ftrace_dump_on_oops=2)", NULL },
		{ "output", 'o', 0, G_OPTION_ARG_FILENAME, &a.output,
		  "Write the script to FILE (default: standard output)", "FILE" },
		{ NULL },
	};
	GOptionEntry entries[FTL_CAPTURE_OPTS_N + G_N_ELEMENTS(own)];
	ftl_capture_opts_entries(&a.t, entries);
	memcpy(entries + FTL_CAPTURE_OPTS_N, own, sizeof own);
	char **child = ftl_capture_opts_split_command(&argc, argv);
	g_autofree char **opts = g_new0(char *, argc + 1);
	memcpy(opts, argv, sizeof(char *) * (gsize)argc);
	char **parse = opts;
	g_auto(FtlCliGlobals) g;
	gboolean ok = ftl_cli_parse(cmd, entries, &g, &argc, &parse,
				    error) &&
		      script_check(&a, child, argc, error) && script_write(&a, child, error);
	script_args_clear(&a);
	return ok;
}
