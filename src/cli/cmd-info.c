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
#include "views/quality.h"
#include "views/table.h"

gboolean ftl_cmd_info(const FtlCommand *cmd, int argc, char **argv, GError **error)
{
	g_auto(FtlCliGlobals) g = { 0 };
	if (!ftl_cli_parse(cmd, NULL, &g, &argc, &argv, error))
		return FALSE;
	FtlFormat fmt = g.format;
	gboolean json = fmt == FTL_FORMAT_JSON;
	g.open_flags |= FTL_OPEN_NO_CALLERS; /* info shows no marker */
	if (!ftl_cli_setup(&g, cmd->inputs, argc, argv, error))
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
		ftl_info_print_csv(stdout, trace, counts);
	} else if (json) {
		g_autoptr(JsonNode) root = ftl_info_to_json(trace, counts);
		/* The quality view adds a member to an open builder object; move
		 * it over to info's object. */
		g_autoptr(JsonBuilder) qb = json_builder_new();
		json_builder_begin_object(qb);
		ftl_quality_add_json(quality, qb);
		json_builder_end_object(qb);
		g_autoptr(JsonNode) qroot = json_builder_get_root(qb);
		json_object_set_member(
			json_node_get_object(root), "quality",
			json_object_dup_member(json_node_get_object(qroot), "quality"));
		ftl_json_print(root, stdout);
	} else {
		ftl_info_print_text(stdout, trace, counts);
		fputc('\n', stdout);
		ftl_quality_print_text(quality, stdout);
	}
	/* what the trace holds is printed even when it is nothing */
	return ftl_cli_finish(&g, trace, error);
}
