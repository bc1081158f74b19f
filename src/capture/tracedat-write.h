/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A trace-cmd trace.dat (file format version 6) made from a directory with
 * the tracefs layout: what ftlens record stages, --raw-dir writes and the VM
 * rig saves. trace-cmd report and KernelShark read it. */
#pragma once

#include <glib.h>

typedef struct {
	/* NULL: the pages are stored as the file's main buffer (the top-level
	 * buffer, or ftlens's private instance that stands in for it).
	 * Otherwise they are stored as the buffer instance of this name, as
	 * trace-cmd record -B NAME does. */
	const char *buffer_name;
	/* The UNAME option ("sysname nodename release machine"); NULL: none. */
	const char *uname;
} FtlTracedatWriteOptions;

/* Writes out_path from raw_dir, which holds events/header_page,
 * events/header_event, events/SYSTEM/EVENT/format, printk_formats,
 * saved_cmdlines, trace_clock, per_cpu/cpuN/trace_pipe_raw (whole pages) and
 * optionally kallsyms and per_cpu/cpuN/stats. The file is written under a
 * temporary name beside out_path and renamed at the end, so a failure never
 * leaves out_path behind. Errors name the file at fault. */
gboolean ftl_tracedat_write(const char *raw_dir, const char *out_path,
			    const FtlTracedatWriteOptions *opt, GError **error);
