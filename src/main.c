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

/* The command a mistyped name was most likely meant to be: the nearest
 * by edit distance, when it is near enough (at most 2, and less than
 * half the name); NULL else. */
static const char *main_did_you_mean(const char *name)
{
	const char *best = NULL;
	guint best_d = G_MAXUINT;
	gsize n = strlen(name);
	if (n > 64)
		return NULL;
	for (const FtlCommand *c = ftl_commands; c->name; c++) {
		gsize m = strlen(c->name);
		guint row[66];
		for (gsize j = 0; j <= m && j < 65; j++)
			row[j] = (guint)j;
		for (gsize i = 1; i <= n; i++) {
			guint diag = row[0];
			row[0] = (guint)i;
			for (gsize j = 1; j <= m && j < 65; j++) {
				guint up = row[j];
				guint cost = name[i - 1] == c->name[j - 1] ? 0 : 1;
				row[j] = MIN(MIN(row[j] + 1, row[j - 1] + 1), diag + cost);
				diag = up;
			}
		}
		guint d = row[MIN(m, 64)];
		if (d < best_d)
			best_d = d, best = c->name;
	}
	return best_d <= 2 && best_d * 2 < n ? best : NULL;
}

static int main_not_a_command(const char *prefix, const char *name)
{
	g_autofree char *v = ftl_escape(name, -1);
	const char *near = main_did_you_mean(name);
	if (near)
		fprintf(stderr, "ftlens: %s'%s' is not a command; did you mean '%s'?\n", prefix, v,
			near);
	else
		fprintf(stderr, "ftlens: %s'%s' is not a command; see 'ftlens --help'\n", prefix, v);
	return 2;
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
		if (!cmd)
			return main_not_a_command("help: ", argv[2]);
		ok = ftl_cli_print_command_help(cmd, &error);
	} else {
		const FtlCommand *cmd = ftl_cli_find(name);
		if (!cmd)
			return main_not_a_command("", name);
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
