/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Saved views (views/tui/view.c): every key back as written, names from a
 * trace that try to start a key stay names, and files that are not what
 * the writer makes (too big, a symlink, a FIFO, another user's, values out
 * of range, cut short) give one error naming the file and the line. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include "unit.h"
#include "util/timefmt.h"
#include "views/tui/view.h"

static char *scratch;

static char *scratch_file(const char *name)
{
	return g_build_filename(scratch, name, NULL);
}

/* A hostile name: a newline and a group, a key, '%', ';', '/', bytes that
 * are not UTF-8, blanks at both ends. */
static const char hostile[] = " evil\n[view]\npanel=Oops;x/y%41\\\xff\xfe\x9b[2J ";

static FtlTuiView *view_full(void)
{
	FtlTuiView *v = ftl_tui_view_new();
	const char *paths[] = { "/tmp/a b.sav", hostile };
	const gint64 sizes[] = { 12345, 0 };
	ftl_tui_view_set_names(v, "trace", "paths", paths, 2);
	ftl_tui_view_set_ints(v, "trace", "sizes", sizes, 2);
	ftl_tui_view_set_int(v, "trace", "first", 1234567890123);
	ftl_tui_view_set_int(v, "trace", "events", 4242);
	ftl_tui_view_set_name(v, "view", "panel", "Timeline");
	ftl_tui_view_set_int(v, "view", "time_mode", 2);
	const char *filters[] = { "cpu 1,3", "comm kworker*", "func ^vfs_read$",
				  "sched_switch: prev_pid == 0" };
	ftl_tui_view_set_names(v, "view", "filters", filters, 4);
	ftl_tui_view_set_int(v, "view", "mark_a", -5);
	ftl_tui_view_set_int(v, "view", "mark_b", G_MAXINT64);
	ftl_tui_view_set_int(v, "view", "follow", 123);
	ftl_tui_view_set_int(v, "view", "bookmark_a", 7);
	ftl_tui_view_set_int(v, "view", "bookmark_row_a", -1);
	ftl_tui_view_set_int(v, "view", "bookmark_z", 9);
	ftl_tui_view_set_int(v, "view", "bookmark_row_z", 1000000);
	ftl_tui_view_set_int(v, "events", "row", 99);
	ftl_tui_view_set_int(v, "events", "top", 80);
	ftl_tui_view_set_int(v, "events", "page", 21);
	ftl_tui_view_set_int(v, "events", "ts", 5000);
	ftl_tui_view_set_int(v, "events", "cpu", 3);
	ftl_tui_view_set_name(v, "events", "event", "sched_switch");
	ftl_tui_view_set_int(v, "timeline", "t0", 100);
	ftl_tui_view_set_int(v, "timeline", "span", 2000);
	ftl_tui_view_set_int(v, "timeline", "cursor", 150);
	ftl_tui_view_set_int(v, "timeline", "lane", 4);
	ftl_tui_view_set_int(v, "timeline", "top", 2);
	ftl_tui_view_set_int(v, "graph", "group", 2);
	ftl_tui_view_set_bool(v, "graph", "all_open", TRUE);
	const char *p1[] = { "bash-12", "do_syscall_64", "ksys_read" };
	const char *p2[] = { hostile, "a/b" };
	ftl_tui_view_add_path(v, "graph", "toggled", p1, 3);
	ftl_tui_view_add_path(v, "graph", "toggled", p2, 2);
	ftl_tui_view_add_path(v, "graph", "cursor", p2, 2);
	ftl_tui_view_add_path(v, "graph", "top", p1, 1);
	ftl_tui_view_set_int(v, "graph", "page", 22);
	ftl_tui_view_set_int(v, "functions", "sort", FTL_TUI_VIEW_FUNCS_SORTS - 1);
	ftl_tui_view_set_bool(v, "functions", "reverse", TRUE);
	ftl_tui_view_set_name(v, "functions", "cursor", hostile);
	ftl_tui_view_set_int(v, "functions", "top", 3);
	ftl_tui_view_set_int(v, "sched", "sort", FTL_TUI_VIEW_SCHED_SORTS - 1);
	ftl_tui_view_set_int(v, "sched", "scope", 3);
	ftl_tui_view_set_int(v, "sched", "cursor", 17);
	ftl_tui_view_set_int(v, "sched", "top", 10);
	return v;
}

