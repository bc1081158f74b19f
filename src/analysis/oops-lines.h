/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Shared by oops.c, which finds the console lines that make each kernel
 * report, and oops-lines.c, which reads what those lines say. */
#pragma once

#include <glib.h>
#include <string.h>

#include "analysis/oops.h"
#include "model/console.h"

static inline const char *oops_trim(const char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	return s;
}

static inline gboolean oops_ends_with(const char *s, const char *suffix)
{
	gsize n = strlen(s), m = strlen(suffix);
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
		n--;
	return n >= m && memcmp(s + n - m, suffix, m) == 0;
}

/* A context key: the caller id, or whether the line has a printk time. */
static inline gint64 oops_context(const FtlConsoleLine *l)
{
	if (l->caller_kind == 'T')
		return (gint64)l->caller;
	if (l->caller_kind == 'C')
		return ((gint64)1 << 32) | (gint64)l->caller;
	return l->ts != FTL_TS_NONE ? -2 : -1;
}

/* Frees what f holds and zeroes it. */
void ftl_oops_frame_clear(FtlOopsFrame *f);
void ftl_oops_stack_free(FtlOopsStack *s);
/* Frees an array of FtlOopsReg and what they hold. */
void ftl_oops_regs_array_free(GArray *regs);
void ftl_oops_regs_free(FtlOopsRegs *b);
/* After ftl_oops_read_stacks(): each register dump's pc, and r's fault
 * taken from the report's own CPU: a fault line that is another CPU's
 * dump (an NMI backtrace printed with a panic, on a log without caller
 * ids) gives way to the first dump of r's CPU that names one, or none. */
void ftl_oops_read_pcs(FtlOopsReport *r);

/* Fills r's task, kernel, taint, modules, end marker, panic reason, oops
 * line, location and fault from lines (console line indexes of con, the
 * report's own). Fields already set are kept. */
void ftl_oops_read_fields(FtlOopsReport *r, const FtlConsole *con, GArray *lines);
/* Fills r's stack traces and register dumps from the same lines: the
 * lines of each printk context (caller id) are read apart, so a stack
 * holds the frames of its own CPU or task only. */
void ftl_oops_read_stacks(FtlOopsReport *r, const FtlConsole *con, GArray *lines);
