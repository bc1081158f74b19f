/* SPDX-License-Identifier: GPL-2.0-or-later */
/* FtlEventFilter: which events a reading command keeps, as trace-cmd users
 * type it: event lists (`-e sched_switch,irq`, `-e sched:sched_w*`) and
 * trace-cmd report's -F expressions (`sched_switch: prev_pid == 1 &&
 * next_comm ~ "kworker*"`), each of them possibly inverted (-v).
 *
 * One evaluator over FtlEvent, so that a text trace and a trace.dat of the
 * same events select the same ones. Fields are looked up, in order, among
 * the fields the model decodes for the event's kind (sched_switch's
 * prev_comm..next_prio, sched_wakeup's comm/pid/prio/target_cpu,
 * function_graph's func/depth/duration/retval, function's func/parent,
 * a marker's buf/text, irq/name/ret), then the event's own fields (its
 * payload's key=value pairs, or a binary record's fields), then the common
 * ones: COMM/comm (the task), CPU/cpu, common_pid/pid, tgid, ts (ns). A
 * field the event lacks makes its comparison false, as in trace-cmd. */
#pragma once

#include <glib.h>

#include "model/event.h"

typedef struct _FtlEventFilter FtlEventFilter;

FtlEventFilter *ftl_event_filter_new(void);
void ftl_event_filter_free(FtlEventFilter *f);

/* Adds an event list ("sched_switch", "sched", "sched:sched_wake*",
 * "irq/irq_handler_entry", comma-separated; names are globs). A malformed
 * list is an FTL_ERROR_USAGE error. */
gboolean ftl_event_filter_add_events(FtlEventFilter *f, const char *list, gboolean invert,
				     GError **error);

/* Adds a trace-cmd -F filter "EVENTS[: EXPR]": EVENTS as trace-cmd takes
 * them (SYSTEM/EVENT, SYSTEM or EVENT, comma-separated, anchored regular
 * expressions), EXPR of comparisons (== != < > <= >= & ~ =~ !~ between a
 * field and a number, a quoted string or a field) joined by && || ! and
 * parentheses. A bad expression is an FTL_ERROR_USAGE error whose message
 * shows the expression and a caret under the column at fault. */
gboolean ftl_event_filter_add_expr(FtlEventFilter *f, const char *text, gboolean invert,
				   GError **error);

/* Whether ev passes: when there are plain (not inverted) filters, ev must
 * match one of them; it must match none of the inverted ones. A filter
 * with nothing added passes everything. ev must still be borrowed (fields
 * of binary inputs are read from the source). Safe to call from several
 * threads (a lock guards its per-name cache). */
gboolean ftl_event_filter_match(FtlEventFilter *f, const FtlEvent *ev);

/* After a pass: the names and fields of the filters that matched nothing,
 * one line each ("-e 'sched_swich': no event of 'x.dat' is named
 * 'sched_swich' (it has ...)"), against seen, the event names the trace
 * showed (interned name -> system; borrowed). A field is unknown when the
 * events its filter names were read and none had it. NULL when all
 * matched. Free with g_free(). Not escaped. */
char *ftl_event_filter_unmatched(FtlEventFilter *f, GHashTable *seen, const char *label);

/* The filters as given on a command line ("-e sched_switch -v --filter
 * 'x: y == 1'"), for messages; free with g_free(). Not escaped. */
char *ftl_event_filter_describe(const FtlEventFilter *f);

/* The system a well-known event belongs to when the input does not say
 * (text traces): "sched" for sched_switch, "ftrace" for function...; NULL
 * when unknown. */
const char *ftl_event_system_guess(const char *name);

G_DEFINE_AUTOPTR_CLEANUP_FUNC(FtlEventFilter, ftl_event_filter_free)
