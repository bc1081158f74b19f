/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `ftlens record`: capture with trace-cmd's option letters into a trace.dat
 * or a raw directory, the flight recorder (--flight) and stack tracer
 * snapshots (--stack). The work is in capture/; this parses and reports. */
#include "config.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "capture/flight.h"
#include "capture/record.h"
#include "capture/stack.h"
#include "cli/capture-opts.h"
#include "cli/capture-view.h"
#include "cli/cli.h"
#include "util/error.h"
#include "util/output.h"
#include "views/table.h"

#define RECORD_DEFAULT_OUTPUT	    "trace.dat"
#define RECORD_DEFAULT_STACK_OUTPUT "stack-series.txt"

/* -f applies to the -e before it: GOption calls these in command-line
 * order, with data the FtlEventSpec array being built. */
static gboolean record_opt_event(const char *name, const char *value, gpointer data, GError **error)
{
	FtlEventSpec *e = g_new0(FtlEventSpec, 1);
	e->pattern = g_strdup(value);
	g_ptr_array_add(data, e);
	return TRUE;
}

static gboolean record_opt_filter(const char *name, const char *value, gpointer data,
				  GError **error)
{
	GPtrArray *events = data;
	FtlEventSpec *last = events->len ? events->pdata[events->len - 1] : NULL;
	if (!last || last->filter) {
		g_set_error(error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
			    "-f '%s': a filter applies to the -e EVENT just before it", value);
		return FALSE;
	}
	last->filter = g_strdup(value);
	return TRUE;
}

typedef struct {
	GPtrArray *events; /* FtlEventSpec*, in command-line order */
	FtlCaptureOpts t;
	char *output, *instance, *raw_dir, *stop_on;
	gint hits, pid;
	double duration;
	gboolean top, pid_filter, old_F, flight, stack, reset, cleanup;
} RecordArgs;

static void record_args_clear(RecordArgs *a)
{
	ftl_capture_opts_clear(&a->t);
	g_free(a->output);
	g_free(a->instance);
	g_free(a->raw_dir);
	g_free(a->stop_on);
}

static gboolean record_usage(GError **error, const char *msg)
{
	g_set_error(error, FTL_ERROR, FTL_ERROR_USAGE, "record: %s", msg);
	return FALSE;
}

/* The combinations that make no sense, refused before anything is touched. */
static gboolean record_check(const RecordArgs *a, char **cmd, GError **error)
{
	const FtlCaptureOpts *t = &a->t;
	gboolean tracing = t->tracer || a->events->len || t->buffer_kb || t->clock ||
			   t->ftrace_filter || t->notrace || t->graph || t->options ||
			   t->max_depth >= 0;
	if (a->flight && a->stack)
		return record_usage(error, "--flight and --stack are separate modes");
	if (a->stack && (tracing || a->instance || a->top || a->raw_dir || a->pid_filter || a->pid))
		return record_usage(error, "--stack takes only --duration, --reset, -o and a "
					   "command");
	if (a->flight && (a->instance || a->raw_dir || a->pid_filter || a->pid))
		return record_usage(error, "--flight records the top-level buffer into "
					   "OUT.hitK.dat: no --instance, --raw-dir, -P or "
					   "--pid-filter");
	if (!a->flight && (a->hits || a->stop_on))
		return record_usage(error, "--hits and --stop-on go with --flight");
	if (!a->stack && a->reset)
		return record_usage(error, "--reset goes with --stack");
	if (a->hits < 0)
		return record_usage(error, "--hits: expected a count of 1 or more");
	if (a->instance && a->top)
		return record_usage(error, "--instance and --top name different buffers");
	if (a->raw_dir && a->output)
		return record_usage(error, "-o and --raw-dir are two kinds of output: pick one");
	if (a->pid_filter && !cmd)
		return record_usage(error,
				    "--pid-filter filters on the command's pid: give one after --");
	if (a->pid_filter && a->pid)
		return record_usage(error, "-P and --pid-filter each name the one process to "
					   "trace: pick one");
	if (a->pid < 0 || (a->pid && kill(a->pid, 0) != 0 && errno == ESRCH))
		return record_usage(error, "-P: no process has that pid");
	if (a->duration < 0)
		return record_usage(error, "--duration: expected seconds >= 0");
	if (t->buffer_kb < 0)
		return record_usage(error, "-b: expected KB per CPU");
	if (cmd && !cmd[0])
		return record_usage(error, "nothing after --");
	return TRUE;
}

