/* SPDX-License-Identifier: GPL-2.0-or-later */
/* parse/tep-check.c: which event formats libtraceevent 1.7 is given as they
 * are, with an empty print fmt, or not at all. Every shape a fuzz target
 * found the library crashing on is caught; the kernel's own formats (a few
 * written out here, and every format file of the public captures under
 * $FTL_REAL_DATA when present) lose nothing: a real format the check takes
 * the print fmt from is one the library crashes or fails on by itself.
 * FTL_TEP_CHECK_DIR=DIR checks every file named "format" under DIR too (a
 * live /sys/kernel/tracing/events). */
#include "config.h"

#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <event-parse.h>

#include "parse/tep-check.h"
#include "unit.h"

#define HEAD                                                                                       \
	"name: sched_switch\nID: 314\nformat:\n"                                                   \
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"                     \
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"                               \
	"\tfield:char prev_comm[16];\toffset:8;\tsize:16;\tsigned:1;\n"                            \
	"\tfield:pid_t prev_pid;\toffset:24;\tsize:4;\tsigned:1;\n"                                \
	"\tfield:long prev_state;\toffset:32;\tsize:8;\tsigned:1;\n"                               \
	"\tfield:__data_loc char[] name;\toffset:40;\tsize:4;\tsigned:1;\n\n"

static FtlTepFormatVerdict check(const char *text)
{
	return ftl_tep_format_check(text, strlen(text));
}

static void test_kernel_shapes_pass(void)
{
	/* sched_switch as 5.x prints it */
	CU_ASSERT_EQUAL(check(HEAD "print fmt: \"prev_comm=%s prev_pid=%d prev_state=%s%s\", "
				   "REC->prev_comm, REC->prev_pid, (REC->prev_state & ((((0x0000 | "
				   "0x0001 | 0x0002) + 1) << 1) - 1)) ? __print_flags(REC->prev_state "
				   "& ((((0x0000 | 0x0001) + 1) << 1) - 1), \"|\", { 0x0001, \"S\" }, "
				   "{ 0x0002, \"D\" }) : \"R\", REC->prev_state & (((0x0001) + 1) << 1) "
				   "? \"+\" : \"\"\n"),
			FTL_TEP_FORMAT_OK);
	/* gfp flags: casts inside the value, strings concatenated */
	CU_ASSERT_EQUAL(check(HEAD "print fmt: \"flags=%s\", (REC->prev_state) ? __print_flags("
				   "REC->prev_state, \"|\", {(unsigned long)(((( gfp_t)(0x400u|0x800u)) | "
				   "(( gfp_t)0x40u))), \"GFP_KERNEL\"}, {(unsigned long)((gfp_t)0x20u), "
				   "\"GFP_\" \"ATOMIC\"}, { 0, ((void *)0) }) : \"none\"\n"),
			FTL_TEP_FORMAT_OK);
	/* symbols with negative values, arrays, strings, escapes, chars */
	CU_ASSERT_EQUAL(check(HEAD "print fmt: \"%s st=%s c=%c \\\"q\\\"\\n\\t\", __get_str(name), "
				   "__print_symbolic(REC->prev_pid, { -1, \"none\" }, { 0, \"zero\" }), "
				   "REC->prev_comm[0] == 'x' ? '\\'' : ' '\n"),
			FTL_TEP_FORMAT_OK);
	/* the divisors the kernel writes */
	CU_ASSERT_EQUAL(check(HEAD "print fmt: \"%lu %lu %d %d\", REC->prev_state / sizeof(u64), "
				   "REC->prev_state / 1000L, REC->prev_pid % 64, (REC->prev_pid) / "
				   "( 0x10 ) + 1\n"),
			FTL_TEP_FORMAT_OK);
	/* no print fmt at all */
	CU_ASSERT_EQUAL(check(HEAD), FTL_TEP_FORMAT_OK);
}

