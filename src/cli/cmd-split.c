/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `ftlens split --per-cpu`: options, then the per-CPU exporter (views/split.c). */
#include "config.h"

#include <string.h>

#include "cli/capture-view.h"
#include "cli/cli.h"
#include "util/error.h"
#include "views/info.h"
#include "views/split.h"

gboolean ftl_cmd_split(const FtlCommand *cmd, int argc, char **argv, GError **error)
{
	gboolean per_cpu = FALSE, force = FALSE;
	g_autofree char *out_dir = NULL;
	const GOptionEntry entries[] = {
		{ "per-cpu", 0, 0, G_OPTION_ARG_NONE, &per_cpu, "One file per CPU: DIR/cpuN/trace",
		  NULL },
		{ "output", 'o', 0, G_OPTION_ARG_FILENAME, &out_dir,
		  "Write into DIR (made if missing)", "DIR" },
		{ "force", 'f', 0, G_OPTION_ARG_NONE, &force, "Overwrite existing cpuN/trace files",
		  NULL },
		{ NULL },
	};
	g_auto(FtlCliGlobals) g = { 0 };
	if (!ftl_cli_parse(cmd, entries, &g, &argc, &argv, error))
		return FALSE;
	if (!per_cpu) {
		g_set_error(error, FTL_ERROR, FTL_ERROR_USAGE,
			    "split: say how to split: --per-cpu (the only way so far)");
		return FALSE;
	}
	if (!out_dir || !*out_dir) {
		g_set_error(error, FTL_ERROR, FTL_ERROR_USAGE,
			    "split: no output directory given (-o DIR)");
		return FALSE;
	}
	if (g_file_test(out_dir, G_FILE_TEST_EXISTS) && !g_file_test(out_dir, G_FILE_TEST_IS_DIR)) {
		g_set_error(error, FTL_ERROR, FTL_ERROR_USAGE, "split: -o '%s': not a directory",
			    out_dir);
		return FALSE;
	}
	for (int i = 1; i < argc; i++)
		if (strcmp(argv[i], "-") == 0) {
			g_set_error(error, FTL_ERROR, FTL_ERROR_USAGE,
				    "split: cannot split standard input (its header is read "
				    "twice); give a file");
			return FALSE;
		}
	if (!ftl_cli_setup(&g, cmd->inputs, argc, argv, error))
		return FALSE;
	if (!ftl_cli_check_related_first(&g, error))
		return FALSE;
	g_autoptr(FtlTrace) trace = ftl_cli_open_trace(&g, error);
	if (!trace)
		return FALSE;

	g_autoptr(FtlSplit) s = ftl_split_new(out_dir, force, (const char *const *)argv + 1);
	gboolean ran = ftl_split_run(s, trace, &g.filter, error);
	ftl_capture_view_notes(ftl_split_notes(s)); /* said whether the commit failed or not */
	if (!ran || !ftl_cli_finish(&g, trace, error))
		return FALSE;
	/* what was written, when asked: --verbose, or a format for it */
	if (g.format_given || g.verbose)
		ftl_split_print_summary(s, g.format, &g.style, stdout);
	/* Lines ftlens did not recognize were not copied: say so, as dump does. */
	if (ftl_diags_any(ftl_trace_diags(trace)))
		ftl_diags_print_text(stderr, ftl_trace_diags(trace));
	return TRUE;
}
