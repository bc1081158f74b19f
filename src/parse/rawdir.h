/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Directories of raw ring-buffer pages (trace_pipe_raw dumps) with their
 * format files, decoded through libtraceevent's kbuffer and tep; and the
 * same parts gathered from elsewhere (an archive, parse/rawtar.c). */
#pragma once

#include "model/trace.h"
#include "util/input.h"

/* Reads dir when it holds raw pages and a header_page: the tracefs layout
 * (per_cpu/cpuN/trace_pipe_raw, events/header_page, events/SYS/EVENT/format),
 * SchedViz's (traces/cpuN, formats/...) or flat (cpuN, cpuN.raw or *.bin page
 * files next to header_page and SYS/EVENT/format), plus kallsyms,
 * printk_formats, saved_cmdlines, trace_clock, uname (`uname -a`: the
 * kernel release) and per_cpu/cpuN/stats when present.
 * Returns FALSE with *found FALSE and no error when dir is not such a
 * directory; FALSE with an error (naming the file, CPU, page and offset) when
 * it is one that cannot be read; TRUE once one source per CPU is added. */
gboolean ftl_rawdir_open(FtlTrace *trace, const char *dir, gboolean *found, GError **error);
/* TRUE when path is on a live tracefs (or debugfs): its trace_pipe_raw and
 * trace_pipe files are the kernel's buffers, consumed by reading and
 * blocking once drained. */
gboolean ftl_rawdir_is_live_tracefs(const char *path);

/* ---- the parts of a raw capture, from wherever they come ---------------- */

typedef struct _FtlRawParts FtlRawParts;

/* The optional texts beside the pages, by their file names. */
typedef enum {
	FTL_RAW_KALLSYMS,
	FTL_RAW_PRINTK_FORMATS,
	FTL_RAW_SAVED_CMDLINES,
	FTL_RAW_TRACE_CLOCK,
	FTL_RAW_UNAME,
	FTL_RAW_BUILD_ID, /* the kernel's GNU build id in hex (from /sys/kernel/notes) */
	FTL_RAW_N_EXTRA,
} FtlRawExtra;

/* label (the directory or archive), layout (how the pages were found) and
 * formats_root (where the formats were looked for) name them in messages.
 * Free with ftl_raw_parts_free(). */
FtlRawParts *ftl_raw_parts_new(const char *label, const char *layout, const char *formats_root);
void ftl_raw_parts_free(FtlRawParts *p);
/* "kallsyms", "printk_formats", ...: the file name of an extra. */
const char *ftl_raw_extra_name(FtlRawExtra which);
/* The setters take text (g_malloc'd, NUL-terminated beyond len) and in. */
void ftl_raw_parts_set_header_page(FtlRawParts *p, const char *path, char *text, gsize len);
gboolean ftl_raw_parts_has_header_page(const FtlRawParts *p);
/* One CPU's page file; stats is the text of its per_cpu stats or NULL. */
void ftl_raw_parts_add_pages(FtlRawParts *p, gint cpu, FtlInput *in, char *stats);
guint ftl_raw_parts_n_cpus(const FtlRawParts *p);
void ftl_raw_parts_add_format(FtlRawParts *p, const char *path, const char *sys, char *text,
			      gsize len);
void ftl_raw_parts_set_extra(FtlRawParts *p, FtlRawExtra which, char *text);
/* Adds one source per CPU of parts (their inputs move to the sources);
 * FALSE with an error naming the part when they cannot be read. */
gboolean ftl_rawdir_open_parts(FtlTrace *trace, FtlRawParts *parts, GError **error);
/* N of "cpuN" followed by suffix; -1 for any other name. */
gint ftl_raw_cpu_number(const char *name, const char *suffix);

G_DEFINE_AUTOPTR_CLEANUP_FUNC(FtlRawParts, ftl_raw_parts_free)
