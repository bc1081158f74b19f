/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Comm recovery over hand-built events: each event kind that names a task,
 * and the rule that a name a line prefix showed is never replaced. */
#include "config.h"

#include <string.h>

#include "analysis/comm.h"
#include "evbuild.h"
#include "unit.h"

typedef struct {
	FtlTasks *tasks;
	FtlCommRecovery *c;
} Fixture;

/* pids the "line prefixes" showed as "<...>" (as the parser notes them) */
static void fixture_init(Fixture *f, const gint32 *unnamed, guint n)
{
	evb_intern(""); /* makes the pool */
	f->tasks = ftl_tasks_new();
	for (guint i = 0; i < n; i++)
		ftl_tasks_note(f->tasks, unnamed[i], -1, NULL, FALSE);
	f->c = ftl_comm_new(f->tasks, evb_pool);
}

static void fixture_clear(Fixture *f)
{
	ftl_comm_free(f->c);
	ftl_tasks_free(f->tasks);
}

static void feed(Fixture *f, FtlEvent e)
{
	ftl_comm_feed(f->c, &e);
}

static const char *name_of(Fixture *f, gint32 pid)
{
	const FtlTask *t = ftl_tasks_lookup(f->tasks, pid);
	return t ? t->comm : NULL;
}

static gboolean recovered(Fixture *f, gint32 pid)
{
	const FtlTask *t = ftl_tasks_lookup(f->tasks, pid);
	return t && t->recovered;
}

static void test_sched_switch(void)
{
	const gint32 pids[] = { 100, 200 };
	Fixture f;
	fixture_init(&f, pids, 2);
	feed(&f, evb_switch(1, 0, "bash", 100, "kworker/0:1", 200));
	ftl_comm_finish(f.c);
	CU_ASSERT_STRING_EQUAL(name_of(&f, 100), "bash");
	CU_ASSERT_STRING_EQUAL(name_of(&f, 200), "kworker/0:1");
	CU_ASSERT_TRUE(recovered(&f, 100));
	CU_ASSERT_EQUAL(ftl_comm_recovered(f.c), 2);
	fixture_clear(&f);
}

static void test_wakeup_and_task_switch(void)
{
	const gint32 pids[] = { 300, 301, 302 };
	Fixture f;
	fixture_init(&f, pids, 3);
	feed(&f, evb_wakeup(1, 0, 1, "x", 300, 1));
	feed(&f, evb_task_switch(2, 1, "sh", 301, "cat", 302));
	ftl_comm_finish(f.c);
	CU_ASSERT_STRING_EQUAL(name_of(&f, 300), "x");
	CU_ASSERT_STRING_EQUAL(name_of(&f, 301), "sh");
	CU_ASSERT_STRING_EQUAL(name_of(&f, 302), "cat");
	CU_ASSERT_EQUAL(ftl_comm_recovered(f.c), 3);
	fixture_clear(&f);
}

static void test_exec(void)
{
	const gint32 pids[] = { 400, 401, 402 };
	Fixture f;
	fixture_init(&f, pids, 3);
	feed(&f, evb_generic(1, 0, 400, NULL, "sched_process_exec",
			     "filename=/usr/bin/ls pid=400 old_pid=400"));
	/* basename cut to 15 characters, like the kernel's comm */
	feed(&f, evb_generic(2, 0, 401, NULL, "sched_process_exec",
			     "filename=/opt/x/a-very-long-program-name pid=401 old_pid=401"));
	/* no '/' in the file name: nothing learned */
	feed(&f,
	     evb_generic(3, 0, 402, NULL, "sched_process_exec", "filename= pid=402 old_pid=402"));
	ftl_comm_finish(f.c);
	CU_ASSERT_STRING_EQUAL(name_of(&f, 400), "ls");
	CU_ASSERT_STRING_EQUAL(name_of(&f, 401), "a-very-long-pro");
	CU_ASSERT_EQUAL(strlen(name_of(&f, 401)), 15);
	CU_ASSERT_PTR_NULL(name_of(&f, 402));
	CU_ASSERT_EQUAL(ftl_comm_recovered(f.c), 2);
	fixture_clear(&f);
}

