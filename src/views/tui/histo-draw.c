/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A histogram on the canvas: the log bins `plot durations` and `plot
 * latency` draw (analysis/histo.h, ten a decade), a bar each (a run of
 * empty bins in one row), the bins that hold p50, p95 and p99 marked.
 * Panels draw it over their own rows: a function's durations (Functions,
 * Graph), a latency class (Sched), the spans of a pattern (Markers). */
#include "config.h"

#include "views/tui/app.h"

#include "util/escape.h"

/* A bin's bound in microseconds to four significant digits, never as an
 * exponent ("12590", not "1.259e+04": a bound of 10 ms on). buf: 32
 * bytes. */
static const char *histo_bound(char buf[32], double us)
{
	g_snprintf(buf, 32, "%.4g", us);
	if (us >= 1000)
		g_snprintf(buf, 32, "%.0f", g_ascii_strtod(buf, NULL));
	return buf;
}

void ftl_tui_histo_draw(FtlTuiCanvas *c, int y, int h, const FtlTuiHisto *what)
{
	char p[3][32], mx[32];
	const FtlHisto *hist = what->hist;
	guint64 n = hist ? ftl_histo_count(hist) : 0;
	ftl_tui_fill(c, y, 0, -1, FTL_TUI_STYLE_HEADER);
	if (!hist) {
		g_autofree char *t = g_strdup_printf("%s: reading them...", what->title);
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
		"%s: %" G_GUINT64_FORMAT " %s%s  p50 %s  p95 %s  p99 %s  max %s  (Esc: back)",
		what->title, n, what->noun, what->note ? what->note : "", p[0], p[1], p[2], mx);
	ftl_tui_put(c, y, 0, -1, title, FTL_TUI_STYLE_HEADER);
	if (!n || h < 3) {
		if (h >= 2) {
			g_autofree char *none = g_strdup_printf("no %s", what->noun);
			ftl_tui_put(c, y + 1, 0, -1, none, FTL_TUI_STYLE_DIM);
		}
		return;
	}
	g_autofree char *head = g_strdup_printf("%14s %13s %11s", "FROM us", "TO us", what->column);
	char from[32], to[32];
	ftl_tui_put(c, y + 1, 0, -1, head, FTL_TUI_STYLE_DIM);
	guint first;
	g_autoptr(GArray) bins = ftl_histo_decades(hist, &first);
	guint64 most = 1;
	for (guint i = 0; i < bins->len; i++)
		most = MAX(most, g_array_index(bins, guint64, i));
	int barx = 42, barw = MAX(c->cols - barx - 14, 4), row = y + 2;
	for (guint i = 0; i < bins->len && row < y + h; i++, row++) {
		double lo, hi;
		guint b = first + i;
		guint64 count = g_array_index(bins, guint64, i);
		char text[64];
		if (row == y + h - 1 && i + 1 < bins->len) {
			/* the last row left: say what does not fit */
			g_snprintf(text, sizeof text, "... %u more bins (a taller terminal shows them)",
				   bins->len - i);
			ftl_tui_put(c, row, 0, -1, text, FTL_TUI_STYLE_DIM);
			break;
		}
		ftl_histo_decade_bounds(b, &lo, &hi);
		if (!count) {
			/* a run of empty bins in one row (a 0 ns value sits in the
			 * bin of 1 ns, decades from the rest) */
			guint k = i;
			while (k + 1 < bins->len && !g_array_index(bins, guint64, k + 1))
				k++;
			double l2, h2;
			ftl_histo_decade_bounds(first + k, &l2, &h2);
			g_snprintf(text, sizeof text, "%14s %13s %11d", histo_bound(from, lo),
				   histo_bound(to, h2), 0);
			ftl_tui_put(c, row, 0, barx, text, FTL_TUI_STYLE_DIM);
			i = k;
			continue;
		}
		g_snprintf(text, sizeof text, "%14s %13s %11" G_GUINT64_FORMAT, histo_bound(from, lo),
			   histo_bound(to, hi), count);
		ftl_tui_put(c, row, 0, barx, text, FTL_TUI_STYLE_NORMAL);
		ftl_tui_bar(c, row, barx, barw, (double)count / (double)most, FTL_TUI_STYLE_BAR);
		GString *marks = g_string_new(NULL);
		for (int k = 0; k < 3; k++)
			if (pbin[k] == b)
				g_string_append_printf(marks, " p%.0f", pct[k]);
		ftl_tui_put(c, row, barx + barw, -1, marks->str, FTL_TUI_STYLE_MARK);
		g_string_free(marks, TRUE);
	}
}

/* ---- the durations of one function (Functions and Graph) ------------------ */

guint64 ftl_tui_durations_key(const char *func)
{
	guint64 k = 0x84222325cbf29ce4ull;
	for (const char *p = func; *p; p++)
		k = (k ^ (guchar)*p) * 1099511628211ull;
	return ftl_tui_side_key(FTL_TUI_SIDE_DURATIONS, k);
}

FtlTuiReaction ftl_tui_durations_tick(FtlTuiApp *app, const char *func, guint64 *drawn)
{
	if (!app->model || !func)
		return FTL_TUI_REACT_NONE;
	guint64 key = ftl_tui_durations_key(func);
	ftl_tui_app_want_durations(app, func, key);
	const FtlTuiModel *side = ftl_tui_app_side(app, key);
	if ((side ? side->gen : 0) == *drawn)
		return FTL_TUI_REACT_NONE;
	*drawn = side ? side->gen : 0;
	return FTL_TUI_REACT_REDRAW;
}

void ftl_tui_durations_draw(FtlTuiCanvas *c, int y, int h, FtlTuiApp *app, const char *func)
{
	const FtlTuiModel *side = ftl_tui_app_side(app, ftl_tui_durations_key(func));
	g_autofree char *name = ftl_escape(func, -1);
	g_autofree char *title = g_strdup_printf("Durations of %s", name);
	g_autofree char *note =
		g_strdup_printf(" (%" G_GUINT64_FORMAT " untimed)", side ? side->untimed : 0);
	FtlTuiHisto what = { title, "timed calls", "CALLS", note, side ? side->durations : NULL };
	ftl_tui_histo_draw(c, y, h, &what);
}