static gboolean record_flight(const RecordArgs *a, const FtlBufferConfig *cfg, char **cmd,
			      GError **error)
{
	FtlFlightOptions fo = { *cfg,	    (guint)(a->hits ? a->hits : 1),
				a->stop_on, a->duration,
				cmd,	    a->output ? a->output : RECORD_DEFAULT_OUTPUT };
	if (!a->stop_on && !cmd)
		fprintf(stderr, "ftlens: flight recorder armed; it saves the buffer each time "
				"tracing_on drops to 0 (Ctrl-C to stop)\n");
	FtlFlightResult r;
	gboolean ok = ftl_flight_run(&fo, &r, error);
	ftl_capture_view_notes(r.notes);
	for (guint i = 0; i < r.files->len; i++)
		fprintf(stderr, "ftlens: hit %u saved to %s\n", i + 1, (char *)r.files->pdata[i]);
	if (ok && r.files->len < fo.hits)
		fprintf(stderr, "ftlens: %u of %u hits saved (%s)\n", r.files->len, fo.hits,
			r.interrupted ? "stopped by a signal" : "ended before tracing stopped");
	ftl_capture_view_child(r.child_status);
	ftl_flight_result_clear(&r);
	return ok;
}

static gboolean record_stack(const RecordArgs *a, char **cmd, GError **error)
{
	FtlStackOptions so = { a->duration, a->reset, cmd,
			       a->output ? a->output : RECORD_DEFAULT_STACK_OUTPUT };
	if (!a->duration && !cmd)
		fprintf(stderr, "ftlens: stack tracer on; Ctrl-C to stop\n");
	FtlStackResult r;
	gboolean ok = ftl_stack_run(&so, &r, error);
	ftl_capture_view_notes(r.notes);
	if (ok)
		fprintf(stderr,
			"ftlens: %u stack snapshots, deepest %" G_GUINT64_FORMAT " bytes -> %s\n",
			r.snapshots, r.max_size, so.output);
	ftl_capture_view_child(r.child_status);
	ftl_stack_result_clear(&r);
	return ok;
}

static gboolean record_trace(const RecordArgs *a, const FtlBufferConfig *cfg, char **cmd,
			     GError **error)
{
	FtlRecordOptions ro = { *cfg,
				a->instance,
				a->top,
				a->duration,
				cmd,
				a->pid_filter,
				(pid_t)a->pid,
				a->output ? a->output : RECORD_DEFAULT_OUTPUT,
				a->raw_dir };
	if (!cmd && !a->duration)
		fprintf(stderr, "ftlens: recording; Ctrl-C to stop\n");
	FtlRecordResult r;
	gboolean ok = ftl_record_run(&ro, &r, error);
	ftl_capture_view_notes(r.notes);
	if (ok)
		ftl_capture_view_record(&ro, &r);
	ftl_capture_view_child(r.child_status);
	ftl_record_result_clear(&r);
	return ok;
}

/* --cleanup, and the start of every record: instances of killed ftlens
 * records, and their staging directories beside output, removed, each said
 * on stderr. Without error, quiet when tracefs is not there (record's own
 * open says so). */
static gboolean record_cleanup(const char *output, GError **error)
{
	g_autoptr(GError) local = NULL;
	g_autoptr(GString) notes = g_string_new(NULL);
	ftl_output_staging_sweep(output, notes);
	const char *tracefs = ftl_tracefs_dir(error ? error : &local);
	gboolean ok = tracefs && ftl_buffer_cleanup_stale(tracefs, notes, error ? error : &local);
	ftl_capture_view_notes(notes);
	if (!ok)
		return FALSE;
	if (error && !notes->len)
		fprintf(stderr, "ftlens: no instance of a killed ftlens record under %s\n", tracefs);
	return TRUE;
}

/* Checks the options, sweeps what killed records left, then records in the
 * mode asked for. */