static gint64 get_int(const FtlTuiView *v, const char *g, const char *k)
{
	gint64 x = G_MININT64;
	CU_ASSERT_TRUE(ftl_tui_view_get_int(v, g, k, &x));
	return x;
}

static void assert_path(GPtrArray *paths, guint i, const char *const *want, guint n)
{
	CU_ASSERT_FATAL(paths && i < paths->len);
	char **got = paths->pdata[i];
	CU_ASSERT_EQUAL(g_strv_length(got), n);
	for (guint k = 0; k < n && got[k]; k++)
		CU_ASSERT_STRING_EQUAL(got[k], want[k]);
}

static void test_round_trip(void)
{
	g_autoptr(FtlTuiView) v = view_full();
	g_autofree char *path = scratch_file("round.view");
	g_autoptr(GError) error = NULL;
	CU_ASSERT_TRUE_FATAL(ftl_tui_view_save(v, path, &error));
	g_autoptr(FtlTuiView) r = ftl_tui_view_load(path, &error);
	if (!r)
		fprintf(stderr, "\n%s\n", error->message);
	CU_ASSERT_PTR_NOT_NULL_FATAL(r);
	CU_ASSERT_STRING_EQUAL(ftl_tui_view_path(r), path);
	/* every key, as written */
	g_auto(GStrv) paths = ftl_tui_view_get_names(r, "trace", "paths");
	CU_ASSERT_EQUAL_FATAL(g_strv_length(paths), 2);
	CU_ASSERT_STRING_EQUAL(paths[0], "/tmp/a b.sav");
	CU_ASSERT_STRING_EQUAL(paths[1], hostile);
	guint n;
	g_autofree gint64 *sizes = ftl_tui_view_get_ints(r, "trace", "sizes", &n);
	CU_ASSERT_EQUAL_FATAL(n, 2);
	CU_ASSERT_EQUAL(sizes[0], 12345);
	CU_ASSERT_EQUAL(sizes[1], 0);
	CU_ASSERT_EQUAL(get_int(r, "trace", "first"), 1234567890123);
	CU_ASSERT_EQUAL(get_int(r, "trace", "events"), 4242);
	g_autofree char *panel = ftl_tui_view_get_name(r, "view", "panel");
	CU_ASSERT_STRING_EQUAL(panel, "Timeline");
	CU_ASSERT_EQUAL(get_int(r, "view", "time_mode"), 2);
	g_auto(GStrv) filters = ftl_tui_view_get_names(r, "view", "filters");
	CU_ASSERT_EQUAL_FATAL(g_strv_length(filters), 4);
	CU_ASSERT_STRING_EQUAL(filters[0], "cpu 1,3");
	CU_ASSERT_STRING_EQUAL(filters[1], "comm kworker*");
	CU_ASSERT_STRING_EQUAL(filters[2], "func ^vfs_read$");
	CU_ASSERT_STRING_EQUAL(filters[3], "sched_switch: prev_pid == 0");
	CU_ASSERT_EQUAL(get_int(r, "view", "mark_a"), -5);
	CU_ASSERT_EQUAL(get_int(r, "view", "mark_b"), G_MAXINT64);
	CU_ASSERT_EQUAL(get_int(r, "view", "follow"), 123);
	CU_ASSERT_EQUAL(get_int(r, "view", "bookmark_a"), 7);
	CU_ASSERT_EQUAL(get_int(r, "view", "bookmark_row_a"), -1);
	CU_ASSERT_EQUAL(get_int(r, "view", "bookmark_z"), 9);
	CU_ASSERT_EQUAL(get_int(r, "view", "bookmark_row_z"), 1000000);
	gint64 x;
	CU_ASSERT_FALSE(ftl_tui_view_get_int(r, "view", "bookmark_b", &x));
	CU_ASSERT_EQUAL(get_int(r, "events", "row"), 99);
	CU_ASSERT_EQUAL(get_int(r, "events", "top"), 80);
	CU_ASSERT_EQUAL(get_int(r, "events", "page"), 21);
	CU_ASSERT_EQUAL(get_int(r, "events", "ts"), 5000);
	CU_ASSERT_EQUAL(get_int(r, "events", "cpu"), 3);
	g_autofree char *event = ftl_tui_view_get_name(r, "events", "event");
	CU_ASSERT_STRING_EQUAL(event, "sched_switch");
	CU_ASSERT_EQUAL(get_int(r, "timeline", "t0"), 100);
	CU_ASSERT_EQUAL(get_int(r, "timeline", "span"), 2000);
	CU_ASSERT_EQUAL(get_int(r, "timeline", "cursor"), 150);
	CU_ASSERT_EQUAL(get_int(r, "timeline", "lane"), 4);
	CU_ASSERT_EQUAL(get_int(r, "timeline", "top"), 2);
	CU_ASSERT_EQUAL(get_int(r, "graph", "group"), 2);
	gboolean b = FALSE;
	CU_ASSERT_TRUE(ftl_tui_view_get_bool(r, "graph", "all_open", &b));
	CU_ASSERT_TRUE(b);
	const char *p1[] = { "bash-12", "do_syscall_64", "ksys_read" };
	const char *p2[] = { hostile, "a/b" };
	g_autoptr(GPtrArray) toggled = ftl_tui_view_get_paths(r, "graph", "toggled");
	CU_ASSERT_EQUAL(toggled->len, 2);
	assert_path(toggled, 0, p1, 3);
	assert_path(toggled, 1, p2, 2);
	g_autoptr(GPtrArray) cursor = ftl_tui_view_get_paths(r, "graph", "cursor");
	assert_path(cursor, 0, p2, 2);
	g_autoptr(GPtrArray) top = ftl_tui_view_get_paths(r, "graph", "top");
	assert_path(top, 0, p1, 1);
	CU_ASSERT_EQUAL(get_int(r, "graph", "page"), 22);
	CU_ASSERT_EQUAL(get_int(r, "functions", "sort"), FTL_TUI_VIEW_FUNCS_SORTS - 1);
	b = FALSE;
	CU_ASSERT_TRUE(ftl_tui_view_get_bool(r, "functions", "reverse", &b));
	CU_ASSERT_TRUE(b);
	g_autofree char *func = ftl_tui_view_get_name(r, "functions", "cursor");
	CU_ASSERT_STRING_EQUAL(func, hostile);
	CU_ASSERT_EQUAL(get_int(r, "functions", "top"), 3);
	CU_ASSERT_EQUAL(get_int(r, "sched", "sort"), FTL_TUI_VIEW_SCHED_SORTS - 1);
	CU_ASSERT_EQUAL(get_int(r, "sched", "scope"), 3);
	CU_ASSERT_EQUAL(get_int(r, "sched", "cursor"), 17);
	CU_ASSERT_EQUAL(get_int(r, "sched", "top"), 10);
	/* the file again is the same file */
	gsize l1, l2;
	g_autofree char *d1 = ftl_tui_view_to_data(v, &l1);
	g_autofree char *d2 = ftl_tui_view_to_data(r, &l2);
	CU_ASSERT_STRING_EQUAL(d1, d2);
}

