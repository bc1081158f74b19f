/* SPDX-License-Identifier: GPL-2.0-or-later */
/* trace-cmd trace.dat files (versions 6 and 7) read through libtracecmd: the
 * only file that calls libtracecmd, and where its errors become ftlens's. */
#include "config.h"

#include "parse/tracedat.h"

#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <event-parse.h>
#include <event-utils.h>
#include <trace-cmd.h>
#include <trace-seq.h>

#include "util/error.h"

/* Exported by libtracecmd 1.3 but declared only in trace-cmd's private
 * header; the saved per-CPU ring-buffer statistics are the one place a
 * trace.dat says how many events were overwritten. */
const char *tracecmd_get_cpustats(struct tracecmd_input *handle);

static const char tracedat_magic[] = {0x17, 0x08, 0x44, 't', 'r', 'a', 'c', 'i', 'n', 'g'};

gboolean ftl_tracedat_sniff(const char *data, gsize size)
{
	return size >= sizeof tracedat_magic && memcmp(data, tracedat_magic, sizeof tracedat_magic) == 0;
}

/* ---- library messages ------------------------------------------------ */

/* libtraceevent and libtracecmd print through tep_vprint(), a weak symbol
 * meant to be overridden: while a trace.dat is opened the messages are kept
 * for the error (the library's reason is what the user needs), otherwise they
 * go to GLib's debug log, never straight to stderr. */
static GString *tracedat_captured;

int tep_vprint(const char *name, enum tep_loglevel level, bool print_err, const char *fmt,
	       va_list ap)
{
	int saved = errno;
	g_autofree char *msg = g_strdup_vprintf(fmt, ap);
	g_strchomp(msg);
	if (tracedat_captured && level <= TEP_LOG_WARNING) {
		if (tracedat_captured->len)
			g_string_append(tracedat_captured, "; ");
		g_string_append(tracedat_captured, msg);
		if (print_err && saved && saved != ENOENT && !strstr(msg, g_strerror(saved)))
			g_string_append_printf(tracedat_captured, " (%s)", g_strerror(saved));
	} else {
		g_debug("%s: %s", name ? name : "libtraceevent", msg);
	}
	return 0;
}

/* ---- the source -------------------------------------------------------- */

typedef struct {
	FtlEventKind kind;
	const char *name; /* interned */
	FtlMarkerOrigin origin;
	gboolean is_print; /* ftrace:print: the text is the buf field */
	struct tep_format_field *f[8];
} TracedatEventInfo;

/* Field slots per kind. */
enum { F_IP = 0, F_PARENT = 1 };
enum { F_FUNC = 0, F_DEPTH = 1, F_CALLTIME = 2, F_RETTIME = 3 };
enum { F_PREV_COMM = 0, F_PREV_PID, F_PREV_PRIO, F_PREV_STATE, F_NEXT_COMM, F_NEXT_PID, F_NEXT_PRIO };
enum { F_W_COMM = 0, F_W_PID, F_W_PRIO, F_W_TARGET };
enum { F_IRQ = 0, F_IRQ_NAME = 1, F_IRQ_RET = 2 };
enum { F_BUF = 0 };

typedef struct {
	guint64 value;
	const char *str;
} TracedatStateSym;

typedef struct {
	FtlSource base;
	struct tracecmd_input *handle;
	struct tep_handle *tep;
	FtlStrPool *pool;
	gint n_cpus;
	struct tep_record **heads; /* the next record of each CPU, NULL when drained */
	gboolean *drained;
	gboolean *lost_seen;       /* a CPU had a missed-events mark */
	struct tep_record *cur;    /* the record behind ev; alive until the next next() */
	gboolean lost_pending;     /* ev is the LOST before cur; cur's own event comes next */
	FtlEvent ev;
	guint64 seq;
	GHashTable *events;        /* event id -> TracedatEventInfo */
	GArray *last_ts;           /* gint64 per CPU, for the time_backwards diagnostic */
	struct trace_seq text;     /* rendered text of the current event (markers, payload) */
	GArray *states;            /* TracedatStateSym: sched_switch prev_state letters */
	guint64 state_report_max;  /* the "preempted" bit of prev_state, 0 if unknown */
	gboolean states_done;
	GString *state_text;       /* prev_state of the current sched_switch */
	const char *n_lost;
	gboolean top; /* the top buffer, not an instance: owns the saved cpustats */
} TracedatSource;

