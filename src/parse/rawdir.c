/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Raw ring-buffer page dumps (per_cpu/cpuN/trace_pipe_raw and the like) read
 * with libtraceevent's kbuffer, one source per CPU; records become events
 * through the decoder shared with trace.dat (tep.c).
 *
 * Each libtraceevent call here says in a comment which of three it is
 * (as parse/tracedat.c does for libtracecmd): GUARDED, tried first in a
 * trial child (parse/trial.c), a crash there is a note here; VALIDATED,
 * made only after ftlens checked what it touches; NO FILE DATA, it reads
 * nothing that came from the input. A new call must be one of them. */
#include "config.h"

#include "parse/rawdir.h"

#include <stdarg.h>
#include <string.h>
#include <sys/vfs.h>

#include <event-parse.h>

#include "parse/pages.h"
#include "parse/tep.h"
#include "parse/tep-check.h"
#include "parse/tep-printk.h"
#include "parse/trial.h"
#include "util/error.h"
#include "util/input.h"
#include "util/tracefs-text.h"

/* kbuffer's mask for the data size in a page's commit word; the bits above
 * carry the missed-events flags. */
#define RAW_COMMIT_MASK ((1u << 27) - 1)
/* statfs f_type of tracefs and debugfs (linux/magic.h) */
#define RAW_TRACEFS_MAGIC 0x74726163ul
#define RAW_DEBUGFS_MAGIC 0x64626720ul

typedef struct {
	FtlHeaderPage hp;
	gboolean big_endian;
} RawGeometry;

typedef struct {
	FtlSource base;
	struct tep_handle *tep; /* a reference */
	FtlTepDecoder *dec;
	RawGeometry geo;
	FtlInput *in;
	gint cpu;
	gsize next_page; /* file offset of the page to load next */
	gsize page_off;	 /* file offset of the loaded page */
	guint64 page_no;
	gboolean loaded;
	FtlPages *pages;
	guchar *page; /* a copy of the loaded page, FTL_PAGES_SLACK bytes longer */
	struct tep_record rec;
	gboolean lost_pending;
	guint64 pages_lost; /* what the pages' missed-events counts told */
	FtlEvent ev;
	guint64 seq;
	gint64 last_ts;
	FtlDiagLoc at;	    /* this CPU's file, for diagnostics */
	guint64 stats_lost; /* overruns per_cpu/cpuN/stats reports */
	const char *n_lost;
} RawCpu;

/* ---- header_page ----------------------------------------------------- */

static gboolean raw_parse_header_page(const char *path, const char *text, RawGeometry *geo,
				      GError **error)
{
	memset(geo, 0, sizeof *geo);
	if (!ftl_header_page_parse(text, &geo->hp)) {
		g_set_error(error, FTL_ERROR, FTL_ERROR_FORMAT,
			    "'%s': not a ring-buffer header_page (needs the timestamp, commit and "
			    "data fields with sane offsets and sizes)",
			    path);
		return FALSE;
	}
	return TRUE;
}

static gint raw_page_size(const RawGeometry *geo)
{
	return (gint)ftl_header_page_size(&geo->hp);
}

static guint64 raw_read_commit(const RawGeometry *geo, const guchar *page, gboolean big)
{
	guint64 v = 0;
	for (gint i = 0; i < geo->hp.commit_size; i++) {
		gint k = big ? i : geo->hp.commit_size - 1 - i;
		v = (v << 8) | page[geo->hp.commit_off + k];
	}
	return v;
}

/* The header says nothing about byte order: the order in which some page's
 * commit is a plausible, nonzero size wins (the host's when both do). In the
 * wrong order a small 8-byte commit reads as 0, a 4-byte one as too large. */
static gboolean raw_guess_endian(RawGeometry *geo, const FtlInput *const *ins, guint n)
{
	gint psize = raw_page_size(geo);
	const gboolean host_big = G_BYTE_ORDER == G_BIG_ENDIAN;
	for (gint pass = 0; pass < 2; pass++) {
		gboolean big = pass == 0 ? host_big : !host_big;
		for (guint i = 0; i < n; i++) {
			const FtlInput *in = ins[i];
			for (gsize off = 0;
			     off + (gsize)psize <= in->size && off < (gsize)psize * 64;
			     off += (gsize)psize) {
				guint64 c =
					raw_read_commit(geo, (const guchar *)in->data + off, big) &
					RAW_COMMIT_MASK;
				if (c > 0 && c <= (guint64)geo->hp.data_size) {
					geo->big_endian = big;
					return TRUE;
				}
			}
		}
	}
	geo->big_endian = host_big;
	return FALSE;
}

/* ---- the per-CPU source ---------------------------------------------- */

