/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The one door for operands: sort by kind once, open through one protocol. */
#include "config.h"

#include "parse/inputs.h"

#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include <glib/gstdio.h>

#include "parse/console.h"
#include "parse/open.h"
#include "parse/rawdir.h"
#include "parse/stacktrace.h"
#include "parse/tracedat.h"
#include "util/error.h"
#include "util/escape.h"
#include "util/input.h"
#include "util/stream.h"

/* What the sniffers see of a file: its start. */
#define INPUTS_HEAD 65536

typedef struct {
	const char *path;
	FtlInputKind kind;
	guint64 line; /* the line that told (stack tables), 0 when none */
	const char *what; /* finer name (stack tables), static; NULL: the kind's */
} InputsOperand;

struct _FtlInputs {
	FtlInputsOptions o;
	GArray *ops; /* InputsOperand, command-line order */
	guint kinds;
	/* a console log read for its ftrace dump */
	FtlConsole *dump_console;
	guint dump;
	GPtrArray *consoles; /* FtlConsole*, one per FTL_INPUT_CONSOLE operand, read lazily */
	char *note;
};

const char *ftl_input_kind_name(FtlInputKind kind)
{
	switch (kind) {
	case FTL_INPUT_EVENTS:
		return "an event trace";
	case FTL_INPUT_CONSOLE:
		return "a kernel console log";
	case FTL_INPUT_STACKS:
		return "stack tracer output";
	case FTL_INPUT_FOLDED:
		return "folded stacks";
	}
	return "an input";
}

const char *ftl_input_kind_readers(FtlInputKind kind)
{
	switch (kind) {
	case FTL_INPUT_EVENTS:
		return "ftlens report";
	case FTL_INPUT_CONSOLE:
		return "ftlens oops";
	case FTL_INPUT_STACKS:
		return "ftlens stack";
	case FTL_INPUT_FOLDED:
		return "ftlens flame";
	}
	return "ftlens";
}

/* A directory: the stack tracer's files (stack_trace without a trace
 * beside it), else an event trace (raw pages, per-CPU files, trace). */
static FtlInputKind inputs_sniff_dir(const char *path)
{
	g_autofree char *st = g_build_filename(path, "stack_trace", NULL);
	g_autofree char *tr = g_build_filename(path, "trace", NULL);
	return g_file_test(st, G_FILE_TEST_EXISTS) && !g_file_test(tr, G_FILE_TEST_EXISTS)
		       ? FTL_INPUT_STACKS
		       : FTL_INPUT_EVENTS;
}

/* The kind of an operand no sniffer claims, or one not looked at: an
 * event trace for a command that reads events, else the command's own
 * kind, whose reader says what is wrong with it. */
static FtlInputKind inputs_fallback(guint accept)
{
	return accept & FTL_INPUT_EVENTS    ? FTL_INPUT_EVENTS
	       : accept & FTL_INPUT_CONSOLE ? FTL_INPUT_CONSOLE
	       : accept & FTL_INPUT_STACKS  ? FTL_INPUT_STACKS
					    : FTL_INPUT_FOLDED;
}

/* A pipe, FIFO or device: what a look at it reads is gone for the reader
 * after it. Standard input can be spooled first (inputs_stdin); a named
 * one is taken as the command's own kind, unlooked at. */
static gboolean inputs_is_stream(const char *path)
{
	if (!strcmp(path, "-"))
		return TRUE;
	/* tracefs's trace_pipe and trace_pipe_raw are regular files that block
	 * while the buffer is empty: the opener refuses them, unread */
	g_autofree char *base = g_path_get_basename(path);
	if (g_str_has_prefix(base, "trace_pipe") && ftl_rawdir_is_live_tracefs(path))
		return TRUE;
	GStatBuf st;
	return g_stat(path, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode);
}

/* One look at the start of a file. Text that no sniffer claims is an event
 * trace for a command that reads events, a console log for one that reads
 * only logs (a log without printk times is still a log to `oops`); the
 * event parser's own errors say what is wrong with it. */
static gboolean inputs_sniff(const FtlInputs *in, InputsOperand *op, GError **error)
{
	if (g_strcmp0(op->path, "-") != 0 && g_file_test(op->path, G_FILE_TEST_IS_DIR)) {
		op->kind = inputs_sniff_dir(op->path);
		return TRUE;
	}
	g_autoptr(FtlStream) s = ftl_stream_open(op->path, error);
	if (!s)
		return FALSE;
	gsize n;
	const char *head = ftl_stream_peek(s, INPUTS_HEAD, &n, error);
	if (!head)
		return FALSE;
	guint accept = in->o.accept;
	FtlStackInput stack;
	if (ftl_tracedat_sniff(head, n)) {
		op->kind = FTL_INPUT_EVENTS;
		op->what = "a trace.dat (an event trace)";
	}
	else if ((stack = ftl_stacktrace_sniff(head, n, &op->line)) != FTL_STACK_INPUT_NONE) {
		op->kind = FTL_INPUT_STACKS;
		op->what = ftl_stacktrace_input_name(stack);
	} else if (ftl_folded_sniff(head, n))
		op->kind = FTL_INPUT_FOLDED;
	else if (ftl_console_sniff(head, n))
		op->kind = FTL_INPUT_CONSOLE;
	else
		op->kind = inputs_fallback(accept);
	return TRUE;
}

