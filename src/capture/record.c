/* SPDX-License-Identifier: GPL-2.0-or-later */
/* ftlens record: set up a buffer, run the command, read the raw pages while
 * tracing runs, put tracefs back, then write the output. */
#include "config.h"

#include "capture/record.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "capture/child.h"
#include "capture/cpubuf.h"
#include "capture/signals.h"
#include "capture/snapshot.h"
#include "capture/tracedat-write.h"
#include "util/error.h"
#include "util/output.h"

void ftl_record_result_clear(FtlRecordResult *r)
{
	g_clear_pointer(&r->buffer, g_free);
	g_clear_pointer(&r->bytes, g_free);
	g_clear_pointer(&r->stats, g_free);
	if (r->notes)
		g_string_free(r->notes, TRUE);
	r->notes = NULL;
}

double ftl_record_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

char *ftl_record_uname(void)
{
	struct utsname u;
	if (uname(&u) != 0)
		return NULL;
	return g_strdup_printf("%s %s %s %s", u.sysname, u.nodename, u.release, u.machine);
}

char *ftl_record_build_id(void)
{
	/* /sys/kernel/notes: the kernel's ELF notes, each a header of three
	 * 32-bit words (name size, descriptor size, type), the name and the
	 * descriptor, both padded to 4 bytes; NT_GNU_BUILD_ID (3) of "GNU" */
	g_autofree char *data = NULL;
	gsize len = 0;
	if (!g_file_get_contents("/sys/kernel/notes", &data, &len, NULL))
		return NULL;
	for (gsize at = 0; len - at >= 12;) {
		guint32 h[3];
		memcpy(h, data + at, sizeof h);
		gsize name = ((gsize)h[0] + 3) & ~(gsize)3, desc = ((gsize)h[1] + 3) & ~(gsize)3;
		at += 12;
		if (name > len - at || desc > len - at - name)
			return NULL;
		if (h[2] == 3 && h[0] == 4 && !memcmp(data + at, "GNU", 4) && h[1] > 0 &&
		    h[1] <= 64) {
			GString *hex = g_string_sized_new(2 * h[1]);
			for (guint32 i = 0; i < h[1]; i++)
				g_string_append_printf(hex, "%02x",
						       (unsigned char)data[at + name + i]);
			return g_string_free(hex, FALSE);
		}
		at += name + desc;
	}
	return NULL;
}

/* The running kernel's uname and build id beside the pages of a raw
 * directory, so that its reader finds and checks the debug info. */
static gboolean record_write_kernel(const char *dir, GError **error)
{
	g_autofree char *uname = ftl_record_uname();
	g_autofree char *id = ftl_record_build_id();
	const char *names[] = { "uname", "build_id" };
	const char *texts[] = { uname, id };
	for (guint i = 0; i < G_N_ELEMENTS(names); i++) {
		if (!texts[i])
			continue;
		g_autofree char *path = g_build_filename(dir, names[i], NULL);
		g_autofree char *line = g_strconcat(texts[i], "\n", NULL);
		if (!g_file_set_contents(path, line, -1, error))
			return FALSE;
	}
	return TRUE;
}

FtlCpuStats *ftl_record_read_stats(const char *buffer_dir, guint n_cpus)
{
	FtlCpuStats *st = g_new0(FtlCpuStats, n_cpus);
	for (guint i = 0; i < n_cpus; i++) {
		g_autofree char *p = g_strdup_printf("%s/per_cpu/cpu%u/stats", buffer_dir, i);
		g_autofree char *text = ftl_tracefs_read(p, NULL);
		if (text)
			ftl_cpustats_parse(text, &st[i]);
	}
	return st;
}

/* --raw-dir must not clobber anything: a missing or empty directory only. */
static gboolean record_check_raw_dir(const char *dir, GError **error)
{
	if (!g_file_test(dir, G_FILE_TEST_EXISTS))
		return TRUE;
	g_autoptr(GDir) d = g_dir_open(dir, 0, NULL);
	if (!d || g_dir_read_name(d)) {
		g_set_error(error, FTL_ERROR, FTL_ERROR_USAGE,
			    "--raw-dir '%s': exists and is not an empty directory", dir);
		return FALSE;
	}
	return TRUE;
}

static gboolean record_is_function_tracer(const char *tracer)
{
	return tracer && (strcmp(tracer, "function") == 0 || strcmp(tracer, "function_graph") == 0);
}

/* --pid-filter or -P: events (and function tracing) of one process and its
 * children only. */
