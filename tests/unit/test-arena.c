/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The node arena: zeroed, aligned, distinct objects across chunk sizes. */
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

static const UnitTest tests[] = {
	{ "zeroed, aligned, distinct", test_alloc },
	{ NULL, NULL },
};

int main(void)
{
	return unit_run("arena", tests);
}
