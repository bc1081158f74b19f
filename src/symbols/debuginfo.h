/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A kernel's debug info: its vmlinux and its modules' debug files, given
 * (--vmlinux, --modules, --debuginfo) or found in Debian's layout for the
 * release an input names, checked against that release, opened lazily. */
#pragma once

#include <glib.h>

#include "symbols/symfile.h"

#define FTL_DEBUGINFO_ROOT "/usr/lib/debug"

/* What the command line said; all may be NULL/FALSE. */
typedef struct {
	char *vmlinux;	  /* --vmlinux FILE */
	char *modules;	  /* --modules DIR: searched for NAME.ko(.debug) */
	char *root;	  /* --debuginfo DIR: the root of the Debian layout */
	gboolean force;	  /* --force-debuginfo: use a vmlinux of another build */
	gboolean none;	  /* --no-debuginfo */
} FtlDebugInfoOptions;

void ftl_debuginfo_options_clear(FtlDebugInfoOptions *o);

typedef struct _FtlDebugInfo FtlDebugInfo;

/* The debug info for a kernel release ("6.1.0-57-cloud-amd64") and build
 * ("#1 Debian 6.1.192-3" as an oops prints it; NULL when not known), both
 * as what named them (input, for messages) says, and its GNU build id
 * (hex; NULL when the input names none, as an oops log seldom does). With neither --vmlinux
 * nor a release nothing can be found: NULL without an error, as when the
 * Debian files for the release are absent (*missing then names the path
 * looked for; free with g_free; missing may be NULL). A vmlinux whose
 * banner names another release or build, or whose build id is not
 * build_id, is an error naming both, unless o->force. Free with ftl_debuginfo_free(). */
FtlDebugInfo *ftl_debuginfo_open(const FtlDebugInfoOptions *o, const char *input,
				 const char *release, const char *build, const char *build_id,
				 char **missing, GError **error);
/* Whether the vmlinux's build id was compared with the input's (equal, or
 * --force-debuginfo given): FALSE when the input names none. */
gboolean ftl_debuginfo_build_id_compared(const FtlDebugInfo *d);
void ftl_debuginfo_free(FtlDebugInfo *d);
/* The vmlinux, its release (from its banner; NULL when it has none) and
 * build id. Borrowed. */
FtlSymFile *ftl_debuginfo_vmlinux(FtlDebugInfo *d);
const char *ftl_debuginfo_release(const FtlDebugInfo *d);

/* The frames (FtlSrcFrame, innermost first) of func+off (size: the symbol's
 * size as printed, 0 when not) in module (NULL: the kernel), appended to
 * frames; how many, 0 when the debug info does not know it (no such
 * symbol, no module file, no line). The module's debug file is opened on
 * first use. */
guint ftl_debuginfo_frame(FtlDebugInfo *d, const char *func, guint64 off, guint64 size,
			  const char *module, GArray *frames);
/* Where function func of the kernel is defined; FALSE when unknown. */
gboolean ftl_debuginfo_definition(FtlDebugInfo *d, const char *func, const char **file,
				  guint *line);
/* path as shown: from the kernel's source tree ("mm/memory.c"), the build
 * directory cut. Borrowed from path. */
const char *ftl_debuginfo_short_path(FtlDebugInfo *d, const char *path);
/* The debug file of module (opened), NULL when none was found. */
FtlSymFile *ftl_debuginfo_module(FtlDebugInfo *d, const char *module);

G_DEFINE_AUTOPTR_CLEANUP_FUNC(FtlDebugInfo, ftl_debuginfo_free)
