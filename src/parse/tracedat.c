/* SPDX-License-Identifier: GPL-2.0-or-later */
/* trace-cmd trace.dat files (versions 6 and 7) read through libtracecmd: with
 * tracecmd-guard.c (the calls that crash on damaged files), the only file
 * that calls libtracecmd, and where its errors become ftlens's.
 *
 * Each library call that reads what the file holds is one of two kinds:
 * GUARDED, it runs first in tracecmd-guard.c's trial child (a crash there
 * is an error here), or VALIDATED, it runs after ftlens checked what it
 * will touch. Per call in this file:
 * - ftl_tracecmd_open_head: VALIDATED, after tracedat-layout.c checked
 *   every section size and option text against the file, and with the
 *   printk lines and event formats it hands libtraceevent checked by
 *   tep-check.c (the known crashes); and GUARDED too (tracecmd-guard.c's
 *   trial child, the product's second line; fuzz-tracedat runs without it);
 * - ftl_tracecmd_init_data/instance: GUARDED (tracecmd-guard.c), made only
 *   for the files ftlens does not read the pages of itself
 *   (tracedat_pages_readable: timestamp options, latency text, an unknown
 *   compression);
 * - tracecmd_read_data: VALIDATED, only the CPU-table entries the layout
 *   (tracedat-layout.c, ftlens's own reading) found data for, below
 *   tracecmd_cpus(); latency buffers refused (tracedat_use_tracecmd); a
 *   CPU's pages (decompressed when compressed) walked first, and never read
 *   past the record whose step would loop kbuffer (tracedat_walk_page);
 * - tracecmd_buffer_instances/_name, tracecmd_get_cpustats/_trace_clock,
 *   tracecmd_cpus, tep_get_cpus/_header_page_size, tep_is_old_format,
 *   tracecmd_get_tep: VALIDATED, getters of what the GUARDED open and
 *   init parsed (the layout checked every size before);
 * - ftl_tep_decode* (tep.c): VALIDATED, a record is decoded only when it
 *   covers its event's fixed fields (ftl_tep_short);
 * - tracecmd_free_record, tracecmd_close: ftlens's own records and
 *   handles (a handle whose init failed is never closed: guard_discard). */
#include "config.h"

#include "parse/tracedat.h"

#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <event-parse.h>
#include <trace-cmd.h>

#include "parse/pages.h"
#include "parse/tep.h"
#include "parse/tracecmd-guard.h"
#include "parse/tracedat-layout.h"
#include "parse/tracedat-stream.h"
#include "util/error.h"
#include "util/linereader.h"
#include "util/strput.h"
#include "util/tracefs-text.h"

/* Exported by libtracecmd 1.3 but declared only in trace-cmd's private
 * header: the saved per-CPU ring-buffer statistics (the one place a
 * trace.dat says how many events were overwritten), and the trace clock
 * (known once tracecmd_init_data() has read the options; NULL when the file
 * does not say). */
const char *tracecmd_get_cpustats(struct tracecmd_input *handle);
const char *tracecmd_get_trace_clock(struct tracecmd_input *handle);
int tracecmd_cpus(struct tracecmd_input *handle);

static const char tracedat_magic[] = { 0x17, 0x08, 0x44, 't', 'r', 'a', 'c', 'i', 'n', 'g' };

gboolean ftl_tracedat_sniff(const char *data, gsize size)
{
	return size >= sizeof tracedat_magic &&
	       memcmp(data, tracedat_magic, sizeof tracedat_magic) == 0;
}

/* ---- the source -------------------------------------------------------- */

/* The file's libtracecmd handle (its tep: formats, kallsyms, cmdlines),
 * shared by the sources of its buffers. */
typedef struct {
	gint refs;
	struct tracecmd_input *handle;
	FtlTepLazy *lazy; /* the formats and kallsyms its tep has not parsed yet */
	/* the decoder of its first source, which the others share what the
	 * tep keeps with (ftl_tep_decoder_share): all are added by one open */
	FtlTepDecoder *first_dec;
} TracedatFile;

static TracedatFile *tracedat_file_ref(TracedatFile *f)
{
	f->refs++;
	return f;
}

static void tracedat_file_unref(TracedatFile *f)
{
	if (f && --f->refs == 0) {
		tracecmd_close(f->handle);
		ftl_tep_lazy_free(f->lazy);
		g_free(f);
	}
}

/* A stream's records in hand: at is its next one, end past the last. */
typedef struct {
	const FtlDatRecord *at, *end;
	gint cpu;
} TracedatRun;

typedef struct {
	FtlSource base;
	TracedatFile *file;
	FtlTepDecoder *dec;
	struct tep_handle *tep; /* the file's, borrowed */
	guint n_cpu_slots;	/* size of the per-CPU arrays: the highest CPU + 1 */
	gboolean *lost_seen;	/* a CPU had a missed-events mark */
	gint64 *last_ts;	/* per CPU, for the time_backwards diagnostic */
	struct tep_record *cur; /* the record behind ev; alive until the next next() */
	gboolean lost_pending;	/* ev is the LOST before cur; cur's own event comes next */
	FtlEvent ev;
	guint64 seq;
	const char *n_lost;
	gboolean top; /* the top buffer, not an instance: owns the saved cpustats */
	const char *cpustats; /* the file's saved cpustats, or NULL */
	char *cpustats_copy;  /* ... when the source keeps them */

	/* The pages read by ftlens (tracedat-stream.c) ... */
	FtlDatStreams *streams;
	TracedatRun *runs; /* per stream: the records taken and not merged yet */
	guint *heap;	   /* stream indices that have a record, by (ts, index) */
	guint heap_len;
	gboolean started;   /* heap[0]'s record is the current one */
	struct tep_record rec;
	const FtlDatRecord *dat; /* the record behind rec */

	/* ... or the records of libtracecmd, for the files only it reads. */
	struct tracecmd_input *handle; /* an instance's own handle, or the file's */
	gboolean own_handle;
	gint n_cpus;
	struct tep_record **heads; /* the next record of each CPU, NULL when drained */
	gboolean *drained;
	guint64 *next_off; /* past the file offset of each CPU's last record (0: none) */
	/* per CPU, where libtracecmd must stop (tracedat_walk_cpu), when
	 * stop_why says why (NULL: never): once next_off reaches stop_next */
	guint64 *stop_next;
	char **stop_why;
	/* compressed data: stop_next counts from the CPU's decompressed data,
	 * whose place among libtracecmd's offsets the first record read tells:
	 * it lies in the CPU's page stop_page (its first with a record); -1:
	 * stop_next is libtracecmd's offset already */
	gint64 *stop_page;
	int page_size;	   /* the file header's ring-buffer page size */
	gint64 data_start; /* where a page's events start: after its header */
} TracedatSource;

