/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The Chrome trace-event export, streamed event by event. */
#include "config.h"

#include "views/export-chrome.h"

#include <errno.h>
#include <glib/gstdio.h>
#include <string.h>
#include <unistd.h>

#include "util/error.h"
#include "util/escape.h"
#include "util/timefmt.h"
#include "views/table.h"

/* Processes for the contexts of pid 0 (and unknown pids) on each CPU. */
#define CHROME_CPU_PID 1000000000
/* and the calls of each CPU whose task is unknown, apart from its idle task */
#define CHROME_UNKNOWN_PID 1500000000

struct _FtlChromeExport {
	FILE *out;
	char *input;
	FILE *sched; /* scratch: systemTraceEvents lines */
	FtlCallExport *calls;
	GHashTable *quoted; /* interned name -> its JSON string */
	GArray *pids;	    /* gint32 per task: the pid its events carry, 0 until fixed */
	gint64 last_at;
	guint64 events, n_sched;
	gboolean first;
};

static void ch_open(gpointer self, guint task, gint64 at, const FtlCall *call)
{
	(void)self, (void)task, (void)at, (void)call;
}
static void ch_close(gpointer self, guint task, gint64 start, gint64 end, const FtlCall *call);
/* events are written whole at their end: an inferred call that ends
 * without exit wrote nothing */
static void ch_dissolve(gpointer self, guint task, const FtlCall *call)
{
	(void)self, (void)task, (void)call;
}
static void ch_marker(gpointer self, guint task, gint64 at, const FtlEvent *ev);
static void ch_event(gpointer self, gint64 at, const FtlEvent *ev);

static const FtlExportSink ch_sink = { ch_open, ch_close, ch_dissolve, ch_marker, ch_event };

