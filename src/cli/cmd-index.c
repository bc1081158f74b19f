/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `ftlens index`: builds (or checks) the sparse index of a text trace. */
#include "config.h"

#include <glib/gstdio.h>
#include <stdio.h>

#include "cli/cli.h"
#include "parse/index.h"
#include "parse/text.h"
#include "util/error.h"
#include "util/escape.h"

static void index_print(const char *input, const FtlIndex *idx, gboolean built)
{
	g_autofree char *cache = ftl_index_cache_path(input);
	GStatBuf st;
	guint64 bytes = g_stat(cache, &st) == 0 ? (guint64)st.st_size : 0;
	const FtlIndexEnd *end = ftl_index_end(idx);
	printf("Input:    ");
	ftl_escape_fputs(input, stdout);
	printf("\nIndex:    ");
	ftl_escape_fputs(cache, stdout);
	printf(" (%s, %" G_GUINT64_FORMAT " bytes)\n", built ? "built" : "fresh", bytes);
	printf("Size:     %" G_GUINT64_FORMAT " bytes, %" G_GUINT64_FORMAT " events\n",
	       ftl_index_key(idx)->size, end->stats.events);
	printf("Points:   %u, one every %u events\n", ftl_index_n_points(idx),
	       ftl_index_stride(idx));
	printf("Windows:  %s\n", end->flags & FTL_INDEX_END_TIMED
					 ? "seek (every event has a timestamp)"
					 : "read the whole file (some events have no timestamp)");
}

gboolean ftl_cmd_index(const FtlCommand *cmd, int argc, char **argv, GError **error)
{
	gint stride = FTL_INDEX_STRIDE;
	const GOptionEntry entries[] = {
		{ "stride", 0, 0, G_OPTION_ARG_INT, &stride,
		  "Events between restart points (default 4096)", "N" },
		{ NULL },
	};
	g_auto(FtlCliGlobals) g = { 0 };
	if (!ftl_cli_parse(cmd, entries, &g, &argc, &argv, error))
		return FALSE;
	if (argc != 2) {
		g_set_error(error, FTL_ERROR, FTL_ERROR_USAGE, "index: expected one FILE");
		return FALSE;
	}
	if (stride < 1 || stride > (1 << 20)) {
		g_set_error(error, FTL_ERROR, FTL_ERROR_USAGE, "index: --stride %d: expected 1 to %d",
			    stride, 1 << 20);
		return FALSE;
	}
	if (!ftl_cli_no_selection(&g, "index", error))
		return FALSE;
	if (g.no_index) {
		g_set_error(error, FTL_ERROR, FTL_ERROR_USAGE, "index: --no-index says not to");
		return FALSE;
	}
	g.build_index = (guint)stride;
	g.filter.t_start = g.filter.t_end = FTL_TS_NONE;
	if (!ftl_cli_setup(&g, cmd->inputs, argc, argv, error))
		return FALSE;
	g_autoptr(FtlTrace) trace = ftl_cli_open_trace(&g, error);
	if (!trace)
		return FALSE;
	FtlSource *src = ftl_trace_n_sources(trace) == 1 ? ftl_trace_source(trace, 0) : NULL;
	FtlIndexKey key;
	if (!src || !ftl_text_source_index_key(src, &key) || g.strict) {
		g_set_error(error, FTL_ERROR, FTL_ERROR_UNSUPPORTED,
			    "index: '%s': only a single uncompressed text trace has an index "
			    "(directories, trace.dat and compressed files are read whole)",
			    argv[1]);
		return FALSE;
	}
	g_autoptr(FtlIndex) fresh = ftl_index_load(src->path, &key, NULL);
	if (fresh) {
		index_print(src->path, fresh, FALSE);
		return TRUE;
	}
	g_autoptr(FtlIter) it = ftl_iter_new(trace, NULL);
	const FtlEvent *ev;
	FtlStatus st;
	while ((st = ftl_iter_next(it, &ev, error)) == FTL_STATUS_OK)
		;
	if (st == FTL_STATUS_ERROR)
		return FALSE;
	const GError *save_error = NULL;
	const FtlIndex *built = ftl_text_source_built(src, &save_error);
	if (save_error) {
		g_propagate_error(error, g_error_copy(save_error));
		g_prefix_error(error, "index: ");
		return FALSE;
	}
	if (!built) {
		g_set_error(error, FTL_ERROR, FTL_ERROR_IO, "index: '%s': the pass did not end",
			    argv[1]);
		return FALSE;
	}
	index_print(src->path, built, TRUE);
	return TRUE;
}
