/* SPDX-License-Identifier: GPL-2.0-or-later */
/* W in the Timeline: the wakeups of the selected task, waker -> wakee, as
 * the scheduling analysis pairs them (analysis/sched.h: the waker is the
 * task current on the CPU where sched_waking, else sched_wakeup, was
 * recorded, its common_pid). A list under the lanes, marks on them. */
#pragma once

#include "views/tui/app.h"

typedef struct {
	gint32 pid; /* the task whose wakeups are shown; -1: W is off */
	gint64 cursor, top; /* the list's selected row and first row shown */
	guint64 drawn; /* the side model last drawn: its FtlTuiModel.gen, 0 none */
} FtlTuiWakes;

void ftl_tui_wakes_init(FtlTuiWakes *w);
/* Shows pid's wakeups (pid < 0: hides them). */
void ftl_tui_wakes_show(FtlTuiWakes *w, gint32 pid);
/* Asks for the wakeups while shown; REDRAW once they came. */
FtlTuiReaction ftl_tui_wakes_tick(FtlTuiWakes *w, FtlTuiApp *app);
/* The wakeups read (FtlSchedWakeup, in the order they were served), or
 * NULL while read or when hidden. Borrowed until the next tick. */
const GArray *ftl_tui_wakes_get(FtlTuiWakes *w, FtlTuiApp *app);
/* The selected one, or NULL. */
const FtlSchedWakeup *ftl_tui_wakes_selected(FtlTuiWakes *w, FtlTuiApp *app);
/* The list in rows [y, y + h); comm names the task (raw trace text). */
void ftl_tui_wakes_draw(FtlTuiWakes *w, FtlTuiApp *app, FtlTuiCanvas *c, int y, int h,
			const char *comm);
/* Up, Down, pages, Enter (the waking event in Events, A..B the latency),
 * Esc (hides it). NONE when cmd is not the list's; *moved set when the
 * selection moved. */
FtlTuiReaction ftl_tui_wakes_command(FtlTuiWakes *w, FtlTuiApp *app, FtlTuiCmd cmd, int page,
				     gboolean *moved);
