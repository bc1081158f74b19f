/* SPDX-License-Identifier: GPL-2.0-or-later */
/* parse/trial.c: a step tried in a child says how it ended, which item of
 * a list it crashed on, and leaves the parent's state and file offsets as
 * they were. */
#include "config.h"

#include <signal.h>
#include <string.h>
#include <stdio.h>
#include <unistd.h>

#include "parse/trial.h"
#include "unit.h"

static int step_ok(gpointer ctx, int arg)
{
	(void)arg;
	*(int *)ctx = 42; /* the child's copy only */
	return 0;
}

static int step_fails(gpointer ctx, int arg)
{
	(void)ctx;
	return arg;
}

/* Walks items from..9 and dies on item *(int *)ctx. */
static int step_list(gpointer ctx, int from)
{
	for (int i = from; i < 10; i++) {
		ftl_trial_progress((guint32)i);
		if (i == *(int *)ctx)
			raise(SIGSEGV);
	}
	return 0;
}

static void test_answers(void)
{
	int state = 1;
	gint64 at = 7;
	CU_ASSERT_EQUAL(ftl_trial_run(step_ok, &state, 0, &at), FTL_TRIAL_OK);
	CU_ASSERT_EQUAL(state, 1);
	CU_ASSERT_EQUAL(at, -1);
	CU_ASSERT_EQUAL(ftl_trial_run(step_fails, NULL, 3, NULL), FTL_TRIAL_FAILED);
	CU_ASSERT_EQUAL(ftl_trial_run(step_fails, NULL, 0, NULL), FTL_TRIAL_OK);
}

static void test_progress(void)
{
	int dies_at = 4;
	gint64 at = -1;
	CU_ASSERT_EQUAL(ftl_trial_run(step_list, &dies_at, 0, &at), FTL_TRIAL_CRASHED);
	CU_ASSERT_EQUAL(at, 4);
	/* going on past it, as rawdir.c does */
	CU_ASSERT_EQUAL(ftl_trial_run(step_list, &dies_at, 5, &at), FTL_TRIAL_OK);
	CU_ASSERT_EQUAL(at, 9);
	dies_at = 0;
	CU_ASSERT_EQUAL(ftl_trial_run(step_list, &dies_at, 0, &at), FTL_TRIAL_CRASHED);
	CU_ASSERT_EQUAL(at, 0);
}

static int step_reads(gpointer ctx, int arg)
{
	(void)arg;
	char buf[4];
	return fread(buf, 1, sizeof buf, ctx) == sizeof buf ? 0 : 1;
}

static void test_offsets_kept(void)
{
	FILE *f = tmpfile();
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fputs("0123456789", f);
	fflush(f);
	CU_ASSERT_EQUAL(lseek(fileno(f), 2, SEEK_SET), 2);
	CU_ASSERT_EQUAL(ftl_trial_run(step_reads, f, 0, NULL), FTL_TRIAL_OK);
	CU_ASSERT_EQUAL(lseek(fileno(f), 0, SEEK_CUR), 2);
	fclose(f);
}

/* The server's step: fails on odd arguments, dies on 13, and shows that
 * the child keeps its own state between questions. */
static int step_served(gpointer ctx, int arg)
{
	int *calls = ctx;
	if (arg == 13)
		raise(SIGSEGV);
	if (arg == 100)
		return *calls == 3 ? 0 : 1; /* the child's count of earlier questions */
	(*calls)++;
	return arg % 2;
}

static void test_server(void)
{
	int calls = 0;
	FtlTrialServer *s = ftl_trial_server_new(step_served, &calls);
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	CU_ASSERT_EQUAL(ftl_trial_server_ask(s, 2), FTL_TRIAL_OK);
	CU_ASSERT_EQUAL(ftl_trial_server_ask(s, 3), FTL_TRIAL_FAILED);
	CU_ASSERT_EQUAL(ftl_trial_server_ask(s, 4), FTL_TRIAL_OK);
	CU_ASSERT_EQUAL(ftl_trial_server_ask(s, 100), FTL_TRIAL_OK);
	CU_ASSERT_EQUAL(calls, 0); /* the parent's copy is untouched */
	CU_ASSERT_EQUAL(ftl_trial_server_ask(s, 13), FTL_TRIAL_CRASHED);
	/* the child is gone: no new fork, every later answer a crash */
	CU_ASSERT_EQUAL(ftl_trial_server_ask(s, 2), FTL_TRIAL_CRASHED);
	ftl_trial_server_free(s);
	/* a server that is never asked ends with its parent's hang-up */
	ftl_trial_server_free(ftl_trial_server_new(step_served, &calls));
}

/* A question with its matter sent along: the step reads it (NUL after
 * it), fails on "bad", dies on "die"; a payload larger than a socket's
 * buffer arrives whole. */
static int step_payload(gpointer ctx, int arg)
{
	(void)ctx;
	gsize len;
	const char *p = ftl_trial_payload(&len);
	if (p[len] != 0 || strlen(p) != len)
		return 1;
	if (strcmp(p, "die") == 0)
		raise(SIGSEGV);
	if (arg == 7)
		return len == 1 << 20 && p[(1 << 20) - 1] == 'x' ? 0 : 1;
	return strcmp(p, "bad") == 0 || (arg == 0 && len != 0);
}

static void test_server_payload(void)
{
	FtlTrialServer *s = ftl_trial_server_new(step_payload, NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	CU_ASSERT_TRUE(ftl_trial_server_alive(s));
	CU_ASSERT_EQUAL(ftl_trial_server_ask_with(s, 1, "good", 4), FTL_TRIAL_OK);
	CU_ASSERT_EQUAL(ftl_trial_server_ask_with(s, 1, "bad", 3), FTL_TRIAL_FAILED);
	/* a question without one after one with: the last payload is gone */
	CU_ASSERT_EQUAL(ftl_trial_server_ask(s, 0), FTL_TRIAL_OK);
	g_autofree char *big = g_malloc(1 << 20);
	memset(big, 'x', 1 << 20);
	CU_ASSERT_EQUAL(ftl_trial_server_ask_with(s, 7, big, 1 << 20), FTL_TRIAL_OK);
	CU_ASSERT_EQUAL(ftl_trial_server_ask_with(s, 1, "die", 3), FTL_TRIAL_CRASHED);
	CU_ASSERT_FALSE(ftl_trial_server_alive(s));
	CU_ASSERT_EQUAL(ftl_trial_server_ask_with(s, 1, "good", 4), FTL_TRIAL_CRASHED);
	ftl_trial_server_free(s);
}

int main(void)
{
	static const UnitTest tests[] = {
		{ "answers", test_answers },
		{ "progress names the crashing item", test_progress },
		{ "file offsets kept", test_offsets_kept },
		{ "a server answers question after question", test_server },
		{ "a question's payload reaches the server's step", test_server_payload },
		{ NULL, NULL },
	};
	return unit_run("trial", tests);
}
