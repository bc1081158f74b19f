/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The `dump` view: one normalized, greppable line per event. */
#include "views/dump.h"

#include <string.h>

#include "model/source.h"
#include "util/escape.h"
#include "util/timefmt.h"

static void dump_str(GString *out, const char *key, const char *s)
{
	g_string_append_printf(out, " %s=", key);
	if (s)
		ftl_escape_append(out, s, -1);
	else /* a comm the input did not know, or a function it did not name */
		g_string_append(out, g_str_has_suffix(key, "comm") ? "<...>" : "-");
}

static void dump_slice(GString *out, const char *key, FtlSlice s)
{
	g_string_append_printf(out, " %s=", key);
	ftl_escape_append(out, s.p, s.len);
}

static void dump_int(GString *out, const char *key, gint64 v)
{
	g_string_append_printf(out, " %s=%" G_GINT64_FORMAT, key, v);
}

void ftl_dump_event(GString *out, const FtlEvent *ev)
{
	ftl_dump_event_at(out, ev, FTL_TS_NONE);
}

/* time, CPU, pid, comm, kind and event name: the columns every line has */
static void dump_prefix(GString *out, const FtlEvent *ev, gint64 origin)
{
	char tbuf[48];
	gint64 ts = ev->ts == FTL_TS_NONE || origin == FTL_TS_NONE ? ev->ts : ev->ts - origin;
	ftl_time_format_ns(ts, tbuf, sizeof tbuf);
	g_string_append_printf(out, "%18s ", tbuf);
	if (ev->cpu >= 0)
		g_string_append_printf(out, "%3d ", ev->cpu);
	else
		g_string_append(out, "  - ");
	if (ev->pid >= 0)
		g_string_append_printf(out, "%7d ", ev->pid);
	else
		g_string_append(out, "      - ");
	gsize at = out->len;
	if (ev->comm)
		ftl_escape_append(out, ev->comm, -1);
	else
		g_string_append(out, ev->pid >= 0 ? "<...>" : "-");
	for (gsize w = out->len - at; w < 16; w++)
		g_string_append_c(out, ' ');
	g_string_append_printf(out, " %-11s ", ftl_event_kind_name(ev->kind));
	/* event names come from the trace's formats (or its text) too */
	if (ev->name)
		ftl_escape_append(out, ev->name, -1);
	else
		g_string_append_c(out, '-');
	g_string_append_c(out, ':');
}

static void dump_graph(GString *out, const FtlEvent *ev)
{
	dump_str(out, "func", ev->u.graph.func);
	dump_int(out, "depth", ev->u.graph.depth);
	if (ev->u.graph.duration != FTL_TS_NONE)
		dump_int(out, "duration_ns", ev->u.graph.duration);
	if (ev->u.graph.has_retval) {
		/* as the trace printed it: hex (funcgraph-retval-hex, and
		 * pointers in the kernel's smart mode), else signed decimal
		 * (errno values: -22) */
		if (ev->u.graph.retval_hex)
			g_string_append_printf(out, " retval=0x%" G_GINT64_MODIFIER "x",
					       (guint64)ev->u.graph.retval);
		else
			dump_int(out, "retval", ev->u.graph.retval);
	}
	if (ev->flags & FTL_EVENT_F_SYNTH)
		g_string_append(out, " synthesized=leaf");
}

/* The payload as the trace printed it, or as its print format renders it
 * for a binary input. FALSE when there is none. */
static gboolean dump_payload(GString *out, const FtlEvent *ev)
{
	if (ev->payload.len) {
		g_string_append_c(out, ' ');
		ftl_escape_append(out, ev->payload.p, ev->payload.len);
		return TRUE;
	}
	g_autoptr(GString) text = g_string_new(NULL);
	if (!ev->src || !ftl_source_payload(ev->src, ev, text) || !text->len)
		return FALSE;
	g_string_append_c(out, ' ');
	ftl_escape_append(out, text->str, text->len);
	return TRUE;
}

/* sched_wakeup and irq_handler_*: their fields as the kernel printed them
 * (or its print format renders them), so that what the model does not keep
 * stays as the kernel meant it: success=1 on older kernels, ret=handled,
 * target_cpu=002. Lines without the key (the legacy sched_switch tracer's
 * wakeups) show the model's fields. */
