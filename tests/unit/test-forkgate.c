/* SPDX-License-Identifier: GPL-2.0-or-later */
/* util/forkgate.c: a fork waits for the jobs inside the gate, a thread that
 * forks from inside a job is not held, and opening a trace.dat starts no
 * thread (its block readers start at the first read): the trial children
 * forked for the inputs opened next meet no running thread. Orders, not
 * timings, are checked. */
#include "config.h"

#include <sys/wait.h>
#include <unistd.h>

#include "model/iter.h"
#include "parse/open.h"
#include "unit.h"
#include "util/forkgate.h"

typedef struct {
	GMutex lock;
	GCond cond;
	gboolean inside;
	gint left; /* set before the job leaves the gate */
} Job;

static gpointer job_thread(gpointer data)
{
	Job *j = data;
	ftl_fork_gate_enter();
	g_mutex_lock(&j->lock);
	j->inside = TRUE;
	g_cond_broadcast(&j->cond);
	g_mutex_unlock(&j->lock);
	g_usleep(100000);
	g_atomic_int_set(&j->left, 1);
	ftl_fork_gate_leave();
	return NULL;
}

static void test_fork_waits_for_job(void)
{
	Job j = { 0 };
	GThread *t = g_thread_new("job", job_thread, &j);
	g_mutex_lock(&j.lock);
	while (!j.inside)
		g_cond_wait(&j.cond, &j.lock);
	g_mutex_unlock(&j.lock);
	pid_t pid = ftl_fork_gated();
	if (pid == 0)
		_exit(0);
	CU_ASSERT_TRUE_FATAL(pid > 0);
	/* the job had left the gate when the fork happened */
	CU_ASSERT_EQUAL(g_atomic_int_get(&j.left), 1);
	int status = 0;
	CU_ASSERT_EQUAL(waitpid(pid, &status, 0), pid);
	CU_ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	g_thread_join(t);
}

static void test_fork_inside_job(void)
{
	/* nested jobs, then a fork from inside: at once, and the gate still
	 * works for the child and after */
	ftl_fork_gate_enter();
	ftl_fork_gate_enter();
	pid_t pid = ftl_fork_gated();
	if (pid == 0) {
		ftl_fork_gate_leave();
		ftl_fork_gate_leave();
		ftl_fork_gate_enter();
		ftl_fork_gate_leave();
		_exit(0);
	}
	ftl_fork_gate_leave();
	ftl_fork_gate_leave();
	int status = 0;
	CU_ASSERT_EQUAL(waitpid(pid, &status, 0), pid);
	CU_ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	pid = ftl_fork_gated();
	if (pid == 0)
		_exit(0);
	CU_ASSERT_EQUAL(waitpid(pid, &status, 0), pid);
}

static guint threads_now(void)
{
	g_autoptr(GDir) d = g_dir_open("/proc/self/task", 0, NULL);
	guint n = 0;
	while (d && g_dir_read_name(d))
		n++;
	return n;
}

static void test_open_starts_no_thread(void)
{
	const char *dir = g_getenv("FTL_TESTDATA");
	g_autofree char *path = g_build_filename(dir ? dir : "tests/data", "overrun",
						 "overrun.dat", NULL);
	FtlReadOptions ro = { .threads = 4 };
	guint before = threads_now();
	g_autoptr(GError) error = NULL;
	FtlTrace *trace = ftl_trace_open_with(path, FTL_OPEN_NONE, &ro, &error);
	CU_ASSERT_PTR_NOT_NULL_FATAL(trace);
	CU_ASSERT_EQUAL(threads_now(), before);
	FtlIter *it = ftl_iter_new(trace, NULL);
	const FtlEvent *ev;
	guint64 n = 0;
	while (ftl_iter_next(it, &ev, &error) == FTL_STATUS_OK)
		n++;
	CU_ASSERT_PTR_NULL(error);
	CU_ASSERT_TRUE(n > 0);
	ftl_iter_free(it);
	ftl_trace_free(trace);
}

int main(void)
{
	static const UnitTest tests[] = {
		{ "a fork waits for the job inside the gate", test_fork_waits_for_job },
		{ "a fork from inside a job is not held", test_fork_inside_job },
		{ "opening a trace.dat starts no thread", test_open_starts_no_thread },
		{ NULL, NULL },
	};
	return unit_run("forkgate", tests);
}
