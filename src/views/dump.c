/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The `dump` view: one normalized, greppable line per event (or one CSV row,
 * or one JSON object, with the same fields). */
#include "views/dump.h"

#include <string.h>

#include "model/source.h"
#include "util/escape.h"
#include "util/timefmt.h"

/* Where the kind-specific fields go: " key=value" text (text, and CSV's
 * fields cell), or ,"key":value members of a JSON object. */
typedef struct {
	GString *out;
	gboolean json;
	gboolean more; /* JSON: a member was written, the next needs a comma */
} DumpSink;

/* Millions of lines: the columns and numbers are appended by hand, not
 * through g_string_append_printf() (a malloc and a copy per call). */
static void dump_key(DumpSink *d, const char *key)
{
	if (d->json) {
		if (d->more)
			g_string_append_c(d->out, ',');
		g_string_append_c(d->out, '"');
		g_string_append(d->out, key);
		g_string_append(d->out, "\":");
	} else {
		g_string_append_c(d->out, ' ');
		g_string_append(d->out, key);
		g_string_append_c(d->out, '=');
	}
	d->more = TRUE;
}

static void dump_json_text(GString *out, const char *s, gssize len)
{
	g_autofree char *q = ftl_json_quote(s, len);
	g_string_append(out, q);
}

static void dump_str(DumpSink *d, const char *key, const char *s)
{
	dump_key(d, key);
	if (d->json && s)
		dump_json_text(d->out, s, -1);
	else if (d->json)
		g_string_append(d->out, "null");
	else if (s)
		ftl_escape_append(d->out, s, -1);
	else /* a comm the input did not know, or a function it did not name */
		g_string_append(d->out, g_str_has_suffix(key, "comm") ? "<...>" : "-");
}

static void dump_slice(DumpSink *d, const char *key, FtlSlice s)
{
	dump_key(d, key);
	if (d->json)
		dump_json_text(d->out, s.p, (gssize)s.len);
	else
		ftl_escape_append(d->out, s.p, s.len);
}

static void dump_int(DumpSink *d, const char *key, gint64 v)
{
	char buf[32];
	dump_key(d, key);
	g_string_append(d->out, ftl_int_format(v, buf, sizeof buf));
}

void ftl_dump_event(GString *out, const FtlEvent *ev)
{
	ftl_dump_event_at(out, ev, FTL_TS_NONE);
}

/* A number written backwards to the end of num (FTL_NUM_BACK bytes, spaces
 * before it), from start: right-aligned in width columns at at (wider when
 * it needs more). Returns the end of the column. */
static inline G_ALWAYS_INLINE char *dump_right(char *at, const char *num, const char *start,
					       gsize width)
{
	const char *end = num + FTL_NUM_BACK;
	gsize n = (gsize)(end - start);
	if (G_LIKELY(n <= width)) {
		memcpy(at, end - width, width); /* a constant size: no call */
		return at + width;
	}
	memcpy(at, start, n);
	return at + n;
}

/* A CPU or pid column: v right-aligned in width columns, "-" when
 * unknown (negative). */
static inline G_ALWAYS_INLINE char *dump_id(char *at, gint v, gsize width)
{
	char num[FTL_NUM_BACK];
	memset(num, ' ', sizeof num);
	char *end = num + sizeof num, *start = end - 1;
	if (v >= 0)
		start = ftl_int_format_back(v, end);
	else
		*start = '-';
	return dump_right(at, num, start, width);
}

/* Text of len bytes, escaped already, left-aligned in width columns at at. */
static inline G_ALWAYS_INLINE char *dump_left(char *at, const char *s, gsize len, gsize width)
{
	memcpy(at, s, len);
	at += len;
	for (; len < width; len++)
		*at++ = ' ';
	return at;
}

/* text (*len bytes) as a column may show it: itself when plain, else its
 * escaped copy, kept in *copy (hostile text from the trace) */
static const char *dump_shown(const char *text, gsize *len, char **copy)
{
	if (ftl_escape_plain_run(text, *len) == *len)
		return text;
	*copy = ftl_escape(text, (gssize)*len);
	*len = strlen(*copy);
	return *copy;
}

/* time, CPU, pid, comm, kind and event name: the columns every line has,
 * written in place (millions of lines) */
