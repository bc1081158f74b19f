/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"

#include "util/forkgate.h"

#include <glib.h>
#include <unistd.h>

static GMutex gate_lock;
static GCond gate_cond;
static guint gate_jobs;	   /* threads inside a job */
static guint gate_forking; /* threads waiting to fork, or forking */
static __thread guint gate_depth; /* this thread's nesting of jobs */

void ftl_fork_gate_enter(void)
{
	if (gate_depth++)
		return;
	g_mutex_lock(&gate_lock);
	while (gate_forking)
		g_cond_wait(&gate_cond, &gate_lock);
	gate_jobs++;
	g_mutex_unlock(&gate_lock);
}

void ftl_fork_gate_leave(void)
{
	if (--gate_depth)
		return;
	g_mutex_lock(&gate_lock);
	if (!--gate_jobs)
		g_cond_broadcast(&gate_cond);
	g_mutex_unlock(&gate_lock);
}

pid_t ftl_fork_gated(void)
{
	if (gate_depth)
		return fork();
	g_mutex_lock(&gate_lock);
	gate_forking++;
	while (gate_jobs)
		g_cond_wait(&gate_cond, &gate_lock);
	/* held across the fork: the child's copy is unlocked by the thread
	 * that holds it, its only one */
	pid_t pid = fork();
	gate_forking--;
	if (pid != 0)
		g_cond_broadcast(&gate_cond);
	g_mutex_unlock(&gate_lock);
	return pid;
}