static void tracedat_record_free(struct tep_record *r)
{
	if (r)
		tracecmd_free_record(r);
}

/* A damaged page of CPU cpu, in the trace's diagnostics: what, as format
 * says. */
G_GNUC_PRINTF(3, 4)
static void tracedat_bad_record(TracedatSource *ts, gint cpu, const char *format, ...)
{
	va_list ap;
	va_start(ap, format);
	g_autofree char *text = g_strdup_vprintf(format, ap);
	va_end(ap);
	ftl_diags_add(ftl_trace_diags(ts->base.trace), FTL_DIAG_BAD_PAGE,
		      &(FtlDiagLoc){ ts->base.path, 0, cpu }, text, -1, 0);
}

/* libtracecmd bounds a record by the page's commit alone: a damaged event
 * header can claim more bytes than its page holds (ftlens's own page
 * reader checks this itself). Pages are page-aligned and r->offset is where
 * the event's header starts: past the page header (16 bytes, 12 on 32-bit
 * kernels) and before the page's end plus that header. The data follows
 * the event header: 4 bytes, or 8 with a length word, which is what
 * record_size counts beyond size. */
static void tracedat_clamp_record(TracedatSource *ts, struct tep_record *r)
{
	int psize = ts->page_size;
	if (psize <= 0)
		return;
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
		tracedat_bad_record(ts, r->cpu,
				    "CPU %d, file offset %llu: an event of %d bytes in a "
				    "page with %" G_GINT64_FORMAT " left",
				    r->cpu, (unsigned long long)r->offset, r->size, room);
		r->size = (int)room;
	}
}

static void tracedat_fill(TracedatSource *ts, struct tep_record *r)
{
	gint id;
	const FtlDatRecord *d = ts->streams ? ts->dat : NULL;
	gboolean known;
	if (d && d->id >= 0) {
		id = d->id;
		known = ftl_tep_decode_read(ts->dec, r, id, d->pid, d->flags, &ts->ev);
	} else {
		known = ftl_tep_decode(ts->dec, r, &ts->ev, &id);
	}
	ts->ev.src = &ts->base;
	ts->ev.seq = ++ts->seq;
	if (d && d->text && d->text_plain) /* what tracedat_payload() gives */
		ts->ev.flags |= FTL_EVENT_F_PLAIN_TEXT;
	else
		ts->ev.flags &= ~FTL_EVENT_F_PLAIN_TEXT;
	if (!known) {
		char where[192];
		const char *left_out = ftl_tep_decoder_rejected(ts->dec, id);
		gint n = g_snprintf(where, sizeof where, "event id %d%s%s%s at CPU %d, file offset %llu",
				    id, left_out ? " (" : "", left_out ? left_out : "",
				    left_out ? ", its format left out)" : "", r->cpu,
				    (unsigned long long)r->offset);
		n = MIN(n, (gint)sizeof where - 1);
		FtlDiagKind kind = left_out ? FTL_DIAG_BAD_FORMAT : FTL_DIAG_UNKNOWN_EVENT;
		ftl_diags_add(ftl_trace_diags(ts->base.trace), kind,
			      &(FtlDiagLoc){ ts->base.path, 0, r->cpu }, where, (gsize)n, 0);
	} else {
		gint need = ftl_tep_short(ts->dec);
		if (need) {
			char where[160];
			gint n = g_snprintf(where, sizeof where,
					    "CPU %d, file offset %llu: a %s record of %d bytes, its "
					    "format's fields need %d",
					    r->cpu, (unsigned long long)r->offset, ts->ev.name,
					    r->size, need);
			ftl_diags_add(ftl_trace_diags(ts->base.trace), FTL_DIAG_BAD_PAGE,
				      &(FtlDiagLoc){ ts->base.path, 0, r->cpu }, where, (gsize)n,
				      0);
		}
	}
}

static void tracedat_account(TracedatSource *ts)
{
	FtlEvent *ev = &ts->ev;
	char where[96];
	gint n = 0;
	if (ev->kind == FTL_EVENT_LOST)
		n = g_snprintf(where, sizeof where, "CPU:%d [EVENTS DROPPED] before offset %llu",
			       ev->cpu, (unsigned long long)ts->cur->offset);
	gint64 *last =
		ev->cpu >= 0 && (guint)ev->cpu < ts->n_cpu_slots ? &ts->last_ts[ev->cpu] : NULL;
	ftl_source_account(&ts->base, ev, last, (FtlSlice){ where, (guint32)n }, TRUE);
}

/* At the end: overruns the saved ring-buffer statistics report for CPUs
 * whose pages carried no missed-events mark. */
