/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Event lines of kernel trace files, trace_pipe, latency format and trace-cmd
 * report: "comm-pid [cpu] flags ts: name: payload", and the payload shapes the
 * analyses understand (function calls, markers, sched and irq events, stacks). */
#include "config.h"

#include <string.h>

#include "parse/text-private.h"

static gboolean event_is_flag_char(char c)
{
	return c == '.' || g_ascii_isalnum(c);
}

/* Finds "comm-pid" ending at a '-' followed by digits and a blank or '('.
 * Returns the char after the pid, or NULL. */
static const char *event_comm_pid(const char *p, const char *e, const char **comm_end, gint32 *pid)
{
	for (const char *d = p + 1; d < e; d++) {
		d = memchr(d, '-', (gsize)(e - d));
		if (!d)
			return NULL;
		const char *q = d + 1;
		guint64 v;
		const char *r = ftl_scan_u64(q, e, &v);
		if (!r || r >= e || (*r != ' ' && *r != '\t' && *r != '(') || v > G_MAXINT32)
			continue;
		*comm_end = d;
		*pid = (gint32)v;
		return r;
	}
	return NULL;
}

/* The timestamp that ends the prefix: "123.456789:", "1234us+:", "1234:". */
static const char *event_timestamp(TextSource *ts, const char *p, const char *e)
{
	FtlEvent *ev = &ts->ev;
	gint64 ns;
	const char *q = ftl_scan_sec(p, e, &ns);
	if (q) {
		if (q < e && *q == ':') {
			ev->ts = ns;
			return q + 1;
		}
		return NULL;
	}
	guint64 v;
	q = ftl_scan_u64(p, e, &v);
	if (!q || q >= e)
		return NULL;
	if (text_has_prefix(q, e, "us")) {
		/* latency format: "%4lldus%c: " with a delay mark */
		q += 2;
		if (q < e && *q != ':')
			q++;
		if (q < e && *q == ':') {
			ev->ts = (gint64)v * 1000;
			ev->flags |= FTL_EVENT_F_TS_REL;
			return q + 1;
		}
		return NULL;
	}
	if (*q == ':') {
		ev->ts = (gint64)v;
		ev->flags |= FTL_EVENT_F_TS_COUNTER;
		return q + 1;
	}
	return NULL;
}

static void event_set_lat(FtlEvent *ev, const char *p, const char *e)
{
	gsize n = MIN((gsize)(e - p), sizeof ev->lat - 1);
	memcpy(ev->lat, p, n);
	ev->lat[n] = 0;
}

TextLineResult ftl_text_parse_event_line(TextSource *ts, const char *p, const char *e)
{
	FtlEvent *ev = &ts->ev;
	const char *comm_end;
	gint32 pid;
	const char *q = event_comm_pid(p, e, &comm_end, &pid);
	if (!q)
		return TEXT_LINE_NONE;
	q = text_skip_ws(q, e);
	if (q < e && *q == '(') {
		/* TGID column: "(  123)" or "(-----)" */
		const char *c = memchr(q, ')', (gsize)(e - q));
		if (!c || c - q > 12)
			return TEXT_LINE_NONE;
		const char *t = text_skip_ws(q + 1, c);
		guint64 tg;
		if (ftl_scan_u64(t, c, &tg))
			ev->tgid = (gint32)MIN(tg, G_MAXINT32);
		q = text_skip_ws(c + 1, e);
	}
	guint64 cpu;
	if (q < e && *q == '[') {
		const char *c = ftl_scan_u64(q + 1, e, &cpu);
		if (!c || c >= e || *c != ']' || cpu > 100000)
			return TEXT_LINE_NONE;
		q = text_skip_ws(c + 1, e);
		/* optional latency flags ("d..1", "dN.2.") before the timestamp */
		const char *f = q;
		while (f < e && *f != ' ' && *f != '\t')
			f++;
		gint64 probe;
		const char *t = ftl_scan_sec(q, e, &probe);
		gboolean is_ts = t && t < e && *t == ':';
		if (!is_ts && f < e && f - q <= 7) {
			gboolean flags = TRUE;
			for (const char *c2 = q; c2 < f; c2++)
				flags = flags && event_is_flag_char(*c2);
			if (flags) {
				event_set_lat(ev, q, f);
				q = text_skip_ws(f, e);
			}
		}
	} else {
		/* latency layout: cpu digits run straight into the flags ("0d..1") */
		const char *c = ftl_scan_u64(q, e, &cpu);
		if (!c || cpu > 100000)
			return TEXT_LINE_NONE;
		const char *f = c;
		while (f < e && event_is_flag_char(*f))
			f++;
		if (f == c || f >= e || (*f != ' ' && *f != '\t') || f - c > 7)
			return TEXT_LINE_NONE;
		event_set_lat(ev, c, f);
		q = text_skip_ws(f, e);
		ts->latency = TRUE;
	}
	ev->cpu = (gint32)cpu;
	q = event_timestamp(ts, q, e);
	if (!q)
		return TEXT_LINE_NONE;
	const char *comm = text_skip_ws(p, comm_end);
	const char *ce = comm_end;
	while (ce > comm && (ce[-1] == ' ' || ce[-1] == '\t'))
		ce--;
	ev->pid = pid;
	if (!(ce - comm == 5 && memcmp(comm, "<...>", 5) == 0) && ce > comm)
		ev->comm = ftl_text_intern(ts, comm, ce);
	q = text_skip_ws(q, e);
	return ftl_text_classify_payload(ts, q, e);
}

