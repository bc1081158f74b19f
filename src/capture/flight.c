/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The flight recorder: arm the top-level buffer, wait for tracing_on to drop,
 * save the buffer as OUT.hitK.dat, re-arm. */
#include "config.h"

#include "capture/flight.h"

#include <errno.h>
#include <signal.h>
#include <string.h>

#include "capture/child.h"
#include "capture/cpubuf.h"
#include "capture/record.h"
#include "capture/signals.h"
#include "capture/snapshot.h"
#include "capture/tracedat-write.h"
#include "util/error.h"
#include "util/output.h"

/* tracing_on has no poll() support in the kernels this targets: read it. */
#define FLIGHT_POLL_MS 20

void ftl_flight_result_clear(FtlFlightResult *r)
{
	g_clear_pointer(&r->files, g_ptr_array_unref);
	if (r->notes)
		g_string_free(r->notes, TRUE);
	r->notes = NULL;
}

char *ftl_flight_hit_path(const char *output, guint k)
{
	gsize n = strlen(output);
	if (n > 4 && strcmp(output + n - 4, ".dat") == 0)
		n -= 4;
	return g_strdup_printf("%.*s.hit%u.dat", (int)n, output, k);
}

/* Installs "traceoff [if FILTER]" on SYSTEM:EVENT (or EVENT of any system),
 * removed again when the buffer is released. */
static gboolean flight_trigger(FtlBuffer *b, const char *spec, GError **error)
{
	g_auto(GStrv) parts = g_strsplit(spec, ":", 3);
	const char *tracefs = ftl_buffer_tracefs(b);
	g_autofree char *sys = NULL, *ev = NULL;
	const char *filter = NULL;
	if (parts[0] && parts[1]) {
		sys = g_strdup(parts[0]);
		ev = g_strdup(parts[1]);
		filter = parts[2];
	} else {
		/* A bare event name: find its system. */
		g_autofree char *events = g_build_filename(tracefs, "events", NULL);
		g_autoptr(GDir) d = g_dir_open(events, 0, NULL);
		for (const char *s; d && (s = g_dir_read_name(d));) {
			g_autofree char *f = g_build_filename(events, s, spec, "trigger", NULL);
			if (g_file_test(f, G_FILE_TEST_EXISTS)) {
				sys = g_strdup(s);
				ev = g_strdup(spec);
				break;
			}
		}
	}
	g_autofree char *rel = sys ? g_build_filename("events", sys, ev, "trigger", NULL) : NULL;
	g_autofree char *path = rel ? g_build_filename(tracefs, rel, NULL) : NULL;
	if (!path || !g_file_test(path, G_FILE_TEST_EXISTS)) {
		g_set_error(error, FTL_ERROR, FTL_ERROR_USAGE,
			    "--stop-on '%s': no such event (expected SYSTEM:EVENT[:FILTER]; see "
			    "%s/available_events)",
			    spec, tracefs);
		return FALSE;
	}
	g_autofree char *cur = ftl_tracefs_read(path, error);
	if (!cur)
		return FALSE;
	g_auto(GStrv) lines = g_strsplit(cur, "\n", -1);
	for (char **l = lines; *l; l++) {
		if (**l != '#' && g_str_has_prefix(*l, "traceoff")) {
			/* Only one traceoff trigger per event; removing someone
			 * else's would change what they set up. */
			g_set_error(error, FTL_ERROR, FTL_ERROR_USAGE,
				    "--stop-on '%s': '%s' already has a trigger '%s'", spec, path,
				    *l);
			return FALSE;
		}
	}
	g_autofree char *value = filter && *filter ? g_strdup_printf("traceoff if %s", filter)
						   : g_strdup("traceoff");
	int e = ftl_tracefs_write_errno(path, value, TRUE);
	if (e) {
		g_set_error(error, FTL_ERROR, e == EINVAL ? FTL_ERROR_USAGE : FTL_ERROR_IO,
			    "--stop-on '%s': the kernel refused '%s' in '%s': %s", spec, value,
			    path, g_strerror(e));
		return FALSE;
	}
	ftl_buffer_add_undo(b, rel, "!traceoff");
	return TRUE;
}

