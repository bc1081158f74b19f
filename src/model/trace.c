/* SPDX-License-Identifier: GPL-2.0-or-later */
/* FtlTrace: owner of sources, string pool, task table and diagnostics. */
#include "model/trace.h"

#include <stdarg.h>
#include <string.h>

#include "util/error.h"

struct _FtlTrace {
	char *label;
	FtlOpenFlags flags;
	GPtrArray *sources;
	FtlStrPool *pool;
	FtlTasks *tasks;
	FtlDiags *diags;
	GPtrArray *notes;   /* char* */
	GPtrArray *buffers; /* char*: ring buffers the input holds */
	const char *clock;
	const char *kernel;
};

void ftl_source_init(FtlSource *src, const FtlSourceOps *ops, const char *path)
{
	src->ops = ops;
	src->path = g_strdup(path);
	src->cpu_hint = -1;
	src->entries_in_buffer = -1;
	src->entries_written = -1;
	src->header_cpus = -1;
}

void ftl_source_end(FtlSource *src)
{
	if (src->end_checked)
		return;
	src->end_checked = TRUE;
	/* "# entries-in-buffer/entries-written: 4000/4000": one entry per event,
	 * a function_graph leaf line two (its entry and return), the events
	 * counted with the exits the parser made for them */
	gint64 held = (gint64)src->stats.events;
	if (src->entries_in_buffer > held) {
		g_autofree char *what = g_strdup_printf(
			"the header says %" G_GINT64_FORMAT " entries in the buffer, the file "
			"holds %" G_GINT64_FORMAT,
			src->entries_in_buffer, held);
		ftl_diags_add(ftl_trace_diags(src->trace), FTL_DIAG_ENTRIES_SHORT,
			      &(FtlDiagLoc){ src->path, 0, src->cpu_hint }, what, -1,
			      (guint64)(src->entries_in_buffer - held));
	}
}

void ftl_source_account(FtlSource *src, const FtlEvent *ev, gint64 *last_ts, FtlSlice lost_text,
			gboolean record)
{
	gboolean lost = ev->kind == FTL_EVENT_LOST;
	if (record) {
		src->stats.total_lines++;
		src->stats.events++;
		if (lost)
			src->stats.special_lines++;
		else
			src->stats.event_lines++;
	}
	FtlDiagLoc at = { src->path, ev->line, ev->cpu };
	if (lost) {
		ftl_diags_add(ftl_trace_diags(src->trace), FTL_DIAG_LOST_EVENTS, &at, lost_text.p,
			      lost_text.len, ev->u.lost.count);
		return;
	}
	if (ev->pid >= 0 && !(ev->flags & FTL_EVENT_F_PID_INFERRED))
		ftl_tasks_note(ftl_trace_tasks(src->trace), ev->pid, ev->tgid, ev->comm, FALSE);
	if (last_ts) {
		if (*last_ts != FTL_TS_NONE && ev->ts < *last_ts)
			ftl_diags_add(ftl_trace_diags(src->trace), FTL_DIAG_TIME_BACKWARDS, &at,
				      NULL, 0, 0);
		*last_ts = ev->ts;
	}
}

void ftl_source_clear(FtlSource *src)
{
	g_clear_pointer(&src->path, g_free);
}

const char *ftl_source_dialect(FtlSource *src)
{
	return src->ops->dialect ? src->ops->dialect(src) : "unknown";
}

gboolean ftl_source_payload(FtlSource *src, const FtlEvent *ev, GString *out)
{
	if (!src || !src->ops->payload)
		return FALSE;
	src->ops->payload(src, ev, out);
	return TRUE;
}

static void trace_source_free(gpointer p)
{
	FtlSource *src = p;
	src->ops->free(src);
}

FtlTrace *ftl_trace_new(const char *label, FtlOpenFlags flags)
{
	FtlTrace *t = g_new0(FtlTrace, 1);
	t->label = g_strdup(label);
	t->flags = flags;
	t->sources = g_ptr_array_new_with_free_func(trace_source_free);
	t->pool = ftl_strpool_new();
	t->tasks = ftl_tasks_new();
	t->diags = ftl_diags_new();
	t->notes = g_ptr_array_new_with_free_func(g_free);
	t->buffers = g_ptr_array_new_with_free_func(g_free);
	return t;
}

void ftl_trace_free(FtlTrace *t)
{
	if (!t)
		return;
	g_ptr_array_unref(t->sources);
	ftl_strpool_free(t->pool);
	ftl_tasks_free(t->tasks);
	ftl_diags_free(t->diags);
	g_ptr_array_unref(t->notes);
	g_ptr_array_unref(t->buffers);
	g_free(t->label);
	g_free(t);
}