/* The hostile name added no key: one line per key, the name quoted. */
static void test_no_injection(void)
{
	g_autoptr(FtlTuiView) v = ftl_tui_view_new();
	ftl_tui_view_set_name(v, "functions", "cursor", hostile);
	gsize len;
	g_autofree char *data = ftl_tui_view_to_data(v, &len);
	CU_ASSERT_PTR_NULL(strstr(data, "\npanel="));
	CU_ASSERT_PTR_NULL(strstr(data, "\n[view]"));
	CU_ASSERT_PTR_NOT_NULL(
		strstr(data, "cursor=%20evil%0A[view]%0Apanel=Oops%3Bx/y%2541%5C%FF%FE%9B[2J%20\n"));
	for (gsize i = 0; i < len; i++)
		CU_ASSERT_FATAL(data[i] == '\n' || (data[i] >= 0x20 && data[i] < 0x7f));
}

/* parse TEXT: NULL, and the error has WANT */
static void assert_bad(const char *text, const char *want)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(FtlTuiView) v = ftl_tui_view_parse(text, strlen(text), "x.view", &error);
	CU_ASSERT_PTR_NULL(v);
	CU_ASSERT_PTR_NOT_NULL_FATAL(error);
	if (!strstr(error->message, want))
		fprintf(stderr, "\nwanted '%s' in: %s\n", want, error->message);
	CU_ASSERT_PTR_NOT_NULL(strstr(error->message, want));
	CU_ASSERT_TRUE(g_str_has_prefix(error->message, "'x.view': "));
}

