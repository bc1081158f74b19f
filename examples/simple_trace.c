/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The simple_trace.c of the ftrace debugging articles, done with
 * libftlens-marker: tracing on, markers around some work, tracing off.
 *
 * The original looked for debugfs by hand, assumed /tracing under it, and
 * wrote to file descriptors that might be -1. Here the library finds the
 * trace_marker (an instance's when `ftlens record` says so in the
 * environment), every call is harmless when tracing is unavailable, and a
 * wall-clock anchor lets `ftlens markers` print wall times.
 *
 *   cc simple_trace.c $(pkg-config --cflags --libs ftlens-marker)
 *   ./simple_trace [--keep-on] [--fail] [LABEL]
 *   ftlens markers --span 'before (.*)' 'after \1' trace.sav
 *
 * --keep-on leaves tracing on at the end (for a later dump, e.g. on an oops);
 * --fail pretends the work failed: tracing is switched off right there, so the
 * ring buffer keeps what led up to the failure, and the exit status is 1. */
#include <ftlens/marker.h>

#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* Some real kernel work for the trace to show: open, read, a short sleep. */
static int critical_function(int round, int fail)
{
	char buf[256];
	int fd = open("/proc/self/stat", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	ssize_t n = read(fd, buf, sizeof buf);
	close(fd);
	struct timespec ts = { 0, 1000000 };
	nanosleep(&ts, NULL);
	return n > 0 && !(fail && round == 2) ? 0 : -1;
}

int main(int argc, char **argv)
{
	const char *label = "simple_trace";
	int keep_on = 0, fail = 0;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--keep-on")) {
			keep_on = 1;
		} else if (!strcmp(argv[i], "--fail")) {
			fail = 1;
		} else if (argv[i][0] == '-' || i != argc - 1) {
			fprintf(stderr, "usage: simple_trace [--keep-on] [--fail] [LABEL]\n");
			return 2;
		} else {
			label = argv[i];
		}
	}

	ftlens_marker *m = ftlens_marker_open();
	int st = ftlens_marker_status(m);
	if (st != 0)
		fprintf(stderr, "simple_trace: no trace_marker (%s); markers are off\n",
			strerror(-st));
	else
		fprintf(stderr, "simple_trace: markers go to %s\n", ftlens_marker_path(m));

	ftlens_marker_tracing_on(m);
	ftlens_marker_wallclock(m);
	ftlens_marker_printf(m, "before %s", label);
	int rc = 0;
	for (int round = 1; round <= 3; round++) {
		ftlens_marker_printf(m, "%s round %d", label, round);
		if (critical_function(round, fail) < 0) {
			/* Stop the ring buffer now: what led here is what matters. */
			ftlens_marker_printf(m, "%s failed in round %d", label, round);
			ftlens_marker_tracing_off(m);
			rc = 1;
			break;
		}
	}
	if (rc == 0) {
		ftlens_marker_printf(m, "after %s", label);
		if (!keep_on)
			ftlens_marker_tracing_off(m);
	}
	ftlens_marker_close(m);
	return rc;
}
