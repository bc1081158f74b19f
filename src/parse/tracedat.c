/* SPDX-License-Identifier: GPL-2.0-or-later */
/* trace-cmd trace.dat files (versions 6 and 7) read through libtracecmd: with
 * tracecmd-guard.c (the calls that crash on damaged files), the only file
 * that calls libtracecmd, and where its errors become ftlens's. */
#include "config.h"

#include "parse/tracedat.h"

#include <stdio.h>
#include <string.h>

#include <event-parse.h>
#include <trace-cmd.h>

#include "parse/tep.h"
#include "parse/tracecmd-guard.h"
#include "parse/tracedat-layout.h"
#include "util/error.h"
#include "util/tracefs-text.h"

/* Exported by libtracecmd 1.3 but declared only in trace-cmd's private
 * header: the saved per-CPU ring-buffer statistics (the one place a
 * trace.dat says how many events were overwritten), and the trace clock
 * (known once tracecmd_init_data() has read the options; NULL when the file
 * does not say). */
const char *tracecmd_get_cpustats(struct tracecmd_input *handle);
const char *tracecmd_get_trace_clock(struct tracecmd_input *handle);

static const char tracedat_magic[] = { 0x17, 0x08, 0x44, 't', 'r', 'a', 'c', 'i', 'n', 'g' };

gboolean ftl_tracedat_sniff(const char *data, gsize size)
{
	return size >= sizeof tracedat_magic &&
	       memcmp(data, tracedat_magic, sizeof tracedat_magic) == 0;
}

/* ---- the source -------------------------------------------------------- */

typedef struct {
	FtlSource base;
	struct tracecmd_input *handle;
	FtlTepDecoder *dec;
	struct tep_handle *tep; /* the handle's, borrowed */
	gint n_cpus;
	struct tep_record **heads; /* the next record of each CPU, NULL when drained */
	gboolean *drained;
	gboolean *lost_seen;	/* a CPU had a missed-events mark */
	struct tep_record *cur; /* the record behind ev; alive until the next next() */
	gboolean lost_pending;	/* ev is the LOST before cur; cur's own event comes next */
	FtlEvent ev;
	guint64 seq;
	GArray *last_ts; /* gint64 per CPU, for the time_backwards diagnostic */
	const char *n_lost;
	gboolean top;	   /* the top buffer, not an instance: owns the saved cpustats */
	int page_size;	   /* the file header's ring-buffer page size, 0 if unknown */
	gint64 data_start; /* where a page's events start: after its header */
	struct tracecmd_input *parent; /* the file's handle when the top buffer is not read */
} TracedatSource;

static void tracedat_record_free(struct tep_record *r)
{
	if (r)
		tracecmd_free_record(r);
}