static void dump_prefix(GString *out, const FtlEvent *ev, gint64 origin, gboolean us)
{
	char num[FTL_NUM_BACK];
	gint64 ts = ev->ts == FTL_TS_NONE || origin == FTL_TS_NONE ? ev->ts : ev->ts - origin;
	const char *kind = ftl_event_kind_name(ev->kind);
	g_autofree char *comm_copy = NULL, *name_copy = NULL;
	const char *comm = ev->comm ? ev->comm : ev->pid >= 0 ? "<...>" : "-";
	const char *name = ev->name ? ev->name : "-";
	gsize comm_len = strlen(comm), name_len = strlen(name), kind_len = strlen(kind);
	comm = dump_shown(comm, &comm_len, &comm_copy);
	name = dump_shown(name, &name_len, &name_copy);
	gsize from = out->len;
	/* the numbers' columns, their widths or FTL_NUM_BACK each, and the rest */
	g_string_set_size(out, from + 3 * FTL_NUM_BACK + 32 + comm_len + kind_len + name_len);
	char *at = out->str + from;
	memset(num, ' ', sizeof num);
	at = us ? dump_right(at, num, ftl_time_format_us_back(ts, num + sizeof num), 15)
		: dump_right(at, num, ftl_time_format_ns_back(ts, num + sizeof num), 18);
	*at++ = ' ';
	at = dump_id(at, ev->cpu, 3);
	*at++ = ' ';
	at = dump_id(at, ev->pid, 7);
	*at++ = ' ';
	at = dump_left(at, comm, comm_len, 16);
	*at++ = ' ';
	at = dump_left(at, kind, kind_len, 11);
	*at++ = ' ';
	memcpy(at, name, name_len);
	at += name_len;
	*at++ = ':';
	g_string_truncate(out, (gsize)(at - out->str));
}

static void dump_graph(DumpSink *d, const FtlEvent *ev)
{
	dump_str(d, "func", ev->u.graph.func);
	dump_int(d, "depth", ev->u.graph.depth);
	if (ev->u.graph.duration != FTL_TS_NONE)
		dump_int(d, "duration_ns", ev->u.graph.duration);
	if (ev->u.graph.has_retval) {
		/* as the trace printed it: hex (funcgraph-retval-hex, and
		 * pointers in the kernel's smart mode), else signed decimal
		 * (errno values: -22); JSON has numbers only */
		if (ev->u.graph.retval_hex && !d->json)
			g_string_append_printf(d->out, " retval=0x%" G_GINT64_MODIFIER "x",
					       (guint64)ev->u.graph.retval);
		else
			dump_int(d, "retval", ev->u.graph.retval);
	}
	if (ev->flags & FTL_EVENT_F_SYNTH)
		dump_str(d, "synthesized", "leaf");
}

/* A stack's frames, innermost first: "f <- g" in text, an array in JSON. */
static void dump_stack(DumpSink *d, const FtlEvent *ev)
{
	dump_int(d, "frames", ev->u.stack.n_frames);
	if (d->json)
		g_string_append(d->out, ",\"stack\":[");
	for (guint32 i = 0; i < ev->u.stack.n_frames; i++) {
		FtlSlice f = ev->u.stack.frames[i];
		if (d->json) {
			if (i)
				g_string_append_c(d->out, ',');
			dump_json_text(d->out, f.p, (gssize)f.len);
			continue;
		}
		g_string_append(d->out, i ? " <- " : " ");
		ftl_escape_append(d->out, f.p, f.len);
	}
	if (d->json)
		g_string_append_c(d->out, ']');
	/* the addresses the input printed beside the frames, as printed */
	gboolean any = FALSE;
	for (guint32 i = 0; ev->u.stack.addrs && i < ev->u.stack.n_frames; i++)
		any |= ev->u.stack.addrs[i] != 0;
	if (!any)
		return;
	g_string_append(d->out, d->json ? ",\"addresses\":[" : " at");
	for (guint32 i = 0; i < ev->u.stack.n_frames; i++)
		g_string_append_printf(
			d->out,
			d->json ? "%s\"%" G_GINT64_MODIFIER "x\"" : "%s%" G_GINT64_MODIFIER "x",
			i ? (d->json ? "," : " <- ") : (d->json ? "" : " "), ev->u.stack.addrs[i]);
	if (d->json)
		g_string_append_c(d->out, ']');
}

/* A binary input's payload text, rendered by its source straight into out
 * after a space and escaped where it needs it (most payloads are plain
 * ASCII and need nothing). FALSE, out unchanged, when there is none. */
static gboolean dump_payload_rendered(GString *out, const FtlEvent *ev)
{
	gsize at = out->len;
	g_string_append_c(out, ' ');
	if (!ev->src || !ftl_source_payload(ev->src, ev, out) || out->len == at + 1) {
		g_string_truncate(out, at);
		return FALSE;
	}
	if (!(ev->flags & FTL_EVENT_F_PLAIN_TEXT))
		ftl_escape_since(out, at + 1);
	return TRUE;
}

