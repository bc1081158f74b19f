/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests of parse/stacktrace.c: one layout quirk per test, the
 * arithmetic checks on doctored tables, series, pairing, cut and bad input. */
#include "config.h"

#include <glib/gstdio.h>
#include <string.h>

#include "parse/stacktrace.h"
#include "unit.h"
#include "util/error.h"

#define HEAD(n)                                                                                    \
	"        Depth    Size   Location    (" #n " entries)\n"                                   \
	"        -----    ----   --------\n"

/* A consistent table: every Size is the Depth difference. */
#define TABLE4                                                                                     \
	HEAD(4)                                                                                    \
	"  0)     1000     100   a_func+0x5/0x20\n"                                                \
	"  1)      900     500   b_func+0x25/0x1f0\n"                                              \
	"  2)      400     300   c_func+0x13a/0x9b0\n"                                             \
	"  3)      100     100   entry_SYSCALL_64_after_hwframe+0x6e/0xd8\n"

static FtlStackSet *read_ok(const char *name, const char *text)
{
	g_autoptr(GError) error = NULL;
	FtlStackSet *set = ftl_stack_set_new();
	gboolean ok = ftl_stacktrace_read_data(set, name, text, strlen(text), &error);
	if (!ok)
		fprintf(stderr, "\n  unexpected error: %s\n", error->message);
	CU_ASSERT_TRUE_FATAL(ok);
	ftl_stacktrace_finish(set);
	return set;
}

/* The error reading text; checks it names the file and the line. */
static GError *read_err(const char *text, gsize len, guint64 line)
{
	GError *error = NULL;
	g_autoptr(FtlStackSet) set = ftl_stack_set_new();
	CU_ASSERT_FALSE(ftl_stacktrace_read_data(set, "in.txt", text, len, &error));
	CU_ASSERT_PTR_NOT_NULL_FATAL(error);
	g_autofree char *where = g_strdup_printf("'in.txt': line %" G_GUINT64_FORMAT ": ", line);
	if (!g_str_has_prefix(error->message, where))
		fprintf(stderr, "\n  message: %s (wanted %s)\n", error->message, where);
	CU_ASSERT_TRUE(g_str_has_prefix(error->message, where));
	return error;
}

static guint count_diags(const FtlStackSet *set, FtlStackDiagKind kind)
{
	guint n = 0;
	for (guint i = 0; i < ftl_stack_set_n_diags(set); i++)
		n += ftl_stack_set_diag(set, i)->kind == kind;
	return n;
}

static void test_rig_layout(void)
{
	g_autoptr(FtlStackSet) set = read_ok("stack_trace", TABLE4);
	CU_ASSERT_EQUAL_FATAL(ftl_stack_set_n_tables(set), 1);
	const FtlStackTable *t = ftl_stack_set_table(set, 0);
	CU_ASSERT_EQUAL(t->line, 1);
	CU_ASSERT_EQUAL(t->entries, 4);
	CU_ASSERT_EQUAL(t->snapshot, -1);
	CU_ASSERT_EQUAL(t->max_size, -1);
	CU_ASSERT_FALSE(t->disabled);
	CU_ASSERT_EQUAL_FATAL(ftl_stack_table_n_frames(t), 4);
	CU_ASSERT_EQUAL(ftl_stack_table_depth(t), 1000);
	const FtlStackFrame *f = ftl_stack_table_frame(t, 1);
	CU_ASSERT_EQUAL(f->index, 1);
	CU_ASSERT_EQUAL(f->depth, 900);
	CU_ASSERT_EQUAL(f->size, 500);
	CU_ASSERT_EQUAL(f->line, 4);
	CU_ASSERT_STRING_EQUAL(f->location, "b_func+0x25/0x1f0");
	CU_ASSERT_STRING_EQUAL(f->func, "b_func");
	CU_ASSERT_PTR_NULL(f->module);
	CU_ASSERT_FALSE(f->raw);
	CU_ASSERT_EQUAL(ftl_stack_set_n_diags(set), 0);
}

