/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Preparing the top-level ftrace instance so that an oops dumps the ring
 * buffer to the console (ftrace_dump_on_oops), and putting it back. */
#pragma once

#include <glib.h>

/* What to set; NULL or 0 leaves a setting as it is. ftrace_dump_on_oops=1
 * and tracing_on=1 are always set. */
typedef struct {
	const char *tracer;	   /* current_tracer */
	const char *const *events; /* set_event, NULL-terminated: system, system:event,
				    * or event (a bare system name means all its events) */
	guint buffer_kb;	   /* buffer_size_kb, per CPU */
} FtlOopsArmPlan;

/* One setting as arm-oops found it and left it. */
typedef struct {
	char *name;   /* "ftrace_dump_on_oops", "buffer_size_kb", "current_tracer",
		       * "set_event" or "tracing_on" */
	char *before; /* values as the kernel shows them; set_event: one event a line */
	char *after;
} FtlOopsArmChange;

/* The state file: $FTLENS_STATE_DIR/arm-oops.state when the variable is set,
 * otherwise /run/ftlens/arm-oops.state. Free with g_free(). */
char *ftl_oops_arm_state_path(void);

/* The top-level tracefs directory (capture/tracefs.h finds it, mounting
 * tracefs when absent). Borrowed: lives for the process. */
const char *ftl_oops_arm_tracing_dir(GError **error);

/* Applies plan to tracing_dir (the top-level instance, the only buffer an
 * oops dump reads) and /proc/sys/kernel/ftrace_dump_on_oops, after saving
 * the previous values in state_path. Never touches ftrace_enabled. Returns
 * every setting of the plan in the order applied, with its values before and
 * after (FtlOopsArmChange; equal when the setting had the value already and
 * was left alone; free the array with g_ptr_array_unref). On error every setting is put back as it
 * was and the state file is removed; a tracer the kernel refuses is named in the error. */
GPtrArray *ftl_oops_arm(const char *tracing_dir, const FtlOopsArmPlan *plan, const char *state_path,
			GError **error);

/* Restores what ftl_oops_arm() saved in state_path, in reverse order, to
 * the files of tracing_dir and the sysctl (never to paths read from the
 * state file), and removes the file. Returns what it changed (before: the armed value, after:
 * the restored one). A state file from an earlier boot is removed without
 * touching anything (the reboot already reset those settings); *stale is
 * set then. On error the file is kept so that a later --disarm can retry. */
GPtrArray *ftl_oops_disarm(const char *tracing_dir, const char *state_path, gboolean *stale,
			   GError **error);