/* The payload as the trace printed it, or as its print format renders it
 * for a binary input (JSON: "payload"). FALSE when there is none. */
static gboolean dump_payload(DumpSink *d, const FtlEvent *ev)
{
	g_autoptr(GString) text = NULL;
	FtlSlice p = ev->payload;
	if (!p.len && !d->json)
		return dump_payload_rendered(d->out, ev);
	if (!p.len) {
		text = g_string_new(NULL);
		if (!ev->src || !ftl_source_payload(ev->src, ev, text) || !text->len)
			return FALSE;
		p = (FtlSlice){ text->str, text->len };
	}
	if (d->json) {
		dump_slice(d, "payload", p);
		return TRUE;
	}
	g_string_append_c(d->out, ' ');
	ftl_escape_append(d->out, p.p, p.len);
	return TRUE;
}

/* sched_wakeup and irq_handler_*: their fields as the kernel printed them
 * (or its print format renders them), so that what the model does not keep
 * stays as the kernel meant it: success=1 on older kernels, ret=handled,
 * target_cpu=002. Lines without the key (the legacy sched_switch tracer's
 * wakeups) show the model's fields. */
static void dump_printed(DumpSink *d, const FtlEvent *ev)
{
	FtlSlice v;
	const char *key = ev->kind == FTL_EVENT_SCHED_WAKEUP ? "pid" : "irq";
	if (ftl_event_field(ev, key, &v) && dump_payload(d, ev))
		return;
	if (ev->kind == FTL_EVENT_SCHED_WAKEUP) {
		dump_str(d, "comm", ev->u.wake.comm);
		dump_int(d, "pid", ev->u.wake.pid);
		dump_int(d, "prio", ev->u.wake.prio);
		dump_int(d, "target_cpu", ev->u.wake.target_cpu);
		return;
	}
	if (ev->u.irq.irq >= 0)
		dump_int(d, "irq", ev->u.irq.irq);
	if (ev->kind == FTL_EVENT_IRQ_ENTRY && ev->u.irq.name.len)
		dump_slice(d, "name", ev->u.irq.name);
	if (ev->kind == FTL_EVENT_IRQ_EXIT && ev->u.irq.irq >= 0)
		dump_int(d, "ret", ev->u.irq.ret);
}

/* The kind-specific fields. */
static void dump_fields(DumpSink *d, const FtlEvent *ev)
{
	switch (ev->kind) {
	case FTL_EVENT_FUNC_ENTRY:
	case FTL_EVENT_FUNC_EXIT:
		dump_graph(d, ev);
		break;
	case FTL_EVENT_FUNC:
		dump_str(d, "func", ev->u.fn.func);
		if (ev->u.fn.parent)
			dump_str(d, "parent", ev->u.fn.parent);
		if (ev->u.fn.repeats) {
			dump_int(d, "repeats", ev->u.fn.repeats);
			if (ev->u.fn.last_ts != FTL_TS_NONE)
				dump_int(d, "last_ts_ns", ev->u.fn.last_ts);
		}
		break;
	case FTL_EVENT_MARKER:
		dump_str(d, "origin",
			 ev->u.marker.origin == FTL_MARKER_PRINTK    ? "printk"
			 : ev->u.marker.origin == FTL_MARKER_COMMENT ? "comment"
								     : "trace_marker");
		if (ev->u.marker.caller.len)
			dump_slice(d, "caller", ev->u.marker.caller);
		dump_slice(d, "text", ev->u.marker.text);
		break;
	case FTL_EVENT_SCHED_SWITCH:
	case FTL_EVENT_TASK_SWITCH:
		dump_str(d, "prev_comm", ev->u.sw.prev_comm);
		dump_int(d, "prev_pid", ev->u.sw.prev_pid);
		if (ev->kind == FTL_EVENT_SCHED_SWITCH) {
			dump_int(d, "prev_prio", ev->u.sw.prev_prio);
			dump_slice(d, "prev_state", ev->u.sw.prev_state);
		}
		dump_str(d, "next_comm", ev->u.sw.next_comm);
		dump_int(d, "next_pid", ev->u.sw.next_pid);
		if (ev->kind == FTL_EVENT_SCHED_SWITCH)
			dump_int(d, "next_prio", ev->u.sw.next_prio);
		break;
	case FTL_EVENT_SCHED_WAKEUP:
	case FTL_EVENT_IRQ_ENTRY:
	case FTL_EVENT_IRQ_EXIT:
		dump_printed(d, ev);
		break;
	case FTL_EVENT_LOST:
		if (ev->u.lost.count) {
			dump_int(d, "count", (gint64)MIN(ev->u.lost.count, (guint64)G_MAXINT64));
		} else { /* a mark that gives no count: unknown, never 0 */
			dump_key(d, "count");
			g_string_append(d->out, d->json ? "null" : "unknown");
		}
		break;
	case FTL_EVENT_STACK:
		dump_stack(d, ev);
		break;
	default:
		/* binary inputs keep fields; the source renders them as text */
		if (ev->payload.len || ev->kind == FTL_EVENT_GENERIC)
			dump_payload(d, ev);
		break;
	}
}