static void tracedat_record_free(struct tep_record *r)
{
	if (r)
		tracecmd_free_record(r);
}

static struct tep_format_field *tracedat_field(struct tep_event *event, const char *name)
{
	return event ? tep_find_field(event, name) : NULL;
}

static TracedatEventInfo *tracedat_event_info(TracedatSource *ts, struct tep_event *event, int id)
{
	TracedatEventInfo *info = g_hash_table_lookup(ts->events, GINT_TO_POINTER(id));
	if (info)
		return info;
	info = g_new0(TracedatEventInfo, 1);
	g_hash_table_insert(ts->events, GINT_TO_POINTER(id), info);
	info->kind = FTL_EVENT_GENERIC;
	if (!event) {
		char buf[32];
		g_snprintf(buf, sizeof buf, "unknown_event_%d", id);
		info->name = ftl_strpool_intern(ts->pool, buf);
		return info;
	}
	const char *n = event->name ? event->name : "?";
	info->name = ftl_strpool_intern(ts->pool, n);
	gboolean ftrace = g_strcmp0(event->system, "ftrace") == 0;
#define F(i, s) (info->f[i] = tracedat_field(event, s))
	if (ftrace && strcmp(n, "function") == 0) {
		info->kind = FTL_EVENT_FUNC;
		F(F_IP, "ip");
		F(F_PARENT, "parent_ip");
	} else if (ftrace && (strcmp(n, "funcgraph_entry") == 0 || strcmp(n, "funcgraph_exit") == 0)) {
		info->kind = n[10] == 'e' && n[11] == 'n' ? FTL_EVENT_FUNC_ENTRY : FTL_EVENT_FUNC_EXIT;
		F(F_FUNC, "func");
		F(F_DEPTH, "depth");
		F(F_CALLTIME, "calltime");
		F(F_RETTIME, "rettime");
	} else if (ftrace && strcmp(n, "print") == 0) {
		info->kind = FTL_EVENT_MARKER;
		info->origin = FTL_MARKER_TRACE_MARKER;
		info->is_print = TRUE;
		F(F_BUF, "buf");
	} else if (ftrace && (strcmp(n, "bprint") == 0 || strcmp(n, "bputs") == 0)) {
		info->kind = FTL_EVENT_MARKER;
		info->origin = FTL_MARKER_PRINTK;
	} else if (strcmp(n, "sched_switch") == 0) {
		info->kind = FTL_EVENT_SCHED_SWITCH;
		F(F_PREV_COMM, "prev_comm");
		F(F_PREV_PID, "prev_pid");
		F(F_PREV_PRIO, "prev_prio");
		F(F_PREV_STATE, "prev_state");
		F(F_NEXT_COMM, "next_comm");
		F(F_NEXT_PID, "next_pid");
		F(F_NEXT_PRIO, "next_prio");
	} else if (strcmp(n, "sched_wakeup") == 0 || strcmp(n, "sched_wakeup_new") == 0) {
		info->kind = FTL_EVENT_SCHED_WAKEUP;
		F(F_W_COMM, "comm");
		F(F_W_PID, "pid");
		F(F_W_PRIO, "prio");
		F(F_W_TARGET, "target_cpu");
	} else if (strcmp(n, "irq_handler_entry") == 0 || strcmp(n, "irq_handler_exit") == 0) {
		info->kind = n[12] == 'e' && n[13] == 'n' ? FTL_EVENT_IRQ_ENTRY : FTL_EVENT_IRQ_EXIT;
		F(F_IRQ, "irq");
		F(F_IRQ_NAME, "name");
		F(F_IRQ_RET, "ret");
	}
#undef F
	return info;
}

/* A number field, bounds-checked against the record: damaged data must not
 * make us read past it. */
static gboolean tracedat_num(struct tep_record *r, struct tep_format_field *f, gint64 *out)
{
	unsigned long long v;
	if (!f || f->size <= 0 || f->size > 8 || f->offset < 0 || f->offset + f->size > r->size ||
	    tep_read_number_field(f, r->data, &v) != 0)
		return FALSE;
	if ((f->flags & TEP_FIELD_IS_SIGNED) && f->size < 8) {
		guint64 sign = 1ull << (f->size * 8 - 1);
		v = (v ^ sign) - sign;
	}
	*out = (gint64)v;
	return TRUE;
}

