/* SPDX-License-Identifier: GPL-2.0-or-later */
/* An event's print format compiled once into steps that render its payload
 * text the way libtraceevent 1.7's tep_print_event() does, without it.
 * Private to parse/ (tep.c). */
#pragma once

#include <glib.h>

#include "parse/kallsyms.h"
#include "parse/tep.h"

struct tep_event;
struct tep_handle;

typedef struct _FtlTepPrint FtlTepPrint;

/* The program for event's print fmt, or NULL when the format is outside
 * the subset rendered here (helper calls other than __print_symbolic,
 * arithmetic, casts not proven neutral, %pS-like pointers other than
 * %ps/%pS, precision, '*' widths, event handlers, bprint, a %s of a
 * pointer-sized field without printk): the library renders those events.
 * printk: the printk strings tep was given (a reference is taken), or NULL. */
FtlTepPrint *ftl_tep_print_compile(struct tep_event *event, struct tep_handle *tep,
				   FtlPrintkMap *printk);
void ftl_tep_print_free(FtlTepPrint *p);

/* Whether p names functions (%ps/%pS): kallsyms must be parsed first. */
gboolean ftl_tep_print_wants_functions(const FtlTepPrint *p);

/* Appends the payload of a record (size bytes at data) to out. FALSE, out
 * unchanged, when this record needs the library (a field beyond the
 * record, a string without its NUL): only the library's answer is right
 * there, whatever it is. Functions are looked up in ks when it is given
 * (the table tep's resolver reads: thread-safe, so a page reader's worker
 * may run p), else through tep (the tep's thread only). */
gboolean ftl_tep_print_run(const FtlTepPrint *p, struct tep_handle *tep, FtlKallsyms *ks,
			   const guchar *data, gint size, GString *out);