static void raw_bad_page(RawCpu *rc, const char *fmt, ...) G_GNUC_PRINTF(2, 3);
static void raw_bad_page(RawCpu *rc, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	g_autofree char *why = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	g_autofree char *text =
		g_strdup_printf("CPU %d, page %" G_GUINT64_FORMAT " (file offset %zu): %s", rc->cpu,
				rc->page_no, rc->page_off, why);
	ftl_diags_add(ftl_trace_diags(rc->base.trace), FTL_DIAG_BAD_PAGE, &rc->at, text, -1, 0);
}

/* Loads the next page that holds data. FALSE at the end of the file. */
static gboolean raw_load_page(RawCpu *rc)
{
	gsize psize = (gsize)raw_page_size(&rc->geo);
	while (rc->next_page < rc->in->size) {
		rc->page_off = rc->next_page;
		rc->page_no = rc->page_off / psize;
		rc->next_page += psize;
		if (rc->page_off + psize > rc->in->size) {
			raw_bad_page(rc, "only %zu of %zu bytes (truncated file)",
				     rc->in->size - rc->page_off, psize);
			return FALSE;
		}
		memcpy(rc->page, rc->in->data + rc->page_off, psize);
		char why[160];
		FtlPageStatus st = ftl_pages_load(rc->pages, rc->page, why, sizeof why);
		if (st == FTL_PAGE_EMPTY)
			continue; /* an empty page: the reader's padding */
		if (st == FTL_PAGE_BAD) {
			raw_bad_page(rc, "%s", why);
			continue;
		}
		rc->loaded = TRUE;
		ftl_input_release(rc->in, rc->page_off);
		gint64 missed = ftl_pages_missed(rc->pages);
		if (missed != 0) {
			FtlEvent *ev = &rc->ev;
			memset(ev, 0, sizeof *ev);
			ev->src = &rc->base;
			ev->ts = (gint64)ftl_pages_timestamp(rc->pages);
			ev->cpu = rc->cpu;
			ev->pid = ev->tgid = -1;
			ev->kind = FTL_EVENT_LOST;
			ev->name = rc->n_lost;
			ev->u.lost.count = missed > 0 ? (guint64)missed : 0;
			rc->lost_pending = TRUE;
		}
		return TRUE;
	}
	return FALSE;
}

static void raw_account(RawCpu *rc)
{
	FtlEvent *ev = &rc->ev;
	char where[128];
	gint n = 0;
	ev->seq = ++rc->seq;
	if (ev->kind == FTL_EVENT_LOST) {
		n = g_snprintf(where, sizeof where,
			       "CPU:%d [EVENTS DROPPED] at page %" G_GUINT64_FORMAT
			       " (file offset %zu)",
			       rc->cpu, rc->page_no, rc->page_off);
		rc->pages_lost = ev->u.lost.count > G_MAXUINT64 - rc->pages_lost
					 ? G_MAXUINT64
					 : rc->pages_lost + ev->u.lost.count;
	}
	ftl_source_account(&rc->base, ev, &rc->last_ts, (FtlSlice){ where, (guint32)n }, TRUE);
}

/* The saved stats count every event the ring buffer overwrote or
 * dropped; a page tells of the ones missed before it only when it had room
 * for the count. What the pages did not tell is added at the end, so that
 * the losses are the stats' whenever they were saved. */
static void raw_stats_lost(RawCpu *rc)
{
	if (rc->stats_lost <= rc->pages_lost)
		return;
	guint64 more = rc->stats_lost - rc->pages_lost;
	g_autofree char *text =
		g_strdup_printf("CPU %d: per_cpu stats report %" G_GUINT64_FORMAT
				" overrun or dropped events, %" G_GUINT64_FORMAT " more than the "
				"pages' missed-events marks tell",
				rc->cpu, rc->stats_lost, more);
	ftl_diags_add(ftl_trace_diags(rc->base.trace), FTL_DIAG_LOST_EVENTS, &rc->at, text, -1,
		      more);
	rc->stats_lost = 0;
}