static void test_doc_indent_and_command(void)
{
	/* ftrace.rst's sample: a 2-space indent and the command line first */
	g_autoptr(FtlStackSet) set =
		read_ok("doc.txt", "  # cat stack_trace\n"
				   "          Depth    Size   Location    (2 entries)\n"
				   "          -----    ----   --------\n"
				   "    0)     2928     224   update_sd_lb_stats+0xbc/0x4ac\n"
				   "    1)     2704    2704   find_busiest_group+0x31/0x1f1\n");
	CU_ASSERT_EQUAL_FATAL(ftl_stack_set_n_tables(set), 1);
	const FtlStackTable *t = ftl_stack_set_table(set, 0);
	CU_ASSERT_EQUAL(t->line, 2);
	CU_ASSERT_EQUAL_FATAL(ftl_stack_table_n_frames(t), 2);
	CU_ASSERT_EQUAL(ftl_stack_table_frame(t, 0)->line, 4);
	CU_ASSERT_STRING_EQUAL(ftl_stack_table_frame(t, 1)->func, "find_busiest_group");
	CU_ASSERT_EQUAL(ftl_stack_set_n_diags(set), 0);
}

static void test_prompt_command(void)
{
	/* a terminal capture: the prompt holds the directory */
	g_autoptr(FtlStackSet) set =
		read_ok("cap.txt", "/sys/kernel/debug/tracing # cat stack_trace\n" TABLE4);
	CU_ASSERT_EQUAL(ftl_stack_set_n_tables(set), 1);
	CU_ASSERT_EQUAL(ftl_stack_set_table(set, 0)->line, 2);
}

static void test_raw_address(void)
{
	g_autoptr(FtlStackSet) set = read_ok(
		"ppc64.txt", HEAD(2) " 10)     1344      16   0xc0000000334bbb50\n"
				     " 11)     1328    1328   load_elf_binary+0x804/0x1b80\n");
	const FtlStackTable *t = ftl_stack_set_table(set, 0);
	const FtlStackFrame *f = ftl_stack_table_frame(t, 0);
	CU_ASSERT_TRUE(f->raw);
	CU_ASSERT_STRING_EQUAL(f->func, "0xc0000000334bbb50");
	CU_ASSERT_STRING_EQUAL(f->location, "0xc0000000334bbb50");
	CU_ASSERT_EQUAL(f->index, 10);
	CU_ASSERT_FALSE(ftl_stack_table_frame(t, 1)->raw);
	/* numbered from 10: out of sequence, said once */
	CU_ASSERT_EQUAL(count_diags(set, FTL_STACK_DIAG_INDEX), 1);
	CU_ASSERT_EQUAL(ftl_stack_set_diag(set, 0)->line, 3);
}

static void test_module_suffix(void)
{
	g_autoptr(FtlStackSet) set = read_ok(
		"mod.txt", HEAD(2) "  0)      300     100   ext4_file_write_iter+0x1a/0x30 [ext4]\n"
				   "  1)      200     200   xfs_iomap+0x10/0x90 [xfs 3f2a9c]\n");
	const FtlStackTable *t = ftl_stack_set_table(set, 0);
	CU_ASSERT_STRING_EQUAL(ftl_stack_table_frame(t, 0)->func, "ext4_file_write_iter");
	CU_ASSERT_STRING_EQUAL(ftl_stack_table_frame(t, 0)->module, "ext4");
	CU_ASSERT_STRING_EQUAL(ftl_stack_table_frame(t, 1)->module, "xfs");
	CU_ASSERT_STRING_EQUAL(ftl_stack_table_frame(t, 1)->location,
			       "xfs_iomap+0x10/0x90 [xfs 3f2a9c]");
}

