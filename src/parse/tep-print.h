/* SPDX-License-Identifier: GPL-2.0-or-later */
/* An event's print format compiled once into steps that render its payload
 * text the way libtraceevent 1.7's tep_print_event() does, without it.
 * Private to parse/ (tep.c). */
#pragma once

#include <glib.h>

#include <string.h>

/* An unsigned number of size bytes (1, 2, 4 or 8; anything else reads 8)
 * at p, byte-swapped when swap: how the decoder and the compiled print
 * formats read a record's fields. */
static inline guint64 ftl_tep_read_uint(const guchar *p, guint size, gboolean swap)
{
	switch (size) {
	case 1:
		return p[0];
	case 2: {
		guint16 v;
		memcpy(&v, p, 2);
		return swap ? GUINT16_SWAP_LE_BE(v) : v;
	}
	case 4: {
		guint32 v;
		memcpy(&v, p, 4);
		return swap ? GUINT32_SWAP_LE_BE(v) : v;
	}
	default: {
		guint64 v;
		memcpy(&v, p, 8);
		return swap ? GUINT64_SWAP_LE_BE(v) : v;
	}
	}
}

struct tep_event;
struct tep_handle;

typedef struct _FtlTepPrint FtlTepPrint;

/* The program for event's print fmt, or NULL when the format is outside
 * the subset rendered here (helper calls other than __print_symbolic,
 * arithmetic, casts not proven neutral, %pS-like pointers other than
 * %ps/%pS, precision, '*' widths, event handlers, bprint): the library
 * renders those events. */
FtlTepPrint *ftl_tep_print_compile(struct tep_event *event, struct tep_handle *tep);
void ftl_tep_print_free(FtlTepPrint *p);

/* Whether p names functions (%ps/%pS): kallsyms must be parsed first. */
gboolean ftl_tep_print_wants_functions(const FtlTepPrint *p);

/* Appends the payload of a record (size bytes at data) to out. FALSE, out
 * unchanged, when this record needs the library (a field beyond the
 * record, a string without its NUL): only the library's answer is right
 * there, whatever it is. */
gboolean ftl_tep_print_run(const FtlTepPrint *p, struct tep_handle *tep, const guchar *data,
			   gint size, GString *out);