/* "CMD: 'x': line 1: a stack_trace table, not an event trace; read it
 * with 'ftlens stack'" */
static gboolean inputs_refuse(const FtlInputs *in, const InputsOperand *op, GError **error)
{
	g_autofree char *where =
		op->line ? g_strdup_printf(": line %" G_GUINT64_FORMAT, op->line) : g_strdup("");
	guint want = in->o.accept & FTL_INPUT_EVENTS	? FTL_INPUT_EVENTS
		     : in->o.accept & FTL_INPUT_CONSOLE ? FTL_INPUT_CONSOLE
		     : in->o.accept & FTL_INPUT_STACKS	? FTL_INPUT_STACKS
							: FTL_INPUT_FOLDED;
	g_set_error(error, FTL_ERROR, FTL_ERROR_FORMAT, "%s: '%s'%s: %s, not %s; read it with '%s'",
		    in->o.command, op->path, where, op->what ? op->what : ftl_input_kind_name(op->kind),
		    ftl_input_kind_name(want), ftl_input_kind_readers(op->kind));
	return FALSE;
}

/* A console log given to a command that reads events: its ftrace dump is
 * the trace (the first with lines in it, or --dump N), said in a note. */
static gboolean inputs_take_dump(FtlInputs *in, const InputsOperand *op, GError **error)
{
	if (in->dump_console || in->ops->len > 1) {
		g_set_error(error, FTL_ERROR, FTL_ERROR_USAGE,
			    "%s: '%s' is a console log: its ftrace dump is read alone, without "
			    "other inputs",
			    in->o.command, op->path);
		return FALSE;
	}
	g_autoptr(FtlConsole) con = ftl_console_read(op->path, &in->o.read, error);
	if (!con)
		return FALSE;
	guint nd = con->dumps->len;
	if (in->o.dump > nd) {
		g_set_error(error, FTL_ERROR, FTL_ERROR_USAGE, "%s: --dump %u: '%s' has %u ftrace dump%s",
			    in->o.command, in->o.dump, op->path, nd, nd == 1 ? "" : "s");
		return FALSE;
	}
	g_autoptr(GError) local = NULL;
	if (!ftl_console_pick_dump(con, (gint)in->o.dump, &in->dump, &local)) {
		g_set_error(error, FTL_ERROR, FTL_ERROR_EMPTY,
			    "%s: %s: a console log without events; try 'ftlens oops' for its "
			    "kernel reports",
			    in->o.command, local->message);
		return FALSE;
	}
	in->note = g_strdup_printf("'%s' is a console log: reading its ftrace dump %u of %u "
				   "(--dump N reads another)",
				   op->path, in->dump + 1, nd);
	in->dump_console = g_steal_pointer(&con);
	return TRUE;
}

/* Kinds that one command run may combine: several event files (per-CPU
 * files), several stack files, several folded files; the TUI, which reads
 * every kind, takes events, stacks and one console log together. */
static gboolean inputs_check_mix(const FtlInputs *in, GError **error)
{
	guint k = in->kinds;
	gboolean tui_like = (in->o.accept & FTL_INPUT_CONSOLE) && (in->o.accept & FTL_INPUT_EVENTS);
	if (k & FTL_INPUT_FOLDED && k & ~FTL_INPUT_FOLDED) {
		g_set_error(error, FTL_ERROR, FTL_ERROR_USAGE,
			    "%s: folded stacks and %s cannot be drawn together: give one kind",
			    in->o.command,
			    ftl_input_kind_name(k & FTL_INPUT_EVENTS ? FTL_INPUT_EVENTS
								  : FTL_INPUT_STACKS));
		return FALSE;
	}
	if (!tui_like && (k & FTL_INPUT_STACKS) && (k & ~FTL_INPUT_STACKS)) {
		g_set_error(error, FTL_ERROR, FTL_ERROR_USAGE,
			    "%s: stack tracer output and %s cannot be read together: give one kind",
			    in->o.command, ftl_input_kind_name(k & FTL_INPUT_EVENTS ? FTL_INPUT_EVENTS
									    : FTL_INPUT_CONSOLE));
		return FALSE;
	}
	if (ftl_inputs_n(in, FTL_INPUT_CONSOLE) > 1 && tui_like) {
		g_set_error(error, FTL_ERROR, FTL_ERROR_USAGE, "%s: '%s': one console log at a time",
			    in->o.command, ftl_inputs_path(in, FTL_INPUT_CONSOLE, 1));
		return FALSE;
	}
	return TRUE;
}

