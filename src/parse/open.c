/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Input detection: directories of per-CPU files, compressed files, binary
 * files we do not read, and text traces, decided from content, not names. */
#include "config.h"

#include "parse/open.h"

#include <string.h>
#include <sys/stat.h>

#include "parse/console.h"
#include "parse/rawdir.h"
#include "parse/rawtar.h"
#include "parse/stacktrace.h"
#include "parse/text.h"
#include "parse/tracedat.h"
#include "util/error.h"
#include "util/stream.h"

#define SNIFF_BYTES 4096
/* The start of an input that the sniffers look at. */
#define HEAD_BYTES 65536

/* The N of a per-CPU name: "cpuN" (a per_cpu/ directory), or "cpuN.trace"
 * and "cpuN.txt" (files a script saved per CPU); -1 for any other name. */
static gint open_cpu_name(const char *name, gboolean *file)
{
	if (!g_str_has_prefix(name, "cpu") || !g_ascii_isdigit(name[3]))
		return -1;
	gsize d = strspn(name + 3, "0123456789");
	const char *rest = name + 3 + d;
	if (file)
		*file = *rest != 0;
	if (*rest && strcmp(rest, ".trace") != 0 && strcmp(rest, ".txt") != 0)
		return -1;
	return (gint)g_ascii_strtoll(name + 3, NULL, 10);
}

/* cpuN from ".../cpuN/trace", ".../cpuN", ".../cpuN.trace" or ".../cpuN.txt" */
static gint open_cpu_hint(const char *path)
{
	g_autofree char *dir = g_path_get_dirname(path);
	g_autofree char *base = g_path_get_basename(dir);
	g_autofree char *self = g_path_get_basename(path);
	gint cpu = open_cpu_name(self, NULL);
	return cpu >= 0 ? cpu : open_cpu_name(base, NULL);
}

static gboolean open_check_text(const char *path, const char *data, gsize size, GError **error)
{
	if (size == 0) {
		g_set_error(error, FTL_ERROR, FTL_ERROR_EMPTY, "'%s': empty file, no trace to read",
			    path);
		return FALSE;
	}
	/* A NUL is never in text; other control bytes are, now and then: any
	 * process can write a BEL or an escape sequence into trace_marker, and
	 * the kernel prints it as it came. Many of them mean binary data. */
	gsize n = MIN(size, SNIFF_BYTES), n_ctl = 0, first = 0;
	guint64 line = 1, first_line = 0;
	for (gsize i = 0; i < n; i++) {
		guchar c = (guchar)data[i];
		if (c == '\n')
			line++;
		if (c == 0 || (c < 0x20 && c != '\n' && c != '\r' && c != '\t' && c != 0x1b)) {
			if (!n_ctl++)
				first = i, first_line = line;
			if (c == 0) {
				first = i, first_line = line;
				break;
			}
		}
	}
	if (n_ctl && (data[first] == 0 || n_ctl * 32 > n)) {
		g_set_error(error, FTL_ERROR, FTL_ERROR_FORMAT,
			    "'%s': line %" G_GUINT64_FORMAT
			    ": binary data (byte 0x%02x at offset %zu), not an ftrace text trace",
			    path, first_line, (guchar)data[first], first);
		return FALSE;
	}
	return TRUE;
}

/* tracefs's trace_pipe and trace_pipe_raw block while the buffer is empty,
 * so there is no end of file to wait for. */
static gboolean open_is_live_pipe(const char *path)
{
	g_autofree char *base = g_path_get_basename(path);
	return g_str_has_prefix(base, "trace_pipe") && ftl_rawdir_is_live_tracefs(path);
}

static gboolean open_add_stream(FtlTrace *trace, FtlStream *stream, const char *path,
				gint cpu_hint, const char *buffer, GError **error);

