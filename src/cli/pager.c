/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The pager: ftlens's stdout piped into $PAGER while it runs. */
#include "config.h"

#include "cli/pager.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "util/output.h"

/* The pager's pid: the one state a signal handler needs (0: none). */
static volatile pid_t pager_pid;
static const int pager_signals[] = { SIGINT, SIGTERM, SIGHUP, SIGPIPE };

/* EOF to the pager, then wait until the user quits it: the shell must not
 * take the terminal back while less still draws on it. Signal-safe. */
static void pager_wait(void)
{
	if (!pager_pid)
		return;
	close(STDOUT_FILENO);
	close(STDERR_FILENO);
	while (waitpid(pager_pid, NULL, 0) < 0 && errno == EINTR)
		;
	pager_pid = 0;
}

static void pager_at_exit(void)
{
	if (!pager_pid)
		return;
	fflush(stdout);
	fflush(stderr);
	pager_wait();
}

static void pager_on_signal(int sig)
{
	/* the writer's handlers stood aside for this one: its temp files go */
	ftl_output_remove_pending();
	pager_wait();
	/* the reader quit: what is left to print has no one to read it */
	if (sig == SIGPIPE)
		_exit(0);
	signal(sig, SIG_DFL);
	raise(sig);
}

/* $PAGER is run as git runs it: as one program name when it is one word,
 * else through sh -c, so that PAGER="less -S" or a pipeline work as in
 * every other tool that reads $PAGER (git, man). */
static char **pager_argv(const char *pager)
{
	if (strcspn(pager, "|&;<>()$`\\\"' \t\n*?[#~=%") == strlen(pager))
		return g_strdupv((char *[]){ (char *)pager, NULL });
	return g_strdupv((char *[]){ "/bin/sh", "-c", (char *)pager, NULL });
}

void ftl_pager_start(void)
{
	const char *pager = g_getenv("PAGER");
	if (!pager)
		pager = "less";
	if (pager_pid || !isatty(STDOUT_FILENO) || !*pager || strcmp(pager, "cat") == 0)
		return;
	int fds[2];
	if (pipe(fds) != 0)
		return;
	g_auto(GStrv) argv = pager_argv(pager);
	g_auto(GStrv) envp = g_get_environ();
	envp = g_environ_setenv(envp, "LESS", "FRX", FALSE);
	envp = g_environ_setenv(envp, "LV", "-c", FALSE);
	GPid pid;
	if (!g_spawn_async_with_fds(NULL, argv, envp,
				    G_SPAWN_SEARCH_PATH | G_SPAWN_DO_NOT_REAP_CHILD,
				    NULL, NULL, &pid, fds[0], -1, -1, NULL)) {
		close(fds[0]);
		close(fds[1]);
		return;
	}
	close(fds[0]);
	fflush(stdout);
	fflush(stderr);
	/* stderr follows (as git's does) so that messages printed after the
	 * output are not drawn over the pager's screen; the progress line
	 * then stays off, stderr being no terminal */
	dup2(fds[1], STDOUT_FILENO);
	if (isatty(STDERR_FILENO))
		dup2(fds[1], STDERR_FILENO);
	close(fds[1]);
	pager_pid = pid;
	for (guint i = 0; i < G_N_ELEMENTS(pager_signals); i++) {
		struct sigaction sa = { 0 };
		sa.sa_handler = pager_on_signal;
		sigemptyset(&sa.sa_mask);
		sigaction(pager_signals[i], &sa, NULL);
	}
	atexit(pager_at_exit);
}

gboolean ftl_pager_active(void)
{
	return pager_pid != 0;
}