/* Standard input is read twice when the kind must be sniffed first (a
 * command that reads more than one kind) or the caller reads the events
 * twice; else the event reader streams it as it comes. */
static gboolean inputs_stdin(const FtlInputsOptions *o, char **paths, guint n, gboolean *sniff,
			     GError **error)
{
	gboolean has = FALSE;
	for (guint i = 0; i < n; i++)
		has |= !strcmp(paths[i], "-");
	*sniff = (o->accept & (o->accept - 1)) != 0;
	if (!has || (!*sniff && !o->read_twice))
		return TRUE;
	return ftl_input_spool_stdin(&o->read, error);
}

FtlInputs *ftl_inputs_sort(const FtlInputsOptions *o, char **paths, guint n, GError **error)
{
	if (n == 0) {
		g_set_error(error, FTL_ERROR, FTL_ERROR_USAGE,
			    "%s: no input file given (try 'ftlens help %s')", o->command, o->command);
		return NULL;
	}
	g_autoptr(FtlInputs) in = g_new0(FtlInputs, 1);
	in->o = *o;
	in->ops = g_array_new(FALSE, TRUE, sizeof(InputsOperand));
	in->consoles = g_ptr_array_new_with_free_func((GDestroyNotify)ftl_console_free);
	gboolean sniff_stdin;
	if (!inputs_stdin(o, paths, n, &sniff_stdin, error))
		return NULL;
	for (guint i = 0; i < n; i++) {
		InputsOperand op = { paths[i], inputs_fallback(o->accept), 0, NULL };
		/* a stream read once is not looked at before its reader; standard
		 * input, spooled, is */
		gboolean look = !inputs_is_stream(paths[i]) || (!strcmp(paths[i], "-") && sniff_stdin);
		if (look && !inputs_sniff(in, &op, error))
			return NULL;
		g_array_append_val(in->ops, op);
	}
	for (guint i = 0; i < in->ops->len; i++) {
		InputsOperand *op = &g_array_index(in->ops, InputsOperand, i);
		if (op->kind == FTL_INPUT_CONSOLE && !(o->accept & FTL_INPUT_CONSOLE) &&
		    (o->accept & FTL_INPUT_EVENTS)) {
			if (!inputs_take_dump(in, op, error))
				return NULL;
			op->kind = FTL_INPUT_EVENTS;
		} else if (!(op->kind & o->accept)) {
			inputs_refuse(in, op, error);
			return NULL;
		}
		in->kinds |= op->kind;
	}
	if (!inputs_check_mix(in, error))
		return NULL;
	return g_steal_pointer(&in);
}

void ftl_inputs_free(FtlInputs *in)
{
	if (!in)
		return;
	g_array_unref(in->ops);
	g_ptr_array_unref(in->consoles);
	if (in->dump_console)
		ftl_console_free(in->dump_console);
	g_free(in->note);
	g_free(in);
}

guint ftl_inputs_kinds(const FtlInputs *in)
{
	return in->kinds;
}

guint ftl_inputs_n(const FtlInputs *in, FtlInputKind kind)
{
	guint n = 0;
	for (guint i = 0; i < in->ops->len; i++)
		n += g_array_index(in->ops, InputsOperand, i).kind == kind;
	return n;
}

const char *ftl_inputs_path(const FtlInputs *in, FtlInputKind kind, guint i)
{
	for (guint j = 0; j < in->ops->len; j++) {
		const InputsOperand *op = &g_array_index(in->ops, InputsOperand, j);
		if (op->kind == kind && i-- == 0)
			return op->path;
	}
	return NULL;
}

const char *ftl_inputs_note(const FtlInputs *in)
{
	return in->note;
}

/* The console whose dump is the event trace: a console log read as events,
 * or a command reading consoles (the TUI) given one with a dump. */
static const FtlConsole *inputs_event_console(FtlInputs *in, guint *dump)
{
	if (in->dump_console) {
		*dump = in->dump;
		return in->dump_console;
	}
	if (ftl_inputs_n(in, FTL_INPUT_EVENTS) || !ftl_inputs_n(in, FTL_INPUT_CONSOLE))
		return NULL;
	const FtlConsole *con = ftl_inputs_console(in, 0, NULL);
	if (!con || in->o.dump > con->dumps->len ||
	    !ftl_console_pick_dump(con, (gint)in->o.dump, dump, NULL))
		return NULL;
	return con;
}