static gboolean open_add_file(FtlTrace *trace, const char *path, gint cpu_hint, const char *buffer,
			      GError **error)
{
	if (open_is_live_pipe(path)) {
		g_set_error(error, FTL_ERROR, FTL_ERROR_USAGE,
			    "'%s': a live tracefs pipe never ends and reading it consumes the "
			    "buffer; read 'trace' instead, or save the pipe first (timeout 10 "
			    "cat %s > saved.txt)",
			    path, path);
		return FALSE;
	}
	FtlStream *in = ftl_stream_open(path, error);
	return in && open_add_stream(trace, in, path, cpu_hint, buffer, error);
}

/* Adds in (owned) as what its content says it is; path (NULL for bytes
 * without a file) is what libtracecmd opens for a trace.dat. */
static gboolean open_add_stream(FtlTrace *trace, FtlStream *stream, const char *path,
				gint cpu_hint, const char *buffer, GError **error)
{
	g_autoptr(FtlStream) in = stream;
	gboolean memory = path == NULL;
	if (memory)
		path = ftl_stream_path(in);
	ftl_diags_rank_file(ftl_trace_diags(trace), path); /* first input's anomaly first */
	gsize n;
	const char *head = ftl_stream_peek(in, HEAD_BYTES, &n, error);
	if (!head)
		return FALSE;
	if (ftl_tracedat_sniff(head, n)) {
		/* libtracecmd opens the file by name and seeks in it */
		if (ftl_stream_compression(in) != FTL_COMPRESSION_NONE ||
		    g_strcmp0(path, "-") == 0 || memory) {
			g_set_error(error, FTL_ERROR, FTL_ERROR_UNSUPPORTED,
				    "'%s': a trace.dat read from %s; give ftlens the uncompressed "
				    "file itself",
				    path,
				    memory ? "memory"
				    : g_strcmp0(path, "-") == 0
					    ? "standard input"
					    : ftl_compression_name(ftl_stream_compression(in)));
			return FALSE;
		}
		g_clear_pointer(&in, ftl_stream_free);
		return ftl_tracedat_open(trace, path, buffer, error);
	}
	if (ftl_rawtar_sniff(head, n)) {
		/* a raw capture in a tar (ftlens capture-script): libarchive reads
		 * the file itself, whatever its compression */
		if (memory) {
			g_set_error(error, FTL_ERROR, FTL_ERROR_UNSUPPORTED,
				    "'%s': a tar archive read from memory; give ftlens the file",
				    path);
			return FALSE;
		}
		if (buffer && strcmp(buffer, "top") != 0) {
			g_set_error(error, FTL_ERROR, FTL_ERROR_USAGE,
				    "'%s': --buffer %s: a raw capture holds one buffer only", path,
				    buffer);
			return FALSE;
		}
		g_clear_pointer(&in, ftl_stream_free);
		return ftl_rawtar_open(trace, path, error);
	}
	if (!open_check_text(path, head, n, error))
		return FALSE;
	guint64 stack_line;
	FtlStackInput stack = ftl_stacktrace_sniff(head, n, &stack_line);
	if (stack != FTL_STACK_INPUT_NONE) {
		/* not events: the stack tracer's files have their own command */
		g_set_error(error, FTL_ERROR, FTL_ERROR_FORMAT,
			    "'%s': line %" G_GUINT64_FORMAT
			    ": %s, not an event trace; read it with 'ftlens stack'",
			    path, stack_line, ftl_stacktrace_input_name(stack));
		return FALSE;
	}
	if (buffer && strcmp(buffer, "top") != 0) {
		g_set_error(error, FTL_ERROR, FTL_ERROR_USAGE,
			    "'%s': --buffer %s: a text trace holds one buffer only", path, buffer);
		return FALSE;
	}
	/* the sniffed start again, for the console check below: the stream is the source's */
	g_autofree char *head_copy = g_memdup2(head, n);
	FtlSource *src = ftl_text_source_open(
		trace, g_steal_pointer(&in), cpu_hint >= 0 ? cpu_hint : open_cpu_hint(path), error);
	if (!src) {
		if (error && *error && ftl_console_sniff(head_copy, n)) {
			char *msg = g_strconcat((*error)->message,
						" (a kernel console log? try 'ftlens oops')", NULL);
			g_free((*error)->message);
			(*error)->message = msg;
		}
		return FALSE;
	}
	ftl_trace_add_source(trace, src);
	return TRUE;
}

