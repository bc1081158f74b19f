/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Interned strings: equal text gives the same pointer, so analyses compare names by address.
 * Interning is thread-safe, except in a pool made by ftl_strpool_new_local(). */
#pragma once

#include <glib.h>

typedef struct _FtlStrPool FtlStrPool;

FtlStrPool *ftl_strpool_new(void);
/* A pool only one thread uses (a tree's own names): no lock is taken, which
 * was a fifth of interning a name. */
FtlStrPool *ftl_strpool_new_local(void);
void ftl_strpool_free(FtlStrPool *pool);
/* Returns a NUL-terminated copy of s[0..len) owned by the pool; lives as long as
 * the pool. The same text always returns the same pointer. */
const char *ftl_strpool_intern_len(FtlStrPool *pool, const char *s, gsize len);
const char *ftl_strpool_intern(FtlStrPool *pool, const char *s);
guint ftl_strpool_size(const FtlStrPool *pool);
/* A number no other pool of the process has had: caches of interned
 * pointers check it, since a new pool may come at a freed one's address. */
guint64 ftl_strpool_id(const FtlStrPool *pool);
/* The pool's hash of s[0..len), 64 bits (kallsyms.c keys whole texts by
 * it). */
guint64 ftl_strpool_hash(const char *s, gsize len);
/* The slot of an interned string in a direct-mapped cache of 1 << bits
 * slots keyed by its address (Fibonacci hashing: a pool's neighbours
 * spread over the slots). */
static inline guint ftl_strpool_slot(const char *interned, guint bits)
{
	return (guint)(((guint64)(guintptr)interned * G_GUINT64_CONSTANT(0x9E3779B97F4A7C15)) >>
		       (64 - bits));
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC(FtlStrPool, ftl_strpool_free)
