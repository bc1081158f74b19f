/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What each CPU ran, for the Timeline: running intervals from sched_switch
 * events and from the task each event names, interrupt context, and the
 * stretches where events were lost; and the tasks runnable there, as the
 * scheduling analysis says (its WAIT intervals: from the wakeup that counts,
 * sched_waking and sched_wakeup as one, the latest when woken twice), so
 * that the Timeline and `ftlens sched` never disagree on a wait. */
#include "config.h"

#include "views/tui/model.h"

#define LANES_MAX_CPU 4096

void ftl_tui_lane_free(FtlTuiLane *lane)
{
	if (!lane)
		return;
	g_array_unref(lane->runs);
	g_array_unref(lane->irqs);
	g_array_unref(lane->lost);
	g_array_unref(lane->waits);
	g_free(lane);
}

FtlTuiLane *ftl_tui_lanes_get(GPtrArray *lanes, gint32 cpu)
{
	if (cpu < 0 || cpu >= LANES_MAX_CPU)
		return NULL;
	if ((guint)cpu >= lanes->len)
		g_ptr_array_set_size(lanes, cpu + 1);
	FtlTuiLane *lane = lanes->pdata[cpu];
	if (!lane) {
		lane = g_new0(FtlTuiLane, 1);
		lane->cpu = cpu;
		lane->runs = g_array_new(FALSE, FALSE, sizeof(FtlTuiRun));
		lane->irqs = g_array_new(FALSE, FALSE, sizeof(FtlTuiSpan));
		lane->lost = g_array_new(FALSE, FALSE, sizeof(FtlTuiSpan));
		lane->waits = g_array_new(FALSE, FALSE, sizeof(FtlTuiRun));
		lane->pid = -1;
		lane->since = lane->last_ts = FTL_TS_NONE;
		lanes->pdata[cpu] = lane;
	}
	return lane;
}

/* The task that ran since lane->since ends at t, with event `end` (NULL:
 * events lost, the trace ended). */
static void lane_close(FtlTuiLane *lane, gint64 t, const char *end)
{
	if (lane->pid > 0 && lane->since != FTL_TS_NONE && t >= lane->since) {
		FtlTuiRun *last =
			lane->runs->len ? &g_array_index(lane->runs, FtlTuiRun, lane->runs->len - 1)
					: NULL;
		if (last && last->pid == lane->pid && last->t1 == lane->since) {
			last->t1 = t; /* the same task again: one interval */
			last->end = end;
		} else {
			FtlTuiRun r = { lane->since, t, lane->pid, lane->cpu, lane->comm,
					lane->event, end };
			g_array_append_val(lane->runs, r);
		}
	}
	lane->since = FTL_TS_NONE;
}

/* pid runs from event ev on. */
static void lane_open(FtlTuiLane *lane, const FtlEvent *ev, gint32 pid, const char *comm)
{
	lane_close(lane, ev->ts, ev->name);
	lane->pid = pid;
	lane->comm = comm;
	lane->event = ev->name;
	lane->since = ev->ts;
}

void ftl_tui_lanes_add_interval(const FtlSchedInterval *iv, gpointer lanes)
{
	/* runnable until it ran: on the lane of the CPU that ran it, or, when
	 * the trace ended first, of the one it was preempted on */
	if (iv->kind != FTL_SCHED_IV_WAIT || iv->pid <= 0)
		return;
	FtlTuiLane *lane = ftl_tui_lanes_get(lanes, iv->run_cpu >= 0 ? iv->run_cpu : iv->cpu);
	if (!lane)
		return;
	FtlTuiRun r = { iv->t0, iv->t1, iv->pid, iv->event_cpu, iv->comm, iv->event, NULL };
	g_array_append_val(lane->waits, r);
}

static void lane_irq(FtlTuiLane *lane, const FtlEvent *ev)
{
	if (ev->kind == FTL_EVENT_IRQ_ENTRY) {
		if (lane->irq_depth++ == 0)
			lane->irq_t0 = ev->ts;
	} else if (lane->irq_depth > 0 && --lane->irq_depth == 0) {
		FtlTuiSpan s = { lane->irq_t0, ev->ts };
		g_array_append_val(lane->irqs, s);
	}
}

void ftl_tui_lanes_feed(GPtrArray *lanes, const FtlEvent *ev)
{
	if (ev->ts == FTL_TS_NONE)
		return;
	FtlTuiLane *lane = ftl_tui_lanes_get(lanes, ev->cpu);
	if (!lane)
		return;
	switch (ev->kind) {
	case FTL_EVENT_LOST: {
		/* who ran between the last event and the next one is unknown */
		FtlTuiSpan s = { lane->last_ts != FTL_TS_NONE ? lane->last_ts : ev->ts, ev->ts };
		g_array_append_val(lane->lost, s);
		lane_close(lane, s.t0, NULL);
		lane->pid = -1;
		lane->irq_depth = 0;
		break;
	}
	case FTL_EVENT_SCHED_SWITCH:
		lane_open(lane, ev, ev->u.sw.next_pid, ev->u.sw.next_comm);
		break;
	case FTL_EVENT_TASK_SWITCH:
		lane_open(lane, ev, ev->u.sw.next_pid, ev->u.sw.next_comm);
		break;
	case FTL_EVENT_IRQ_ENTRY:
	case FTL_EVENT_IRQ_EXIT:
		/* the event also names the task it interrupted */
		lane_irq(lane, ev);
		/* fall through */
	default:
		if (ev->pid >= 0 && ev->pid != lane->pid)
			lane_open(lane, ev, ev->pid, ev->comm);
		else if (ev->pid == lane->pid && !lane->comm)
			lane->comm = ev->comm;
		break;
	}
	lane->last_ts = ev->ts;
}

void ftl_tui_lanes_finish(GPtrArray *lanes, gint64 end)
{
	for (guint i = 0; i < lanes->len; i++) {
		FtlTuiLane *lane = lanes->pdata[i];
		if (!lane)
			continue;
		lane_close(lane, end, NULL);
		if (lane->irq_depth > 0) {
			FtlTuiSpan s = { lane->irq_t0, end };
			g_array_append_val(lane->irqs, s);
			lane->irq_depth = 0;
		}
	}
}

guint ftl_tui_lane_first(GArray *arr, gsize elt, gint64 a)
{
	guint lo = 0, hi = arr->len;
	while (lo < hi) {
		guint mid = lo + (hi - lo) / 2;
		const FtlTuiSpan *s = (const FtlTuiSpan *)(arr->data + mid * elt);
		if (s->t1 <= a)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

gboolean ftl_tui_lane_any(GArray *spans, gint64 a, gint64 b)
{
	guint i = ftl_tui_lane_first(spans, sizeof(FtlTuiSpan), a);
	return i < spans->len && g_array_index(spans, FtlTuiSpan, i).t0 < b;
}

const FtlTuiRun *ftl_tui_lane_run(const FtlTuiLane *lane, gint64 a, gint64 b, gint32 pid,
				  gint64 *cover)
{
	const FtlTuiRun *best = NULL;
	gint64 best_t = 0;
	for (guint i = ftl_tui_lane_first(lane->runs, sizeof(FtlTuiRun), a); i < lane->runs->len;
	     i++) {
		const FtlTuiRun *r = &g_array_index(lane->runs, FtlTuiRun, i);
		if (r->t0 >= b)
			break;
		gint64 t = MIN(r->t1, b) - MAX(r->t0, a);
		if ((pid < 0 || r->pid == pid) && t > best_t)
			best = r, best_t = t;
	}
	*cover = best_t;
	return best;
}
