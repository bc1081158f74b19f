/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Times the Graph panel's fold and unfold of a whole call tree with the
 * redraw, through the plain-text canvas: bench/tui.sh's in-process figure
 * beside the one it takes through tmux (which includes tmux's latency).
 *   tui-fold TRACE [RUNS]
 * Prints the tree's node count, then per run the milliseconds of each
 * step: a key handled and the screen drawn, as the loop does. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parse/open.h"
#include "views/tui/app.h"
#include "views/tui/canvas.h"
#include "views/tui/input.h"
#include "views/tui/tree.h"

static FtlTrace *bench_open(gpointer data, FtlOpenFlags flags, GError **error)
{
	return ftl_trace_open(data, flags, error);
}

/* Types script and draws: the milliseconds it took. */
static double bench_keys(FtlTuiApp *app, FtlTuiCanvas *c, const char *script)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(GArray) keys = ftl_tui_keys_parse(script, &error);
	if (!keys) {
		fprintf(stderr, "tui-fold: %s\n", error->message);
		exit(2);
	}
	gint64 t0 = g_get_monotonic_time();
	for (guint i = 0; i < keys->len; i++) {
		FtlTuiInput in = { g_array_index(keys, gint, i), 0, 0 };
		ftl_tui_app_key(app, &in);
		ftl_tui_app_draw(app, c);
	}
	return (double)(g_get_monotonic_time() - t0) / 1000.0;
}

/* Whether the screen shows unfolded levels: guides side by side. */
static gboolean bench_nested(FtlTuiCanvas *c)
{
	g_autofree char *screen = ftl_tui_canvas_text_dump(c);
	return strstr(screen, "\u2502 \u2502 ") != NULL;
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: tui-fold TRACE [RUNS]\n");
		return 2;
	}
	int runs = argc > 2 ? atoi(argv[2]) : 5;
	g_autoptr(GError) error = NULL;
	FtlTuiOptions opt = { .label = argv[1], .open = bench_open, .open_data = argv[1] };
	opt.oops_cpu = -1;
	opt.utf8 = TRUE;
	opt.first = bench_open(argv[1], FTL_OPEN_BROWSE, &error);
	if (!opt.first) {
		fprintf(stderr, "tui-fold: %s\n", error->message);
		return 1;
	}
	gint64 t0 = g_get_monotonic_time();
	FtlTuiApp *app = ftl_tui_app_new(&opt);
	FtlTuiCanvas *c = ftl_tui_canvas_text_new(40, 120, TRUE);
	ftl_tui_app_settle(app);
	const FtlCallNode *root = ftl_tui_app_tree_root(app, FTL_CALLTREE_GROUP_NONE);
	guint64 nodes = 0;
	for (const FtlCallNode *n = root ? root->child : NULL; n; n = ftl_tui_tree_preorder(root, n))
		nodes++;
	printf("model read in %.1f s; call tree of all tasks: %" G_GUINT64_FORMAT " nodes\n",
	       (double)(g_get_monotonic_time() - t0) / 1e6, nodes);
	if (!nodes) {
		printf("no function calls: nothing to fold\n");
		return 0;
	}
	bench_keys(app, c, "2");
	ftl_tui_app_settle(app);
	bench_keys(app, c, "C");
	for (int i = 1; i <= runs; i++) {
		double e = bench_keys(app, c, "E");
		gboolean shown = bench_nested(c);
		double last = bench_keys(app, c, "G");
		double first = bench_keys(app, c, "g");
		double col = bench_keys(app, c, "C");
		if (!shown || bench_nested(c)) {
			fprintf(stderr, "tui-fold: E or C did not change the screen\n");
			return 1;
		}
		double one = bench_keys(app, c, "<Enter>");
		double one_back = bench_keys(app, c, "<Enter>");
		printf("run %d: unfold all (E) %.2f ms, last row (G) %.2f ms, first (g) %.2f ms, "
		       "fold all (C) %.2f ms, unfold one (Enter) %.2f ms, fold it %.2f ms\n",
		       i, e, last, first, col, one, one_back);
	}
	ftl_tui_canvas_free(c);
	ftl_tui_app_free(app);
	return 0;
}