#define HEAD "[ftlens-view]\nversion=1\n"

static void test_garbage_values(void)
{
	assert_bad("", "not a saved view");
	assert_bad("[ftlens-view]\nversion=2\n", "line 2: not a saved view");
	assert_bad(HEAD "[timeline]\nspan=0\n", "line 4: span: '0': expected a whole number from 1");
	assert_bad(HEAD "[timeline]\nspan=-3\n", "line 4: span");
	assert_bad(HEAD "[timeline]\nt0=99999999999999999999\n", "line 4: t0");
	assert_bad(HEAD "[timeline]\nt0=-9223372036854775808\n", "line 4: t0"); /* FTL_TS_NONE */
	assert_bad(HEAD "[timeline]\nt0=12abc\n", "line 4: t0");
	assert_bad(HEAD "[graph]\ngroup=3\n", "line 4: group");
	assert_bad(HEAD "[graph]\nall_open=yes\n", "line 4: all_open: expected true or false");
	assert_bad(HEAD "[functions]\nsort=7\n", "line 4: sort");
	assert_bad(HEAD "[view]\npanel=Nope\n", "line 4: panel: no panel named 'Nope'");
	assert_bad(HEAD "[view]\nbookmark_row_q=-2\n", "line 4: bookmark_row_q");
	assert_bad(HEAD "[view]\nfilters=cpu 1;bogus filter words;\n", "line 4: filters: value 2");
	assert_bad(HEAD "[view]\nfilters=cpu%00;\n", "line 4: filters: value 1: not a quoted name");
	assert_bad(HEAD "[functions]\ncursor=a%4\n", "line 4: cursor: not a quoted name");
	assert_bad(HEAD "[functions]\ncursor=a%zz\n", "line 4: cursor: not a quoted name");
	assert_bad(HEAD "[functions]\ncursor=\n", "line 4: cursor: not a quoted name");
	assert_bad(HEAD "[graph]\ncursor=a/b;c;\n", "line 4: cursor: more than 1 values");
	assert_bad(HEAD "[graph]\ntoggled=a//b;\n", "line 4: toggled: value 1: not a call path");
	assert_bad(HEAD "[trace]\npaths=a;b;\nsizes=1;\n", "line 5: sizes: one size for each");
	assert_bad(HEAD "[trace]\nsizes=1;x;\n", "line 4: sizes: value 2");
	assert_bad(HEAD "[sched]\nscope=1\nscope=2\n", "line 5: 'scope' given twice");
	assert_bad(HEAD "[sched]\nscope=1\x1b[2J\n", "line 4: byte 0x1b");
	assert_bad(HEAD "[sched]\nscope=\xc3\xa9\n", "line 4: byte 0xc3");
	assert_bad("version=1\n", "line 1: expected key=value under a [group]");
	/* 10001 folds */
	g_autoptr(GString) many = g_string_new(HEAD "[graph]\ntoggled=");
	for (int i = 0; i <= 10000; i++)
		g_string_append(many, "f;");
	g_string_append_c(many, '\n');
	assert_bad(many->str, "line 4: toggled: more than 10000 values");
	/* a later version's keys are left alone; a known group's unknown key too */
	g_autoptr(GError) error = NULL;
	const char *ok = HEAD "[later]\nthing=1\n[graph]\nnew_key=x\n";
	g_autoptr(FtlTuiView) v = ftl_tui_view_parse(ok, strlen(ok), "x.view", &error);
	CU_ASSERT_PTR_NOT_NULL(v);
}

/* A file cut anywhere is refused with a line, or read as the part kept:
 * never a crash, and never a value the whole file did not have. */
