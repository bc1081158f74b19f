/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The replay driver: a fuzz target without libFuzzer runs each file named
 * on its command line (directories: every file in them) once through
 * LLVMFuzzerTestOneInput(), as `make check` does with the corpora and crash
 * files, under whatever sanitizers the build has. */
#include "config.h"

#include "fuzz.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static gint replay_cmp(const char *const *a, const char *const *b)
{
	return strcmp(*a, *b);
}

static guint replay_path(const char *path)
{
	if (g_file_test(path, G_FILE_TEST_IS_DIR)) {
		g_autoptr(GDir) d = g_dir_open(path, 0, NULL);
		g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func(g_free);
		const char *name;
		while (d && (name = g_dir_read_name(d)))
			if (name[0] != '.')
				g_ptr_array_add(names, g_build_filename(path, name, NULL));
		g_ptr_array_sort(names, (GCompareFunc)replay_cmp);
		guint n = 0;
		for (guint i = 0; i < names->len; i++)
			n += replay_path(g_ptr_array_index(names, i));
		return n;
	}
	g_autofree char *data = NULL;
	gsize len;
	g_autoptr(GError) error = NULL;
	if (!g_file_get_contents(path, &data, &len, &error)) {
		fprintf(stderr, "replay: %s\n", error->message);
		exit(1);
	}
	if (g_getenv("FUZZ_REPLAY_VERBOSE"))
		fprintf(stderr, "replay: %s\n", path);
	LLVMFuzzerTestOneInput((const uint8_t *)data, len);
	return 1;
}

int main(int argc, char **argv)
{
	LLVMFuzzerInitialize(&argc, &argv);
	guint n = 0;
	for (int i = 1; i < argc; i++)
		n += replay_path(argv[i]);
	printf("replayed %u input%s\n", n, n == 1 ? "" : "s");
	return 0;
}