static void test_damaged_print_fmt_emptied(void)
{
	static const char *const bad[] = {
		/* regress/tracedat/libtraceevent-print-flags-bad-entry.dat */
		"__print_flags(REC->prev_state, \"|\", { 0x000000 [999]  })",
		"__print_flags(REC->prev_state, \"|\", { 1 \"S\" })",
		"__print_flags(REC->prev_state, \"|\", { 1, \"S\", \"D\" })",
		"__print_flags(REC->prev_state, \"|\", { 1, })",
		"__print_flags(REC->prev_state, \"|\", { , \"S\" })",
		"__print_flags(REC->prev_state, \"|\", { 1, \"S\" { 2, \"D\" } })",
		"__print_symbolic(REC->prev_state, { 1, \"S\" }",
		"(REC->prev_state))",
		"REC->prev_comm[0]]",
		"(REC->prev_state]",
		/* a byte the tokenizer makes a NULL token of, outside and inside
		 * a literal; a literal left open; one the library does not close
		 * where C would ("a\\" goes on) */
		"REC->prev_pid \x96",
		"REC->prev_pid \x01",
		"\"\x96\"",
		"\"abc",
		"\"a\\\\\", REC->prev_pid",
		"\"a\tb\"",
		/* a divisor that may be zero, folded or read from the record
		 * (regress/tracedat/libtraceevent-divide-by-zero.dat) */
		"REC->prev_pid / 0",
		"REC->prev_pid % 0x0UL",
		"4 / (1 - 1)",
		"REC->prev_pid / REC->prev_state",
		"REC->prev_pid / -1",
		"REC->prev_pid / (2",
		"REC->prev_pid / 2[0]",
		"REC->prev_pid / 2x",
		"REC->prev_pid /",
		/* fields that are not there (regress/rawdir/libtraceevent-print-flags-null-deref,
		 * regress/tracedat/libtraceevent-print-flags-damaged-rec.dat) */
		"REC->no_such_field",
		"EC->prev_pid",
	};
	for (gsize i = 0; i < G_N_ELEMENTS(bad); i++) {
		g_autofree char *text = g_strdup_printf(HEAD "print fmt: \"%%d\", %s\n", bad[i]);
		FtlTepFormatVerdict v = check(text);
		if (v != FTL_TEP_FORMAT_NO_PRINT)
			fprintf(stderr, "\npassed, should not: %s\n", bad[i]);
		CU_ASSERT_EQUAL(v, FTL_TEP_FORMAT_NO_PRINT);
		char *safe = NULL;
		gsize len = 0;
		CU_ASSERT_EQUAL(ftl_tep_format_safe(text, strlen(text), &safe, &len),
				FTL_TEP_FORMAT_NO_PRINT);
		CU_ASSERT_PTR_NOT_NULL_FATAL(safe);
		CU_ASSERT_EQUAL(len, strlen(safe));
		CU_ASSERT_TRUE(g_str_has_suffix(safe, "print fmt: \"\"\n"));
		CU_ASSERT_TRUE(g_str_has_prefix(safe, HEAD));
		CU_ASSERT_EQUAL(check(safe), FTL_TEP_FORMAT_OK);
		g_free(safe);
	}
	/* nested deeper than the check follows */
	GString *deep = g_string_new(HEAD "print fmt: \"%d\", ");
	for (int i = 0; i < 300; i++)
		g_string_append_c(deep, '(');
	g_string_append(deep, "REC->prev_pid");
	for (int i = 0; i < 300; i++)
		g_string_append_c(deep, ')');
	CU_ASSERT_EQUAL(check(deep->str), FTL_TEP_FORMAT_NO_PRINT);
	g_string_free(deep, TRUE);
}