static gint32 tracedat_i32(struct tep_record *r, struct tep_format_field *f, gint32 dflt)
{
	gint64 v;
	return tracedat_num(r, f, &v) && v >= G_MININT32 && v <= G_MAXINT32 ? (gint32)v : dflt;
}

/* A string field: fixed char[N], a trailing char[] or a __data_loc/__rel_loc
 * string. Returns its bytes within the record and their length up to the NUL. */
static const char *tracedat_str(struct tep_record *r, struct tep_format_field *f, gsize *len)
{
	if (!f || f->offset < 0 || f->offset > r->size)
		return NULL;
	gint64 start = f->offset, size = f->size;
	if (f->flags & TEP_FIELD_IS_DYNAMIC) {
		unsigned long long loc;
		if (f->size != 4 || f->offset + 4 > r->size ||
		    tep_read_number_field(f, r->data, &loc) != 0)
			return NULL;
		start = (gint64)(loc & 0xffff);
		size = (gint64)(loc >> 16);
		if (f->flags & TEP_FIELD_IS_RELATIVE)
			start += f->offset + f->size;
	} else if (size == 0) {
		size = r->size - start; /* "char buf[]" runs to the end of the record */
	}
	if (start < 0 || size < 0 || start + size > r->size)
		return NULL;
	const char *p = (const char *)r->data + start;
	*len = strnlen(p, (gsize)size);
	return p;
}

static const char *tracedat_intern_str(TracedatSource *ts, struct tep_record *r,
				       struct tep_format_field *f)
{
	gsize len;
	const char *p = tracedat_str(r, f, &len);
	return p ? ftl_strpool_intern_len(ts->pool, p, len) : NULL;
}

static const char *tracedat_func_name(TracedatSource *ts, gint64 addr)
{
	const char *fn = tep_find_function(ts->tep, (unsigned long long)addr);
	if (fn)
		return ftl_strpool_intern(ts->pool, fn);
	char buf[32];
	g_snprintf(buf, sizeof buf, "0x%llx", (unsigned long long)addr);
	return ftl_strpool_intern(ts->pool, buf);
}

/* The print fmt of sched_switch decodes prev_state with __print_flags(); its
 * table is in the file, so the letters follow the kernel that wrote it. */
static gboolean tracedat_find_flags(struct tep_print_arg *arg, TracedatSource *ts, int depth)
{
	for (; arg && depth < 16; arg = arg->next) {
		switch (arg->type) {
		case TEP_PRINT_FLAGS:
			for (struct tep_print_flag_sym *s = arg->flags.flags; s; s = s->next) {
				TracedatStateSym sym = {g_ascii_strtoull(s->value, NULL, 0), s->str};
				g_array_append_val(ts->states, sym);
				if (sym.value > ts->state_report_max)
					ts->state_report_max = sym.value;
			}
			return TRUE;
		case TEP_PRINT_OP:
			if (tracedat_find_flags(arg->op.left, ts, depth + 1) ||
			    tracedat_find_flags(arg->op.right, ts, depth + 1))
				return TRUE;
			break;
		case TEP_PRINT_TYPE:
			if (tracedat_find_flags(arg->typecast.item, ts, depth + 1))
				return TRUE;
			break;
		default:
			break;
		}
	}
	return FALSE;
}

static void tracedat_load_states(TracedatSource *ts, struct tep_event *event)
{
	ts->states_done = TRUE;
	if (event && tracedat_find_flags(event->print_fmt.args, ts, 0) && ts->state_report_max)
		ts->state_report_max <<= 1;
	else
		ts->state_report_max = 0;
}

