/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The progress line on stderr, for long reads on a terminal. */
#include "config.h"

#include "util/progress.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

/* Work shorter than this shows nothing; FTLENS_PROGRESS_DELAY_MS changes it
 * (tests set 0). */
#define PROGRESS_DELAY_US  G_GINT64_CONSTANT(1000000)
#define PROGRESS_REDRAW_US G_GINT64_CONSTANT(250000)

static GMutex progress_lock;
static guint64 progress_total, progress_done;
static gboolean progress_unknown; /* a stream of unknown size takes part */
static gint64 progress_start, progress_last, progress_delay = -1;
static gboolean progress_drawn;
static int progress_tty = -1;

void ftl_progress_expect(guint64 bytes)
{
	g_mutex_lock(&progress_lock);
	progress_total += bytes;
	if (!bytes)
		progress_unknown = TRUE;
	g_mutex_unlock(&progress_lock);
}

static void progress_draw(gint64 now)
{
	double secs = (double)(now - progress_start) / 1e6;
	double mb = (double)progress_done / 1e6;
	double rate = secs > 0 ? mb / secs : 0;
	char line[128];
	int n;
	if (!progress_unknown && progress_total >= progress_done && progress_total > 0 &&
	    rate > 0) {
		double left = ((double)(progress_total - progress_done) / 1e6) / rate;
		n = snprintf(line, sizeof line,
			     "ftlens: %.0f of %.0f MB (%.0f%%), %.0f MB/s, %.0f s left", mb,
			     (double)progress_total / 1e6,
			     100.0 * (double)progress_done / (double)progress_total, rate, left);
	} else {
		n = snprintf(line, sizeof line, "ftlens: %.0f MB read, %.0f MB/s", mb, rate);
	}
	fprintf(stderr, "\r%s%*s", line, n < 72 ? 72 - n : 0, "");
	fflush(stderr);
	progress_drawn = TRUE;
	progress_last = now;
}

void ftl_progress_advance(guint64 bytes)
{
	g_mutex_lock(&progress_lock);
	if (progress_tty < 0) {
		progress_tty = isatty(STDERR_FILENO);
		const char *d = g_getenv("FTLENS_PROGRESS_DELAY_MS");
		progress_delay = d ? g_ascii_strtoll(d, NULL, 10) * 1000 : PROGRESS_DELAY_US;
	}
	gint64 now = g_get_monotonic_time();
	if (!progress_start)
		progress_start = now;
	progress_done += bytes;
	if (progress_tty && now - progress_start >= progress_delay &&
	    (!progress_drawn || now - progress_last >= PROGRESS_REDRAW_US))
		progress_draw(now);
	g_mutex_unlock(&progress_lock);
}

void ftl_progress_finish(void)
{
	g_mutex_lock(&progress_lock);
	if (progress_drawn) {
		fprintf(stderr, "\r%*s\r", 72, "");
		fflush(stderr);
	}
	progress_drawn = FALSE;
	progress_total = progress_done = 0;
	progress_unknown = FALSE;
	progress_start = progress_last = 0;
	g_mutex_unlock(&progress_lock);
}
