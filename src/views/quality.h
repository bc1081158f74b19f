/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The "Data quality" block every report carries: per-CPU spans and losses,
 * the complete window, header counts and caveats, as text or JSON. */
#pragma once

#include <json-glib/json-glib.h>
#include <stdio.h>

#include "analysis/quality.h"
#include "views/table.h"

/* Prints the block (it fits 100 columns) after ftl_quality_finish(). */
void ftl_quality_print_text(const FtlQuality *q, FILE *out, const FtlTextStyle *style);
/* Adds "quality": {cpus: [...], window_start_ns, window_end_ns, evicted,
 * caveats: [...]} to an open JSON object. Unknown values are null. */
void ftl_quality_add_json(const FtlQuality *q, JsonBuilder *b);
/* The members of one row of the per-CPU summary (or its total): events,
 * event_lines, first_ts_ns, last_ts_ns, lost_lines, lost_events (null when
 * unknown), overrun (null without statistics), buffer_started; every view
 * that prints the summary as JSON names its figures so. */
void ftl_cpu_summary_add_json(JsonBuilder *b, const FtlCpuQuality *c);
/* A lost-events figure as text: the number, or "unknown"; buf or static. */
const char *ftl_lost_format(gint64 lost, char *buf, gsize size);
