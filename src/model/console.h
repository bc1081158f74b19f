/* SPDX-License-Identifier: GPL-2.0-or-later */
/* FtlConsole: a kernel console capture (serial console, dmesg, syslog) as the
 * messages the kernel printed, with their prefixes taken off, and the ftrace
 * dumps found in it. parse/console.c fills one; analyses read it. */
#pragma once

#include <glib.h>

#include "model/diag.h"
#include "util/timefmt.h"

typedef enum {
	FTL_CONSOLE_LINE_CUT = 1u << 0,	   /* ends early: another message began on it, or EOF */
	FTL_CONSOLE_LINE_SPLIT = 1u << 1,  /* began in the middle of an input line */
	FTL_CONSOLE_LINE_BINARY = 1u << 2, /* held control or NUL bytes (now '?') */
	FTL_CONSOLE_LINE_DUMP = 1u << 3,   /* content of an ftrace dump */
} FtlConsoleLineFlags;

typedef struct {
	const char *text; /* NUL-terminated message text, prefixes removed */
	guint32 len;
	guint32 flags;	  /* FtlConsoleLineFlags */
	guint64 lineno;	  /* 1-based line of the input it came from */
	gint64 ts;	  /* printk time in ns; FTL_TS_NONE when none */
	gint32 caller;	  /* the N of a [TN] / [CN] caller id, -1 when none */
	char caller_kind; /* 'T' (task), 'C' (CPU) or 0 */
	gint8 level;	  /* console log level 0-7 from <N> or syslog, -1 when none */
} FtlConsoleLine;

/* One "Dumping ftrace buffer:" section. */
typedef struct {
	char *instance;	 /* "Dumping ftrace instance NAME buffer:", NULL for the top buffer */
	guint header;	 /* index in lines of the "Dumping ..." line */
	guint end;	 /* index of its last line (closing delimiter, or last content) */
	GArray *content; /* guint line indexes of the recovered trace lines, in order */
	gboolean empty;	 /* the kernel said "(ftrace buffer empty)" */
	gboolean closed; /* the closing "-----" line was seen */
	guint skipped;	 /* lines of other messages printed inside, left out */
} FtlConsoleDump;

typedef struct {
	char *path;	     /* as given */
	GArray *lines;	     /* FtlConsoleLine, in input order */
	GPtrArray *dumps;    /* FtlConsoleDump*, in input order */
	FtlDiags *diags;     /* cut lines, binary bytes, dumps without an end... */
	guint64 n_input;     /* input lines read */
	gboolean has_ts;     /* some line carries a printk time */
	gboolean has_caller; /* some line carries a [T..]/[C..] caller id */
	/* private */
	GStringChunk *text;
} FtlConsole;

/* An empty console for path. Free with ftl_console_free(). */
FtlConsole *ftl_console_new(const char *path);
void ftl_console_free(FtlConsole *c);
/* Appends a line; text (len bytes, no NUL needed) is copied. Returns it; the
 * pointer lives until the next append. */
FtlConsoleLine *ftl_console_append(FtlConsole *c, const char *text, gsize len);
static inline const FtlConsoleLine *ftl_console_line(const FtlConsole *c, guint i)
{
	return &g_array_index(c->lines, FtlConsoleLine, i);
}
/* Whether two lines come from the same printk context: the same caller id,
 * or, without caller ids, both with a time or both without one. */
gboolean ftl_console_same_context(const FtlConsoleLine *a, const FtlConsoleLine *b);
/* The input line (1-based) that line `line` of dump i's recovered trace
 * text (parse/console.h) came from; 0 for its comment line or out of range. */
guint64 ftl_console_dump_input_line(const FtlConsole *c, guint i, guint64 line);
/* The dump `oops --dump N` names (1 = the first; the caller checks N against
 * the count), or with which 0 the first one with lines in it; FALSE with an
 * error naming the log when there is none or it is empty. */
gboolean ftl_console_pick_dump(const FtlConsole *c, gint which, guint *dump, GError **error);
FtlConsoleDump *ftl_console_dump_new(void);
void ftl_console_dump_free(FtlConsoleDump *d);

G_DEFINE_AUTOPTR_CLEANUP_FUNC(FtlConsole, ftl_console_free)