static void tracedat_cpustats_one(gint cpu, const FtlCpuStats *st, gpointer data)
{
	TracedatSource *ts = data;
	guint64 n = ftl_cpustats_lost(st);
	if (n == 0 || (cpu >= 0 && (guint)cpu < ts->n_cpu_slots && ts->lost_seen[cpu]))
		return;
	g_autofree char *text = g_strdup_printf(
		"CPU %d: trace-cmd's saved cpustats report %" G_GUINT64_FORMAT
		" overrun or dropped events",
		cpu, n);
	ftl_diags_add(ftl_trace_diags(ts->base.trace), FTL_DIAG_LOST_EVENTS,
		      &(FtlDiagLoc){ ts->base.path, 0, cpu }, text, -1, n);
}

static void tracedat_cpustats_keep_one(gint cpu, const FtlCpuStats *st, gpointer data)
{
	ftl_trace_set_cpustats(data, cpu, st);
}

/* The top buffer's saved CPU statistics into the trace, where the shared
 * figures read each CPU's lost events. */
static void tracedat_cpustats_keep(TracedatSource *ts)
{
	if (ts->cpustats)
		ftl_cpustats_parse_all(ts->cpustats, tracedat_cpustats_keep_one, ts->base.trace);
}

static FtlStatus tracedat_eof(TracedatSource *ts)
{
	if (ts->top && ts->cpustats) {
		ftl_cpustats_parse_all(ts->cpustats, tracedat_cpustats_one, ts);
		ts->cpustats = NULL;
	}
	return FTL_STATUS_EOF;
}

/* The page r starts says events were lost before it: a LOST event first,
 * r's own after it. */
static void tracedat_lost(TracedatSource *ts, const struct tep_record *r)
{
	FtlEvent *ev = &ts->ev;
	memset(ev, 0, sizeof *ev);
	ev->src = &ts->base;
	ev->ts = (gint64)r->ts;
	ev->cpu = r->cpu;
	ev->pid = ev->tgid = -1;
	ev->seq = ++ts->seq;
	ev->kind = FTL_EVENT_LOST;
	ev->name = ts->n_lost;
	ev->u.lost.count = r->missed_events > 0 ? (guint64)r->missed_events : 0;
	if (ev->cpu >= 0 && (guint)ev->cpu < ts->n_cpu_slots)
		ts->lost_seen[ev->cpu] = TRUE;
	ts->lost_pending = TRUE;
	tracedat_account(ts);
}

/* ---- the reader over ftlens's own page streams ---------------------------- */

static inline gboolean tracedat_heap_less(const TracedatSource *ts, guint a, guint b)
{
	guint64 x = ts->runs[a].at->ts, y = ts->runs[b].at->ts;
	return x < y || (x == y && a < b);
}

static void tracedat_heap_down(TracedatSource *ts, guint i)
{
	guint *h = ts->heap;
	for (;;) {
		guint l = 2 * i + 1, r = l + 1, m = i;
		if (l < ts->heap_len && tracedat_heap_less(ts, h[l], h[m]))
			m = l;
		if (r < ts->heap_len && tracedat_heap_less(ts, h[r], h[m]))
			m = r;
		if (m == i)
			return;
		guint t = h[i];
		h[i] = h[m];
		h[m] = t;
		i = m;
	}
}

/* The next block's records of stream i into its run; FALSE when drained. */
static gboolean tracedat_run_fill(TracedatSource *ts, guint i)
{
	guint n;
	const FtlDatRecord *r = ftl_dat_streams_take(ts->streams, i, &n);
	if (!r)
		return FALSE;
	ts->runs[i].at = r;
	ts->runs[i].end = r + n;
	return TRUE;
}

static void tracedat_streams_start(TracedatSource *ts)
{
	guint n = ftl_dat_streams_count(ts->streams);
	for (guint i = 0; i < n; i++) {
		ts->runs[i].cpu = (gint)ftl_dat_streams_cpu(ts->streams, i);
		if (tracedat_run_fill(ts, i))
			ts->heap[ts->heap_len++] = i;
	}
	for (guint i = ts->heap_len / 2; i-- > 0;)
		tracedat_heap_down(ts, i);
	ts->started = TRUE;
}

/* The next record in (ts, CPU) order, the order trace-cmd report prints,
 * into ts->rec (and ts->dat); NULL at the end. */
static struct tep_record *tracedat_streams_next(TracedatSource *ts)
{
	if (!ts->started) {
		tracedat_streams_start(ts);
	} else if (ts->heap_len) {
		/* the stream of the record handed out last moves on */
		guint i = ts->heap[0];
		TracedatRun *run = &ts->runs[i];
		guint *h = ts->heap;
		if (++run->at == run->end && !tracedat_run_fill(ts, i))
			h[0] = h[--ts->heap_len];
		if (ts->heap_len == 2) {
			/* two CPUs: one comparison, no sift */
			if (tracedat_heap_less(ts, h[1], h[0])) {
				guint t = h[0];
				h[0] = h[1];
				h[1] = t;
			}
		} else if (ts->heap_len > 2) {
			tracedat_heap_down(ts, 0);
		}
	}
	if (!ts->heap_len)
		return NULL;
	const TracedatRun *run = &ts->runs[ts->heap[0]];
	const FtlDatRecord *r = run->at;
	struct tep_record *rec = &ts->rec;
	ts->dat = r;
	rec->ts = r->ts;
	rec->cpu = run->cpu;
	rec->size = (int)r->size;
	rec->data = (void *)r->data;
	rec->offset = r->where;
	rec->missed_events = r->missed;
	return rec;
}

/* Damage the page reader skipped. */
static void tracedat_bad_page(gpointer data, guint32 cpu, const char *what)
{
	tracedat_bad_record(data, (gint)cpu, "CPU %u: %s", cpu, what);
}

/* ---- the reader over libtracecmd's records ------------------------------- */

