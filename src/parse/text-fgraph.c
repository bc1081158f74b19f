/* SPDX-License-Identifier: GPL-2.0-or-later */
/* function_graph lines in all their layouts: optional abstime/rel-time, CPU,
 * task, latency-flag and duration columns, each closed by '|', before the
 * call text; plus the task-switch separator and irq arrow lines. */
#include "config.h"

#include "parse/text-fgraph.h"

#include <string.h>

#include "parse/text-payload.h"

/* "comm-pid" (trimmed); fills comm/pid and returns TRUE. The name is "<...>"
 * when it returns 1, another one when it returns 2 (decoded into *comm or
 * not); 0: not "comm-pid". */
static int fgraph_comm_pid(TextLine *tl, const char *p, const char *e, const char **comm,
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
	guint64 v = 0;
	ftl_scan_u64(d, e, &v);
	*pid = (gint32)MIN(v, G_MAXINT32);
	const char *ce = d - 1;
	if (ce - p == 5 && memcmp(p, "<...>", 5) == 0) {
		*comm = NULL;
		return 1;
	}
	*comm = text_decodes(tl, FTL_FIELD_COMM) ? ftl_text_intern(tl, p, ce) : NULL;
	return 2;
}

/* " 0)    bash-4802   =>    <idle>-0   ", a line without a '|' (every
 * other function_graph line has one: the caller tests that first). */
static gboolean fgraph_task_switch(TextLine *tl, const char *p, const char *e)
{
	const char *arrow = g_strstr_len(p, e - p, "=>");
	if (!arrow)
		return FALSE;
	FtlEvent *ev = tl->ev;
	if (!fgraph_comm_pid(tl, p, arrow, &ev->u.sw.prev_comm, &ev->u.sw.prev_pid) ||
	    !fgraph_comm_pid(tl, arrow + 2, e, &ev->u.sw.next_comm, &ev->u.sw.next_pid))
		return FALSE;
	ev->kind = FTL_EVENT_TASK_SWITCH;
	ev->name = tl->n->task_switch;
	ev->u.sw.prev_prio = ev->u.sw.next_prio = -1;
	ev->pid = ev->u.sw.prev_pid;
	ev->comm = ev->u.sw.prev_comm;
	ev->payload = (FtlSlice){ p, (guint32)(e - p) };
	TextCpuTask *t = ftl_text_cpu_task(tl->cpu_task, ev->cpu);
	if (t) {
		t->pid = ev->u.sw.next_pid;
		t->comm = ev->u.sw.next_comm;
	}
	return TRUE;
}

/* The end of the microseconds at p as ftl_scan_usecs() reads them, or
 * NULL where it reads none, without their value: digits, then '.' and
 * digits. Sixteen digits or more before the '.' may be too many (it
 * refuses those): the caller then asks it. */
static const char *fgraph_skip_usecs(const char *p, const char *e, gboolean *unsure)
{
	const char *q = text_skip_digits(p, e);
	*unsure = q - p >= 16;
	if (q == p)
		return NULL;
	return q < e && *q == '.' ? text_skip_digits(q + 1, e) : q;
}

/* The duration column: "+ 13.445 us", "0.551 us", "$ 3594274 us". With
 * value FALSE (a line whose duration no one reads) only the form is
 * checked, as strictly: *ns and *mark keep their empty values. */
static gboolean fgraph_duration(const char *p, const char *e, gboolean value, gint64 *ns,
				char *mark)
{
	char m = ' ';
	if (p < e && (*p == '+' || *p == '!' || *p == '#' || *p == '*' || *p == '@' || *p == '$')) {
		m = *p;
		p = text_skip_ws(p + 1, e);
	}
	gint64 v;
	gboolean unsure = FALSE;
	const char *q = value ? NULL : fgraph_skip_usecs(p, e, &unsure);
	if (value || unsure)
		q = ftl_scan_usecs(p, e, &v);
	if (!q)
		return FALSE;
	q = text_skip_ws(q, e);
	if (!text_has_prefix(q, e, "us") || text_skip_ws(q + 2, e) != e)
		return FALSE;
	if (value) {
		*ns = v;
		*mark = m;
	}
	return TRUE;
}

/* Whether the line's duration is decoded: when asked, or when the line has
 * a time (a leaf's exit is timed by it). */