/* ---- payloads ------------------------------------------------------ */

static gint32 payload_int(FtlSlice s, gint32 dflt)
{
	gint64 v;
	return ftl_slice_to_i64(s, &v) && v >= G_MININT32 && v <= G_MAXINT32 ? (gint32)v : dflt;
}

static const char *payload_field_comm(TextSource *ts, const FtlEvent *ev, const char *key)
{
	FtlSlice v;
	if (!ftl_event_field(ev, key, &v) || v.len == 0)
		return NULL;
	return ftl_strpool_intern_len(ts->pool, v.p, v.len);
}

/* trace-cmd's "comm:pid [prio]" form; returns the end or NULL. */
static const char *payload_comm_pid_prio(TextSource *ts, const char *p, const char *e,
					 const char **comm, gint32 *pid, gint32 *prio)
{
	/* the pid is after the last ':' before " [" */
	const char *br = NULL;
	for (const char *c = p; c + 1 < e; c++)
		if (c[0] == ' ' && c[1] == '[') {
			br = c;
			break;
		}
	if (!br)
		return NULL;
	const char *colon = NULL;
	for (const char *c = br - 1; c > p; c--)
		if (*c == ':') {
			colon = c;
			break;
		}
	guint64 v, pr;
	if (!colon || ftl_scan_u64(colon + 1, br, &v) != br)
		return NULL;
	const char *r = ftl_scan_u64(br + 2, e, &pr);
	if (!r || r >= e || *r != ']')
		return NULL;
	*comm = ftl_strpool_intern_len(ts->pool, p, (gsize)(colon - p));
	*pid = (gint32)MIN(v, G_MAXINT32);
	*prio = (gint32)MIN(pr, G_MAXINT32);
	return r + 1;
}

static void payload_sched_switch(TextSource *ts)
{
	FtlEvent *ev = &ts->ev;
	FtlSlice v;
	ev->kind = FTL_EVENT_SCHED_SWITCH;
	/* a function_graph line may have filled other members of the union
	 * before its comment turned out to be an event */
	memset(&ev->u.sw, 0, sizeof ev->u.sw);
	ev->u.sw.prev_pid = ev->u.sw.next_pid = -1;
	ev->u.sw.prev_prio = ev->u.sw.next_prio = -1;
	if (ftl_event_field(ev, "prev_pid", &v)) {
		ev->u.sw.prev_comm = payload_field_comm(ts, ev, "prev_comm");
		ev->u.sw.prev_pid = payload_int(v, -1);
		if (ftl_event_field(ev, "prev_prio", &v))
			ev->u.sw.prev_prio = payload_int(v, -1);
		if (ftl_event_field(ev, "prev_state", &v)) {
			/* "S ==> next_comm=..." : the state is the first word */
			guint32 n = 0;
			while (n < v.len && v.p[n] != ' ')
				n++;
			ev->u.sw.prev_state = (FtlSlice){ v.p, n };
		}
		ev->u.sw.next_comm = payload_field_comm(ts, ev, "next_comm");
		if (ftl_event_field(ev, "next_pid", &v))
			ev->u.sw.next_pid = payload_int(v, -1);
		if (ftl_event_field(ev, "next_prio", &v))
			ev->u.sw.next_prio = payload_int(v, -1);
		return;
	}
	/* trace-cmd: "prev:1 [120] S ==> next:2 [120]" */
	const char *p = ev->payload.p, *e = p + ev->payload.len;
	const char *q = payload_comm_pid_prio(ts, p, e, &ev->u.sw.prev_comm, &ev->u.sw.prev_pid,
					      &ev->u.sw.prev_prio);
	if (!q)
		return;
	q = text_skip_ws(q, e);
	const char *st = q;
	while (q < e && *q != ' ')
		q++;
	ev->u.sw.prev_state = (FtlSlice){ st, (guint32)(q - st) };
	q = text_skip_ws(q, e);
	if (!text_has_prefix(q, e, "==>"))
		return;
	q = text_skip_ws(q + 3, e);
	payload_comm_pid_prio(ts, q, e, &ev->u.sw.next_comm, &ev->u.sw.next_pid,
			      &ev->u.sw.next_prio);
}

