/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Copies the formats, symbols, command lines and statistics that decoding
 * raw ring-buffer pages needs into a directory with the tracefs layout. */
#include "config.h"

#include "capture/snapshot.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "capture/tracefs.h"
#include "util/error.h"

/* Copies top/rel to dir/rel, creating the directories on the way. */
static gboolean snapshot_copy(const char *top, const char *rel, const char *dir, GError **error)
{
	g_autofree char *src = g_build_filename(top, rel, NULL);
	g_autofree char *dst = g_build_filename(dir, rel, NULL);
	g_autofree char *parent = g_path_get_dirname(dst);
	if (g_mkdir_with_parents(parent, 0755) != 0) {
		int e = errno;
		g_set_error(error, FTL_ERROR, FTL_ERROR_IO, "'%s': %s", parent, g_strerror(e));
		return FALSE;
	}
	return ftl_tracefs_copy(src, dst, error);
}

/* /proc/kallsyms shows zero addresses to readers kptr_restrict hides them
 * from; such a copy would only mislead a decoder. ftlens never changes
 * kptr_restrict (a capture leaves no trace of itself). */
static gboolean snapshot_kallsyms(const char *dir, GString *notes, GError **error)
{
	const char *src = "/proc/kallsyms";
	FILE *f = fopen(src, "r");
	if (!f) {
		g_string_append_printf(notes,
				       "%s is not readable: function names will be "
				       "missing\n",
				       src);
		return TRUE;
	}
	char line[512];
	gboolean any = FALSE;
	for (int i = 0; i < 64 && fgets(line, sizeof line, f); i++) {
		if (g_ascii_strtoull(line, NULL, 16) != 0) {
			any = TRUE;
			break;
		}
	}
	fclose(f);
	if (!any) {
		g_string_append_printf(notes,
				       "%s shows no addresses (kptr_restrict): function "
				       "names will be missing\n",
				       src);
		return TRUE;
	}
	g_autofree char *dst = g_build_filename(dir, "kallsyms", NULL);
	return ftl_tracefs_copy(src, dst, error);
}

gboolean ftl_snapshot_write_stats(const char *buffer_dir, guint n_cpus, const char *dir,
				  GError **error)
{
	for (guint i = 0; i < n_cpus; i++) {
		g_autofree char *rel = g_strdup_printf("per_cpu/cpu%u/stats", i);
		g_autofree char *dst = g_build_filename(dir, rel, NULL);
		unlink(dst);
		if (!snapshot_copy(buffer_dir, rel, dir, error))
			return FALSE;
	}
	return TRUE;
}

gboolean ftl_snapshot_write(const char *top_dir, const char *buffer_dir, const char *const *events,
			    guint n_cpus, const char *dir, GString *notes, GError **error)
{
	if (!snapshot_copy(top_dir, "events/header_page", dir, error) ||
	    !snapshot_copy(top_dir, "events/header_event", dir, error))
		return FALSE;
	/* Every format of the ftrace system: the tracers' entries (function, funcgraph_*),
	 * markers (print) and trace_printk (bprint, bputs) are among them. */
	g_autofree char *ftrace = g_build_filename(top_dir, "events", "ftrace", NULL);
	g_autoptr(GDir) d = g_dir_open(ftrace, 0, NULL);
	if (d) {
		for (const char *name; (name = g_dir_read_name(d));) {
			g_autofree char *rel =
				g_build_filename("events/ftrace", name, "format", NULL);
			g_autofree char *src = g_build_filename(top_dir, rel, NULL);
			if (g_file_test(src, G_FILE_TEST_EXISTS) &&
			    !snapshot_copy(top_dir, rel, dir, error))
				return FALSE;
		}
	}
	for (guint i = 0; events && events[i]; i++) {
		g_autofree char *rel = g_build_filename("events", events[i], "format", NULL);
		if (g_str_has_prefix(events[i], "ftrace/"))
			continue;
		if (!snapshot_copy(top_dir, rel, dir, error))
			return FALSE;
	}
	if (!snapshot_copy(top_dir, "printk_formats", dir, error) ||
	    !snapshot_copy(top_dir, "saved_cmdlines", dir, error))
		return FALSE;
	g_autofree char *tgids = g_build_filename(top_dir, "saved_tgids", NULL);
	if (g_file_test(tgids, G_FILE_TEST_EXISTS) &&
	    !snapshot_copy(top_dir, "saved_tgids", dir, error))
		return FALSE;
	if (!snapshot_copy(buffer_dir, "trace_clock", dir, error))
		return FALSE;
	if (!snapshot_kallsyms(dir, notes, error))
		return FALSE;
	return ftl_snapshot_write_stats(buffer_dir, n_cpus, dir, error);
}
