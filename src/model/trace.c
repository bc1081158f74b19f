/* SPDX-License-Identifier: GPL-2.0-or-later */
/* FtlTrace: owner of sources, string pool, task table and diagnostics. */
#include "model/trace.h"

#include <stdarg.h>
#include <string.h>

#include "model/related.h"
#include "util/error.h"
#include "util/checked.h"

struct _FtlTrace {
	char *label;
	FtlOpenFlags flags;
	FtlReadOptions read;
	GPtrArray *sources;
	FtlStrPool *pool;
	FtlTasks *tasks;
	FtlDiags *diags;
	GPtrArray *notes;   /* char* */
	GPtrArray *buffers; /* char*: ring buffers the input holds */
	const char *clock;
	const char *kernel;
	const char *build_id;
	GArray *cpustats;    /* FtlCpuStats by cpu */
	GArray *cpustats_set; /* gboolean by cpu: cpustats[cpu] came from the input */
	FtlRelated *related;  /* the operands, and what tells captures apart */
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

/* "# entries-in-buffer/entries-written: 4000/4000": one entry per event,
 * a function_graph leaf line two (its entry and return), the events
 * counted with the exits the parser made for them. */
static void source_entries_short(FtlSource *src, gint64 in_buffer, gint64 held)
{
	if (in_buffer <= held)
		return;
	g_autofree char *what = g_strdup_printf("the header says %" G_GINT64_FORMAT
						" entries in the buffer, the file%s "
						"hold%s %" G_GINT64_FORMAT,
						in_buffer, src->cpu_hint >= 0 ? "s" : "",
						src->cpu_hint >= 0 ? "" : "s", held);
	ftl_diags_add(ftl_trace_diags(src->trace), FTL_DIAG_ENTRIES_SHORT,
		      &(FtlDiagLoc){ src->path, 0, src->cpu_hint }, what, -1,
		      (guint64)(in_buffer - held));
}

/* A per_cpu/cpuN/trace header gives the whole buffer's entries (the kernel
 * sums them over its CPUs): once the files of every CPU the header counts
 * have ended, their events together are what it promised. Fewer files than
 * CPUs promise nothing to check against. */
static void source_end_percpu(FtlSource *src)
{
	FtlTrace *t = src->trace;
	gint64 held = 0, in_buffer = -1, written = -1;
	guint files = 0;
	for (guint i = 0; i < t->sources->len; i++) {
		FtlSource *s = g_ptr_array_index(t->sources, i);
		if (s->cpu_hint < 0 || s->entries_in_buffer < 0)
			continue;
		if (!s->end_checked)
			return;
		files++;
		held += (gint64)s->stats.events;
		if (s->entries_written > written) {
			written = s->entries_written;
			in_buffer = s->entries_in_buffer;
		}
	}
	if (src->header_cpus > 0 && files >= (guint)src->header_cpus)
		source_entries_short(src, in_buffer, held);
}

void ftl_source_end(FtlSource *src)
{
	if (src->end_checked)
		return;
	src->end_checked = TRUE;
	if (src->entries_in_buffer < 0)
		return;
	if (src->cpu_hint >= 0 && src->trace)
		source_end_percpu(src);
	else if (src->cpu_hint < 0)
		source_entries_short(src, src->entries_in_buffer, (gint64)src->stats.events);
}

/* ftl_source_account()'s rare diagnostics, out of its per-event path. */
G_GNUC_NO_INLINE static void source_account_diag(FtlSource *src, const FtlEvent *ev,
						 FtlDiagKind kind, FtlSlice text, guint64 count)
{
	FtlDiagLoc at = { src->path, ev->line, ev->cpu };
	ftl_diags_add(ftl_trace_diags(src->trace), kind, &at, text.p, text.len, count);
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
	if (G_UNLIKELY(lost)) {
		source_account_diag(src, ev, FTL_DIAG_LOST_EVENTS, lost_text, ev->u.lost.count);
		return;
	}
	if (ev->pid >= 0 && !(ev->flags & FTL_EVENT_F_PID_INFERRED))
		ftl_tasks_note(src->trace->tasks, ev->pid, ev->tgid, ev->comm, FALSE);
	if (last_ts) {
		if (G_UNLIKELY(*last_ts != FTL_TS_NONE && ev->ts < *last_ts))
			source_account_diag(src, ev, FTL_DIAG_TIME_BACKWARDS, (FtlSlice){ NULL, 0 },
					    0);
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
	t->related = ftl_related_new();
	t->pool = ftl_strpool_new();
	t->tasks = ftl_tasks_new();
	t->diags = ftl_diags_new();
	t->notes = g_ptr_array_new_with_free_func(g_free);
	t->buffers = g_ptr_array_new_with_free_func(g_free);
	t->cpustats = g_array_new(FALSE, TRUE, sizeof(FtlCpuStats));
	t->cpustats_set = g_array_new(FALSE, TRUE, sizeof(gboolean));
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
	g_array_unref(t->cpustats);
	g_array_unref(t->cpustats_set);
	ftl_related_free(t->related);
	g_free(t->label);
	g_free(t);
}

void ftl_trace_add_source(FtlTrace *t, FtlSource *src)
{
	src->trace = t;
	g_ptr_array_add(t->sources, src);
	ftl_related_add_source(t->related, t->sources->len - 1);
}

void ftl_trace_begin_operand(FtlTrace *t, const char *path)
{
	ftl_related_begin_operand(t->related, path);
}

guint ftl_trace_n_operands(const FtlTrace *t)
{
	return ftl_related_n_operands(t->related);
}

void ftl_trace_note_event(FtlTrace *t, guint src_index, const FtlEvent *ev)
{
	ftl_related_note_event(t->related, src_index, ev);
}

gboolean ftl_trace_check_related(const FtlTrace *t, gboolean read_done, GError **error)
{
	g_autofree gint *cpus = g_new0(gint, t->sources->len + 1);
	for (guint i = 0; i < t->sources->len; i++)
		cpus[i] = ((FtlSource *)g_ptr_array_index(t->sources, i))->header_cpus;
	return ftl_related_check(t->related, cpus, t->sources->len, read_done, error);
}

const char *ftl_trace_label(const FtlTrace *t)
{
	return t->label;
}

FtlOpenFlags ftl_trace_flags(const FtlTrace *t)
{
	return t->flags;
}

const FtlReadOptions *ftl_trace_read_options(const FtlTrace *t)
{
	return &t->read;
}

void ftl_trace_set_read_options(FtlTrace *t, const FtlReadOptions *ro)
{
	t->read = ro ? *ro : (FtlReadOptions){ 0 };
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

void ftl_trace_set_cpustats(FtlTrace *t, gint cpu, const FtlCpuStats *st)
{
	if (cpu < 0 || cpu >= 65536)
		return;
	if ((guint)cpu >= t->cpustats->len) {
		g_array_set_size(t->cpustats, (guint)cpu + 1);
		g_array_set_size(t->cpustats_set, (guint)cpu + 1);
	}
	g_array_index(t->cpustats, FtlCpuStats, cpu) = *st;
	g_array_index(t->cpustats_set, gboolean, cpu) = TRUE;
}

const FtlCpuStats *ftl_trace_cpustats(const FtlTrace *t, gint cpu)
{
	if (!t || cpu < 0 || (guint)cpu >= t->cpustats->len ||
	    !g_array_index(t->cpustats_set, gboolean, cpu))
		return NULL;
	return &g_array_index(t->cpustats, FtlCpuStats, cpu);
}

gint64 ftl_trace_cpu_lost(const FtlTrace *t, gint cpu, guint64 counted, guint64 uncounted)
{
	const FtlCpuStats *st = ftl_trace_cpustats(t, cpu);
	if (st)
		return (gint64)MIN(ftl_cpustats_lost(st), (guint64)G_MAXINT64);
	if (uncounted)
		return FTL_LOST_UNKNOWN;
	return (gint64)MIN(counted, (guint64)G_MAXINT64);
}

gint64 ftl_lost_sum(gint64 a, gint64 b)
{
	gint64 r;
	if (a == FTL_LOST_UNKNOWN || b == FTL_LOST_UNKNOWN)
		return FTL_LOST_UNKNOWN;
	return __builtin_add_overflow(a, b, &r) ? G_MAXINT64 : r;
}

void ftl_trace_header_entries(const FtlTrace *t, gint64 *in_buffer, gint64 *written)
{
	gint64 m_in = -1, m_wr = -1, p_in = -1, p_wr = -1;
	for (guint i = 0; i < t->sources->len; i++) {
		const FtlSource *s = g_ptr_array_index(t->sources, i);
		if (s->entries_in_buffer < 0 || s->entries_written < 0)
			continue;
		if (s->cpu_hint < 0) {
			m_in = ftl_sat_add_i64(MAX(m_in, 0), s->entries_in_buffer);
			m_wr = ftl_sat_add_i64(MAX(m_wr, 0), s->entries_written);
		} else if (s->entries_written > p_wr) {
			/* the same totals in each file; the one read last is the newest */
			p_in = s->entries_in_buffer;
			p_wr = s->entries_written;
		}
	}
	*in_buffer = m_in < 0 && p_in < 0 ? -1 : ftl_sat_add_i64(MAX(m_in, 0), MAX(p_in, 0));
	*written = m_wr < 0 && p_wr < 0 ? -1 : ftl_sat_add_i64(MAX(m_wr, 0), MAX(p_wr, 0));
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
	ftl_related_note_clock(t->related, t->clock);
}

void ftl_trace_set_kernel(FtlTrace *t, const char *release)
{
	t->kernel = release ? ftl_strpool_intern(t->pool, release) : NULL;
	ftl_related_note_kernel(t->related, t->kernel);
}

void ftl_trace_set_kernel_uname(FtlTrace *t, const char *uname)
{
	if (!uname)
		return;
	g_autofree char *line = g_strndup(uname, strcspn(uname, "\n"));
	g_auto(GStrv) words = g_strsplit_set(line, " \t", 4);
	guint n = 0;
	const char *release = NULL;
	for (guint i = 0; words[i]; i++)
		if (*words[i] && ++n == 3)
			release = words[i];
	if (release)
		ftl_trace_set_kernel(t, release);
}

void ftl_trace_set_build_id(FtlTrace *t, const char *build_id)
{
	t->build_id = build_id ? ftl_strpool_intern(t->pool, build_id) : NULL;
}

const char *ftl_trace_build_id(const FtlTrace *t)
{
	return t->build_id;
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