static gboolean record_run(RecordArgs *a, char **cmd, GError **error)
{
	if (a->old_F) {
		g_printerr("ftlens: record: -F is deprecated: say --pid-filter (-F is --format "
			   "elsewhere)\n");
		a->pid_filter = TRUE;
	}
	if (!record_check(a, cmd, error))
		return FALSE;
	record_cleanup(a->output ? a->output : RECORD_DEFAULT_OUTPUT, NULL);
	const FtlCaptureOpts *t = &a->t;
	FtlBufferConfig cfg = { t->tracer, a->events,	    (guint)t->buffer_kb,
				t->clock,  t->ftrace_filter, t->notrace,
				t->graph,  t->max_depth,     t->options,
				-1 };
	if (a->flight)
		return record_flight(a, &cfg, cmd, error);
	if (a->stack)
		return record_stack(a, cmd, error);
	return record_trace(a, &cfg, cmd, error);
}

gboolean ftl_cmd_record(const FtlCommand *cmd, int argc, char **argv, GError **error)
{
	RecordArgs a = { .t = FTL_CAPTURE_OPTS_INIT };
	g_autoptr(GPtrArray) events =
		g_ptr_array_new_with_free_func((GDestroyNotify)ftl_event_spec_free);
	a.events = events;
	const GOptionEntry own[] = {
		{ "event", 'e', 0, G_OPTION_ARG_CALLBACK, (gpointer)record_opt_event,
		  "Enable events: SYSTEM, SYSTEM:EVENT, globs, all (repeatable)", "EVENT" },
		{ "filter", 'f', 0, G_OPTION_ARG_CALLBACK, (gpointer)record_opt_filter,
		  "Filter for the -e just before", "FILTER" },
		{ "output", 'o', 0, G_OPTION_ARG_FILENAME, &a.output,
		  "Output file (default trace.dat; stack-series.txt with --stack)", "FILE" },
		{ "instance", 0, 0, G_OPTION_ARG_STRING, &a.instance,
		  "Record in a new instance of this name (kept in the trace.dat)", "NAME" },
		{ "top", 0, 0, G_OPTION_ARG_NONE, &a.top,
		  "Record the top-level buffer (its settings are put back afterwards)", NULL },
		{ "duration", 0, 0, G_OPTION_ARG_DOUBLE, &a.duration, "Stop after S seconds", "S" },
		{ "pid-filter", 0, 0, G_OPTION_ARG_NONE, &a.pid_filter,
		  "Only the command's events and its children's (trace-cmd record -F)", NULL },
		{ "trace-pid", 'P', 0, G_OPTION_ARG_INT, &a.pid,
		  "Only the events of the running process PID and its children (trace-cmd "
		  "record -P)",
		  "PID" },
		/* -F was --pid-filter's letter before -F meant --format on every
		 * command that prints results; still taken, with a warning */
		{ "pid-filter-F", 'F', G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_NONE, &a.old_F, NULL,
		  NULL },
		{ "raw-dir", 0, 0, G_OPTION_ARG_FILENAME, &a.raw_dir,
		  "Write raw pages and formats as a directory instead of a trace.dat", "DIR" },
		{ "flight", 0, 0, G_OPTION_ARG_NONE, &a.flight,
		  "Flight recorder: save the buffer each time tracing_on drops to 0", NULL },
		{ "hits", 0, 0, G_OPTION_ARG_INT, &a.hits, "--flight: stops to save (default 1)",
		  "N" },
		{ "stop-on", 0, 0, G_OPTION_ARG_STRING, &a.stop_on,
		  "--flight: stop tracing on this event (a traceoff trigger)",
		  "SYSTEM:EVENT[:FILTER]" },
		{ "stack", 0, 0, G_OPTION_ARG_NONE, &a.stack,
		  "Stack tracer: snapshot stack_trace each time the maximum grows", NULL },
		{ "cleanup", 0, 0, G_OPTION_ARG_NONE, &a.cleanup,
		  "Remove the instances of killed ftlens records (ftlens-PID, PID gone) and stop",
		  NULL },
		{ "reset", 0, 0, G_OPTION_ARG_NONE, &a.reset, "--stack: start from a zero maximum",
		  NULL },
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
	gboolean ok = ftl_cli_parse_data(cmd, entries, events, &g, &argc,
					 &parse, error);
	if (ok && argc > 1)
		ok = record_usage(error, "no FILE operands: put the command to trace after --");
	if (ok && a.cleanup)
		ok = record_cleanup(a.output ? a.output : RECORD_DEFAULT_OUTPUT, error);
	else if (ok)
		ok = record_run(&a, child, error);
	record_args_clear(&a);
	return ok;
}
