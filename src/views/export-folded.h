/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Folded stacks ("a;b;c N"): FlameGraph's flamegraph.pl and speedscope read
 * them. One line per call path with weight of its own, in sorted order. */
#pragma once

#include <glib.h>
#include <stdio.h>

#include "analysis/flame.h"

/* Writes every path of f (finished) with a self weight above 0; frame
 * names are shown visibly (util/escape.h) with ';' turned into ':' so
 * that a name can never split a path. Returns the number of lines. */
guint64 ftl_export_folded(FtlFlame *f, FILE *out);
