/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Stop requests for the capture loops, counted by async-signal-safe handlers. */
#include "config.h"

#include "capture/signals.h"

#include <errno.h>
#include <signal.h>
#include <string.h>
#include <time.h>

static const int signals_caught[] = { SIGINT, SIGTERM, SIGHUP };
#define SIGNALS_N G_N_ELEMENTS(signals_caught)

static volatile sig_atomic_t signals_n;
static volatile sig_atomic_t signals_last_seen;
static struct sigaction signals_old[SIGNALS_N];
static gboolean signals_installed;

static void signals_handler(int sig)
{
	signals_n++;
	signals_last_seen = sig;
}

void ftl_signals_install(void)
{
	if (signals_installed)
		return;
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = signals_handler;
	sigemptyset(&sa.sa_mask);
	/* No SA_RESTART: a blocking poll() or waitpid() returns EINTR, so the
	 * loops see the request at once. */
	sa.sa_flags = 0;
	for (guint i = 0; i < SIGNALS_N; i++)
		sigaction(signals_caught[i], &sa, &signals_old[i]);
	signals_installed = TRUE;
}

void ftl_signals_restore(void)
{
	if (!signals_installed)
		return;
	for (guint i = 0; i < SIGNALS_N; i++)
		sigaction(signals_caught[i], &signals_old[i], NULL);
	signals_installed = FALSE;
}

guint ftl_signals_count(void)
{
	return (guint)signals_n;
}

int ftl_signals_last(void)
{
	return (int)signals_last_seen;
}

void ftl_signals_sleep(guint ms)
{
	struct timespec ts = { .tv_sec = ms / 1000, .tv_nsec = (long)(ms % 1000) * 1000000L };
	guint before = ftl_signals_count();
	/* nanosleep returns EINTR on a signal; keep sleeping only for others
	 * (SIGCHLD, for instance). */
	while (nanosleep(&ts, &ts) < 0 && errno == EINTR && ftl_signals_count() == before)
		;
}