/* prev_state as the kernel prints it: "S", "D|K", "R", "R+". */
static FtlSlice tracedat_state(TracedatSource *ts, struct tep_event *event, gint64 v,
			       GString *buf)
{
	if (!ts->states_done)
		tracedat_load_states(ts, event);
	g_string_truncate(buf, 0);
	guint64 rest = ts->state_report_max ? (guint64)v & (ts->state_report_max - 1) : (guint64)v;
	for (guint i = 0; i < ts->states->len && rest; i++) {
		const TracedatStateSym *s = &g_array_index(ts->states, TracedatStateSym, i);
		if (s->value && (rest & s->value) == s->value) {
			if (buf->len)
				g_string_append_c(buf, '|');
			g_string_append(buf, s->str);
			rest &= ~s->value;
		}
	}
	if (rest)
		g_string_append_printf(buf, "%s0x%" G_GINT64_MODIFIER "x", buf->len ? "|" : "", rest);
	if (!buf->len)
		g_string_append_c(buf, 'R');
	if (ts->state_report_max && ((guint64)v & ts->state_report_max))
		g_string_append_c(buf, '+');
	return (FtlSlice){buf->str, (guint32)buf->len};
}

static void tracedat_lat(TracedatSource *ts, struct tep_record *r, FtlEvent *ev)
{
	/* Cheap to read: common_flags and common_preempt_count, printed like
	 * the kernel's latency columns ("dNh1"). */
	int fl = tep_data_flags(ts->tep, r);
	if (fl < 0)
		return;
	ev->lat[0] = fl & 0x01 ? 'd' : fl & 0x02 ? 'X' : '.';
	ev->lat[1] = fl & 0x04 ? 'N' : '.';
	ev->lat[2] = (fl & 0x08) && (fl & 0x10) ? 'H' : fl & 0x08 ? 'h' : fl & 0x10 ? 's' : '.';
	ev->lat[3] = 0;
}

/* Renders the event's INFO part (what trace-cmd report prints after the
 * name) into ts->text. Returns the text, NUL-terminated. */
static const char *tracedat_render(TracedatSource *ts, struct tep_record *r)
{
	trace_seq_reset(&ts->text);
	tep_print_event(ts->tep, &ts->text, r, "%s", TEP_PRINT_INFO);
	trace_seq_terminate(&ts->text);
	return ts->text.buffer ? ts->text.buffer : "";
}

static void tracedat_marker_text(FtlEvent *ev, const char *p, gsize len, gboolean strip_site)
{
	if (strip_site) {
		/* "0xc044504c: text" / "func: text": the printing site is not the text */
		const char *c = p, *e = p + len;
		while (c < e && *c != ' ' && *c != ':')
			c++;
		if (c + 1 < e && c[0] == ':' && c[1] == ' ' && c > p) {
			len -= (gsize)(c + 2 - p);
			p = c + 2;
		}
	}
	while (len && (p[len - 1] == '\n' || p[len - 1] == ' '))
		len--;
	ev->u.marker.text = (FtlSlice){p, (guint32)len};
}