FtlChromeExport *ftl_chrome_export_new(FILE *out, const char *input, FtlDiags *diags,
				       GError **error)
{
	g_autofree char *path = NULL;
	GError *local = NULL;
	int fd = g_file_open_tmp("ftlens-systrace-XXXXXX", &path, &local);
	FILE *sched = fd >= 0 ? fdopen(fd, "w+") : NULL;
	if (!sched) {
		g_set_error(error, FTL_ERROR, FTL_ERROR_IO, "cannot make a temporary file: %s",
			    local ? local->message : g_strerror(errno));
		g_clear_error(&local);
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	g_unlink(path);
	FtlChromeExport *c = g_new0(FtlChromeExport, 1);
	c->out = out;
	c->input = g_strdup(input);
	c->sched = sched;
	c->calls = ftl_call_export_new(&ch_sink, c, diags);
	c->quoted = g_hash_table_new_full(g_direct_hash, g_direct_equal, NULL, g_free);
	c->pids = g_array_new(FALSE, TRUE, sizeof(gint32));
	c->first = TRUE;
	fputs("{\"traceEvents\":[", out);
	return c;
}

void ftl_chrome_export_free(FtlChromeExport *c)
{
	if (!c)
		return;
	fclose(c->sched);
	ftl_call_export_free(c->calls);
	g_hash_table_destroy(c->quoted);
	g_array_unref(c->pids);
	g_free(c->input);
	g_free(c);
}

FtlCallExport *ftl_chrome_export_calls(FtlChromeExport *c)
{
	return c->calls;
}

/* µs with three decimals: exact for integer ns. */
static void ch_us(FILE *out, gint64 ns)
{
	guint64 a = ns < 0 ? (guint64)-(ns + 1) + 1 : (guint64)ns;
	fprintf(out, "%s%" G_GUINT64_FORMAT ".%03u", ns < 0 ? "-" : "", a / 1000,
		(unsigned)(a % 1000));
}

static const char *ch_name(FtlChromeExport *c, const char *interned)
{
	char *q = g_hash_table_lookup(c->quoted, interned);
	if (!q) {
		q = ftl_json_quote(interned, -1);
		g_hash_table_insert(c->quoted, (gpointer)interned, q);
	}
	return q;
}

/* The pid of a task's track: its thread group when known at its first
 * event, else itself; each CPU's idle context a process of its own. */
static gint32 ch_pid(FtlChromeExport *c, guint task)
{
	if (task >= c->pids->len)
		g_array_set_size(c->pids, task + 1);
	gint32 *p = &g_array_index(c->pids, gint32, task);
	if (!*p) {
		const FtlExportTask *t = ftl_call_export_task(c->calls, task);
		*p = t->pid < 0	   ? CHROME_UNKNOWN_PID + MAX(t->cpu, 0)
		     : t->pid == 0 ? CHROME_CPU_PID + MAX(t->cpu, 0)
		     : t->tgid > 0 ? t->tgid
				   : t->pid;
	}
	return *p;
}

static gint32 ch_tid(FtlChromeExport *c, guint task)
{
	const FtlExportTask *t = ftl_call_export_task(c->calls, task);
	return t->pid > 0 ? t->pid : ch_pid(c, task);
}

static void ch_begin(FtlChromeExport *c)
{
	fputs(c->first ? "\n" : ",\n", c->out);
	c->first = FALSE;
	c->events++;
}

/* One call; args are constant per name and repair, so that viewers that
 * key frames on name and args (speedscope) keep one frame per function. */
static void ch_call(FtlChromeExport *c, guint task, gint64 start, gint64 end, const FtlCall *call,
		    const char *ph, const char *note)
{
	ch_begin(c);
	fprintf(c->out, "{\"name\":%s,\"cat\":\"function\",\"ph\":\"%s\",\"ts\":",
		ch_name(c, call->func), ph);
	ch_us(c->out, start);
	if (ph[0] == 'X') {
		fputs(",\"dur\":", c->out);
		ch_us(c->out, end - start);
	}
	fprintf(c->out, ",\"pid\":%d,\"tid\":%d", ch_pid(c, task), ch_tid(c, task));
	if (note)
		fprintf(c->out, ",\"args\":{\"ftlens\":\"%s\"}", note);
	fputc('}', c->out);
	c->last_at = MAX(c->last_at, end);
}

static void ch_close(gpointer self, guint task, gint64 start, gint64 end, const FtlCall *call)
{
	FtlChromeExport *c = self;
	if ((call->flags & FTL_CALL_F_OPEN) && !(call->flags & FTL_CALL_F_REPAIRED))
		ch_call(c, task, start, end, call, "B", "no exit before the trace ends");
	else if (call->flags & FTL_CALL_F_OPEN)
		ch_call(c, task, start, end, call, "X", "exit lost: ends where the trace lost it");
	else if (call->flags & FTL_CALL_F_ORPHAN)
		ch_call(c, task, start, end, call, "X", "exit without entry: start from its duration");
	else
		ch_call(c, task, start, end, call, "X", NULL);
}

static void ch_marker(gpointer self, guint task, gint64 at, const FtlEvent *ev)
{
	FtlChromeExport *c = self;
	g_autofree char *q = ftl_json_quote(ev->u.marker.text.p, ev->u.marker.text.len);
	ch_begin(c);
	fprintf(c->out, "{\"name\":%s,\"cat\":\"marker\",\"ph\":\"i\",\"s\":\"t\",\"ts\":", q);
	ch_us(c->out, at);
	fprintf(c->out, ",\"pid\":%d,\"tid\":%d}", ch_pid(c, task), ch_tid(c, task));
	c->last_at = MAX(c->last_at, at);
}

/* A comm in ftrace's text: visible, and one word for key=value parsers. */
static char *ch_comm(const char *comm)
{
	char *s = ftl_escape(comm ? comm : "<...>", -1);
	g_strdelimit(s, " ", '_');
	return s;
}

static void ch_sched_line(FtlChromeExport *c, gint64 at, const FtlEvent *ev)
{
	g_autofree char *comm = ch_comm(ev->comm);
	char t[48];
	/* rounded as the kernel prints its own text, never truncated */
	fprintf(c->sched, "%16s-%-5d [%03d] %s %s: ", comm, ev->pid, MAX(ev->cpu, 0),
		ev->lat[0] ? ev->lat : "....", ftl_time_format_us(at, t, sizeof t));
	if (ev->kind == FTL_EVENT_SCHED_SWITCH) {
		g_autofree char *prev = ch_comm(ev->u.sw.prev_comm);
		g_autofree char *next = ch_comm(ev->u.sw.next_comm);
		g_autofree char *state = ev->u.sw.prev_state.len
						 ? ftl_escape(ev->u.sw.prev_state.p,
							      ev->u.sw.prev_state.len)
						 : g_strdup("R");
		fprintf(c->sched,
			"sched_switch: prev_comm=%s prev_pid=%d prev_prio=%d prev_state=%s ==> "
			"next_comm=%s next_pid=%d next_prio=%d\n",
			prev, ev->u.sw.prev_pid, ev->u.sw.prev_prio, state, next, ev->u.sw.next_pid,
			ev->u.sw.next_prio);
	} else {
		g_autofree char *woken = ch_comm(ev->u.wake.comm);
		fprintf(c->sched, "%s: comm=%s pid=%d prio=%d target_cpu=%03d\n", ev->name, woken,
			ev->u.wake.pid, ev->u.wake.prio, MAX(ev->u.wake.target_cpu, 0));
	}
	c->n_sched++;
}

static void ch_event(gpointer self, gint64 at, const FtlEvent *ev)
{
	FtlChromeExport *c = self;
	if (ev->kind == FTL_EVENT_LOST) {
		char name[96];
		if (ev->u.lost.count)
			g_snprintf(name, sizeof name, "LOST %" G_GUINT64_FORMAT " events on CPU %d",
				   ev->u.lost.count, ev->cpu);
		else /* a mark that gives no count: unknown, never 0 */
			g_snprintf(name, sizeof name, "LOST events (how many unknown) on CPU %d",
				   ev->cpu);
		ch_begin(c);
		fprintf(c->out, "{\"name\":\"%s\",\"cat\":\"lost\",\"ph\":\"i\",\"s\":\"g\",\"ts\":",
			name);
		ch_us(c->out, at != FTL_TS_NONE ? at : c->last_at);
		fputs(",\"pid\":0,\"tid\":0}", c->out);
	} else if ((ev->kind == FTL_EVENT_SCHED_SWITCH || ev->kind == FTL_EVENT_SCHED_WAKEUP) &&
		   at != FTL_TS_NONE && ev->pid >= 0) {
		ch_sched_line(c, at, ev);
	}
}

static void ch_meta(FtlChromeExport *c, const char *what, gint32 pid, gint32 tid, const char *name)
{
	g_autofree char *q = ftl_json_quote(name, -1);
	ch_begin(c);
	fprintf(c->out, "{\"name\":\"%s\",\"ph\":\"M\",\"pid\":%d,\"tid\":%d,\"args\":{\"name\":%s}}",
		what, pid, tid, q);
}

/* systemTraceEvents: the spooled lines as one JSON string, line by line. */
static gboolean ch_copy_sched(FtlChromeExport *c, GError **error)
{
	fputs(",\n\"systemTraceEvents\":\"# tracer: nop\\n#\\n", c->out);
	rewind(c->sched);
	char buf[4096];
	while (fgets(buf, sizeof buf, c->sched)) {
		g_autofree char *q = ftl_json_quote(buf, -1);
		/* the quoted line without its quotes: one piece of the string */
		fwrite(q + 1, 1, strlen(q) - 2, c->out);
	}
	if (ferror(c->sched)) {
		g_set_error(error, FTL_ERROR, FTL_ERROR_IO, "temporary file: read error");
		return FALSE;
	}
	fputc('"', c->out);
	return TRUE;
}

gboolean ftl_chrome_export_write(FtlChromeExport *c, GError **error)
{
	g_autoptr(GHashTable) named = g_hash_table_new(g_direct_hash, g_direct_equal);
	for (guint i = 0; i < ftl_call_export_n_tasks(c->calls); i++) {
		const FtlExportTask *t = ftl_call_export_task(c->calls, i);
		gint32 pid = ch_pid(c, i), tid = ch_tid(c, i);
		g_autofree char *comm = t->pid > 0 ? g_strdup_printf("%s-%d", t->comm ? t->comm : "<...>", t->pid)
					: g_strdup_printf("CPU %d (%s)", t->cpu, t->pid == 0 ? "idle" : "unknown task");
		if (!g_hash_table_contains(named, GINT_TO_POINTER(pid))) {
			g_hash_table_add(named, GINT_TO_POINTER(pid));
			g_autofree char *pname =
				t->pid <= 0 ? g_strdup(comm)
					    : g_strdup_printf("%s (%d)", t->comm ? t->comm : "<...>", pid);
			ch_meta(c, "process_name", pid, tid, pname);
		}
		ch_meta(c, "thread_name", pid, tid, comm);
	}
	fputs("\n],\n\"displayTimeUnit\":\"ns\"", c->out);
	if (!ch_copy_sched(c, error))
		return FALSE;
	g_autofree char *input = ftl_json_quote(c->input, -1);
	gint64 origin = ftl_call_export_origin(c->calls);
	fprintf(c->out, ",\n\"otherData\":{\"exporter\":\"ftlens %s\",\"input\":%s,", PACKAGE_VERSION,
		input);
	if (origin != FTL_TS_NONE)
		fprintf(c->out, "\"origin_ns\":%" G_GINT64_FORMAT "}}\n", origin);
	else
		fputs("\"origin_ns\":null,\"note\":\"no timestamps: calls laid end to end\"}}\n",
		      c->out);
	return TRUE;
}

void ftl_chrome_export_stats(const FtlChromeExport *c, guint64 *events, guint64 *sched)
{
	*events = c->events;
	*sched = c->n_sched;
}
