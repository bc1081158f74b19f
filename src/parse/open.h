/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Opening inputs: sniff each path and build an FtlTrace with the right sources. */
#pragma once

#include "model/trace.h"

/* Opens one or more paths as a single trace whose sources are merged in time
 * (several per_cpu/cpuN/trace files, or a directory holding per_cpu/).
 * Free with ftl_trace_free(). Errors name the path and, where it applies, the line. */
FtlTrace *ftl_trace_open_many(const char *const *paths, guint n_paths, FtlOpenFlags flags,
			      GError **error);
FtlTrace *ftl_trace_open(const char *path, FtlOpenFlags flags, GError **error);
/* The same, read as ro says (NULL: the defaults). */
FtlTrace *ftl_trace_open_with(const char *path, FtlOpenFlags flags, const FtlReadOptions *ro,
			      GError **error);
/* The same, reading only the ring buffer named buffer ("top" for the top
 * level) of inputs that hold several (trace.dat with instances); NULL reads
 * them all, merged in time. A name no input has is an error. ro: how the
 * inputs are read (NULL: the defaults). */
FtlTrace *ftl_trace_open_buffer(const char *const *paths, guint n_paths, FtlOpenFlags flags,
				const char *buffer, const FtlReadOptions *ro, GError **error);
/* The same over bytes in memory (takes data, g_malloc'd; label names them in
 * messages): text traces as a file would be read. A trace.dat needs a file. */
FtlTrace *ftl_trace_open_memory(const char *label, char *data, gsize size, FtlOpenFlags flags,
				const FtlReadOptions *ro, GError **error);
