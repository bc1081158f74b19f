/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The command table and what every command shares: global options, opening
 * the trace, the one place that maps errors to exit codes. */
#pragma once

#include <glib.h>
#include <stdio.h>

#include "analysis/calltree.h"
#include "analysis/counts.h"
#include "model/iter.h"
#include "model/trace.h"
#include "parse/inputs.h"
#include "symbols/debuginfo.h"
#include "views/source.h"
#include "views/table.h"

typedef struct _FtlCommand FtlCommand;

typedef struct {
	const FtlCommand *cmd; /* the command being run */
	FtlInputs *inputs;     /* its operands, sorted by ftl_cli_setup(); owned */
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
	gboolean merge;	   /* --merge: several inputs read as one even when unrelated */
	char *max_expand;  /* --max-expand SIZE: disk an expanded copy may take */
	gint jobs;	   /* -j N: text parse threads (0: $FTLENS_JOBS, else online CPUs) */
	gint dump;	   /* --dump N: which ftrace dump of a console log (0: the first with lines) */
	gint width;	   /* --width N; 0: the terminal's, whole when not a terminal */
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
	/* Filled by ftl_cli_parse(): how text views lay out their tables
	 * (from --width, --color and standard output) */
	FtlTextStyle style;
	guint cuts; /* the tables style cut names in */
	/* FTL_CMD_SOURCES commands: --vmlinux, --modules, --debuginfo,
	 * --force-debuginfo, --no-debuginfo */
	FtlDebugInfoOptions debuginfo;
	/* Filled by ftl_cli_parse(): how inputs are read (-j, --max-expand),
	 * handed to the door (parse/inputs.h) and through it to every reader */
	FtlReadOptions read;
} FtlCliGlobals;

typedef enum {
	/* prints results on stdout: takes -F/--format FMT and --json (into
	 * FtlCliGlobals.format) and pages text to a terminal unless --no-pager */
	FTL_CMD_RESULTS = 1u << 0,
	/* selects events: takes the selection options (--cpu, --pid, --time,
	 * -e, --filter, -v, --relative-to, --wallclock, --buffer, --dump,
	 * --strict, --no-index, --max-expand, -j); other commands do not know
	 * them (exit 2), and each of its modes without events refuses them
	 * through ftl_cli_no_selection() */
	FTL_CMD_EVENTS = 1u << 1,
	/* gives functions their source lines: takes the debug info options
	 * (--vmlinux, --modules, --debuginfo, --force-debuginfo,
	 * --no-debuginfo) into FtlCliGlobals.debuginfo */
	FTL_CMD_SOURCES = 1u << 2,
} FtlCommandFlags;

struct _FtlCommand {
	const char *name;
	const char *args;	 /* e.g. "FILE..." */
	const char *summary;	 /* one line */
	const char *description; /* paragraph for `ftlens help CMD` */
	/* cmd is the command's own entry; argv[0] is its name. Returns FALSE
	 * with error set on failure. */
	gboolean (*run)(const FtlCommand *cmd, int argc, char **argv, GError **error);
	guint flags;  /* FtlCommandFlags */
	guint inputs; /* FtlInputKind bits: what its operands may be (0: none) */
	/* FtlEventFields its analyses and views read (model/event.h): the
	 * rest are left undecoded unless a selection option is given (a filter
	 * may read any); FTL_FIELDS_ALL when in doubt */
	guint fields;
};

extern const FtlCommand ftl_commands[];
const FtlCommand *ftl_cli_find(const char *name);
void ftl_cli_print_usage(FILE *out);
/* Prints a command's option help. */
gboolean ftl_cli_print_command_help(const FtlCommand *cmd, GError **error);
/* One line per command: name, the input kinds it reads and whether it
 * selects events and prints results (`ftlens help --commands`, for scripts
 * and the cross-command test). */
void ftl_cli_print_commands(FILE *out);

/* Parses argv with the command's entries plus the global ones into g.
 * On return argv holds the command name and the operands. */
gboolean ftl_cli_parse(const FtlCommand *cmd, const GOptionEntry *entries, FtlCliGlobals *g,
		       int *argc, char ***argv, GError **error);
/* The same, with data passed to the entries' G_OPTION_ARG_CALLBACKs. */
gboolean ftl_cli_parse_data(const FtlCommand *cmd, const GOptionEntry *entries, gpointer data,
			    FtlCliGlobals *g, int *argc, char ***argv, GError **error);
void ftl_cli_globals_clear(FtlCliGlobals *g);
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC(FtlCliGlobals, ftl_cli_globals_clear)

