/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The one output writer: whole or nothing, never over an input. */
#include "config.h"

#include <glib/gstdio.h>
#include <signal.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "unit.h"
#include "util/error.h"
#include "util/output.h"

static char *out_dir(void)
{
	return g_dir_make_tmp("ftl-output-XXXXXX", NULL);
}

/* g_ptr_array_sort() passes pointers to the elements */
static gint out_name_cmp(gconstpointer a, gconstpointer b)
{
	return g_strcmp0(*(char *const *)a, *(char *const *)b);
}

/* The names in dir, sorted, space-separated. */
static char *out_listing(const char *dir)
{
	g_autoptr(GDir) d = g_dir_open(dir, 0, NULL);
	g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func(g_free);
	const char *n;
	while ((n = g_dir_read_name(d)))
		g_ptr_array_add(names, g_strdup(n));
	g_ptr_array_sort(names, out_name_cmp);
	g_ptr_array_add(names, NULL);
	return g_strjoinv(" ", (char **)names->pdata);
}

static void out_rm(char *dir)
{
	g_autoptr(GDir) d = g_dir_open(dir, 0, NULL);
	const char *n;
	while (d && (n = g_dir_read_name(d))) {
		g_autofree char *p = g_build_filename(dir, n, NULL);
		g_unlink(p);
	}
	g_rmdir(dir);
	g_free(dir);
}

