/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The line under Functions and Graph that says where the selected function
 * is defined, on the plain-text canvas: a program built with gcc -g -O2 as
 * the "vmlinux", a function_graph trace calling its functions, and the
 * file:line each one's source says (the test wrote it) on the line. Skipped
 * (77) without gcc. */
#include "config.h"

#include "symbols/debuginfo.h"
#include "tui-drive.h"
#include "views/tui/source-line.h"

/* outer is defined on line 3 of prog.c, twin on line 2, helper on line 2
 * of helper.h. */
static const char program[] = "#include \"helper.h\"\n"
			      "__attribute__((noinline)) int twin(int x) { return x * 3; }\n"
			      "__attribute__((noinline)) int outer(int x)\n"
			      "{\n"
			      "	return twin(x) + helper(x);\n"
			      "}\n"
			      "int main(int argc, char **argv)\n"
			      "{\n"
			      "	(void)argv;\n"
			      "	return outer(argc);\n"
			      "}\n";
static const char helper[] = "/* helper */\n"
			     "__attribute__((noinline)) int helper(int x)\n"
			     "{\n"
			     "	return x * 5;\n"
			     "}\n";

/* outer calls the program's twin and helper, and a function no debug info
 * has (a name from the trace: it goes through the escaper). */
static const char trace[] = "# tracer: function_graph\n"
			    "#\n"
			    "# CPU  DURATION                  FUNCTION CALLS\n"
			    "# |     |   |                     |   |   |   |\n"
			    " 0)               |  outer() {\n"
			    " 0)   3.000 us    |    twin();\n"
			    " 0)   2.000 us    |    helper();\n"
			    " 0)   1.000 us    |    not_in_prog();\n"
			    " 0) + 10.000 us   |  }\n";

static char *dir, *exe;

/* Presses each key of keys (plain characters), drawing first as the loop
 * does. */
static void press(Tui *t, const char *keys)
{
	for (const char *k = keys; *k; k++) {
		g_free(tui_screen(t));
		FtlTuiInput in = { *k, 0, 0 };
		ftl_tui_app_key(t->app, &in);
		ftl_tui_app_settle(t->app);
	}
}

/* The screen's row i (the source line is the panel's last row: above the
 * message and status lines). */
static char *screen_row(const char *screen, guint i)
{
	g_auto(GStrv) rows = g_strsplit(screen, "\n", -1);
	return g_strdup(i < g_strv_length(rows) ? rows[i] : "");
}

/* The screen's line that says where a function is defined; NULL when none. */
static char *source_row(const char *screen)
{
	g_auto(GStrv) rows = g_strsplit(screen, "\n", -1);
	for (guint i = 0; rows[i]; i++)
		if (strstr(rows[i], "defined at"))
			return g_strdup(rows[i]);
	return NULL;
}

static void open_with_sources(Tui *t, FtlDebugInfo **dbg, const char *path)
{
	g_autoptr(GError) error = NULL;
	FtlDebugInfoOptions o = { .vmlinux = exe };
	*dbg = ftl_debuginfo_open(&o, path, NULL, NULL, NULL, NULL, &error);
	CU_ASSERT_PTR_NOT_NULL_FATAL(*dbg);
	t->opt.sources = ftl_tui_sources_new(*dbg);
	/* the first reading done, as the screens below do not wait for it */
	ftl_tui_sources_wait(t->opt.sources);
}

static void test_graph_and_functions_say_where(void)
{
	Tui t = { 0 };
	FtlDebugInfo *dbg = NULL;
	tui_in(&t, dir);
	open_with_sources(&t, &dbg, "trace.txt");
	tui_open_trace(&t, "trace.txt", 16, 100);
	g_autofree char *prog_c = g_build_filename(dir, "prog.c", NULL);
	g_autofree char *helper_h = g_build_filename(dir, "helper.h", NULL);
	/* Graph: the cursor on outer, unfolded, then down to twin and helper */
	press(&t, "2+");
	struct {
		const char *keys, *func, *file;
		guint line;
	} want[] = { { "", "outer", prog_c, 3 },
		     { "j", "twin", prog_c, 2 },
		     { "j", "helper", helper_h, 2 } };
	for (guint i = 0; i < G_N_ELEMENTS(want); i++) {
		press(&t, want[i].keys);
		g_autofree char *screen = tui_screen(&t);
		g_autofree char *row = source_row(screen);
		g_autofree char *expect = g_strdup_printf("defined at %s:%u  %s", want[i].file,
							  want[i].line, want[i].func);
		if (!row || strcmp(g_strstrip(row), expect))
			fprintf(stderr, "\nwant '%s', screen:\n%s", expect, screen);
		CU_ASSERT(row && !strcmp(row, expect));
		/* the panel's last row, under the tree: 16 rows, the status
		 * and message lines below it */
		g_autofree char *last = screen_row(screen, 16 - 3);
		CU_ASSERT(row && !strcmp(g_strstrip(last), row));
	}
	/* a function the debug info lacks */
	press(&t, "j");
	g_autofree char *screen = tui_screen(&t);
	g_autofree char *row = source_row(screen);
	CU_ASSERT(row && strstr(row, "not_in_prog: not in the debug info"));
	/* Functions, sorted by self time: outer (4 us) first, then twin */
	press(&t, "3");
	g_autofree char *fs = tui_screen(&t);
	g_autofree char *frow = source_row(fs);
	g_autofree char *fwant = g_strdup_printf("defined at %s:3  outer", prog_c);
	CU_ASSERT(frow && !strcmp(g_strstrip(frow), fwant));
	press(&t, "j");
	g_autofree char *fs2 = tui_screen(&t);
	g_autofree char *frow2 = source_row(fs2);
	g_autofree char *fwant2 = g_strdup_printf("defined at %s:2  twin", prog_c);
	if (!frow2 || strcmp(g_strstrip(frow2), fwant2))
		fprintf(stderr, "\nwant '%s', screen:\n%s", fwant2, fs2);
	CU_ASSERT(frow2 && !strcmp(frow2, fwant2));
	tui_close(&t);
	ftl_tui_sources_free(t.opt.sources);
	ftl_debuginfo_free(dbg);
}

