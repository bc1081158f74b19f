/* SPDX-License-Identifier: GPL-2.0-or-later */
/* One-line titles for kernel reports, following the conventions syzbot uses
 * ("KASAN: use-after-free Read in foo", "WARNING in foo", "INFO: task hung in
 * foo"), so that a title found by ftlens can be searched for on syzbot and in
 * mailing list archives. Used by analysis/oops.c. */
#pragma once

#include <glib.h>

typedef struct _FtlOopsTitler FtlOopsTitler;

/* Compiles the rules. Free with ftl_oops_titler_free(). */
FtlOopsTitler *ftl_oops_titler_new(void);
void ftl_oops_titler_free(FtlOopsTitler *t);

/* The report family a console line opens ("BUG:", "WARNING:", "Kernel
 * panic"...), or -1. Lines that merely mention a family are not headers
 * ("ODEBUG:", "WARNING: /etc/ssh/moduli does not exist"...). */
gint ftl_oops_titler_header(const FtlOopsTitler *t, const char *line);
/* The family's header text ("BUG:"), static. */
const char *ftl_oops_family_header(gint family);

/* The title of a report of family (from ftl_oops_titler_header()) whose
 * text (its lines from the header on, joined with '\n') is given. *frame gets
 * the function the title blames (g_free()), or NULL; *corrupted is set when
 * the report is too damaged for the title's rule. Returns a new string. */
char *ftl_oops_titler_title(const FtlOopsTitler *t, gint family, const char *text, char **frame,
			    gboolean *corrupted);

/* Normalizes a title as syzbot does: addresses become ADDR, numbers NUM,
 * source lines LINE, function offsets are dropped, control characters and
 * runs of blanks go, at most 120 bytes. Returns a new string. */
char *ftl_oops_title_normalize(const FtlOopsTitler *t, const char *title);

G_DEFINE_AUTOPTR_CLEANUP_FUNC(FtlOopsTitler, ftl_oops_titler_free)
