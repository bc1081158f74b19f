/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The TUI's plain-text screen after a key script, for end-to-end scripts
 * that compare what it shows with what a command prints (t2047):
 *
 *   tui-screen OUT FILE KEYS [SPAN_START SPAN_END]
 *
 * opens FILE as `ftlens tui [--span START END] FILE` does, on a canvas of
 * 60 rows and 130 columns, types KEYS (input.h's key names, as test-tui's
 * scripts) and writes the settled screen to OUT. Built with the unit tests,
 * not one of them. */
#include "config.h"

#include "tui-drive.h"

static char **args;
static int n_args;

static void screen(void)
{
	Tui t = { 0 };
	if (n_args == 6) {
		t.opt.span_start = args[4];
		t.opt.span_end = args[5];
	}
	tui_open_trace(&t, args[2], 60, 130);
	g_autoptr(GError) error = NULL;
	g_autoptr(GArray) keys = ftl_tui_keys_parse(args[3], &error);
	CU_ASSERT_PTR_NOT_NULL_FATAL(keys);
	for (guint i = 0; i < keys->len; i++) {
		g_free(tui_screen(&t));
		FtlTuiInput in = { g_array_index(keys, gint, i), 0, 0 };
		ftl_tui_app_key(t.app, &in);
		ftl_tui_app_settle(t.app);
	}
	g_autofree char *text = tui_screen(&t);
	CU_ASSERT_TRUE(g_file_set_contents(args[1], text, -1, NULL));
	tui_close(&t);
}

static const UnitTest tests[] = {
	{ "screen", screen },
	{ NULL, NULL },
};

int main(int argc, char **argv)
{
	if (argc != 4 && argc != 6) {
		fprintf(stderr, "usage: tui-screen OUT FILE KEYS [SPAN_START SPAN_END]\n");
		return 2;
	}
	args = argv;
	n_args = argc;
	return unit_run("tui-screen", tests);
}
