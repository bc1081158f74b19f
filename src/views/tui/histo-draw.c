/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A duration histogram on the canvas: the log bins `plot durations` draws
 * (analysis/histo.h, ten a decade), a bar each, the bins that hold p50,
 * p95 and p99 marked. Panels draw it over their own rows. */
#include "config.h"

#include "views/tui/app.h"

void ftl_tui_histo_draw(FtlTuiCanvas *c, int y, int h, const char *what, const FtlHisto *hist,
			guint64 untimed)
{
	char p[3][32], mx[32];
	guint64 n = hist ? ftl_histo_count(hist) : 0;
	ftl_tui_fill(c, y, 0, -1, FTL_TUI_STYLE_HEADER);
	if (!hist) {
		g_autofree char *t = g_strdup_printf("Durations of %s: reading its calls...", what);
		ftl_tui_put(c, y, 0, -1, t, FTL_TUI_STYLE_HEADER);
		return;
	}
	static const double pct[3] = { 50, 95, 99 };
	guint pbin[3] = { G_MAXUINT, G_MAXUINT, G_MAXUINT };
	for (int k = 0; k < 3; k++) {
		gint64 v = ftl_histo_percentile(hist, pct[k]);
		ftl_tui_duration(v, p[k], sizeof p[k]);
		if (v != FTL_TS_NONE)
			pbin[k] = ftl_histo_decade(v);
	}
	ftl_tui_duration(n ? ftl_histo_max(hist) : FTL_TS_NONE, mx, sizeof mx);
	g_autofree char *title = g_strdup_printf(
		"Durations of %s: %" G_GUINT64_FORMAT " timed calls (%" G_GUINT64_FORMAT
		" untimed)  p50 %s  p95 %s  p99 %s  max %s  (Esc: back)",
		what, n, untimed, p[0], p[1], p[2], mx);
	ftl_tui_put(c, y, 0, -1, title, FTL_TUI_STYLE_HEADER);
	if (!n || h < 3) {
		if (h >= 2)
			ftl_tui_put(c, y + 1, 0, -1, "no timed calls", FTL_TUI_STYLE_DIM);
		return;
	}
	ftl_tui_put(c, y + 1, 0, -1, "       FROM us         TO us       CALLS", FTL_TUI_STYLE_DIM);
	guint first;
	g_autoptr(GArray) bins = ftl_histo_decades(hist, &first);
	guint64 most = 1;
	for (guint i = 0; i < bins->len; i++)
		most = MAX(most, g_array_index(bins, guint64, i));
	int barx = 42, barw = MAX(c->cols - barx - 14, 4);
	for (guint i = 0; i < bins->len && (int)i < h - 2; i++) {
		double lo, hi;
		guint b = first + i;
		guint64 count = g_array_index(bins, guint64, i);
		ftl_histo_decade_bounds(b, &lo, &hi);
		char row[64];
		g_snprintf(row, sizeof row, "%14.4g %13.4g %11" G_GUINT64_FORMAT, lo, hi, count);
		ftl_tui_put(c, y + 2 + (int)i, 0, barx, row, FTL_TUI_STYLE_NORMAL);
		ftl_tui_bar(c, y + 2 + (int)i, barx, barw, (double)count / (double)most,
			    FTL_TUI_STYLE_BAR);
		GString *marks = g_string_new(NULL);
		for (int k = 0; k < 3; k++)
			if (pbin[k] == b)
				g_string_append_printf(marks, " p%.0f", pct[k]);
		ftl_tui_put(c, y + 2 + (int)i, barx + barw, -1, marks->str, FTL_TUI_STYLE_MARK);
		g_string_free(marks, TRUE);
	}
}