static void dump_printed(GString *out, const FtlEvent *ev)
{
	FtlSlice v;
	const char *key = ev->kind == FTL_EVENT_SCHED_WAKEUP ? "pid" : "irq";
	if (ftl_event_field(ev, key, &v) && dump_payload(out, ev))
		return;
	if (ev->kind == FTL_EVENT_SCHED_WAKEUP) {
		dump_str(out, "comm", ev->u.wake.comm);
		dump_int(out, "pid", ev->u.wake.pid);
		dump_int(out, "prio", ev->u.wake.prio);
		dump_int(out, "target_cpu", ev->u.wake.target_cpu);
		return;
	}
	if (ev->u.irq.irq >= 0)
		dump_int(out, "irq", ev->u.irq.irq);
	if (ev->kind == FTL_EVENT_IRQ_ENTRY && ev->u.irq.name.len)
		dump_slice(out, "name", ev->u.irq.name);
	if (ev->kind == FTL_EVENT_IRQ_EXIT && ev->u.irq.irq >= 0)
		dump_int(out, "ret", ev->u.irq.ret);
}

/* The kind-specific fields. */
static void dump_fields(GString *out, const FtlEvent *ev)
{
	switch (ev->kind) {
	case FTL_EVENT_FUNC_ENTRY:
	case FTL_EVENT_FUNC_EXIT:
		dump_graph(out, ev);
		break;
	case FTL_EVENT_FUNC:
		dump_str(out, "func", ev->u.fn.func);
		if (ev->u.fn.parent)
			dump_str(out, "parent", ev->u.fn.parent);
		if (ev->u.fn.repeats) {
			dump_int(out, "repeats", ev->u.fn.repeats);
			if (ev->u.fn.last_ts != FTL_TS_NONE)
				dump_int(out, "last_ts_ns", ev->u.fn.last_ts);
		}
		break;
	case FTL_EVENT_MARKER:
		g_string_append_printf(out, " origin=%s",
				       ev->u.marker.origin == FTL_MARKER_PRINTK    ? "printk"
				       : ev->u.marker.origin == FTL_MARKER_COMMENT ? "comment"
										   : "trace_marker");
		if (ev->u.marker.caller.len)
			dump_slice(out, "caller", ev->u.marker.caller);
		dump_slice(out, "text", ev->u.marker.text);
		break;
	case FTL_EVENT_SCHED_SWITCH:
	case FTL_EVENT_TASK_SWITCH:
		dump_str(out, "prev_comm", ev->u.sw.prev_comm);
		dump_int(out, "prev_pid", ev->u.sw.prev_pid);
		if (ev->kind == FTL_EVENT_SCHED_SWITCH) {
			dump_int(out, "prev_prio", ev->u.sw.prev_prio);
			dump_slice(out, "prev_state", ev->u.sw.prev_state);
		}
		dump_str(out, "next_comm", ev->u.sw.next_comm);
		dump_int(out, "next_pid", ev->u.sw.next_pid);
		if (ev->kind == FTL_EVENT_SCHED_SWITCH)
			dump_int(out, "next_prio", ev->u.sw.next_prio);
		break;
	case FTL_EVENT_SCHED_WAKEUP:
	case FTL_EVENT_IRQ_ENTRY:
	case FTL_EVENT_IRQ_EXIT:
		dump_printed(out, ev);
		break;
	case FTL_EVENT_LOST:
		dump_int(out, "count", (gint64)ev->u.lost.count);
		break;
	case FTL_EVENT_STACK:
		dump_int(out, "frames", ev->u.stack.n_frames);
		for (guint32 i = 0; i < ev->u.stack.n_frames; i++) {
			g_string_append(out, i ? " <- " : " ");
			ftl_escape_append(out, ev->u.stack.frames[i].p,
						ev->u.stack.frames[i].len);
		}
		break;
	default:
		/* binary inputs keep fields; the source renders them as text */
		if (ev->payload.len || ev->kind == FTL_EVENT_GENERIC)
			dump_payload(out, ev);
		break;
	}
}

void ftl_dump_event_at(GString *out, const FtlEvent *ev, gint64 origin)
{
	dump_prefix(out, ev, origin);
	dump_fields(out, ev);
	g_string_append_c(out, '\n');
}
