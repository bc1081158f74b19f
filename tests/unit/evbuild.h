/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Building events for analysis tests without a parser: each helper fills an
 * FtlEvent the way a parser would. Names are interned in one test pool. */
#pragma once

#include <string.h>

#include "model/event.h"
#include "util/strpool.h"

static FtlStrPool *evb_pool;
static guint64 evb_seq;

static inline const char *evb_intern(const char *s)
{
	if (!evb_pool)
		evb_pool = ftl_strpool_new();
	return s ? ftl_strpool_intern(evb_pool, s) : NULL;
}

static inline FtlEvent evb_base(FtlEventKind kind, const char *name, gint64 ts, gint32 cpu,
				gint32 pid)
{
	FtlEvent ev;
	memset(&ev, 0, sizeof ev);
	ev.kind = kind;
	ev.name = evb_intern(name);
	ev.ts = ts;
	ev.cpu = cpu;
	ev.pid = pid;
	ev.tgid = -1;
	ev.seq = ++evb_seq;
	ev.line = ev.seq;
	return ev;
}

/* function_graph entry "func() {" at depth */
static inline FtlEvent evb_entry(gint64 ts, gint32 cpu, gint32 pid, const char *func, gint depth)
{
	FtlEvent ev = evb_base(FTL_EVENT_FUNC_ENTRY, "funcgraph_entry", ts, cpu, pid);
	ev.u.graph.func = evb_intern(func);
	ev.u.graph.depth = depth;
	ev.u.graph.duration = FTL_TS_NONE;
	ev.u.graph.mark = ' ';
	return ev;
}

/* function_graph exit "}" (func may be NULL) with the printed duration
 * (FTL_TS_NONE when the layout prints none) */
static inline FtlEvent evb_exit(gint64 ts, gint32 cpu, gint32 pid, const char *func, gint depth,
				gint64 duration)
{
	FtlEvent ev = evb_base(FTL_EVENT_FUNC_EXIT, "funcgraph_exit", ts, cpu, pid);
	ev.u.graph.func = evb_intern(func);
	ev.u.graph.depth = depth;
	ev.u.graph.duration = duration;
	ev.u.graph.mark = ' ';
	return ev;
}

/* A leaf "func();" is an entry carrying the duration plus a synthesized exit. */
static inline void evb_leaf(FtlEvent out[2], gint64 ts, gint32 cpu, gint32 pid, const char *func,
			    gint depth, gint64 duration)
{
	out[0] = evb_entry(ts, cpu, pid, func, depth);
	out[0].u.graph.duration = duration;
	out[1] = evb_exit(ts == FTL_TS_NONE || duration == FTL_TS_NONE ? ts : ts + duration, cpu,
			  pid, func, depth, duration);
	out[1].flags |= FTL_EVENT_F_SYNTH;
	out[1].seq = out[0].seq;
}

static inline FtlEvent evb_marker(gint64 ts, gint32 cpu, gint32 pid, const char *text)
{
	FtlEvent ev = evb_base(FTL_EVENT_MARKER, "tracing_mark_write", ts, cpu, pid);
	ev.u.marker.text = (FtlSlice){ text, (guint32)strlen(text) };
	ev.u.marker.origin = FTL_MARKER_TRACE_MARKER;
	ev.payload = ev.u.marker.text;
	return ev;
}

static inline FtlEvent evb_switch(gint64 ts, gint32 cpu, const char *prev_comm, gint32 prev_pid,
				  const char *next_comm, gint32 next_pid)
{
	FtlEvent ev = evb_base(FTL_EVENT_SCHED_SWITCH, "sched_switch", ts, cpu, prev_pid);
	ev.comm = evb_intern(prev_comm);
	ev.u.sw.prev_comm = evb_intern(prev_comm);
	ev.u.sw.prev_pid = prev_pid;
	ev.u.sw.prev_prio = 120;
	ev.u.sw.prev_state = (FtlSlice){ "S", 1 };
	ev.u.sw.next_comm = evb_intern(next_comm);
	ev.u.sw.next_pid = next_pid;
	ev.u.sw.next_prio = 120;
	return ev;
}

/* function_graph task-switch separator "prev-1 => next-2" */
static inline FtlEvent evb_task_switch(gint64 ts, gint32 cpu, const char *prev_comm,
				       gint32 prev_pid, const char *next_comm, gint32 next_pid)
{
	FtlEvent ev = evb_switch(ts, cpu, prev_comm, prev_pid, next_comm, next_pid);
	ev.kind = FTL_EVENT_TASK_SWITCH;
	ev.name = evb_intern("task_switch");
	ev.u.sw.prev_prio = ev.u.sw.next_prio = -1;
	ev.u.sw.prev_state = (FtlSlice){ NULL, 0 };
	return ev;
}

static inline FtlEvent evb_wakeup(gint64 ts, gint32 cpu, gint32 pid, const char *comm,
				  gint32 woken_pid, gint32 target_cpu)
{
	FtlEvent ev = evb_base(FTL_EVENT_SCHED_WAKEUP, "sched_wakeup", ts, cpu, pid);
	ev.u.wake.comm = evb_intern(comm);
	ev.u.wake.pid = woken_pid;
	ev.u.wake.prio = 120;
	ev.u.wake.target_cpu = target_cpu;
	return ev;
}

static inline FtlEvent evb_irq(gint64 ts, gint32 cpu, gint32 pid, gboolean entry)
{
	FtlEvent ev =
		evb_base(entry ? FTL_EVENT_IRQ_ENTRY : FTL_EVENT_IRQ_EXIT, "irq", ts, cpu, pid);
	ev.u.irq.irq = -1;
	return ev;
}

static inline FtlEvent evb_lost(gint32 cpu, guint64 count)
{
	FtlEvent ev = evb_base(FTL_EVENT_LOST, "lost", FTL_TS_NONE, cpu, -1);
	ev.u.lost.count = count;
	return ev;
}

/* A GENERIC event "name: payload" (payload must outlive the event). */
static inline FtlEvent evb_generic(gint64 ts, gint32 cpu, gint32 pid, const char *comm,
				   const char *name, const char *payload)
{
	FtlEvent ev = evb_base(FTL_EVENT_GENERIC, name, ts, cpu, pid);
	ev.comm = evb_intern(comm);
	ev.payload = (FtlSlice){ payload, (guint32)strlen(payload) };
	return ev;
}

#ifdef FTL_CALLTREE_FEED_HELPERS
/* Feeding a call tree directly (tests of calltree and funcstats). */
static inline void feed(FtlCallTree *t, FtlEvent ev)
{
	ftl_calltree_feed(t, &ev);
}

static inline void feed_leaf(FtlCallTree *t, gint64 ts, gint32 cpu, gint32 pid, const char *f,
			     gint d, gint64 dur)
{
	FtlEvent ev[2];
	evb_leaf(ev, ts, cpu, pid, f, d, dur);
	ftl_calltree_feed(t, &ev[0]);
	ftl_calltree_feed(t, &ev[1]);
}
#endif
