/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Stack tracer snapshots: enable it, read stack_max_size often, copy
 * stack_trace whenever the maximum grew, put the switch back. */
#include "config.h"

#include "capture/stack.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "capture/child.h"
#include "capture/record.h"
#include "capture/signals.h"
#include "capture/tracefs.h"
#include "util/error.h"
#include "util/output.h"
#include "util/scan.h"

#define STACK_POLL_MS 20
#define STACK_ENABLED "/proc/sys/kernel/stack_tracer_enabled"

void ftl_stack_result_clear(FtlStackResult *r)
{
	if (r->notes)
		g_string_free(r->notes, TRUE);
	r->notes = NULL;
}

static guint64 stack_read_max(const char *path)
{
	g_autofree char *v = ftl_tracefs_read(path, NULL);
	guint64 n;
	return v && ftl_scan_u64_str(v, 10, &n) ? n : 0;
}

typedef struct {
	FILE *f;
	const char *tracefs;
	guint64 last;
	FtlStackResult *r;
} StackSeries;

/* Appends a snapshot when the maximum grew since the last one. */
static gboolean stack_check(StackSeries *s, GError **error)
{
	g_autofree char *max_path = g_build_filename(s->tracefs, "stack_max_size", NULL);
	guint64 max = stack_read_max(max_path);
	if (max <= s->last)
		return TRUE;
	g_autofree char *trace_path = g_build_filename(s->tracefs, "stack_trace", NULL);
	g_autofree char *table = ftl_tracefs_read(trace_path, error);
	if (!table)
		return FALSE;
	double t = ftl_record_now();
	s->r->snapshots++;
	fprintf(s->f, "# snapshot %u time=%.6f max_size=%" G_GUINT64_FORMAT "\n", s->r->snapshots,
		t, max);
	fputs(table, s->f);
	if (*table && table[strlen(table) - 1] != '\n')
		fputc('\n', s->f);
	s->last = max;
	s->r->max_size = max;
	return TRUE;
}

static gboolean stack_loop(const FtlStackOptions *o, const char *tracefs, StackSeries *s,
			   FtlTracefsSave *save, const char *enabled, GError **error)
{
	if (o->reset) {
		g_autofree char *max_path = g_build_filename(tracefs, "stack_max_size", NULL);
		if (!ftl_tracefs_write(max_path, "0", FALSE, error))
			return FALSE;
	}
	if (!ftl_tracefs_save_file(save, enabled, FTL_SAVE_VALUE, error) ||
	    !ftl_tracefs_write(enabled, "1", FALSE, error))
		return FALSE;
	g_autoptr(FtlChild) child = NULL;
	if (o->argv) {
		g_auto(GStrv) env = ftl_child_env(tracefs, tracefs);
		child = ftl_child_spawn(o->argv, env, error);
		if (!child || !ftl_child_release(child, error))
			return FALSE;
	}
	double t_end = o->duration > 0 ? ftl_record_now() + o->duration : 0;
	gboolean ok = TRUE;
	for (;;) {
		if (!stack_check(s, error)) {
			ok = FALSE;
			break;
		}
		if (ftl_signals_count()) {
			s->r->interrupted = TRUE;
			break;
		}
		if (child && ftl_child_exited(child))
			break;
		if (t_end > 0 && ftl_record_now() >= t_end)
			break;
		ftl_signals_sleep(STACK_POLL_MS);
	}
	/* The last growth, if it came between two reads. */
	if (ok && !stack_check(s, error))
		ok = FALSE;
	if (child) {
		ftl_child_stop(child, ftl_signals_last() ? ftl_signals_last() : SIGTERM, 2000);
		s->r->child_status = ftl_child_status(child);
	}
	return ok;
}

gboolean ftl_stack_run(const FtlStackOptions *o, FtlStackResult *r, GError **error)
{
	memset(r, 0, sizeof *r);
	r->child_status = -1;
	r->notes = g_string_new(NULL);
	const char *enabled = STACK_ENABLED;
	const char *tracefs = ftl_tracefs_dir(error);
	if (!tracefs)
		return FALSE;
	g_autofree char *table = g_build_filename(tracefs, "stack_trace", NULL);
	if (access(enabled, F_OK) != 0 || access(table, F_OK) != 0) {
		g_set_error(error, FTL_ERROR, FTL_ERROR_UNSUPPORTED,
			    "this kernel has no stack tracer ('%s' missing): it needs "
			    "CONFIG_STACK_TRACER",
			    access(enabled, F_OK) != 0 ? enabled : table);
		return FALSE;
	}
	g_autofree char *fe = ftl_tracefs_read("/proc/sys/kernel/ftrace_enabled", NULL);
	if (fe && fe[0] == '0')
		g_string_append(r->notes, "/proc/sys/kernel/ftrace_enabled is 0: the stack tracer "
					  "sees no calls (ftlens never changes that switch)\n");
	struct utsname u;
	const char *release = uname(&u) == 0 ? u.release : "unknown";
	g_autoptr(FtlOutput) out = ftl_output_open(o->output, NULL, error);
	if (!out)
		return FALSE;
	StackSeries s = { ftl_output_stream(out), tracefs, 0, r };
	fprintf(s.f, "# ftlens-stack-series v1 kernel=%s clock=monotonic\n", release);
	g_autoptr(FtlTracefsSave) save = ftl_tracefs_save_new();
	ftl_signals_install();
	gboolean ok = stack_loop(o, tracefs, &s, save, enabled, error);
	g_autoptr(GError) rel = NULL;
	if (!ftl_tracefs_save_restore(save, &rel)) {
		if (ok)
			g_propagate_error(error, g_steal_pointer(&rel));
		ok = FALSE;
	}
	ftl_signals_restore();
	if (ok && ftl_signals_count() > 1) {
		g_set_error(error, FTL_ERROR, FTL_ERROR_IO,
			    "interrupted twice: stopped without writing '%s'", o->output);
		ok = FALSE;
	}
	return ok && ftl_output_commit(out, error);
}
