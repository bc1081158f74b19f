/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Event lines of kernel trace files, trace_pipe, latency format and trace-cmd
 * report: the prefix "comm-pid [cpu] flags ts: " before the payload, and the
 * hw-branch tracer's lines. */
#include "config.h"

#include "parse/text-event.h"

#include <string.h>

#include "parse/text-payload.h"

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
static const char *event_timestamp(TextLine *tl, const char *p, const char *e)
{
	FtlEvent *ev = tl->ev;
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
		/* more microseconds than nanoseconds hold: not this layout's time */
		if (q < e && *q == ':' && v <= G_MAXINT64 / 1000) {
			ev->ts = (gint64)v * 1000;
			ev->flags |= FTL_EVENT_F_TS_REL;
			return q + 1;
		}
		return NULL;
	}
	/* a counter past G_MAXINT64 would be a negative time */
	if (*q == ':' && v <= G_MAXINT64) {
		ev->ts = (gint64)v;
		ev->flags |= FTL_EVENT_F_TS_COUNTER;
		return q + 1;
	}
	return NULL;
}

static void event_set_lat(TextLine *tl, const char *p, const char *e)
{
	FtlEvent *ev = tl->ev;
	if (!text_decodes(tl, FTL_FIELD_LAT))
		return;
	gsize n = MIN((gsize)(e - p), sizeof ev->lat - 1);
	memcpy(ev->lat, p, n);
	ev->lat[n] = 0;
}

TextLineResult ftl_text_parse_event_line(TextLine *tl, const char *p, const char *e)
{
	FtlEvent *ev = tl->ev;
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
				event_set_lat(tl, q, f);
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
		event_set_lat(tl, c, f);
		q = text_skip_ws(f, e);
		tl->latency = TRUE;
	}
	ev->cpu = (gint32)cpu;
	q = event_timestamp(tl, q, e);
	if (!q)
		return TEXT_LINE_NONE;
	const char *comm = text_skip_ws(p, comm_end);
	const char *ce = comm_end;
	while (ce > comm && (ce[-1] == ' ' || ce[-1] == '\t'))
		ce--;
	ev->pid = pid;
	if (!(ce - comm == 5 && memcmp(comm, "<...>", 5) == 0) && ce > comm &&
	    text_decodes(tl, FTL_FIELD_COMM))
		ev->comm = ftl_text_intern(tl, comm, ce);
	q = text_skip_ws(q, e);
	return ftl_text_classify_payload(tl, q, e);
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

TextLineResult ftl_text_parse_hwbranch_line(TextLine *tl, const char *p, const char *e)
{
	FtlEvent *ev = tl->ev;
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
	ev->name = tl->n->hw_branch;
	ev->payload = (FtlSlice){ to, (guint32)(e - to) };
	return TEXT_LINE_EVENT;
}
