/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Where the selected function is defined, on a line under Functions and
 * Graph, when the TUI has the kernel's debug info (FtlTuiOptions.sources). */
#pragma once

#include "symbols/debuginfo.h"
#include "views/source.h"
#include "views/tui/app.h"

/* The answers for the TUI: `report --by file`'s source map over dbg
 * (borrowed: it must outlive them). The first answer reads the vmlinux's
 * symbol table and the kernel tree's prefix (0.4-0.8 s on a Debian
 * vmlinux): a thread does that at once, and until it is done the line says
 * so rather than wait; each later answer reads at most the function's
 * unit (milliseconds: bench/symbols.sh). Free with ftl_tui_sources_free(). */
FtlTuiSources *ftl_tui_sources_new(FtlDebugInfo *dbg);
void ftl_tui_sources_free(FtlTuiSources *s);
/* Waits until the first reading is done (tests, benchmarks). */
void ftl_tui_sources_wait(FtlTuiSources *s);

/* The rows the line takes from a panel of h rows: 1 with debug info (and
 * room), else 0: the panel draws as before. */
int ftl_tui_source_rows(FtlTuiApp *app, int h);
/* Draws the line at row y for func (NULL: the line blank): its file:line
 * as `report --by file` finds it, or that the debug info lacks it. */
void ftl_tui_source_draw(FtlTuiApp *app, FtlTuiCanvas *c, int y, const char *func);
/* For the panels' tick: REDRAW once the first reading is done when the
 * line said it was under way. */
FtlTuiReaction ftl_tui_source_tick(FtlTuiApp *app);

G_DEFINE_AUTOPTR_CLEANUP_FUNC(FtlTuiSources, ftl_tui_sources_free)
