/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `ftlens fleet`: many traces and logs merged on a Dask cluster. The work is
 * a Python program over dask.distributed (data/ftlens-fleet.py) that runs
 * this ftlens on each file; this command only finds it and hands over. */
#include "config.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "util/datadir.h"
#include "util/error.h"

#define FLEET_SCRIPT "ftlens-fleet.py"

/* Debian's interpreter, where python3-distributed is installed, unless
 * $FTLENS_PYTHON names another: a version manager's python3 first on PATH
 * lacks the system's packages. */
static const char *fleet_python(void)
{
	const char *env = g_getenv("FTLENS_PYTHON");
	if (env && *env)
		return env;
	return g_file_test("/usr/bin/python3", G_FILE_TEST_IS_EXECUTABLE) ? "/usr/bin/python3"
									  : "python3";
}

gboolean ftl_cmd_fleet(const FtlCommand *cmd, int argc, char **argv, GError **error)
{
	(void)cmd;
	g_autofree char *script = ftl_datadir_find(FLEET_SCRIPT, error);
	if (!script)
		return FALSE;
	/* the workers run this very ftlens, whatever PATH holds, unless
	 * $FTLENS_BIN names another (where a remote cluster has it) */
	g_autofree char *self = g_file_read_link("/proc/self/exe", NULL);
	if (self)
		g_setenv("FTLENS_BIN", self, FALSE);
	const char *python = fleet_python();
	g_autoptr(GPtrArray) args = g_ptr_array_new();
	g_ptr_array_add(args, (char *)python);
	g_ptr_array_add(args, script);
	for (int i = 1; i < argc; i++)
		/* `ftlens help fleet` asks every command for --help-all */
		g_ptr_array_add(args, strcmp(argv[i], "--help-all") ? argv[i] : "--help");
	g_ptr_array_add(args, NULL);
	fflush(stdout);
	execvp(python, (char **)args->pdata);
	g_set_error(error, FTL_ERROR, FTL_ERROR_IO, "fleet: cannot run %s: %s", python,
		    g_strerror(errno));
	return FALSE;
}
