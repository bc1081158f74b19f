/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The arena's chunks: anonymous mappings, huge-page aligned once large. */
#include "util/arena.h"

#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define ARENA_FIRST (64u * 1024)
#define ARENA_HUGE  (2u * 1024 * 1024)

typedef struct {
	void *map; /* what to munmap (or g_free, when heap) */
	gsize len;
	gboolean heap;	 /* the first, small chunk: from malloc */
	gsize used;	 /* bytes handed out, once the chunk is full */
	gint populating; /* a prefault job still runs on it (atomic) */
} ArenaChunk;

/* Prefault jobs: one helper thread for every arena of the process (the
 * kernel zeroes pages one fault at a time anyway). A forked child has no
 * helper: it neither pushes jobs nor waits for its parent's. */
static GMutex prefault_lock;
static GCond prefault_done;
static GThreadPool *prefault_pool;
static gint prefault_pid; /* the process whose helper it is (atomic) */

/* Whether this process has the helper (before it exists: it will). */
static gboolean arena_prefault_here(void)
{
	gint pid = g_atomic_int_get(&prefault_pid);
	return !pid || pid == (gint)getpid();
}

static void arena_prefault_job(gpointer data, gpointer unused)
{
	ArenaChunk *c = data;
	(void)unused;
#ifdef MADV_POPULATE_WRITE
	/* the kernel allocates the zeroed pages: nothing is written, so the
	 * allocating thread may use the chunk before this ends (older
	 * kernels refuse the advice: the chunk is then faulted in as used) */
	madvise(c->map, c->len, MADV_POPULATE_WRITE);
#endif
	g_mutex_lock(&prefault_lock);
	g_atomic_int_set(&c->populating, 0);
	g_cond_broadcast(&prefault_done);
	g_mutex_unlock(&prefault_lock);
}

static void arena_prefault(ArenaChunk *c)
{
	if (!arena_prefault_here())
		return; /* a forked child: the lock may have been held at the fork */
	g_mutex_lock(&prefault_lock);
	if (!prefault_pool) {
		prefault_pool = g_thread_pool_new(arena_prefault_job, NULL, 1, FALSE, NULL);
		g_atomic_int_set(&prefault_pid, (gint)getpid());
	}
	if (prefault_pool) {
		g_atomic_int_set(&c->populating, 1);
		g_thread_pool_push(prefault_pool, c, NULL);
	}
	g_mutex_unlock(&prefault_lock);
}

static void arena_chunk_free(gpointer p)
{
	ArenaChunk *c = p;
	if (g_atomic_int_get(&c->populating) && arena_prefault_here()) {
		g_mutex_lock(&prefault_lock);
		while (g_atomic_int_get(&c->populating))
			g_cond_wait(&prefault_done, &prefault_lock);
		g_mutex_unlock(&prefault_lock);
	}
	if (c->heap)
		g_free(c->map);
	else
		munmap(c->map, c->len);
	g_free(c);
}

void ftl_arena_init(FtlArena *a)
{
	a->chunks = g_ptr_array_new_with_free_func(arena_chunk_free);
	a->cur = NULL;
	a->left = 0;
	a->next_size = ARENA_FIRST;
	a->spare = NULL;
	a->prefault = FALSE;
	a->ahead = NULL;
}

void ftl_arena_set_prefault(FtlArena *a)
{
	a->prefault = TRUE;
}

const void *ftl_arena_ahead(const FtlArena *a, gsize *len)
{
	const ArenaChunk *c = a->ahead;
	*len = c ? c->len : 0;
	return c ? c->map : NULL;
}

void ftl_arena_init_large(FtlArena *a)
{
	ftl_arena_init(a);
	a->next_size = ARENA_HUGE;
}

void ftl_arena_clear(FtlArena *a)
{
	g_clear_pointer(&a->chunks, g_ptr_array_unref);
	g_clear_pointer(&a->spare, g_ptr_array_unref);
	g_clear_pointer(&a->ahead, arena_chunk_free);
	a->cur = NULL;
	a->left = 0;
}

/* A fresh zeroed chunk of len bytes (mmap gives zeroed pages); a huge one
 * is aligned and offered to transparent huge pages. */