static gboolean record_pid_filter(FtlBuffer *b, const FtlRecordOptions *o, pid_t pid,
				  GError **error)
{
	g_autofree char *p = g_strdup_printf("%d", (int)pid);
	if (!ftl_buffer_set(b, "set_event_pid", p, FTL_SAVE_LINES, error) ||
	    !ftl_buffer_set(b, "options/event-fork", "1", FTL_SAVE_VALUE, error))
		return FALSE;
	if (record_is_function_tracer(o->cfg.tracer)) {
		if (!ftl_buffer_set(b, "set_ftrace_pid", p, FTL_SAVE_LINES, error))
			return FALSE;
		g_autofree char *ff =
			g_build_filename(ftl_buffer_dir(b), "options/function-fork", NULL);
		if (g_file_test(ff, G_FILE_TEST_EXISTS) &&
		    !ftl_buffer_set(b, "options/function-fork", "1", FTL_SAVE_VALUE, error))
			return FALSE;
	}
	return TRUE;
}

/* Picks the buffer: the private instance unless the kernel's instances lack
 * what was asked (function_graph before 6.12, set_graph_function...), then
 * the top-level buffer, whose settings are put back afterwards. */
static FtlBuffer *record_buffer(const FtlRecordOptions *o, const char *tracefs, GString *notes,
				GError **error)
{
	if (o->top)
		return ftl_buffer_new_top(tracefs);
	g_autoptr(FtlBuffer) b = ftl_buffer_new_instance(tracefs, o->instance, error);
	if (!b)
		return NULL;
	g_autofree char *why = NULL;
	if (ftl_buffer_supports(b, &o->cfg, &why))
		return g_steal_pointer(&b);
	if (o->instance) {
		g_set_error(error, FTL_ERROR, FTL_ERROR_USAGE, "--instance %s: %s", o->instance,
			    why);
		return NULL;
	}
	if (!ftl_buffer_release(b, error))
		return NULL;
	g_autoptr(FtlBuffer) top = ftl_buffer_new_top(tracefs);
	g_autofree char *why_top = NULL;
	if (!ftl_buffer_supports(top, &o->cfg, &why_top)) {
		g_set_error(error, FTL_ERROR, FTL_ERROR_USAGE, "%s", why_top);
		return NULL;
	}
	g_string_append_printf(notes,
			       "%s: recording the top-level buffer instead (its settings are put "
			       "back afterwards)\n",
			       why);
	return g_steal_pointer(&top);
}

/* Reads the pages while tracing runs, until a signal, the command's exit
 * or the duration ends it. FALSE on a read error. */
static gboolean record_loop(const FtlRecordOptions *o, FtlChild *child, FtlCpuBuf *cpus,
			    double t0, FtlRecordResult *r, GError **error)
{
	for (;;) {
		if (ftl_signals_count()) {
			r->interrupted = TRUE;
			return TRUE;
		}
		if (child && ftl_child_exited(child))
			return TRUE;
		/* Short with a command: its exit ends the recording. */
		int timeout = child ? 50 : 100;
		if (o->duration > 0) {
			double left = o->duration - (ftl_record_now() - t0);
			if (left <= 0)
				return TRUE;
			timeout = (int)MIN(timeout, left * 1000 + 1);
		}
		if (!ftl_cpubuf_poll(cpus, timeout, error))
			return FALSE;
	}
}