gboolean ftl_inputs_has_events(const FtlInputs *in)
{
	guint d;
	return ftl_inputs_n(in, FTL_INPUT_EVENTS) > 0 ||
	       inputs_event_console((FtlInputs *)in, &d) != NULL;
}

/* The event operands as one trace, index not yet attached. */
static FtlTrace *inputs_open_events(FtlInputs *in, FtlOpenFlags flags, GError **error)
{
	guint d;
	const FtlConsole *con = inputs_event_console(in, &d);
	if (con)
		return ftl_console_dump_open(con, d, flags, &in->o.read, error);
	guint n = ftl_inputs_n(in, FTL_INPUT_EVENTS);
	if (!n) {
		g_set_error(error, FTL_ERROR, FTL_ERROR_USAGE, "%s: no event trace among the inputs",
			    in->o.command);
		return NULL;
	}
	g_autofree const char **paths = g_new0(const char *, n + 1);
	for (guint i = 0; i < n; i++)
		paths[i] = ftl_inputs_path(in, FTL_INPUT_EVENTS, i);
	return ftl_trace_open_buffer(paths, n, flags, in->o.buffer, &in->o.read, error);
}

static void inputs_why(const FtlInputs *in, char *why)
{
	if (in->o.verbose && why)
		ftl_escape_fputs(why, stderr), fputc('\n', stderr);
	g_free(why);
}

FtlTrace *ftl_inputs_open_trace(FtlInputs *in, gint64 t_start, gint64 t_end, FtlOpenFlags more,
				GError **error)
{
	FtlOpenFlags flags = in->o.flags | more;
	FtlTrace *trace = inputs_open_events(in, flags, error);
	if (!trace)
		return NULL;
	char *why = NULL;
	FtlIndexState st = ftl_text_index_attach(trace, t_start, t_end, in->o.index,
						 in->o.index_stride, &why);
	inputs_why(in, why);
	if (st == FTL_INDEX_REFUSED) {
		/* the source seeked and found the cache wrong: read it all */
		ftl_trace_free(trace);
		trace = inputs_open_events(in, flags, error);
	}
	return trace;
}

FtlTrace *ftl_inputs_open_seekable(FtlInputs *in, FtlOpenFlags more, GError **error)
{
	FtlOpenFlags flags = in->o.flags | more;
	FtlTrace *trace = inputs_open_events(in, flags, error);
	/* the Events list seeks with a fresh index; a large file without one
	 * gets it from the pass that reads it to the end */
	if (trace && ftl_text_index_attach_seekable(trace, in->o.index, in->o.index_stride, NULL) ==
			     FTL_INDEX_REFUSED) {
		ftl_trace_free(trace);
		trace = inputs_open_events(in, flags, error);
	}
	return trace;
}

const FtlConsole *ftl_inputs_console(FtlInputs *in, guint i, GError **error)
{
	guint n = ftl_inputs_n(in, FTL_INPUT_CONSOLE);
	g_return_val_if_fail(i < n, NULL);
	if (in->consoles->len < n)
		g_ptr_array_set_size(in->consoles, n);
	if (!g_ptr_array_index(in->consoles, i)) {
		FtlConsole *con = ftl_console_read(ftl_inputs_path(in, FTL_INPUT_CONSOLE, i), &in->o.read,
						 error);
		if (!con)
			return NULL;
		g_ptr_array_index(in->consoles, i) = con;
	}
	return g_ptr_array_index(in->consoles, i);
}

FtlTrace *ftl_inputs_open_dump(const FtlInputs *in, const FtlConsole *con, guint d,
			       FtlOpenFlags flags, GError **error)
{
	return ftl_console_dump_open(con, d, flags, &in->o.read, error);
}

char *ftl_inputs_dump_text(const FtlConsole *con, guint d, gsize *len)
{
	return ftl_console_dump_text(con, d, len);
}

gboolean ftl_inputs_read_stack(const FtlInputs *in, guint i, FtlStackSet *set, GError **error)
{
	return ftl_stacktrace_read(set, ftl_inputs_path(in, FTL_INPUT_STACKS, i), &in->o.read,
				   error);
}

void ftl_inputs_stacks_finish(FtlStackSet *set)
{
	ftl_stacktrace_finish(set);
}

gboolean ftl_inputs_read_stacks(const FtlInputs *in, FtlStackSet *set, GError **error)
{
	for (guint i = 0; i < ftl_inputs_n(in, FTL_INPUT_STACKS); i++)
		if (!ftl_inputs_read_stack(in, i, set, error))
			return FALSE;
	ftl_stacktrace_finish(set);
	return TRUE;
}

gboolean ftl_inputs_read_folded(const FtlInputs *in, guint i, FtlFoldedFunc func, gpointer data,
				gint64 *total, GError **error)
{
	return ftl_folded_read(ftl_inputs_path(in, FTL_INPUT_FOLDED, i), func, data, total, error);
}