static void test_rename_fork_waking_newtask(void)
{
	const gint32 pids[] = { 500, 501, 502, 503, 504 };
	Fixture f;
	fixture_init(&f, pids, 5);
	feed(&f, evb_generic(1, 0, 500, NULL, "task_rename",
			     "pid=500 oldcomm=old newcomm=new name oom_score_adj=0"));
	feed(&f, evb_generic(2, 0, 1, "sh", "sched_process_fork",
			     "comm=parent pid=501 child_comm=child child_pid=502"));
	feed(&f, evb_generic(3, 0, 1, "sh", "sched_waking",
			     "comm=Web Content pid=503 prio=120 target_cpu=001"));
	feed(&f, evb_generic(4, 0, 1, "sh", "task_newtask",
			     "pid=504 comm=worker clone_flags=3d0f00 oom_score_adj=0"));
	ftl_comm_finish(f.c);
	CU_ASSERT_STRING_EQUAL(name_of(&f, 500), "new name");
	CU_ASSERT_STRING_EQUAL(name_of(&f, 501), "parent");
	CU_ASSERT_STRING_EQUAL(name_of(&f, 502), "child");
	CU_ASSERT_STRING_EQUAL(name_of(&f, 503), "Web Content");
	CU_ASSERT_STRING_EQUAL(name_of(&f, 504), "worker");
	CU_ASSERT_EQUAL(ftl_comm_recovered(f.c), 5);
	fixture_clear(&f);
}

static void test_last_name_wins(void)
{
	const gint32 pids[] = { 600 };
	Fixture f;
	fixture_init(&f, pids, 1);
	feed(&f, evb_switch(1, 0, "sh", 600, "x", 601));
	feed(&f, evb_generic(2, 0, 600, NULL, "sched_process_exec",
			     "filename=/bin/cat pid=600 old_pid=600"));
	ftl_comm_finish(f.c);
	CU_ASSERT_STRING_EQUAL(name_of(&f, 600), "cat");
	fixture_clear(&f);
}

static void test_seen_names_kept(void)
{
	const gint32 pids[] = { 700 };
	Fixture f;
	fixture_init(&f, pids, 1);
	/* pid 701 showed its name in a line prefix */
	ftl_tasks_note(f.tasks, 701, -1, evb_intern("real"), FALSE);
	feed(&f, evb_switch(1, 0, "other", 701, "found", 700));
	feed(&f, evb_generic(2, 0, 1, "sh", "task_rename", "pid=701 oldcomm=a newcomm=b"));
	ftl_comm_finish(f.c);
	CU_ASSERT_STRING_EQUAL(name_of(&f, 701), "real");
	CU_ASSERT_FALSE(recovered(&f, 701));
	CU_ASSERT_STRING_EQUAL(name_of(&f, 700), "found");
	CU_ASSERT_EQUAL(ftl_comm_recovered(f.c), 1);
	/* a prefix seen after recovery still wins */
	ftl_tasks_note(f.tasks, 700, -1, evb_intern("prefix"), FALSE);
	CU_ASSERT_STRING_EQUAL(name_of(&f, 700), "prefix");
	CU_ASSERT_FALSE(recovered(&f, 700));
	fixture_clear(&f);
}

static void test_only_unnamed_pids(void)
{
	Fixture f;
	fixture_init(&f, NULL, 0);
	/* no line showed pid 800 at all: the table does not grow */
	feed(&f, evb_switch(1, 0, "a", 800, "b", 801));
	ftl_comm_finish(f.c);
	CU_ASSERT_PTR_NULL(ftl_tasks_lookup(f.tasks, 800));
	CU_ASSERT_EQUAL(ftl_tasks_count(f.tasks), 0);
	CU_ASSERT_EQUAL(ftl_comm_recovered(f.c), 0);
	fixture_clear(&f);
}

