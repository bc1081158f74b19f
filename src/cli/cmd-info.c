/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `ftlens info`: what a trace holds. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "analysis/counts.h"
#include "cli/cli.h"
#include "util/error.h"
#include "views/info.h"

gboolean ftl_cmd_info(int argc, char **argv, GError **error)
{
	g_autofree char *format = NULL;
	gboolean json = FALSE;
	const GOptionEntry entries[] = {
		{"format", 'F', 0, G_OPTION_ARG_STRING, &format, "Output format: text or json",
		 "FMT"},
		{"json", 0, 0, G_OPTION_ARG_NONE, &json, "Same as --format json", NULL},
		{NULL},
	};
	g_auto(FtlCliGlobals) g = {0};
	if (!ftl_cli_parse(ftl_cli_find("info"), entries, &g, &argc, &argv, error))
		return FALSE;
	if (format && strcmp(format, "json") == 0)
		json = TRUE;
	else if (format && strcmp(format, "text") != 0) {
		g_set_error(error, FTL_ERROR, FTL_ERROR_USAGE,
			    "info: --format '%s': expected text or json", format);
		return FALSE;
	}
	g_autoptr(FtlTrace) trace = ftl_cli_open_trace(&g, argc, argv, error);
	if (!trace)
		return FALSE;
	g_autoptr(FtlCounts) counts = ftl_counts_new();
	g_autoptr(FtlIter) it = ftl_iter_new(trace, &g.filter);
	const FtlEvent *ev;
	FtlStatus st;
	while ((st = ftl_iter_next(it, &ev, error)) == FTL_STATUS_OK)
		ftl_counts_feed(counts, ev);
	if (st == FTL_STATUS_ERROR)
		return FALSE;
	ftl_counts_finish(counts);
	if (json) {
		g_autoptr(JsonNode) root = ftl_info_to_json(trace, counts);
		g_autoptr(JsonGenerator) gen = json_generator_new();
		json_generator_set_pretty(gen, TRUE);
		json_generator_set_root(gen, root);
		g_autofree char *text = json_generator_to_data(gen, NULL);
		fputs(text, stdout);
		fputc('\n', stdout);
	} else {
		ftl_info_print_text(stdout, trace, counts);
	}
	return TRUE;
}