static void test_crlf_no_final_newline(void)
{
	g_autoptr(FtlStackSet) set =
		read_ok("crlf.txt", "        Depth    Size   Location    (2 entries)\r\n"
				    "        -----    ----   --------\r\n"
				    "  0)      300     100   a+0x1/0x2\r\n"
				    "  1)      200     200   b+0x1/0x2");
	const FtlStackTable *t = ftl_stack_set_table(set, 0);
	CU_ASSERT_EQUAL_FATAL(ftl_stack_table_n_frames(t), 2);
	CU_ASSERT_STRING_EQUAL(ftl_stack_table_frame(t, 0)->location, "a+0x1/0x2");
	CU_ASSERT_STRING_EQUAL(ftl_stack_table_frame(t, 1)->location, "b+0x1/0x2");
	CU_ASSERT_EQUAL(ftl_stack_set_n_diags(set), 0);
}

static void test_disabled_empty_table(void)
{
	/* what the kernel prints before the tracer ever ran */
	g_autoptr(FtlStackSet) set = read_ok(
		"off.txt", HEAD(0) "#\n#  Stack tracer disabled\n#\n"
				   "# To enable the stack tracer, either add 'stacktrace' to the\n"
				   "# kernel command line\n"
				   "# or 'echo 1 > /proc/sys/kernel/stack_tracer_enabled'\n#\n");
	CU_ASSERT_EQUAL_FATAL(ftl_stack_set_n_tables(set), 1);
	const FtlStackTable *t = ftl_stack_set_table(set, 0);
	CU_ASSERT_TRUE(t->disabled);
	CU_ASSERT_EQUAL(ftl_stack_table_n_frames(t), 0);
	CU_ASSERT_EQUAL(ftl_stack_table_depth(t), 0);
	CU_ASSERT_EQUAL(ftl_stack_set_n_diags(set), 0);
}

static void test_max_size_files(void)
{
	g_autoptr(FtlStackSet) set = read_ok("stack_max_size", "3392\n");
	CU_ASSERT_EQUAL(ftl_stack_set_n_tables(set), 0);
	CU_ASSERT_EQUAL_FATAL(ftl_stack_set_n_max_sizes(set), 1);
	CU_ASSERT_EQUAL(ftl_stack_set_max_size(set, 0)->value, 3392);
	CU_ASSERT_EQUAL(ftl_stack_set_max_size(set, 0)->line, 1);
	CU_ASSERT_PTR_NULL(ftl_stack_set_max_size(set, 0)->table);
	g_autoptr(FtlStackSet) doc = read_ok("doc_max.txt", "  # cat stack_max_size\n  2928\n");
	CU_ASSERT_EQUAL_FATAL(ftl_stack_set_n_max_sizes(doc), 1);
	CU_ASSERT_EQUAL(ftl_stack_set_max_size(doc, 0)->value, 2928);
	CU_ASSERT_EQUAL(ftl_stack_set_max_size(doc, 0)->line, 2);
}

static void test_value_and_table_in_one_file(void)
{
	/* ftrace.rst shows both files one after the other */
	g_autoptr(FtlStackSet) set = read_ok("both.txt", "# cat stack_max_size\n1016\n"
							 "# cat stack_trace\n" TABLE4);
	CU_ASSERT_EQUAL_FATAL(ftl_stack_set_n_tables(set), 1);
	const FtlStackTable *t = ftl_stack_set_table(set, 0);
	CU_ASSERT_EQUAL(t->max_size, 1016);
	CU_ASSERT_EQUAL(t->max_line, 2);
	CU_ASSERT_PTR_EQUAL(ftl_stack_set_max_size(set, 0)->table, t);
	CU_ASSERT_EQUAL_FATAL(count_diags(set, FTL_STACK_DIAG_MAX_SIZE), 1);
	const FtlStackDiag *d = ftl_stack_set_diag(set, 0);
	CU_ASSERT_STRING_EQUAL(d->file, "both.txt");
	CU_ASSERT_EQUAL(d->line, 2);
	CU_ASSERT_PTR_NOT_NULL(strstr(d->message, "1016"));
	CU_ASSERT_PTR_NOT_NULL(strstr(d->message, "1000"));
}