static void tracedat_fill(TracedatSource *ts, struct tep_record *r)
{
	/* A record lies inside its page, and only its page is in memory; a
	 * damaged event header can claim more bytes than the page holds. Pages
	 * are page-aligned and r->offset is where the event's header starts:
	 * past the page header (16 bytes, 12 on 32-bit kernels) and before the
	 * page's end plus that header, as kbuffer bounds the data by the commit
	 * size alone. The data follows the event header: 4 bytes, or 8 with a
	 * length word, which is what record_size counts beyond size. */
	int psize = ts->page_size;
	if (psize > 0) {
		gint64 start = ts->data_start;
		gint64 index = r->offset >= (unsigned long long)start
				       ? (gint64)((r->offset - (unsigned long long)start) %
						  (unsigned long long)psize) +
						 start
				       : (gint64)r->offset;
		gint64 hdr = (gint64)r->record_size - r->size;
		if (hdr < 4 || hdr > 8)
			hdr = 8;
		gint64 room = MAX(psize - index - hdr, 0);
		if (r->size > room) {
			char where[128];
			gint n = g_snprintf(where, sizeof where,
					    "CPU %d, file offset %llu: an event of %d bytes in a "
					    "page with %" G_GINT64_FORMAT " left",
					    r->cpu, (unsigned long long)r->offset, r->size, room);
			ftl_diags_add(ftl_trace_diags(ts->base.trace), FTL_DIAG_BAD_PAGE,
				      ts->base.path, 0, r->cpu, where, (gsize)n, 0);
			r->size = (int)room;
		}
	}
	gint id;
	gboolean known = ftl_tep_decode(ts->dec, r, &ts->ev, &id);
	ts->ev.src = &ts->base;
	ts->ev.seq = ++ts->seq;
	if (!known) {
		char where[96];
		gint n = g_snprintf(where, sizeof where, "event id %d at CPU %d, file offset %llu",
				    id, r->cpu, (unsigned long long)r->offset);
		ftl_diags_add(ftl_trace_diags(ts->base.trace), FTL_DIAG_UNKNOWN_EVENT,
			      ts->base.path, 0, r->cpu, where, (gsize)n, 0);
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
		gint n = g_snprintf(where, sizeof where,
				    "CPU:%d [EVENTS DROPPED] before offset %llu", ev->cpu,
				    (unsigned long long)ts->cur->offset);
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
			ftl_diags_add(ftl_trace_diags(trace), FTL_DIAG_TIME_BACKWARDS,
				      ts->base.path, 0, ev->cpu, NULL, 0, 0);
		*last = ev->ts;
	}
}

/* At the end: overruns the saved ring-buffer statistics report for CPUs
 * whose pages carried no missed-events mark. */
static void tracedat_cpustats_one(gint cpu, const FtlCpuStats *st, gpointer data)
{
	TracedatSource *ts = data;
	guint64 n = ftl_cpustats_lost(st);
	if (n == 0 || (cpu < ts->n_cpus && ts->lost_seen[cpu]))
		return;
	g_autofree char *text = g_strdup_printf(
		"CPU %d: trace-cmd's saved cpustats report %" G_GUINT64_FORMAT
		" overrun or dropped events",
		cpu, n);
	ftl_diags_add(ftl_trace_diags(ts->base.trace), FTL_DIAG_LOST_EVENTS, ts->base.path, 0, cpu,
		      text, strlen(text), n);
}

static void tracedat_cpustats(TracedatSource *ts)
{
	const char *stats = tracecmd_get_cpustats(ts->handle);
	if (stats)
		ftl_cpustats_parse_all(stats, tracedat_cpustats_one, ts);
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
	ftl_tep_payload(ts->dec, ts->cur, out);
}

static gboolean tracedat_field(FtlSource *src, const FtlEvent *ev, const char *key, FtlSlice *value)
{
	TracedatSource *ts = (TracedatSource *)src;
	if (ev != &ts->ev || !ts->cur || ts->lost_pending || ev->kind == FTL_EVENT_LOST)
		return FALSE;
	return ftl_tep_field(ts->dec, ts->cur, key, value);
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
	if (ts->parent)
		tracecmd_close(ts->parent);
	ftl_tep_decoder_free(ts->dec);
	g_array_unref(ts->last_ts);
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
	.field = tracedat_field,
};

/* The ring-buffer page size from the file's header, which libtracecmd reads
 * but does not give out (nor set on its tep handle): after the magic, the
 * version string and its NUL, the endianness and long-size bytes, a 4-byte
 * number in the file's byte order. 0 when it cannot be read or is not a
 * power of two of at least 1 KiB. */
static int tracedat_page_size(const char *path)
{
	guchar buf[64];
	FILE *f = fopen(path, "rb");
	if (!f)
		return 0;
	gsize n = fread(buf, 1, sizeof buf, f);
	fclose(f);
	gsize i = sizeof tracedat_magic;
	while (i < n && buf[i])
		i++;
	if (i + 7 > n)
		return 0;
	guint32 v;
	memcpy(&v, buf + i + 3, sizeof v); /* past the NUL, endianness and long size */
	v = buf[i + 1] ? GUINT32_FROM_BE(v) : GUINT32_FROM_LE(v);
	return v >= 1024 && v <= (1u << 24) && (v & (v - 1)) == 0 ? (int)v : 0;
}