static void payload_sched_wakeup(TextSource *ts)
{
	FtlEvent *ev = &ts->ev;
	FtlSlice v;
	ev->kind = FTL_EVENT_SCHED_WAKEUP;
	memset(&ev->u.wake, 0, sizeof ev->u.wake); /* as in payload_sched_switch() */
	ev->u.wake.pid = ev->u.wake.prio = ev->u.wake.target_cpu = -1;
	if (ftl_event_field(ev, "pid", &v)) {
		ev->u.wake.comm = payload_field_comm(ts, ev, "comm");
		ev->u.wake.pid = payload_int(v, -1);
		if (ftl_event_field(ev, "prio", &v))
			ev->u.wake.prio = payload_int(v, -1);
		if (ftl_event_field(ev, "target_cpu", &v)) {
			/* "target_cpu=001": decimal with leading zeros */
			guint64 c;
			if (ftl_scan_u64(v.p, v.p + v.len, &c))
				ev->u.wake.target_cpu = (gint32)MIN(c, G_MAXINT32);
		}
		return;
	}
	const char *p = ev->payload.p, *e = p + ev->payload.len;
	const char *q = payload_comm_pid_prio(ts, p, e, &ev->u.wake.comm, &ev->u.wake.pid,
					      &ev->u.wake.prio);
	if (!q)
		return;
	const char *c = g_strstr_len(q, e - q, "CPU:");
	guint64 cpu;
	if (c && ftl_scan_u64(c + 4, e, &cpu))
		ev->u.wake.target_cpu = (gint32)MIN(cpu, G_MAXINT32);
}

static void payload_irq(TextSource *ts, gboolean entry)
{
	FtlEvent *ev = &ts->ev;
	FtlSlice v;
	ev->kind = entry ? FTL_EVENT_IRQ_ENTRY : FTL_EVENT_IRQ_EXIT;
	ev->u.irq.irq = -1;
	if (ftl_event_field(ev, "irq", &v))
		ev->u.irq.irq = payload_int(v, -1);
	if (entry && ftl_event_field(ev, "name", &v))
		ev->u.irq.name = v;
	if (!entry && ftl_event_field(ev, "ret", &v))
		ev->u.irq.ret = ftl_slice_eq(v, "handled") ? 1 : payload_int(v, 0);
}

/* "func <-parent" / "func <-- parent" (trace-cmd) / "func (parent)" (old latency),
 * optionally followed by " (repeats: N, last_ts: T)". */