static void test_truncated(void)
{
	g_autoptr(FtlTuiView) v = view_full();
	gsize len;
	g_autofree char *data = ftl_tui_view_to_data(v, &len);
	guint refused = 0, read = 0;
	for (gsize cut = 0; cut < len; cut++) {
		g_autoptr(GError) error = NULL;
		g_autoptr(FtlTuiView) r = ftl_tui_view_parse(data, cut, "cut.view", &error);
		if (!r) {
			refused++;
			CU_ASSERT_TRUE(g_str_has_prefix(error->message, "'cut.view': "));
			continue;
		}
		read++;
		gint64 x;
		if (ftl_tui_view_get_int(r, "timeline", "span", &x))
			CU_ASSERT_TRUE(x == 2000 || x == 2 || x == 200 || x == 20);
	}
	CU_ASSERT_TRUE(refused > 0);
	CU_ASSERT_TRUE(read > 0);
	/* cut inside %XX (the Graph's cursor, a path): refused with its line */
	const char *cut = strstr(data, "cursor=%20evil");
	CU_ASSERT_PTR_NOT_NULL_FATAL(cut);
	g_autoptr(GError) error = NULL;
	g_autoptr(FtlTuiView) r =
		ftl_tui_view_parse(data, (gsize)(cut - data) + strlen("cursor=%2"), "cut.view", &error);
	CU_ASSERT_PTR_NULL(r);
	CU_ASSERT_PTR_NOT_NULL(error && strstr(error->message, "cursor: value 1: not a call path"));
}

static void assert_load_refused(const char *path, const char *want)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(FtlTuiView) v = ftl_tui_view_load(path, &error);
	CU_ASSERT_PTR_NULL(v);
	CU_ASSERT_PTR_NOT_NULL_FATAL(error);
	if (!strstr(error->message, want))
		fprintf(stderr, "\nwanted '%s' in: %s\n", want, error->message);
	CU_ASSERT_PTR_NOT_NULL(strstr(error->message, want));
	CU_ASSERT_PTR_NOT_NULL(strstr(error->message, path));
}

