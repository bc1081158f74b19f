/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `tui A --compare B` against the batch commands, on the plain-text
 * canvas, for a before/after pair of perf-tools' funcgraph on vfs_read
 * (one call of vfs_read in B has no exit: the trace ends inside it), and
 * two rig captures of different workloads (functions in one only, calls
 * of do_exit that never return):
 *
 * - Functions: the first ten rows are `ftlens diff -F csv A B`'s, field by
 *   field, and the footer gives the cursor's function as diff does;
 * - Graph, unfolded: each of the first rows (call paths) has the time
 *   `flame --diff A B` gives the path (its SVG's a= and n=), and the footer
 *   the time `graph -F csv` gives it on each input, with how many of its
 *   calls had no exit, where the two differ.
 *
 * The commands are the built ftlens ($FTLENS): skipped (77) without it;
 * the perf-tools pair is skipped without $FTL_REAL_DATA. */
#include "config.h"

#include "tui-drive.h"

#define ROWS 60
#define COLS 200
#define TOP  10

static char *ftlens, *real_a, *real_b, *vm_a, *vm_b, *tmp;

/* What ftlens args prints (it must exit 0). */
static char *run(const char *const *args)
{
	g_autoptr(GPtrArray) argv = g_ptr_array_new();
	g_ptr_array_add(argv, ftlens);
	for (guint i = 0; args[i]; i++)
		g_ptr_array_add(argv, (gpointer)args[i]);
	g_ptr_array_add(argv, NULL);
	char *out = NULL, *err = NULL;
	gint status = -1;
	g_autoptr(GError) error = NULL;
	gboolean ok = g_spawn_sync(NULL, (char **)argv->pdata, NULL, G_SPAWN_DEFAULT, NULL, NULL,
				   &out, &err, &status, &error);
	if (!ok || !g_spawn_check_wait_status(status, NULL))
		fprintf(stderr, "\n%s %s: %s\n", ftlens, args[0], error ? error->message : err);
	g_free(err);
	CU_ASSERT_FATAL(ok && g_spawn_check_wait_status(status, NULL));
	return out;
}

/* CSV text as rows of fields (no field of these inputs is quoted: a quote
 * fails the test rather than being misread). */
static GPtrArray *csv_rows(const char *text)
{
	CU_ASSERT_PTR_NULL_FATAL(strchr(text, '"'));
	GPtrArray *rows = g_ptr_array_new_with_free_func((GDestroyNotify)g_strfreev);
	g_auto(GStrv) lines = g_strsplit(text, "\n", -1);
	for (guint i = 0; lines[i]; i++)
		if (*lines[i])
			g_ptr_array_add(rows, g_strsplit(lines[i], ",", -1));
	return rows;
}

/* The column of rows' header named name. */
static guint csv_col(GPtrArray *rows, const char *name)
{
	char **head = rows->pdata[0];
	for (guint i = 0; head[i]; i++)
		if (!strcmp(head[i], name))
			return i;
	CU_FAIL_FATAL("a column the command no longer prints");
	return 0;
}

static gint64 csv_int(char **row, guint col)
{
	return g_ascii_strtoll(row[col], NULL, 10);
}

static char *dur(gint64 ns)
{
	char buf[48];
	return g_strdup(ftl_tui_duration(ns, buf, sizeof buf));
}

/* The right-aligned cell of width w at column x of a screen row. */
static char *cell(const char *row, int x, int w)
{
	if ((int)strlen(row) <= x)
		return g_strdup("");
	return g_strstrip(g_strndup(row + x, (gsize)w));
}

/* The screen's rows without the dump's cursor mark (their first
 * character), the index of the first one that starts (after blanks) with
 * head in *at (-1: none). */
static GStrv screen_rows(const char *screen, const char *head, int *at)
{
	GStrv rows = g_strsplit(screen, "\n", -1);
	for (guint i = 0; rows[i]; i++)
		if (*rows[i])
			memmove(rows[i], rows[i] + 1, strlen(rows[i]));
	*at = -1;
	for (guint i = 0; rows[i] && *at < 0; i++) {
		const char *r = rows[i];
		while (*r == ' ')
			r++;
		if (g_str_has_prefix(r, head))
			*at = (int)i;
	}
	return rows;
}

/* The footer: the panel's last row, above the message and help lines. */
static const char *footer(GStrv rows)
{
	guint n = g_strv_length(rows);
	for (guint i = 0; i < n; i++)
		if (g_str_has_prefix(rows[i], "h: help") && i >= 2)
			return rows[i - 2];
	return "";
}

/* "A 1.234 us (3 calls": the start of what a footer says of one side,
 * from a command's ns and calls ("A -" where calls is 0, "A - (3 calls"
 * where ns is empty: none timed). */
static char *footer_side(const char *label, const char *ns, const char *calls)
{
	if (!strcmp(calls, "0"))
		return g_strdup_printf("%s -", label);
	g_autofree char *d = *ns ? dur(g_ascii_strtoll(ns, NULL, 10)) : g_strdup("-");
	return g_strdup_printf("%s %s (%s call%s", label, d, calls, strcmp(calls, "1") ? "s" : "");
}

static void functions_are_diff(const char *path_a, const char *path_b, gboolean untimed_b)
{
	g_autofree char *csv = run((const char *[]){ "diff", "-F", "csv", path_a, path_b, NULL });
	g_autoptr(GPtrArray) want = csv_rows(csv);
	CU_ASSERT_FATAL(want->len > TOP);
	guint fn = csv_col(want, "function"), ca = csv_col(want, "calls_a"),
	      cb = csv_col(want, "calls_b"), ta = csv_col(want, "total_a_ns"),
	      tb = csv_col(want, "total_b_ns");
	Tui t = { 0 }, b = { 0 };
	tui_open_compare(&t, &b, path_a, path_b, ROWS, COLS);
	tui_keys(&t, "3");
	g_autofree char *screen = tui_screen(&t);
	int head;
	g_auto(GStrv) rows = screen_rows(screen, "CALLS A", &head);
	CU_ASSERT_FATAL(head >= 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(rows[head], "TOTAL A"));
	/* the cells: CALLS A, CALLS B (8), TOTAL A, TOTAL B, CHANGE (11), then
	 * %, AVG A, AVG B (10) and the name */
	for (guint i = 1; i <= TOP; i++) {
		char **w = want->pdata[i];
		const char *row = rows[head + (int)i];
		g_autofree char *exp_ca = csv_int(w, ca) ? g_strdup(w[ca]) : g_strdup("-");
		g_autofree char *exp_cb = csv_int(w, cb) ? g_strdup(w[cb]) : g_strdup("-");
		g_autofree char *exp_a = csv_int(w, ca) ? dur(csv_int(w, ta)) : g_strdup("-");
		g_autofree char *exp_b = csv_int(w, cb) ? dur(csv_int(w, tb)) : g_strdup("-");
		g_autofree char *got_ca = cell(row, 0, 8), *got_cb = cell(row, 9, 8);
		g_autofree char *got_a = cell(row, 18, 11), *got_b = cell(row, 30, 11);
		g_autofree char *got_name = g_strdup(strlen(row) > 87 ? row + 87 : "");
		g_strchomp(got_name);
		if (strcmp(got_name, w[fn]) || strcmp(got_ca, exp_ca) || strcmp(got_cb, exp_cb) ||
		    strcmp(got_a, exp_a) || strcmp(got_b, exp_b))
			fprintf(stderr, "\nrow %u: screen %s|%s|%s|%s|%s, diff %s|%s|%s|%s|%s\n", i,
				got_ca, got_cb, got_a, got_b, got_name, exp_ca, exp_cb, exp_a,
				exp_b, w[fn]);
		CU_ASSERT_STRING_EQUAL(got_name, w[fn]);
		CU_ASSERT_STRING_EQUAL(got_ca, exp_ca);
		CU_ASSERT_STRING_EQUAL(got_cb, exp_cb);
		CU_ASSERT_STRING_EQUAL(got_a, exp_a);
		CU_ASSERT_STRING_EQUAL(got_b, exp_b);
	}
	/* the footer names the cursor's function (the first row's) and gives
	 * diff's totals (on the perf-tools pair: vfs_read, a call of it in B
	 * untimed) */
	char **w = want->pdata[1];
	g_autofree char *sa = footer_side("A", w[ta], w[ca]), *sb = footer_side("B", w[tb], w[cb]);
	g_autofree char *exp = g_strdup_printf("%s: diff's total, all paths: %s", w[fn], sa);
	const char *foot = footer(rows);
	fprintf(stderr, "\n%s\n", screen);
	if (!strstr(foot, exp) || !strstr(foot, sb))
		fprintf(stderr, "\nfooter: %s\nwant: %s ... %s\n", foot, exp, sb);
	CU_ASSERT_PTR_NOT_NULL(strstr(foot, exp));
	CU_ASSERT_PTR_NOT_NULL(strstr(foot, sb));
	if (untimed_b)
		CU_ASSERT_PTR_NOT_NULL(strstr(foot, ", 1 untimed)"));
	tui_close(&t);
	g_free(b.path);
}

/* flame --diff's SVG: each frame's path (names joined by ';') to its a=
 * (A's time) and n= (B's), as "A B". */
static GHashTable *flame_frames(const char *svg)
{
	GHashTable *frames = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
	g_autoptr(GRegex) re =
		g_regex_new("<g class=\"f[^\"]*\"([^>]*)><title>([^\\n<]*)", 0, 0, NULL);
	g_autoptr(GRegex) at = g_regex_new("(\\w+)=\"([^\"]*)\"", 0, 0, NULL);
	g_autoptr(GPtrArray) stack = g_ptr_array_new_with_free_func(g_free);
	g_autoptr(GMatchInfo) m = NULL;
	for (g_regex_match(re, svg, 0, &m); g_match_info_matches(m); g_match_info_next(m, NULL)) {
		g_autofree char *attrs = g_match_info_fetch(m, 1);
		gint64 a = 0, n = 0, l = -1;
		g_autoptr(GMatchInfo) am = NULL;
		for (g_regex_match(at, attrs, 0, &am); g_match_info_matches(am);
		     g_match_info_next(am, NULL)) {
			g_autofree char *k = g_match_info_fetch(am, 1),
					*v = g_match_info_fetch(am, 2);
			gint64 x = g_ascii_strtoll(v, NULL, 10);
			if (!strcmp(k, "a"))
				a = x;
			else if (!strcmp(k, "n"))
				n = x;
			else if (!strcmp(k, "l"))
				l = x;
		}
		CU_ASSERT_FATAL(l >= 0 && l <= (gint64)stack->len);
		g_ptr_array_set_size(stack, (guint)l);
		g_ptr_array_add(stack, g_match_info_fetch(m, 2));
		if (l == 0)
			continue;
		g_autoptr(GString) path = g_string_new(NULL);
		for (guint i = 1; i < stack->len; i++)
			g_string_append_printf(path, "%s%s", i > 1 ? ";" : "",
					       (char *)stack->pdata[i]);
		g_hash_table_insert(
			frames, g_string_free(g_steal_pointer(&path), FALSE),
			g_strdup_printf("%" G_GINT64_FORMAT " %" G_GINT64_FORMAT, a, n));
	}
	return frames;
}

/* graph -F csv of one input: path to "total_ns calls". */
static GHashTable *graph_paths(const char *input)
{
	g_autofree char *csv = run((const char *[]){ "graph", "-F", "csv", input, NULL });
	g_autoptr(GPtrArray) rows = csv_rows(csv);
	guint p = csv_col(rows, "path"), t = csv_col(rows, "total_ns"), c = csv_col(rows, "calls");
	GHashTable *paths = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
	for (guint i = 1; i < rows->len; i++) {
		char **r = rows->pdata[i];
		g_hash_table_insert(paths, g_strdup(r[p]), g_strdup_printf("%s %s", r[t], r[c]));
	}
	return paths;
}

/* What the footer says of one side as graph has the path ("A -" where
 * it is not in that input). */
static char *graph_side(const char *label, GHashTable *paths, const char *path)
{
	const char *v = g_hash_table_lookup(paths, path);
	if (!v)
		return g_strdup_printf("%s -", label);
	g_auto(GStrv) f = g_strsplit(v, " ", 2);
	return footer_side(label, f[0], f[1]);
}

static void graph_is_flame_diff_and_graph(const char *path_a, const char *path_b, gboolean differ_b)
{
	g_autofree char *svg_path = g_build_filename(tmp, "diff.svg", NULL);
	g_free(run((const char *[]){ "flame", "--diff", "-o", svg_path, path_a, path_b, NULL }));
	g_autofree char *svg = NULL;
	CU_ASSERT_FATAL(g_file_get_contents(svg_path, &svg, NULL, NULL));
	g_autoptr(GHashTable) frames = flame_frames(svg);
	g_autoptr(GHashTable) ga = graph_paths(path_a), gb = graph_paths(path_b);
	Tui t = { 0 }, b = { 0 };
	tui_open_compare(&t, &b, path_a, path_b, ROWS, COLS);
	tui_keys(&t, "2E");
	g_autoptr(GPtrArray) stack = g_ptr_array_new_with_free_func(g_free);
	guint differ = 0;
	for (int i = 0; i < TOP; i++) {
		if (i)
			tui_keys(&t, "j");
		g_autofree char *screen = tui_screen(&t);
		int head;
		g_auto(GStrv) rows = screen_rows(screen, "A", &head);
		CU_ASSERT_FATAL(head >= 0 && strstr(rows[head], "as flame --diff"));
		const char *row = rows[head + 1 + i];
		/* A (11), B (11), CHANGE (11), % (10), then two columns a level
		 * and the fold sign */
		g_autofree char *got_a = cell(row, 0, 11), *got_b = cell(row, 12, 11);
		const char *tail = strlen(row) > 47 ? row + 47 : "";
		int depth = 0;
		while (g_str_has_prefix(tail + 2 * depth, "  "))
			depth++;
		/* "- " or a one-cell UTF-8 sign and a blank */
		const char *name = g_utf8_next_char(tail + 2 * depth) + 1;
		g_ptr_array_set_size(stack, (guint)depth);
		g_ptr_array_add(stack, g_strchomp(g_strdup(name)));
		g_ptr_array_add(stack, NULL);
		g_autofree char *path = g_strjoinv(";", (char **)stack->pdata);
		g_ptr_array_set_size(stack, stack->len - 1);
		const char *f = g_hash_table_lookup(frames, path);
		if (!f)
			fprintf(stderr, "\n%s: not in flame --diff\n", path);
		CU_ASSERT_PTR_NOT_NULL_FATAL(f);
		gint64 fa = g_ascii_strtoll(f, NULL, 10),
		       fb = g_ascii_strtoll(strchr(f, ' '), NULL, 10);
		g_autofree char *exp_a = fa ? dur(fa) : g_strdup("-");
		g_autofree char *exp_b = fb ? dur(fb) : g_strdup("-");
		if (strcmp(got_a, exp_a) || strcmp(got_b, exp_b))
			fprintf(stderr, "\n%s: Graph %s %s, flame --diff %s %s\n", path, got_a,
				got_b, exp_a, exp_b);
		CU_ASSERT_STRING_EQUAL(got_a, exp_a);
		CU_ASSERT_STRING_EQUAL(got_b, exp_b);
		/* the footer: the cursor's path as graph gives it on each input */
		g_autofree char *sa = graph_side("A", ga, path), *sb = graph_side("B", gb, path);
		g_autofree char *exp = g_strdup_printf("%s: graph on this path: %s", name, sa);
		const char *foot = footer(rows);
		if (!strstr(foot, exp) || !strstr(foot, sb))
			fprintf(stderr, "\nfooter: %s\nwant: %s ... %s\n", foot, exp, sb);
		CU_ASSERT_PTR_NOT_NULL(strstr(foot, exp));
		CU_ASSERT_PTR_NOT_NULL(strstr(foot, sb));
		/* where graph and flame differ, the footer says why */
		const char *vb = g_hash_table_lookup(gb, path);
		if (vb && g_ascii_strtoll(vb, NULL, 10) != fb) {
			differ++;
			CU_ASSERT_PTR_NOT_NULL(strstr(foot, " untimed)"));
			CU_ASSERT_PTR_NOT_NULL(strstr(foot, "counts its callees' time"));
		}
		if (i == 0)
			fprintf(stderr, "\n%s\n", screen);
	}
	/* the perf-tools pair has such paths: vfs_read and the calls open
	 * under it */
	if (differ_b)
		CU_ASSERT(differ > 0);
	tui_close(&t);
	g_free(b.path);
}

/* The name on the cursor's row of the compare Graph. */
static char *graph_cursor(Tui *t)
{
	g_autofree char *screen = tui_screen(t);
	g_auto(GStrv) rows = g_strsplit(screen, "\n", -1);
	for (guint i = 0; rows[i]; i++)
		if (rows[i][0] == '>' && strlen(rows[i]) > 48) {
			const char *tail = rows[i] + 48;
			while (*tail == ' ')
				tail++;
			return g_strchomp(g_strdup(g_utf8_next_char(tail) + 1));
		}
	return g_strdup("");
}

/* The fold keys do in the compare Graph what they do in the Graph (one
 * implementation, views/tui/folds.c): Right unfolds, then goes to the
 * first child (here the one that changed most); l unfolds and goes there;
 * Left and - on a folded row go to the parent; C folds all and puts the
 * cursor on the first level. */
static void test_graph_folds_as_graph(void)
{
	Tui t = { 0 }, b = { 0 };
	tui_open_compare(&t, &b, real_a, real_b, ROWS, COLS);
	static const struct {
		const char *keys, *cursor;
	} steps[] = {
		{ "2", "vfs_read" },   { "<Right>", "vfs_read" }, { "<Right>", "tty_read" },
		{ "l", "n_tty_read" }, { "<Left>", "tty_read" },  { "l", "n_tty_read" },
		{ "-", "tty_read" },   { "C", "vfs_read" },	  { "E", "vfs_read" },
		{ "G", "fsnotify" },   { "C", "vfs_read" },
	};
	for (guint i = 0; i < G_N_ELEMENTS(steps); i++) {
		tui_keys(&t, steps[i].keys);
		g_autofree char *cur = graph_cursor(&t);
		if (strcmp(cur, steps[i].cursor))
			fprintf(stderr, "\nafter %s: the cursor on %s, not %s\n", steps[i].keys,
				cur, steps[i].cursor);
		CU_ASSERT_STRING_EQUAL(cur, steps[i].cursor);
	}
	tui_close(&t);
	g_free(b.path);
}

/* A click on a row puts the cursor there; a click on the footer (the
 * panel's last row, under the rows) is not a click on a row hidden under
 * it. */
static void test_click_not_footer(void)
{
	enum { SHORT = 16 };
	Tui t = { 0 }, b = { 0 };
	tui_open_compare(&t, &b, vm_a, vm_b, SHORT, COLS);
	for (const char *const *k = (const char *const[]){ "2E", "3", NULL }; *k; k++) {
		tui_keys(&t, *k);
		g_free(tui_screen(&t));
		/* rows: tabs, header, the list, footer, message, help */
		FtlTuiInput row = { FTL_TUI_KEY_CLICK, 4, 60 },
			    foot = { FTL_TUI_KEY_CLICK, 13, 60 };
		ftl_tui_app_key(t.app, &row);
		g_autofree char *screen = tui_screen(&t);
		g_auto(GStrv) rows = g_strsplit(screen, "\n", -1);
		CU_ASSERT_EQUAL(rows[4][0], '>');
		CU_ASSERT_PTR_NOT_NULL(strstr(rows[13], ": diff's total")
					       ? rows[13]
					       : strstr(rows[13], ": graph on this path"));
		ftl_tui_app_key(t.app, &foot);
		g_free(screen);
		screen = tui_screen(&t);
		g_strfreev(rows);
		rows = g_strsplit(screen, "\n", -1);
		if (rows[4][0] != '>')
			fprintf(stderr, "\nafter a click on the footer:\n%s\n", screen);
		CU_ASSERT_EQUAL(rows[4][0], '>');
	}
	tui_close(&t);
	g_free(b.path);
}

static void test_functions_real(void)
{
	functions_are_diff(real_a, real_b, TRUE);
}

static void test_graph_real(void)
{
	graph_is_flame_diff_and_graph(real_a, real_b, TRUE);
}

static void test_functions_vm(void)
{
	functions_are_diff(vm_a, vm_b, FALSE);
}

static void test_graph_vm(void)
{
	graph_is_flame_diff_and_graph(vm_a, vm_b, FALSE);
}

int main(void)
{
	const char *real = g_getenv("FTL_REAL_DATA"), *data = g_getenv("FTL_TESTDATA");
	ftlens = g_strdup(g_getenv("FTLENS"));
	if (!data || !ftlens || !g_file_test(ftlens, G_FILE_TEST_IS_EXECUTABLE)) {
		fprintf(stderr, "skip: FTL_TESTDATA or FTLENS unset\n");
		g_free(ftlens);
		return 77;
	}
	vm_a = g_build_filename(data, "vm", "fgraph-basic", "trace.txt", NULL);
	vm_b = g_build_filename(data, "vm", "fgraph-events", "trace.txt", NULL);
	if (real) {
		real_a = g_build_filename(real, "fgraph",
					  "perftools_funcgraph_abstime_header_vfs_read.txt", NULL);
		real_b = g_build_filename(real, "fgraph",
					  "perftools_funcgraph_abstime_oncpu_vfs_read.txt", NULL);
	}
	gboolean have_real = real && g_file_test(real_a, G_FILE_TEST_IS_REGULAR) &&
			     g_file_test(real_b, G_FILE_TEST_IS_REGULAR);
	if (!have_real)
		fprintf(stderr, "skip: the perf-tools pair (in $FTL_REAL_DATA/fgraph)\n");
	tmp = g_dir_make_tmp("ftl-tui-compare-XXXXXX", NULL);
	static const UnitTest real_tests[] = {
		{ "perf-tools pair: compare Functions: the top rows are diff's, the footer diff's",
		  test_functions_real },
		{ "perf-tools pair: compare Graph: the top paths are flame --diff's, the footer "
		  "graph's",
		  test_graph_real },
		{ "perf-tools pair: compare Graph: the fold keys do what they do in the Graph",
		  test_graph_folds_as_graph },
	};
	static const UnitTest vm_tests[] = {
		{ "rig captures: compare Functions: the top rows are diff's, the footer diff's",
		  test_functions_vm },
		{ "rig captures: compare Graph: the top paths are flame --diff's, the footer "
		  "graph's",
		  test_graph_vm },
		{ "rig captures: a click on the footer leaves the cursor", test_click_not_footer },
	};
	g_autoptr(GArray) tests = g_array_new(TRUE, TRUE, sizeof(UnitTest));
	g_array_append_vals(tests, vm_tests, G_N_ELEMENTS(vm_tests));
	if (have_real)
		g_array_append_vals(tests, real_tests, G_N_ELEMENTS(real_tests));
	int rc = unit_run("tui-compare", (const UnitTest *)(void *)tests->data);
	g_autofree char *svg = g_build_filename(tmp, "diff.svg", NULL);
	g_unlink(svg);
	g_rmdir(tmp);
	g_free(tmp);
	g_free(real_a);
	g_free(real_b);
	g_free(vm_a);
	g_free(vm_b);
	g_free(ftlens);
	return rc;
}
