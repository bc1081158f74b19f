/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The node arena: zeroed, aligned, distinct objects across chunk sizes, walked in order. */
#include "config.h"

#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "unit.h"
#include "util/arena.h"

static void test_alloc(void)
{
	FtlArena a;
	ftl_arena_init(&a);
	/* past the first chunks and into huge ones, with an object bigger than a chunk */
	gsize sizes[] = { 1, 136, 4096, 3u * 1024 * 1024, 24 };
	char *prev = NULL;
	gboolean ok = TRUE;
	for (guint round = 0; round < 20000; round++) {
		gsize size = sizes[round % G_N_ELEMENTS(sizes)];
		if (size > 4096 && round > 10)
			size = 200;
		char *p = ftl_arena_alloc0(&a, size);
		ok = ok && ((guintptr)p & 15) == 0 && p != prev;
		for (gsize i = 0; i < size; i += 97)
			ok = ok && p[i] == 0;
		ok = ok && p[size - 1] == 0;
		memset(p, 0xa5, size); /* a neighbour's memory would show here */
		prev = p;
	}
	CU_ASSERT_TRUE(ok);
	ftl_arena_clear(&a);
	CU_ASSERT_PTR_NULL(a.chunks);
}

/* Walks a's objects of size bytes through its chunks, in the order made:
 * how many there are when each begins with its number (1, 2, ...) and
 * every chunk holds whole objects, else 0. */
static guint numbered_in_order(const FtlArena *a, gsize size)
{
	guint seen = 0;
	for (guint c = 0; c < ftl_arena_n_chunks(a); c++) {
		gsize used = 0;
		char *p = ftl_arena_chunk(a, c, &used);
		if (!p || used % size)
			return 0;
		for (gsize off = 0; off < used; off += size)
			if (*(guint *)(p + off) != ++seen)
				return 0;
	}
	return seen;
}

/* Objects of one size, walked back through the chunks, come in the order
 * they were made, none missing, none extra. */
static void test_chunks(void)
{
	FtlArena a;
	ftl_arena_init(&a);
	CU_ASSERT_EQUAL(ftl_arena_n_chunks(&a), 0);
	const guint n = 100000; /* 11 MB of 112-byte objects: small and huge chunks */
	for (guint i = 0; i < n; i++)
		*(guint *)ftl_arena_alloc0(&a, 112) = i + 1;
	CU_ASSERT_TRUE(ftl_arena_n_chunks(&a) > 3);
	CU_ASSERT_EQUAL(numbered_in_order(&a, 112), n);
	gsize used = 1;
	CU_ASSERT_PTR_NULL(ftl_arena_chunk(&a, ftl_arena_n_chunks(&a), &used));
	CU_ASSERT_EQUAL(used, 0); /* no chunk: nothing used, never a stale count */
	ftl_arena_clear(&a);
	CU_ASSERT_EQUAL(ftl_arena_n_chunks(&a), 0);
}

/* What is released is handed out again, zeroed, from the mark on, across
 * chunks; what came before the mark stays as it was. */
static void test_release(void)
{
	FtlArena a;
	ftl_arena_init(&a);
	FtlArenaMark empty = ftl_arena_mark(&a);
	for (guint i = 0; i < 1000; i++)
		*(guint *)ftl_arena_alloc0(&a, 112) = i + 1;
	FtlArenaMark m = ftl_arena_mark(&a);
	guint chunks = ftl_arena_n_chunks(&a);
	char *next = ftl_arena_alloc0(&a, 112);
	gboolean ok = TRUE;
	for (guint round = 0; round < 3; round++) {
		/* 6 MB: into new chunks, then back */
		for (guint i = 0; i < 60000; i++)
			memset(ftl_arena_alloc0(&a, 112), 0xa5, 112);
		ok = ok && ftl_arena_n_chunks(&a) > chunks;
		ftl_arena_release(&a, m);
		ok = ok && ftl_arena_n_chunks(&a) == chunks;
		char *p = ftl_arena_alloc0(&a, 112);
		ok = ok && p == next;
		for (guint i = 0; i < 60000; i++) {
			char *q = i ? ftl_arena_alloc0(&a, 112) : p;
			for (guint j = 0; j < 112; j++)
				ok = ok && q[j] == 0;
			memset(q, 0x5a, 112);
		}
		ftl_arena_release(&a, m);
	}
	CU_ASSERT_TRUE(ok);
	CU_ASSERT_EQUAL(numbered_in_order(&a, 112), 1000);
	ftl_arena_release(&a, empty);
	gsize used = 1;
	CU_ASSERT_TRUE(ftl_arena_chunk(&a, 0, &used) && used == 0);
	CU_ASSERT_EQUAL(*(guint *)ftl_arena_alloc0(&a, 112), 0);
	ftl_arena_clear(&a);
}

/* Copies are terminated and distinct; a large arena's first chunk is a
 * whole 2 MiB, aligned to it (what huge pages need). */
