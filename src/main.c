/* SPDX-License-Identifier: GPL-2.0-or-later */
/* ftlens entry point: dispatch to a command, print the one error, exit. */
#include "config.h"

#include <locale.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "util/escape.h"

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
	if (fflush(stdout) != 0 && ok) {
		perror("ftlens: writing output");
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
