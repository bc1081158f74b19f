/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Functions by where they are defined: each function's source file and
 * directory from the kernel's debug info (DW_AT_decl_file), and the
 * function statistics summed by file or by directory, a subsystem view
 * of where the time went (mm/, fs/ext4/, drivers/net/...). */
#pragma once

#include "analysis/calltree.h"
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

/* The call tree below root regrouped by where its functions are defined:
 * a subsystem graph. Each node of the tree goes to its function's group
 * (file or directory, as the map was made); a call whose group is its
 * caller's is merged into the caller's node (its self time added there,
 * its calls not counted again); a call into another group is a child node
 * named by that group. So a node's calls are the entries into its group
 * from its parent's, its total the time of those entries, its self the
 * time spent in its group's own functions below them, and total = self +
 * the children's totals wherever every call is timed. Nodes whose name
 * opens with '[' ("[irq]", "[other]") keep their name, and with groups the
 * tree's top level (its "CPU 1" or "bash-123" nodes) is kept as it is.
 * Children are sorted by total time (descending), then name. Names are
 * borrowed from the map and the tree: both must outlive the result. Free
 * with ftl_source_graph_free(). */
typedef struct _FtlSourceGraph FtlSourceGraph;
FtlSourceGraph *ftl_source_graph_new(FtlSourceMap *m, const FtlCallNode *root, gboolean groups);
/* The root ("(root)", the tree root's figures); lives as long as g. */
const FtlCallNode *ftl_source_graph_root(const FtlSourceGraph *g);
void ftl_source_graph_free(FtlSourceGraph *g);

G_DEFINE_AUTOPTR_CLEANUP_FUNC(FtlSourceMap, ftl_source_map_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC(FtlSourceGraph, ftl_source_graph_free)