/* CPU c's next record from libtracecmd, or NULL when the CPU is drained.
 * A CPU's records lie at rising file offsets (its pages in order, the
 * events of a page in order): one at or before the last is libtracecmd
 * reading a page again, which a damaged page makes it do without end (a
 * 20 KB file gave events for as long as it ran, trace-cmd report too), so
 * the CPU ends there with a diagnostic. */
static gboolean tracedat_read_again(const TracedatSource *ts, gint c, const struct tep_record *r)
{
	return ts->next_off[c] && r->offset < ts->next_off[c];
}

static struct tep_record *tracedat_tracecmd_read(TracedatSource *ts, gint c)
{
	for (;;) {
		if (ts->stop_why[c] && ts->next_off[c] == ts->stop_next[c]) {
			/* the next step would loop kbuffer for ever (tracedat_walk_cpu) */
			tracedat_bad_record(ts, c, "%s", ts->stop_why[c]);
			g_clear_pointer(&ts->stop_why[c], g_free);
			return NULL;
		}
		struct tep_record *r = tracecmd_read_data(ts->handle, c);
		if (!r)
			return NULL;
		if (ts->stop_page[c] >= 0 && !ts->next_off[c]) {
			/* libtracecmd numbers a compressed CPU's decompressed
			 * pages from an offset of its own, page by page */
			guint64 psize = (guint64)MAX(ts->page_size, 1);
			guint64 page = (guint64)r->offset / psize * psize;
			if (ts->stop_why[c] && ts->stop_next[c])
				ts->stop_next[c] += page - (guint64)ts->stop_page[c] * psize;
			ts->stop_page[c] = -1;
		}
		if (tracedat_read_again(ts, c, r)) {
			tracedat_bad_record(
				ts, c,
				"CPU %d, file offset %llu: libtracecmd reads a page again "
				"(the last record was at %" G_GUINT64_FORMAT
				"); the rest of the CPU is skipped",
				c, (unsigned long long)r->offset, ts->next_off[c] - 1);
			tracedat_record_free(r);
			return NULL;
		}
		ts->next_off[c] = (guint64)r->offset + 1;
		if (r->ts <= (unsigned long long)G_MAXINT64)
			return r;
		/* a timestamp past INT64_MAX is no clock's (ftlens's page reader
		 * skips it too): the record is left out, the CPU read on */
		tracedat_bad_record(ts, c,
				    "CPU %d, file offset %llu: an event with timestamp %llu, beyond "
				    "any clock, is skipped",
				    c, (unsigned long long)r->offset, (unsigned long long)r->ts);
		tracedat_record_free(r);
	}
}

static struct tep_record *tracedat_tracecmd_next(TracedatSource *ts)
{
	g_clear_pointer(&ts->cur, tracedat_record_free);
	/* Merge the CPUs by (ts, cpu), the order trace-cmd report prints. */
	gint best = -1;
	for (gint c = 0; c < ts->n_cpus; c++) {
		if (!ts->heads[c] && !ts->drained[c]) {
			ts->heads[c] = tracedat_tracecmd_read(ts, c);
			if (!ts->heads[c])
				ts->drained[c] = TRUE;
		}
		if (ts->heads[c] && (best < 0 || ts->heads[c]->ts < ts->heads[best]->ts))
			best = c;
	}
	if (best < 0)
		return NULL;
	struct tep_record *r = ts->heads[best];
	ts->heads[best] = NULL;
	tracedat_clamp_record(ts, r);
	return r;
}

/* Flattened: the per-record steps (merge, decode, accounting) compiled
 * into one function, without a call each per record. */
#if defined(__GNUC__)
#define TRACEDAT_FLATTEN __attribute__((flatten))
#else
#define TRACEDAT_FLATTEN
#endif

TRACEDAT_FLATTEN static FtlStatus tracedat_next(FtlSource *src, const FtlEvent **out,
						GError **error)
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
	ts->cur = ts->streams ? tracedat_streams_next(ts) : tracedat_tracecmd_next(ts);
	if (!ts->cur)
		return tracedat_eof(ts);
	if (ts->cur->missed_events != 0)
		tracedat_lost(ts, ts->cur);
	else {
		tracedat_fill(ts, ts->cur);
		tracedat_account(ts);
	}
	*out = &ts->ev;
	return FTL_STATUS_OK;
}

static void tracedat_payload(FtlSource *src, const FtlEvent *ev, GString *out)
{
	TracedatSource *ts = (TracedatSource *)src;
	/* Only the current record is alive; a LOST event has none of its own. */
	if (ev != &ts->ev || !ts->cur || ts->lost_pending || ev->kind == FTL_EVENT_LOST)
		return;
	if (ts->streams && ts->dat->text) /* rendered by a worker */
		ftl_string_put(out, ts->dat->text, ts->dat->text_len);
	else
		ftl_tep_payload(ts->dec, ts->cur, out);
}

/* A worker's rendering of a record's payload (tracedat-stream.h). */
static gboolean tracedat_render(gpointer data, const FtlDatRecord *r, GString *out)
{
	return ftl_tep_payload_ahead(data, r->id, r->data, (gint)r->size, out);
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
	ftl_dat_streams_free(ts->streams);
	g_free(ts->heap);
	g_free(ts->runs);
	if (!ts->streams)
		g_clear_pointer(&ts->cur, tracedat_record_free);
	for (gint c = 0; c < ts->n_cpus; c++)
		g_clear_pointer(&ts->heads[c], tracedat_record_free);
	g_free(ts->heads);
	g_free(ts->drained);
	g_free(ts->next_off);
	g_free(ts->stop_next);
	g_free(ts->stop_page);
	for (gint c = 0; ts->stop_why && c < ts->n_cpus; c++)
		g_free(ts->stop_why[c]);
	g_free(ts->stop_why);
	if (ts->own_handle)
		tracecmd_close(ts->handle);
	tracedat_file_unref(ts->file);
	g_free(ts->lost_seen);
	g_free(ts->last_ts);
	g_free(ts->cpustats_copy);
	ftl_tep_decoder_free(ts->dec);
	ftl_source_clear(src);
	g_free(ts);
}