/* The one setup of a command's operands, in one order for every command:
 * the operands argv[1..argc) sorted by kind through the door (parse/
 * inputs.h; accept: the FtlInputKind bits this mode reads, a subset of the
 * table's), then, when they hold events, the time origin (--relative-to,
 * --wallclock: a pre-pass over the markers) and the window it moves; -e
 * and --filter were taken in command-line order by ftl_cli_parse(). A note
 * on how the operands are read (a console log's dump) goes to stderr. */
gboolean ftl_cli_setup(FtlCliGlobals *g, guint accept, int argc, char **argv, GError **error);
/* Opens the event trace of the operands ftl_cli_setup() sorted, with the
 * sparse index for the window; operands that name other kernels, clocks or
 * CPU counts are refused here (without --merge). Free with ftl_trace_free(). */
FtlTrace *ftl_cli_open_trace(FtlCliGlobals *g, GError **error);
/* Without --merge: FALSE with one usage error "CMD: unrelated inputs: ..."
 * naming two operands that cannot be one capture (model/related.h); the
 * times count once the trace was read (read_done). */
gboolean ftl_cli_check_related(const FtlCliGlobals *g, FtlTrace *trace, gboolean read_done,
			       GError **error);
/* The same check before a command that writes as it reads (dump, split,
 * info) opens the trace: several event operands are read once first, so
 * that unrelated ones are refused before any output (without --merge). */
gboolean ftl_cli_check_related_first(FtlCliGlobals *g, GError **error);
/* Sorts one path through the door with the command's options, as an
 * operand of its own (the other trace of `tui --compare`); g->inputs
 * stays the command line's. Free with ftl_inputs_free(). */
FtlInputs *ftl_cli_setup_path(FtlCliGlobals *g, const char *path, GError **error);
/* Opens one path as a trace with the same options (one side of a diff). */
FtlTrace *ftl_cli_open_path(FtlCliGlobals *g, char *path, GError **error);
/* After the pass that read trace through g->filter: unrelated operands
 * (ftl_cli_check_related), a selection term that
 * matched nothing (an event name, a field, a CPU, a pid, a window outside
 * the trace) or a selection that kept no event is an FTL_ERROR_EMPTY error
 * "CMD: ..." (exit 1). With --verbose, says on stderr how many events were
 * selected and the first and last timestamps. */
gboolean ftl_cli_finish(FtlCliGlobals *g, FtlTrace *trace, GError **error);
/* ftl_cli_finish() in two: the --verbose line, and the check. The TUI
 * checks when its first model is read and says after the screen is gone. */
void ftl_cli_say_selected(const FtlCliGlobals *g);
gboolean ftl_cli_check_selection(const FtlCliGlobals *g, FtlTrace *trace, GError **error);
/* Whether any selection option was given. */
gboolean ftl_cli_selecting(const FtlCliGlobals *g);
/* A mode without events (mode names it: "flame --stack") refuses every
 * selection option given, in one message listing them. */
gboolean ftl_cli_no_selection(const FtlCliGlobals *g, const char *mode, GError **error);
/* Takes "OPTION A B" (or "OPTION=A B") out of argv before the options are
 * parsed, since GOption cannot take two values: *a and *b get copies (free
 * with g_free), or stay NULL when the option is absent. cmd names the
 * command in messages. */
gboolean ftl_cli_take_pair(const char *cmd, const char *option, int *argc, char **argv, char **a,
			   char **b, GError **error);
/* --per cpu|task|none (none only where none_ok), the one spelling every
 * command that groups by CPU or task takes; NULL is none. A usage error
 * names the command's option. */
gboolean ftl_cli_parse_per(const FtlCliGlobals *g, const char *per, gboolean none_ok,
			   FtlCallTreeGroup *group, GError **error);
/* The debug info of the kernel release (and build id and build, each may
 * be NULL) that input names, as the FTL_CMD_SOURCES options say (symbols/debuginfo.h):
 * NULL without an error when there is none to use, and then *note (free
 * with g_free; may be NULL) says why for a person, when it is worth saying.
 * A vmlinux of another build or build id is an error. Free with ftl_debuginfo_free(). */
FtlDebugInfo *ftl_cli_debuginfo(const FtlCliGlobals *g, const char *input, const char *release,
				const char *build_id, const char *build, char **note,
				GError **error);
/* option TEXT ("--by", "--color-by"; TEXT "file" or "dir") of command cmd
 * into *by; a usage error for another word or with --no-debuginfo. */
gboolean ftl_cli_parse_source_by(const char *cmd, const char *option, const FtlCliGlobals *g,
				 const char *text, FtlSourceBy *by, GError **error);