static FtlStatus raw_next(FtlSource *src, const FtlEvent **out, GError **error)
{
	RawCpu *rc = (RawCpu *)src;
	(void)error;
	for (;;) {
		if (!rc->loaded) {
			if (!raw_load_page(rc)) {
				raw_stats_lost(rc);
				return FTL_STATUS_EOF;
			}
			if (rc->lost_pending) {
				rc->lost_pending = FALSE;
				raw_account(rc);
				*out = &rc->ev;
				return FTL_STATUS_OK;
			}
		}
		FtlPageRecord pr;
		char why[160];
		if (!ftl_pages_next(rc->pages, &pr, why, sizeof why)) {
			if (*why)
				raw_bad_page(rc, "%s", why);
			rc->loaded = FALSE;
			continue;
		}
		memset(&rc->rec, 0, sizeof rc->rec);
		rc->rec.ts = pr.ts;
		rc->rec.cpu = rc->cpu;
		rc->rec.size = (int)pr.size;
		rc->rec.data = (void *)pr.data;
		rc->rec.offset = (unsigned long long)(rc->page_off + pr.offset);
		gint id;
		gboolean known = ftl_tep_decode(rc->dec, &rc->rec, &rc->ev, &id);
		rc->ev.src = src;
		if (!known) {
			char where[224];
			const char *left_out = ftl_tep_decoder_rejected(rc->dec, id);
			gint n = g_snprintf(where, sizeof where,
					    "event id %d%s%s%s at CPU %d, page %" G_GUINT64_FORMAT
					    ", file offset %llu",
					    id, left_out ? " (" : "", left_out ? left_out : "",
					    left_out ? ", its format left out)" : "", rc->cpu,
					    rc->page_no, rc->rec.offset);
			n = MIN(n, (gint)sizeof where - 1);
			FtlDiagKind kind = left_out ? FTL_DIAG_BAD_FORMAT : FTL_DIAG_UNKNOWN_EVENT;
			ftl_diags_add(ftl_trace_diags(rc->base.trace), kind, &rc->at, where,
				      (gsize)n, 0);
		} else if (ftl_tep_short(rc->dec)) {
			char where[160];
			gint n = g_snprintf(where, sizeof where,
					    "CPU %d, page %" G_GUINT64_FORMAT
					    ", file offset %llu: a %s record of %d bytes, its "
					    "format's fields need %d",
					    rc->cpu, rc->page_no, rc->rec.offset, rc->ev.name,
					    rc->rec.size, ftl_tep_short(rc->dec));
			ftl_diags_add(ftl_trace_diags(rc->base.trace), FTL_DIAG_BAD_PAGE, &rc->at,
				      where, (gsize)n, 0);
		}
		raw_account(rc);
		*out = &rc->ev;
		return FTL_STATUS_OK;
	}
}

static void raw_payload(FtlSource *src, const FtlEvent *ev, GString *out)
{
	RawCpu *rc = (RawCpu *)src;
	if (ev != &rc->ev || ev->kind == FTL_EVENT_LOST || !rc->rec.data)
		return;
	ftl_tep_payload(rc->dec, &rc->rec, out);
}

static gboolean raw_field(FtlSource *src, const FtlEvent *ev, const char *key, FtlSlice *value)
{
	RawCpu *rc = (RawCpu *)src;
	if (ev != &rc->ev || ev->kind == FTL_EVENT_LOST || !rc->rec.data)
		return FALSE;
	return ftl_tep_field(rc->dec, &rc->rec, key, value);
}

static void raw_free(FtlSource *src)
{
	RawCpu *rc = (RawCpu *)src;
	ftl_tep_decoder_free(rc->dec);
	ftl_pages_free(rc->pages);
	g_free(rc->page);
	ftl_input_free(rc->in);
	/* NO FILE DATA */
	tep_free(rc->tep); /* drops our reference */
	ftl_source_clear(src);
	g_free(rc);
}

static const char *raw_dialect(FtlSource *src)
{
	(void)src;
	return "raw pages";
}

static const FtlSourceOps raw_ops = {
	.name = "rawdir",
	.next = raw_next,
	.free = raw_free,
	.dialect = raw_dialect,
	.payload = raw_payload,
	.field = raw_field,
};

/* ---- the parts of a capture ------------------------------------------ */

/* One CPU's pages. */
typedef struct {
	gint cpu;
	FtlInput *in;
	char *stats; /* the text of per_cpu/cpuN/stats, or NULL */
} RawPages;

static void raw_pages_free(gpointer p)
{
	RawPages *f = p;
	ftl_input_free(f->in);
	g_free(f->stats);
	g_free(f);
}

static gint raw_pages_cmp(gconstpointer a, gconstpointer b)
{
	const RawPages *x = *(RawPages *const *)a, *y = *(RawPages *const *)b;
	if (x->cpu != y->cpu)
		return x->cpu < y->cpu ? -1 : 1;
	return strcmp(x->in->path, y->in->path);
}

/* One SYS/EVENT/format file. */
typedef struct {
	char *path;
	char *sys;
	char *text;
	gsize len;
	gboolean crashes; /* libtraceevent crashes on it */
	gboolean emptied; /* its print fmt replaced by ftl_tep_format_safe() */
	gboolean refused; /* not to be parsed (ftl_tep_format_safe()) */
	gboolean failed;  /* libtraceevent did not parse it */
} RawFormat;

static void raw_format_free(gpointer p)
{
	RawFormat *f = p;
	g_free(f->path);
	g_free(f->sys);
	g_free(f->text);
	g_free(f);
}

static const char *const raw_extra_names[FTL_RAW_N_EXTRA] = {
	"kallsyms", "printk_formats", "saved_cmdlines", "trace_clock", "uname", "build_id",
};

struct _FtlRawParts {
	char *label;	    /* the directory or the archive */
	char *layout;	    /* how the page files were found */
	char *formats_root; /* where the formats were looked for */
	char *hp_path;
	char *hp;
	gsize hp_len;
	GPtrArray *pages;   /* RawPages */
	GPtrArray *formats; /* RawFormat */
	char *extra[FTL_RAW_N_EXTRA];
};

