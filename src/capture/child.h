/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The command a capture traces: started paused, so that its pid can go into
 * the pid filters before it runs, released once tracing is on, and stopped
 * when the capture ends first. */
#pragma once

#include <glib.h>
#include <sys/types.h>

typedef struct _FtlChild FtlChild;

/* Forks argv (searched in PATH) with env (NULL-terminated "NAME=value"
 * strings added to ftlens's environment); the child waits in the fork until
 * ftl_child_release(). */
FtlChild *ftl_child_spawn(char **argv, char **env, GError **error);
pid_t ftl_child_pid(const FtlChild *c);
/* Lets the child exec. An exec failure ("no such file") is the error. */
gboolean ftl_child_release(FtlChild *c, GError **error);
/* TRUE once the child has exited (its wait status is then kept). */
gboolean ftl_child_exited(FtlChild *c);
/* The wait status; -1 while it runs. */
int ftl_child_status(const FtlChild *c);
/* Ends a child that still runs: sig first, SIGKILL after grace_ms. */
void ftl_child_stop(FtlChild *c, int sig, guint grace_ms);
/* Stops the child if it still runs (SIGKILL) and frees. */
void ftl_child_free(FtlChild *c);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(FtlChild, ftl_child_free)

/* The environment a traced command gets: FTLENS_TRACE_MARKER, the trace_marker
 * of the recorded buffer (the marker API writes there, so markers land in the
 * recording, not in the top-level buffer), and FTLENS_TRACEFS. */
char **ftl_child_env(const char *tracefs, const char *buffer_dir);