static void test_several_tables_in_one_file(void)
{
	g_autoptr(FtlStackSet) set = read_ok("loop.txt", "$ cat stack_trace\n" TABLE4 "\n"
							 "$ cat stack_trace\n" TABLE4 TABLE4);
	CU_ASSERT_EQUAL_FATAL(ftl_stack_set_n_tables(set), 3);
	CU_ASSERT_EQUAL(ftl_stack_set_table(set, 0)->line, 2);
	CU_ASSERT_EQUAL(ftl_stack_set_table(set, 1)->line, 10);
	CU_ASSERT_EQUAL(ftl_stack_set_table(set, 2)->line, 16);
	CU_ASSERT_EQUAL(ftl_stack_set_n_diags(set), 0);
}

static void test_pair_by_name(void)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(FtlStackSet) set = ftl_stack_set_new();
	const char *v = "1000\n", *other = HEAD(1) "  0)      700     700   x+0x1/0x2\n";
	CU_ASSERT_TRUE(ftl_stacktrace_read_data(set, "d/run2.stack_trace.txt", other, strlen(other),
						&error));
	CU_ASSERT_TRUE(
		ftl_stacktrace_read_data(set, "d/run1.stack_max_size", v, strlen(v), &error));
	CU_ASSERT_TRUE(ftl_stacktrace_read_data(set, "d/run1.stack_trace.txt", TABLE4,
						strlen(TABLE4), &error));
	CU_ASSERT_TRUE(ftl_stacktrace_read_data(set, "e/run1.stack_trace.txt", other, strlen(other),
						&error));
	ftl_stacktrace_finish(set);
	const FtlStackMaxSize *m = ftl_stack_set_max_size(set, 0);
	CU_ASSERT_PTR_EQUAL(m->table, ftl_stack_set_table(set, 1));
	CU_ASSERT_EQUAL(ftl_stack_set_table(set, 1)->max_size, 1000);
	CU_ASSERT_EQUAL(ftl_stack_set_table(set, 0)->max_size, -1);
	CU_ASSERT_EQUAL(ftl_stack_set_n_diags(set), 0);

	/* two tables and no name to go by: the value stays alone */
	g_autoptr(FtlStackSet) two = ftl_stack_set_new();
	CU_ASSERT_TRUE(ftl_stacktrace_read_data(two, "a", other, strlen(other), &error));
	CU_ASSERT_TRUE(ftl_stacktrace_read_data(two, "b", other, strlen(other), &error));
	CU_ASSERT_TRUE(ftl_stacktrace_read_data(two, "max", v, strlen(v), &error));
	ftl_stacktrace_finish(two);
	CU_ASSERT_PTR_NULL(ftl_stack_set_max_size(two, 0)->table);

	/* one table: the value goes with it, and the mismatch is told */
	g_autoptr(FtlStackSet) one = ftl_stack_set_new();
	CU_ASSERT_TRUE(ftl_stacktrace_read_data(one, "max", v, strlen(v), &error));
	CU_ASSERT_TRUE(ftl_stacktrace_read_data(one, "t", other, strlen(other), &error));
	ftl_stacktrace_finish(one);
	CU_ASSERT_EQUAL(ftl_stack_set_table(one, 0)->max_size, 1000);
	CU_ASSERT_EQUAL(count_diags(one, FTL_STACK_DIAG_MAX_SIZE), 1);
	CU_ASSERT_STRING_EQUAL(ftl_stack_set_diag(one, 0)->file, "max");
}

