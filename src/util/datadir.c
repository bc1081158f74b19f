/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Finding ftlens's data files, so that a build tree, `make distcheck` and
 * an installed program each read their own copy. */
#include "config.h"

#include "util/datadir.h"

#include "util/error.h"

/* The directories looked in, in order. */
static GPtrArray *datadir_dirs(void)
{
	GPtrArray *dirs = g_ptr_array_new_with_free_func(g_free);
	/* $FTLENS_DATADIR, when set, is the only place: a build tree's tests
	 * set it, and must not find another ftlens's files installed under
	 * /usr/local instead of failing as they should */
	const char *env = g_getenv("FTLENS_DATADIR");
	if (env && *env) {
		g_ptr_array_add(dirs, g_strdup(env));
		return dirs;
	}
	g_autofree char *exe = g_file_read_link("/proc/self/exe", NULL);
	if (exe) {
		g_autofree char *bindir = g_path_get_dirname(exe);
		g_ptr_array_add(dirs, g_build_filename(bindir, "data", NULL));
	}
	g_ptr_array_add(dirs, g_strdup(FTL_DATADIR));
	return dirs;
}

static void datadir_missing(GPtrArray *dirs, const char *name, GError **error)
{
	g_autoptr(GString) where = g_string_new(NULL);
	for (guint i = 0; i < dirs->len; i++)
		g_string_append_printf(where, "%s%s", i ? ", " : "", (char *)dirs->pdata[i]);
	g_set_error(error, FTL_ERROR, FTL_ERROR_IO,
		    "data file '%s' not found (looked in %s; set FTLENS_DATADIR)", name, where->str);
}

char *ftl_datadir_read(const char *name, gsize *len, GError **error)
{
	g_autoptr(GPtrArray) dirs = datadir_dirs();
	for (guint i = 0; i < dirs->len; i++) {
		g_autofree char *path = g_build_filename(dirs->pdata[i], name, NULL);
		char *data = NULL;
		if (g_file_get_contents(path, &data, len, NULL))
			return data;
	}
	datadir_missing(dirs, name, error);
	return NULL;
}

char *ftl_datadir_find(const char *name, GError **error)
{
	g_autoptr(GPtrArray) dirs = datadir_dirs();
	for (guint i = 0; i < dirs->len; i++) {
		char *path = g_build_filename(dirs->pdata[i], name, NULL);
		if (g_file_test(path, G_FILE_TEST_IS_REGULAR))
			return path;
		g_free(path);
	}
	datadir_missing(dirs, name, error);
	return NULL;
}