static void test_hostile_files(void)
{
	g_autoptr(FtlTuiView) v = view_full();
	g_autofree char *good = scratch_file("good.view");
	CU_ASSERT_TRUE_FATAL(ftl_tui_view_save(v, good, NULL));
	/* too big: a sparse file past the bound */
	g_autofree char *big = scratch_file("big.view");
	int fd = open(big, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	CU_ASSERT_FATAL(fd >= 0);
	CU_ASSERT_EQUAL(ftruncate(fd, FTL_TUI_VIEW_MAX_BYTES + 1), 0);
	close(fd);
	assert_load_refused(big, "larger than such a file can be");
	/* a symlink to a good view */
	g_autofree char *link = scratch_file("link.view");
	CU_ASSERT_EQUAL(symlink(good, link), 0);
	assert_load_refused(link, "a symlink");
	/* a FIFO: refused at once, no hang */
	g_autofree char *fifo = scratch_file("fifo.view");
	CU_ASSERT_EQUAL(mkfifo(fifo, 0600), 0);
	assert_load_refused(fifo, "not a regular file");
	/* a directory */
	g_autofree char *dir = scratch_file("dir.view");
	CU_ASSERT_EQUAL(g_mkdir(dir, 0700), 0);
	assert_load_refused(dir, "not a regular file");
	/* writable by others */
	g_autofree char *open_to_all = scratch_file("open.view");
	CU_ASSERT_TRUE_FATAL(ftl_tui_view_save(v, open_to_all, NULL));
	CU_ASSERT_EQUAL(chmod(open_to_all, 0666), 0);
	assert_load_refused(open_to_all, "writable by other users");
	/* another user's: only root can make one */
	g_autofree char *other = scratch_file("other.view");
	CU_ASSERT_TRUE_FATAL(ftl_tui_view_save(v, other, NULL));
	if (geteuid() == 0 && chown(other, 65534, 65534) == 0)
		assert_load_refused(other, "owned by another user");
	else
		fprintf(stderr, "\nskip: another user's view (not root)\n");
	/* absent */
	g_autofree char *absent = scratch_file("absent.view");
	assert_load_refused(absent, "No such file");
	/* the good one still reads */
	g_autoptr(GError) error = NULL;
	g_autoptr(FtlTuiView) r = ftl_tui_view_load(good, &error);
	CU_ASSERT_PTR_NOT_NULL(r);
}

/* Saving over a view replaces it whole; a directory that cannot be made
 * is an error naming it, and no file is left half written. */
static void test_save(void)
{
	g_autoptr(FtlTuiView) v = view_full();
	g_autofree char *path = scratch_file("sub/dir/again.view");
	g_autoptr(GError) error = NULL;
	CU_ASSERT_TRUE(ftl_tui_view_save(v, path, &error));
	GStatBuf st;
	g_autofree char *sub = scratch_file("sub");
	CU_ASSERT_EQUAL(g_stat(sub, &st), 0);
	CU_ASSERT_EQUAL(st.st_mode & 0777, 0700);
	g_autoptr(FtlTuiView) small = ftl_tui_view_new();
	CU_ASSERT_TRUE(ftl_tui_view_save(small, path, &error));
	g_autofree char *text = NULL;
	CU_ASSERT_TRUE(g_file_get_contents(path, &text, NULL, NULL));
	CU_ASSERT_STRING_EQUAL(text, "[ftlens-view]\nversion=1\n");
	g_autofree char *blocked = scratch_file("file-not-dir");
	CU_ASSERT_TRUE(g_file_set_contents(blocked, "x", 1, NULL));
	g_autofree char *under = g_build_filename(blocked, "v.view", NULL);
	CU_ASSERT_FALSE(ftl_tui_view_save(v, under, &error));
	CU_ASSERT_PTR_NOT_NULL(error && strstr(error->message, blocked));
	/* a full disk: /dev/full takes nothing (the writer's temp file is
	 * beside the target, so only a full file system shows ENOSPC; the
	 * writer's own tests cover it) */
}

static void test_names(void)
{
	g_autoptr(GError) error = NULL;
	g_autofree char *p = ftl_tui_view_resolve("run1.sav", &error);
	g_autofree char *dir = ftl_tui_view_dir();
	g_autofree char *want = g_build_filename(dir, "run1.sav.view", NULL);
	CU_ASSERT_STRING_EQUAL(p, want);
	g_autofree char *f = ftl_tui_view_resolve("./x/y.view", &error);
	CU_ASSERT_STRING_EQUAL(f, "./x/y.view");
	const char *bad[] = { "", ".hidden", "a b", "../x", "x\n", "\xff" };
	for (guint i = 0; i < G_N_ELEMENTS(bad); i++) {
		g_clear_error(&error);
		if (strchr(bad[i], '/'))
			continue;
		g_autofree char *r = ftl_tui_view_resolve(bad[i], &error);
		CU_ASSERT_PTR_NULL(r);
		CU_ASSERT_PTR_NOT_NULL(error);
	}
	g_autofree char *d1 = ftl_tui_view_default_name("/x/y/run 1;\n.sav");
	CU_ASSERT_STRING_EQUAL(d1, "run_1__.sav");
	g_autofree char *d2 = ftl_tui_view_default_name(".hidden");
	CU_ASSERT_STRING_EQUAL(d2, "v.hidden");
	CU_ASSERT_TRUE(ftl_tui_view_name_ok(d1, NULL));
}

static const UnitTest tests[] = {
	{ "every key back as written", test_round_trip },
	{ "a name from the trace cannot start a key", test_no_injection },
	{ "bad values: one error with the file and the line", test_garbage_values },
	{ "a file cut anywhere", test_truncated },
	{ "too big, symlink, FIFO, directory, others' files refused", test_hostile_files },
	{ "saving replaces whole, makes the directory", test_save },
	{ "names and files", test_names },
	{ NULL, NULL },
};

int main(void)
{
	g_autofree char *tmp = g_dir_make_tmp("ftl-view-XXXXXX", NULL);
	scratch = tmp;
	g_setenv("XDG_CONFIG_HOME", tmp, TRUE);
	int rc = unit_run("tui-view", tests);
	g_autofree char *cmd = g_strdup_printf("rm -rf '%s'", tmp);
	if (system(cmd) != 0)
		rc = rc ? rc : 1;
	return rc;
}