static void tracedat_fill(TracedatSource *ts, struct tep_record *r)
{
	FtlEvent *ev = &ts->ev;
	memset(ev, 0, sizeof *ev);
	ev->src = &ts->base;
	ev->ts = (gint64)r->ts;
	ev->cpu = r->cpu;
	ev->tgid = -1;
	ev->seq = ++ts->seq;
	ev->pid = -1;
	if (r->size < 8) {
		ev->name = ftl_strpool_intern(ts->pool, "unknown_event");
		return;
	}
	ev->pid = tep_data_pid(ts->tep, r);
	if (ev->pid >= 0) {
		const char *comm = tep_data_comm_from_pid(ts->tep, ev->pid);
		if (comm && strcmp(comm, "<...>") != 0)
			ev->comm = ftl_strpool_intern(ts->pool, comm);
	}
	tracedat_lat(ts, r, ev);
	int id = tep_data_type(ts->tep, r);
	struct tep_event *event = tep_find_event(ts->tep, id);
	TracedatEventInfo *info = tracedat_event_info(ts, event, id);
	ev->name = info->name;
	ev->kind = info->kind;
	gint64 v;
	switch (info->kind) {
	case FTL_EVENT_FUNC:
		ev->u.fn.last_ts = FTL_TS_NONE;
		if (tracedat_num(r, info->f[F_IP], &v))
			ev->u.fn.func = tracedat_func_name(ts, v);
		if (tracedat_num(r, info->f[F_PARENT], &v))
			ev->u.fn.parent = tracedat_func_name(ts, v);
		break;
	case FTL_EVENT_FUNC_ENTRY:
	case FTL_EVENT_FUNC_EXIT:
		ev->u.graph.duration = FTL_TS_NONE;
		ev->u.graph.mark = ' ';
		if (tracedat_num(r, info->f[F_FUNC], &v))
			ev->u.graph.func = tracedat_func_name(ts, v);
		ev->u.graph.depth = tracedat_i32(r, info->f[F_DEPTH], 0);
		gint64 ct, rt;
		if (info->kind == FTL_EVENT_FUNC_EXIT && tracedat_num(r, info->f[F_CALLTIME], &ct) &&
		    tracedat_num(r, info->f[F_RETTIME], &rt) && rt >= ct)
			ev->u.graph.duration = rt - ct;
		break;
	case FTL_EVENT_MARKER: {
		ev->u.marker.origin = info->origin;
		gsize len;
		const char *p;
		if (info->is_print && (p = tracedat_str(r, info->f[F_BUF], &len))) {
			tracedat_marker_text(ev, p, len, FALSE);
		} else {
			/* bprint's text exists only once its format is applied */
			p = tracedat_render(ts, r);
			tracedat_marker_text(ev, p, strlen(p), TRUE);
		}
		break;
	}
	case FTL_EVENT_SCHED_SWITCH:
		ev->u.sw.prev_comm = tracedat_intern_str(ts, r, info->f[F_PREV_COMM]);
		ev->u.sw.prev_pid = tracedat_i32(r, info->f[F_PREV_PID], -1);
		ev->u.sw.prev_prio = tracedat_i32(r, info->f[F_PREV_PRIO], -1);
		if (tracedat_num(r, info->f[F_PREV_STATE], &v))
			ev->u.sw.prev_state = tracedat_state(ts, event, v, ts->state_text);
		ev->u.sw.next_comm = tracedat_intern_str(ts, r, info->f[F_NEXT_COMM]);
		ev->u.sw.next_pid = tracedat_i32(r, info->f[F_NEXT_PID], -1);
		ev->u.sw.next_prio = tracedat_i32(r, info->f[F_NEXT_PRIO], -1);
		break;
	case FTL_EVENT_SCHED_WAKEUP:
		ev->u.wake.comm = tracedat_intern_str(ts, r, info->f[F_W_COMM]);
		ev->u.wake.pid = tracedat_i32(r, info->f[F_W_PID], -1);
		ev->u.wake.prio = tracedat_i32(r, info->f[F_W_PRIO], -1);
		ev->u.wake.target_cpu = tracedat_i32(r, info->f[F_W_TARGET], -1);
		break;
	case FTL_EVENT_IRQ_ENTRY:
	case FTL_EVENT_IRQ_EXIT: {
		ev->u.irq.irq = tracedat_i32(r, info->f[F_IRQ], -1);
		gsize len;
		const char *p = tracedat_str(r, info->f[F_IRQ_NAME], &len);
		if (p)
			ev->u.irq.name = (FtlSlice){p, (guint32)len};
		ev->u.irq.ret = tracedat_i32(r, info->f[F_IRQ_RET], 0);
		break;
	}
	default:
		break;
	}
}

static void tracedat_account(TracedatSource *ts)
{
	FtlEvent *ev = &ts->ev;
	FtlTrace *trace = ts->base.trace;
	ts->base.stats.total_lines++;
	ts->base.stats.events++;
	if (ev->kind == FTL_EVENT_LOST) {
		char where[96];
		gint n = g_snprintf(where, sizeof where, "CPU:%d [EVENTS DROPPED] before offset %llu",
				    ev->cpu, (unsigned long long)ts->cur->offset);
		ts->base.stats.special_lines++;
		ftl_diags_add(ftl_trace_diags(trace), FTL_DIAG_LOST_EVENTS, ts->base.path, 0,
			      ev->cpu, where, (gsize)n, ev->u.lost.count);
		return;
	}
	ts->base.stats.event_lines++;
	if (ev->pid >= 0)
		ftl_tasks_note(ftl_trace_tasks(trace), ev->pid, ev->tgid, ev->comm, FALSE);
	if (ev->cpu >= 0 && (guint)ev->cpu < ts->last_ts->len) {
		gint64 *last = &g_array_index(ts->last_ts, gint64, ev->cpu);
		if (*last != FTL_TS_NONE && ev->ts < *last)
			ftl_diags_add(ftl_trace_diags(trace), FTL_DIAG_TIME_BACKWARDS, ts->base.path, 0,
				      ev->cpu, NULL, 0, 0);
		*last = ev->ts;
	}
}