static void test_read_dir(void)
{
	g_autoptr(GError) error = NULL;
	g_autofree char *dir = g_dir_make_tmp("ftl-stack-XXXXXX", &error);
	CU_ASSERT_PTR_NOT_NULL_FATAL(dir);
	g_autofree char *t = g_build_filename(dir, "stack_trace", NULL);
	g_autofree char *m = g_build_filename(dir, "stack_max_size", NULL);
	CU_ASSERT_TRUE(g_file_set_contents(t, TABLE4, -1, NULL));
	CU_ASSERT_TRUE(g_file_set_contents(m, "1000\n", -1, NULL));
	g_autoptr(FtlStackSet) set = ftl_stack_set_new();
	CU_ASSERT_TRUE(ftl_stacktrace_read(set, dir, NULL, &error));
	ftl_stacktrace_finish(set);
	CU_ASSERT_EQUAL_FATAL(ftl_stack_set_n_tables(set), 1);
	CU_ASSERT_EQUAL(ftl_stack_set_table(set, 0)->max_size, 1000);
	CU_ASSERT_EQUAL(ftl_stack_set_n_diags(set), 0);
	g_unlink(t);
	g_unlink(m);
	/* a directory without stack_trace */
	g_autoptr(FtlStackSet) none = ftl_stack_set_new();
	CU_ASSERT_FALSE(ftl_stacktrace_read(none, dir, NULL, &error));
	CU_ASSERT_PTR_NOT_NULL(strstr(error->message, "holds no stack_trace"));
	g_rmdir(dir);
}

#define SERIES_HEAD "# ftlens-stack-series v1 kernel=6.1.0-57-cloud-amd64 clock=monotonic\n"

static void test_series(void)
{
	g_autoptr(FtlStackSet) set =
		read_ok("s", SERIES_HEAD "# snapshot 1 time=12.500000 max_size=0\n" HEAD(
				     0) "\n# snapshot 2 time=13.25 max_size=1000\n" TABLE4
					"# snapshot 3 time=14.000001 max_size=1000\n" TABLE4);
	CU_ASSERT_EQUAL_FATAL(ftl_stack_set_n_tables(set), 3);
	const FtlStackTable *a = ftl_stack_set_table(set, 0), *b = ftl_stack_set_table(set, 1),
			    *c = ftl_stack_set_table(set, 2);
	CU_ASSERT_EQUAL(a->snapshot, 1);
	CU_ASSERT_EQUAL(a->time_ns, G_GINT64_CONSTANT(12500000000));
	CU_ASSERT_EQUAL(a->max_size, 0);
	CU_ASSERT_EQUAL(ftl_stack_table_n_frames(a), 0);
	CU_ASSERT_EQUAL(b->snapshot, 2);
	CU_ASSERT_EQUAL(b->time_ns, G_GINT64_CONSTANT(13250000000));
	CU_ASSERT_EQUAL(b->line, 7);
	CU_ASSERT_EQUAL(b->max_line, 6);
	CU_ASSERT_PTR_EQUAL(b->max_file, b->file);
	CU_ASSERT_STRING_EQUAL(b->kernel, "6.1.0-57-cloud-amd64");
	CU_ASSERT_EQUAL(ftl_stack_table_n_frames(b), 4);
	CU_ASSERT_EQUAL(c->time_ns, G_GINT64_CONSTANT(14000001000));
	CU_ASSERT_EQUAL(ftl_stack_set_n_diags(set), 0);
}

static void test_series_order(void)
{
	g_autoptr(FtlStackSet) set =
		read_ok("s", SERIES_HEAD "# snapshot 5 time=20.0 max_size=1000\n" TABLE4
					 "# snapshot 4 time=19.5 max_size=1000\n" TABLE4);
	CU_ASSERT_EQUAL(count_diags(set, FTL_STACK_DIAG_SERIES), 2);
	CU_ASSERT_EQUAL(ftl_stack_set_diag(set, 0)->line, 9);
}

