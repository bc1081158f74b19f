/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Zeroed memory for many small objects freed all at once (tree nodes).
 *
 * Chunks grow from 64 KiB to 2 MiB; 2 MiB chunks are aligned and offered to
 * transparent huge pages, so that a tree of millions of nodes costs a page
 * fault per 2 MiB rather than per 4 KiB (faults are most of the cost of
 * making a node in a virtual machine). */
#pragma once

#include <glib.h>

typedef struct {
	GPtrArray *chunks; /* FtlArenaChunk* */
	char *cur;	   /* free space of the last chunk */
	gsize left;
	gsize next_size; /* size of the next chunk */
	GPtrArray *spare; /* chunks given back by ftl_arena_release(), zeroed */
	gboolean prefault;
	gpointer ahead; /* the next 2 MiB chunk, being faulted in (prefault) */
} FtlArena;

/* A place in the arena: what was allocated up to some moment. */
typedef struct {
	guint n_chunks; /* chunks then */
	char *cur;	/* the free space of the last one then */
} FtlArenaMark;

void ftl_arena_init(FtlArena *a);
/* As ftl_arena_init(), with 2 MiB chunks from the first: for an arena
 * that holds megabytes (a capture's event formats), which the growing
 * small chunks would fault in 4 KiB at a time. */
void ftl_arena_init_large(FtlArena *a);
/* For an arena that grows to many megabytes in a thread whose time counts
 * (the call tree of a big trace): once its chunks are 2 MiB, the next one
 * is mapped in advance and faulted in by a helper thread while the last
 * one fills, so the allocating thread rarely waits for the kernel to zero
 * a page. At most one chunk more is kept than is used. */
void ftl_arena_set_prefault(FtlArena *a);
/* The chunk mapped ahead of need (*len bytes), NULL when there is none. */
const void *ftl_arena_ahead(const FtlArena *a, gsize *len);
/* Frees every object and the chunks. */
void ftl_arena_clear(FtlArena *a);
/* size zeroed bytes aligned to 16, valid until ftl_arena_clear(). */
gpointer ftl_arena_alloc0(FtlArena *a, gsize size);
/* A NUL-terminated copy of the n bytes at s, valid until ftl_arena_clear(). */
char *ftl_arena_strndup(FtlArena *a, const char *s, gsize n);
/* The memory handed out, in the order it was: chunk i (0 .. n_chunks - 1)
 * starts at the pointer returned and *used bytes of it were allocated
 * (NULL and 0 past the last chunk).
 * Objects of one size (a multiple of 16) lie back to back in each chunk,
 * so a tree of nodes made parents first can be swept in that order, or
 * backwards, without a list of them. */
guint ftl_arena_n_chunks(const FtlArena *a);
char *ftl_arena_chunk(const FtlArena *a, guint i, gsize *used);
/* The place the next allocation comes from. */
static inline FtlArenaMark ftl_arena_mark(const FtlArena *a)
{
	return (FtlArenaMark){ a->chunks ? a->chunks->len : 0, a->cur };
}
/* Gives back every object allocated since mark: their memory is zeroed and
 * handed out again, where fresh pages would each cost a fault. Objects
 * from before mark stay. */
void ftl_arena_release(FtlArena *a, FtlArenaMark mark);
