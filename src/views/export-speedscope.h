/* SPDX-License-Identifier: GPL-2.0-or-later */
/* speedscope's file format: one evented profile per task (ns), frames
 * shared, markers as zero-length frames. Events wait in a spool, so memory
 * stays flat in the trace's length. */
#pragma once

#include <glib.h>
#include <stdio.h>

#include "views/export-calls.h"

typedef struct _FtlSpeedscopeExport FtlSpeedscopeExport;

/* Writes to out when finished; name names the file's profiles. NULL with
 * error when no spool can be made. */
FtlSpeedscopeExport *ftl_speedscope_export_new(FILE *out, const char *name, FtlDiags *diags,
					       GError **error);
void ftl_speedscope_export_free(FtlSpeedscopeExport *s);
/* The consumer to add to the pass, and its object. */
FtlCallExport *ftl_speedscope_export_calls(FtlSpeedscopeExport *s);
/* After the pass: writes the document. FALSE with error on a write error. */
gboolean ftl_speedscope_export_write(FtlSpeedscopeExport *s, GError **error);
/* What -v tells: profiles written, events, calls closed at the end,
 * exits without entry. */
void ftl_speedscope_export_stats(const FtlSpeedscopeExport *s, guint64 *profiles,
				 guint64 *events, guint64 *open, guint64 *orphans);

G_DEFINE_AUTOPTR_CLEANUP_FUNC(FtlSpeedscopeExport, ftl_speedscope_export_free)