/* Reads the stopped buffer out and writes it as path. */
static gboolean flight_save(FtlBuffer *b, guint page_size, const char *path, GString *notes,
			    GError **error)
{
	const char *tracefs = ftl_buffer_tracefs(b);
	g_autofree char *staging = ftl_output_staging_new(path, error);
	if (!staging)
		return FALSE;
	gboolean ok = FALSE;
	g_autoptr(FtlCpuBuf) cpus = ftl_cpubuf_open(tracefs, staging, page_size, error);
	if (cpus && ftl_cpubuf_drain(cpus, error) && ftl_cpubuf_close(cpus, error)) {
		guint n = ftl_cpubuf_n_cpus(cpus);
		g_autofree char *uname = ftl_record_uname();
		FtlTracedatWriteOptions wo = { NULL, uname };
		ok = ftl_snapshot_write(tracefs, tracefs, ftl_buffer_events(b), n, staging, notes,
					error) &&
		     ftl_tracedat_write(staging, path, &wo, error);
	}
	ftl_output_staging_remove(staging);
	return ok;
}

typedef enum { FLIGHT_HIT, FLIGHT_END, FLIGHT_ERROR } FlightWait;

static FlightWait flight_wait(FtlBuffer *b, FtlChild *child, double t_end, FtlFlightResult *r,
			      GError **error)
{
	for (;;) {
		int on = ftl_buffer_is_on(b);
		if (on == 0)
			return FLIGHT_HIT;
		if (on < 0) {
			g_set_error(error, FTL_ERROR, FTL_ERROR_IO,
				    "'%s/tracing_on': cannot read it", ftl_buffer_dir(b));
			return FLIGHT_ERROR;
		}
		if (ftl_signals_count()) {
			r->interrupted = TRUE;
			return FLIGHT_END;
		}
		if (child && ftl_child_exited(child))
			return ftl_buffer_is_on(b) == 0 ? FLIGHT_HIT : FLIGHT_END;
		if (t_end > 0 && ftl_record_now() >= t_end)
			return FLIGHT_END;
		ftl_signals_sleep(FLIGHT_POLL_MS);
	}
}

static gboolean flight_loop(const FtlFlightOptions *o, FtlBuffer *b, FtlFlightResult *r,
			    GError **error)
{
	FtlBufferConfig cfg = o->cfg;
	cfg.overwrite = 1;
	if (!ftl_buffer_configure(b, &cfg, error))
		return FALSE;
	if (o->stop_on && !flight_trigger(b, o->stop_on, error))
		return FALSE;
	guint page_size = ftl_cpubuf_page_size(ftl_buffer_tracefs(b), error);
	if (!page_size)
		return FALSE;
	g_autoptr(FtlChild) child = NULL;
	if (o->argv) {
		g_auto(GStrv) env = ftl_child_env(ftl_buffer_tracefs(b), ftl_buffer_dir(b));
		child = ftl_child_spawn(o->argv, env, error);
		if (!child)
			return FALSE;
	}
	double t_end = o->duration > 0 ? ftl_record_now() + o->duration : 0;
	gboolean ok = TRUE;
	for (guint k = 1; k <= o->hits && ok; k++) {
		if (!ftl_buffer_clear(b, error) || !ftl_buffer_tracing_on(b, TRUE, error)) {
			ok = FALSE;
			break;
		}
		if (k == 1 && child && !ftl_child_release(child, error)) {
			ok = FALSE;
			break;
		}
		FlightWait w = flight_wait(b, child, t_end, r, error);
		if (w == FLIGHT_ERROR)
			ok = FALSE;
		if (w != FLIGHT_HIT)
			break;
		g_autofree char *path = ftl_flight_hit_path(o->output, k);
		if (!flight_save(b, page_size, path, r->notes, error)) {
			ok = FALSE;
			break;
		}
		g_ptr_array_add(r->files, g_steal_pointer(&path));
	}
	if (!ftl_buffer_tracing_on(b, FALSE, ok ? error : NULL))
		ok = FALSE;
	if (child) {
		ftl_child_stop(child, ftl_signals_last() ? ftl_signals_last() : SIGTERM, 2000);
		r->child_status = ftl_child_status(child);
	}
	return ok;
}

gboolean ftl_flight_run(const FtlFlightOptions *o, FtlFlightResult *r, GError **error)
{
	memset(r, 0, sizeof *r);
	r->files = g_ptr_array_new_with_free_func(g_free);
	r->notes = g_string_new(NULL);
	r->child_status = -1;
	const char *tracefs = ftl_tracefs_dir(error);
	if (!tracefs)
		return FALSE;
	ftl_signals_install();
	g_autoptr(FtlBuffer) b = ftl_buffer_new_top(tracefs);
	gboolean ok = flight_loop(o, b, r, error);
	ok = ftl_buffer_finish(b, ok, r->notes, error);
	ftl_signals_restore();
	return ok;
}