/* Configure, trace, read, stop: everything that needs the buffer. */
static gboolean record_capture(const FtlRecordOptions *o, FtlBuffer *b, const char *staging,
			       FtlRecordResult *r, GError **error)
{
	const char *tracefs = ftl_buffer_tracefs(b);
	const char *dir = ftl_buffer_dir(b);
	if (!ftl_buffer_configure(b, &o->cfg, error))
		return FALSE;
	r->page_size = ftl_cpubuf_page_size(tracefs, error);
	if (!r->page_size)
		return FALSE;
	g_autoptr(FtlCpuBuf) cpus = ftl_cpubuf_open(dir, staging, r->page_size, error);
	if (!cpus || !ftl_buffer_clear(b, error))
		return FALSE;
	r->n_cpus = ftl_cpubuf_n_cpus(cpus);

	g_autoptr(FtlChild) child = NULL;
	if (o->argv) {
		g_auto(GStrv) env = ftl_child_env(tracefs, dir);
		child = ftl_child_spawn(o->argv, env, error);
		if (!child)
			return FALSE;
		if (o->pid_filter && !record_pid_filter(b, o, ftl_child_pid(child), error))
			return FALSE;
	}
	if (o->pid > 0 && !record_pid_filter(b, o, o->pid, error))
		return FALSE;
	if (ftl_signals_count()) {
		g_set_error(error, FTL_ERROR, FTL_ERROR_IO,
			    "interrupted before tracing started: nothing recorded");
		return FALSE;
	}
	if (!ftl_buffer_tracing_on(b, TRUE, error))
		return FALSE;
	double t0 = ftl_record_now();
	if (child && !ftl_child_release(child, error)) {
		ftl_buffer_tracing_on(b, FALSE, NULL);
		return FALSE;
	}
	gboolean ok = record_loop(o, child, cpus, t0, r, error);
	r->seconds = ftl_record_now() - t0;
	/* Off first, then read what is left: nothing is written meanwhile. */
	if (!ftl_buffer_tracing_on(b, FALSE, ok ? error : NULL))
		ok = FALSE;
	if (ok && !ftl_cpubuf_drain(cpus, error))
		ok = FALSE;
	/* The pages go to a hidden staging directory: the error names the
	 * output the user asked for as well (a full disk, mostly). */
	if (!ok && error && *error)
		g_prefix_error(error, "'%s' not written: ", o->raw_dir ? o->raw_dir : o->output);
	if (child) {
		int sig = ftl_signals_last() ? ftl_signals_last() : SIGTERM;
		ftl_child_stop(child, sig, 2000);
		r->child_status = ftl_child_status(child);
	}
	if (!ftl_cpubuf_close(cpus, ok ? error : NULL))
		ok = FALSE;
	if (!ok)
		return FALSE;
	r->bytes = g_new0(guint64, r->n_cpus);
	for (guint i = 0; i < r->n_cpus; i++)
		r->bytes[i] = ftl_cpubuf_bytes(cpus, i);
	r->stats = ftl_record_read_stats(dir, r->n_cpus);
	return ftl_snapshot_write(tracefs, dir, ftl_buffer_events(b), r->n_cpus, staging, r->notes,
				  error);
}

static gboolean record_write(const FtlRecordOptions *o, FtlBuffer *b, const char *staging,
			     GError **error)
{
	if (o->raw_dir) {
		if (!record_write_kernel(staging, error))
			return FALSE;
		/* rename() replaces an empty directory, refuses a full one. */
		if (g_rename(staging, o->raw_dir) != 0) {
			int e = errno;
			g_set_error(error, FTL_ERROR, FTL_ERROR_IO, "--raw-dir '%s': %s",
				    o->raw_dir, g_strerror(e));
			return FALSE;
		}
		return TRUE;
	}
	g_autofree char *uname = ftl_record_uname();
	/* A name the user chose is kept, as trace-cmd record -B NAME keeps it;
	 * the private instance only stands in for the top-level buffer. */
	FtlTracedatWriteOptions wo = { o->instance ? ftl_buffer_name(b) : NULL, uname };
	return ftl_tracedat_write(staging, o->output, &wo, error);
}

static gboolean record_run(const FtlRecordOptions *o, const char *tracefs, FtlRecordResult *r,
			   GError **error)
{
	const char *out = o->raw_dir ? o->raw_dir : o->output;
	g_autofree char *staging = ftl_output_staging_new(out, error);
	if (!staging)
		return FALSE;
	g_autoptr(FtlBuffer) b = record_buffer(o, tracefs, r->notes, error);
	if (!b) {
		ftl_output_staging_remove(staging);
		return FALSE;
	}
	r->buffer = ftl_buffer_name(b) ? g_strdup_printf("instance %s", ftl_buffer_name(b))
				       : g_strdup("top-level buffer");
	gboolean ok = record_capture(o, b, staging, r, error);
	/* tracefs is put back before the output is written: a slow disk or a
	 * failed write never leaves the instance or a changed setting behind. */
	ok = ftl_buffer_finish(b, ok, r->notes, error);
	if (ok && ftl_signals_count() > 1) {
		g_set_error(error, FTL_ERROR, FTL_ERROR_IO,
			    "interrupted twice: stopped without writing '%s'", out);
		ok = FALSE;
	}
	if (ok)
		ok = record_write(o, b, staging, error);
	if (!ok || !o->raw_dir)
		ftl_output_staging_remove(staging);
	return ok;
}

gboolean ftl_record_run(const FtlRecordOptions *o, FtlRecordResult *r, GError **error)
{
	memset(r, 0, sizeof *r);
	r->child_status = -1;
	r->notes = g_string_new(NULL);
	if (o->raw_dir && !record_check_raw_dir(o->raw_dir, error))
		return FALSE;
	const char *tracefs = ftl_tracefs_dir(error);
	if (!tracefs)
		return FALSE;
	ftl_signals_install();
	gboolean ok = record_run(o, tracefs, r, error);
	ftl_signals_restore();
	return ok;
}