static ArenaChunk *arena_map(gsize len)
{
	if (len <= ARENA_FIRST) {
		/* an arena's first chunk comes from malloc's heap, whose pages
		 * are mostly in use already: a small tree (a short trace, each
		 * fuzzing input) then costs no mapping and no munmap, whose TLB
		 * shootdown reached every CPU the process had run on */
		ArenaChunk *c = g_new(ArenaChunk, 1);
		*c = (ArenaChunk){ g_malloc0(len), len, TRUE, 0, 0 };
		return c;
	}
	gboolean huge = len >= ARENA_HUGE;
	if (huge)
		len = (len + ARENA_HUGE - 1) / ARENA_HUGE * ARENA_HUGE;
	/* a huge chunk is mapped with room to align it, the rest given back */
	gsize map_len = huge ? len + ARENA_HUGE : len;
	char *p = mmap(NULL, map_len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		g_error("out of memory: %" G_GSIZE_FORMAT " bytes for tree nodes", map_len);
	char *start = p;
	if (huge) {
		start = (char *)(((guintptr)p + ARENA_HUGE - 1) & ~(guintptr)(ARENA_HUGE - 1));
		if (start > p)
			munmap(p, (gsize)(start - p));
		if (start + len < p + map_len)
			munmap(start + len, (gsize)(p + map_len - (start + len)));
#ifdef MADV_HUGEPAGE
		madvise(start, len, MADV_HUGEPAGE);
#endif
	}
#ifdef MADV_POPULATE_WRITE
	else {
		/* a small chunk's pages are all used soon: one call faults them
		 * in, where touching them took an exception per 4 KiB (most of
		 * their cost in a virtual machine) */
		madvise(start, len, MADV_POPULATE_WRITE);
	}
#endif
	ArenaChunk *c = g_new(ArenaChunk, 1);
	c->map = start;
	c->len = len;
	c->heap = FALSE;
	c->used = 0;
	c->populating = 0;
	return c;
}

/* Makes a chunk of at least size bytes the last one: a spare, the chunk
 * faulted in ahead, or a fresh one. */
static void arena_grow(FtlArena *a, gsize size)
{
	if (a->chunks->len) {
		ArenaChunk *last = g_ptr_array_index(a->chunks, a->chunks->len - 1);
		last->used = last->len - a->left;
	}
	ArenaChunk *c =
		a->spare && a->spare->len ? g_ptr_array_index(a->spare, a->spare->len - 1) : NULL;
	if (c && c->len >= size) {
		g_ptr_array_steal_index(a->spare, a->spare->len - 1);
	} else if (a->ahead && ((ArenaChunk *)a->ahead)->len >= size) {
		c = a->ahead;
		a->ahead = NULL;
	} else {
		c = arena_map(MAX(a->next_size, size));
		a->next_size = MIN(a->next_size * 2, (gsize)ARENA_HUGE);
	}
	g_ptr_array_add(a->chunks, c);
	a->cur = c->map;
	a->left = c->len;
	if (a->prefault && !a->ahead && c->len >= ARENA_HUGE) {
		a->ahead = arena_map(ARENA_HUGE);
		arena_prefault(a->ahead);
	}
}

gpointer ftl_arena_alloc0(FtlArena *a, gsize size)
{
	size = (size + 15) & ~(gsize)15;
	if (size > a->left)
		arena_grow(a, size);
	gpointer p = a->cur;
	a->cur += size;
	a->left -= size;
	return p;
}

char *ftl_arena_strndup(FtlArena *a, const char *s, gsize n)
{
	char *p = ftl_arena_alloc0(a, n + 1);
	memcpy(p, s, n);
	return p;
}

char *ftl_arena_chunk(const FtlArena *a, guint i, gsize *used)
{
	if (!a->chunks || i >= a->chunks->len) {
		*used = 0;
		return NULL;
	}
	ArenaChunk *c = g_ptr_array_index(a->chunks, i);
	*used = i + 1 == a->chunks->len ? c->len - a->left : c->used;
	return c->map;
}

guint ftl_arena_n_chunks(const FtlArena *a)
{
	return a->chunks ? a->chunks->len : 0;
}

void ftl_arena_release(FtlArena *a, FtlArenaMark mark)
{
	guint n = ftl_arena_n_chunks(a);
	if (!n || mark.n_chunks > n)
		return;
	/* later chunks go back zeroed to the spares, kept mapped for reuse */
	for (; n > MAX(mark.n_chunks, 1); n--) {
		gsize used = 0;
		char *p = ftl_arena_chunk(a, n - 1, &used);
		memset(p, 0, used);
		if (!a->spare)
			a->spare = g_ptr_array_new_with_free_func(arena_chunk_free);
		g_ptr_array_add(a->spare, g_ptr_array_steal_index(a->chunks, n - 1));
		ArenaChunk *c = g_ptr_array_index(a->chunks, n - 2);
		a->cur = (char *)c->map + c->used;
		a->left = c->len - c->used;
	}
	ArenaChunk *c = g_ptr_array_index(a->chunks, 0 + n - 1);
	char *at = mark.n_chunks ? mark.cur : c->map;
	if (at < a->cur) {
		memset(at, 0, (gsize)(a->cur - at));
		a->left += (gsize)(a->cur - at);
		a->cur = at;
	}
}