static void test_damaged_declarations_refused(void)
{
	/* regress/tracedat/libtraceevent-format-byte-not-ascii.dat: "[\x966]" */
	static const char *const bad[] = {
		"\tfield:char next_comm[\2266];\toffset:48;\tsize:16;\tsigned:1;\n",
		"\tfield:char next_comm[16];\toffset:48;\tsize:16;\tsigned:\x01;\n",
		"\tfield:char next_\177comm[16];\toffset:48;\tsize:16;\tsigned:1;\n",
	};
	for (gsize i = 0; i < G_N_ELEMENTS(bad); i++) {
		g_autofree char *text = g_strdup_printf(HEAD "%s\nprint fmt: \"%%d\", REC->prev_pid\n",
							bad[i]);
		CU_ASSERT_EQUAL(check(text), FTL_TEP_FORMAT_REFUSED);
		char *safe = (char *)"x";
		gsize len = 1;
		CU_ASSERT_EQUAL(ftl_tep_format_safe(text, strlen(text), &safe, &len),
				FTL_TEP_FORMAT_REFUSED);
		CU_ASSERT_PTR_NULL(safe);
		/* without a print fmt as well */
		g_autofree char *bare = g_strdup_printf(HEAD "%s", bad[i]);
		CU_ASSERT_EQUAL(check(bare), FTL_TEP_FORMAT_REFUSED);
	}
	/* the library reads up to the first NUL: what follows it is not looked at */
	static const char cut[] = HEAD "print fmt: \"%d\", REC->prev_pid\n\0\x96{{{";
	CU_ASSERT_EQUAL(ftl_tep_format_check(cut, sizeof cut - 1), FTL_TEP_FORMAT_OK);
}

/* What libtraceevent itself makes of text, in a child: 0 it crashes, 1 it
 * reads fields and print fmt, 2 it fails (an error or a print fmt it
 * gives up on). */
static int library_verdict(const char *text, gsize len)
{
	fflush(NULL);
	pid_t pid = fork();
	if (pid == 0) {
		struct tep_handle *tep = tep_alloc();
		struct tep_event *event = NULL;
		enum tep_errno e = tep_parse_format(tep, &event, text, len, "sys");
		_exit(e == 0 && event && !(event->flags & TEP_EVENT_FL_FAILED) ? 1 : 2);
	}
	int status = 0;
	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return 0;
	return WEXITSTATUS(status) == 1 ? 1 : 2;
}

/* How many formats the check took the print fmt from (or refused) that
 * the library crashes on [0] and fails on [2]. */
static guint taken[3];

/* No file named "format" under dir is taken from the library when the
 * library reads it; how many were read. */
static guint check_tree(const char *dir)
{
	g_autoptr(GDir) d = g_dir_open(dir, 0, NULL);
	if (!d)
		return 0;
	guint n = 0;
	const char *name;
	while ((name = g_dir_read_name(d))) {
		g_autofree char *path = g_build_filename(dir, name, NULL);
		if (g_file_test(path, G_FILE_TEST_IS_DIR) && !g_file_test(path, G_FILE_TEST_IS_SYMLINK)) {
			n += check_tree(path);
			continue;
		}
		if (strcmp(name, "format") != 0)
			continue;
		g_autofree char *text = NULL;
		gsize len = 0;
		if (!g_file_get_contents(path, &text, &len, NULL))
			continue;
		FtlTepFormatVerdict v = ftl_tep_format_check(text, len);
		int lib = v == FTL_TEP_FORMAT_OK ? 0 : library_verdict(text, len);
		if (lib == 1)
			fprintf(stderr, "\n%s: verdict %d, the library reads it\n", path, v);
		CU_ASSERT_NOT_EQUAL(lib, 1);
		if (v != FTL_TEP_FORMAT_OK)
			taken[lib]++;
		n++;
	}
	return n;
}

static void test_real_formats_pass(void)
{
	const char *real = g_getenv("FTL_REAL_DATA");
	guint n = 0;
	if (real) {
		g_autofree char *raw = g_build_filename(real, "raw", NULL);
		n = check_tree(raw);
		CU_ASSERT_TRUE(n > 20);
	}
	const char *dir = g_getenv("FTL_TEP_CHECK_DIR");
	guint live = dir ? check_tree(dir) : 0;
	fprintf(stderr,
		"(%u public formats%s, %u under $FTL_TEP_CHECK_DIR; taken: %u the library "
		"crashes on, %u it fails on) ",
		n, real ? "" : ": skip, needs $FTL_REAL_DATA", live, taken[0], taken[2]);
}

int main(void)
{
	static const UnitTest tests[] = {
		{ "the kernel's shapes pass", test_kernel_shapes_pass },
		{ "a damaged print fmt is emptied", test_damaged_print_fmt_emptied },
		{ "damaged declarations are refused", test_damaged_declarations_refused },
		{ "every real format passes", test_real_formats_pass },
		{ NULL, NULL },
	};
	return unit_run("tep-check", tests);
}