static void test_series_bad(void)
{
	const char *v2 = "# ftlens-stack-series v2 kernel=x\n";
	g_autoptr(GError) e1 = read_err(v2, strlen(v2), 1);
	CU_ASSERT_TRUE(g_error_matches(e1, FTL_ERROR, FTL_ERROR_UNSUPPORTED));
	const char *bare = "# ftlens-stack-series\n";
	g_autoptr(GError) e1b = read_err(bare, strlen(bare), 1);
	const char *no_table = SERIES_HEAD "# snapshot 1 time=1.0 max_size=1000\n\n";
	g_autoptr(GError) e2 = read_err(no_table, strlen(no_table), 2);
	CU_ASSERT_PTR_NOT_NULL(strstr(e2->message, "no table"));
	const char *bad_line = SERIES_HEAD TABLE4;
	g_autoptr(GError) e3 = read_err(bad_line, strlen(bad_line), 2);
	CU_ASSERT_PTR_NOT_NULL(strstr(e3->message, "# snapshot N"));
	const char *bad_time = SERIES_HEAD "# snapshot 1 time=abc max_size=1000\n" TABLE4;
	g_autoptr(GError) e4 = read_err(bad_time, strlen(bad_time), 2);
	const char *other = SERIES_HEAD "# snapshot 1 time=1.0 max_size=1\nhello\n";
	g_autoptr(GError) e5 = read_err(other, strlen(other), 3);
	/* the last snapshot cut inside its table */
	const char *cut = SERIES_HEAD "# snapshot 1 time=1.0 max_size=1000\n" HEAD(
		4) "  0)     1000     100   a_func+0x5/0x20\n";
	g_autoptr(GError) e6 = read_err(cut, strlen(cut), 5);
	CU_ASSERT_PTR_NOT_NULL(strstr(e6->message, "cut"));
}

static void test_arithmetic_doctored(void)
{
	/* TABLE4 with b_func's Size, the last Size, the count and a number
	 * doctored: each inconsistency is told at its line */
	g_autoptr(FtlStackSet) set =
		read_ok("doctored", HEAD(3) "  0)     1000     100   a_func+0x5/0x20\n"
					    "  1)      900     480   b_func+0x25/0x1f0\n"
					    "  2)      400     300   c_func+0x13a/0x9b0\n"
					    "  4)      100      90   bottom+0x6e/0xd8\n");
	CU_ASSERT_EQUAL_FATAL(ftl_stack_set_n_diags(set), 4);
	CU_ASSERT_EQUAL(count_diags(set, FTL_STACK_DIAG_SIZE), 2);
	CU_ASSERT_EQUAL(count_diags(set, FTL_STACK_DIAG_INDEX), 1);
	CU_ASSERT_EQUAL(count_diags(set, FTL_STACK_DIAG_ENTRIES), 1);
	for (guint i = 0; i < ftl_stack_set_n_diags(set); i++) {
		const FtlStackDiag *d = ftl_stack_set_diag(set, i);
		CU_ASSERT_STRING_EQUAL(d->file, "doctored");
		switch (d->kind) {
		case FTL_STACK_DIAG_SIZE:
			CU_ASSERT_TRUE(d->line == 4 || d->line == 6);
			if (d->line == 4) {
				CU_ASSERT_STRING_EQUAL(
					d->message, "frame 1 (b_func): Size 480, but Depth 900 - "
						    "next Depth 400 = 500");
			} else {
				CU_ASSERT_STRING_EQUAL(d->message, "last frame 4 (bottom): Size "
								   "90, but its Depth is 100");
			}
			break;
		case FTL_STACK_DIAG_INDEX:
			CU_ASSERT_EQUAL(d->line, 6);
			break;
		case FTL_STACK_DIAG_ENTRIES:
			CU_ASSERT_EQUAL(d->line, 1);
			CU_ASSERT_STRING_EQUAL(d->message,
					       "the header says 3 entries, 4 frames follow");
			break;
		default:
			CU_FAIL("unexpected diagnostic kind");
		}
	}
}

static void test_fewer_frames_with_bottom(void)
{
	/* the count is off but the stack ends at its bottom frame: not cut */
	g_autoptr(FtlStackSet) set = read_ok("t", HEAD(6) "  0)      300     100   a+0x1/0x2\n"
							  "  1)      200     200   b+0x1/0x2\n");
	CU_ASSERT_EQUAL(ftl_stack_set_n_diags(set), 1);
	CU_ASSERT_EQUAL(count_diags(set, FTL_STACK_DIAG_ENTRIES), 1);
}

