/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The per-CPU exporter: DIR/cpuN/trace files that read like the kernel's
 * per_cpu files, written whole or not at all (util/output.h). */
#pragma once

#include <glib.h>
#include <stdio.h>

#include "model/iter.h"
#include "model/trace.h"
#include "views/table.h"

typedef struct _FtlSplit FtlSplit;

/* Writes into out_dir (made, with its parents, when missing). force
 * replaces existing cpuN/trace files; a file that is one of inputs
 * (NULL-terminated) is never replaced. Free with ftl_split_free(). */
FtlSplit *ftl_split_new(const char *out_dir, gboolean force, const char *const *inputs);

/* One pass over trace with filter; every file is renamed into place at the
 * end, or, on failure, nothing is (temp files and the directories made are
 * removed by ftl_split_free()). */
gboolean ftl_split_run(FtlSplit *s, FtlTrace *trace, const FtlFilter *filter, GError **error);

/* What was written: a row per CPU (cpu, file, event lines). */
void ftl_split_print_summary(const FtlSplit *s, FtlFormat format, const FtlTextStyle *style,
			     FILE *out);

/* Lines saying what a run took away: staging directories beside DIR that
 * splits killed inside their commit left. Borrowed. */
const GString *ftl_split_notes(const FtlSplit *s);

/* Takes back what a run that did not finish made. NULL is fine. */
void ftl_split_free(FtlSplit *s);

G_DEFINE_AUTOPTR_CLEANUP_FUNC(FtlSplit, ftl_split_free)
