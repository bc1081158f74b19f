/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Per-CPU ring-buffer readers: the raw pages of every CPU of one buffer are
 * read while tracing runs, appended to per_cpu/cpuN/trace_pipe_raw files. */
#pragma once

#include <glib.h>

typedef struct _FtlCpuBuf FtlCpuBuf;

/* Opens buffer_dir/per_cpu/cpuN/trace_pipe_raw for every CPU the buffer has,
 * non-blocking, and creates out_dir/per_cpu/cpuN/trace_pipe_raw for the pages.
 * page_size is the ring buffer's sub-buffer size (ftl_cpubuf_page_size()). */
FtlCpuBuf *ftl_cpubuf_open(const char *buffer_dir, const char *out_dir, guint page_size,
			   GError **error);
/* Frees the readers, closing every file (the pages written stay). */
void ftl_cpubuf_free(FtlCpuBuf *b);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(FtlCpuBuf, ftl_cpubuf_free)

/* Waits up to timeout_ms for a CPU whose buffer passed its watermark
 * (buffer_percent) and reads every page it has. A signal ends the wait early
 * without an error. */
gboolean ftl_cpubuf_poll(FtlCpuBuf *b, int timeout_ms, GError **error);
/* Reads every CPU until it is empty, the page being written included: for
 * the end of a recording, after tracing_on=0. */
gboolean ftl_cpubuf_drain(FtlCpuBuf *b, GError **error);
/* Closes the trace_pipe_raw files (an instance cannot be removed while they
 * are open) and the page files. */
gboolean ftl_cpubuf_close(FtlCpuBuf *b, GError **error);

guint ftl_cpubuf_n_cpus(const FtlCpuBuf *b);
/* Bytes of pages read from CPU cpu so far. */
guint64 ftl_cpubuf_bytes(const FtlCpuBuf *b, guint cpu);

/* The sub-buffer ("page") size of the ring buffer, from events/header_page
 * under tracefs_dir: what one read of trace_pipe_raw returns. */
guint ftl_cpubuf_page_size(const char *tracefs_dir, GError **error);
/* The number of CPUs a buffer has: one more than the highest per_cpu/cpuN. */
guint ftl_cpubuf_count_cpus(const char *buffer_dir, GError **error);