/* At the end: overruns the saved ring-buffer statistics report for CPUs
 * whose pages carried no missed-events mark. */
static void tracedat_cpustats(TracedatSource *ts)
{
	const char *stats = tracecmd_get_cpustats(ts->handle);
	if (!stats)
		return;
	g_auto(GStrv) lines = g_strsplit(stats, "\n", -1);
	gint cpu = -1;
	for (guint i = 0; lines[i]; i++) {
		const char *l = lines[i];
		guint64 n;
		if (g_str_has_prefix(l, "CPU: ")) {
			cpu = (gint)g_ascii_strtoll(l + 5, NULL, 10);
			continue;
		}
		if (g_str_has_prefix(l, "overrun: "))
			n = g_ascii_strtoull(l + 9, NULL, 10);
		else if (g_str_has_prefix(l, "dropped events: "))
			n = g_ascii_strtoull(l + 16, NULL, 10);
		else
			continue;
		if (n == 0 || (cpu >= 0 && cpu < ts->n_cpus && ts->lost_seen[cpu]))
			continue;
		g_autofree char *text = g_strdup_printf("CPU %d %s (trace-cmd's saved cpustats)", cpu, l);
		ftl_diags_add(ftl_trace_diags(ts->base.trace), FTL_DIAG_LOST_EVENTS, ts->base.path, 0,
			      cpu, text, strlen(text), n);
	}
}

static FtlStatus tracedat_next(FtlSource *src, const FtlEvent **out, GError **error)
{
	TracedatSource *ts = (TracedatSource *)src;
	(void)error;
	if (ts->lost_pending) {
		ts->lost_pending = FALSE;
		tracedat_fill(ts, ts->cur);
		tracedat_account(ts);
		*out = &ts->ev;
		return FTL_STATUS_OK;
	}
	g_clear_pointer(&ts->cur, tracedat_record_free);
	/* Merge the CPUs by (ts, cpu), the order trace-cmd report prints. */
	gint best = -1;
	for (gint c = 0; c < ts->n_cpus; c++) {
		if (!ts->heads[c] && !ts->drained[c]) {
			ts->heads[c] = tracecmd_read_data(ts->handle, c);
			if (!ts->heads[c])
				ts->drained[c] = TRUE;
		}
		if (ts->heads[c] && (best < 0 || ts->heads[c]->ts < ts->heads[best]->ts))
			best = c;
	}
	if (best < 0) {
		if (ts->top)
			tracedat_cpustats(ts);
		return FTL_STATUS_EOF;
	}
	ts->cur = ts->heads[best];
	ts->heads[best] = NULL;
	if (ts->cur->missed_events != 0) {
		/* The page this record starts says events were lost before it. */
		FtlEvent *ev = &ts->ev;
		memset(ev, 0, sizeof *ev);
		ev->src = src;
		ev->ts = (gint64)ts->cur->ts;
		ev->cpu = ts->cur->cpu;
		ev->pid = ev->tgid = -1;
		ev->seq = ++ts->seq;
		ev->kind = FTL_EVENT_LOST;
		ev->name = ts->n_lost;
		ev->u.lost.count = ts->cur->missed_events > 0 ? (guint64)ts->cur->missed_events : 0;
		if (ev->cpu >= 0 && ev->cpu < ts->n_cpus)
			ts->lost_seen[ev->cpu] = TRUE;
		ts->lost_pending = TRUE;
		tracedat_account(ts);
		*out = ev;
		return FTL_STATUS_OK;
	}
	tracedat_fill(ts, ts->cur);
	tracedat_account(ts);
	*out = &ts->ev;
	return FTL_STATUS_OK;
}

static void tracedat_payload(FtlSource *src, const FtlEvent *ev, GString *out)
{
	TracedatSource *ts = (TracedatSource *)src;
	/* Only the current record is alive; a LOST event has none of its own. */
	if (ev != &ts->ev || !ts->cur || ts->lost_pending || ev->kind == FTL_EVENT_LOST)
		return;
	const char *p = tracedat_render(ts, ts->cur);
	gsize len = strlen(p);
	while (len && (p[len - 1] == '\n' || p[len - 1] == ' '))
		len--;
	g_string_append_len(out, p, (gssize)len);
}