void ftl_trace_add_source(FtlTrace *t, FtlSource *src)
{
	src->trace = t;
	g_ptr_array_add(t->sources, src);
}

const char *ftl_trace_label(const FtlTrace *t)
{
	return t->label;
}

FtlOpenFlags ftl_trace_flags(const FtlTrace *t)
{
	return t->flags;
}

FtlStrPool *ftl_trace_pool(FtlTrace *t)
{
	return t->pool;
}

FtlTasks *ftl_trace_tasks(FtlTrace *t)
{
	return t->tasks;
}

FtlDiags *ftl_trace_diags(FtlTrace *t)
{
	return t->diags;
}

const char *ftl_trace_dialect(FtlTrace *trace)
{
	guint n = ftl_trace_n_sources(trace);
	if (n == 0)
		return "none";
	const char *d = ftl_source_dialect(ftl_trace_source(trace, 0));
	for (guint i = 1; i < n; i++)
		if (g_strcmp0(d, ftl_source_dialect(ftl_trace_source(trace, i))) != 0)
			return "mixed";
	return d;
}

guint ftl_trace_n_sources(const FtlTrace *t)
{
	return t->sources->len;
}

FtlSource *ftl_trace_source(const FtlTrace *t, guint i)
{
	return g_ptr_array_index(t->sources, i);
}

FtlStatus ftl_trace_seek_event(FtlTrace *t, guint64 want, guint64 *at, GError **error)
{
	*at = 0;
	if (t->sources->len != 1)
		return FTL_STATUS_EOF;
	FtlSource *src = ftl_trace_source(t, 0);
	if (!src->ops->seek_event)
		return FTL_STATUS_EOF;
	return src->ops->seek_event(src, want, at, error);
}

FtlStatus ftl_trace_seek_time(FtlTrace *t, gint64 ts, GError **error)
{
	if (!t->sources->len)
		return FTL_STATUS_EOF;
	for (guint i = 0; i < t->sources->len; i++)
		if (!ftl_trace_source(t, i)->ops->seek_time)
			return FTL_STATUS_EOF;
	for (guint i = 0; i < t->sources->len; i++) {
		FtlSource *src = ftl_trace_source(t, i);
		FtlStatus st = src->ops->seek_time(src, ts, error);
		if (st == FTL_STATUS_OK)
			continue;
		if (st == FTL_STATUS_EOF && i == 0)
			return st;
		if (st == FTL_STATUS_EOF)
			g_set_error(error, FTL_ERROR, FTL_ERROR_UNSUPPORTED,
				    "'%s': only some of its inputs can start at a time", t->label);
		return FTL_STATUS_ERROR;
	}
	return FTL_STATUS_OK;
}

const char *ftl_trace_tracer(const FtlTrace *t)
{
	for (guint i = 0; i < t->sources->len; i++) {
		FtlSource *s = g_ptr_array_index(t->sources, i);
		if (s->tracer)
			return s->tracer;
	}
	return NULL;
}

FtlSourceStats ftl_trace_stats(const FtlTrace *t)
{
	FtlSourceStats sum = { 0 };
	for (guint i = 0; i < t->sources->len; i++) {
		const FtlSourceStats *s = &((FtlSource *)g_ptr_array_index(t->sources, i))->stats;
		sum.total_lines += s->total_lines;
		sum.header_lines += s->header_lines;
		sum.event_lines += s->event_lines;
		sum.special_lines += s->special_lines;
		sum.blank_lines += s->blank_lines;
		sum.unparsed_lines += s->unparsed_lines;
		sum.events += s->events;
	}
	return sum;
}

void ftl_trace_add_note(FtlTrace *t, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *note = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	for (guint i = 0; i < t->notes->len; i++)
		if (strcmp(g_ptr_array_index(t->notes, i), note) == 0) {
			g_free(note);
			return;
		}
	g_ptr_array_add(t->notes, note);
}

GPtrArray *ftl_trace_notes(const FtlTrace *t)
{
	return t->notes;
}

void ftl_trace_set_clock(FtlTrace *t, const char *clock)
{
	t->clock = clock ? ftl_strpool_intern(t->pool, clock) : NULL;
}

void ftl_trace_set_kernel(FtlTrace *t, const char *release)
{
	t->kernel = release ? ftl_strpool_intern(t->pool, release) : NULL;
}

const char *ftl_trace_kernel(const FtlTrace *t)
{
	return t->kernel;
}

const char *ftl_trace_clock(const FtlTrace *t)
{
	return t->clock;
}

void ftl_trace_add_buffer(FtlTrace *t, const char *name)
{
	g_ptr_array_add(t->buffers, g_strdup(name));
}

GPtrArray *ftl_trace_buffers(const FtlTrace *t)
{
	return t->buffers;
}
