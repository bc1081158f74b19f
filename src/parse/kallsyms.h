/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A file's kallsyms as one compact table behind libtraceevent's function
 * resolver, shared by every trace of the process opened on the same text
 * (the TUI opens a trace.dat twice: its Events list and its model).
 * Private to parse/. */
#pragma once

#include <glib.h>

struct tep_handle;

typedef struct _FtlKallsyms FtlKallsyms;

/* The table of the NUL-terminated kallsyms text: the one already held
 * when a trace of the same text is open (text is then not copied), else a
 * new one keeping a copy of text until a name is first asked for. A new
 * reference; ftl_kallsyms_unref() it. Thread-safe. */
FtlKallsyms *ftl_kallsyms_share(const char *text);
void ftl_kallsyms_unref(FtlKallsyms *k);
/* Another reference to k. */
FtlKallsyms *ftl_kallsyms_ref(FtlKallsyms *k);

/* Makes tep find functions in k (tep_set_function_resolver()), the table
 * built from the text the first time any tep asks. The names found are
 * libtraceevent's own: the text parsed as tep_parse_kallsyms() does and
 * searched as its map is. k must outlive tep's lookups. */
void ftl_kallsyms_attach(FtlKallsyms *k, struct tep_handle *tep);

/* The function containing addr as tep would find it after
 * tep_parse_kallsyms() (NULL when none), *start its address. Builds the
 * table when needed. The name lives as long as k. */
const char *ftl_kallsyms_find(FtlKallsyms *k, guint64 addr, guint64 *start);

/* Symbols in the table (building it), for tests and figures. */
guint ftl_kallsyms_count(FtlKallsyms *k);
