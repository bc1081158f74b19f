/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The merged call graph view (like `uftrace graph`): text tree, flat CSV with
 * the call path, or nested JSON. */
#pragma once

#include <stdio.h>

#include "analysis/calltree.h"
#include "views/table.h"

typedef struct {
	gint max_depth;	  /* levels below the top to show; < 0 = all */
	gint64 threshold; /* hide nodes whose total is below (ns) */
	guint max_nodes;  /* the tree's node budget, when paths went past it */
	guint64 folded;	  /* calls on new paths merged into "[other]" for it; 0: none */
	const FtlTextStyle *style; /* text: colours; NULL: none */
	const char *what;	   /* what a node names: NULL "function", "dir", "file" */
} FtlGraphOptions;

void ftl_graph_print(const FtlCallNode *root, const FtlGraphOptions *opt, FtlFormat format,
		     FILE *out);
