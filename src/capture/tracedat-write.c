/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Writes trace-cmd's trace.dat version 6 (Documentation/trace-cmd/
 * trace-cmd.dat.v6.5.txt) from a directory with the tracefs layout. Written
 * here rather than through libtracecmd's output API: that API is not in the
 * installed public header, and it reads /proc/kallsyms and the live tracing
 * directory itself (toggling kptr_restrict on the way), where ftlens writes
 * what it staged and changes nothing on the machine. */
#include "config.h"

#include "capture/tracedat-write.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "capture/cpubuf.h"
#include "capture/tracefs.h"
#include "util/error.h"
#include "util/output.h"
#include "util/tracefs-text.h"

/* trace-cmd's option ids (trace-cmd-private.h). */
enum {
	TD_OPTION_DONE = 0,
	TD_OPTION_CPUSTAT = 2,
	TD_OPTION_BUFFER = 3,
	TD_OPTION_TRACECLOCK = 4,
	TD_OPTION_UNAME = 5,
};

typedef struct {
	FILE *f;
	const char *path; /* the target, for errors */
	GError **error;
	gboolean failed;
} TdWriter;

static void td_fail_errno(TdWriter *w, const char *what)
{
	if (w->failed)
		return;
	int e = errno;
	g_set_error(w->error, FTL_ERROR, FTL_ERROR_IO, "'%s': %s: %s", w->path, what,
		    g_strerror(e));
	w->failed = TRUE;
}

static void td_put(TdWriter *w, const void *data, gsize len)
{
	if (!w->failed && len && fwrite(data, 1, len, w->f) != len)
		td_fail_errno(w, "write");
}

/* Numbers are written in the host's byte order, which is the traced
 * kernel's: the pages are copied from its ring buffer as they are. */
static void td_u16(TdWriter *w, guint16 v)
{
	td_put(w, &v, 2);
}

static void td_u32(TdWriter *w, guint32 v)
{
	td_put(w, &v, 4);
}

static void td_u64(TdWriter *w, guint64 v)
{
	td_put(w, &v, 8);
}

static void td_str0(TdWriter *w, const char *s)
{
	td_put(w, s, strlen(s) + 1);
}

static gint64 td_tell(TdWriter *w)
{
	off_t o = ftello(w->f);
	if (o < 0)
		td_fail_errno(w, "tell");
	return (gint64)o;
}

static void td_pad_to(TdWriter *w, gint64 offset)
{
	static const char zeros[4096];
	gint64 at = td_tell(w);
	while (!w->failed && at < offset) {
		gsize n = (gsize)MIN(offset - at, (gint64)sizeof zeros);
		td_put(w, zeros, n);
		at += (gint64)n;
	}
}

static gint64 td_align(gint64 offset, guint page)
{
	return (offset + page - 1) / page * page;
}

/* A file of raw_dir, whole. optional: a missing file reads as empty. */
static gboolean td_read(const char *dir, const char *rel, gboolean optional, char **data,
			gsize *len, GError **error)
{
	g_autofree char *path = g_build_filename(dir, rel, NULL);
	if (optional && !g_file_test(path, G_FILE_TEST_EXISTS)) {
		*data = g_strdup("");
		*len = 0;
		return TRUE;
	}
	g_autoptr(GError) local = NULL;
	if (!g_file_get_contents(path, data, len, &local)) {
		g_set_error(error, FTL_ERROR, FTL_ERROR_IO, "%s", local->message);
		return FALSE;
	}
	return TRUE;
}

/* A section: its size in size_bytes (4 or 8) bytes, then the content. */
static gboolean td_put_file(TdWriter *w, const char *dir, const char *rel, guint size_bytes,
			    gboolean optional)
{
	g_autofree char *data = NULL;
	gsize len = 0;
	if (!td_read(dir, rel, optional, &data, &len, w->error)) {
		w->failed = TRUE;
		return FALSE;
	}
	if (size_bytes == 4) {
		if (len > G_MAXUINT32) {
			g_set_error(w->error, FTL_ERROR, FTL_ERROR_FORMAT,
				    "'%s/%s': %" G_GSIZE_FORMAT " bytes do not fit trace.dat's "
				    "32-bit size field",
				    dir, rel, len);
			w->failed = TRUE;
			return FALSE;
		}
		td_u32(w, (guint32)len);
	} else {
		td_u64(w, len);
	}
	td_put(w, data, len);
	return !w->failed;
}