static gboolean payload_function(TextSource *ts, const char *p, const char *e)
{
	FtlEvent *ev = &ts->ev;
	const char *arrow = g_strstr_len(p, e - p, " <-");
	const char *fe, *pp, *pe;
	if (arrow) {
		fe = arrow;
		pp = arrow + 3;
		if (pp < e && *pp == '-')
			pp++;
		pp = text_skip_ws(pp, e);
		pe = pp;
		while (pe < e && *pe != ' ' && *pe != '\t')
			pe++;
	} else {
		/* "name (parent)" */
		fe = p;
		while (fe < e && *fe != ' ' && *fe != '(')
			fe++;
		const char *o = text_skip_ws(fe, e);
		if (o >= e || *o != '(' || e[-1] != ')' || fe == p)
			return FALSE;
		pp = o + 1;
		pe = e - 1;
		for (const char *c = pp; c < pe; c++)
			if (*c == ' ' || *c == '(')
				return FALSE;
	}
	while (fe > p && fe[-1] == ' ')
		fe--;
	if (fe == p)
		return FALSE;
	for (const char *c = p; c < fe; c++)
		if (*c == ' ' || *c == '\t')
			return FALSE;
	ev->kind = FTL_EVENT_FUNC;
	ev->name = ts->n_function;
	ev->u.fn.func = ftl_text_intern(ts, p, fe);
	ev->u.fn.parent = pe > pp ? ftl_text_intern(ts, pp, pe) : NULL;
	ev->u.fn.last_ts = FTL_TS_NONE;
	const char *r = arrow ? g_strstr_len(pe, e - pe, "(repeats: ") : NULL;
	if (r) {
		guint64 n;
		const char *q = ftl_scan_u64(r + 10, e, &n);
		if (q) {
			ev->u.fn.repeats = (guint32)MIN(n, G_MAXUINT32);
			q = g_strstr_len(q, e - q, "last_ts:");
			gint64 lt;
			if (q && ftl_scan_sec(text_skip_ws(q + 8, e), e, &lt))
				ev->u.fn.last_ts = lt;
		}
	}
	ev->payload = (FtlSlice){ p, (guint32)(e - p) };
	return TRUE;
}

/* The legacy sched_switch / wakeup tracers: "3997:120:R ==> 4055:120:R" and
 * "0:120:R   + [003]  2448: 94:R sleep". */
static gboolean payload_legacy_sched(TextSource *ts, const char *p, const char *e)
{
	FtlEvent *ev = &ts->ev;
	guint64 pid, prio;
	const char *q = ftl_scan_u64(p, e, &pid);
	if (!q || q >= e || *q != ':')
		return FALSE;
	q = text_skip_ws(q + 1, e);
	q = ftl_scan_u64(q, e, &prio);
	if (!q || q + 1 >= e || q[0] != ':')
		return FALSE;
	const char *st = q + 1;
	q = text_skip_ws(st + 1, e);
	gboolean wake;
	if (text_has_prefix(q, e, "==>"))
		wake = FALSE;
	else if (q < e && *q == '+')
		wake = TRUE;
	else
		return FALSE;
	q = text_skip_ws(q + (wake ? 1 : 3), e);
	gint32 target = -1;
	if (q < e && *q == '[') {
		guint64 c;
		const char *r = ftl_scan_u64(q + 1, e, &c);
		if (!r || *r != ']')
			return FALSE;
		target = (gint32)c;
		q = text_skip_ws(r + 1, e);
	}
	guint64 npid, nprio;
	q = ftl_scan_u64(q, e, &npid);
	if (!q || q >= e || *q != ':')
		return FALSE;
	q = ftl_scan_u64(text_skip_ws(q + 1, e), e, &nprio);
	if (!q)
		return FALSE;
	const char *comm = NULL;
	if (q + 2 < e && q[0] == ':') {
		const char *c = text_skip_ws(q + 2, e);
		if (c < e)
			comm = ftl_text_intern(ts, c, e);
	}
	ev->payload = (FtlSlice){ p, (guint32)(e - p) };
	if (wake) {
		ev->kind = FTL_EVENT_SCHED_WAKEUP;
		ev->name = ts->n_sched_wakeup;
		ev->u.wake.pid = (gint32)npid;
		ev->u.wake.prio = (gint32)nprio;
		ev->u.wake.comm = comm;
		ev->u.wake.target_cpu = target;
	} else {
		ev->kind = FTL_EVENT_SCHED_SWITCH;
		ev->name = ts->n_sched_switch;
		ev->u.sw.prev_pid = (gint32)pid;
		ev->u.sw.prev_prio = (gint32)prio;
		ev->u.sw.prev_state = (FtlSlice){ st, 1 };
		ev->u.sw.next_pid = (gint32)npid;
		ev->u.sw.next_prio = (gint32)nprio;
		ev->u.sw.next_comm = comm;
	}
	return TRUE;
}

/* "0xffffffff8109e0c8: text" or "func: text": strip the printing site. */
static FtlSlice payload_after_ip(const char *p, const char *e)
{
	const char *c = p;
	while (c < e && *c != ' ' && *c != ':')
		c++;
	if (c + 1 < e && c[0] == ':' && c[1] == ' ' && c > p)
		return (FtlSlice){ c + 2, (guint32)(e - c - 2) };
	return (FtlSlice){ p, (guint32)(e - p) };
}

