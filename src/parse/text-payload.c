/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What follows a line's prefix: the payload shapes the analyses understand
 * (function calls, markers, sched and irq events, stacks) and function_graph's
 * call text, which event lines (trace-cmd report's funcgraph_entry/exit) and
 * function_graph lines both carry. */
#include "config.h"

#include "parse/text-payload.h"

#include <string.h>

#include "util/checked.h"

static gint32 payload_int(FtlSlice s, gint32 dflt)
{
	gint64 v;
	return ftl_slice_to_i64(s, &v) && v >= G_MININT32 && v <= G_MAXINT32 ? (gint32)v : dflt;
}

/* The values of keys[0..n) in one walk over the payload's fields (the first
 * of a repeated key, as ftl_event_field() finds it): bit i of the result
 * says keys[i] was found, into vals[i]. A sched_switch asks for seven. */
static guint payload_fields(const FtlEvent *ev, const char *const *keys, guint n, FtlSlice *vals)
{
	guint found = 0, all = (1u << n) - 1;
	if (ev->payload.len == 0) {
		for (guint i = 0; i < n; i++)
			if (ftl_event_field(ev, keys[i], &vals[i]))
				found |= 1u << i;
		return found;
	}
	guint32 pos = 0;
	FtlSlice k, v;
	while (found != all && ftl_payload_next_field(ev->payload, &pos, &k, &v))
		for (guint i = 0; i < n; i++)
			if (!(found & (1u << i)) && ftl_slice_eq(k, keys[i])) {
				vals[i] = v;
				found |= 1u << i;
				break;
			}
	return found;
}

/* A task's "pid=", "comm=" and "prio=" values as payload_fields() found
 * them in f[0..3) (bits 1, 2, 4 of got); what is missing keeps its value
 * (a comm is NULL). */
static void payload_task(TextLine *tl, guint got, const FtlSlice *f, const char **comm, gint32 *pid,
			 gint32 *prio)
{
	*comm = (got & 2) && f[1].len && text_decodes(tl, FTL_FIELD_COMM)
			? ftl_text_intern(tl, f[1].p, f[1].p + f[1].len)
			: NULL;
	if (got & 1)
		*pid = payload_int(f[0], -1);
	if (got & 4)
		*prio = payload_int(f[2], -1);
}

/* trace-cmd's "comm:pid [prio]" form; returns the end or NULL. */
static const char *payload_comm_pid_prio(TextLine *tl, const char *p, const char *e,
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
	*comm = text_decodes(tl, FTL_FIELD_COMM) ? ftl_text_intern(tl, p, colon) : NULL;
	*pid = (gint32)MIN(v, G_MAXINT32);
	*prio = (gint32)MIN(pr, G_MAXINT32);
	return r + 1;
}

static void payload_sched_switch(TextLine *tl)
{
	FtlEvent *ev = tl->ev;
	ev->kind = FTL_EVENT_SCHED_SWITCH;
	/* a function_graph line may have filled other members of the union
	 * before its comment turned out to be an event */
	memset(&ev->u.sw, 0, sizeof ev->u.sw);
	ev->u.sw.prev_pid = ev->u.sw.next_pid = -1;
	ev->u.sw.prev_prio = ev->u.sw.next_prio = -1;
	if (!text_decodes(tl, FTL_FIELD_PAYLOAD))
		return;
	static const char *const keys[] = { "prev_pid",	 "prev_comm", "prev_prio", "next_pid",
					    "next_comm", "next_prio", "prev_state" };
	FtlSlice f[G_N_ELEMENTS(keys)];
	guint got = payload_fields(ev, keys, G_N_ELEMENTS(keys), f);
	if (got & 1) {
		payload_task(tl, got, f, &ev->u.sw.prev_comm, &ev->u.sw.prev_pid,
			     &ev->u.sw.prev_prio);
		if (got & 64) {
			/* "S ==> next_comm=..." : the state is the first word */
			guint32 n = 0;
			while (n < f[6].len && f[6].p[n] != ' ')
				n++;
			ev->u.sw.prev_state = (FtlSlice){ f[6].p, n };
		}
		payload_task(tl, got >> 3, f + 3, &ev->u.sw.next_comm, &ev->u.sw.next_pid,
			     &ev->u.sw.next_prio);
		return;
	}
	/* trace-cmd: "prev:1 [120] S ==> next:2 [120]" */
	const char *p = ev->payload.p, *e = p + ev->payload.len;
	const char *q = payload_comm_pid_prio(tl, p, e, &ev->u.sw.prev_comm, &ev->u.sw.prev_pid,
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
	payload_comm_pid_prio(tl, q, e, &ev->u.sw.next_comm, &ev->u.sw.next_pid,
			      &ev->u.sw.next_prio);
}

static void payload_sched_wakeup(TextLine *tl)
{
	FtlEvent *ev = tl->ev;
	ev->kind = FTL_EVENT_SCHED_WAKEUP;
	memset(&ev->u.wake, 0, sizeof ev->u.wake); /* as in payload_sched_switch() */
	ev->u.wake.pid = ev->u.wake.prio = ev->u.wake.target_cpu = -1;
	if (!text_decodes(tl, FTL_FIELD_PAYLOAD))
		return;
	static const char *const keys[] = { "pid", "comm", "prio", "target_cpu" };
	FtlSlice f[G_N_ELEMENTS(keys)];
	guint got = payload_fields(ev, keys, G_N_ELEMENTS(keys), f);
	if (got & 1) {
		payload_task(tl, got, f, &ev->u.wake.comm, &ev->u.wake.pid, &ev->u.wake.prio);
		/* "target_cpu=001": decimal with leading zeros */
		guint64 c;
		if ((got & 8) && ftl_scan_u64(f[3].p, f[3].p + f[3].len, &c))
			ev->u.wake.target_cpu = (gint32)MIN(c, G_MAXINT32);
		return;
	}
	const char *p = ev->payload.p, *e = p + ev->payload.len;
	const char *q = payload_comm_pid_prio(tl, p, e, &ev->u.wake.comm, &ev->u.wake.pid,
					      &ev->u.wake.prio);
	if (!q)
		return;
	const char *c = g_strstr_len(q, e - q, "CPU:");
	guint64 cpu;
	if (c && ftl_scan_u64(c + 4, e, &cpu))
		ev->u.wake.target_cpu = (gint32)MIN(cpu, G_MAXINT32);
}

static void payload_irq(TextLine *tl, gboolean entry)
{
	FtlEvent *ev = tl->ev;
	ev->kind = entry ? FTL_EVENT_IRQ_ENTRY : FTL_EVENT_IRQ_EXIT;
	ev->u.irq.irq = -1;
	if (!text_decodes(tl, FTL_FIELD_PAYLOAD))
		return;
	static const char *const keys[] = { "irq", "name", "ret" };
	FtlSlice f[G_N_ELEMENTS(keys)];
	guint got = payload_fields(ev, keys, G_N_ELEMENTS(keys), f);
	if (got & 1)
		ev->u.irq.irq = payload_int(f[0], -1);
	if (entry && (got & 2))
		ev->u.irq.name = f[1];
	if (!entry && (got & 4))
		ev->u.irq.ret = ftl_slice_eq(f[2], "handled") ? 1 : payload_int(f[2], 0);
}

/* "func <-parent" / "func <-- parent" (trace-cmd) / "func (parent)" (old latency),
 * optionally followed by " (repeats: N, last_ts: T)". */
static gboolean payload_function(TextLine *tl, const char *p, const char *e)
{
	FtlEvent *ev = tl->ev;
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
	ev->name = tl->n->function;
	if (text_decodes(tl, FTL_FIELD_FUNC)) {
		ev->u.fn.func = ftl_text_intern(tl, p, fe);
		ev->u.fn.parent = pe > pp ? ftl_text_intern(tl, pp, pe) : NULL;
	}
	ev->u.fn.last_ts = FTL_TS_NONE;
	const char *r = arrow && text_decodes(tl, FTL_FIELD_PAYLOAD)
				? g_strstr_len(pe, e - pe, "(repeats: ")
				: NULL;
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
static gboolean payload_legacy_sched(TextLine *tl, const char *p, const char *e)
{
	FtlEvent *ev = tl->ev;
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
		if (c < e && text_decodes(tl, FTL_FIELD_COMM))
			comm = ftl_text_intern(tl, c, e);
	}
	ev->payload = (FtlSlice){ p, (guint32)(e - p) };
	if (wake) {
		ev->kind = FTL_EVENT_SCHED_WAKEUP;
		ev->name = tl->n->sched_wakeup;
		ev->u.wake.pid = (gint32)npid;
		ev->u.wake.prio = (gint32)nprio;
		ev->u.wake.comm = comm;
		ev->u.wake.target_cpu = target;
	} else {
		ev->kind = FTL_EVENT_SCHED_SWITCH;
		ev->name = tl->n->sched_switch;
		ev->u.sw.prev_pid = (gint32)pid;
		ev->u.sw.prev_prio = (gint32)prio;
		ev->u.sw.prev_state = (FtlSlice){ st, 1 };
		ev->u.sw.next_pid = (gint32)npid;
		ev->u.sw.next_prio = (gint32)nprio;
		ev->u.sw.next_comm = comm;
	}
	return TRUE;
}

/* "0xffffffff8109e0c8: text" or "func: text": the printing site apart
 * (into *site, empty when there is none) from the text. */
static FtlSlice payload_after_ip(const char *p, const char *e, FtlSlice *site)
{
	const char *c = p;
	while (c < e && *c != ' ' && *c != ':')
		c++;
	*site = (FtlSlice){ p, 0 };
	if (c + 1 < e && c[0] == ':' && c[1] == ' ' && c > p) {
		*site = (FtlSlice){ p, (guint32)(c - p) };
		return (FtlSlice){ c + 2, (guint32)(e - c - 2) };
	}
	return (FtlSlice){ p, (guint32)(e - p) };
}

static void payload_marker(FtlEvent *ev, FtlMarkerOrigin origin, FtlSlice caller, FtlSlice text)
{
	ev->kind = FTL_EVENT_MARKER;
	ev->u.marker.origin = origin;
	ev->u.marker.caller = caller;
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
static TextLineResult payload_funcgraph(TextLine *tl, gboolean entry, const char *p, const char *e)
{
	FtlEvent *ev = tl->ev;
	const char *bar = memchr(p, '|', (gsize)(e - p));
	tl->fgraph = TRUE;
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
		return ftl_text_parse_fgraph_call(tl, f, e, MAX(sp - 2, 0) / 2, dur, mark);
	}
	FtlSlice v;
	ev->kind = entry ? FTL_EVENT_FUNC_ENTRY : FTL_EVENT_FUNC_EXIT;
	ev->u.graph.duration = FTL_TS_NONE;
	ev->u.graph.mark = ' ';
	if (ftl_event_field(ev, "func", &v) && v.len && text_decodes(tl, FTL_FIELD_FUNC))
		ev->u.graph.func = ftl_text_intern(tl, v.p, v.p + v.len);
	if (ftl_event_field(ev, "depth", &v))
		ev->u.graph.depth = payload_int(v, 0);
	gint64 ct, rt;
	FtlSlice c2;
	if (!entry && ftl_event_field(ev, "calltime", &v) && ftl_event_field(ev, "rettime", &c2) &&
	    ftl_slice_to_i64(v, &ct) && ftl_slice_to_i64(c2, &rt) && rt >= ct &&
	    !ftl_checked_sub_i64(rt, ct, &ev->u.graph.duration))
		ev->u.graph.duration = FTL_TS_NONE; /* too long to be a duration */
	return TEXT_LINE_EVENT;
}

static gboolean payload_is_name_char(char c)
{
	return g_ascii_isalnum(c) || c == '_' || c == '.' || c == '-';
}

TextLineResult ftl_text_classify_payload(TextLine *tl, const char *p, const char *e)
{
	FtlEvent *ev = tl->ev;
	/* "name: payload" */
	const char *n = p;
	while (n < e && payload_is_name_char(*n))
		n++;
	if (text_has_prefix(p, e, "<stack trace>") || text_has_prefix(p, e, "<user stack trace>")) {
		ev->kind = FTL_EVENT_STACK;
		ev->name = p[1] == 'u' ? tl->n->user_stack : tl->n->kernel_stack;
		ev->payload = (FtlSlice){ p, (guint32)(e - p) };
		return TEXT_LINE_EVENT;
	}
	if (n > p && n < e && *n == ':' && (n + 1 == e || n[1] == ' ' || n[1] == '\t')) {
		const char *body = text_skip_ws(n + 1, e);
		gsize nl = (gsize)(n - p);
		ev->payload = (FtlSlice){ body, (guint32)(e - body) };
#define NAME_IS(lit) (nl == sizeof(lit) - 1 && memcmp(p, lit, nl) == 0)
		FtlSlice site;
		if (NAME_IS("tracing_mark_write")) {
			/* the kernel prints a print event as "caller: text"
			 * without its name: it is the event trace.dat calls
			 * print, written from tracing_mark_write */
			ev->name = tl->n->marker;
			payload_marker(ev, FTL_MARKER_TRACE_MARKER, (FtlSlice){ p, (guint32)nl },
				       ev->payload);
			return TEXT_LINE_EVENT;
		}
		ev->name = ftl_text_intern(tl, p, n);
		if (NAME_IS("print")) {
			FtlSlice text = payload_after_ip(body, e, &site);
			payload_marker(ev, FTL_MARKER_TRACE_MARKER, site, text);
		} else if (NAME_IS("bprint") || NAME_IS("bputs")) {
			FtlSlice text = payload_after_ip(body, e, &site);
			payload_marker(ev, FTL_MARKER_PRINTK, site, text);
		} else if (NAME_IS("function")) {
			if (!payload_function(tl, body, e))
				ev->kind = FTL_EVENT_GENERIC;
			ev->name = tl->n->function;
		} else if (NAME_IS("funcgraph_entry") || NAME_IS("funcgraph_exit")) {
			return payload_funcgraph(tl, NAME_IS("funcgraph_entry"), body, e);
		} else if (NAME_IS("sched_switch")) {
			payload_sched_switch(tl);
		} else if (NAME_IS("sched_wakeup") || NAME_IS("sched_wakeup_new")) {
			payload_sched_wakeup(tl);
		} else if (NAME_IS("irq_handler_entry")) {
			payload_irq(tl, TRUE);
		} else if (NAME_IS("irq_handler_exit")) {
			payload_irq(tl, FALSE);
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
		ev->name = ftl_text_intern(tl, buf, buf + strlen(buf));
		const char *body = enter ? n : n + 4;
		ev->payload = (FtlSlice){ body, (guint32)(e - body) };
		return TEXT_LINE_EVENT;
	}
	if (payload_function(tl, p, e))
		return TEXT_LINE_EVENT;
	if (payload_legacy_sched(tl, p, e))
		return TEXT_LINE_EVENT;
	/* A prefix we understood with a payload that names no event: tracers such
	 * as hwlat print their own records; name them after the tracer. */
	ev->name = tl->n->raw;
	tl->fix |= TEXT_FIX_TRACER;
	ev->payload = (FtlSlice){ p, (guint32)(e - p) };
	return TEXT_LINE_EVENT;
}

static void fgraph_tail_comment(TextLine *tl, const char *p, const char *e)
{
	FtlEvent *ev = tl->ev;
	if (!(tl->decode & (FTL_FIELD_FUNC | FTL_FIELD_RETVAL)))
		return; /* it holds nothing else */
	p = text_skip_ws(p, e);
	if (!text_has_prefix(p, e, "/*"))
		return;
	const char *c = text_skip_ws(p + 2, e);
	const char *ce = e;
	while (ce > c && (ce[-1] == ' ' || ce[-1] == '\t'))
		ce--;
	if (ce - c >= 2 && ce[-2] == '*' && ce[-1] == '/')
		ce -= 2;
	while (ce > c && ce[-1] == ' ')
		ce--;
	const char *eq = NULL;
	for (const char *x = c; x + 1 < ce; x++)
		if (x[0] == '=' && (x == c || x[-1] == ' ')) {
			eq = x;
			break;
		}
	const char *ne = eq ? eq : ce;
	while (ne > c && ne[-1] == ' ')
		ne--;
	if (ne > c && !ev->u.graph.func) {
		/* old docs print "} /" "* kmem_cache_free() *" "/" */
		const char *n2 = ne;
		if (n2 - c > 2 && n2[-2] == '(' && n2[-1] == ')')
			n2 -= 2;
		ev->u.graph.func = text_decodes(tl, FTL_FIELD_FUNC) ? ftl_text_intern(tl, c, n2) : NULL;
	}
	if (eq && text_decodes(tl, FTL_FIELD_RETVAL)) {
		const char *v = text_skip_ws(eq + 1, ce);
		gint64 rv;
		if (ftl_slice_to_i64((FtlSlice){ v, (guint32)(ce - v) }, &rv)) {
			ev->u.graph.retval = rv;
			ev->u.graph.has_retval = TRUE;
			ev->u.graph.retval_hex = ce - v > 2 && v[0] == '0' && (v[1] == 'x' || v[1] == 'X');
		}
	}
}

/* A comment line of the call text ("/" "* text *" "/", trace_printk and
 * trace_marker), or an event printed the same way ("name: payload"). */
static TextLineResult fgraph_comment(TextLine *tl, const char *p, const char *e)
{
	FtlEvent *ev = tl->ev;
	const char *c = text_skip_ws(p + 2, e);
	const char *ce = e;
	if (ce - c >= 2 && ce[-2] == '*' && ce[-1] == '/')
		ce -= 2;
	while (ce > c && (ce[-1] == ' ' || ce[-1] == '\t'))
		ce--;
	/* Events print as "name: payload"; a marker is free text. */
	const char *n = c;
	while (n < ce && (g_ascii_isalnum(*n) || *n == '_'))
		n++;
	if (n > c && n + 1 < ce && n[0] == ':' && n[1] == ' ') {
		TextLineResult r = ftl_text_classify_payload(tl, c, ce);
		ev->flags |= FTL_EVENT_F_COMMENT;
		return r;
	}
	ev->name = tl->n->comment;
	ev->kind = FTL_EVENT_MARKER;
	ev->flags |= FTL_EVENT_F_COMMENT;
	ev->u.marker.origin = FTL_MARKER_COMMENT;
	ev->u.marker.text = (FtlSlice){ c, (guint32)(ce - c) };
	ev->payload = ev->u.marker.text;
	return TEXT_LINE_EVENT;
}

/* What ends a function_graph call's name: its '(', or what no name has. */
static const guint8 fgraph_name_stop[256] = {
	['('] = TRUE, [' '] = TRUE, ['\t'] = TRUE, ['|'] = TRUE, [':'] = TRUE
};

/* The ')' that closes the '(' at open, or NULL. */
static const char *fgraph_close_paren(const char *open, const char *e)
{
	int nest = 0;
	for (const char *c = open; c < e; c++) {
		if (*c == '(')
			nest++;
		else if (*c == ')' && --nest == 0)
			return c;
	}
	return NULL;
}

/* A leaf ("name();"): the entry, of which the source makes the exit
 * (ftl_text_leaf_exit()); its duration is the exit's time. */
static TextLineResult fgraph_leaf(TextLine *tl)
{
	tl->fix |= TEXT_FIX_LEAF;
	return TEXT_LINE_EVENT;
}

TextLineResult ftl_text_parse_fgraph_call(TextLine *tl, const char *p, const char *e, gint depth,
					  gint64 duration, char mark)
{
	FtlEvent *ev = tl->ev;
	p = text_skip_ws(p, e);
	while (e > p && (e[-1] == ' ' || e[-1] == '\t'))
		e--;
	if (p >= e)
		return TEXT_LINE_NONE;
	ev->u.graph.depth = depth;
	ev->u.graph.duration = duration;
	ev->u.graph.mark = mark;
	tl->fgraph = TRUE;
	if (*p == '}') {
		ev->kind = FTL_EVENT_FUNC_EXIT;
		ev->name = tl->n->funcgraph_exit;
		ev->payload = (FtlSlice){ p, (guint32)(e - p) };
		fgraph_tail_comment(tl, p + 1, e);
		return TEXT_LINE_EVENT;
	}
	if (text_has_prefix(p, e, "/*"))
		return fgraph_comment(tl, p, e);
	/* "name(args) {" or "name(args);": the name runs to the '(' */
	const char *open = p;
	while (open < e && !fgraph_name_stop[(guchar)*open])
		open++;
	if (open == e || *open != '(' || open == p)
		return TEXT_LINE_NONE;
	const char *close = fgraph_close_paren(open, e);
	if (!close)
		return TEXT_LINE_NONE;
	const char *after = text_skip_ws(close + 1, e);
	if (after >= e)
		return TEXT_LINE_NONE;
	if (text_decodes(tl, FTL_FIELD_FUNC))
		ev->u.graph.func = ftl_text_intern(tl, p, open);
	ev->kind = FTL_EVENT_FUNC_ENTRY;
	ev->name = tl->n->funcgraph_entry;
	ev->payload = (FtlSlice){ p, (guint32)(e - p) };
	if (*after == '{' && text_skip_ws(after + 1, e) == e)
		return TEXT_LINE_EVENT;
	if (*after != ';')
		return TEXT_LINE_NONE;
	fgraph_tail_comment(tl, after + 1, e);
	return fgraph_leaf(tl);
}

TextLineResult ftl_text_parse_fgraph_call_fast(TextLine *tl, const char *f, const char *e,
					       gint depth, gint64 duration, char mark)
{
	FtlEvent *ev = tl->ev;
	while (e > f && (e[-1] == ' ' || e[-1] == '\t'))
		e--;
	if (f >= e || *f == '\t')
		return TEXT_LINE_NONE;
	gboolean leaf = FALSE;
	if (*f == '}') {
		if (e - f != 1)
			return TEXT_LINE_NONE;
		ev->kind = FTL_EVENT_FUNC_EXIT;
		ev->name = tl->n->funcgraph_exit;
	} else {
		const char *open = f;
		while (open < e && !fgraph_name_stop[(guchar)*open])
			open++;
		if (open == f || e - open < 3 || open[0] != '(' || open[1] != ')')
			return TEXT_LINE_NONE;
		leaf = e - open == 3 && open[2] == ';';
		if (!leaf && !(e - open == 4 && open[2] == ' ' && open[3] == '{'))
			return TEXT_LINE_NONE;
		if (text_decodes(tl, FTL_FIELD_FUNC))
			ev->u.graph.func = ftl_text_intern(tl, f, open);
		ev->kind = FTL_EVENT_FUNC_ENTRY;
		ev->name = tl->n->funcgraph_entry;
	}
	ev->u.graph.depth = depth;
	ev->u.graph.duration = duration;
	ev->u.graph.mark = mark;
	ev->payload = (FtlSlice){ f, (guint32)(e - f) };
	tl->fgraph = TRUE;
	return leaf ? fgraph_leaf(tl) : TEXT_LINE_EVENT;
}
