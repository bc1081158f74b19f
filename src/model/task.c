/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The task table. */
#include "model/task.h"

FtlTasks *ftl_tasks_new(void)
{
	FtlTasks *t = g_new0(FtlTasks, 1);
	t->by_pid = g_hash_table_new_full(g_direct_hash, g_direct_equal, NULL, g_free);
	for (guint i = 0; i < FTL_TASKS_RECENT; i++)
		t->recent[i].pid = -1;
	return t;
}

void ftl_tasks_free(FtlTasks *t)
{
	if (!t)
		return;
	g_hash_table_destroy(t->by_pid);
	g_free(t);
}

FtlTask *ftl_tasks_find(FtlTasks *t, gint32 pid)
{
	FtlTask *task = g_hash_table_lookup(t->by_pid, GINT_TO_POINTER(pid));
	if (!task) {
		task = g_new0(FtlTask, 1);
		task->pid = pid;
		task->tgid = -1;
		g_hash_table_insert(t->by_pid, GINT_TO_POINTER(pid), task);
	}
	guint slot = (guint)pid % FTL_TASKS_RECENT;
	t->recent[slot].pid = pid;
	t->recent[slot].task = task;
	return task;
}

const FtlTask *ftl_tasks_lookup(const FtlTasks *t, gint32 pid)
{
	return g_hash_table_lookup(t->by_pid, GINT_TO_POINTER(pid));
}

guint ftl_tasks_count(const FtlTasks *t)
{
	return g_hash_table_size(t->by_pid);
}

static gint tasks_cmp(gconstpointer a, gconstpointer b)
{
	const FtlTask *x = *(const FtlTask *const *)a, *y = *(const FtlTask *const *)b;
	return (x->pid > y->pid) - (x->pid < y->pid);
}

GPtrArray *ftl_tasks_sorted(const FtlTasks *t)
{
	GPtrArray *arr = g_ptr_array_sized_new(g_hash_table_size(t->by_pid));
	GHashTableIter it;
	gpointer v;
	g_hash_table_iter_init(&it, t->by_pid);
	while (g_hash_table_iter_next(&it, NULL, &v))
		g_ptr_array_add(arr, v);
	g_ptr_array_sort(arr, tasks_cmp);
	return arr;
}