FtlRawParts *ftl_raw_parts_new(const char *label, const char *layout, const char *formats_root)
{
	FtlRawParts *p = g_new0(FtlRawParts, 1);
	p->label = g_strdup(label);
	p->layout = g_strdup(layout);
	p->formats_root = g_strdup(formats_root);
	p->pages = g_ptr_array_new_with_free_func(raw_pages_free);
	p->formats = g_ptr_array_new_with_free_func(raw_format_free);
	return p;
}

void ftl_raw_parts_free(FtlRawParts *p)
{
	if (!p)
		return;
	g_free(p->label);
	g_free(p->layout);
	g_free(p->formats_root);
	g_free(p->hp_path);
	g_free(p->hp);
	g_ptr_array_unref(p->pages);
	g_ptr_array_unref(p->formats);
	for (guint i = 0; i < FTL_RAW_N_EXTRA; i++)
		g_free(p->extra[i]);
	g_free(p);
}

const char *ftl_raw_extra_name(FtlRawExtra which)
{
	return raw_extra_names[which];
}

void ftl_raw_parts_set_header_page(FtlRawParts *p, const char *path, char *text, gsize len)
{
	g_free(p->hp_path);
	g_free(p->hp);
	p->hp_path = g_strdup(path);
	p->hp = text;
	p->hp_len = len;
}

gboolean ftl_raw_parts_has_header_page(const FtlRawParts *p)
{
	return p->hp != NULL;
}

guint ftl_raw_parts_n_cpus(const FtlRawParts *p)
{
	return p->pages->len;
}

void ftl_raw_parts_add_pages(FtlRawParts *p, gint cpu, FtlInput *in, char *stats)
{
	RawPages *f = g_new0(RawPages, 1);
	f->cpu = cpu;
	f->in = in;
	f->stats = stats;
	g_ptr_array_add(p->pages, f);
}

void ftl_raw_parts_add_format(FtlRawParts *p, const char *path, const char *sys, char *text,
			      gsize len)
{
	RawFormat *f = g_new0(RawFormat, 1);
	f->path = g_strdup(path);
	f->sys = g_strdup(sys);
	f->text = text;
	f->len = len;
	g_ptr_array_add(p->formats, f);
}

void ftl_raw_parts_set_extra(FtlRawParts *p, FtlRawExtra which, char *text)
{
	g_free(p->extra[which]);
	p->extra[which] = text;
}

/* ---- finding the pieces in a directory ------------------------------- */

typedef struct {
	gint cpu;
	char *path;
	char *stats; /* per_cpu/cpuN/stats, or NULL */
} RawPageFile;

static void raw_page_file_free(gpointer p)
{
	RawPageFile *f = p;
	g_free(f->path);
	g_free(f->stats);
	g_free(f);
}

gint ftl_raw_cpu_number(const char *name, const char *suffix)
{
	if (!g_str_has_prefix(name, "cpu"))
		return -1;
	const char *d = name + 3;
	gsize n = strspn(d, "0123456789");
	if (n == 0 || n > 6 || strcmp(d + n, suffix) != 0)
		return -1;
	return (gint)g_ascii_strtoll(d, NULL, 10);
}

static void raw_add_page_file(GPtrArray *files, gint cpu, char *path, char *stats)
{
	RawPageFile *f = g_new0(RawPageFile, 1);
	f->cpu = cpu;
	f->path = path;
	f->stats = stats;
	g_ptr_array_add(files, f);
}

/* Page files by CPU, in the first layout that has any. */
static GPtrArray *raw_find_pages(const char *dir, const char **layout)
{
	GPtrArray *files = g_ptr_array_new_with_free_func(raw_page_file_free);
	const char *name;
	g_autofree char *pc = g_build_filename(dir, "per_cpu", NULL);
	g_autoptr(GDir) d = g_dir_open(pc, 0, NULL);
	while (d && (name = g_dir_read_name(d))) {
		gint cpu = ftl_raw_cpu_number(name, "");
		char *p = g_build_filename(pc, name, "trace_pipe_raw", NULL);
		if (cpu >= 0 && g_file_test(p, G_FILE_TEST_IS_REGULAR))
			raw_add_page_file(files, cpu, p, g_build_filename(pc, name, "stats", NULL));
		else
			g_free(p);
	}
	*layout = "per_cpu/cpuN/trace_pipe_raw";
	for (gint pass = 0; pass < 2 && files->len == 0; pass++) {
		g_autofree char *base =
			pass == 0 ? g_build_filename(dir, "traces", NULL) : g_strdup(dir);
		g_autoptr(GDir) dd = g_dir_open(base, 0, NULL);
		while (dd && (name = g_dir_read_name(dd))) {
			gint cpu = ftl_raw_cpu_number(name, "");
			if (cpu < 0)
				cpu = ftl_raw_cpu_number(name, ".raw");
			char *p = g_build_filename(base, name, NULL);
			if (cpu >= 0 && g_file_test(p, G_FILE_TEST_IS_REGULAR))
				raw_add_page_file(files, cpu, p, NULL);
			else
				g_free(p);
		}
		*layout = pass == 0 ? "traces/cpuN" : "cpuN page files";
	}
	if (files->len == 0) {
		/* a lone page dump ("one_page.bin"): CPUs unknown, numbered in name order */
		g_autoptr(GDir) dd = g_dir_open(dir, 0, NULL);
		g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func(g_free);
		while (dd && (name = g_dir_read_name(dd)))
			if (g_str_has_suffix(name, ".bin") || g_str_has_suffix(name, ".raw"))
				g_ptr_array_add(names, g_strdup(name));
		g_ptr_array_sort(names, (GCompareFunc)g_strcmp0);
		for (guint i = 0; i < names->len; i++) {
			char *p = g_build_filename(dir, g_ptr_array_index(names, i), NULL);
			if (g_file_test(p, G_FILE_TEST_IS_REGULAR))
				raw_add_page_file(files, (gint)files->len, p, NULL);
			else
				g_free(p);
		}
		*layout = "*.bin / *.raw page files (CPU numbers by file name order)";
	}
	return files;
}