/* Takes ownership of handle. page_size: tracedat_page_size() of the file. */
static TracedatSource *tracedat_source_add(FtlTrace *trace, const char *path,
					   struct tracecmd_input *handle, int page_size,
					   gboolean top, const char *buffer)
{
	TracedatSource *ts = g_new0(TracedatSource, 1);
	ftl_source_init(&ts->base, &tracedat_ops, path);
	ts->top = top;
	ts->page_size = page_size;
	ts->handle = handle;
	ts->base.buffer = buffer ? ftl_strpool_intern(ftl_trace_pool(trace), buffer) : NULL;
	struct tep_handle *tep = tracecmd_get_tep(handle);
	ts->tep = tep;
	/* a timestamp, then the commit word of the kernel's long size */
	ts->data_start = 8 + tep_get_header_page_size(tep);
	ts->dec = ftl_tep_decoder_new(tep, trace);
	ts->n_cpus = MAX(tep_get_cpus(tep), 0);
	ts->heads = g_new0(struct tep_record *, MAX(ts->n_cpus, 1));
	ts->drained = g_new0(gboolean, MAX(ts->n_cpus, 1));
	ts->lost_seen = g_new0(gboolean, MAX(ts->n_cpus, 1));
	ts->last_ts = g_array_new(FALSE, FALSE, sizeof(gint64));
	g_array_set_size(ts->last_ts, (guint)ts->n_cpus);
	for (gint c = 0; c < ts->n_cpus; c++)
		g_array_index(ts->last_ts, gint64, c) = FTL_TS_NONE;
	ts->n_lost = ftl_strpool_intern(ftl_trace_pool(trace), "lost");
	ts->base.header_cpus = ts->n_cpus;
	ts->base.has_header = TRUE;
	ftl_trace_add_source(trace, &ts->base);
	return ts;
}

/* Opens the file's headers and reads its CPU data's layout: the handle,
 * or NULL with error set. msgs collects the library's messages. */
static struct tracecmd_input *tracedat_handle(const char *path, GString *msgs, GError **error)
{
	/* No plugins: what ftlens shows must not depend on the plugins of the
	 * machine it runs on. */
	FtlTracecmdResult res;
	struct tracecmd_input *handle = ftl_tracecmd_open_head(path, &res);
	if (!handle) {
		ftl_tep_capture_messages(NULL);
		if (res == FTL_TRACECMD_CRASHED)
			g_set_error(error, FTL_ERROR, FTL_ERROR_FORMAT,
				    "'%s': not a valid trace.dat: its headers are damaged "
				    "(libtracecmd crashes reading them)",
				    path);
		else /* the headers are what libtracecmd refused */
			g_set_error(error, FTL_ERROR, FTL_ERROR_FORMAT,
				    "'%s': not a valid trace.dat: %s", path,
				    msgs->len ? msgs->str
					      : "libtracecmd could not read its headers");
		return NULL;
	}
	/* Format warnings of events we may never meet are not the reason
	 * init fails; keep them out of the error. */
	if (msgs->len)
		g_debug("'%s': libtracecmd: %s", path, msgs->str);
	g_string_truncate(msgs, 0);
	/* Not tracecmd_open(): in libtracecmd 1.3 it closes the handle after a
	 * failed tracecmd_init_data() and crashes doing so (a truncated file). */
	res = ftl_tracecmd_init_data(handle, msgs);
	if (res == FTL_TRACECMD_CRASHED)
		g_string_assign(msgs, "its CPU data is damaged (libtracecmd crashes reading it)");
	if (res != FTL_TRACECMD_OK) {
		ftl_tep_capture_messages(NULL);
		g_set_error(error, FTL_ERROR, FTL_ERROR_PARSE, "'%s': not a valid trace.dat: %s",
			    path,
			    msgs->len ? msgs->str : "libtracecmd could not read the CPU data");
		ftl_tracecmd_discard(handle);
		return NULL;
	}
	ftl_tep_capture_messages(NULL);
	if (msgs->len)
		g_debug("'%s': libtracecmd: %s", path, msgs->str);
	return handle;
}