static void tracedat_free(FtlSource *src)
{
	TracedatSource *ts = (TracedatSource *)src;
	g_clear_pointer(&ts->cur, tracedat_record_free);
	for (gint c = 0; c < ts->n_cpus; c++)
		g_clear_pointer(&ts->heads[c], tracedat_record_free);
	g_free(ts->heads);
	g_free(ts->drained);
	g_free(ts->lost_seen);
	if (ts->handle)
		tracecmd_close(ts->handle);
	g_hash_table_unref(ts->events);
	g_array_unref(ts->last_ts);
	g_array_unref(ts->states);
	g_string_free(ts->state_text, TRUE);
	trace_seq_destroy(&ts->text);
	ftl_source_clear(src);
	g_free(ts);
}

static const char *tracedat_dialect(FtlSource *src)
{
	(void)src;
	return "trace.dat";
}

static const FtlSourceOps tracedat_ops = {
	.name = "tracedat",
	.next = tracedat_next,
	.free = tracedat_free,
	.dialect = tracedat_dialect,
	.payload = tracedat_payload,
};

/* Takes ownership of handle. */
static void tracedat_source_add(FtlTrace *trace, const char *path, struct tracecmd_input *handle,
				gboolean top)
{
	TracedatSource *ts = g_new0(TracedatSource, 1);
	ftl_source_init(&ts->base, &tracedat_ops, path);
	ts->top = top;
	ts->handle = handle;
	ts->tep = tracecmd_get_tep(handle);
	ts->pool = ftl_trace_pool(trace);
	ts->n_cpus = MAX(tep_get_cpus(ts->tep), 0);
	ts->heads = g_new0(struct tep_record *, MAX(ts->n_cpus, 1));
	ts->drained = g_new0(gboolean, MAX(ts->n_cpus, 1));
	ts->lost_seen = g_new0(gboolean, MAX(ts->n_cpus, 1));
	ts->events = g_hash_table_new_full(NULL, NULL, NULL, g_free);
	ts->last_ts = g_array_new(FALSE, FALSE, sizeof(gint64));
	g_array_set_size(ts->last_ts, (guint)ts->n_cpus);
	for (gint c = 0; c < ts->n_cpus; c++)
		g_array_index(ts->last_ts, gint64, c) = FTL_TS_NONE;
	ts->states = g_array_new(FALSE, FALSE, sizeof(TracedatStateSym));
	ts->state_text = g_string_new(NULL);
	trace_seq_init(&ts->text);
	ts->n_lost = ftl_strpool_intern(ts->pool, "lost");
	ts->base.header_cpus = ts->n_cpus;
	ts->base.has_header = TRUE;
	ftl_trace_add_source(trace, &ts->base);
}

/* libtracecmd 1.3 prints some reasons (a truncated file) with plain printf,
 * not through tep_vprint(): stdout and stderr are lent to a temporary file
 * for the call and what landed there joins the captured messages. */
static int tracedat_init_data(struct tracecmd_input *handle, GString *msgs)
{
	FILE *tmp = tmpfile();
	fflush(stdout);
	fflush(stderr);
	int out = tmp ? dup(STDOUT_FILENO) : -1;
	int err = tmp ? dup(STDERR_FILENO) : -1;
	if (out < 0 || err < 0 || dup2(fileno(tmp), STDOUT_FILENO) < 0 ||
	    dup2(fileno(tmp), STDERR_FILENO) < 0) {
		if (out >= 0) {
			dup2(out, STDOUT_FILENO);
			close(out);
		}
		if (err >= 0) {
			dup2(err, STDERR_FILENO);
			close(err);
		}
		if (tmp)
			fclose(tmp);
		return tracecmd_init_data(handle);
	}
	int r = tracecmd_init_data(handle);
	fflush(stdout);
	fflush(stderr);
	dup2(out, STDOUT_FILENO);
	dup2(err, STDERR_FILENO);
	close(out);
	close(err);
	char buf[512];
	rewind(tmp);
	gsize n = fread(buf, 1, sizeof buf - 1, tmp);
	fclose(tmp);
	buf[n] = 0;
	g_strstrip(buf);
	for (char *c = buf; *c; c++)
		if ((guchar)*c < 0x20)
			*c = ' ';
	if (*buf) {
		if (msgs->len)
			g_string_append(msgs, "; ");
		g_string_append(msgs, buf);
	}
	return r;
}