static void payload_marker(FtlEvent *ev, FtlMarkerOrigin origin, FtlSlice text)
{
	ev->kind = FTL_EVENT_MARKER;
	ev->u.marker.origin = origin;
	/* trace_marker writes usually end with the writer's newline */
	for (;;) {
		if (text.len && text.p[text.len - 1] == ' ')
			text.len--;
		else if (text.len >= 2 && text.p[text.len - 2] == '\\' &&
			 text.p[text.len - 1] == 'n')
			text.len -= 2; /* printed escaped by some tools */
		else
			break;
	}
	ev->u.marker.text = text;
}

/* trace-cmd report's funcgraph_entry/funcgraph_exit: either the graph text
 * ("+ 36.358 us |  }") or raw fields ("func=0x... depth=0"). */
static TextLineResult payload_funcgraph(TextSource *ts, gboolean entry, const char *p,
					const char *e)
{
	FtlEvent *ev = &ts->ev;
	const char *bar = memchr(p, '|', (gsize)(e - p));
	ts->fgraph = TRUE;
	if (bar) {
		const char *q = text_skip_ws(p, bar);
		gint64 dur = FTL_TS_NONE;
		char mark = ' ';
		if (q < bar && strchr("+!#*@$", *q)) {
			mark = *q;
			q = text_skip_ws(q + 1, bar);
		}
		if (q < bar) {
			const char *r = ftl_scan_usecs(q, bar, &dur);
			if (!r || !text_has_prefix(text_skip_ws(r, bar), bar, "us"))
				return TEXT_LINE_NONE;
		}
		const char *f = bar + 1;
		gint sp = 0;
		while (f < e && *f == ' ') {
			f++;
			sp++;
		}
		return ftl_text_parse_fgraph_call(ts, f, e, MAX(sp - 2, 0) / 2, dur, mark);
	}
	FtlSlice v;
	ev->kind = entry ? FTL_EVENT_FUNC_ENTRY : FTL_EVENT_FUNC_EXIT;
	ev->u.graph.duration = FTL_TS_NONE;
	ev->u.graph.mark = ' ';
	if (ftl_event_field(ev, "func", &v) && v.len)
		ev->u.graph.func = ftl_strpool_intern_len(ts->pool, v.p, v.len);
	if (ftl_event_field(ev, "depth", &v))
		ev->u.graph.depth = payload_int(v, 0);
	gint64 ct, rt;
	FtlSlice c2;
	if (!entry && ftl_event_field(ev, "calltime", &v) && ftl_event_field(ev, "rettime", &c2) &&
	    ftl_slice_to_i64(v, &ct) && ftl_slice_to_i64(c2, &rt) && rt >= ct)
		ev->u.graph.duration = rt - ct;
	return TEXT_LINE_EVENT;
}

static gboolean payload_is_name_char(char c)
{
	return g_ascii_isalnum(c) || c == '_' || c == '.' || c == '-';
}

/* hw-branch-tracer: "   0  to+0x5/0x6	  <-  from+0x1/0x2" */
/* A symbol's "[module]" tag, as hw-branch lines print it for module code. */
static const char *hwbranch_skip_module(const char *p, const char *e)
{
	const char *q = text_skip_ws(p, e);
	if (q >= e || *q != '[')
		return p;
	const char *c = memchr(q, ']', (gsize)(e - q));
	return c && c > q + 1 ? c + 1 : p;
}

TextLineResult ftl_text_parse_hwbranch_line(TextSource *ts, const char *p, const char *e)
{
	FtlEvent *ev = &ts->ev;
	guint64 cpu;
	const char *q = ftl_scan_u64(p, e, &cpu);
	if (!q || q >= e || (*q != ' ' && *q != '\t') || cpu > 100000)
		return TEXT_LINE_NONE;
	const char *to = text_skip_ws(q, e);
	const char *te = to;
	while (te < e && *te != ' ' && *te != '\t')
		te++;
	const char *arrow = text_skip_ws(hwbranch_skip_module(te, e), e);
	if (te == to || !text_has_prefix(arrow, e, "<-"))
		return TEXT_LINE_NONE;
	const char *from = text_skip_ws(arrow + 2, e);
	const char *fe = from;
	while (fe < e && *fe != ' ' && *fe != '\t')
		fe++;
	if (fe == from || text_skip_ws(hwbranch_skip_module(fe, e), e) != e)
		return TEXT_LINE_NONE;
	ev->cpu = (gint32)cpu;
	ev->kind = FTL_EVENT_GENERIC;
	ev->name = ftl_strpool_intern(ts->pool, "hw_branch");
	ev->payload = (FtlSlice){ to, (guint32)(e - to) };
	return TEXT_LINE_EVENT;
}