static void test_cut_table(void)
{
	const char *cut = HEAD(4) "  0)     1000     100   a_func+0x5/0x20\n"
				  "  1)      900     500   b_func+0x25/0x1f0\n";
	g_autoptr(GError) e = read_err(cut, strlen(cut), 4);
	CU_ASSERT_TRUE(g_error_matches(e, FTL_ERROR, FTL_ERROR_PARSE));
	CU_ASSERT_PTR_NOT_NULL(strstr(e->message, "the table is cut"));
	CU_ASSERT_PTR_NOT_NULL(strstr(e->message, "says 4 entries, 2 frames follow"));
	const char *header_only = "        Depth    Size   Location    (4 entries)\n";
	g_autoptr(GError) e2 = read_err(header_only, strlen(header_only), 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(e2->message, "cut after its header"));
	const char *mid_line = HEAD(4) "  0)     1000     100   a_func+0x5/0x20\n  1)      900";
	g_autoptr(GError) e3 = read_err(mid_line, strlen(mid_line), 4);
	CU_ASSERT_PTR_NOT_NULL(strstr(e3->message, "cut in the middle of a line"));
	const char *no_rule = "        Depth    Size   Location    (4 entries)\n"
			      "  0)     1000     100   a_func+0x5/0x20\n";
	g_autoptr(GError) e4 = read_err(no_rule, strlen(no_rule), 2);
	CU_ASSERT_PTR_NOT_NULL(strstr(e4->message, "rule"));
}

static void test_garbage(void)
{
	guchar noise[512];
	for (guint i = 0; i < sizeof noise; i++)
		noise[i] = (guchar)(i * 131 + 7);
	g_autoptr(GError) e = read_err((const char *)noise, sizeof noise, 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(e->message, "binary data"));
	/* noise whose first line could pass for text is still noise */
	const char *texty = "\xc3\x28;A<b\n\x8e\x01\x9c\n";
	g_autoptr(GError) e1 = read_err(texty, strlen(texty), 2);
	CU_ASSERT_PTR_NOT_NULL(strstr(e1->message, "binary data (byte 0x01)"));
	/* noise inside a table, after good lines */
	char buf[1024];
	gsize n = g_strlcpy(buf, TABLE4, sizeof buf);
	buf[n - 5] = '\0';
	g_autoptr(GError) e2 = read_err(buf, n, 6);
	CU_ASSERT_PTR_NOT_NULL(strstr(e2->message, "binary data (byte 0x00)"));
	const char *prose = "\nLorem ipsum dolor sit amet\n";
	g_autoptr(GError) e3 = read_err(prose, strlen(prose), 2);
	CU_ASSERT_TRUE(g_error_matches(e3, FTL_ERROR, FTL_ERROR_FORMAT));
	CU_ASSERT_PTR_NOT_NULL(strstr(e3->message, "not a stack_trace table"));
	const char *trace = "# tracer: nop\n";
	g_autoptr(GError) e4 = read_err(trace, strlen(trace), 1);
	const char *in_table = HEAD(2) "  0)      300     100   a+0x1/0x2\nhello there\n";
	g_autoptr(GError) e5 = read_err(in_table, strlen(in_table), 4);
	CU_ASSERT_PTR_NOT_NULL(strstr(e5->message, "not a stack_trace frame line: 'hello there'"));
	const char *after_blank = HEAD(2) "  0)      300     100   a+0x1/0x2\n\n"
					  "  1)      200     200   b+0x1/0x2\n";
	g_autoptr(GError) e6 = read_err(after_blank, strlen(after_blank), 5);
	CU_ASSERT_PTR_NOT_NULL(strstr(e6->message, "after a blank line"));
	/* a frame line with no table above it */
	const char *orphan = "2928\n  1)      200     200   b+0x1/0x2\n";
	g_autoptr(GError) e7 = read_err(orphan, strlen(orphan), 2);
	CU_ASSERT_PTR_NOT_NULL(strstr(e7->message, "outside a table"));
	g_autoptr(FtlStackSet) set = ftl_stack_set_new();
	g_autoptr(GError) e8 = NULL;
	CU_ASSERT_FALSE(ftl_stacktrace_read_data(set, "in.txt", "", 0, &e8));
	CU_ASSERT_TRUE(g_error_matches(e8, FTL_ERROR, FTL_ERROR_EMPTY));
	CU_ASSERT_STRING_EQUAL(e8->message, "'in.txt': empty file, no stack table");
	g_autoptr(GError) e9 = NULL;
	CU_ASSERT_FALSE(ftl_stacktrace_read_data(set, "in.txt", "\n  \n", 4, &e9));
	CU_ASSERT_TRUE(g_error_matches(e9, FTL_ERROR, FTL_ERROR_EMPTY));
}

