/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The command table and what every command shares: global options, opening
 * the trace, the one place that maps errors to exit codes. */
#pragma once

#include <glib.h>
#include <stdio.h>

#include "analysis/counts.h"
#include "model/iter.h"
#include "model/trace.h"
#include "views/table.h"

typedef struct {
	FtlFilter filter;
	gboolean verbose;
	gboolean invert;   /* -v seen: the -e/--filter after it filter out */
	gboolean inverted; /* an -e/--filter came after -v */
	gboolean strict;
	gboolean no_index;    /* --no-index: no sparse index used or built */
	FtlOpenFlags open_flags; /* set by the command: what ftl_cli_open_trace() adds */
	guint build_index;    /* > 0: build one with this stride whatever the size (ftlens index) */
	char *color;	/* auto|always|never */
	char *cpu_list; /* raw option text */
	char *pid_list;
	char *time_range;
	char *relative_to; /* --relative-to PATTERN */
	char *wallclock;   /* --wallclock PATTERN=ISO8601 */
	char *buffer;	   /* --buffer NAME: one ring buffer of a trace.dat */
	char *max_expand;  /* --max-expand SIZE: disk an expanded copy may take */
	gint jobs;	   /* -j N: text parse threads (0: $FTLENS_JOBS, else online CPUs) */
	gint width;	   /* --width N; 0: the terminal's, 100 when not a terminal */
	/* FTL_CMD_RESULTS commands: -F/--format, --json (format: what they ask
	 * for, text by default; format_given: either was given), --no-pager */
	char *format_s;
	gboolean json;
	gboolean format_given;
	FtlFormat format;
	gboolean no_pager;
	/* Filled by ftl_cli_time_origin(): timestamps print as ts - origin_ns
	 * (FTL_TS_NONE: as they are); wall time = ts + wall_offset_ns. */
	gint64 origin_ns;
	gint64 wall_offset_ns;
} FtlCliGlobals;

typedef enum {
	/* prints results on stdout: takes -F/--format FMT and --json (into
	 * FtlCliGlobals.format) and pages text to a terminal unless --no-pager */
	FTL_CMD_RESULTS = 1u << 0,
} FtlCommandFlags;

typedef struct {
	const char *name;
	const char *args;	 /* e.g. "FILE..." */
	const char *summary;	 /* one line */
	const char *description; /* paragraph for `ftlens help CMD` */
	/* argv[0] is the command name. Returns FALSE with error set on failure. */
	gboolean (*run)(int argc, char **argv, GError **error);
	guint flags; /* FtlCommandFlags */
} FtlCommand;

extern const FtlCommand ftl_commands[];
const FtlCommand *ftl_cli_find(const char *name);
void ftl_cli_print_usage(FILE *out);
/* Prints a command's option help. */
gboolean ftl_cli_print_command_help(const FtlCommand *cmd, GError **error);

/* Parses argv with the command's entries plus the global ones into g.
 * On return argv holds the command name and the operands. */
gboolean ftl_cli_parse(const FtlCommand *cmd, const GOptionEntry *entries, FtlCliGlobals *g,
		       int *argc, char ***argv, GError **error);
/* The same, with data passed to the entries' G_OPTION_ARG_CALLBACKs. */
gboolean ftl_cli_parse_data(const FtlCommand *cmd, const GOptionEntry *entries, gpointer data,
			    FtlCliGlobals *g, int *argc, char ***argv, GError **error);
void ftl_cli_globals_clear(FtlCliGlobals *g);
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC(FtlCliGlobals, ftl_cli_globals_clear)
/* Opens operands argv[1..argc) as one trace; a usage error when there are none. */
FtlTrace *ftl_cli_open_trace(const FtlCliGlobals *g, int argc, char **argv, GError **error);
/* Takes "OPTION A B" (or "OPTION=A B") out of argv before the options are
 * parsed, since GOption cannot take two values: *a and *b get copies (free
 * with g_free), or stay NULL when the option is absent. cmd names the
 * command in messages. */
gboolean ftl_cli_take_pair(const char *cmd, const char *option, int *argc, char **argv, char **a,
			   char **b, GError **error);
/* Maps an error to the exit code: 2 for usage errors, 1 otherwise. */
int ftl_cli_exit_code(const GError *error);

/* For commands that read their operands twice (a look, then the pass): makes
 * a "-" among argv[1..argc-1] readable again (ftl_input_spool_stdin). */
gboolean ftl_cli_stdin_twice(int argc, char **argv, GError **error);

/* Resolves --relative-to and --wallclock against the trace named by the
 * operands (a pre-pass over its markers) into g->origin_ns and
 * g->wall_offset_ns. A pattern that matches no marker is an error.
 * (cli/time-origin.c) */
gboolean ftl_cli_time_origin(FtlCliGlobals *g, int argc, char **argv, GError **error);

/* Why a function-call answer is empty, in words for a person (cli/empty.c):
 * the selection (--cpu/--pid/--time) keeps none of the trace's events, or
 * the events it keeps (selected: counts of them) hold no function_graph
 * calls, and then what they do hold and the command that shows it. */
char *ftl_cli_why_empty(const FtlCliGlobals *g, FtlTrace *trace, const FtlCounts *selected);
/* The same as an FTL_ERROR_EMPTY error "CMD: why" (exit 1): for a command
 * whose whole answer is empty. Returns FALSE. */
gboolean ftl_cli_empty(const FtlCliGlobals *g, FtlTrace *trace, const FtlCounts *selected,
		       const char *cmd, GError **error);

gboolean ftl_cmd_info(int argc, char **argv, GError **error);
gboolean ftl_cmd_index(int argc, char **argv, GError **error);
gboolean ftl_cmd_dump(int argc, char **argv, GError **error);
gboolean ftl_cmd_report(int argc, char **argv, GError **error);
gboolean ftl_cmd_graph(int argc, char **argv, GError **error);
gboolean ftl_cmd_split(int argc, char **argv, GError **error);
gboolean ftl_cmd_markers(int argc, char **argv, GError **error);
gboolean ftl_cmd_diff(int argc, char **argv, GError **error);
gboolean ftl_cmd_stack(int argc, char **argv, GError **error);
gboolean ftl_cmd_record(int argc, char **argv, GError **error);
gboolean ftl_cmd_capture_script(int argc, char **argv, GError **error);
gboolean ftl_cmd_oops(int argc, char **argv, GError **error);
gboolean ftl_cmd_arm_oops(int argc, char **argv, GError **error);
gboolean ftl_cmd_tui(int argc, char **argv, GError **error);
gboolean ftl_cmd_flame(int argc, char **argv, GError **error);
gboolean ftl_cmd_export(int argc, char **argv, GError **error);
gboolean ftl_cmd_sched(int argc, char **argv, GError **error);
gboolean ftl_cmd_timeline(int argc, char **argv, GError **error);
gboolean ftl_cmd_plot(int argc, char **argv, GError **error);
