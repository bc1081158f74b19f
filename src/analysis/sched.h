/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Scheduling and latency: who ran on which CPU and for how long, how long
 * tasks waited and slept, how late wakeups were served, how long interrupt
 * handlers took. One streaming pass; memory grows with tasks x CPUs (and
 * x windows), never with the trace's length.
 *
 * Sources: sched_switch events, and the task each event names (any event's
 * common pid is the task current on its CPU): when it changes without a
 * sched_switch (the trace has none, as function_graph with its task-switch
 * separators and funcgraph-proc column; or one was lost), the CPU switches
 * at that event, and the switch counts as inferred. Wakeups:
 * sched_waking (the earliest point, unless FTL_SCHED_WAKE_WAKEUP),
 * sched_wakeup, sched_wakeup_new. Interrupts: irq_handler_entry/exit,
 * softirq_entry/exit and function_graph's "==>" / "<==" irq lines.
 *
 * Conventions (perf sched's and trace-cmd's where they have one):
 * - A CPU's window runs from its first event to the trace's last one: what
 *   ran before its first event is unknown. busy + idle + unknown = window,
 *   where idle is pid 0 and unknown the time after lost events before the
 *   next event tells who runs.
 * - A task switched out in state R or R+ (or a numeric state 0, or a lone bit
 *   >= 1024, the TASK_STATE_MAX that old kernels print for a preemption) was
 *   preempted and waits (runnable) until it runs again; any other state is a
 *   voluntary switch and the task sleeps until its wakeup; X, x and Z end it.
 * - Wakeup latency: from the wakeup of a sleeping (or not yet seen) task to
 *   the switch that runs it; RT when that switch's next_prio is 0..99. A
 *   wakeup of a task that is running or already runnable is not a latency.
 * - One wakeup is one sched_waking and one sched_wakeup when the trace has
 *   both (each task's wakeup takes the other event as its own, in either
 *   order), or either alone. A second wakeup of a task not switched in
 *   since (one whose kind the pending wakeup already has) means its
 *   switch-in and sleep were not recorded: the latency restarts at the later
 *   wakeup, as trace-cmd report -w does, and the case is counted
 *   (wakeups_restarted). The time between the two is neither wait nor sleep.
 * - A switch the trace did not record (inferred from the task an event
 *   names) is classified by what follows: woken before running again,
 *   voluntary; running again without a wakeup, preempted when the trace has
 *   shown wakeups before, else unknown; nothing (the trace ends), unknown.
 *   voluntary + preempted + unknown = switches, for every task.
 * - A migration is a task starting to run on another CPU than last time.
 * - Interrupt durations count at their exit; softirq time includes the hard
 *   interrupts nested in it. */
#pragma once

#include <glib.h>

#include "analysis/histo.h"
#include "analysis/pass.h"
#include "model/event.h"

typedef enum {
	FTL_SCHED_WAKE_FIRST,  /* sched_waking when the trace has it, else sched_wakeup */
	FTL_SCHED_WAKE_WAKEUP, /* sched_wakeup / sched_wakeup_new only (trace-cmd report -w) */
} FtlSchedWakeFrom;

typedef struct {
	FtlSchedWakeFrom wake_from;
	guint worst; /* worst wakeups kept per window (default 10) */
} FtlSchedOptions;

typedef struct {
	gint32 pid;
	const char *comm; /* interned, the last name seen; NULL when unknown */
	gint32 prio;	  /* the last priority seen, -1 unknown */
	gint64 run_ns;	  /* on a CPU */
	gint64 wait_ns;	  /* runnable: after a wakeup or a preemption, until it runs */
	gint64 sleep_ns;  /* switched out voluntarily, until its wakeup */
	guint64 switches; /* switched out: voluntary + preempted + unknown */
	guint64 voluntary;
	guint64 preempted;
	guint64 unknown;  /* no prev_state, or inferred and not classified */
	guint64 inferred; /* of switches, those the trace did not record */
	guint64 migrations;
	guint64 wakeups; /* wakeup latencies measured */
	gint64 lat_sum;
	gint64 lat_max; /* FTL_TS_NONE without wakeups */
	gint64 lat_max_ts;
} FtlSchedTask;

typedef struct {
	gint32 cpu;
	gint64 t0, t1; /* the CPU's window in this scope (t0 == t1: none) */
	gint64 busy_ns;
	gint64 idle_ns;
	gint64 unknown_ns;
	gint64 hardirq_ns;
	gint64 softirq_ns;
	guint64 switches;	   /* recorded + inferred */
	guint64 switches_inferred; /* the CPU's task changed without a sched_switch */
	/* The events lost in this scope: FTL_LOST_UNKNOWN when a LOST mark in
	 * it gives no count. The whole trace's follows the one rule
	 * (ftl_trace_cpu_lost: the input's CPU statistics where it has them),
	 * the figure info and report print. */
	gint64 lost_events;
	guint64 lost_lines;
	guint64 lost_uncounted; /* LOST marks without a count */
} FtlSchedCpu;

typedef enum {
	FTL_SCHED_HARDIRQ,
	FTL_SCHED_SOFTIRQ,
} FtlSchedIrqKind;

typedef struct {
	FtlSchedIrqKind kind;
	gint32 id;	  /* irq number or softirq vector; -1 when not printed */
	const char *name; /* handler or vector name, owned by the analysis; may be "" */
	guint64 count;
	gint64 total_ns;
	gint64 min_ns;
	gint64 max_ns;
	gint64 max_ts; /* exit of the longest */
} FtlSchedIrq;