static void test_commit(void)
{
	char *dir = out_dir();
	g_autofree char *path = g_build_filename(dir, "out.txt", NULL);
	g_autoptr(GError) err = NULL;
	FtlOutput *o = ftl_output_open(path, NULL, &err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(o);
	fputs("hello\n", ftl_output_stream(o));
	/* nothing at the target until the commit, only the temp file */
	CU_ASSERT_FALSE(g_file_test(path, G_FILE_TEST_EXISTS));
	CU_ASSERT_TRUE(ftl_output_commit(o, &err));
	ftl_output_free(o);
	g_autofree char *text = NULL;
	CU_ASSERT_TRUE(g_file_get_contents(path, &text, NULL, NULL));
	CU_ASSERT_STRING_EQUAL(text, "hello\n");
	g_autofree char *ls = out_listing(dir);
	CU_ASSERT_STRING_EQUAL(ls, "out.txt");
	out_rm(dir);
}

static void test_abandon_keeps_old(void)
{
	char *dir = out_dir();
	g_autofree char *path = g_build_filename(dir, "out.txt", NULL);
	g_file_set_contents(path, "old\n", -1, NULL);
	g_chmod(path, 0640);
	FtlOutput *o = ftl_output_open(path, NULL, NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(o);
	fputs("half of the new", ftl_output_stream(o));
	ftl_output_free(o); /* a failure elsewhere: never committed */
	g_autofree char *text = NULL;
	g_file_get_contents(path, &text, NULL, NULL);
	CU_ASSERT_STRING_EQUAL(text, "old\n");
	g_autofree char *ls = out_listing(dir);
	CU_ASSERT_STRING_EQUAL(ls, "out.txt");
	/* replaced whole, keeping the old file's mode */
	CU_ASSERT_TRUE(ftl_output_write_all(path, NULL, "new\n", 4, NULL));
	g_autofree char *text2 = NULL;
	g_file_get_contents(path, &text2, NULL, NULL);
	CU_ASSERT_STRING_EQUAL(text2, "new\n");
	GStatBuf st;
	g_stat(path, &st);
	CU_ASSERT_EQUAL(st.st_mode & 0777, 0640);
	out_rm(dir);
}

static void test_refuses_input(void)
{
	char *dir = out_dir();
	g_autofree char *in = g_build_filename(dir, "in.log", NULL);
	g_autofree char *alias = g_build_filename(dir, "other-name.log", NULL);
	g_file_set_contents(in, "the log\n", -1, NULL);
	CU_ASSERT_EQUAL(link(in, alias), 0);
	const char *inputs[] = { "-", in, NULL };
	g_autoptr(GError) err = NULL;
	/* the same file under another name is still the input */
	FtlOutput *o = ftl_output_open(alias, inputs, &err);
	CU_ASSERT_PTR_NULL(o);
	CU_ASSERT_TRUE(g_error_matches(err, FTL_ERROR, FTL_ERROR_USAGE));
	g_autofree char *text = NULL;
	g_file_get_contents(in, &text, NULL, NULL);
	CU_ASSERT_STRING_EQUAL(text, "the log\n");
	g_autofree char *ls = out_listing(dir);
	CU_ASSERT_STRING_EQUAL(ls, "in.log other-name.log");
	/* a directory is no output file */
	g_clear_error(&err);
	CU_ASSERT_PTR_NULL(ftl_output_open(dir, NULL, &err));
	CU_ASSERT_PTR_NOT_NULL(err);
	out_rm(dir);
}

static void test_write_error_is_sticky(void)
{
	char *dir = out_dir();
	g_autofree char *path = g_build_filename(dir, "out.txt", NULL);
	FtlOutput *o = ftl_output_open(path, NULL, NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(o);
	FILE *f = ftl_output_stream(o);
	fputs("some", f);
	fflush(f);
	/* the descriptor goes bad under the stream: a later write fails */
	int fd = fileno(f);
	int saved = dup(fd);
	close(fd);
	for (int i = 0; i < 10000; i++)
		fputs("more text that cannot be written\n", f);
	g_autoptr(GError) err = NULL;
	CU_ASSERT_FALSE(ftl_output_commit(o, &err));
	CU_ASSERT_TRUE(g_error_matches(err, FTL_ERROR, FTL_ERROR_IO));
	CU_ASSERT_PTR_NOT_NULL(err && strstr(err->message, "out.txt"));
	ftl_output_free(o);
	close(saved);
	CU_ASSERT_FALSE(g_file_test(path, G_FILE_TEST_EXISTS));
	g_autofree char *ls = out_listing(dir);
	CU_ASSERT_STRING_EQUAL(ls, "");
	out_rm(dir);
}

static void test_signal_removes_temp(void)
{
	int sigs[] = { SIGTERM, SIGINT, SIGHUP };
	for (guint i = 0; i < G_N_ELEMENTS(sigs); i++) {
		char *dir = out_dir();
		g_autofree char *path = g_build_filename(dir, "out.txt", NULL);
		pid_t pid = fork();
		if (pid == 0) {
			FtlOutput *o = ftl_output_open(path, NULL, NULL);
			if (!o)
				_exit(3);
			fputs("partial", ftl_output_stream(o));
			fflush(ftl_output_stream(o));
			raise(sigs[i]);
			_exit(4); /* not reached: the signal ends the child */
		}
		int status = 0;
		waitpid(pid, &status, 0);
		CU_ASSERT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == sigs[i]);
		g_autofree char *ls = out_listing(dir);
		CU_ASSERT_STRING_EQUAL(ls, "");
		out_rm(dir);
	}
}

static void test_stdout(void)
{
	g_autoptr(GError) err = NULL;
	FtlOutput *o = ftl_output_open("-", NULL, &err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(o);
	CU_ASSERT_PTR_EQUAL(ftl_output_stream(o), stdout);
	CU_ASSERT_TRUE(ftl_output_commit(o, &err));
	ftl_output_free(o);
	/* stdout stays open */
	CU_ASSERT_TRUE(fflush(stdout) == 0);
}

static const UnitTest tests[] = {
	{ "commit renames the temp file into place", test_commit },
	{ "an abandoned output leaves the old file", test_abandon_keeps_old },
	{ "an input is never overwritten", test_refuses_input },
	{ "a write error is sticky and leaves nothing", test_write_error_is_sticky },
	{ "SIGTERM, SIGINT, SIGHUP leave no temp file", test_signal_removes_temp },
	{ "- is standard output", test_stdout },
	{ NULL, NULL },
};

int main(void)
{
	/* The writer leaves a signal its caller ignores alone, and a test run
	 * from nohup or a background shell job starts with SIGHUP or SIGINT
	 * ignored: the signal test wants the default, deadly, disposition. */
	signal(SIGTERM, SIG_DFL);
	signal(SIGINT, SIG_DFL);
	signal(SIGHUP, SIG_DFL);
	return unit_run("output", tests);
}
