/* SPDX-License-Identifier: GPL-2.0-or-later */
/* function_graph text in all its layouts: optional abstime/rel-time, CPU,
 * task, latency-flag and duration columns, each closed by '|', then the call
 * text ("f() {", "f();", "}", "} /" "* f = ret *" "/", comments), plus the
 * task-switch separator and irq arrow lines. */
#include "config.h"

#include <string.h>

#include "parse/text-private.h"
#include "util/slots.h"

/* "comm-pid" (trimmed); fills comm/pid and returns TRUE. */
static gboolean fgraph_comm_pid(TextSource *ts, const char *p, const char *e, const char **comm,
				gint32 *pid)
{
	p = text_skip_ws(p, e);
	while (e > p && (e[-1] == ' ' || e[-1] == '\t'))
		e--;
	const char *d = e;
	while (d > p && g_ascii_isdigit(d[-1]))
		d--;
	if (d == e || d - p < 2 || d[-1] != '-' || e - d > 10)
		return FALSE;
	guint64 v;
	ftl_scan_u64(d, e, &v);
	*pid = (gint32)MIN(v, G_MAXINT32);
	const char *ce = d - 1;
	*comm = (ce - p == 5 && memcmp(p, "<...>", 5) == 0)
			? NULL
			: ftl_strpool_intern_len(ts->pool, p, (gsize)(ce - p));
	return TRUE;
}

static void fgraph_cpu_task_init(gpointer slot, guint idx)
{
	((TextCpuTask *)slot)->pid = -1;
}

static TextCpuTask *fgraph_cpu_task(TextSource *ts, gint32 cpu)
{
	if (cpu < 0 || cpu >= 4096)
		return NULL;
	return ftl_slots_get(ts->cpu_task, (guint)cpu, fgraph_cpu_task_init);
}

/* " 0)    bash-4802   =>    <idle>-0   " */
static gboolean fgraph_task_switch(TextSource *ts, const char *p, const char *e)
{
	/* cheap test first: every other function_graph line has a '|' */
	if (memchr(p, '|', (gsize)(e - p)))
		return FALSE;
	const char *arrow = g_strstr_len(p, e - p, "=>");
	if (!arrow)
		return FALSE;
	FtlEvent *ev = &ts->ev;
	if (!fgraph_comm_pid(ts, p, arrow, &ev->u.sw.prev_comm, &ev->u.sw.prev_pid) ||
	    !fgraph_comm_pid(ts, arrow + 2, e, &ev->u.sw.next_comm, &ev->u.sw.next_pid))
		return FALSE;
	ev->kind = FTL_EVENT_TASK_SWITCH;
	ev->name = ts->n_task_switch;
	ev->u.sw.prev_prio = ev->u.sw.next_prio = -1;
	ev->pid = ev->u.sw.prev_pid;
	ev->comm = ev->u.sw.prev_comm;
	ev->payload = (FtlSlice){ p, (guint32)(e - p) };
	TextCpuTask *t = fgraph_cpu_task(ts, ev->cpu);
	if (t) {
		t->pid = ev->u.sw.next_pid;
		t->comm = ev->u.sw.next_comm;
	}
	ftl_tasks_note(ftl_trace_tasks(ts->base.trace), ev->u.sw.next_pid, -1, ev->u.sw.next_comm,
		       FALSE);
	return TRUE;
}

/* The duration column: "+ 13.445 us", "0.551 us", "$ 3594274 us". */
static gboolean fgraph_duration(const char *p, const char *e, gint64 *ns, char *mark)
{
	*mark = ' ';
	if (p < e && strchr("+!#*@$", *p)) {
		*mark = *p;
		p = text_skip_ws(p + 1, e);
	}
	const char *q = ftl_scan_usecs(p, e, ns);
	if (!q)
		return FALSE;
	q = text_skip_ws(q, e);
	return text_has_prefix(q, e, "us") && text_skip_ws(q + 2, e) == e;
}

static gboolean fgraph_is_flags(const char *p, const char *e)
{
	if (e - p < 3 || e - p > 7)
		return FALSE;
	for (; p < e; p++)
		if (!(*p == '.' || g_ascii_isalnum(*p)))
			return FALSE;
	return TRUE;
}

/* "/" "* = -22 *" "/" or "/" "* func = 0x0 *" "/" or "/" "* func *" "/" after a call. */
static void fgraph_tail_comment(TextSource *ts, const char *p, const char *e)
{
	FtlEvent *ev = &ts->ev;
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
		ev->u.graph.func = ftl_strpool_intern_len(ts->pool, c, (gsize)(n2 - c));
	}
	if (eq) {
		const char *v = text_skip_ws(eq + 1, ce);
		gint64 rv;
		if (ftl_slice_to_i64((FtlSlice){ v, (guint32)(ce - v) }, &rv)) {
			ev->u.graph.retval = rv;
			ev->u.graph.has_retval = TRUE;
		}
	}
}

