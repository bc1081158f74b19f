/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Library calls that crash on damaged input, tried in a child process
 * first: only what survives there is done in ftlens itself. Private to
 * parse/ (tracecmd-guard.c for libtracecmd, rawdir.c for libtraceevent's
 * format parser). */
#pragma once

#include "config.h"

#include <glib.h>

/* What a trial did. */
typedef enum {
	FTL_TRIAL_OK = 0,      /* the step returned 0 in the child */
	FTL_TRIAL_FAILED = 1,  /* it returned nonzero: a clean failure */
	FTL_TRIAL_CRASHED = -1 /* it crashed, or hung twice */
} FtlTrialResult;

typedef int (*FtlTrialStep)(gpointer ctx, int arg);

/* Runs step(ctx, arg) in a forked child (copy-on-write, cheap; the parent's
 * file offsets are kept) with stdout and stderr sent to /dev/null. A step
 * that works through a list says where it is with ftl_trial_progress()
 * before each item: *progress (when not NULL) gets the last index the child
 * announced, -1 for none, so that the parent knows which item crashed; and
 * a step is stuck when it has not moved on for a minute, not when the
 * whole list takes long. When no child can be made the step is not tried
 * and FTL_TRIAL_OK is returned: the caller takes the risk. */
FtlTrialResult ftl_trial_run(FtlTrialStep step, gpointer ctx, int arg, gint64 *progress);

/* ftl_trial_run() for a call nothing else guards: ftlens cannot check
 * beforehand what it will touch (libtracecmd's own page reading). The
 * fuzz targets, which run the calls ftlens validates in-process for speed
 * (tests/fuzz/fuzz-run.c), still fork for these: ftl_trial_only_line()
 * says so to their fork(). */
FtlTrialResult ftl_trial_run_only_line(FtlTrialStep step, gpointer ctx, int arg);
gboolean ftl_trial_only_line(void);

/* Inside a step only: the child is at item k. */
void ftl_trial_progress(guint32 k);

/* One child that tries step(ctx, arg) for argument after argument, for
 * the steps a reader meets as it goes (an event format the first time a
 * record needs it): a fork per file, not per step, made before the
 * reader's threads start. ctx is the child's copy as it was at
 * ftl_trial_server_new(). NULL when no child can be made: the caller
 * takes the risk, as ftl_trial_run() does. Free with
 * ftl_trial_server_free(). */
typedef struct _FtlTrialServer FtlTrialServer;

FtlTrialServer *ftl_trial_server_new(FtlTrialStep step, gpointer ctx);
/* The same, for steps nothing else guards (ftl_trial_run_only_line()). */
FtlTrialServer *ftl_trial_server_new_only_line(FtlTrialStep step, gpointer ctx);
/* How step(ctx, arg) ends in the child. Once a step has crashed or hung
 * the child is gone, and every later question is answered
 * FTL_TRIAL_CRASHED (a new fork could meet a lock another thread held). */
FtlTrialResult ftl_trial_server_ask(FtlTrialServer *server, int arg);
/* The same with len bytes of data sent along: the child's step reads them
 * with ftl_trial_payload() (a question whose matter the child's copy of
 * ctx does not hold: a child that serves the whole process). */
FtlTrialResult ftl_trial_server_ask_with(FtlTrialServer *server, int arg, const void *data,
					 guint32 len);
/* Inside a server's step only: the bytes sent with the question (NUL
 * after them), and their length; "" and 0 for none. */
const char *ftl_trial_payload(gsize *len);
/* FALSE once the child is gone (it crashed or hung on a question). */
gboolean ftl_trial_server_alive(const FtlTrialServer *server);
void ftl_trial_server_free(FtlTrialServer *server);