static const char *tracedat_dialect(FtlSource *src)
{
	(void)src;
	return "trace.dat";
}

/* Only the pages ftlens reads itself can start at a time; before the
 * first event or anywhere later (the merge starts again from there). */
static FtlStatus tracedat_seek_time(FtlSource *src, gint64 when, GError **error)
{
	TracedatSource *ts = (TracedatSource *)src;
	(void)error;
	if (!ts->streams)
		return FTL_STATUS_EOF;
	ftl_dat_streams_seek_time(ts->streams, when > 0 ? (guint64)when : 0);
	ts->started = FALSE;
	ts->heap_len = 0;
	ts->cur = NULL;
	ts->lost_pending = FALSE;
	for (guint c = 0; c < ts->n_cpu_slots; c++)
		ts->last_ts[c] = FTL_TS_NONE;
	return FTL_STATUS_OK;
}

static const FtlSourceOps tracedat_ops = {
	.name = "tracedat",
	.next = tracedat_next,
	.free = tracedat_free,
	.dialect = tracedat_dialect,
	.payload = tracedat_payload,
	.field = tracedat_field,
	.seek_time = tracedat_seek_time,
};

/* A source for one buffer of file; its reader is set up by the caller.
 * header_cpus: what the file says of the CPUs; slots: the highest CPU + 1. */
static TracedatSource *tracedat_source_add(FtlTrace *trace, const char *path, TracedatFile *file,
					   gboolean top, const char *buffer, gint header_cpus,
					   guint slots)
{
	TracedatSource *ts = g_new0(TracedatSource, 1);
	ftl_source_init(&ts->base, &tracedat_ops, path);
	ts->top = top;
	ts->file = tracedat_file_ref(file);
	ts->base.buffer = buffer ? ftl_strpool_intern(ftl_trace_pool(trace), buffer) : NULL;
	ts->tep = tracecmd_get_tep(file->handle);
	ts->dec = ftl_tep_decoder_new(ts->tep, trace, ts->base.path);
	ftl_tep_decoder_set_lazy(ts->dec, file->lazy);
	if (file->first_dec)
		ftl_tep_decoder_share(ts->dec, file->first_dec);
	else
		file->first_dec = ts->dec;
	ts->n_cpu_slots = MAX(slots, 1);
	ts->lost_seen = g_new0(gboolean, ts->n_cpu_slots);
	ts->last_ts = g_new(gint64, ts->n_cpu_slots);
	for (guint c = 0; c < ts->n_cpu_slots; c++)
		ts->last_ts[c] = FTL_TS_NONE;
	ts->n_lost = ftl_strpool_intern(ftl_trace_pool(trace), "lost");
	ts->base.header_cpus = header_cpus;
	ts->base.has_header = TRUE;
	ftl_trace_add_source(trace, &ts->base);
	return ts;
}

/* One page of CPU cpu's data walked as kbuffer will (ftl_pages_check): at
 * is its offset (in the file, or in the CPU's decompressed data: where
 * says which); *last_rec is the offset of the last record met before it (0:
 * none) and becomes this page's last. At a page whose walk goes back, which
 * would loop libtracecmd's kbuffer for ever, the CPU is set to end after
 * that record, and FALSE returned. */
static gboolean tracedat_walk_page(TracedatSource *ts, FtlPages *pg, guint32 cpu,
				   const guchar *page, guint64 at, const char *where,
				   guint64 *last_rec)
{
	gint64 last;
	char why[128];
	/* libtracecmd steps past a record as it reads it, and loads the next
	 * page when it reads again */
	gboolean whole = ftl_pages_check(pg, page, &last, why, sizeof why);
	if (last >= 0)
		*last_rec = at + (guint64)ts->data_start + (guint64)last;
	if (whole)
		return TRUE;
	ts->stop_next[cpu] = *last_rec ? *last_rec + 1 : 0; /* next_off's value */
	ts->stop_why[cpu] = g_strdup_printf("CPU %u, page at %s %" G_GUINT64_FORMAT
					    ": %s; libtracecmd would loop on it, the rest of the "
					    "CPU is skipped",
					    cpu, where, at, why);
	return FALSE;
}

/* Walks the pages of uncompressed CPU data cpu of file fd (tracedat_walk_page). */
static void tracedat_walk_cpu(TracedatSource *ts, int fd, const FtlDatCpu *cpu, FtlPages *pg,
			      guint32 psize)
{
	g_autofree guchar *page = g_malloc0((gsize)psize + FTL_PAGES_SLACK);
	guint64 last_rec = 0;
	for (guint64 at = cpu->offset; cpu->offset + cpu->size - at >= psize; at += psize) {
		if (pread(fd, page, psize, (off_t)at) != (ssize_t)psize ||
		    !tracedat_walk_page(ts, pg, cpu->cpu, page, at, "file offset", &last_rec))
			return;
	}
}

/* Walks the pages of compressed CPU data cpu of file fd (tracedat_walk_page),
 * each chunk decompressed as libtracecmd will; a chunk ftlens cannot read or
 * decompress ends the walk (libtracecmd reads no page of it either). */
