/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Binary inputs through the event model: fields read by name from raw pages
 * and trace.dat records, agreeing with the decoded kinds, and comm recovery
 * working on them. Reads the rig's raw-fgraph fixture ($FTL_TESTDATA) and,
 * when present, a public trace.dat ($FTL_REAL_DATA); 77 without them. */
#include "config.h"

#include <glib/gstdio.h>
#include <string.h>

#include "analysis/comm.h"
#include "model/iter.h"
#include "parse/open.h"
#include "unit.h"

static char *raw_dir;
static char *lisa_dat;

static gint64 field_int(const FtlEvent *ev, const char *key, gboolean *found)
{
	FtlSlice v;
	gint64 n = G_MININT64;
	*found = ftl_event_field(ev, key, &v) && ftl_slice_to_i64(v, &n);
	return n;
}

static FtlTrace *open_or_fail(const char *path)
{
	g_autoptr(GError) error = NULL;
	FtlTrace *t = ftl_trace_open(path, FTL_OPEN_NONE, &error);
	CU_ASSERT_PTR_NOT_NULL(t);
	if (error)
		fprintf(stderr, "%s\n", error->message);
	return t;
}

/* sched_process_fork has no kind of its own: its fields come by name. */
static void test_raw_generic_fields(void)
{
	g_autoptr(FtlTrace) t = open_or_fail(raw_dir);
	if (!t)
		return;
	g_autoptr(FtlIter) it = ftl_iter_new(t, NULL);
	const FtlEvent *ev;
	guint forks = 0;
	while (ftl_iter_next(it, &ev, NULL) == FTL_STATUS_OK) {
		if (g_strcmp0(ev->name, "sched_process_fork") != 0)
			continue;
		gboolean f1, f2, f3;
		gint64 child = field_int(ev, "child_pid", &f1);
		/* printed as "comm=sh pid=95", the fields are parent_comm/parent_pid */
		gint64 parent = field_int(ev, "parent_pid", &f2);
		gint64 common = field_int(ev, "common_pid", &f3);
		CU_ASSERT(f1 && f2 && f3);
		CU_ASSERT(child > parent);
		CU_ASSERT_EQUAL(common, ev->pid);
		FtlSlice comm;
		CU_ASSERT(ftl_event_field(ev, "child_comm", &comm) && ftl_slice_eq(comm, "sh"));
		CU_ASSERT_FALSE(ftl_event_field(ev, "no_such_field", &comm));
		forks++;
	}
	CU_ASSERT(forks >= 5);
}

/* Kinds decoded into the union agree with the same fields read by name. */
static void check_switch_fields(FtlTrace *t, guint *n)
{
	g_autoptr(FtlIter) it = ftl_iter_new(t, NULL);
	const FtlEvent *ev;
	while (ftl_iter_next(it, &ev, NULL) == FTL_STATUS_OK) {
		if (ev->kind != FTL_EVENT_SCHED_SWITCH)
			continue;
		gboolean f1, f2, f3;
		CU_ASSERT_EQUAL(field_int(ev, "prev_pid", &f1), ev->u.sw.prev_pid);
		CU_ASSERT_EQUAL(field_int(ev, "next_pid", &f2), ev->u.sw.next_pid);
		CU_ASSERT_EQUAL(field_int(ev, "next_prio", &f3), ev->u.sw.next_prio);
		CU_ASSERT(f1 && f2 && f3);
		FtlSlice c;
		CU_ASSERT(ftl_event_field(ev, "next_comm", &c) && ev->u.sw.next_comm &&
			  ftl_slice_eq(c, ev->u.sw.next_comm));
		(*n)++;
	}
}

static void test_raw_switch_fields(void)
{
	g_autoptr(FtlTrace) t = open_or_fail(raw_dir);
	guint n = 0;
	if (t)
		check_switch_fields(t, &n);
	CU_ASSERT(n > 100);
}

static void test_tracedat_switch_fields(void)
{
	if (!lisa_dat) {
		fprintf(stderr, "(skipped: real/raw/lisa_rtapp_6cpu_trace.dat absent from "
				"$FTL_REAL_DATA) ");
		return;
	}
	g_autoptr(FtlTrace) t = open_or_fail(lisa_dat);
	guint n = 0;
	if (t)
		check_switch_fields(t, &n);
	CU_ASSERT(n > 100);
}

/* Without saved_cmdlines every pid is "<...>"; sched_process_fork's
 * child_comm, read by name from the pages, names the children. */
static void test_raw_comm_recovery(void)
{
	g_autofree char *dir = g_dir_make_tmp("ftl-binary-XXXXXX", NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(dir);
	const char *keep[] = { "per_cpu", "events", "kallsyms", "printk_formats", "trace_clock" };
	for (guint i = 0; i < G_N_ELEMENTS(keep); i++) {
		g_autofree char *from = g_build_filename(raw_dir, keep[i], NULL);
		g_autofree char *to = g_build_filename(dir, keep[i], NULL);
		CU_ASSERT_EQUAL(symlink(from, to), 0);
	}
	g_autoptr(FtlTrace) t = open_or_fail(dir);
	if (t) {
		g_autoptr(FtlCommRecovery) c = ftl_comm_new(ftl_trace_tasks(t), ftl_trace_pool(t));
		g_autoptr(FtlIter) it = ftl_iter_new(t, NULL);
		const FtlEvent *ev;
		gint32 child = -1;
		while (ftl_iter_next(it, &ev, NULL) == FTL_STATUS_OK) {
			if (ev->pid > 0) /* libtraceevent names pid 0 "<idle>" */
				CU_ASSERT_PTR_NULL(ev->comm);
			gboolean found;
			if (child < 0 && g_strcmp0(ev->name, "sched_process_fork") == 0)
				child = (gint32)field_int(ev, "child_pid", &found);
			ftl_comm_feed(c, ev);
		}
		ftl_comm_finish(c);
		char buf[64];
		CU_ASSERT(child > 0);
		CU_ASSERT_STRING_EQUAL(ftl_comm_label(ftl_trace_tasks(t), child, buf, sizeof buf),
				       "sh*");
		CU_ASSERT(ftl_comm_recovered(c) > 0);
	}
	for (guint i = 0; i < G_N_ELEMENTS(keep); i++) {
		g_autofree char *to = g_build_filename(dir, keep[i], NULL);
		g_unlink(to);
	}
	g_rmdir(dir);
}

int main(void)
{
	const char *td = g_getenv("FTL_TESTDATA");
	const char *rd = g_getenv("FTL_REAL_DATA");
	raw_dir = g_build_filename(td ? td : "tests/data", "vm", "raw-fgraph", "raw", NULL);
	if (!g_file_test(raw_dir, G_FILE_TEST_IS_DIR)) {
		fprintf(stderr, "skip: %s missing\n", raw_dir);
		return 77;
	}
	if (rd) {
		lisa_dat = g_build_filename(rd, "raw", "lisa_rtapp_6cpu_trace.dat", NULL);
		if (!g_file_test(lisa_dat, G_FILE_TEST_IS_REGULAR))
			g_clear_pointer(&lisa_dat, g_free);
	}
	static const UnitTest tests[] = {
		{ "raw pages: generic fields by name", test_raw_generic_fields },
		{ "raw pages: sched_switch fields by name = decoded", test_raw_switch_fields },
		{ "trace.dat: sched_switch fields by name = decoded", test_tracedat_switch_fields },
		{ "raw pages: comm recovery from fields", test_raw_comm_recovery },
		{ NULL, NULL },
	};
	int rc = unit_run("binary", tests);
	g_free(raw_dir);
	g_free(lisa_dat);
	return rc;
}
