/* SPDX-License-Identifier: GPL-2.0-or-later */
/* One streaming pass over a trace that feeds the analyses report, graph and
 * diff need: counts, quality, task names, markers, call tree, function
 * statistics and the longest calls. */
#pragma once

#include "analysis/calltree.h"
#include "analysis/comm.h"
#include "analysis/counts.h"
#include "analysis/funcstats.h"
#include "analysis/longest.h"
#include "analysis/markers.h"
#include "analysis/quality.h"
#include "cli/cli.h"

typedef struct {
	FtlTrace *trace;
	const char *dialect;
	FtlCounts *counts;
	FtlQuality *quality;
	FtlCommRecovery *comm;
	FtlMarkers *markers;
	FtlCallTree *tree;
	FtlFuncStats *funcs;
	FtlLongest *longest;
} FtlPass;

/* Opens operands argv[1..argc) and runs the pass with g's filters. focus
 * (an ordinary string, may be NULL) roots the call tree at that function.
 * Free with ftl_pass_free(). */
FtlPass *ftl_pass_run(const FtlCliGlobals *g, int argc, char **argv, FtlFuncStatsKey key,
		      FtlCallTreeGroup group, const char *focus, GError **error);
void ftl_pass_free(FtlPass *p);

G_DEFINE_AUTOPTR_CLEANUP_FUNC(FtlPass, ftl_pass_free)
