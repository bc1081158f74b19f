/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The per-CPU exporter of `split --per-cpu`: one file per CPU holding the
 * input's own lines (or, for binary inputs, trace-cmd report's lines), so
 * that each reads like the kernel's per_cpu/cpuN/trace. */
#include "config.h"

#include "views/split.h"

#include <errno.h>
#include <glib/gstdio.h>
#include <signal.h>
#include <string.h>
#include <sys/stat.h>

#include "model/source.h"
#include "util/checked.h"
#include "util/error.h"
#include "util/stream.h"
#include "util/output.h"

/* What the kernel prints around a function_graph task switch
 * (print_graph_prologue's verif_pid in trace_functions_graph.c). */
#define SPLIT_DASHES " ------------------------------------------"

typedef struct {
	gint32 cpu;
	char *dir;	   /* DIR/cpuN */
	char *path;	   /* DIR/cpuN/trace */
	FtlOutput *out;	   /* the file being written */
	FILE *f;	   /* its stream */
	gboolean made_dir; /* we created DIR/cpuN: remove it again on failure */
	guint64 event_lines;
} SplitOut;

struct _FtlSplit {
	char *out_dir;
	GPtrArray *made_dirs; /* DIR and parents to create, deepest first */
	char *stage;	      /* DIR's deepest existing ancestor: the temp files' */
	gboolean force;
	GStrv inputs;	 /* to refuse overwriting one of them */
	GString *header; /* the first source's '#' lines */
	GPtrArray *outs; /* SplitOut*, index cpu (NULL where no events yet) */
	gboolean binary; /* trace.dat or raw pages: lines are written, not copied */
	gboolean done;	 /* every file renamed into place */
	GString *line;	 /* scratch for binary inputs */
	GString *notes;	 /* what the commit took away (ftl_split_notes) */
};

static void split_out_free(gpointer p)
{
	SplitOut *o = p;
	if (!o)
		return;
	ftl_output_free(o->out);
	g_free(o->dir);
	g_free(o->path);
	g_free(o);
}

static gboolean split_io_error(GError **error, const char *path, const char *what, int err)
{
	g_set_error(error, FTL_ERROR, FTL_ERROR_IO, "'%s': %s: %s", path, what, g_strerror(err));
	return FALSE;
}

/* On failure: temp files go, directories we made go, DIR is as it was. */
static void split_abort(FtlSplit *s)
{
	for (guint i = 0; i < s->outs->len; i++) {
		SplitOut *o = g_ptr_array_index(s->outs, i);
		if (!o)
			continue;
		g_clear_pointer(&o->out, ftl_output_free);
		o->f = NULL;
		if (o->made_dir)
			g_rmdir(o->dir);
	}
	for (guint i = 0; i < s->made_dirs->len; i++)
		g_rmdir(g_ptr_array_index(s->made_dirs, i));
}

/* The directories DIR needs, remembered but made only at the commit
 * (split_commit_tree): the files are written in DIR's deepest existing
 * ancestor until then, so a split killed before its end leaves no empty
 * directory (and, written as O_TMPFILE files, no hidden file). */
static gboolean split_plan_out_dir(FtlSplit *s, GError **error)
{
	g_autofree char *d = g_strdup(s->out_dir);
	while (!g_file_test(d, G_FILE_TEST_EXISTS)) {
		g_ptr_array_add(s->made_dirs, g_strdup(d));
		char *parent = g_path_get_dirname(d);
		gboolean top = strcmp(parent, d) == 0;
		g_free(d);
		d = parent;
		if (top)
			break;
	}
	if (!g_file_test(d, G_FILE_TEST_IS_DIR)) {
		split_io_error(error, d, "cannot create directories in it", ENOTDIR);
		return FALSE;
	}
	s->stage = g_steal_pointer(&d);
	return TRUE;
}

