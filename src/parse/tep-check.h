/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What libtraceevent 1.7 (Debian 12: 1.7.1) crashes or reads outside its
 * input on, checked by ftlens before the call (tep-check.c). */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef enum {
	FTL_TEP_FORMAT_OK,	 /* given to the library as it is */
	FTL_TEP_FORMAT_NO_PRINT, /* its print fmt emptied: fields read, no text */
	FTL_TEP_FORMAT_REFUSED,	 /* not given: its events stay unknown */
} FtlTepFormatVerdict;

/* What tep_parse_event() may be given of the event format text[0..len)
 * (cut at its first NUL, as the library reads it). REFUSED when a byte
 * before its print fmt is one the library's tokenizer reads as a NULL token
 * (not ASCII, not printable). NO_PRINT when its print fmt does
 * not have the shape the library reads safely (brackets balanced, literals
 * whole, plain bytes, table entries "{ VALUE, "TEXT" }") or names a field
 * (REC->NAME) its fields do not declare: libtraceevent 1.7 dereferences
 * NULL on each of those (tep-check.c says which input showed it). */
FtlTepFormatVerdict ftl_tep_format_check(const char *text, gsize len);

/* ftl_tep_format_check(text, len), and for NO_PRINT a copy in *safe
 * (*safe_len bytes, g_free()) whose print fmt is empty, so that the fields
 * are still read and only the library's payload text is lost; *safe is
 * NULL otherwise. */
FtlTepFormatVerdict ftl_tep_format_safe(const char *text, gsize len, char **safe,
					gsize *safe_len);

/* libtraceevent's own definition of name (the one ftlens's overrides pass
 * the call on to). */
gpointer ftl_tep_next(const char *name);

/* libtraceevent 1.7's format parser keeps state between calls in static
 * variables (is_flag_field, is_symbolic_field: set at a __print_flags or
 * __print_symbolic, taken by the next REC->field), shared by every handle:
 * two threads parsing formats at once (the TUI's model and Events threads,
 * each reading its own handle of one trace.dat, parse formats as records
 * first need them) race on them. Each parse in the process holds this
 * lock (ftlens's tep_parse_event(), rawdir's tep_parse_format()). */
void ftl_tep_parse_lock(void);
/* The lines of a printk_formats text that ftlens's tep_parse_printk_formats()
 * passes on to the library (g_free). */
char *ftl_tep_printk_safe(const char *text);
void ftl_tep_parse_unlock(void);

G_END_DECLS
