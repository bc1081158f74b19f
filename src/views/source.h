/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Functions by where they are defined: each function's source file and
 * directory from the kernel's debug info (DW_AT_decl_file), and the
 * function statistics summed by file or by directory, a subsystem view
 * of where the time went (mm/, fs/ext4/, drivers/net/...). */
#pragma once

#include "analysis/funcstats.h"
#include "symbols/debuginfo.h"
#include "views/table.h"

typedef enum {
	FTL_SOURCE_BY_FILE, /* "mm/memory.c" */
	FTL_SOURCE_BY_DIR,  /* "mm/", "fs/ext4/" */
} FtlSourceBy;

/* The group of functions whose definition the debug info does not know
 * (a module's function, assembly without DWARF, a name no symbol has). */
#define FTL_SOURCE_UNKNOWN "(unknown)"

/* "file" or "dir" to by; FALSE for anything else. */
gboolean ftl_source_by_parse(const char *text, FtlSourceBy *by);
const char *ftl_source_by_name(FtlSourceBy by);

typedef struct _FtlSourceMap FtlSourceMap;

/* Answers for functions of the kernel dbg describes (borrowed: it must
 * outlive the map), each looked up once. Free with ftl_source_map_free(). */
FtlSourceMap *ftl_source_map_new(FtlDebugInfo *dbg, FtlSourceBy by);
void ftl_source_map_free(FtlSourceMap *m);
FtlSourceBy ftl_source_map_by(const FtlSourceMap *m);
/* Where func is defined, from the top of the kernel's tree ("mm/memory.c")
 * and its line; FALSE when unknown. *file lives as long as the map. */
gboolean ftl_source_map_where(FtlSourceMap *m, const char *func, const char **file,
			      guint *line);
/* func's group: its file or its directory with a trailing '/', as the map
 * was made, or FTL_SOURCE_UNKNOWN. Lives as long as the map. */
const char *ftl_source_map_group(FtlSourceMap *m, const char *func);

/* The rows of funcs (every row: none is left out, whatever a threshold)
 * summed by group, named name: group, functions, calls, timed calls, self,
 * total (the functions' totals added: time of nested functions counts in
 * each) and the longest call; by self time, or by calls when no call is
 * timed. The sums of calls, self and total equal those of funcs' rows. */
FtlTable *ftl_source_table(FtlSourceMap *m, FtlFuncStats *funcs, const char *name);

G_DEFINE_AUTOPTR_CLEANUP_FUNC(FtlSourceMap, ftl_source_map_free)