/* Each DIR/cpuN DIR lacks, at the commit. */
static gboolean split_make_dirs(FtlSplit *s, GError **error)
{
	for (guint i = 0; i < s->outs->len; i++) {
		SplitOut *o = g_ptr_array_index(s->outs, i);
		if (!o || g_file_test(o->dir, G_FILE_TEST_IS_DIR))
			continue;
		if (g_mkdir(o->dir, 0777) != 0) {
			int err = errno;
			return split_io_error(error, o->dir, "cannot create directory", err);
		}
		o->made_dir = TRUE;
	}
	return TRUE;
}

/* The '#' lines at the start of path, as they are (those in its first
 * SPLIT_HEADER_BYTES). The trace's reading of the input is private to the
 * parser, so read the start again. */
#define SPLIT_HEADER_BYTES ((gsize)1 << 20)

static gboolean split_read_header(const char *path, GString *out, GError **error)
{
	g_autoptr(FtlStream) in = ftl_stream_open(path, error);
	if (!in)
		return FALSE;
	gsize len;
	const char *p = ftl_stream_peek(in, SPLIT_HEADER_BYTES, &len, error);
	if (!p)
		return FALSE;
	const char *end = p + len;
	while (p && p < end) {
		const char *nl = memchr(p, '\n', (gsize)(end - p));
		const char *le = nl ? nl : end;
		const char *q = p;
		while (q < le && (*q == ' ' || *q == '\t' || *q == '\r'))
			q++;
		if (q < le) {
			/* "##### CPU N buffer started ####" is an event of its CPU */
			if (*q != '#' || g_str_has_prefix(q, "##### CPU "))
				break;
			const char *e = le;
			if (e > p && e[-1] == '\r')
				e--;
			g_string_append_len(out, p, e - p);
			g_string_append_c(out, '\n');
		}
		p = nl ? nl + 1 : end;
	}
	return TRUE;
}

static SplitOut *split_open_cpu(FtlSplit *s, gint32 cpu, GError **error)
{
	if ((guint)cpu < s->outs->len && g_ptr_array_index(s->outs, cpu))
		return g_ptr_array_index(s->outs, cpu);
	SplitOut *o = g_new0(SplitOut, 1);
	if ((guint)cpu >= s->outs->len)
		g_ptr_array_set_size(s->outs, (gint)cpu + 1);
	g_ptr_array_index(s->outs, cpu) = o;
	o->cpu = cpu;
	char name[32];
	g_snprintf(name, sizeof name, "cpu%d", cpu);
	o->dir = g_build_filename(s->out_dir, name, NULL);
	o->path = g_build_filename(o->dir, "trace", NULL);
	if (g_file_test(o->path, G_FILE_TEST_EXISTS)) {
		for (guint i = 0; s->inputs[i]; i++)
			if (ftl_output_same_file(o->path, s->inputs[i])) {
				g_set_error(error, FTL_ERROR, FTL_ERROR_USAGE,
					    "'%s' is an input; refusing to overwrite it", o->path);
				return NULL;
			}
		if (!s->force) {
			g_set_error(error, FTL_ERROR, FTL_ERROR_IO,
				    "'%s' exists; use --force to overwrite it", o->path);
			return NULL;
		}
	}
	/* DIR/cpuN is made at the commit; until then the file is written
	 * where a directory exists */
	gboolean have_dir = g_file_test(o->dir, G_FILE_TEST_IS_DIR);
	o->out = ftl_output_open_staged(o->path, have_dir ? NULL : s->stage,
					(const char *const *)s->inputs, error);
	if (!o->out)
		return NULL;
	o->f = ftl_output_stream(o->out);
	if (s->header->len)
		fwrite(s->header->str, 1, s->header->len, o->f);
	return o;
}

/* Binary inputs have no lines of their own: each event is written as
 * `trace-cmd report` lays it out, which ftlens reads back. Call entries and
 * exits keep names and durations as fields (the report's raw form); a
 * stack keeps every frame, one " => " line each, as the kernel prints it
 * (its print format shows the first 8 callers only, on the event's line). */