static void test_label(void)
{
	const gint32 pids[] = { 900, 902 };
	Fixture f;
	fixture_init(&f, pids, 2);
	ftl_tasks_note(f.tasks, 901, -1, evb_intern("seen"), FALSE);
	feed(&f, evb_wakeup(1, 0, 1, "woken", 900, 0));
	ftl_comm_finish(f.c);
	char buf[32];
	CU_ASSERT_STRING_EQUAL(ftl_comm_label(f.tasks, 900, buf, sizeof buf), "woken*");
	CU_ASSERT_STRING_EQUAL(ftl_comm_label(f.tasks, 901, buf, sizeof buf), "seen");
	CU_ASSERT_STRING_EQUAL(ftl_comm_label(f.tasks, 902, buf, sizeof buf), "<...>");
	CU_ASSERT_STRING_EQUAL(ftl_comm_label(f.tasks, 999, buf, sizeof buf), "<...>");
	CU_ASSERT_STRING_EQUAL(ftl_comm_label(f.tasks, -1, buf, sizeof buf), "-");
	CU_ASSERT_PTR_EQUAL(ftl_comm_label(f.tasks, 900, buf, sizeof buf), buf);
	char small[4];
	CU_ASSERT_STRING_EQUAL(ftl_comm_label(f.tasks, 900, small, sizeof small), "wok");
	fixture_clear(&f);
}

/* Pids that share a slot of the table's recent tasks (FTL_TASKS_RECENT
 * apart), noted in turn, each keep what was said of them. */
static void test_tasks_recent_collide(void)
{
	g_autoptr(FtlTasks) t = ftl_tasks_new();
	const gint32 a = 7, b = 7 + FTL_TASKS_RECENT, c = 7 + 2 * FTL_TASKS_RECENT;
	for (gint i = 0; i < 3; i++) {
		ftl_tasks_note(t, a, 70, evb_intern("aa"), FALSE);
		ftl_tasks_note(t, b, -1, NULL, FALSE);
		ftl_tasks_note(t, c, 90, evb_intern("cc"), TRUE);
	}
	/* a recovered name never replaces one a line showed */
	ftl_tasks_note(t, a, -1, evb_intern("zz"), TRUE);
	ftl_tasks_note(t, b, 80, evb_intern("bb"), TRUE);
	ftl_tasks_note(t, c, -1, evb_intern("c2"), FALSE);
	CU_ASSERT_EQUAL(ftl_tasks_count(t), 3);
	const FtlTask *ta = ftl_tasks_lookup(t, a), *tb = ftl_tasks_lookup(t, b),
		      *tc = ftl_tasks_lookup(t, c);
	CU_ASSERT_STRING_EQUAL(ta->comm, "aa");
	CU_ASSERT_EQUAL(ta->tgid, 70);
	CU_ASSERT_FALSE(ta->recovered);
	CU_ASSERT_STRING_EQUAL(tb->comm, "bb");
	CU_ASSERT_EQUAL(tb->tgid, 80);
	CU_ASSERT_TRUE(tb->recovered);
	CU_ASSERT_STRING_EQUAL(tc->comm, "c2");
	CU_ASSERT_EQUAL(tc->tgid, 90);
	CU_ASSERT_FALSE(tc->recovered);
	/* a pid never noted is not made by a lookup */
	CU_ASSERT_PTR_NULL(ftl_tasks_lookup(t, 7 + 3 * FTL_TASKS_RECENT));
	CU_ASSERT_PTR_NULL(ftl_tasks_lookup(t, -1));
}

static const UnitTest tests[] = {
	{ "sched_switch names both tasks", test_sched_switch },
	{ "sched_wakeup and task-switch separators", test_wakeup_and_task_switch },
	{ "sched_process_exec: basename, 15 characters", test_exec },
	{ "task_rename, fork, waking, newtask", test_rename_fork_waking_newtask },
	{ "the last name wins", test_last_name_wins },
	{ "names seen in a prefix are kept", test_seen_names_kept },
	{ "only pids shown as <...> get names", test_only_unnamed_pids },
	{ "labels", test_label },
	{ "the task table's recent pids collide", test_tasks_recent_collide },
	{ NULL, NULL },
};

int main(void)
{
	int rc = unit_run("comm", tests);
	g_clear_pointer(&evb_pool, ftl_strpool_free);
	return rc;
}
