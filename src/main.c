/* SPDX-License-Identifier: GPL-2.0-or-later */
/* ftlens entry point: dispatch to a command, print the one error, exit. */
#include "config.h"

#include <errno.h>
#include <locale.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/pager.h"
#include "util/escape.h"

/* Every command's standard output is checked here, once: a write that
 * failed while the command ran (the stream's error flag: stdio drops what
 * it could not write, so a later flush may succeed), the last flush and the
 * close. The reason, or NULL when the output is whole. */
static char *main_check_stdout(void)
{
	if (fflush(stdout) != 0)
		return g_strdup(g_strerror(errno));
	if (ferror(stdout))
		return g_strdup("a write to standard output failed (device full or closed?)");
	/* the pager's exit handler still flushes stdout: it stays open then */
	if (!ftl_pager_active() && fclose(stdout) != 0)
		return g_strdup(g_strerror(errno));
	return NULL;
}

int main(int argc, char **argv)
{
	setlocale(LC_ALL, "");
	g_set_prgname("ftlens");
	if (argc < 2) {
		ftl_cli_print_usage(stderr);
		return 2;
	}
	const char *name = argv[1];
	if (!strcmp(name, "--help") || !strcmp(name, "-h") ||
	    (!strcmp(name, "help") && argc == 2)) {
		ftl_cli_print_usage(stdout);
		return 0;
	}
	if (!strcmp(name, "--version") || !strcmp(name, "version")) {
		printf("ftlens %s\n", PACKAGE_VERSION);
		return 0;
	}
	g_autoptr(GError) error = NULL;
	gboolean ok;
	if (!strcmp(name, "help") && !strcmp(argv[2], "--commands")) {
		ftl_cli_print_commands(stdout);
		return 0;
	}
	if (!strcmp(name, "help")) {
		const FtlCommand *cmd = ftl_cli_find(argv[2]);
		if (!cmd) {
			fprintf(stderr, "ftlens: help: '%s' is not a command; see 'ftlens --help'\n",
				argv[2]);
			return 2;
		}
		ok = ftl_cli_print_command_help(cmd, &error);
	} else {
		const FtlCommand *cmd = ftl_cli_find(name);
		if (!cmd) {
			fprintf(stderr, "ftlens: '%s' is not a command; see 'ftlens --help'\n",
				name);
			return 2;
		}
		ok = cmd->run(cmd, argc - 1, argv + 1, &error);
	}
	g_autofree char *werr = main_check_stdout();
	if (werr && ok) {
		fprintf(stderr, "ftlens: writing output: %s\n", werr);
		return 1;
	}
	if (!ok) {
		/* messages quote file names and trace text: shown through the
		 * one escaper, line by line */
		g_auto(GStrv) lines = g_strsplit(error ? error->message : "failed", "\n", -1);
		for (guint i = 0; lines[i]; i++) {
			g_autofree char *v = ftl_escape(lines[i], -1);
			fprintf(stderr, "%s%s\n", i ? "" : "ftlens: ", v);
		}
		return ftl_cli_exit_code(error);
	}
	return 0;
}