static gint open_cpu_dir_cmp(gconstpointer a, gconstpointer b)
{
	const char *x = *(const char *const *)a, *y = *(const char *const *)b;
	gint64 cx = g_ascii_strtoll(x + 3, NULL, 10), cy = g_ascii_strtoll(y + 3, NULL, 10);
	return cx != cy ? (cx > cy) - (cx < cy) : strcmp(x, y);
}

/* per_cpu/cpuN/trace files below dir, dir/cpuN/trace, or files dir/cpuN.trace
 * and dir/cpuN.txt. Returns how many were added. */
static gint open_add_per_cpu(FtlTrace *trace, const char *dir, GError **error)
{
	g_autoptr(GDir) d = g_dir_open(dir, 0, NULL);
	if (!d)
		return 0;
	g_autoptr(GPtrArray) cpus = g_ptr_array_new_with_free_func(g_free);
	const char *name;
	while ((name = g_dir_read_name(d))) {
		if (open_cpu_name(name, NULL) >= 0)
			g_ptr_array_add(cpus, g_strdup(name));
	}
	g_ptr_array_sort(cpus, open_cpu_dir_cmp);
	gint added = 0;
	for (guint i = 0; i < cpus->len; i++) {
		const char *c = g_ptr_array_index(cpus, i);
		gboolean file;
		gint cpu = open_cpu_name(c, &file);
		g_autofree char *path = g_build_filename(dir, c, file ? NULL : "trace", NULL);
		if (!g_file_test(path, G_FILE_TEST_IS_REGULAR))
			continue;
		g_autoptr(GError) local = NULL;
		if (!open_add_file(trace, path, cpu, NULL, &local)) {
			/* An idle CPU leaves an empty or header-only file: not an error. */
			if (g_error_matches(local, FTL_ERROR, FTL_ERROR_EMPTY))
				continue;
			g_propagate_error(error, g_steal_pointer(&local));
			return -1;
		}
		/* per_cpu/cpuN/stats beside it: what that CPU lost (its trace
		 * file marks no loss: the kernel's LOST lines are trace_pipe's) */
		g_autofree char *stats = g_build_filename(dir, c, "stats", NULL);
		g_autofree char *text = NULL;
		if (!file && g_file_get_contents(stats, &text, NULL, NULL)) {
			FtlCpuStats st;
			ftl_cpustats_parse(text, &st);
			ftl_trace_set_cpustats(trace, cpu, &st);
			guint64 n = ftl_cpustats_lost(&st);
			g_autofree char *what = g_strdup_printf(
				"CPU %d: per_cpu stats report %" G_GUINT64_FORMAT
				" overrun or dropped events",
				cpu, n);
			if (n)
				ftl_diags_add(ftl_trace_diags(trace), FTL_DIAG_LOST_EVENTS,
					      &(FtlDiagLoc){ stats, 0, cpu }, what, -1, n);
		}
		added++;
	}
	return added;
}

/* Text a raw page directory also holds: per_cpu/cpuN/trace or trace. */
static const char *open_text_beside_raw(const char *dir)
{
	g_autofree char *t = g_build_filename(dir, "trace", NULL);
	if (g_file_test(t, G_FILE_TEST_IS_REGULAR))
		return "trace";
	g_autofree char *pc = g_build_filename(dir, "per_cpu", NULL);
	g_autoptr(GDir) d = g_dir_open(pc, 0, NULL);
	const char *name;
	while (d && (name = g_dir_read_name(d))) {
		g_autofree char *p = g_build_filename(pc, name, "trace", NULL);
		if (g_str_has_prefix(name, "cpu") && g_file_test(p, G_FILE_TEST_IS_REGULAR))
			return "per_cpu/cpuN/trace";
	}
	return NULL;
}