static void split_write_report_line(FILE *f, const FtlEvent *ev, GString *buf)
{
	if (ev->kind == FTL_EVENT_LOST) {
		if (ev->u.lost.count)
			fprintf(f, "CPU:%d [%" G_GUINT64_FORMAT " EVENTS DROPPED]\n", ev->cpu,
				ev->u.lost.count);
		else
			fprintf(f, "CPU:%d [EVENTS DROPPED]\n", ev->cpu);
		return;
	}
	g_string_truncate(buf, 0);
	if (ev->kind == FTL_EVENT_FUNC_ENTRY || ev->kind == FTL_EVENT_FUNC_EXIT) {
		g_string_append_printf(buf, "func=%s", ev->u.graph.func ? ev->u.graph.func : "0x0");
		if (ev->kind == FTL_EVENT_FUNC_EXIT && ev->u.graph.duration != FTL_TS_NONE)
			g_string_append_printf(buf,
					       " calltime=%" G_GINT64_FORMAT
					       " rettime=%" G_GINT64_FORMAT " overrun=0",
					       ftl_sat_sub_i64(ev->ts, ev->u.graph.duration), ev->ts);
		g_string_append_printf(buf, " depth=%d", ev->u.graph.depth);
	} else if (ev->kind == FTL_EVENT_STACK) {
		g_string_append(buf, g_strcmp0(ev->name, "user_stack") == 0 ? "<user stack trace>"
									     : "<stack trace>");
		for (guint32 i = 0; i < ev->u.stack.n_frames; i++) {
			g_string_append_printf(buf, "\n => " FTL_SLICE_FMT,
					       FTL_SLICE_ARG(ev->u.stack.frames[i]));
			if (ev->u.stack.addrs && ev->u.stack.addrs[i])
				g_string_append_printf(buf, " (%" G_GINT64_MODIFIER "x)",
						       ev->u.stack.addrs[i]);
		}
	} else {
		ftl_source_payload(ev->src, ev, buf);
	}
	g_autofree char *name = g_strconcat(ev->name ? ev->name : "?", ":", NULL);
	gint64 ts = ev->ts == FTL_TS_NONE ? 0 : ev->ts;
	fprintf(f, "%16s-%-5d [%03d] %" G_GINT64_FORMAT ".%09" G_GINT64_FORMAT ": %-21s %s\n",
		ev->comm ? ev->comm : "<...>", ev->pid, ev->cpu, ts / 1000000000, ts % 1000000000,
		name, buf->str);
}

static gboolean split_write_event(FtlSplit *s, const FtlEvent *ev, GError **error)
{
	const char *file = ev->src && ev->src->path ? ev->src->path : "?";
	if (s->binary) {
		if (ev->cpu < 0) {
			g_set_error(error, FTL_ERROR, FTL_ERROR_PARSE,
				    "'%s': cannot split: an event without a CPU", file);
			return FALSE;
		}
		SplitOut *o = split_open_cpu(s, ev->cpu, error);
		if (!o)
			return FALSE;
		split_write_report_line(o->f, ev, s->line);
		if (ev->kind != FTL_EVENT_LOST)
			o->event_lines++;
		return TRUE;
	}
	if (ev->raw.len == 0 || !ev->raw.p) {
		g_set_error(error, FTL_ERROR, FTL_ERROR_UNSUPPORTED,
			    "'%s': cannot split: not a text trace (split copies input lines)",
			    file);
		return FALSE;
	}
	if (ev->cpu < 0) {
		g_set_error(error, FTL_ERROR, FTL_ERROR_PARSE,
			    "'%s': cannot split: line %" G_GUINT64_FORMAT " has no CPU", file,
			    ev->line);
		return FALSE;
	}
	SplitOut *o = split_open_cpu(s, ev->cpu, error);
	if (!o)
		return FALSE;
	FILE *f = o->f;
	if (ev->kind == FTL_EVENT_TASK_SWITCH)
		fputs(SPLIT_DASHES "\n", f);
	fwrite(ev->raw.p, 1, ev->raw.len, f);
	fputc('\n', f);
	if (ev->kind == FTL_EVENT_TASK_SWITCH)
		fputs(SPLIT_DASHES "\n\n", f);
	if (ev->kind != FTL_EVENT_LOST && ev->kind != FTL_EVENT_BUFFER_START)
		o->event_lines++;
	return TRUE;
}