void ftl_dump_event_at(GString *out, const FtlEvent *ev, gint64 origin)
{
	ftl_dump_event_text(out, ev, origin, FALSE);
}

void ftl_dump_event_text(GString *out, const FtlEvent *ev, gint64 origin, gboolean us)
{
	DumpSink d = { out, FALSE, FALSE };
	dump_prefix(out, ev, origin, us);
	dump_fields(&d, ev);
	g_string_append_c(out, '\n');
}

static gint64 dump_ts(const FtlEvent *ev, gint64 origin)
{
	return ev->ts == FTL_TS_NONE || origin == FTL_TS_NONE ? ev->ts : ev->ts - origin;
}

void ftl_dump_begin(GString *out, FtlFormat format, const char *input)
{
	if (format == FTL_FORMAT_CSV) {
		g_string_append(out, "ts_ns,cpu,pid,comm,kind,name,fields\n");
	} else if (format == FTL_FORMAT_JSON) {
		g_string_append(out, "{\"input\":");
		dump_json_text(out, input, -1);
		g_string_append(out, ",\"events\":[");
	}
}

/* CSV: the prefix's columns, then the text fields in one cell; unknown
 * values (no timestamp, CPU, pid) are empty cells, as in tables. */
static void dump_csv(GString *out, const FtlEvent *ev, gint64 origin)
{
	gint64 ts = dump_ts(ev, origin);
	if (ts != FTL_TS_NONE)
		g_string_append_printf(out, "%" G_GINT64_FORMAT, ts);
	g_string_append_c(out, ',');
	if (ev->cpu >= 0)
		g_string_append_printf(out, "%d", ev->cpu);
	g_string_append_c(out, ',');
	if (ev->pid >= 0)
		g_string_append_printf(out, "%d", ev->pid);
	g_string_append_c(out, ',');
	if (ev->comm)
		ftl_csv_append(out, ev->comm, -1);
	g_string_append_printf(out, ",%s,", ftl_event_kind_name(ev->kind));
	if (ev->name)
		ftl_csv_append(out, ev->name, -1);
	g_string_append_c(out, ',');
	g_autoptr(GString) fields = g_string_new(NULL);
	DumpSink d = { fields, FALSE, FALSE };
	dump_fields(&d, ev);
	/* the text form's fields, less the space before the first */
	ftl_csv_append(out, fields->str + (fields->len ? 1 : 0), -1);
	g_string_append_c(out, '\n');
}

/* JSON: one object per line; null for what the input did not say. */
static void dump_json(GString *out, const FtlEvent *ev, gint64 origin, gboolean first)
{
	gint64 ts = dump_ts(ev, origin);
	g_string_append(out, first ? "\n{" : ",\n{");
	DumpSink d = { out, TRUE, FALSE };
	if (ts != FTL_TS_NONE)
		dump_int(&d, "ts_ns", ts);
	else
		dump_str(&d, "ts_ns", NULL);
	if (ev->cpu >= 0)
		dump_int(&d, "cpu", ev->cpu);
	else
		dump_str(&d, "cpu", NULL);
	if (ev->pid >= 0)
		dump_int(&d, "pid", ev->pid);
	else
		dump_str(&d, "pid", NULL);
	dump_str(&d, "comm", ev->comm);
	dump_str(&d, "kind", ftl_event_kind_name(ev->kind));
	dump_str(&d, "name", ev->name);
	dump_key(&d, "fields");
	g_string_append_c(out, '{');
	DumpSink f = { out, TRUE, FALSE };
	dump_fields(&f, ev);
	g_string_append(out, "}}");
}

void ftl_dump_event_as(GString *out, const FtlEvent *ev, gint64 origin, FtlFormat format,
		       gboolean first)
{
	if (format == FTL_FORMAT_CSV)
		dump_csv(out, ev, origin);
	else if (format == FTL_FORMAT_JSON)
		dump_json(out, ev, origin, first);
	else
		ftl_dump_event_at(out, ev, origin);
}

void ftl_dump_end(GString *out, FtlFormat format)
{
	if (format == FTL_FORMAT_JSON)
		g_string_append(out, "\n]}\n");
}