static void test_sniff(void)
{
	guint64 line = 0;
	const char *doc = "  # cat stack_trace\n" TABLE4;
	CU_ASSERT_EQUAL(ftl_stacktrace_sniff(doc, strlen(doc), &line), FTL_STACK_INPUT_TABLE);
	CU_ASSERT_EQUAL(line, 2);
	CU_ASSERT_EQUAL(ftl_stacktrace_sniff("2928\n", 5, &line), FTL_STACK_INPUT_MAX_SIZE);
	CU_ASSERT_EQUAL(line, 1);
	const char *doc_max = "  # cat stack_max_size\n  2928\n";
	CU_ASSERT_EQUAL(ftl_stacktrace_sniff(doc_max, strlen(doc_max), &line),
			FTL_STACK_INPUT_MAX_SIZE);
	CU_ASSERT_EQUAL(line, 2);
	CU_ASSERT_EQUAL(ftl_stacktrace_sniff(SERIES_HEAD, strlen(SERIES_HEAD), NULL),
			FTL_STACK_INPUT_SERIES);
	const char *trace = "# tracer: nop\n#\n  bash-1 [000] .... 1.0: foo: x\n";
	CU_ASSERT_EQUAL(ftl_stacktrace_sniff(trace, strlen(trace), NULL), FTL_STACK_INPUT_NONE);
	CU_ASSERT_EQUAL(ftl_stacktrace_sniff("12\nfoo\n", 7, NULL), FTL_STACK_INPUT_NONE);
	CU_ASSERT_EQUAL(ftl_stacktrace_sniff("\x01\x02", 2, NULL), FTL_STACK_INPUT_NONE);
	CU_ASSERT_EQUAL(ftl_stacktrace_sniff("", 0, NULL), FTL_STACK_INPUT_NONE);
}

int main(void)
{
	static const UnitTest tests[] = {
		{ "x86_64 rig layout", test_rig_layout },
		{ "doc indent and '# cat stack_trace'", test_doc_indent_and_command },
		{ "shell prompt before the table", test_prompt_command },
		{ "ppc64 raw address entry", test_raw_address },
		{ "module suffix with build id", test_module_suffix },
		{ "CRLF and no final newline", test_crlf_no_final_newline },
		{ "disabled tracer, empty table", test_disabled_empty_table },
		{ "stack_max_size files", test_max_size_files },
		{ "value and table in one file", test_value_and_table_in_one_file },
		{ "several tables in one file", test_several_tables_in_one_file },
		{ "stack_max_size paired by name", test_pair_by_name },
		{ "a directory", test_read_dir },
		{ "series", test_series },
		{ "series order diagnostics", test_series_order },
		{ "series errors", test_series_bad },
		{ "arithmetic of a doctored table", test_arithmetic_doctored },
		{ "fewer frames ending at the bottom", test_fewer_frames_with_bottom },
		{ "cut tables", test_cut_table },
		{ "garbage", test_garbage },
		{ "sniff", test_sniff },
		{ NULL, NULL },
	};
	return unit_run("stacktrace", tests);
}
