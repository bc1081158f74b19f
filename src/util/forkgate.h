/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Forks that wait for the worker threads' jobs to end.
 *
 * A child forked while another thread holds a lock inherits the lock held,
 * by a thread it does not have: the first time the child takes it, it
 * waits forever. glibc's malloc takes its locks around fork(); the
 * sanitizers' allocators (GCC 12's) and ftlens's own mutexes do not. The
 * trial children of parse/trial.c are forked while the pools of other
 * inputs may be reading (a second trace.dat opened while the first one's
 * blocks are decoded), and such a child hung on the sanitizer's allocator
 * lock until its 60 s bound made a sound file "damaged" (t2047).
 *
 * The pools' jobs (the work between taking a job and handing its result
 * over, during which they allocate and take ftlens's locks) are bracketed
 * by ftl_fork_gate_enter()/leave(); ftl_fork_gated() waits until no job is
 * inside, holds new ones back for the moment of the fork, and forks. A job
 * must not wait inside the gate for the thread that forks. A thread that is
 * inside a job when it forks forks at once (it cannot wait for itself). */
#pragma once

#include <sys/types.h>

void ftl_fork_gate_enter(void);
void ftl_fork_gate_leave(void);

/* fork(), once no other thread is inside a job. */
pid_t ftl_fork_gated(void);
