/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The one door for operands: every command hands its operands here, which
 * sorts each by kind (event trace of any dialect or binary form, console
 * log, stack tracer tables, folded stacks) from one look at its content,
 * spools standard input once when it must be read twice, refuses a kind the
 * command does not read with a message naming the command that does, and
 * opens the event trace with its sparse index (reopening when the index is
 * refused) or the ftrace dump of a console log. cli/ decides nothing about
 * what a file is. */
#pragma once

#include <glib.h>

#include "model/console.h"
#include "model/stack.h"
#include "model/trace.h"
#include "parse/folded.h"
#include "parse/text-index.h"

typedef enum {
	FTL_INPUT_EVENTS = 1u << 0,  /* text of any dialect, trace.dat, raw or per-CPU dirs */
	FTL_INPUT_CONSOLE = 1u << 1, /* a kernel console log (reports, ftrace dumps) */
	FTL_INPUT_STACKS = 1u << 2,  /* stack_trace tables, stack_max_size, stack series */
	FTL_INPUT_FOLDED = 1u << 3,  /* folded stacks (stackcollapse's output) */
} FtlInputKind;

/* "an event trace", "a console log", ...: for messages. */
const char *ftl_input_kind_name(FtlInputKind kind);
/* The command that reads a kind, for messages: "ftlens stack". */
const char *ftl_input_kind_readers(FtlInputKind kind);

typedef struct {
	const char *command; /* names the command in messages */
	/* FtlInputKind bits the command reads. With FTL_INPUT_EVENTS and not
	 * FTL_INPUT_CONSOLE, a console log is an event input: its ftrace dump
	 * is read (dump picks which). */
	guint accept;
	FtlOpenFlags flags;
	const char *buffer;  /* --buffer NAME, or NULL */
	FtlIndexUse index;   /* the sparse index of a single text file */
	guint index_stride;  /* > 0: a new index gets a point every stride events */
	guint dump;	     /* --dump N: the Nth ftrace dump of a console log; 0: the
			      * first with lines in it */
	gboolean read_twice; /* the caller reads the events more than once (a
			      * --relative-to pre-pass): standard input is spooled */
	gboolean verbose;    /* say why an index was or was not used (stderr) */
	FtlReadOptions read; /* -j and --max-expand: how every input is read */
} FtlInputsOptions;

typedef struct _FtlInputs FtlInputs;

/* Sorts paths (borrowed: they must outlive the result) by kind. An operand
 * of a kind o->accept lacks, a mix the command cannot combine, or none at
 * all is an error naming the operand (FTL_ERROR_USAGE when no operand is
 * given; FTL_ERROR_FORMAT for a refused kind). o is copied; its strings
 * are borrowed. Free with ftl_inputs_free(). */
FtlInputs *ftl_inputs_sort(const FtlInputsOptions *o, char **paths, guint n, GError **error);
void ftl_inputs_free(FtlInputs *in);

/* The kinds present (FtlInputKind bits; a console log read for its dump
 * counts as FTL_INPUT_EVENTS). */
guint ftl_inputs_kinds(const FtlInputs *in);
/* Operands of one kind, in command-line order. */
guint ftl_inputs_n(const FtlInputs *in, FtlInputKind kind);
const char *ftl_inputs_path(const FtlInputs *in, FtlInputKind kind, guint i);
/* What a person should know about how the operands were read, e.g. which
 * ftrace dump of a console log; NULL when nothing. Borrowed. */
const char *ftl_inputs_note(const FtlInputs *in);

/* Opens the event operands (or the chosen dump of the console log read as
 * events) as one trace for a pass over [t_start, t_end] (FTL_TS_NONE: an
 * open side), with the sparse index used or built as o->index says and the
 * trace opened again when the cached index is refused. more adds open
 * flags. Free with ftl_trace_free(). */
FtlTrace *ftl_inputs_open_trace(FtlInputs *in, gint64 t_start, gint64 t_end, FtlOpenFlags more,
				GError **error);
/* The same for a reader that jumps about in the whole trace (the TUI):
 * the index stays with the trace for ftl_trace_seek_event(). */
FtlTrace *ftl_inputs_open_seekable(FtlInputs *in, FtlOpenFlags more, GError **error);
/* Whether there is an event trace to open (event operands, or a console
 * log with a dump read as events, or a console log of a command that reads
 * consoles and holds a dump). */
gboolean ftl_inputs_has_events(const FtlInputs *in);

/* Console operand i (FTL_INPUT_CONSOLE), read on first call and kept.
 * Borrowed; lives as long as in. */
const FtlConsole *ftl_inputs_console(FtlInputs *in, guint i, GError **error);
/* Opens dump d of con as a trace (the text parser reads it); free with
 * ftl_trace_free(). */
FtlTrace *ftl_inputs_open_dump(const FtlInputs *in, const FtlConsole *con, guint d,
			       FtlOpenFlags flags, GError **error);
/* The recovered text of dump d (free with g_free()). */
char *ftl_inputs_dump_text(const FtlConsole *con, guint d, gsize *len);

/* Reads stack operand i into set (FTL_INPUT_STACKS). After the last one,
 * ftl_inputs_stacks_finish() pairs lone stack_max_size values with tables
 * and checks them. */
gboolean ftl_inputs_read_stack(const FtlInputs *in, guint i, FtlStackSet *set, GError **error);
void ftl_inputs_stacks_finish(FtlStackSet *set);
/* All stack operands, then finished. */
gboolean ftl_inputs_read_stacks(const FtlInputs *in, FtlStackSet *set, GError **error);

/* Reads folded operand i, calling func per line (parse/folded.h); *total
 * adds the weights. */
gboolean ftl_inputs_read_folded(const FtlInputs *in, guint i, FtlFoldedFunc func, gpointer data,
				gint64 *total, GError **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC(FtlInputs, ftl_inputs_free)