static void tracedat_walk_cpu_compressed(TracedatSource *ts, int fd, const FtlDatLayout *l,
					 const FtlDatCpu *cpu, FtlPages *pg, guint32 psize)
{
	g_autofree char *bad = NULL; /* libtracecmd reads the table itself */
	g_autoptr(GArray) chunks =
		ftl_dat_chunks_read(fd, l->file_size, l->big_endian, cpu->offset, cpu->size, &bad);
	g_autofree guchar *packed = NULL, *data = NULL;
	gsize packed_cap = 0, data_cap = 0;
	guint64 last_rec = 0;
	gint64 first_page = -1;
	for (guint i = 0; i < chunks->len; i++) {
		const FtlDatChunk *c = &g_array_index(chunks, FtlDatChunk, i);
		if (ftl_dat_chunk_load(fd, l->compress, c, &packed, &packed_cap, &data,
				       &data_cap) != FTL_DAT_CHUNK_LOADED)
			break;
		for (guint32 k = 0; c->usize - k >= psize; k += psize) {
			guint64 at = c->ustart + k, before = last_rec;
			gboolean whole = tracedat_walk_page(ts, pg, cpu->cpu, data + k, at,
							    "decompressed offset", &last_rec);
			if (first_page < 0 && last_rec != before)
				first_page = (gint64)(at / psize);
			if (!whole) {
				ts->stop_page[cpu->cpu] = MAX(first_page, 0);
				return;
			}
		}
	}
}

/* The slow reader: libtracecmd's records through handle (taken when own),
 * of buffer b of the file's layout. tracecmd_read_data() indexes the
 * handle's per-CPU data without checking it exists: a CPU the file's header
 * counts but whose data the handle never set up (a buffer of latency text;
 * the CPU table shorter than the CPU count) is a NULL read inside
 * libtracecmd 1.3 (tracecmd_peek_data). Validated here, not guarded: only
 * the table entries ftlens's own reading of the CPU table found data for,
 * below tracecmd_cpus(), are ever read; the others start drained. */
static void tracedat_use_tracecmd(TracedatSource *ts, struct tracecmd_input *handle, gboolean own,
				  int page_size, const FtlDatBuffer *b, const FtlDatLayout *l)
{
	ts->handle = handle;
	ts->own_handle = own;
	ts->page_size = page_size;
	/* a timestamp, then the commit word of the kernel's long size */
	ts->data_start = 8 + tep_get_header_page_size(ts->tep);
	ts->n_cpus = MAX(MIN(tep_get_cpus(ts->tep), tracecmd_cpus(handle)), 0);
	ts->heads = g_new0(struct tep_record *, MAX(ts->n_cpus, 1));
	ts->drained = g_new0(gboolean, MAX(ts->n_cpus, 1));
	ts->next_off = g_new0(guint64, MAX(ts->n_cpus, 1));
	for (gint c = 0; c < ts->n_cpus; c++)
		ts->drained[c] = TRUE;
	/* libtracecmd 1.3 indexes the handle's per-CPU data by CPU number (a
	 * version 7 table that skips CPUs leaves holes, never read) */
	for (guint i = 0; b && !b->latency && i < b->cpus->len; i++) {
		const FtlDatCpu *cpu = &g_array_index(b->cpus, FtlDatCpu, i);
		if (cpu->cpu < (guint)ts->n_cpus && cpu->size > 0)
			ts->drained[cpu->cpu] = FALSE;
	}
	ts->stop_next = g_new0(guint64, MAX(ts->n_cpus, 1));
	ts->stop_why = g_new0(char *, MAX(ts->n_cpus, 1));
	ts->stop_page = g_new(gint64, MAX(ts->n_cpus, 1));
	for (gint c = 0; c < MAX(ts->n_cpus, 1); c++)
		ts->stop_page[c] = -1;
	gint commit = (gint)ts->data_start - 8;
	guint32 psize = b && b->page_size ? b->page_size : (guint32)MAX(page_size, 0);
	if (!b || b->latency || l->compress == FTL_DAT_COMPRESS_OTHER || !psize)
		return;
	/* NO FILE DATA: getters of the parsed header */
	g_autoptr(FtlPages) pg =
		ftl_pages_new((guint)commit, l->big_endian, psize, tep_is_old_format(ts->tep));
	int fd = pg ? open(ts->base.path, O_RDONLY | O_CLOEXEC) : -1;
	for (guint i = 0; fd >= 0 && i < b->cpus->len; i++) {
		const FtlDatCpu *cpu = &g_array_index(b->cpus, FtlDatCpu, i);
		if (cpu->cpu >= (guint)ts->n_cpus || ts->drained[cpu->cpu])
			continue;
		if (l->compress == FTL_DAT_COMPRESS_NONE)
			tracedat_walk_cpu(ts, fd, cpu, pg, psize);
		else
			tracedat_walk_cpu_compressed(ts, fd, l, cpu, pg, psize);
	}
	if (fd >= 0)
		close(fd);
}

/* The layout's buffer named name ("" for the top one), or NULL. */
static const FtlDatBuffer *tracedat_layout_buffer(const FtlDatLayout *l, const char *name)
{
	for (guint i = 0; i < l->buffers->len; i++) {
		const FtlDatBuffer *b = g_ptr_array_index(l->buffers, i);
		if (strcmp(b->name, name) == 0)
			return b;
	}
	return NULL;
}

/* Latency-format text in place of CPU data: libtracecmd 1.3 sets up no
 * per-CPU data for it and reads none of it as records. */
static gboolean tracedat_refuse_latency(const char *path, const FtlDatBuffer *b, GError **error)
{
	if (!b || !b->latency)
		return TRUE;
	g_set_error(error, FTL_ERROR, FTL_ERROR_UNSUPPORTED,
		    "'%s': buffer '%s' holds latency-format text, not ring-buffer pages: ftlens "
		    "does not read it from a trace.dat (give it the text of 'trace-cmd report')",
		    path, *b->name ? b->name : "top");
	return FALSE;
}

/* Opens the file's headers (formats and kallsyms kept in lazy, printk
 * formats, cmdlines) with libtracecmd, and when init, its CPU data's
 * layout too: the handle, or NULL with error set. msgs collects the
 * library's messages. */
