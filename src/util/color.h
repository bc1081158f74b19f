/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The one place that decides whether text output is coloured and with
 * which codes: --color auto|always|never, NO_COLOR, and the roles a view
 * may colour (headers, durations by magnitude, lost/repaired rows).
 *
 * Colour codes are ftlens's own bytes, added around text that is already
 * visible (util/escape.h): a view escapes trace text first, then wraps it,
 * so nothing from a trace can ever choose or end a colour. */
#pragma once

#include <glib.h>

typedef enum {
	FTL_COLOR_AUTO,
	FTL_COLOR_ALWAYS,
	FTL_COLOR_NEVER,
} FtlColorWhen;

typedef enum {
	FTL_COLOR_NONE,	  /* no colour: ftl_color_code() gives "" */
	FTL_COLOR_HEADER, /* table headers and section titles */
	FTL_COLOR_ALERT,  /* rows with lost events or repaired calls */
	/* durations by the kernel's function_graph marks (trace_output.c's
	 * trace_find_mark: strictly more than the threshold) */
	FTL_COLOR_DUR_10US,  /* '+' > 10 us */
	FTL_COLOR_DUR_100US, /* '!' > 100 us */
	FTL_COLOR_DUR_1MS,   /* '#' > 1 ms */
	FTL_COLOR_DUR_10MS,  /* '*' > 10 ms */
	FTL_COLOR_DUR_100MS, /* '@' > 100 ms */
	FTL_COLOR_DUR_1S,    /* '$' > 1 s */
} FtlColorRole;

/* "auto", "always" or "never" (NULL: auto); FALSE for anything else. */
gboolean ftl_color_parse(const char *text, FtlColorWhen *out);
/* Whether output to fd is coloured, decided once by the command line
 * before any output (and before a pager takes stdout): always; never;
 * auto = fd is a terminal, TERM is set and not "dumb", and NO_COLOR is
 * unset or empty (https://no-color.org). The views get the answer (their
 * text style), not a setting of the process. */
gboolean ftl_color_decide(FtlColorWhen when, int fd);
/* The role of a duration of ns nanoseconds (FTL_COLOR_NONE up to 10 us). */
FtlColorRole ftl_color_duration_role(gint64 ns);
/* The SGR sequence that starts role, "" when colour is off (on FALSE) or
 * for NONE; ftl_color_reset() ends it ("" when off). Static strings. */
const char *ftl_color_code(gboolean on, FtlColorRole role);
const char *ftl_color_reset(gboolean on);
/* Appends visible (already escaped) text to out wrapped in role's colour. */
void ftl_color_append(GString *out, gboolean on, FtlColorRole role, const char *visible);
