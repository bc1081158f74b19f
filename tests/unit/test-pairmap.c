/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The pointer-pair map: lookups through growth, overwrites, absent keys. */
#include "config.h"

#include "unit.h"
#include "util/pairmap.h"

static void test_put_get_grow(void)
{
	static char a[1000], b[10];
	FtlPairMap m;
	ftl_pairmap_init(&m);
	/* many pairs sharing their first or their second pointer */
	for (guint i = 0; i < G_N_ELEMENTS(a); i++)
		for (guint j = 0; j < G_N_ELEMENTS(b); j++)
			ftl_pairmap_put(&m, &a[i], &b[j], GUINT_TO_POINTER(i * 10 + j + 1));
	CU_ASSERT_EQUAL(m.n, G_N_ELEMENTS(a) * G_N_ELEMENTS(b));
	CU_ASSERT_TRUE(m.n * 2 <= m.mask + 1);
	gboolean all = TRUE;
	for (guint i = 0; i < G_N_ELEMENTS(a); i++)
		for (guint j = 0; j < G_N_ELEMENTS(b); j++)
			all = all && ftl_pairmap_get(&m, &a[i], &b[j]) ==
					     GUINT_TO_POINTER(i * 10 + j + 1);
	CU_ASSERT_TRUE(all);
	/* the pair is the key: the same pointers swapped are another key */
	CU_ASSERT_PTR_NULL(ftl_pairmap_get(&m, &b[0], &a[0]));
	CU_ASSERT_PTR_NULL(ftl_pairmap_get(&m, &a[0], NULL));
	ftl_pairmap_put(&m, &a[5], &b[5], GUINT_TO_POINTER(7));
	CU_ASSERT_EQUAL(m.n, G_N_ELEMENTS(a) * G_N_ELEMENTS(b));
	CU_ASSERT_PTR_EQUAL(ftl_pairmap_get(&m, &a[5], &b[5]), GUINT_TO_POINTER(7));
	/* a NULL second pointer is a key like any other */
	ftl_pairmap_put(&m, &b[1], NULL, &a[3]);
	CU_ASSERT_PTR_EQUAL(ftl_pairmap_get(&m, &b[1], NULL), &a[3]);
	ftl_pairmap_clear(&m);
	CU_ASSERT_PTR_NULL(m.slots);
}

static const UnitTest tests[] = {
	{ "put, get and growth", test_put_get_grow },
	{ NULL, NULL },
};

int main(void)
{
	return unit_run("pairmap", tests);
}
