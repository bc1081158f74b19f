/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What one libftlens-marker call costs: markers written into the
 * trace_marker the library finds (FTLENS_TRACE_MARKER), and the no-op path
 * when there is none. Prints ns per call, best of 5 rounds. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <ftlens/marker.h>

static double now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static double best_ns_per_call(ftlens_marker *m, long n)
{
	double best = 0;
	for (int round = 0; round < 5; round++) {
		double t0 = now_ns();
		for (long i = 0; i < n; i++)
			ftlens_marker_print(m, "ftlens bench marker, 40 bytes of text..");
		double per = (now_ns() - t0) / n;
		if (round == 0 || per < best)
			best = per;
	}
	return best;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 20000;
	ftlens_marker *m = ftlens_marker_open();
	if (!m) {
		fprintf(stderr, "marker-bench: out of memory\n");
		return 1;
	}
	printf("%-44s %10.1f ns/call (%s)\n", "ftlens_marker_print, 40 bytes",
	       best_ns_per_call(m, n),
	       ftlens_marker_path(m) ? ftlens_marker_path(m) : "no tracefs: no-op path");
	ftlens_marker_close(m);
	return 0;
}