static inline gboolean fgraph_wants_duration(TextLine *tl)
{
	return tl->ev->ts != FTL_TS_NONE || text_decodes(tl, FTL_FIELD_DURATION);
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

/* The TIME column at *q: "7238523.638008 |", or latency's REL TIME
 * "   12 us |". 1 when there is one (*q moves past it), 0 when there is
 * none, -1 when the line cannot be function_graph's. */
static int fgraph_time_column(TextLine *tl, const char **q, const char *e)
{
	FtlEvent *ev = tl->ev;
	guint64 v;
	const char *r;
	if (!g_ascii_isdigit(**q) || !(r = ftl_scan_u64(*q, e, &v)))
		return 0;
	if (r < e && *r == '.') {
		/* seconds; the digits were read once more only on these lines */
		gint64 ns;
		if (!(r = ftl_scan_sec(*q, e, &ns)))
			return 0; /* "12." or too many seconds: no column */
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
	r = text_skip_ws(r, e);
	if (!text_has_prefix(r, e, "us"))
		return 0;
	r = text_skip_ws(r + 2, e);
	if (r >= e || *r != '|')
		return 0;
	if (v > G_MAXINT64 / 1000)
		return -1; /* more microseconds than nanoseconds hold */
	ev->ts = (gint64)v * 1000;
	ev->flags |= FTL_EVENT_F_TS_REL;
	*q = r + 1;
	return 1;
}

/* What the '|'-terminated columns after the CPU said. */
typedef struct {
	gint64 dur;
	char mark;
	int irq; /* 1: "==========>", -1: "<==========", 0: neither */
	const char *comm;
	gint32 pid; /* -1: no funcgraph-proc column */
	/* a funcgraph-proc column named its task (not "<...>"), whether the
	 * name is decoded or not: no second one is looked for then */
	gboolean named;
	gboolean have_bar;
	gboolean no_bar; /* not one '|' after the CPU column */
} FgraphColumns;

/* Reads the columns from *q on (duration, irq arrows, latency flags,
 * funcgraph-proc); *q moves past the last '|' that closes one. */
static void fgraph_columns(TextLine *tl, const char **q, const char *e, gboolean have_cpu,
			   FgraphColumns *c)
{
	FtlEvent *ev = tl->ev;
	*c = (FgraphColumns){ .dur = FTL_TS_NONE, .mark = ' ', .pid = -1 };
	for (;;) {
		/* a blank duration column is fifteen spaces */
		const char *s = text_skip_ws(text_skip_spaces(*q, e), e);
		const char *bar = memchr(s, '|', (gsize)(e - s));
		if (!bar) {
			c->no_bar = !c->have_bar;
			break;
		}
		const char *se = bar;
		while (se > s && (se[-1] == ' ' || se[-1] == '\t'))
			se--;
		gint64 d = FTL_TS_NONE;
		char m = ' ';
		int named;
		if (se == s) {
			/* blank duration column */
		} else if (se - s == 11 && text_has_prefix(s, se, "==========>")) {
			c->irq = 1;
		} else if (se - s == 11 && text_has_prefix(s, se, "<==========")) {
			c->irq = -1;
		} else if (fgraph_duration(s, se, fgraph_wants_duration(tl), &d, &m)) {
			c->dur = d;
			c->mark = m;
		} else if (fgraph_is_flags(s, se) && have_cpu) {
			if (text_decodes(tl, FTL_FIELD_LAT)) {
				gsize n = MIN((gsize)(se - s), sizeof ev->lat - 1);
				memcpy(ev->lat, s, n);
				ev->lat[n] = 0;
			}
		} else if (have_cpu && !c->named &&
			   (named = fgraph_comm_pid(tl, s, se, &c->comm, &c->pid))) {
			/* funcgraph-proc column */
			c->named = named == 2;
		} else {
			break;
		}
		*q = bar + 1;
		c->have_bar = TRUE;
	}
}

/* The task: the funcgraph-proc column's, else the one the CPU's last
 * task-switch line switched to. */
static void fgraph_task(TextLine *tl, const FgraphColumns *c)
{
	FtlEvent *ev = tl->ev;
	if (c->pid >= 0) {
		ev->pid = c->pid;
		ev->comm = c->comm;
		return;
	}
	TextCpuTask *t = ftl_text_cpu_task(tl->cpu_task, ev->cpu);
	if (t && t->pid >= 0) {
		ev->pid = t->pid;
		ev->comm = t->comm;
		ev->flags |= FTL_EVENT_F_PID_INFERRED;
	} else if (t) {
		/* no switch on this CPU earlier in the chunk: the source knows */
		tl->fix |= TEXT_FIX_TASK;
	}
}

TextLineResult ftl_text_parse_fgraph_line(TextLine *tl, const char *p, const char *e)
{
	FtlEvent *ev = tl->ev;
	const char *q = p;
	const char *after_cpu = NULL;
	guint64 v;
	const char *r;
	int have_time = fgraph_time_column(tl, &q, e);
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
	/* the columns first: they find whether the line has a '|' at all */
	FgraphColumns cols;
	fgraph_columns(tl, &q, e, have_cpu, &cols);
	if (have_cpu && cols.no_bar && fgraph_task_switch(tl, q, e))
		return TEXT_LINE_EVENT;
	if (!have_cpu && !cols.have_bar)
		return TEXT_LINE_NONE;
	fgraph_task(tl, &cols);
	if (cols.irq) {
		if (text_skip_ws(q, e) != e)
			return TEXT_LINE_NONE;
		tl->fgraph = TRUE;
		ev->kind = cols.irq > 0 ? FTL_EVENT_IRQ_ENTRY : FTL_EVENT_IRQ_EXIT;
		ev->name = tl->n->irq_graph;
		ev->u.irq.irq = -1;
		ev->payload = (FtlSlice){ p, (guint32)(e - p) };
		return TEXT_LINE_EVENT;
	}
	/* indent: "|  " then two blanks per level; without columns, ") " then two per level */
	const char *f = cols.have_bar ? q : after_cpu;
	const char *f0 = f;
	f = text_skip_spaces(f, e);
	int sp = (int)(f - f0);
	int depth = cols.have_bar ? (sp - 2) / 2 : (sp - 1) / 2;
	return ftl_text_parse_fgraph_call(tl, f, e, MAX(depth, 0), cols.dur, cols.mark);
}

/* ---- the fast path: the standard column layout at fixed offsets -------- */

/* The columns of [line, e) that a layout fixes, or FALSE when the line is
 * not function_graph's "[TIME |] CPU) [TASK-PID |] DURATION |  call". */
gboolean ftl_text_fgraph_learn(TextFgraphLayout *l, const char *line, const char *e)
{
	*l = (TextFgraphLayout){ .time_bar = -1, .proc_bar = -1 };
	const char *close = memchr(line, ')', (gsize)MIN(e - line, 64));
	if (!close)
		return FALSE;
	const char *bar = memchr(line, '|', (gsize)(close - line));
	if (bar) {
		l->time_bar = (gint)(bar - line);
		if (memchr(bar + 1, '|', (gsize)(close - bar - 1)))
			return FALSE;
	}
	l->cpu_close = (gint)(close - line);
	const char *b1 = memchr(close, '|', (gsize)MIN(e - close, 256));
	if (!b1)
		return FALSE;
	/* a column that ends in digits is a task's "comm-pid" (funcgraph-proc);
	 * the duration column follows it */
	const char *se = b1;
	while (se > close + 1 && (se[-1] == ' ' || se[-1] == '\t'))
		se--;
	if (se > close + 1 && g_ascii_isdigit(se[-1])) {
		const char *b2 = memchr(b1 + 1, '|', (gsize)MIN(e - b1 - 1, 64));
		if (!b2)
			return FALSE;
		l->proc_bar = (gint)(b1 - line);
		b1 = b2;
	}
	l->bar = (gint)(b1 - line);
	return TRUE;
}

/* [p, e) holds nothing but spaces, then at least one and at most five
 * digits: their value in *v. */
static gboolean fast_cpu(const char *p, const char *e, gint32 *v)
{
	while (p < e && *p == ' ')
		p++;
	if (p == e || e - p > 5)
		return FALSE;
	gint32 n = 0;
	for (; p < e; p++) {
		if ((guint)(*p - '0') >= 10)
			return FALSE;
		n = n * 10 + (*p - '0');
	}
	*v = n;
	return TRUE;
}

TextLineResult ftl_text_parse_fgraph_fast(TextLine *tl, const TextFgraphLayout *l,
					  const char *line, const char *p, const char *e)
{
	FtlEvent *ev = tl->ev;
	if (e - line <= l->bar + 1 || line[l->bar] != '|' || line[l->cpu_close] != ')')
		return TEXT_LINE_NONE;
	const char *cpu_from = p;
	if (l->time_bar >= 0) {
		/* "  7238523.638008 |": what fgraph_time_column() reads */
		guint64 v;
		gint64 ns;
		const char *bar = line + l->time_bar;
		const char *r = ftl_scan_u64(p, bar, &v);
		if (*bar != '|' || !r || *r != '.' || !(r = ftl_scan_sec(p, bar, &ns)) ||
		    text_skip_ws(r, bar) != bar)
			return TEXT_LINE_NONE;
		ev->ts = ns;
		cpu_from = bar + 1;
	} else if (p > line + l->cpu_close) {
		return TEXT_LINE_NONE;
	}
	gint32 cpu;
	if (!fast_cpu(cpu_from, line + l->cpu_close, &cpu))
		return TEXT_LINE_NONE;
	ev->cpu = cpu;
	FgraphColumns c = { .dur = FTL_TS_NONE, .mark = ' ', .pid = -1 };
	const char *q = line + l->cpu_close + 1;
	if (l->proc_bar >= 0) {
		/* a task's "comm-pid" is never a duration, flags or an irq arrow */
		const char *bar = line + l->proc_bar;
		const char *s = text_skip_ws(q, bar);
		if (*bar != '|' || memchr(s, '|', (gsize)(bar - s)) ||
		    !fgraph_comm_pid(tl, s, bar, &c.comm, &c.pid))
			return TEXT_LINE_NONE;
		q = bar + 1;
	}
	/* the duration column: blank or a duration, and no '|' before its bar */
	const char *bar = line + l->bar;
	const char *s = text_skip_ws(text_skip_spaces(q, bar), bar);
	if (s < bar) {
		const char *se = bar;
		while (se > s && (se[-1] == ' ' || se[-1] == '\t'))
			se--;
		if (!fgraph_duration(s, se, fgraph_wants_duration(tl), &c.dur, &c.mark))
			return TEXT_LINE_NONE;
	}
	const char *f = text_skip_spaces(bar + 1, e);
	int sp = (int)(f - (bar + 1));
	/* the task first, as the general parser: a leaf's exit copies it */
	fgraph_task(tl, &c);
	return ftl_text_parse_fgraph_call_fast(tl, f, e, MAX((sp - 2) / 2, 0), c.dur, c.mark);
}