TextLineResult ftl_text_classify_payload(TextSource *ts, const char *p, const char *e)
{
	FtlEvent *ev = &ts->ev;
	/* "name: payload" */
	const char *n = p;
	while (n < e && payload_is_name_char(*n))
		n++;
	if (text_has_prefix(p, e, "<stack trace>") || text_has_prefix(p, e, "<user stack trace>")) {
		ev->kind = FTL_EVENT_STACK;
		ev->name = p[1] == 'u' ? ts->n_user_stack : ts->n_kernel_stack;
		ev->payload = (FtlSlice){ p, (guint32)(e - p) };
		return TEXT_LINE_EVENT;
	}
	if (n > p && n < e && *n == ':' && (n + 1 == e || n[1] == ' ' || n[1] == '\t')) {
		const char *body = text_skip_ws(n + 1, e);
		gsize nl = (gsize)(n - p);
		ev->payload = (FtlSlice){ body, (guint32)(e - body) };
#define NAME_IS(lit) (nl == sizeof(lit) - 1 && memcmp(p, lit, nl) == 0)
		if (NAME_IS("tracing_mark_write")) {
			ev->name = ts->n_marker;
			payload_marker(ev, FTL_MARKER_TRACE_MARKER, ev->payload);
			return TEXT_LINE_EVENT;
		}
		ev->name = ftl_text_intern(ts, p, n);
		if (NAME_IS("print")) {
			payload_marker(ev, FTL_MARKER_TRACE_MARKER, payload_after_ip(body, e));
		} else if (NAME_IS("bprint") || NAME_IS("bputs")) {
			payload_marker(ev, FTL_MARKER_PRINTK, payload_after_ip(body, e));
		} else if (NAME_IS("function")) {
			if (!payload_function(ts, body, e))
				ev->kind = FTL_EVENT_GENERIC;
			ev->name = ts->n_function;
		} else if (NAME_IS("funcgraph_entry") || NAME_IS("funcgraph_exit")) {
			return payload_funcgraph(ts, NAME_IS("funcgraph_entry"), body, e);
		} else if (NAME_IS("sched_switch")) {
			payload_sched_switch(ts);
		} else if (NAME_IS("sched_wakeup") || NAME_IS("sched_wakeup_new")) {
			payload_sched_wakeup(ts);
		} else if (NAME_IS("irq_handler_entry")) {
			payload_irq(ts, TRUE);
		} else if (NAME_IS("irq_handler_exit")) {
			payload_irq(ts, FALSE);
		} else if (NAME_IS("kernel_stack") || NAME_IS("user_stack")) {
			ev->kind = FTL_EVENT_STACK;
		}
#undef NAME_IS
		return TEXT_LINE_EVENT;
	}
	/* syscall events print without a colon: "sys_read(fd: 3, ...)", "sys_read -> 0x0" */
	if (n > p && text_has_prefix(p, e, "sys_") &&
	    ((n < e && *n == '(' && e[-1] == ')') || text_has_prefix(n, e, " -> "))) {
		gboolean enter = *n == '(';
		char buf[128];
		g_snprintf(buf, sizeof buf, "%s%.*s", enter ? "sys_enter_" : "sys_exit_",
			   (int)MIN(n - p - 4, 100), p + 4);
		ev->name = ftl_strpool_intern(ts->pool, buf);
		const char *body = enter ? n : n + 4;
		ev->payload = (FtlSlice){ body, (guint32)(e - body) };
		return TEXT_LINE_EVENT;
	}
	if (payload_function(ts, p, e))
		return TEXT_LINE_EVENT;
	if (payload_legacy_sched(ts, p, e))
		return TEXT_LINE_EVENT;
	/* A prefix we understood with a payload that names no event: tracers such
	 * as hwlat print their own records; name them after the tracer. */
	ev->name = ts->base.tracer ? ts->base.tracer : ts->n_raw;
	ev->payload = (FtlSlice){ p, (guint32)(e - p) };
	return TEXT_LINE_EVENT;
}