typedef struct {
	gint64 ts;	/* the switch that ran the task */
	gint64 wake_ts; /* its wakeup */
	gint64 latency;
	gint32 cpu; /* where it ran */
	gint32 pid;
	const char *comm; /* interned, may be NULL */
	gint32 prio;	  /* next_prio of the switch */
	gint32 waker_pid; /* the task current where the wakeup was issued */
	const char *waker_comm;
	gint32 waker_cpu;
	gboolean restarted; /* a wakeup of a task woken before and not switched
			     * in since (the switch-in was not recorded) */
	const char *wake_event; /* the event at wake_ts (interned), on waker_cpu */
} FtlSchedWakeup;

typedef enum {
	FTL_SCHED_LAT_ALL,
	FTL_SCHED_LAT_RT,
	FTL_SCHED_LAT_NORMAL,
	FTL_SCHED_LAT_N,
} FtlSchedLatClass;

typedef struct {
	FtlHisto *histo; /* count, sum, min, max, percentiles */
	gint64 max_ts;	 /* switch of the largest latency */
} FtlSchedLatency;

/* The figures for one window: the whole trace, or one marker span. */
typedef struct {
	const char *label; /* NULL for the whole trace */
	gint64 t0, t1;	   /* the window covered; FTL_TS_NONE when no event fell in it */
	FtlSchedTask *tasks;
	guint n_tasks; /* by pid; pid 0 (idle) is not a task */
	FtlSchedCpu *cpus;
	guint n_cpus; /* by cpu */
	FtlSchedIrq *irqs;
	guint n_irqs; /* hard ones by number, then soft ones by vector */
	FtlSchedLatency lat[FTL_SCHED_LAT_N];
	FtlSchedWakeup *worst;
	guint n_worst; /* largest latency first */
	/* What could not be paired. */
	guint64 wakeups_unserved;    /* the switch that runs the task is outside the window */
	guint64 switches_unwoken;    /* a sleeping task ran without a wakeup in the trace */
	guint64 wakeups_of_runnable; /* wakeups of a task already running or runnable */
	guint64 wakeups_restarted;   /* a second wakeup before the task ran: the
				      * latency runs from it, not the first */
	guint64 wakeups_at_inferred; /* served by a switch the trace did not
				      * record: no latency measured */
	guint64 irq_unpaired;	     /* an exit without its entry, or an entry left open */
	/* What the trace has (for saying why a table is empty). */
	guint64 n_switch_events;
	guint64 n_wakeup_events;
	guint64 n_irq_events;
	guint64 switches_inferred; /* a CPU's task changed without a sched_switch:
				    * the trace has none there, or lost it */
} FtlSchedScope;

/* What the listeners see: each interval once it ends, in no particular
 * order across CPUs. */
typedef enum {
	FTL_SCHED_IV_RUN,     /* pid ran on cpu (0: idle, -1: unknown after lost events) */
	FTL_SCHED_IV_WAIT,    /* pid was runnable (cpu: where it was preempted, or -1) */
	FTL_SCHED_IV_SLEEP,   /* pid slept (cpu -1) */
	FTL_SCHED_IV_HARDIRQ, /* cpu ran a hard interrupt (id: irq number) */
	FTL_SCHED_IV_SOFTIRQ, /* cpu ran a softirq (id: vector) */
	FTL_SCHED_IV_LOST,    /* cpu lost events somewhere in here */
} FtlSchedIvKind;

typedef struct {
	FtlSchedIvKind kind;
	gint32 cpu;
	gint32 pid;
	const char *comm; /* interned, may be NULL */
	gint32 id;
	gint64 t0, t1;
	/* WAIT and SLEEP: the event that began it (the wakeup that counts, or
	 * the recorded switch-out; NULL for one inferred or unknown), interned,
	 * and the CPU it was on (-1 unknown) */
	const char *event;
	gint32 event_cpu;
	/* WAIT: the CPU whose switch ended it, -1 when the trace ended first */
	gint32 run_cpu;
} FtlSchedInterval;

typedef void (*FtlSchedIntervalFunc)(const FtlSchedInterval *iv, gpointer data);
typedef void (*FtlSchedWakeupFunc)(const FtlSchedWakeup *w, gpointer data);

typedef struct _FtlSched FtlSched;

/* opt may be NULL (defaults). Free with ftl_sched_free(). */
FtlSched *ftl_sched_new(const FtlSchedOptions *opt);
void ftl_sched_free(FtlSched *s);
/* Adds a window [t0, t1] with its own figures (label copied), before the
 * pass. Scope 0 is always the whole trace. */
void ftl_sched_add_window(FtlSched *s, const char *label, gint64 t0, gint64 t1);
/* Listeners, called during the pass (and finish). */
void ftl_sched_add_on_interval(FtlSched *s, FtlSchedIntervalFunc fn, gpointer data);
void ftl_sched_add_on_wakeup(FtlSched *s, FtlSchedWakeupFunc fn, gpointer data);
void ftl_sched_feed(FtlSched *s, const FtlEvent *ev);
void ftl_sched_finish(FtlSched *s);
/* The scheduling analysis as a pass consumer (analysis/pass.h). */
extern const FtlConsumerClass ftl_sched_consumer;

/* After finish; borrowed, valid as long as s. */
guint ftl_sched_n_scopes(const FtlSched *s);
const FtlSchedScope *ftl_sched_scope(const FtlSched *s, guint i);
/* "HI", "TIMER", "NET_TX", ... for a softirq vector; NULL when unknown. */
const char *ftl_sched_softirq_name(gint32 vec);
/* TRUE when a sched_switch prev_state says the task stayed runnable
 * (preempted): see the conventions above. */
gboolean ftl_sched_state_runnable(FtlSlice state);

G_DEFINE_AUTOPTR_CLEANUP_FUNC(FtlSched, ftl_sched_free)
