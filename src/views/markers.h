/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `markers`'s tables: markers with deltas and wall times; spans with what
 * each CPU did inside them; as text, CSV or JSON. */
#pragma once

#include <stdio.h>

#include "analysis/markers.h"
#include "views/table.h"

typedef struct {
	FtlFormat format;
	gint64 origin;			   /* FTL_TS_NONE: absolute times */
	const char *origin_pattern;	   /* --relative-to's pattern, for the text heading */
	gint64 wall_offset;		   /* FTL_TS_NONE: no wall clock */
	gboolean wall_from_option;	   /* the offset came from --wallclock, not a marker */
	guint top;			   /* functions per CPU and span */
	const char *span_start, *span_end; /* the --span patterns, NULL without */
	const FtlTextStyle *style;	   /* text: width and colours; NULL: plain */
} FtlMarkersViewOptions;

/* Prints markers (and spans, may be NULL) of one finished pass to out. */
void ftl_markers_print(const FtlMarkers *m, const FtlSpans *spans, const FtlMarkersViewOptions *opt,
		       FILE *out);