static void test_strndup_large(void)
{
	FtlArena a;
	ftl_arena_init_large(&a);
	char *p = ftl_arena_strndup(&a, "format\nID: 7", 6);
	char *q = ftl_arena_strndup(&a, "", 0);
	CU_ASSERT_STRING_EQUAL(p, "format");
	CU_ASSERT_STRING_EQUAL(q, "");
	CU_ASSERT_TRUE(q > p + 6);
	gsize used = 0;
	char *chunk = ftl_arena_chunk(&a, 0, &used);
	CU_ASSERT_EQUAL(ftl_arena_n_chunks(&a), 1);
	CU_ASSERT_EQUAL((guintptr)chunk % (2u << 20), 0);
	ftl_arena_clear(&a);
	ftl_arena_init(&a);
	ftl_arena_strndup(&a, "x", 1);
	ftl_arena_chunk(&a, 0, &used);
	CU_ASSERT_EQUAL(used, 16);
	ftl_arena_clear(&a);
}

/* Whether every page of len bytes at p is in memory. */
static gboolean resident(const void *p, gsize len)
{
	gsize page = (gsize)sysconf(_SC_PAGESIZE), n = (len + page - 1) / page;
	g_autofree unsigned char *v = g_malloc(n);
	if (mincore((void *)p, len, v) != 0)
		return FALSE;
	for (gsize i = 0; i < n; i++)
		if (!(v[i] & 1))
			return FALSE;
	return TRUE;
}

/* Whether this kernel takes MADV_POPULATE_WRITE (Linux 5.14 and later). */
static gboolean can_populate(void)
{
#ifdef MADV_POPULATE_WRITE
	void *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	gboolean ok = p != MAP_FAILED && madvise(p, 4096, MADV_POPULATE_WRITE) == 0;
	if (p != MAP_FAILED)
		munmap(p, 4096);
	return ok;
#else
	return FALSE;
#endif
}

/* 24 MB of objects in a prefaulting arena: each 2 MiB chunk after the
 * first was mapped ahead and faulted in by the helper before any object of
 * it was made; objects stay zeroed, distinct and in order. */
static void test_prefault(void)
{
	FtlArena a;
	ftl_arena_init(&a);
	ftl_arena_set_prefault(&a);
	gsize len = 0;
	CU_ASSERT_PTR_NULL(ftl_arena_ahead(&a, &len));
	const guint n = 200000;
	const void *ahead = NULL;
	guint used_ahead = 0, faulted = 0;
	gboolean ok = TRUE;
	for (guint i = 0; i < n; i++) {
		guint *p = ftl_arena_alloc0(&a, 128);
		if (ahead && (const void *)p == ahead)
			used_ahead++; /* the chunk mapped ahead is the next one used */
		ok = ok && p[0] == 0 && p[31] == 0;
		p[0] = i + 1;
		const void *now = ftl_arena_ahead(&a, &len);
		if (now != ahead && now && can_populate()) {
			/* the helper faults it in: no object of it was touched */
			for (guint tries = 0; tries < 1000 && !resident(now, len); tries++)
				g_usleep(10000);
			faulted += resident(now, len);
		}
		ahead = now;
	}
	CU_ASSERT_TRUE(ok);
	CU_ASSERT_EQUAL(len, 2u << 20);
	CU_ASSERT_TRUE(used_ahead >= 10);
	if (can_populate())
		CU_ASSERT_EQUAL(faulted, used_ahead + 1);
	CU_ASSERT_EQUAL(numbered_in_order(&a, 128), n);
	ftl_arena_clear(&a); /* waits for a job still running on the last chunk */
	CU_ASSERT_PTR_NULL(ftl_arena_ahead(&a, &len));
}

/* A child forked while the parent has its helper builds its own arena
 * without it (no job is pushed to a thread it does not have, no wait). */
static void test_prefault_fork(void)
{
	FtlArena a;
	ftl_arena_init(&a);
	ftl_arena_set_prefault(&a);
	for (guint i = 0; i < 40000; i++)
		ftl_arena_alloc0(&a, 128); /* 5 MB: the helper has a job */
	pid_t pid = fork();
	if (pid == 0) {
		alarm(20); /* a hang fails the test, it does not stall it */
		FtlArena b;
		ftl_arena_init(&b);
		ftl_arena_set_prefault(&b);
		gboolean ok = TRUE;
		for (guint i = 0; i < 80000; i++)
			ok = ok && *(guint *)ftl_arena_alloc0(&b, 128) == 0;
		ftl_arena_clear(&b);
		ftl_arena_clear(&a);
		_exit(ok ? 0 : 1);
	}
	CU_ASSERT_FATAL(pid > 0);
	int status = 0;
	CU_ASSERT_EQUAL(waitpid(pid, &status, 0), pid);
	CU_ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	ftl_arena_clear(&a);
}

static const UnitTest tests[] = {
	{ "zeroed, aligned, distinct", test_alloc },
	{ "chunks in order", test_chunks },
	{ "released memory reused, zeroed", test_release },
	{ "copies; large arenas start with an aligned 2 MiB chunk", test_strndup_large },
	{ "prefault: each next 2 MiB chunk faulted in ahead", test_prefault },
	{ "prefault: a forked child goes without the helper", test_prefault_fork },
	{ NULL, NULL },
};

int main(void)
{
	return unit_run("arena", tests);
}
