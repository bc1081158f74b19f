/* SPDX-License-Identifier: GPL-2.0-or-later */
/* trace-cmd trace.dat files through libtracecmd. */
#pragma once

#include "model/source.h"
#include "model/trace.h"

/* TRUE when data starts with trace.dat's magic. */
gboolean ftl_tracedat_sniff(const char *data, gsize size);
/* Adds the sources of a trace.dat file to trace. Errors name the file. */
/* buffer: only that buffer ("top" or an instance name); NULL: all of them. */
gboolean ftl_tracedat_open(FtlTrace *trace, const char *path, const char *buffer, GError **error);