static GPtrArray *tracedat_unclosable;

gboolean ftl_tracedat_open(FtlTrace *trace, const char *path, GError **error)
{
	g_autoptr(GString) msgs = g_string_new(NULL);
	tracedat_captured = msgs;
	/* Warnings carry the reason a file is rejected ("File possibly
	 * truncated. Need at least N, ..."); they are captured, not printed. */
	tep_set_loglevel(TEP_LOG_WARNING);
	tracecmd_set_loglevel(TEP_LOG_WARNING);
	/* No plugins: what ftlens shows must not depend on the plugins of the
	 * machine it runs on. */
	struct tracecmd_input *handle = tracecmd_open_head(path, TRACECMD_FL_LOAD_NO_PLUGINS);
	if (!handle) {
		tracedat_captured = NULL;
		/* the headers are what libtracecmd refused */
		g_set_error(error, FTL_ERROR, FTL_ERROR_FORMAT,
			    "'%s': not a valid trace.dat: %s", path,
			    msgs->len ? msgs->str : "libtracecmd could not read its headers");
		return FALSE;
	}
	/* Format warnings of events we may never meet are not the reason
	 * init fails; keep them out of the error. */
	if (msgs->len)
		g_debug("'%s': libtracecmd: %s", path, msgs->str);
	g_string_truncate(msgs, 0);
	/* Not tracecmd_open(): in libtracecmd 1.3 it closes the handle after a
	 * failed tracecmd_init_data() and crashes doing so (a truncated file). */
	if (tracedat_init_data(handle, msgs) < 0) {
		tracedat_captured = NULL;
		g_set_error(error, FTL_ERROR, FTL_ERROR_PARSE, "'%s': not a valid trace.dat: %s", path,
			    msgs->len ? msgs->str : "libtracecmd could not read the CPU data");
		/* ... and tracecmd_close() of such a handle crashes as well, so it
		 * is parked, still reachable, for the rest of the process. */
		if (!tracedat_unclosable)
			tracedat_unclosable = g_ptr_array_new();
		g_ptr_array_add(tracedat_unclosable, handle);
		return FALSE;
	}
	tracedat_captured = NULL;
	if (msgs->len)
		g_debug("'%s': libtracecmd: %s", path, msgs->str);
	tracedat_source_add(trace, path, handle, TRUE);
	/* Buffer instances (trace-cmd record -B, extract -B) are more sources,
	 * merged in time like trace-cmd report does. */
	int n = tracecmd_buffer_instances(handle);
	for (int i = 0; i < n; i++) {
		g_string_truncate(msgs, 0);
		tracedat_captured = msgs;
		struct tracecmd_input *h = tracecmd_buffer_instance_handle(handle, i);
		tracedat_captured = NULL;
		if (!h) {
			const char *name = tracecmd_buffer_instance_name(handle, i);
			g_set_error(error, FTL_ERROR, FTL_ERROR_PARSE,
				    "'%s': not a valid trace.dat: buffer instance '%s': %s", path,
				    name ? name : "?", msgs->len ? msgs->str : "cannot be read");
			return FALSE;
		}
		tracedat_source_add(trace, path, h, FALSE);
	}
	return TRUE;
}

/* libtraceevent 1.7 leaks a few bytes while parsing some event formats
 * (tep_parse_event); in sanitizer builds that would fail every trace.dat
 * test, so LeakSanitizer is told about it here, next to the only caller. */
const char *__lsan_default_suppressions(void);
__attribute__((used)) const char *__lsan_default_suppressions(void)
{
	return "leak:tep_parse_event\n";
}

/* ... and keeps quiet about having used the suppression, so stderr still
 * holds only ftlens's own message. */
const char *__lsan_default_options(void);
__attribute__((used)) const char *__lsan_default_options(void)
{
	return "print_suppressions=0";
}
