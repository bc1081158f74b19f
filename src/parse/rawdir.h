/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Directories of raw ring-buffer pages (trace_pipe_raw dumps) with their
 * format files, decoded through libtraceevent's kbuffer and tep. */
#pragma once

#include "model/trace.h"

/* Reads dir when it holds raw pages and a header_page: the tracefs layout
 * (per_cpu/cpuN/trace_pipe_raw, events/header_page, events/SYS/EVENT/format),
 * SchedViz's (traces/cpuN, formats/...) or flat (cpuN, cpuN.raw or *.bin page
 * files next to header_page and SYS/EVENT/format), plus kallsyms,
 * printk_formats, saved_cmdlines and trace_clock when present.
 * Returns FALSE with *found FALSE and no error when dir is not such a
 * directory; FALSE with an error (naming the file, CPU, page and offset) when
 * it is one that cannot be read; TRUE once one source per CPU is added. */
gboolean ftl_rawdir_open(FtlTrace *trace, const char *dir, gboolean *found, GError **error);
/* TRUE when path is on a live tracefs (or debugfs): its trace_pipe_raw and
 * trace_pipe files are the kernel's buffers, consumed by reading and
 * blocking once drained. */
gboolean ftl_rawdir_is_live_tracefs(const char *path);
