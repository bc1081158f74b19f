/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The traced command: forked paused, released once tracing runs, stopped
 * (and always reaped) when the capture ends. */
#include "config.h"

#include "capture/child.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "util/error.h"
#include "util/fdio.h"

struct _FtlChild {
	pid_t pid;
	int go_fd;     /* write end: one byte lets the child exec */
	int status_fd; /* read end: errno of a failed exec, EOF on success */
	int status;    /* wait status, -1 while running */
	char *name;
};

char **ftl_child_env(const char *tracefs, const char *buffer_dir)
{
	GPtrArray *env = g_ptr_array_new();
	g_ptr_array_add(env, g_strdup_printf("FTLENS_TRACE_MARKER=%s/trace_marker", buffer_dir));
	g_ptr_array_add(env, g_strdup_printf("FTLENS_TRACEFS=%s", tracefs));
	g_ptr_array_add(env, NULL);
	return (char **)g_ptr_array_free(env, FALSE);
}

FtlChild *ftl_child_spawn(char **argv, char **env, GError **error)
{
	/* Everything the child needs is built before fork: after it, only
	 * read(), write(), execvpe() and _exit(). */
	char **envp = g_get_environ();
	for (char **e = env; e && *e; e++) {
		const char *eq = strchr(*e, '=');
		g_autofree char *name = g_strndup(*e, (gsize)(eq - *e));
		envp = g_environ_setenv(envp, name, eq + 1, TRUE);
	}
	int go[2], st[2];
	if (pipe2(go, O_CLOEXEC) != 0) {
		int e = errno;
		g_strfreev(envp);
		g_set_error(error, FTL_ERROR, FTL_ERROR_IO, "pipe: %s", g_strerror(e));
		return NULL;
	}
	if (pipe2(st, O_CLOEXEC) != 0) {
		int e = errno;
		close(go[0]);
		close(go[1]);
		g_strfreev(envp);
		g_set_error(error, FTL_ERROR, FTL_ERROR_IO, "pipe: %s", g_strerror(e));
		return NULL;
	}
	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0) {
		int e = errno;
		close(go[0]);
		close(go[1]);
		close(st[0]);
		close(st[1]);
		g_strfreev(envp);
		g_set_error(error, FTL_ERROR, FTL_ERROR_IO, "fork: %s", g_strerror(e));
		return NULL;
	}
	if (pid == 0) {
		char c;
		close(go[1]);
		close(st[0]);
		/* The parent's stop signals only count; the command gets the
		 * ordinary ones (exec resets caught signals anyway). */
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		signal(SIGHUP, SIG_DFL);
		if (read(go[0], &c, 1) != 1)
			_exit(127); /* the capture gave up before starting it */
		execvpe(argv[0], argv, envp);
		int e = errno;
		if (write(st[1], &e, sizeof e) < 0)
			_exit(127);
		_exit(127);
	}
	close(go[0]);
	close(st[1]);
	g_strfreev(envp);
	FtlChild *c = g_new0(FtlChild, 1);
	c->pid = pid;
	c->go_fd = go[1];
	c->status_fd = st[0];
	c->status = -1;
	c->name = g_strdup(argv[0]);
	return c;
}

pid_t ftl_child_pid(const FtlChild *c)
{
	return c->pid;
}

gboolean ftl_child_release(FtlChild *c, GError **error)
{
	ftl_fd_write_all(c->go_fd, "g", 1, -1);
	close(c->go_fd);
	c->go_fd = -1;
	int e = 0;
	gssize n = ftl_fd_read(c->status_fd, &e, sizeof e);
	close(c->status_fd);
	c->status_fd = -1;
	if (n == (gssize)sizeof e) {
		/* Reap it now: it exited with 127 right after telling. */
		while (waitpid(c->pid, &c->status, 0) < 0 && errno == EINTR)
			;
		g_set_error(error, FTL_ERROR, FTL_ERROR_IO, "cannot run '%s': %s", c->name,
			    g_strerror(e));
		return FALSE;
	}
	return TRUE;
}

gboolean ftl_child_exited(FtlChild *c)
{
	if (c->status != -1)
		return TRUE;
	int st;
	pid_t r = waitpid(c->pid, &st, WNOHANG);
	if (r == c->pid) {
		c->status = st;
		return TRUE;
	}
	return FALSE;
}

int ftl_child_status(const FtlChild *c)
{
	return c->status;
}

void ftl_child_stop(FtlChild *c, int sig, guint grace_ms)
{
	if (ftl_child_exited(c))
		return;
	if (c->go_fd >= 0) {
		/* Never released: closing the pipe makes it exit without exec. */
		close(c->go_fd);
		c->go_fd = -1;
	} else {
		kill(c->pid, sig);
	}
	for (guint waited = 0; waited < grace_ms; waited += 10) {
		if (ftl_child_exited(c))
			return;
		g_usleep(10000);
	}
	kill(c->pid, SIGKILL);
	while (waitpid(c->pid, &c->status, 0) < 0 && errno == EINTR)
		;
}

void ftl_child_free(FtlChild *c)
{
	if (!c)
		return;
	ftl_child_stop(c, SIGKILL, 1000);
	if (c->go_fd >= 0)
		close(c->go_fd);
	if (c->status_fd >= 0)
		close(c->status_fd);
	g_free(c->name);
	g_free(c);
}