static gboolean open_add_dir(FtlTrace *trace, const char *dir, GError **error)
{
	/* Raw pages win over text: they are complete where the text was
	 * formatted by one kernel's options and may be cut. */
	gboolean raw;
	if (ftl_rawdir_open(trace, dir, &raw, error)) {
		const char *text = open_text_beside_raw(dir);
		if (text)
			ftl_trace_add_note(trace,
					   "'%s': raw pages read; the text in %s is not read "
					   "(give that file itself to read it)",
					   dir, text);
		return TRUE;
	}
	if (raw)
		return FALSE;
	g_autofree char *pc = g_build_filename(dir, "per_cpu", NULL);
	gint n = open_add_per_cpu(trace, pc, error);
	if (n == 0)
		n = open_add_per_cpu(trace, dir, error);
	if (n < 0)
		return FALSE;
	if (n > 0)
		return TRUE;
	g_autofree char *top = g_build_filename(dir, "trace", NULL);
	if (g_file_test(top, G_FILE_TEST_IS_REGULAR))
		return open_add_file(trace, top, -1, NULL, error);
	g_set_error(error, FTL_ERROR, FTL_ERROR_FORMAT,
		    "'%s': directory holds no trace (looked for per_cpu/cpuN/trace, cpuN/trace, "
		    "cpuN.trace, cpuN.txt and trace)",
		    dir);
	return FALSE;
}

FtlTrace *ftl_trace_open_many(const char *const *paths, guint n_paths, FtlOpenFlags flags,
			      GError **error)
{
	return ftl_trace_open_buffer(paths, n_paths, flags, NULL, NULL, error);
}

FtlTrace *ftl_trace_open_buffer(const char *const *paths, guint n_paths, FtlOpenFlags flags,
				const char *buffer, const FtlReadOptions *ro, GError **error)
{
	g_return_val_if_fail(n_paths > 0, NULL);
	g_autofree char *label = n_paths == 1
					 ? g_strdup(paths[0])
					 : g_strdup_printf("%s (+%u more)", paths[0], n_paths - 1);
	g_autoptr(FtlTrace) trace = ftl_trace_new(label, flags);
	ftl_trace_set_read_options(trace, ro);
	for (guint i = 0; i < n_paths; i++) {
		const char *path = paths[i];
		gboolean ok;
		ftl_trace_begin_operand(trace, path);
		if (g_strcmp0(path, "-") != 0 && g_file_test(path, G_FILE_TEST_IS_DIR)) {
			ok = open_add_dir(trace, path, error);
			if (ok && buffer && strcmp(buffer, "top") != 0) {
				g_set_error(error, FTL_ERROR, FTL_ERROR_USAGE,
					    "'%s': --buffer %s: only trace.dat files hold several "
					    "buffers",
					    path, buffer);
				ok = FALSE;
			}
		} else {
			ok = open_add_file(trace, path, -1, buffer, error);
		}
		if (!ok)
			return NULL;
	}
	return g_steal_pointer(&trace);
}

FtlTrace *ftl_trace_open(const char *path, FtlOpenFlags flags, GError **error)
{
	return ftl_trace_open_many(&path, 1, flags, error);
}

FtlTrace *ftl_trace_open_with(const char *path, FtlOpenFlags flags, const FtlReadOptions *ro,
			      GError **error)
{
	return ftl_trace_open_buffer(&path, 1, flags, NULL, ro, error);
}

FtlTrace *ftl_trace_open_memory(const char *label, char *data, gsize size, FtlOpenFlags flags,
				const FtlReadOptions *ro, GError **error)
{
	g_autoptr(FtlTrace) trace = ftl_trace_new(label, flags);
	ftl_trace_set_read_options(trace, ro);
	FtlStream *in = ftl_stream_new_from_memory(label, data, size, g_free);
	if (!open_add_stream(trace, in, NULL, -1, NULL, error))
		return NULL;
	return g_steal_pointer(&trace);
}
