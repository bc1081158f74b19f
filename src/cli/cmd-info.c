/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `ftlens info`: what a trace holds. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "analysis/counts.h"
#include "analysis/quality.h"
#include "cli/cli.h"
#include "util/error.h"
#include "views/info.h"
#include "views/table.h"

gboolean ftl_cmd_info(const FtlCommand *cmd, int argc, char **argv, GError **error)
{
	g_auto(FtlCliGlobals) g = { 0 };
	if (!ftl_cli_parse(cmd, NULL, &g, &argc, &argv, error))
		return FALSE;
	FtlFormat fmt = g.format;
	gboolean json = fmt == FTL_FORMAT_JSON;
	/* info shows no marker's caller (and decodes only its table entry's
	 * fields: no function, task name or payload) */
	g.open_flags |= FTL_OPEN_NO_CALLERS;
	if (!ftl_cli_setup(&g, cmd->inputs, argc, argv, error))
		return FALSE;
	if (!ftl_cli_check_related_first(&g, error))
		return FALSE;
	g_autoptr(FtlTrace) trace = ftl_cli_open_trace(&g, error);
	if (!trace)
		return FALSE;
	g_autoptr(FtlCounts) counts = ftl_counts_new();
	g_autoptr(FtlQuality) quality = ftl_quality_new(trace);
	g_autoptr(FtlIter) it = ftl_iter_new(trace, &g.filter);
	const FtlEvent *ev;
	FtlStatus st;
	while ((st = ftl_iter_next(it, &ev, error)) == FTL_STATUS_OK) {
		ftl_counts_feed(counts, ev);
		ftl_quality_feed(quality, ev);
	}
	if (st == FTL_STATUS_ERROR)
		return FALSE;
	ftl_counts_finish(counts);
	ftl_quality_finish(quality);
	if (fmt == FTL_FORMAT_CSV) {
		ftl_info_print_csv(stdout, trace, counts, quality);
	} else if (json) {
		g_autoptr(JsonNode) root = ftl_info_to_json(trace, counts, quality);
		ftl_json_print(root, stdout);
	} else {
		ftl_info_print_text(stdout, trace, counts, quality, &g.style);
	}
	/* what the trace holds is printed even when it is nothing */
	return ftl_cli_finish(&g, trace, error);
}
