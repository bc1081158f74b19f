/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The `info` view: what a trace holds, as text or as one JSON object. */
#pragma once

#include <json-glib/json-glib.h>
#include <stdio.h>

#include "analysis/counts.h"
#include "analysis/quality.h"
#include "model/trace.h"
#include "views/table.h"

/* The per-CPU figures (events, spans, lost events) come from q, the one
 * per-CPU summary; the event names, kinds and markers from counts. The text
 * ends with the "Data quality" block. */
void ftl_info_print_text(FILE *out, FtlTrace *trace, const FtlCounts *counts,
			 const FtlQuality *q, const FtlTextStyle *style);
/* CSV: a "# cpus" table and an "# event_names" table. */
void ftl_info_print_csv(FILE *out, FtlTrace *trace, const FtlCounts *counts,
			const FtlQuality *q);
/* Returns a new JSON object, "quality" included; the caller owns it
 * (json_node_unref). */
JsonNode *ftl_info_to_json(FtlTrace *trace, const FtlCounts *counts, const FtlQuality *q);
/* Prints the diagnostics summary ("data anomalies") every report carries. */
void ftl_diags_print_text(FILE *out, const FtlDiags *diags);
void ftl_diags_add_json(JsonBuilder *b, const FtlDiags *diags);