/* A comment line of the call text ("/" "* text *" "/", trace_printk and
 * trace_marker), or an event printed the same way ("name: payload"). */
static TextLineResult fgraph_comment(TextSource *ts, const char *p, const char *e)
{
	FtlEvent *ev = &ts->ev;
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
		TextLineResult r = ftl_text_classify_payload(ts, c, ce);
		ev->flags |= FTL_EVENT_F_COMMENT;
		return r;
	}
	ev->name = ts->n_comment;
	ev->kind = FTL_EVENT_MARKER;
	ev->flags |= FTL_EVENT_F_COMMENT;
	ev->u.marker.origin = FTL_MARKER_COMMENT;
	ev->u.marker.text = (FtlSlice){ c, (guint32)(ce - c) };
	ev->payload = ev->u.marker.text;
	return TEXT_LINE_EVENT;
}

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

/* A leaf ("name();"): the entry now, the exit (synthesized) next. */
static TextLineResult fgraph_leaf(TextSource *ts, gint64 duration)
{
	FtlEvent *ev = &ts->ev;
	ts->pending = *ev;
	ts->pending.kind = FTL_EVENT_FUNC_EXIT;
	ts->pending.name = ts->n_funcgraph_exit;
	ts->pending.flags |= FTL_EVENT_F_SYNTH;
	if (ev->ts != FTL_TS_NONE && duration != FTL_TS_NONE)
		ts->pending.ts = ev->ts + duration;
	ev->u.graph.has_retval = FALSE;
	return TEXT_LINE_LEAF;
}

TextLineResult ftl_text_parse_fgraph_call(TextSource *ts, const char *p, const char *e, gint depth,
					  gint64 duration, char mark)
{
	FtlEvent *ev = &ts->ev;
	p = text_skip_ws(p, e);
	while (e > p && (e[-1] == ' ' || e[-1] == '\t'))
		e--;
	if (p >= e)
		return TEXT_LINE_NONE;
	ev->u.graph.depth = depth;
	ev->u.graph.duration = duration;
	ev->u.graph.mark = mark;
	ts->fgraph = TRUE;
	if (*p == '}') {
		ev->kind = FTL_EVENT_FUNC_EXIT;
		ev->name = ts->n_funcgraph_exit;
		ev->payload = (FtlSlice){ p, (guint32)(e - p) };
		fgraph_tail_comment(ts, p + 1, e);
		return TEXT_LINE_EVENT;
	}
	if (text_has_prefix(p, e, "/*"))
		return fgraph_comment(ts, p, e);
	/* "name(args) {" or "name(args);" */
	const char *open = memchr(p, '(', (gsize)(e - p));
	if (!open || open == p)
		return TEXT_LINE_NONE;
	for (const char *c = p; c < open; c++)
		if (*c == ' ' || *c == '\t' || *c == '|' || *c == ':')
			return TEXT_LINE_NONE;
	const char *close = fgraph_close_paren(open, e);
	if (!close)
		return TEXT_LINE_NONE;
	const char *after = text_skip_ws(close + 1, e);
	if (after >= e)
		return TEXT_LINE_NONE;
	ev->u.graph.func = ftl_strpool_intern_len(ts->pool, p, (gsize)(open - p));
	ev->kind = FTL_EVENT_FUNC_ENTRY;
	ev->name = ts->n_funcgraph_entry;
	ev->payload = (FtlSlice){ p, (guint32)(e - p) };
	if (*after == '{' && text_skip_ws(after + 1, e) == e)
		return TEXT_LINE_EVENT;
	if (*after != ';')
		return TEXT_LINE_NONE;
	fgraph_tail_comment(ts, after + 1, e);
	return fgraph_leaf(ts, duration);
}

/* The TIME column at *q: "7238523.638008 |", or latency's REL TIME
 * "   12 us |". 1 when there is one (*q moves past it), 0 when there is
 * none, -1 when the line cannot be function_graph's. */
static int fgraph_time_column(TextSource *ts, const char **q, const char *e)
{
	FtlEvent *ev = &ts->ev;
	guint64 v;
	const char *r;
	if (!g_ascii_isdigit(**q))
		return 0;
	gint64 ns;
	if ((r = ftl_scan_sec(*q, e, &ns))) {
		r = text_skip_ws(r, e);
		if (r < e && *r == '|') {
			ev->ts = ns;
			*q = r + 1;
			return 1;
		}
		/* a number that is neither a TIME column nor a duration
		 * ("4.518 us |" without the CPU column) */
		return text_has_prefix(r, e, "us") ? 0 : -1;
	}
	if ((r = ftl_scan_u64(*q, e, &v))) {
		const char *r2 = text_skip_ws(r, e);
		if (text_has_prefix(r2, e, "us")) {
			r2 = text_skip_ws(r2 + 2, e);
			if (r2 < e && *r2 == '|') {
				ev->ts = (gint64)v * 1000;
				ev->flags |= FTL_EVENT_F_TS_REL;
				*q = r2 + 1;
				return 1;
			}
		}
	}
	return 0;
}