/* The directory holding header_page and SYS/EVENT/format. */
static char *raw_find_formats(const char *dir)
{
	const char *subs[] = { "events", "formats", "" };
	for (guint i = 0; i < G_N_ELEMENTS(subs); i++) {
		g_autofree char *root = g_build_filename(dir, subs[i], NULL);
		g_autofree char *hp = g_build_filename(root, "header_page", NULL);
		if (g_file_test(hp, G_FILE_TEST_IS_REGULAR))
			return g_steal_pointer(&root);
	}
	return NULL;
}

static void raw_read_formats(FtlRawParts *parts, const char *root)
{
	g_autoptr(GDir) d = g_dir_open(root, 0, NULL);
	const char *sys;
	while (d && (sys = g_dir_read_name(d))) {
		g_autofree char *sdir = g_build_filename(root, sys, NULL);
		if (!g_file_test(sdir, G_FILE_TEST_IS_DIR))
			continue;
		g_autoptr(GDir) sd = g_dir_open(sdir, 0, NULL);
		const char *evn;
		while (sd && (evn = g_dir_read_name(sd))) {
			g_autofree char *path = g_build_filename(sdir, evn, "format", NULL);
			char *text;
			gsize len;
			if (g_file_get_contents(path, &text, &len, NULL))
				ftl_raw_parts_add_format(parts, path, sys, text, len);
		}
	}
}

/* kallsyms, printk_formats, saved_cmdlines: found in dir or in dir/proc. */
static char *raw_read_optional(const char *dir, const char *name)
{
	const char *subs[] = { "", "proc" };
	for (guint i = 0; i < G_N_ELEMENTS(subs); i++) {
		g_autofree char *p = g_build_filename(dir, subs[i], name, NULL);
		char *buf = NULL;
		if (g_file_get_contents(p, &buf, NULL, NULL))
			return buf;
	}
	return NULL;
}

/* ---- reading the parts ----------------------------------------------- */

/* libtraceevent 1.7's tep_parse_format() dereferences NULL on some damaged
 * print fmts (a __print_flags() whose argument does not parse, found by
 * tests/fuzz/fuzz-rawdir). Each format is parsed in the process's format
 * child first (parse/tep.h: one child for the process, the verdicts kept
 * by the format's text); one it crashes on is marked. */
static void raw_mark_crashing_formats(struct tep_handle *tep, GPtrArray *formats)
{
	/* the known crashes made safe first, the trial for the unknown */
	for (guint i = 0; i < formats->len; i++) {
		RawFormat *f = g_ptr_array_index(formats, i);
		gsize len = 0;
		char *safe = NULL;
		FtlTepFormatVerdict v = ftl_tep_format_safe(f->text, f->len, &safe, &len);
		if (v == FTL_TEP_FORMAT_REFUSED)
			f->refused = TRUE;
		if (safe) {
			g_free(f->text);
			f->text = safe;
			f->len = len;
			f->emptied = TRUE;
		}
	}
	for (guint i = 0; i < formats->len; i++) {
		RawFormat *f = g_ptr_array_index(formats, i);
		if (!f->refused &&
		    ftl_tep_format_try(tep, f->sys, f->text, f->len) == FTL_TRIAL_CRASHED)
			f->crashes = TRUE;
	}
}

