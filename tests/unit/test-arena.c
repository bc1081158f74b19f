/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The node arena: zeroed, aligned, distinct objects across chunk sizes, walked in order. */
#include "config.h"

#include <string.h>

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
	guint seen = 0;
	gboolean ok = TRUE;
	for (guint c = 0; c < ftl_arena_n_chunks(&a); c++) {
		gsize used = 0;
		char *p = ftl_arena_chunk(&a, c, &used);
		ok = ok && p && used % 112 == 0;
		for (gsize off = 0; p && off < used; off += 112)
			ok = ok && *(guint *)(p + off) == ++seen;
	}
	CU_ASSERT_TRUE(ok);
	CU_ASSERT_EQUAL(seen, n);
	gsize used = 1;
	CU_ASSERT_PTR_NULL(ftl_arena_chunk(&a, ftl_arena_n_chunks(&a), &used));
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
	guint seen = 0;
	for (guint c = 0; c < ftl_arena_n_chunks(&a); c++) {
		gsize used = 0;
		char *p = ftl_arena_chunk(&a, c, &used);
		for (gsize off = 0; off < used; off += 112)
			ok = ok && *(guint *)(p + off) == ++seen;
	}
	CU_ASSERT_TRUE(ok);
	CU_ASSERT_EQUAL(seen, 1000);
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

static const UnitTest tests[] = {
	{ "zeroed, aligned, distinct", test_alloc },
	{ "chunks in order", test_chunks },
	{ "released memory reused, zeroed", test_release },
	{ "copies; large arenas start with an aligned 2 MiB chunk", test_strndup_large },
	{ NULL, NULL },
};

int main(void)
{
	return unit_run("arena", tests);
}