static struct tracecmd_input *tracedat_handle(const char *path, gboolean init, FtlTepLazy *lazy,
					      GString *msgs, GError **error)
{
	/* No plugins: what ftlens shows must not depend on the plugins of the
	 * machine it runs on. */
	FtlTracecmdResult res;
	struct tracecmd_input *handle = ftl_tracecmd_open_head(path, lazy, &res);
	if (handle)
		ftl_tep_lazy_start(lazy, tracecmd_get_tep(handle));
	if (!handle) {
		ftl_tep_capture_messages(NULL);
		if (res == FTL_TRACECMD_CRASHED)
			g_set_error(error, FTL_ERROR, FTL_ERROR_FORMAT,
				    "'%s': not a valid trace.dat: its headers are damaged "
				    "(libtracecmd crashes or hangs reading them)",
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
	if (!init) {
		ftl_tep_capture_messages(NULL);
		return handle;
	}
	/* Not tracecmd_open(): in libtracecmd 1.3 it closes the handle after a
	 * failed tracecmd_init_data() and crashes doing so (a truncated file). */
	res = ftl_tracecmd_init_data(handle, msgs);
	if (res == FTL_TRACECMD_CRASHED)
		g_string_assign(msgs,
				"its CPU data is damaged (libtracecmd crashes or hangs reading it)");
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

/* The buffer named buffer ("top" or an instance) is in names; otherwise a
 * usage error listing them. */
static gboolean tracedat_check_buffer(const char *path, const char *buffer, GPtrArray *names,
				      GError **error)
{
	if (!buffer || strcmp(buffer, "top") == 0)
		return TRUE;
	for (guint i = 0; i < names->len; i++)
		if (strcmp(g_ptr_array_index(names, i), buffer) == 0)
			return TRUE;
	g_autoptr(GString) list = g_string_new("top");
	for (guint i = 0; i < names->len; i++)
		g_string_append_printf(list, ", %s", (const char *)g_ptr_array_index(names, i));
	g_set_error(error, FTL_ERROR, FTL_ERROR_USAGE,
		    "'%s': no buffer '%s' in this trace.dat (it has: %s)", path, buffer, list->str);
	return FALSE;
}

/* The buffers of the file through libtracecmd's reader: the top one and
 * every instance, or only the one named buffer. */
static gboolean tracedat_add_buffers_tracecmd(FtlTrace *trace, const char *path,
					      const char *buffer, TracedatFile *file,
					      const FtlDatLayout *l, GString *msgs, GError **error)
{
	guint32 page_size = l->page_size;
	struct tracecmd_input *handle = file->handle;
	/* Buffer instances (trace-cmd record -B, extract -B) are more sources,
	 * merged in time like trace-cmd report does. */
	int n = tracecmd_buffer_instances(handle);
	g_autoptr(GPtrArray) names = g_ptr_array_new();
	ftl_trace_add_buffer(trace, "top");
	for (int i = 0; i < n; i++) {
		const char *name = tracecmd_buffer_instance_name(handle, i);
		ftl_trace_add_buffer(trace, name ? name : "?");
		g_ptr_array_add(names, (gpointer)(name ? name : "?"));
	}
	if (!tracedat_check_buffer(path, buffer, names, error))
		return FALSE;
	gint cpus = MAX(tep_get_cpus(tracecmd_get_tep(handle)), 0);
	if (!buffer || strcmp(buffer, "top") == 0) {
		const FtlDatBuffer *b = tracedat_layout_buffer(l, "");
		if (!tracedat_refuse_latency(path, b, error))
			return FALSE;
		TracedatSource *ts =
			tracedat_source_add(trace, path, file, TRUE, NULL, cpus, (guint)cpus);
		ts->cpustats = tracecmd_get_cpustats(handle);
		tracedat_cpustats_keep(ts);
		tracedat_use_tracecmd(ts, handle, FALSE, (int)page_size, b, l);
	}
	for (int i = 0; i < n; i++) {
		const char *name = g_ptr_array_index(names, i);
		if (buffer && strcmp(name, buffer) != 0)
			continue;
		const FtlDatBuffer *b = tracedat_layout_buffer(l, name);
		if (!tracedat_refuse_latency(path, b, error))
			return FALSE;
		g_string_truncate(msgs, 0);
		ftl_tep_capture_messages(msgs);
		struct tracecmd_input *h = ftl_tracecmd_instance(handle, i);
		ftl_tep_capture_messages(NULL);
		if (!h) {
			g_set_error(error, FTL_ERROR, FTL_ERROR_PARSE,
				    "'%s': not a valid trace.dat: buffer instance '%s': %s", path,
				    name,
				    msgs->len ? msgs->str
					      : "its data is damaged (libtracecmd cannot read it)");
			return FALSE;
		}
		TracedatSource *ts =
			tracedat_source_add(trace, path, file, FALSE, name, cpus, (guint)cpus);
		tracedat_use_tracecmd(ts, h, TRUE, (int)page_size, b, l);
	}
	return TRUE;
}

/* How many worker threads read pages: as many as parse text (-j N,
 * $FTLENS_JOBS, else one per online CPU); one means none besides the
 * caller's, no pool made per trace. */
static guint tracedat_threads(const FtlTrace *trace)
{
	return ftl_read_threads(ftl_trace_read_options(trace));
}

/* One source reading buffer b's pages itself. */
static gboolean tracedat_add_streams(FtlTrace *trace, const char *path, const FtlDatLayout *l,
				     const FtlDatBuffer *b, TracedatFile *file, GError **error)
{
	struct tep_handle *tep = tracecmd_get_tep(file->handle);
	guint slots = 0;
	for (guint i = 0; i < b->cpus->len; i++)
		slots = MAX(slots, g_array_index(b->cpus, FtlDatCpu, i).cpu + 1);
	gint header_cpus = l->cpu_count ? (gint)l->cpu_count : (gint)slots;
	gboolean top = !*b->name;
	TracedatSource *ts = tracedat_source_add(trace, path, file, top, top ? NULL : b->name,
						 header_cpus, MAX(slots, (guint)header_cpus));
	if (top && l->cpustats->len)
		ts->cpustats = ts->cpustats_copy = g_strdup(l->cpustats->str);
	tracedat_cpustats_keep(ts);
	FtlTepCommon common;
	ftl_tep_common_layout(ts->dec, &common);
	ts->streams = ftl_dat_streams_new(path, l, b, (guint)tep_get_header_page_size(tep),
					  tep_is_old_format(tep), &common, tracedat_threads(trace),
					  tracedat_bad_page, ts, error);
	if (!ts->streams)
		return FALSE;
	/* a consumer that renders every payload has the page readers'
	 * workers render them, off the thread that merges */
	const FtlReadOptions *ro = ftl_trace_read_options(trace);
	if (ro && (ro->eager & FTL_FIELD_TEXT) && ftl_tep_decoder_render_ahead(ts->dec))
		ftl_dat_streams_set_render(ts->streams, tracedat_render, ts->dec);
	guint n = ftl_dat_streams_count(ts->streams);
	ts->heap = g_new(guint, MAX(n, 1));
	ts->runs = g_new0(TracedatRun, MAX(n, 1));
	return TRUE;
}

/* The buffers of the file, read by ftlens: the top one and every instance,
 * or only the one named buffer. */
static gboolean tracedat_add_buffers_pages(FtlTrace *trace, const char *path, const char *buffer,
					   FtlDatLayout *l, TracedatFile *file, GError **error)
{
	g_autoptr(GPtrArray) names = g_ptr_array_new();
	ftl_trace_add_buffer(trace, "top");
	for (guint i = 0; i < l->buffers->len; i++) {
		const FtlDatBuffer *b = g_ptr_array_index(l->buffers, i);
		if (*b->name) {
			ftl_trace_add_buffer(trace, b->name);
			g_ptr_array_add(names, b->name);
		}
	}
	if (!tracedat_check_buffer(path, buffer, names, error))
		return FALSE;
	for (guint i = 0; i < l->buffers->len; i++) {
		const FtlDatBuffer *b = g_ptr_array_index(l->buffers, i);
		const char *name = *b->name ? b->name : "top";
		if (buffer && strcmp(name, buffer) != 0)
			continue;
		if (!tracedat_add_streams(trace, path, l, b, file, error))
			return FALSE;
	}
	return TRUE;
}

/* ftlens reads the pages itself unless the file asks for what only
 * libtracecmd's reader does: timestamps moved or scaled by options, latency
 * text, a compression ftlens does not know; or the environment asks for
 * libtracecmd's reader (FTLENS_TRACEDAT_READER=libtracecmd). */
static gboolean tracedat_pages_readable(const FtlDatLayout *l)
{
	/* The old reader on request: tests compare the two readers' output. */
	if (g_strcmp0(g_getenv("FTLENS_TRACEDAT_READER"), "libtracecmd") == 0)
		return FALSE;
	if ((l->version != 6 && l->version != 7) || l->ts_option ||
	    l->compress == FTL_DAT_COMPRESS_OTHER)
		return FALSE;
	for (guint i = 0; i < l->buffers->len; i++)
		if (((FtlDatBuffer *)g_ptr_array_index(l->buffers, i))->latency)
			return FALSE;
	return TRUE;
}

static void tracedat_set_clock(FtlTrace *trace, const FtlDatLayout *l)
{
	g_autofree char *clock = l->trace_clock ? ftl_trace_clock_selected(l->trace_clock) : NULL;
	if (!clock && l->buffers->len) {
		const FtlDatBuffer *b = g_ptr_array_index(l->buffers, 0);
		clock = g_strdup(b->clock);
	}
	if (clock && *clock)
		ftl_trace_set_clock(trace, clock);
}

gboolean ftl_tracedat_open(FtlTrace *trace, const char *path, const char *buffer, GError **error)
{
	/* The skeleton first: a damaged size must be refused before
	 * libtracecmd allocates by it. */
	g_autoptr(FtlDatLayout) layout = ftl_dat_layout_read(path, error);
	if (!layout)
		return FALSE;
	gboolean pages = tracedat_pages_readable(layout);
	g_autoptr(GString) msgs = g_string_new(NULL);
	ftl_tep_capture_messages(msgs);
	/* Warnings carry the reason a file is rejected ("File possibly
	 * truncated. Need at least N, ..."); they are captured, not printed. */
	tep_set_loglevel(TEP_LOG_WARNING);
	tracecmd_set_loglevel(TEP_LOG_WARNING);
	g_autoptr(FtlTepLazy) lazy = ftl_tep_lazy_new(path);
	struct tracecmd_input *handle = tracedat_handle(path, !pages, lazy, msgs, error);
	if (!handle)
		return FALSE;
	TracedatFile *file = g_new0(TracedatFile, 1);
	file->refs = 1;
	file->handle = handle;
	file->lazy = g_steal_pointer(&lazy);
	gboolean ok;
	g_debug("'%s': trace.dat version %u, pages read by %s", path, layout->version,
		pages ? "ftlens" : "libtracecmd");
	ftl_trace_set_kernel_uname(trace, layout->uname);
	if (pages) {
		tracedat_set_clock(trace, layout);
		ok = tracedat_add_buffers_pages(trace, path, buffer, layout, file, error);
	} else {
		const char *clock = tracecmd_get_trace_clock(handle);
		if (clock && *clock)
			ftl_trace_set_clock(trace, clock);
		ok = tracedat_add_buffers_tracecmd(trace, path, buffer, file, layout, msgs, error);
	}
	tracedat_file_unref(file);
	return ok;
}