static gint raw_parse_formats(FtlTrace *trace, struct tep_handle *tep, GPtrArray *formats)
{
	raw_mark_crashing_formats(tep, formats);
	gint n = 0;
	for (guint i = 0; i < formats->len; i++) {
		RawFormat *f = g_ptr_array_index(formats, i);
		if (f->emptied)
			ftl_trace_add_note(trace,
					   "'%s': its print fmt is damaged in a way libtraceevent "
					   "1.7 crashes on; fields are read, payload text is not "
					   "shown",
					   f->path);
		if (f->refused) {
			ftl_trace_add_note(trace,
					   "'%s': its declarations hold bytes libtraceevent 1.7 "
					   "crashes on; its events show as unknown_event_ID",
					   f->path);
			continue;
		}
		if (f->crashes) {
			ftl_trace_add_note(trace,
					   "'%s': libtraceevent crashes on this format; its "
					   "events show as unknown_event_ID",
					   f->path);
			continue;
		}
		struct tep_event *event = NULL;
		/* VALIDATED (ftl_tep_format_checked: the known crash) and GUARDED
		 * (parsed in the trial child first; one it crashes on is skipped
		 * above) */
		ftl_tep_parse_lock();
		enum tep_errno e = tep_parse_format(tep, &event, f->text, f->len, f->sys);
		ftl_tep_parse_unlock();
		if (e == 0 && event && (event->flags & TEP_EVENT_FL_FAILED)) {
			/* the fields are usable; only the text rendering is not */
			ftl_trace_add_note(trace,
					   "'%s': its print fmt does not parse; fields are "
					   "read, payload text is not shown",
					   f->path);
		}
		if (e != 0) {
			char why[128];
			/* NO FILE DATA: an error code */
			tep_strerror(tep, e, why, sizeof why);
			ftl_trace_add_note(trace,
					   "'%s': format does not parse (%s); its events "
					   "show as unknown_event_ID",
					   f->path, why);
			f->failed = TRUE;
			continue;
		}
		n++;
	}
	return n;
}

/* A CPU's saved stats text into the trace; the events it says were lost
 * (0 without it). */
static guint64 raw_stats_text_lost(FtlTrace *trace, gint cpu, const char *text)
{
	if (!text)
		return 0;
	FtlCpuStats st;
	ftl_cpustats_parse(text, &st);
	ftl_trace_set_cpustats(trace, cpu, &st);
	return ftl_cpustats_lost(&st);
}

/* The build id a capture saved beside its uname: hex digits on the first
 * line, as `readelf -n` prints /sys/kernel/notes' NT_GNU_BUILD_ID. Anything
 * else is noted and left out: a build id is only ever compared. */
static void raw_read_build_id(FtlTrace *trace, const char *label, const char *text)
{
	if (!text)
		return;
	g_autofree char *id = g_ascii_strdown(text, strcspn(text, "\n"));
	g_strstrip(id);
	gsize n = strlen(id);
	gboolean hex = n >= 2 && n <= 128 && n % 2 == 0;
	for (gsize i = 0; hex && i < n; i++)
		hex = g_ascii_isxdigit(id[i]);
	if (hex)
		ftl_trace_set_build_id(trace, id);
	else
		ftl_trace_add_note(trace, "'%s/build_id' is not a build id in hex; left out", label);
}

gboolean ftl_rawdir_is_live_tracefs(const char *path)
{
	struct statfs st;
	return statfs(path, &st) == 0 && ((unsigned long)st.f_type == RAW_TRACEFS_MAGIC ||
					  (unsigned long)st.f_type == RAW_DEBUGFS_MAGIC);
}

/* A tep handle for pages of geometry geo: the header page and every event
 * format of parts parsed into it, *n_formats of them. NULL with error set
 * when the header page is refused or no format parses. */
