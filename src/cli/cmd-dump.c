/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `ftlens dump`: one normalized line per event. */
#include "config.h"

#include <stdio.h>

#include "cli/cli.h"
#include "util/error.h"
#include "views/dump.h"
#include "views/info.h"

gboolean ftl_cmd_dump(const FtlCommand *cmd, int argc, char **argv, GError **error)
{
	gint64 limit = -1;
	gboolean us = FALSE;
	const GOptionEntry entries[] = {
		{ "limit", 'n', 0, G_OPTION_ARG_INT64, &limit, "Stop after N events", "N" },
		{ "us", 0, 0, G_OPTION_ARG_NONE, &us,
		  "Times in microseconds, rounded as trace-cmd report prints them (text only)",
		  NULL },
		{ NULL },
	};
	g_auto(FtlCliGlobals) g = { 0 };
	if (!ftl_cli_parse(cmd, entries, &g, &argc, &argv, error))
		return FALSE;
	if (us && g.format != FTL_FORMAT_TEXT) {
		g_set_error(error, FTL_ERROR, FTL_ERROR_USAGE,
			    "--us: CSV and JSON give the time in nanoseconds (ts_ns)");
		return FALSE;
	}
	if (!ftl_cli_setup(&g, cmd->inputs, argc, argv, error))
		return FALSE;
	if (!ftl_cli_check_related_first(&g, error))
		return FALSE;
	g_autoptr(FtlTrace) trace = ftl_cli_open_trace(&g, error);
	if (!trace)
		return FALSE;
	g_autoptr(FtlIter) it = ftl_iter_new(trace, &g.filter);
	g_autoptr(GString) buf = g_string_sized_new(1 << 17);
	ftl_dump_begin(buf, g.format, ftl_trace_label(trace));
	const FtlEvent *ev;
	FtlStatus st;
	gint64 n = 0;
	while ((limit < 0 || n < limit) && (st = ftl_iter_next(it, &ev, error)) == FTL_STATUS_OK) {
		if (us)
			ftl_dump_event_text(buf, ev, g.origin_ns, TRUE);
		else
			ftl_dump_event_as(buf, ev, g.origin_ns, g.format, n == 0);
		n++;
		if (buf->len >= (1 << 16)) {
			fwrite(buf->str, 1, buf->len, stdout);
			g_string_truncate(buf, 0);
		}
	}
	/* a document ends even when reading failed: the error says why it
	 * is short */
	ftl_dump_end(buf, g.format);
	fwrite(buf->str, 1, buf->len, stdout);
	if ((limit < 0 || n < limit) && st == FTL_STATUS_ERROR)
		return FALSE;
	if (ftl_diags_any(ftl_trace_diags(trace)))
		ftl_diags_print_text(stderr, ftl_trace_diags(trace));
	return ftl_cli_finish(&g, trace, error);
}