/* Random keys over every panel with debug info: no crash (the sanitizers
 * watch), and whenever Graph or Functions shows its table the line is
 * there, on the panel's last row. */
static void test_random_keys(void)
{
	Tui t = { 0 };
	FtlDebugInfo *dbg = NULL;
	tui_in(&t, dir);
	open_with_sources(&t, &dbg, "trace.txt");
	tui_open_trace(&t, "trace.txt", 16, 100);
	/* moves, folds, sorts, groups and panels; no prompt, help or histogram */
	static const char keys[] = "1234567jjkkJKgG+-ECEpsSl\x1b";
	GRand *rand = g_rand_new_with_seed(33);
	guint checked = 0;
	for (int i = 0; i < 400; i++) {
		char key[2] = { keys[g_rand_int_range(rand, 0, sizeof keys - 1)], 0 };
		press(&t, key);
		g_autofree char *screen = tui_screen(&t);
		if (t.app->current != FTL_TUI_PANEL_GRAPH && t.app->current != FTL_TUI_PANEL_FUNCS)
			continue;
		g_autofree char *last = screen_row(screen, 16 - 3);
		g_strstrip(last);
		/* blank only on a CPU's or a task's node of a grouped Graph */
		gboolean group = FALSE;
		g_auto(GStrv) rows = g_strsplit(screen, "\n", -1);
		for (guint r = 0; rows[r]; r++)
			if (rows[r][0] == '>')
				group = g_regex_match_simple("(CPU [0-9]+|-[0-9]+)$", g_strchomp(rows[r]),
							     0, 0);
		gboolean ok = g_str_has_prefix(last, "defined at") || (group && !*last);
		if (!ok)
			fprintf(stderr, "\nafter %d keys, no source line:\n%s", i + 1, screen);
		CU_ASSERT(ok);
		checked += g_str_has_prefix(last, "defined at");
	}
	CU_ASSERT(checked > 50);
	g_rand_free(rand);
	tui_close(&t);
	ftl_tui_sources_free(t.opt.sources);
	ftl_debuginfo_free(dbg);
}

/* Without debug info the panels keep every row and draw no such line. */
static void test_no_debuginfo_no_line(void)
{
	Tui t = { 0 };
	tui_in(&t, dir);
	tui_open_trace(&t, "trace.txt", 16, 100);
	for (const char *k = "23"; *k; k++) {
		char key[2] = { *k, 0 };
		press(&t, key);
		g_autofree char *screen = tui_screen(&t);
		g_autofree char *row = source_row(screen);
		CU_ASSERT_PTR_NULL(row);
	}
	tui_close(&t);
}

static gboolean run(const char *const *argv)
{
	gint status;
	return g_spawn_sync(NULL, (char **)argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, NULL, NULL,
			    &status, NULL) &&
	       g_spawn_check_wait_status(status, NULL);
}

int main(void)
{
	g_autofree char *gcc = g_find_program_in_path("gcc");
	if (!gcc) {
		printf("SKIP: test-tui-source needs gcc\n");
		return 77;
	}
	dir = g_dir_make_tmp("test-tui-source-XXXXXX", NULL);
	g_autofree char *src = g_build_filename(dir, "prog.c", NULL);
	g_autofree char *hdr = g_build_filename(dir, "helper.h", NULL);
	g_autofree char *tr = g_build_filename(dir, "trace.txt", NULL);
	exe = g_build_filename(dir, "prog", NULL);
	g_file_set_contents(src, program, -1, NULL);
	g_file_set_contents(hdr, helper, -1, NULL);
	g_file_set_contents(tr, trace, -1, NULL);
	const char *argv[] = { "gcc", "-g", "-O2", "-o", exe, src, NULL };
	if (!run(argv)) {
		printf("SKIP: gcc -g -O2 failed\n");
		return 77;
	}
	static const UnitTest tests[] = {
		{ "Graph and Functions: the selected function's file:line",
		  test_graph_and_functions_say_where },
		{ "random keys: the line stays under Graph and Functions", test_random_keys },
		{ "without debug info: no source line", test_no_debuginfo_no_line },
		{ NULL, NULL },
	};
	int rc = unit_run("tui-source", tests);
	g_autofree char *cmd = g_strdup_printf("rm -rf '%s'", dir);
	if (system(cmd) != 0)
		rc = rc ? rc : 1;
	g_free(exe);
	g_free(dir);
	return rc;
}