/* DIR did not exist: the tree from its top missing directory down is built
 * in a staging directory beside that directory and renamed into place in
 * one step, so DIR appears whole or not at all. The stop signals wait for
 * the end; a SIGKILL inside this window leaves the staging directory, which
 * the next split into DIR takes away (ftl_output_staging_sweep). */
static gboolean split_commit_tree(FtlSplit *s, const char *top, GError **error)
{
	ftl_output_staging_sweep(top, s->notes);
	gsize cut = strlen(top);
	g_autofree char *parent = g_path_get_dirname(top);
	sigset_t old;
	ftl_output_block_stops(&old);
	g_autofree char *tree = ftl_output_staging_new(top, error);
	gboolean ok = tree != NULL;
	g_autofree char *out = tree ? g_strconcat(tree, s->out_dir + cut, NULL) : NULL;
	/* made 0700: the mode mkdir gives */
	mode_t mask = umask(0);
	umask(mask);
	if (ok && (chmod(tree, 0777 & ~mask) != 0 || g_mkdir_with_parents(out, 0777) != 0)) {
		int err = errno;
		ok = split_io_error(error, s->out_dir, "cannot create directory", err);
	}
	for (guint i = 0; ok && i < s->outs->len; i++) {
		SplitOut *o = g_ptr_array_index(s->outs, i);
		if (!o)
			continue;
		g_autofree char *dir = g_strconcat(tree, o->dir + cut, NULL);
		g_autofree char *path = g_strconcat(tree, o->path + cut, NULL);
		if (g_mkdir(dir, 0777) != 0) {
			int err = errno;
			ok = split_io_error(error, o->dir, "cannot create directory", err);
		} else {
			ok = ftl_output_commit_at(o->out, path, error);
		}
	}
	if (ok && g_rename(tree, top) != 0) {
		int err = errno;
		ok = split_io_error(error, top, "cannot rename the written directory into place",
				    err);
	}
	if (ok)
		ftl_output_sync_dir(parent); /* the rename lasts once the parent is on disk */
	else if (tree)
		ftl_output_staging_remove(tree);
	sigprocmask(SIG_SETMASK, &old, NULL);
	return ok;
}

/* Every file is complete (write errors are sticky, told here) before the
 * first rename, so a failure up to then leaves DIR as it was. */
static gboolean split_commit(FtlSplit *s, GError **error)
{
	for (guint i = 0; i < s->outs->len; i++) {
		SplitOut *o = g_ptr_array_index(s->outs, i);
		if (o && !ftl_output_close(o->out, error))
			return FALSE;
	}
	const char *top =
		s->made_dirs->len ? g_ptr_array_index(s->made_dirs, s->made_dirs->len - 1) : NULL;
	if (top && g_str_has_prefix(s->out_dir, top)) {
		if (!split_commit_tree(s, top, error))
			return FALSE;
		s->done = TRUE;
		return TRUE;
	}
	if (top && g_mkdir_with_parents(s->out_dir, 0777) != 0) {
		int err = errno;
		return split_io_error(error, s->out_dir, "cannot create directory", err);
	}
	if (!split_make_dirs(s, error))
		return FALSE;
	for (guint i = 0; i < s->outs->len; i++) {
		SplitOut *o = g_ptr_array_index(s->outs, i);
		if (!o)
			continue;
		if (!ftl_output_commit(o->out, error))
			return FALSE;
		o->made_dir = FALSE;
	}
	s->done = TRUE;
	return TRUE;
}

