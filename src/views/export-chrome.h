/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Chrome's trace-event JSON, which Perfetto UI and chrome://tracing open:
 * an X event per call on a track per task, markers and lost events as
 * instants, sched_switch and sched_wakeup as ftrace text in
 * systemTraceEvents (Perfetto draws CPU tracks from them). Written as the
 * trace is read: memory stays flat in its length. */
#pragma once

#include <glib.h>
#include <stdio.h>

#include "views/export-calls.h"

typedef struct _FtlChromeExport FtlChromeExport;

/* Writes to out as the pass runs. NULL with error when no scratch file
 * can be made. */
FtlChromeExport *ftl_chrome_export_new(FILE *out, const char *input, FtlDiags *diags,
				       GError **error);
void ftl_chrome_export_free(FtlChromeExport *c);
FtlCallExport *ftl_chrome_export_calls(FtlChromeExport *c);
/* After the pass: the tasks' names, the scheduler text, the end. */
gboolean ftl_chrome_export_write(FtlChromeExport *c, GError **error);
void ftl_chrome_export_stats(const FtlChromeExport *c, guint64 *events, guint64 *sched);

G_DEFINE_AUTOPTR_CLEANUP_FUNC(FtlChromeExport, ftl_chrome_export_free)
