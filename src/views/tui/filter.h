/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The TUI's filter stack (`f` pushes, Esc pops, as perf report's zoom):
 * CPU lists and pid lists narrow every panel (the model is rebuilt), event
 * names and a function regex narrow the lists (Events, Functions, Graph,
 * Flame). The command line's --cpu/--pid/--time sit under the stack. */
#pragma once

#include <glib.h>

#include "model/iter.h"

typedef enum {
	FTL_TUI_FILTER_CPU,   /* "cpu 0,2-3" */
	FTL_TUI_FILTER_PID,   /* "pid 1234" */
	FTL_TUI_FILTER_EVENT, /* "event sched_switch,irq_*" (globs) */
	FTL_TUI_FILTER_FUNC,  /* "func ^vfs_" (a regex) */
	FTL_TUI_FILTER_EXPR,  /* "sched_switch: prev_pid == 0" (--filter's grammar) */
	FTL_TUI_FILTER_COMM,  /* "comm kworker*" (a glob on the task's name) */
} FtlTuiFilterKind;

typedef struct _FtlTuiFilterItem FtlTuiFilterItem;

/* Reads one filter as the prompt takes it: a kind word (cpu, pid, event,
 * func, comm; c, p, e, f for short) then its argument, or else an
 * expression of the command line's --filter (trace-cmd report -F: "EVENTS[:
 * EXPR]"), the same parser, so the Events list keeps what `ftlens dump
 * --filter` prints. A usage error otherwise; an expression's says the column.
 * Items are reference counted and immutable. */
FtlTuiFilterItem *ftl_tui_filter_item_parse(const char *text, GError **error);
/* The filter that lists only calls of function (a name, matched exactly). */
FtlTuiFilterItem *ftl_tui_filter_item_func_exact(const char *function);
FtlTuiFilterItem *ftl_tui_filter_item_ref(FtlTuiFilterItem *it);
void ftl_tui_filter_item_unref(FtlTuiFilterItem *it);
FtlTuiFilterKind ftl_tui_filter_item_kind(const FtlTuiFilterItem *it);
/* "cpu 1,3" as typed (normalized blanks); borrowed. */
const char *ftl_tui_filter_item_text(const FtlTuiFilterItem *it);

/* A snapshot of the stack, shared by the threads that read with it. */
typedef struct {
	const FtlFilter *global; /* the command line's; borrowed, may be NULL */
	GPtrArray *items;	 /* FtlTuiFilterItem*, bottom first */
} FtlTuiFilter;

/* A copy of f with item pushed (item NULL: a plain copy). Free with
 * ftl_tui_filter_free(). */
FtlTuiFilter *ftl_tui_filter_push(const FtlTuiFilter *f, FtlTuiFilterItem *item);
/* A copy without the top item. */
FtlTuiFilter *ftl_tui_filter_pop(const FtlTuiFilter *f);
FtlTuiFilter *ftl_tui_filter_new(const FtlFilter *global);
void ftl_tui_filter_free(FtlTuiFilter *f);
guint ftl_tui_filter_depth(const FtlTuiFilter *f);
/* What the analyses see: the command line's selection, applied by sel
 * (over f->global; every event of the unfiltered stream goes through it
 * once, in order, as through every command's iterator), and the CPU, pid
 * and time items. */
gboolean ftl_tui_filter_pass_model(const FtlTuiFilter *f, FtlSelector *sel, const FtlEvent *ev);
/* What the lists show of that: the event and function items; func is the
 * function the event is about (FtlTuiCallNames), NULL if none. */
gboolean ftl_tui_filter_pass_names(const FtlTuiFilter *f, const FtlEvent *ev, const char *func);
/* Whether a function name passes the function items (NULL passes none
 * when there is one). */
gboolean ftl_tui_filter_pass_func(const FtlTuiFilter *f, const char *func);
/* Whether an event name passes the event items. */
gboolean ftl_tui_filter_pass_event(const FtlTuiFilter *f, const char *name);
/* Whether there is an item of that kind. */
gboolean ftl_tui_filter_has(const FtlTuiFilter *f, FtlTuiFilterKind kind);

/* The function each event is about, a bare function_graph "}" named after
 * its entry (per CPU, by depth), for readers that go through events in
 * order from the start (or from a point that knows the open calls). */
typedef struct {
	GPtrArray *cpus; /* per CPU: GPtrArray of const char* by depth */
} FtlTuiCallNames;

void ftl_tui_call_names_init(FtlTuiCallNames *n);
void ftl_tui_call_names_clear(FtlTuiCallNames *n);
/* The function ev is about (interned, from ev's trace), or NULL. */
const char *ftl_tui_call_names_feed(FtlTuiCallNames *n, const FtlEvent *ev);

/* Snapshots of FtlTuiCallNames taken while reading from the start, so that
 * a reader that seeks (the sparse index) restarts with the calls open
 * there: a bare "}" after the seek is named as after a full read. The
 * strings are copied: snapshots outlive the trace they were taken from.
 * Reference counted; immutable once sealed. */
typedef struct _FtlTuiCallSnaps FtlTuiCallSnaps;

FtlTuiCallSnaps *ftl_tui_call_snaps_new(void);
FtlTuiCallSnaps *ftl_tui_call_snaps_ref(FtlTuiCallSnaps *s);
void ftl_tui_call_snaps_unref(FtlTuiCallSnaps *s);
/* Takes a snapshot of n; its handle for ftl_tui_call_snaps_restore(). */
guint32 ftl_tui_call_snaps_add(FtlTuiCallSnaps *s, const FtlTuiCallNames *n);
/* Drops what only adding needs (the strings' lookup table). */
void ftl_tui_call_snaps_seal(FtlTuiCallSnaps *s);
/* Sets n to snapshot `at` (its strings borrowed from s). */
void ftl_tui_call_snaps_restore(const FtlTuiCallSnaps *s, guint32 at, FtlTuiCallNames *n);

G_DEFINE_AUTOPTR_CLEANUP_FUNC(FtlTuiFilter, ftl_tui_filter_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC(FtlTuiFilterItem, ftl_tui_filter_item_unref)
