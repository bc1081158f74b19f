/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The "Data quality" block every report carries: per-CPU spans and losses,
 * the complete window, header counts and caveats, as text or JSON. */
#pragma once

#include <json-glib/json-glib.h>
#include <stdio.h>

#include "analysis/quality.h"

/* Prints the block (it fits 100 columns) after ftl_quality_finish(). */
void ftl_quality_print_text(const FtlQuality *q, FILE *out);
/* Adds "quality": {cpus: [...], window_start_ns, window_end_ns, evicted,
 * caveats: [...]} to an open JSON object. Unknown values are null. */
void ftl_quality_add_json(const FtlQuality *q, JsonBuilder *b);