static gint td_strcmp(gconstpointer a, gconstpointer b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Sorted names in dir/rel: directories (dirs TRUE) that hold a format file
 * (events of a system) or that are systems. */
static GPtrArray *td_list(const char *dir, const char *rel, gboolean want_format)
{
	GPtrArray *names = g_ptr_array_new_with_free_func(g_free);
	g_autofree char *path = g_build_filename(dir, rel, NULL);
	g_autoptr(GDir) d = g_dir_open(path, 0, NULL);
	if (!d)
		return names;
	for (const char *name; (name = g_dir_read_name(d));) {
		g_autofree char *sub = g_build_filename(path, name, NULL);
		if (!g_file_test(sub, G_FILE_TEST_IS_DIR))
			continue;
		if (want_format) {
			g_autofree char *fmt = g_build_filename(sub, "format", NULL);
			if (!g_file_test(fmt, G_FILE_TEST_IS_REGULAR))
				continue;
		}
		g_ptr_array_add(names, g_strdup(name));
	}
	g_ptr_array_sort(names, td_strcmp);
	return names;
}

/* The formats of one system: a count, then each one's size and text. */
static gboolean td_put_system(TdWriter *w, const char *dir, const char *system)
{
	g_autofree char *rel = g_build_filename("events", system, NULL);
	g_autoptr(GPtrArray) events = td_list(dir, rel, TRUE);
	td_u32(w, events->len);
	for (guint i = 0; i < events->len && !w->failed; i++) {
		g_autofree char *fmt = g_build_filename(rel, events->pdata[i], "format", NULL);
		td_put_file(w, dir, fmt, 8, FALSE);
	}
	return !w->failed;
}

static guint64 td_file_size(const char *path)
{
	GStatBuf st;
	return g_stat(path, &st) == 0 ? (guint64)st.st_size : 0;
}

/* Appends the file's bytes as they are. */
static gboolean td_copy(TdWriter *w, const char *src)
{
	FILE *in = fopen(src, "rb");
	if (!in) {
		int e = errno;
		g_set_error(w->error, FTL_ERROR, FTL_ERROR_IO, "'%s': %s", src, g_strerror(e));
		w->failed = TRUE;
		return FALSE;
	}
	char buf[65536];
	size_t n;
	while (!w->failed && (n = fread(buf, 1, sizeof buf, in)) > 0)
		td_put(w, buf, n);
	if (ferror(in) && !w->failed) {
		g_set_error(w->error, FTL_ERROR, FTL_ERROR_IO, "'%s': read error", src);
		w->failed = TRUE;
	}
	fclose(in);
	return !w->failed;
}

/* One "flyrecord" section: per CPU the offset and size of its pages, the
 * trace clock as "[name]", then the pages, each CPU's at a page boundary.
 * paths NULL: every CPU is empty (the main buffer when the pages are
 * stored as an instance). */
static gboolean td_put_flyrecord(TdWriter *w, guint n_cpus, char *const *paths, const char *clock,
				 guint page)
{
	g_autofree char *clock_text = g_strdup_printf("[%s]", clock);
	td_put(w, "flyrecord", 10);
	gint64 at = td_tell(w) + (gint64)n_cpus * 16 + 8 + (gint64)strlen(clock_text);
	at = td_align(at, page);
	g_autofree gint64 *offsets = g_new0(gint64, n_cpus);
	for (guint i = 0; i < n_cpus; i++) {
		guint64 size = paths ? td_file_size(paths[i]) : 0;
		offsets[i] = at;
		td_u64(w, (guint64)at);
		td_u64(w, size);
		at = td_align(at + (gint64)size, page);
	}
	td_u64(w, strlen(clock_text));
	td_put(w, clock_text, strlen(clock_text));
	for (guint i = 0; paths && i < n_cpus && !w->failed; i++) {
		td_pad_to(w, offsets[i]);
		td_copy(w, paths[i]);
	}
	return !w->failed;
}

/* What the staging directory must hold before anything is written: the
 * page header and the geometry it gives, every CPU's whole pages, the
 * clock. */
typedef struct {
	char *header_page;
	guint page, long_size, n_cpus;
	GPtrArray *pages; /* char*, per_cpu/cpuN/trace_pipe_raw of each CPU */
	char *clock;	  /* the trace clock's name */
} TdInput;

static void td_input_clear(TdInput *in)
{
	g_free(in->header_page);
	if (in->pages)
		g_ptr_array_unref(in->pages);
	g_free(in->clock);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC(TdInput, td_input_clear)

static gboolean td_input_read(TdInput *in, const char *dir, GError **error)
{
	gsize len;
	if (!td_read(dir, "events/header_page", FALSE, &in->header_page, &len, error))
		return FALSE;
	FtlHeaderPage hp;
	if (!ftl_header_page_parse(in->header_page, &hp) || ftl_header_page_size(&hp) < 64) {
		g_set_error(error, FTL_ERROR, FTL_ERROR_FORMAT,
			    "'%s/events/header_page': no 'data' and 'commit' fields: not a "
			    "ring-buffer page header",
			    dir);
		return FALSE;
	}
	in->page = ftl_header_page_size(&hp);
	in->long_size = (guint)hp.commit_size;
	in->n_cpus = ftl_cpubuf_count_cpus(dir, error);
	if (!in->n_cpus)
		return FALSE;
	in->pages = g_ptr_array_new_with_free_func(g_free);
	for (guint i = 0; i < in->n_cpus; i++) {
		char *p = g_strdup_printf("%s/per_cpu/cpu%u/trace_pipe_raw", dir, i);
		g_ptr_array_add(in->pages, p);
		if (!g_file_test(p, G_FILE_TEST_EXISTS)) {
			g_set_error(error, FTL_ERROR, FTL_ERROR_IO, "'%s': missing", p);
			return FALSE;
		}
		guint64 size = td_file_size(p);
		if (size % in->page) {
			g_set_error(error, FTL_ERROR, FTL_ERROR_FORMAT,
				    "'%s': %" G_GUINT64_FORMAT " bytes is not a whole number of "
				    "%u-byte pages",
				    p, size, in->page);
			return FALSE;
		}
	}
	g_autofree char *clock_file = NULL;
	if (!td_read(dir, "trace_clock", TRUE, &clock_file, &len, error))
		return FALSE;
	in->clock = ftl_trace_clock_selected(clock_file);
	if (!in->clock)
		in->clock = g_strdup("local");
	return TRUE;
}

/* The initial format (magic, version, endianness, long size, page size),
 * then the header section: header_page and header_event. */
static gboolean td_put_header(TdWriter *w, const char *dir, const TdInput *in)
{
	static const char magic[] = { 0x17, 0x08, 0x44, 't', 'r', 'a', 'c', 'i', 'n', 'g' };
	td_put(w, magic, sizeof magic);
	td_str0(w, "6");
	const guint8 big = G_BYTE_ORDER == G_BIG_ENDIAN, lsize = (guint8)in->long_size;
	td_put(w, &big, 1);
	td_put(w, &lsize, 1);
	td_u32(w, in->page);

	td_str0(w, "header_page");
	td_u64(w, strlen(in->header_page));
	td_put(w, in->header_page, strlen(in->header_page));
	td_str0(w, "header_event");
	return td_put_file(w, dir, "events/header_event", 8, FALSE);
}

/* The ftrace formats, then every other system that has events, each with
 * its name and formats. */
static gboolean td_put_formats(TdWriter *w, const char *dir)
{
	if (!td_put_system(w, dir, "ftrace"))
		return FALSE;
	g_autoptr(GPtrArray) systems = td_list(dir, "events", FALSE);
	g_autoptr(GPtrArray) kept = g_ptr_array_new();
	for (guint i = 0; i < systems->len; i++) {
		const char *s = systems->pdata[i];
		g_autofree char *rel = g_build_filename("events", s, NULL);
		g_autoptr(GPtrArray) ev = td_list(dir, rel, TRUE);
		if (strcmp(s, "ftrace") != 0 && ev->len)
			g_ptr_array_add(kept, (gpointer)s);
	}
	td_u32(w, kept->len);
	for (guint i = 0; i < kept->len && !w->failed; i++) {
		td_str0(w, kept->pdata[i]);
		td_put_system(w, dir, kept->pdata[i]);
	}
	return !w->failed;
}

/* One option: its id, its size, then data. */
static void td_put_option(TdWriter *w, guint16 id, const void *data, guint32 size)
{
	td_u16(w, id);
	td_u32(w, size);
	td_put(w, data, size);
}

/* The options: the clock, uname, per-CPU statistics, the instance. When the
 * pages are stored as an instance, *buffer_offset_at is where its section's
 * offset is to be written once known; -1 otherwise. */
static gboolean td_put_options(TdWriter *w, const char *dir, const FtlTracedatWriteOptions *opt,
			       guint n_cpus, gint64 *buffer_offset_at)
{
	*buffer_offset_at = -1;
	td_put(w, "options  ", 10);
	/* The option only says "the clock follows each flyrecord section", as
	 * trace-cmd record writes it: libtracecmd 1.3 reads a clock given in
	 * both places twice and loses the first copy. */
	td_put_option(w, TD_OPTION_TRACECLOCK, "", 1);
	if (opt && opt->uname)
		td_put_option(w, TD_OPTION_UNAME, opt->uname, (guint32)strlen(opt->uname) + 1);
	const char *buffer = opt ? opt->buffer_name : NULL;
	if (buffer) {
		/* trace-cmd's marker before an instance's statistics. */
		g_autofree char *head = g_strdup_printf("\nBuffer: %s\n\n", buffer);
		td_put_option(w, TD_OPTION_CPUSTAT, head, (guint32)strlen(head) + 1);
	}
	for (guint i = 0; i < n_cpus; i++) {
		g_autofree char *rel = g_strdup_printf("per_cpu/cpu%u/stats", i);
		g_autofree char *stats = NULL;
		gsize len;
		if (!td_read(dir, rel, TRUE, &stats, &len, w->error))
			return FALSE;
		if (!stats[0])
			continue;
		g_autofree char *text = g_strdup_printf("CPU: %u\n%s", i, stats);
		td_put_option(w, TD_OPTION_CPUSTAT, text, (guint32)strlen(text) + 1);
	}
	if (buffer) {
		td_u16(w, TD_OPTION_BUFFER);
		td_u32(w, 8 + (guint32)strlen(buffer) + 1);
		*buffer_offset_at = td_tell(w);
		td_u64(w, 0); /* patched once the instance's section is placed */
		td_str0(w, buffer);
	}
	td_u16(w, TD_OPTION_DONE);
	return !w->failed;
}

/* The CPU data: the pages in the main buffer's flyrecord section, or, for
 * an instance, an empty main buffer followed by the instance's section,
 * whose offset goes to buffer_offset_at. */
static gboolean td_put_cpu_data(TdWriter *w, const TdInput *in, gint64 buffer_offset_at)
{
	char *const *pages = (char *const *)in->pages->pdata;
	if (buffer_offset_at < 0)
		return td_put_flyrecord(w, in->n_cpus, pages, in->clock, in->page);
	if (!td_put_flyrecord(w, in->n_cpus, NULL, in->clock, in->page))
		return FALSE;
	gint64 section = td_tell(w);
	if (w->failed || fseeko(w->f, (off_t)buffer_offset_at, SEEK_SET) != 0) {
		td_fail_errno(w, "seek");
		return FALSE;
	}
	td_u64(w, (guint64)section);
	if (w->failed || fseeko(w->f, (off_t)section, SEEK_SET) != 0) {
		td_fail_errno(w, "seek");
		return FALSE;
	}
	return td_put_flyrecord(w, in->n_cpus, pages, in->clock, in->page);
}

/* The file's sections in the order version 6 has them. */
static gboolean td_write(TdWriter *w, const char *dir, const FtlTracedatWriteOptions *opt)
{
	g_auto(TdInput) in = { 0 };
	if (!td_input_read(&in, dir, w->error))
		return FALSE;
	if (!td_put_header(w, dir, &in) || !td_put_formats(w, dir))
		return FALSE;
	if (!td_put_file(w, dir, "kallsyms", 4, TRUE) ||
	    !td_put_file(w, dir, "printk_formats", 4, TRUE) ||
	    !td_put_file(w, dir, "saved_cmdlines", 8, TRUE))
		return FALSE;
	td_u32(w, in.n_cpus);
	gint64 buffer_offset_at;
	if (!td_put_options(w, dir, opt, in.n_cpus, &buffer_offset_at))
		return FALSE;
	return td_put_cpu_data(w, &in, buffer_offset_at);
}

gboolean ftl_tracedat_write(const char *raw_dir, const char *out_path,
			    const FtlTracedatWriteOptions *opt, GError **error)
{
	g_autoptr(FtlOutput) out = ftl_output_open(out_path, NULL, error);
	if (!out)
		return FALSE;
	TdWriter w = { ftl_output_stream(out), out_path, error, FALSE };
	if (!td_write(&w, raw_dir, opt))
		return FALSE;
	return ftl_output_commit(out, error);
}
