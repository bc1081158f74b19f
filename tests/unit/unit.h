/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Shared CUnit glue: register a suite, run it verbosely, exit nonzero on failure. */
#pragma once

#include <CUnit/Basic.h>
#include <glib.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
	const char *name;
	CU_TestFunc fn;
} UnitTest;

static inline int unit_run(const char *suite_name, const UnitTest *tests)
{
	if (CU_initialize_registry() != CUE_SUCCESS)
		return 99;
	CU_pSuite suite = CU_add_suite(suite_name, NULL, NULL);
	/* FTL_UNIT_ONLY=TEXT runs the tests whose name has TEXT (one at a time
	 * while working on it; make check never sets it) */
	const char *only = g_getenv("FTL_UNIT_ONLY");
	for (const UnitTest *t = tests; t->name; t++)
		if (!only || strstr(t->name, only))
			CU_add_test(suite, t->name, t->fn);
	CU_basic_set_mode(CU_BRM_VERBOSE);
	CU_basic_run_tests();
	unsigned failed = CU_get_number_of_failures() + CU_get_number_of_tests_failed();
	unsigned run = CU_get_number_of_tests_run();
	CU_cleanup_registry();
	return failed || run == 0 ? 1 : 0;
}