/* What the '|'-terminated columns after the CPU said. */
typedef struct {
	gint64 dur;
	char mark;
	int irq; /* 1: "==========>", -1: "<==========", 0: neither */
	const char *comm;
	gint32 pid; /* -1: no funcgraph-proc column */
	gboolean have_bar;
} FgraphColumns;

/* Reads the columns from *q on (duration, irq arrows, latency flags,
 * funcgraph-proc); *q moves past the last '|' that closes one. */
static void fgraph_columns(TextSource *ts, const char **q, const char *e, gboolean have_cpu,
			   FgraphColumns *c)
{
	FtlEvent *ev = &ts->ev;
	*c = (FgraphColumns){ .dur = FTL_TS_NONE, .mark = ' ', .pid = -1 };
	for (;;) {
		const char *s = text_skip_ws(*q, e);
		const char *bar = memchr(s, '|', (gsize)(e - s));
		if (!bar)
			break;
		const char *se = bar;
		while (se > s && (se[-1] == ' ' || se[-1] == '\t'))
			se--;
		gint64 d;
		char m;
		if (se == s) {
			/* blank duration column */
		} else if (se - s == 11 && text_has_prefix(s, se, "==========>")) {
			c->irq = 1;
		} else if (se - s == 11 && text_has_prefix(s, se, "<==========")) {
			c->irq = -1;
		} else if (fgraph_duration(s, se, &d, &m)) {
			c->dur = d;
			c->mark = m;
		} else if (fgraph_is_flags(s, se) && have_cpu) {
			gsize n = MIN((gsize)(se - s), sizeof ev->lat - 1);
			memcpy(ev->lat, s, n);
			ev->lat[n] = 0;
		} else if (have_cpu && !c->comm && fgraph_comm_pid(ts, s, se, &c->comm, &c->pid)) {
			/* funcgraph-proc column */
		} else {
			break;
		}
		*q = bar + 1;
		c->have_bar = TRUE;
	}
}

/* The task: the funcgraph-proc column's, else the one the CPU's last
 * task-switch line switched to. */
static void fgraph_task(TextSource *ts, const FgraphColumns *c)
{
	FtlEvent *ev = &ts->ev;
	if (c->pid >= 0) {
		ev->pid = c->pid;
		ev->comm = c->comm;
		return;
	}
	TextCpuTask *t = fgraph_cpu_task(ts, ev->cpu);
	if (t && t->pid >= 0) {
		ev->pid = t->pid;
		ev->comm = t->comm;
		ev->flags |= FTL_EVENT_F_PID_INFERRED;
	}
}

TextLineResult ftl_text_parse_fgraph_line(TextSource *ts, const char *p, const char *e)
{
	FtlEvent *ev = &ts->ev;
	const char *q = p;
	const char *after_cpu = NULL;
	guint64 v;
	const char *r;
	int have_time = fgraph_time_column(ts, &q, e);
	if (have_time < 0)
		return TEXT_LINE_NONE;
	/* CPU column: "0)" */
	gboolean have_cpu = FALSE;
	q = text_skip_ws(q, e);
	if ((r = ftl_scan_u64(q, e, &v)) && r < e && *r == ')' && v < 100000) {
		ev->cpu = (gint32)v;
		q = r + 1;
		after_cpu = q;
		have_cpu = TRUE;
	} else if (have_time) {
		return TEXT_LINE_NONE;
	}
	if (have_cpu && fgraph_task_switch(ts, q, e))
		return TEXT_LINE_EVENT;
	FgraphColumns cols;
	fgraph_columns(ts, &q, e, have_cpu, &cols);
	if (!have_cpu && !cols.have_bar)
		return TEXT_LINE_NONE;
	fgraph_task(ts, &cols);
	if (cols.irq) {
		if (text_skip_ws(q, e) != e)
			return TEXT_LINE_NONE;
		ts->fgraph = TRUE;
		ev->kind = cols.irq > 0 ? FTL_EVENT_IRQ_ENTRY : FTL_EVENT_IRQ_EXIT;
		ev->name = ts->n_irq_graph;
		ev->u.irq.irq = -1;
		ev->payload = (FtlSlice){ p, (guint32)(e - p) };
		return TEXT_LINE_EVENT;
	}
	/* indent: "|  " then two blanks per level; without columns, ") " then two per level */
	int sp = 0;
	const char *f = cols.have_bar ? q : after_cpu;
	while (f < e && *f == ' ') {
		f++;
		sp++;
	}
	int depth = cols.have_bar ? (sp - 2) / 2 : (sp - 1) / 2;
	return ftl_text_parse_fgraph_call(ts, f, e, MAX(depth, 0), cols.dur, cols.mark);
}
