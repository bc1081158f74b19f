/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Times what the TUI's source line costs when the cursor lands on a
 * function: one ftl_source_map_where() each, in the order given, on a map
 * as the TUI opens it (nothing read before the first). bench/symbols.sh
 * runs it on the rig kernel's vmlinux.
 *   source-lookup VMLINUX < FUNCTIONS (one name a line)
 * Prints the open time, then the first lookup's, the median, p99 and the
 * largest in milliseconds, and how many were placed. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "symbols/debuginfo.h"
#include "views/source.h"

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: source-lookup VMLINUX < FUNCTIONS\n");
		return 2;
	}
	g_autoptr(GError) error = NULL;
	FtlDebugInfoOptions o = { .vmlinux = argv[1] };
	gint64 t0 = g_get_monotonic_time();
	g_autoptr(FtlDebugInfo) dbg = ftl_debuginfo_open(&o, "bench", NULL, NULL, NULL, NULL, &error);
	if (!dbg) {
		fprintf(stderr, "source-lookup: %s\n", error ? error->message : "no debug info");
		return 1;
	}
	g_autoptr(FtlSourceMap) map = ftl_source_map_new(dbg, FTL_SOURCE_BY_FILE);
	double open_ms = (double)(g_get_monotonic_time() - t0) / 1000.0;
	g_autoptr(GArray) ms = g_array_new(FALSE, FALSE, sizeof(double));
	char line[4096];
	guint placed = 0;
	while (fgets(line, sizeof line, stdin)) {
		line[strcspn(line, "\n")] = 0;
		if (!*line)
			continue;
		const char *file;
		guint ln;
		gint64 a = g_get_monotonic_time();
		placed += ftl_source_map_where(map, line, &file, &ln);
		double d = (double)(g_get_monotonic_time() - a) / 1000.0;
		g_array_append_val(ms, d);
	}
	if (!ms->len)
		return 1;
	double first = g_array_index(ms, double, 0);
	/* the others: each a function of a unit perhaps not read yet */
	g_array_remove_index(ms, 0);
	if (!ms->len)
		g_array_append_val(ms, first);
	qsort(ms->data, ms->len, sizeof(double), cmp_double);
	printf("open %.1f ms; %u lookups, %u placed: first %.1f ms; the others: median %.2f, "
	       "p99 %.1f, max %.1f ms\n",
	       open_ms, ms->len + 1, placed, first, g_array_index(ms, double, ms->len / 2),
	       g_array_index(ms, double, (ms->len * 99) / 100), g_array_index(ms, double, ms->len - 1));
	return 0;
}