void ftl_split_print_summary(const FtlSplit *s, FtlFormat format, const FtlTextStyle *style,
			     FILE *out)
{
	enum { C_CPU, C_FILE, C_EVENT_LINES };
	static const FtlColumn t_cols[] = {
		[C_CPU] = { "cpu", "CPU", FTL_COL_INT },
		[C_FILE] = { "file", "file", FTL_COL_STR },
		[C_EVENT_LINES] = { "event_lines", "event lines", FTL_COL_INT },
	};
	g_autoptr(FtlTable) t = ftl_table_new("files", t_cols, G_N_ELEMENTS(t_cols));
	for (guint i = 0; i < s->outs->len; i++) {
		SplitOut *o = g_ptr_array_index(s->outs, i);
		if (!o)
			continue;
		ftl_table_begin_row(t);
		ftl_table_set_int(t, C_CPU, o->cpu);
		ftl_table_set_str(t, C_FILE, o->path);
		ftl_table_set_int(t, C_EVENT_LINES, (gint64)o->event_lines);
	}
	ftl_table_print(t, format, out, 0, style);
}

FtlSplit *ftl_split_new(const char *out_dir, gboolean force, const char *const *inputs)
{
	FtlSplit *s = g_new0(FtlSplit, 1);
	s->out_dir = g_strdup(out_dir);
	s->force = force;
	s->inputs = g_strdupv((char **)inputs);
	s->header = g_string_new(NULL);
	s->outs = g_ptr_array_new_with_free_func(split_out_free);
	s->made_dirs = g_ptr_array_new_with_free_func(g_free);
	s->line = g_string_new(NULL);
	s->notes = g_string_new(NULL);
	return s;
}

void ftl_split_free(FtlSplit *s)
{
	if (!s)
		return;
	if (!s->done)
		split_abort(s);
	g_string_free(s->header, TRUE);
	g_string_free(s->line, TRUE);
	g_string_free(s->notes, TRUE);
	g_ptr_array_unref(s->outs);
	g_ptr_array_unref(s->made_dirs);
	g_strfreev(s->inputs);
	g_free(s->out_dir);
	g_free(s->stage);
	g_free(s);
}

gboolean ftl_split_run(FtlSplit *s, FtlTrace *trace, const FtlFilter *filter, GError **error)
{
	guint n_text = 0, n = ftl_trace_n_sources(trace);
	for (guint i = 0; i < n; i++)
		if (g_strcmp0(ftl_trace_source(trace, i)->ops->name, "text") == 0)
			n_text++;
	if (n_text && n_text < n) {
		g_set_error(error, FTL_ERROR, FTL_ERROR_UNSUPPORTED,
			    "cannot split text and binary inputs together; split them one by one");
		return FALSE;
	}
	s->binary = n && n_text == 0;
	if (s->binary) {
		gint cpus = 0;
		for (guint i = 0; i < n; i++)
			cpus = MAX(cpus, ftl_trace_source(trace, i)->header_cpus);
		g_string_printf(s->header, "cpus=%d\n", cpus);
	} else if (n && g_file_test(ftl_trace_source(trace, 0)->path, G_FILE_TEST_EXISTS) &&
		   !split_read_header(ftl_trace_source(trace, 0)->path, s->header, error)) {
		return FALSE;
	} /* else a trace read from memory (a console log's ftrace dump) has no
	   * file to take the header from: its files start with the events */
	if (!split_plan_out_dir(s, error))
		return FALSE;
	g_autoptr(FtlIter) it = ftl_iter_new(trace, filter);
	const FtlEvent *ev;
	FtlStatus st;
	while ((st = ftl_iter_next(it, &ev, error)) == FTL_STATUS_OK) {
		/* A leaf line is an entry plus a synthesized exit with the same
		 * text: write the line once. */
		if (ev->flags & FTL_EVENT_F_SYNTH)
			continue;
		if (!split_write_event(s, ev, error))
			return FALSE;
	}
	if (st == FTL_STATUS_ERROR)
		return FALSE;
	return split_commit(s, error);
}

const GString *ftl_split_notes(const FtlSplit *s)
{
	return s->notes;
}