/* The debug info of the kernel trace ran on (its release, or --vmlinux;
 * only --vmlinux for a NULL trace: folded stacks name no kernel), for a
 * command that groups functions by source: its absence is an error
 * saying what was looked for, never an empty table. Free with
 * ftl_debuginfo_free(). */
FtlDebugInfo *ftl_cli_source_debuginfo(const char *cmd, const FtlCliGlobals *g, FtlTrace *trace,
				       GError **error);
/* Maps an error to the exit code: 2 for usage errors, 1 otherwise. */
int ftl_cli_exit_code(const GError *error);

/* Resolves --relative-to and --wallclock against the event trace of the
 * sorted operands (a pre-pass over its markers) into g->origin_ns and
 * g->wall_offset_ns, and moves the window with the origin. A pattern that
 * matches no marker is an error. Part of ftl_cli_setup(). (cli/time-origin.c) */
gboolean ftl_cli_time_origin(FtlCliGlobals *g, GError **error);

/* Why a function-call answer is empty, in words for a person (cli/empty.c):
 * the selection (--cpu/--pid/--time) keeps none of the trace's events, or
 * the events it keeps (selected: counts of them) hold no function_graph
 * calls, and then what they do hold and the command that shows it. */
char *ftl_cli_why_empty(const FtlCliGlobals *g, FtlTrace *trace, const FtlCounts *selected);
/* The same for another thing the events lack ("sched_switch events"). */
char *ftl_cli_why_lacking(const FtlCliGlobals *g, FtlTrace *trace, const FtlCounts *selected,
			  const char *lacking);
/* An FTL_ERROR_EMPTY error "CMD: why" (exit 1) for a view asked for what the
 * selected events do not hold (lacking). Returns FALSE. */
gboolean ftl_cli_lacks(const FtlCliGlobals *g, FtlTrace *trace, const FtlCounts *selected,
		       const char *lacking, GError **error);
/* The selection options as given ("--cpu 9 --time 1,2 -e 'irq'"); "" when
 * none. Free with g_free(). */
char *ftl_cli_selection_text(const FtlCliGlobals *g);
/* The same as an FTL_ERROR_EMPTY error "CMD: why" (exit 1): for a command
 * whose whole answer is empty. Returns FALSE. */
gboolean ftl_cli_empty(const FtlCliGlobals *g, FtlTrace *trace, const FtlCounts *selected,
		       const char *cmd, GError **error);

gboolean ftl_cmd_info(const FtlCommand *cmd, int argc, char **argv, GError **error);
gboolean ftl_cmd_index(const FtlCommand *cmd, int argc, char **argv, GError **error);
gboolean ftl_cmd_dump(const FtlCommand *cmd, int argc, char **argv, GError **error);
gboolean ftl_cmd_report(const FtlCommand *cmd, int argc, char **argv, GError **error);
gboolean ftl_cmd_graph(const FtlCommand *cmd, int argc, char **argv, GError **error);
gboolean ftl_cmd_split(const FtlCommand *cmd, int argc, char **argv, GError **error);
gboolean ftl_cmd_markers(const FtlCommand *cmd, int argc, char **argv, GError **error);
gboolean ftl_cmd_diff(const FtlCommand *cmd, int argc, char **argv, GError **error);
gboolean ftl_cmd_stack(const FtlCommand *cmd, int argc, char **argv, GError **error);
gboolean ftl_cmd_record(const FtlCommand *cmd, int argc, char **argv, GError **error);
gboolean ftl_cmd_capture_script(const FtlCommand *cmd, int argc, char **argv, GError **error);
gboolean ftl_cmd_oops(const FtlCommand *cmd, int argc, char **argv, GError **error);
gboolean ftl_cmd_arm_oops(const FtlCommand *cmd, int argc, char **argv, GError **error);
gboolean ftl_cmd_tui(const FtlCommand *cmd, int argc, char **argv, GError **error);
gboolean ftl_cmd_flame(const FtlCommand *cmd, int argc, char **argv, GError **error);
gboolean ftl_cmd_export(const FtlCommand *cmd, int argc, char **argv, GError **error);
gboolean ftl_cmd_sched(const FtlCommand *cmd, int argc, char **argv, GError **error);
gboolean ftl_cmd_timeline(const FtlCommand *cmd, int argc, char **argv, GError **error);
gboolean ftl_cmd_plot(const FtlCommand *cmd, int argc, char **argv, GError **error);
gboolean ftl_cmd_fleet(const FtlCommand *cmd, int argc, char **argv, GError **error);
