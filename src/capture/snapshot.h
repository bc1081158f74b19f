/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What decoding raw ring-buffer pages needs, copied from tracefs into a
 * directory with the tracefs layout (the --raw-dir format, and the staging
 * area the trace.dat writer reads). */
#pragma once

#include <glib.h>

/* Copies into dir: events/header_page, events/header_event, the format of
 * every event of the ftrace system and of each "system/event" in events, printk_formats,
 * saved_cmdlines, saved_tgids (when present), buffer_dir's trace_clock,
 * /proc/kallsyms (when readable and not all-zero addresses: a note goes to
 * *notes otherwise) and per_cpu/cpuN/stats of buffer_dir's n_cpus CPUs.
 * top_dir is the tracefs directory; buffer_dir the recorded buffer's (the
 * same for the top-level buffer). */
gboolean ftl_snapshot_write(const char *top_dir, const char *buffer_dir, const char *const *events,
			    guint n_cpus, const char *dir, GString *notes, GError **error);
/* Copies only per_cpu/cpuN/stats (they change until the end). */
gboolean ftl_snapshot_write_stats(const char *buffer_dir, guint n_cpus, const char *dir,
				  GError **error);
