/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Fuzz target: a per_cpu set (per_cpu/cpuN/trace files) given as one file:
 * sections "@@ cpuN" (tests/fuzz/README.md), written to a directory that is
 * opened as a directory, or, for odd sizes, file by file as operands. */
#include "config.h"

#include "fuzz.h"

#include <stdio.h>

#include "parse/open.h"

#define PERCPU_MAX 64

typedef struct {
	GPtrArray *paths;
	const char *dir;
} PercpuFiles;

static void percpu_section(const char *name, const guint8 *data, size_t n, gpointer user)
{
	PercpuFiles *f = user;
	char rel[96];
	/* "cpuN" names the CPU; anything else is taken as the next one */
	if (g_str_has_prefix(name, "cpu") && name[3] && g_ascii_isdigit(name[3]))
		g_snprintf(rel, sizeof rel, "per_cpu/cpu%u/trace",
			   (guint)g_ascii_strtoull(name + 3, NULL, 10) % 100000);
	else
		g_snprintf(rel, sizeof rel, "per_cpu/cpu%u/trace", f->paths->len);
	fuzz_scratch_write(rel, data, n);
	g_ptr_array_add(f->paths, g_build_filename(f->dir, rel, NULL));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	PercpuFiles f = { g_ptr_array_new_with_free_func(g_free), fuzz_scratch_reset() };
	fuzz_sections(data, size, "cpu0", PERCPU_MAX, percpu_section, &f);
	g_autoptr(GError) error = NULL;
	g_autoptr(FtlTrace) trace = NULL;
	if (size % 2)
		trace = ftl_trace_open_buffer((const char *const *)f.paths->pdata, f.paths->len,
					      FTL_OPEN_NONE, NULL, &fuzz_read, &error);
	else
		trace = ftl_trace_open_with(f.dir, FTL_OPEN_NONE, &fuzz_read, &error);
	if (trace)
		fuzz_run_trace(trace, fuzz_selector(data, size));
	g_ptr_array_unref(f.paths);
	return 0;
}
