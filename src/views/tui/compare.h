/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `ftlens tui A --compare B`: what the Functions and Graph panels show
 * instead of one trace's figures when the model has B's beside it
 * (FtlTuiModel.compare). The figures are read from the analyses that
 * `ftlens diff` (analysis/diff.h) and `flame --diff` (ftl_flame_diff)
 * print, never computed again here. */
#pragma once

#include "views/tui/app.h"

/* Whether the app shows two traces (a model with B's beside it). */
gboolean ftl_tui_compare_on(const FtlTuiApp *app);

/* The Functions panel's table of two traces (compare-funcs.c): one row
 * per function of either trace, as `ftlens diff` has them. */
typedef struct _FtlTuiFuncsCompare FtlTuiFuncsCompare;
FtlTuiFuncsCompare *ftl_tui_funcs_compare_new(void);
void ftl_tui_funcs_compare_free(FtlTuiFuncsCompare *fc);
FtlTuiReaction ftl_tui_funcs_compare_tick(FtlTuiFuncsCompare *fc, FtlTuiApp *app);
void ftl_tui_funcs_compare_draw(FtlTuiFuncsCompare *fc, FtlTuiPanel *p, FtlTuiApp *app,
				FtlTuiCanvas *c, int y, int h);
FtlTuiReaction ftl_tui_funcs_compare_command(FtlTuiFuncsCompare *fc, FtlTuiPanel *p,
					     FtlTuiApp *app, FtlTuiCmd cmd,
					     const FtlTuiInput *in);
FtlTuiReaction ftl_tui_funcs_compare_search(FtlTuiFuncsCompare *fc, FtlTuiPanel *p,
					    FtlTuiApp *app, GRegex *re, int dir);

/* The Graph panel's merged tree of two traces (compare-graph.c): the
 * differential flame tree of A's and B's call trees, A's and B's
 * inclusive time per node and the change, folded and unfolded as the
 * Graph is. */
typedef struct _FtlTuiGraphCompare FtlTuiGraphCompare;
FtlTuiGraphCompare *ftl_tui_graph_compare_new(void);
void ftl_tui_graph_compare_free(FtlTuiGraphCompare *gc);
FtlTuiReaction ftl_tui_graph_compare_tick(FtlTuiGraphCompare *gc, FtlTuiApp *app);
void ftl_tui_graph_compare_draw(FtlTuiGraphCompare *gc, FtlTuiPanel *p, FtlTuiApp *app,
				FtlTuiCanvas *c, int y, int h);
FtlTuiReaction ftl_tui_graph_compare_command(FtlTuiGraphCompare *gc, FtlTuiPanel *p,
					     FtlTuiApp *app, FtlTuiCmd cmd,
					     const FtlTuiInput *in);
FtlTuiReaction ftl_tui_graph_compare_search(FtlTuiGraphCompare *gc, FtlTuiPanel *p,
					    FtlTuiApp *app, GRegex *re, int dir);

/* "+1.234 ms" / "-20 ns": a change as the panels print it, into buf. */
const char *ftl_tui_change(gint64 ns, char *buf, gsize size);
/* "+12.3%" of b against a, "new" where a is 0 and b is not, "gone"
 * where b is absent (present FALSE), "" where both are 0. */
const char *ftl_tui_change_pct(gint64 a, gint64 b, gboolean present_a, gboolean present_b,
			       char *buf, gsize size);

/* The last row of Functions and Graph: "NAME: WHAT: A 1.234 us (3 calls),
 * B - ..." for the cursor's row, each side's known durations (calls is 0
 * where the side lacks it; "N untimed" where timed < calls), then "; note"
 * when a side has untimed calls. name is from the trace. */
typedef struct {
	gint64 ns;
	guint64 calls, timed;
} FtlTuiCompareSide;
void ftl_tui_compare_footer(FtlTuiCanvas *c, int y, const char *name, const char *what,
			    const FtlTuiCompareSide *a, const FtlTuiCompareSide *b,
			    const char *note);

/* The Timeline panel's lanes of two traces (compare-timeline.c): A's CPUs
 * above B's, each on its own time axis from its start, or from a marker
 * both have (X). */
typedef struct _FtlTuiTimelineCompare FtlTuiTimelineCompare;
FtlTuiTimelineCompare *ftl_tui_timeline_compare_new(void);
void ftl_tui_timeline_compare_free(FtlTuiTimelineCompare *tc);
FtlTuiReaction ftl_tui_timeline_compare_tick(FtlTuiTimelineCompare *tc, FtlTuiApp *app);
void ftl_tui_timeline_compare_draw(FtlTuiTimelineCompare *tc, FtlTuiPanel *p, FtlTuiApp *app,
				   FtlTuiCanvas *c, int y, int h);
FtlTuiReaction ftl_tui_timeline_compare_command(FtlTuiTimelineCompare *tc, FtlTuiPanel *p,
						FtlTuiApp *app, FtlTuiCmd cmd,
						const FtlTuiInput *in);
/* A's time at the cursor (FTL_TS_NONE on a row of B). */
gint64 ftl_tui_timeline_compare_time(FtlTuiTimelineCompare *tc, FtlTuiApp *app);