/* The buffers of the file as sources of trace: the top one and every
 * instance, or only the one named buffer. Takes handle. */
static gboolean tracedat_add_buffers(FtlTrace *trace, const char *path, const char *buffer,
				     struct tracecmd_input *handle, GString *msgs, GError **error)
{
	int page_size = tracedat_page_size(path);
	/* Buffer instances (trace-cmd record -B, extract -B) are more sources,
	 * merged in time like trace-cmd report does. */
	int n = tracecmd_buffer_instances(handle);
	gboolean want_top = !buffer || strcmp(buffer, "top") == 0, found = want_top;
	ftl_trace_add_buffer(trace, "top");
	for (int i = 0; i < n; i++) {
		const char *name = tracecmd_buffer_instance_name(handle, i);
		ftl_trace_add_buffer(trace, name ? name : "?");
		if (buffer && g_strcmp0(name, buffer) == 0)
			found = TRUE;
	}
	if (!found) {
		g_autoptr(GString) names = g_string_new("top");
		for (int i = 0; i < n; i++)
			g_string_append_printf(names, ", %s",
					       tracecmd_buffer_instance_name(handle, i));
		tracecmd_close(handle);
		g_set_error(error, FTL_ERROR, FTL_ERROR_USAGE,
			    "'%s': no buffer '%s' in this trace.dat (it has: %s)", path, buffer,
			    names->str);
		return FALSE;
	}
	if (want_top)
		tracedat_source_add(trace, path, handle, page_size, TRUE, NULL);
	for (int i = 0; i < n; i++) {
		const char *name = tracecmd_buffer_instance_name(handle, i);
		if (buffer && g_strcmp0(name, buffer) != 0)
			continue;
		g_string_truncate(msgs, 0);
		ftl_tep_capture_messages(msgs);
		struct tracecmd_input *h = ftl_tracecmd_instance(handle, i);
		ftl_tep_capture_messages(NULL);
		if (!h) {
			g_set_error(error, FTL_ERROR, FTL_ERROR_PARSE,
				    "'%s': not a valid trace.dat: buffer instance '%s': %s", path,
				    name ? name : "?",
				    msgs->len ? msgs->str
					      : "its data is damaged (libtracecmd cannot read it)");
			if (!want_top)
				tracecmd_close(handle);
			return FALSE;
		}
		TracedatSource *ts = tracedat_source_add(trace, path, h, page_size, FALSE, name);
		if (!want_top)
			ts->parent = handle; /* only one instance is chosen then */
	}
	return TRUE;
}

gboolean ftl_tracedat_open(FtlTrace *trace, const char *path, const char *buffer, GError **error)
{
	/* The skeleton first: a damaged size must be refused before
	 * libtracecmd allocates by it. */
	g_autoptr(FtlDatLayout) layout = ftl_dat_layout_read(path, error);
	if (!layout)
		return FALSE;
	g_autoptr(GString) msgs = g_string_new(NULL);
	ftl_tep_capture_messages(msgs);
	/* Warnings carry the reason a file is rejected ("File possibly
	 * truncated. Need at least N, ..."); they are captured, not printed. */
	tep_set_loglevel(TEP_LOG_WARNING);
	tracecmd_set_loglevel(TEP_LOG_WARNING);
	struct tracecmd_input *handle = tracedat_handle(path, msgs, error);
	if (!handle)
		return FALSE;
	const char *clock = tracecmd_get_trace_clock(handle);
	if (clock && *clock)
		ftl_trace_set_clock(trace, clock);
	return tracedat_add_buffers(trace, path, buffer, handle, msgs, error);
}
