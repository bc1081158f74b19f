/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The Stack panel: the stack tracer's tables (stack_trace, a series of
 * them), each frame with its depth, its size and a bar of that size, and
 * what did not add up in them. */
#include "config.h"

#include <string.h>

#include "views/tui/app.h"

static gboolean stack_available(FtlTuiApp *app)
{
	return app->opt->stacks && ftl_stack_set_n_tables(app->opt->stacks);
}

static void stack_table(FtlTuiLines *l, const FtlStackTable *t, guint i, GString *buf)
{
	GString *head = g_string_new(NULL);
	g_string_printf(head,
			"Table %u: %s:%" G_GUINT64_FORMAT ", %u frames, %" G_GINT64_FORMAT " bytes",
			i + 1, ftl_tui_lines_raw(buf, t->file, -1), t->line,
			ftl_stack_table_n_frames(t), ftl_stack_table_depth(t));
	if (t->snapshot >= 0)
		g_string_append_printf(head, ", snapshot %" G_GINT64_FORMAT, t->snapshot);
	if (t->disabled)
		g_string_append(head, " (stack tracer disabled)");
	ftl_tui_lines_add(l, FTL_TUI_STYLE_HEADER, "%s", head->str);
	g_string_free(head, TRUE);
	gint64 total = MAX(ftl_stack_table_depth(t), 1);
	for (guint k = 0; k < ftl_stack_table_n_frames(t); k++) {
		const FtlStackFrame *f = ftl_stack_table_frame(t, k);
		/* a text bar: the canvas draws lines, not cells, here */
		int bar = (int)(f->size > 0 ? (f->size * 12 + total - 1) / total : 0);
		char bars[16];
		memset(bars, '#', (gsize)MIN(bar, 12));
		bars[MIN(bar, 12)] = 0;
		ftl_tui_lines_add(l, f->raw ? FTL_TUI_STYLE_DIM : FTL_TUI_STYLE_NORMAL,
				  "%4u) %7" G_GINT64_FORMAT " %6" G_GINT64_FORMAT "  %-12s  %s",
				  f->index, f->depth, f->size, bars,
				  ftl_tui_lines_raw(buf, f->location, -1));
	}
}

static void stack_build(FtlTuiLines *l, FtlTuiApp *app, GString *header)
{
	FtlStackSet *set = app->opt->stacks;
	if (!set)
		return;
	g_autoptr(GString) buf = g_string_new(NULL);
	g_string_assign(header, "   #)   DEPTH   SIZE                LOCATION");
	for (guint i = 0; i < ftl_stack_set_n_tables(set); i++)
		stack_table(l, ftl_stack_set_table(set, i), i, buf);
	if (ftl_stack_set_n_diags(set))
		ftl_tui_lines_add(l, FTL_TUI_STYLE_HEADER, "What does not add up");
	for (guint i = 0; i < ftl_stack_set_n_diags(set); i++) {
		const FtlStackDiag *d = ftl_stack_set_diag(set, i);
		g_autofree char *file = g_strdup(ftl_tui_lines_raw(buf, d->file, -1));
		ftl_tui_lines_add(l, FTL_TUI_STYLE_WARN, "%s:%" G_GUINT64_FORMAT ": %s", file,
				  d->line, ftl_tui_lines_raw(buf, d->message, -1));
	}
}

static FtlTuiPanel *stack_new(void)
{
	return ftl_tui_lines_panel_new(stack_build);
}

const FtlTuiPanelClass ftl_tui_stack_panel = {
	FTL_TUI_LINES_PANEL_METHODS,  .id = FTL_TUI_PANEL_STACK, .name = "Stack", .new = stack_new,
	.available = stack_available,
};
