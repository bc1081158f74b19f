/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A spool: fixed-size records appended under small integer keys (one per
 * task, say) in any interleaving, read back key by key in the order they
 * were added. Records wait in a small buffer per key and go to an
 * unlinked temporary file in blocks, so that memory stays flat however
 * many records there are: what lets an export write one task's events
 * together while the trace gives every task's events mixed. */
#pragma once

#include <glib.h>

typedef struct _FtlSpool FtlSpool;

/* record_size bytes per record (at most 1 KiB). NULL with error when no
 * temporary file can be made. Free with ftl_spool_free(). */
FtlSpool *ftl_spool_new(gsize record_size, GError **error);
void ftl_spool_free(FtlSpool *s);
/* Appends a record under key. FALSE with error when the file cannot be
 * written (then every later call fails too). */
gboolean ftl_spool_add(FtlSpool *s, guint key, const void *record, GError **error);
/* Records under key. */
guint64 ftl_spool_count(const FtlSpool *s, guint key);
/* Calls func for each record of key, in order; stops early when func
 * returns FALSE. FALSE with error when reading fails. */
typedef gboolean (*FtlSpoolFunc)(const void *record, gpointer data);
gboolean ftl_spool_read(FtlSpool *s, guint key, FtlSpoolFunc func, gpointer data, GError **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC(FtlSpool, ftl_spool_free)