static struct tep_handle *raw_tep_new(FtlTrace *trace, FtlRawParts *parts, const RawGeometry *geo,
				      gint max_cpu, gint *n_formats, GError **error)
{
	/* NO FILE DATA */
	struct tep_handle *tep = tep_alloc();
	if (!tep) {
		g_set_error(error, FTL_ERROR, FTL_ERROR_IO, "'%s': out of memory", parts->label);
		return NULL;
	}
	g_autoptr(GString) msgs = g_string_new(NULL);
	ftl_tep_capture_messages(msgs);
	/* VALIDATED: the geometry raw_parse_header_page() checked (commit size 4 or 8, page
	 * size bounded) */
	tep_set_long_size(tep, geo->hp.commit_size);
	tep_set_page_size(tep, raw_page_size(geo));
	tep_set_file_bigendian(tep, geo->big_endian ? TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
	tep_set_local_bigendian(tep,
				G_BYTE_ORDER == G_BIG_ENDIAN ? TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
	tep_set_cpus(tep, max_cpu);
	/* VALIDATED: raw_parse_header_page() parsed and checked the same text first (every
	 * field's offset and size) */
	if (tep_parse_header_page(tep, parts->hp, parts->hp_len, geo->hp.commit_size) < 0) {
		ftl_tep_capture_messages(NULL);
		tep_free(tep);
		g_set_error(error, FTL_ERROR, FTL_ERROR_FORMAT,
			    "'%s': libtraceevent refuses it%s%s", parts->hp_path,
			    msgs->len ? ": " : "", msgs->str);
		return NULL;
	}
	*n_formats = raw_parse_formats(trace, tep, parts->formats);
	ftl_tep_capture_messages(NULL);
	if (msgs->len)
		g_debug("'%s': libtraceevent: %s", parts->label, msgs->str);
	if (*n_formats == 0) {
		tep_free(tep);
		g_set_error(error, FTL_ERROR, FTL_ERROR_FORMAT,
			    "'%s': no event format parses below '%s' (SYSTEM/EVENT/format files)",
			    parts->label, parts->formats_root);
		return NULL;
	}
	return tep;
}

/* What else the parts may hold for tep: kallsyms, printk formats, saved
 * cmdlines; and the clock and the kernel. Notes say what is missing. */
static void raw_tep_extras(FtlTrace *trace, struct tep_handle *tep, const FtlRawParts *parts,
			   const RawGeometry *geo)
{
	const char *kallsyms = parts->extra[FTL_RAW_KALLSYMS];
	/* VALIDATED: a NUL-terminated text, which the library splits into lines
	 * and scans, keeping what parses (any text is its input; fuzz-rawdir
	 * feeds it) */
	if (kallsyms && tep_parse_kallsyms(tep, kallsyms) < 0)
		ftl_trace_add_note(trace, "'%s/kallsyms' does not parse; addresses stay numbers",
				   parts->label);
	const char *printk = parts->extra[FTL_RAW_PRINTK_FORMATS];
	if (printk)
		/* VALIDATED: tep-check.c's definition passes on only the lines
		 * libtraceevent 1.7 reads within */
		tep_parse_printk_formats(tep, printk);
	const char *cmdlines = parts->extra[FTL_RAW_SAVED_CMDLINES];
	if (cmdlines)
		/* VALIDATED: a NUL-terminated text, which the library splits into lines
		 * and scans, keeping what parses (any text is its input; fuzz-rawdir
		 * feeds it) */
		tep_parse_saved_cmdlines(tep, cmdlines);
	g_autofree char *clock = ftl_trace_clock_selected(parts->extra[FTL_RAW_TRACE_CLOCK]);
	if (clock)
		ftl_trace_set_clock(trace, clock);
	ftl_trace_set_kernel_uname(trace, parts->extra[FTL_RAW_UNAME]);
	raw_read_build_id(trace, parts->label, parts->extra[FTL_RAW_BUILD_ID]);
	if (!kallsyms)
		ftl_trace_add_note(trace,
				   "'%s': no kallsyms beside the raw pages: function addresses are "
				   "shown as numbers",
				   parts->label);
	if (geo->big_endian != (G_BYTE_ORDER == G_BIG_ENDIAN))
		ftl_trace_add_note(trace, "'%s': pages read as %s-endian", parts->label,
				   geo->big_endian ? "big" : "little");
}

/* One source per page file of parts (their inputs taken), reading with tep
 * (each source holds a reference of its own). */
static gboolean raw_add_sources(FtlTrace *trace, FtlRawParts *parts, struct tep_handle *tep,
				const RawGeometry *geo, gint max_cpu, GError **error)
{
	gsize psize = (gsize)raw_page_size(geo);
	RawCpu *first = NULL;
	/* the printk strings raw_tep_extras() gave tep, for the compiled formats */
	g_autoptr(FtlPrintkMap) printk = NULL;
	const char *printk_text = parts->extra[FTL_RAW_PRINTK_FORMATS];
	if (printk_text) {
		g_autofree char *safe = ftl_tep_printk_safe(printk_text);
		printk = ftl_printk_map_new();
		ftl_printk_map_add_text(printk, safe);
	}
	for (guint i = 0; i < parts->pages->len; i++) {
		RawPages *f = g_ptr_array_index(parts->pages, i);
		RawCpu *rc = g_new0(RawCpu, 1);
		ftl_source_init(&rc->base, &raw_ops, f->in->path);
		rc->base.cpu_hint = f->cpu;
		rc->in = g_steal_pointer(&f->in);
		rc->cpu = f->cpu;
		rc->at = (FtlDiagLoc){ rc->base.path, 0, rc->cpu };
		rc->geo = *geo;
		/* NO FILE DATA */
		tep_ref(tep);
		rc->tep = tep;
		rc->dec = ftl_tep_decoder_new(tep, trace, rc->base.path);
		ftl_tep_decoder_set_printk(rc->dec, printk);
		if (first)
			ftl_tep_decoder_share(rc->dec, first->dec);
		else
			first = rc;
		for (guint j = 0; j < parts->formats->len; j++) {
			const RawFormat *fmt = g_ptr_array_index(parts->formats, j);
			if (!fmt->refused && !fmt->crashes && !fmt->failed)
				continue;
			gint id = ftl_tep_format_id(fmt->text);
			/* NO FILE DATA: a lookup by id (another file of the id may have parsed) */
			if (id >= 0 && !tep_find_event(tep, id))
				ftl_tep_decoder_reject(rc->dec, id, fmt->sys, fmt->text);
		}
		rc->pages = ftl_pages_new((guint)geo->hp.commit_size, geo->big_endian,
					  /* NO FILE DATA: a getter */
					  (guint32)psize, tep_is_old_format(tep));
		rc->page = g_malloc0(psize + FTL_PAGES_SLACK);
		rc->last_ts = FTL_TS_NONE;
		rc->stats_lost = raw_stats_text_lost(trace, f->cpu, f->stats);
		rc->n_lost = ftl_strpool_intern(ftl_trace_pool(trace), "lost");
		rc->base.has_header = TRUE;
		rc->base.header_cpus = max_cpu;
		ftl_trace_add_source(trace, &rc->base);
		if (!rc->pages) {
			g_set_error(error, FTL_ERROR, FTL_ERROR_IO, "'%s': out of memory",
				    rc->base.path);
			return FALSE;
		}
	}
	return TRUE;
}

gboolean ftl_rawdir_open_parts(FtlTrace *trace, FtlRawParts *parts, GError **error)
{
	if (!parts->hp) {
		g_set_error(error, FTL_ERROR, FTL_ERROR_FORMAT,
			    "'%s': raw pages (%s) but no events/header_page to decode them with",
			    parts->label, parts->layout);
		return FALSE;
	}
	if (parts->pages->len == 0) {
		g_set_error(error, FTL_ERROR, FTL_ERROR_FORMAT,
			    "'%s': formats but no raw pages (per_cpu/cpuN/trace_pipe_raw)",
			    parts->label);
		return FALSE;
	}
	RawGeometry geo;
	if (!raw_parse_header_page(parts->hp_path, parts->hp, &geo, error))
		return FALSE;
	g_ptr_array_sort(parts->pages, raw_pages_cmp);
	guint n = parts->pages->len;
	g_autofree const FtlInput **ins = g_new0(const FtlInput *, n);
	gint max_cpu = 0;
	for (guint i = 0; i < n; i++) {
		const RawPages *f = g_ptr_array_index(parts->pages, i);
		ins[i] = f->in;
		max_cpu = MAX(max_cpu, f->cpu + 1);
	}
	raw_guess_endian(&geo, (const FtlInput *const *)ins, n);
	gint n_formats;
	struct tep_handle *tep = raw_tep_new(trace, parts, &geo, max_cpu, &n_formats, error);
	if (!tep)
		return FALSE;
	raw_tep_extras(trace, tep, parts, &geo);
	gboolean ok = raw_add_sources(trace, parts, tep, &geo, max_cpu, error);
	/* NO FILE DATA */
	tep_free(tep); /* each source holds its own reference */
	if (ok)
		ftl_trace_add_note(trace, "'%s': raw ring-buffer pages (%s), %d event formats",
				   parts->label, parts->layout, n_formats);
	return ok;
}

gboolean ftl_rawdir_open(FtlTrace *trace, const char *dir, gboolean *found, GError **error)
{
	*found = FALSE;
	if (ftl_rawdir_is_live_tracefs(dir)) {
		ftl_trace_add_note(trace,
				   "'%s': a live tracefs: its text is read; its trace_pipe_raw "
				   "files are not (reading them would consume the buffer)",
				   dir);
		return FALSE;
	}
	const char *layout;
	g_autoptr(GPtrArray) files = raw_find_pages(dir, &layout);
	if (files->len == 0)
		return FALSE;
	g_autofree char *root = raw_find_formats(dir);
	/* cpuN files alone may be anything; trace_pipe_raw is surely pages */
	if (!root && strcmp(layout, "per_cpu/cpuN/trace_pipe_raw") != 0)
		return FALSE;
	*found = TRUE;
	g_autoptr(FtlRawParts) parts = ftl_raw_parts_new(dir, layout, root ? root : dir);
	if (root) {
		g_autofree char *hp_path = g_build_filename(root, "header_page", NULL);
		char *hp;
		gsize hp_len;
		g_autoptr(GError) local = NULL;
		if (!g_file_get_contents(hp_path, &hp, &hp_len, &local)) {
			g_set_error(error, FTL_ERROR, FTL_ERROR_IO, "'%s': %s", hp_path,
				    local->message);
			return FALSE;
		}
		ftl_raw_parts_set_header_page(parts, hp_path, hp, hp_len);
		raw_read_formats(parts, root);
	}
	for (guint i = 0; i < files->len; i++) {
		const RawPageFile *f = g_ptr_array_index(files, i);
		FtlInput *in = ftl_input_open(f->path, ftl_trace_read_options(trace), error);
		if (!in)
			return FALSE;
		char *stats = NULL;
		if (f->stats)
			g_file_get_contents(f->stats, &stats, NULL, NULL);
		ftl_raw_parts_add_pages(parts, f->cpu, in, stats);
	}
	for (guint i = 0; i < FTL_RAW_N_EXTRA; i++)
		ftl_raw_parts_set_extra(parts, i, raw_read_optional(dir, raw_extra_names[i]));
	return ftl_rawdir_open_parts(trace, parts, error);
}
