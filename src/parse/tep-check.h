/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What libtraceevent 1.7 (Debian 12: 1.7.1) crashes or reads outside its
 * input on, checked by ftlens before the call (tep-check.c). */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Whether tep_parse_event() may be given the event format text[0..len):
 * FALSE when its print fmt names a field (REC->NAME) its fields do not
 * declare, on which libtraceevent 1.7 dereferences NULL when a
 * __print_flags() or __print_symbolic() is pending (that state outlives
 * the format: any earlier format may have left it). */
gboolean ftl_tep_format_checked(const char *text, gsize len);

/* text[0..len) as tep_parse_event() may be given it: NULL when
 * ftl_tep_format_checked() passes it as it is, else a copy (*out_len
 * bytes, g_free()) whose print fmt is replaced by an empty one, so that the
 * fields are still read and only the library's payload text is lost. */
char *ftl_tep_format_safe(const char *text, gsize len, gsize *out_len);

/* libtraceevent's own definition of name (the one ftlens's overrides pass
 * the call on to). */
gpointer ftl_tep_next(const char *name);

G_END_DECLS
