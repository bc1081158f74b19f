/* SPDX-License-Identifier: GPL-2.0-or-later */
/* symbols/symfile against binutils' addr2line -f -i: a small program with
 * inlined functions, built with gcc -g -O2 when the test runs, looked up at
 * every byte of its functions. Skipped (77) without gcc or addr2line. */
#include "config.h"

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <fcntl.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "symbols/debuginfo.h"
#include "symbols/symfile.h"
#include "unit.h"

static const char program[] =
	"#include <stdio.h>\n"
	"#include <stdlib.h>\n"
	"static inline __attribute__((always_inline)) int leaf(int x)\n"
	"{\n"
	"	if (x > 3)\n"
	"		x *= 7;\n"
	"	return x ^ 0x55;\n"
	"}\n"
	"static inline __attribute__((always_inline)) int middle(int x)\n"
	"{\n"
	"	int s = 0;\n"
	"	for (int i = 0; i < x; i++)\n"
	"		s += leaf(i + x);\n"
	"	return s;\n"
	"}\n"
	"static __attribute__((noinline)) int twin(int x) { return middle(x) * 3; }\n"
	"int (*twin_a)(int) = twin;\n"
	"__attribute__((noinline)) int outer(int x)\n"
	"{\n"
	"	return middle(x) + leaf(x) + twin(x);\n"
	"}\n"
	"int main(int argc, char **argv)\n"
	"{\n"
	"	printf(\"%d\\n\", outer(argc > 1 ? atoi(argv[1]) : 3));\n"
	"	return 0;\n"
	"}\n"
	"#include \"helper.h\"\n";

/* A function defined in a header: its DW_AT_decl_file is not the unit's
 * first file. */
static const char helper[] = "/* helper */\n"
			     "__attribute__((noinline)) int helper(int x)\n"
			     "{\n"
			     "	return x * 5;\n"
			     "}\n";

static char *dir, *exe, *exe4;

static gboolean run(const char *const *argv, char **out)
{
	gint status;
	return g_spawn_sync(NULL, (char **)argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, out, NULL,
			    &status, NULL) &&
	       g_spawn_check_wait_status(status, NULL);
}

/* The frames as addr2line -f -i prints them. */
static void format_frames(GString *s, const GArray *frames)
{
	if (!frames->len) {
		g_string_append(s, "??\n??:0\n");
		return;
	}
	for (guint i = 0; i < frames->len; i++) {
		const FtlSrcFrame *f = &g_array_index(frames, FtlSrcFrame, i);
		g_string_append_printf(s, "%s\n%s:", f->func, f->file ? f->file : "??");
		if (!f->line)
			g_string_append(s, "?\n");
		else if (f->discriminator)
			g_string_append_printf(s, "%u (discriminator %u)\n", f->line,
					       f->discriminator);
		else
			g_string_append_printf(s, "%u\n", f->line);
	}
}

static void compare_function(FtlSymFile *f, const char *name)
{
	guint64 start = 0;
	CU_ASSERT_FATAL(ftl_symfile_symbol(f, name, 0, &start));
	guint64 s2 = 0, size = 0;
	CU_ASSERT_STRING_EQUAL(ftl_symfile_symbol_at(f, start + 1, &s2, &size), name);
	CU_ASSERT(s2 == start && size > 0 && size < 4096);
	guint64 end = start + size;
	GPtrArray *argv = g_ptr_array_new_with_free_func(g_free);
	for (const char *const *a = (const char *const[]){ "addr2line", "-f", "-i", "-e", exe, NULL };
	     *a; a++)
		g_ptr_array_add(argv, g_strdup(*a));
	GString *mine = g_string_new(NULL);
	g_autoptr(GArray) frames = g_array_new(FALSE, FALSE, sizeof(FtlSrcFrame));
	guint inlined = 0;
	for (guint64 a = start; a < end; a++) {
		g_ptr_array_add(argv, g_strdup_printf("0x%" G_GINT64_MODIFIER "x", a));
		g_array_set_size(frames, 0);
		ftl_symfile_lookup(f, a, frames);
		inlined += frames->len > 1;
		format_frames(mine, frames);
	}
	g_autofree char *theirs = NULL;
	g_ptr_array_add(argv, NULL);
	CU_ASSERT_FATAL(run((const char *const *)argv->pdata, &theirs));
	if (strcmp(mine->str, theirs)) {
		/* show the first difference */
		g_auto(GStrv) a = g_strsplit(mine->str, "\n", -1), b = g_strsplit(theirs, "\n", -1);
		for (guint i = 0; a[i] && b[i]; i++)
			if (strcmp(a[i], b[i])) {
				fprintf(stderr, "%s line %u: ours '%s', addr2line '%s'\n", name, i,
					a[i], b[i]);
				break;
			}
	}
	CU_ASSERT_STRING_EQUAL(mine->str, theirs);
	/* the program inlines middle() and leaf() into both */
	CU_ASSERT(inlined > 0);
	g_ptr_array_free(argv, TRUE);
	g_string_free(mine, TRUE);
}

static void test_lookup_matches_addr2line(void)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(FtlSymFile) f = ftl_symfile_open(exe, &error);
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	compare_function(f, "outer");
	compare_function(f, "main");
	compare_function(f, "twin");
	CU_ASSERT(ftl_symfile_n_units(f) == 1);
}

static void test_inline_chain(void)
{
	g_autoptr(FtlSymFile) f = ftl_symfile_open(exe, NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	guint64 start;
	CU_ASSERT_FATAL(ftl_symfile_symbol(f, "outer", 0, &start));
	/* somewhere in outer, leaf is inlined in middle inlined in outer */
	gboolean three = FALSE;
	g_autoptr(GArray) frames = g_array_new(FALSE, FALSE, sizeof(FtlSrcFrame));
	for (guint64 a = start; a < start + 256 && !three; a++) {
		g_array_set_size(frames, 0);
		if (ftl_symfile_lookup(f, a, frames) == 3) {
			three = TRUE;
			CU_ASSERT_STRING_EQUAL(g_array_index(frames, FtlSrcFrame, 0).func, "leaf");
			CU_ASSERT_STRING_EQUAL(g_array_index(frames, FtlSrcFrame, 1).func, "middle");
			CU_ASSERT_STRING_EQUAL(g_array_index(frames, FtlSrcFrame, 2).func, "outer");
			/* middle calls leaf on line 13, outer calls middle on line 20 */
			CU_ASSERT_EQUAL(g_array_index(frames, FtlSrcFrame, 1).line, 13);
			CU_ASSERT_EQUAL(g_array_index(frames, FtlSrcFrame, 2).line, 20);
		}
	}
	CU_ASSERT(three);
}

static void test_symbols_and_definition(void)
{
	g_autoptr(FtlSymFile) f = ftl_symfile_open(exe, NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	guint64 a, b;
	CU_ASSERT(ftl_symfile_symbol(f, "twin", 0, &a));
	/* no twin of size 1: the only one */
	CU_ASSERT(ftl_symfile_symbol(f, "twin", 1, &b) && b == a);
	CU_ASSERT(!ftl_symfile_symbol(f, "no_such_function", 0, &b));
	const char *file = NULL;
	guint line = 0;
	CU_ASSERT(ftl_symfile_definition(f, "outer", 0, &file, &line));
	CU_ASSERT(file && g_str_has_suffix(file, "prog.c"));
	CU_ASSERT_EQUAL(line, 18);
	CU_ASSERT_STRING_EQUAL(ftl_symfile_tree_prefix(f), ""); /* not a kernel */
	CU_ASSERT_PTR_NOT_NULL(ftl_symfile_build_id(f));
}

/* What libdw's dwarf_decl_file says of the function named name (the
 * oracle ftl_symfile_definition reads the line header for), joined to the
 * unit's directory as symfile does. */
static char *libdw_definition(const char *path, const char *name, int *line)
{
	int fd = open(path, O_RDONLY);
	Dwarf *dw = fd >= 0 ? dwarf_begin(fd, DWARF_C_READ) : NULL;
	char *found = NULL;
	Dwarf_Off off = 0, next;
	size_t hsize;
	while (dw && !found && dwarf_nextcu(dw, off, &next, &hsize, NULL, NULL, NULL) == 0) {
		Dwarf_Die cu, die;
		if (dwarf_offdie(dw, off + hsize, &cu) && dwarf_child(&cu, &die) == 0)
			do {
				Dwarf_Addr lo;
				if (dwarf_tag(&die) != DW_TAG_subprogram ||
				    g_strcmp0(dwarf_diename(&die), name) || dwarf_lowpc(&die, &lo))
					continue;
				const char *file = dwarf_decl_file(&die);
				Dwarf_Attribute a;
				const char *comp = dwarf_attr(&cu, DW_AT_comp_dir, &a)
							   ? dwarf_formstring(&a)
							   : NULL;
				found = file[0] == '/' ? g_strdup(file)
						       : g_strconcat(comp, "/", file, NULL);
				dwarf_decl_line(&die, line);
				break;
			} while (dwarf_siblingof(&die, &die) == 0);
		off = next;
	}
	if (dw)
		dwarf_end(dw);
	if (fd >= 0)
		close(fd);
	return found;
}

static void compare_definitions(const char *path)
{
	g_autoptr(FtlSymFile) f = ftl_symfile_open(path, NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	static const char *const names[] = { "outer", "main", "twin", "helper" };
	for (guint i = 0; i < G_N_ELEMENTS(names); i++) {
		const char *file = NULL;
		guint line = 0;
		int theirs_line = 0;
		g_autofree char *theirs = libdw_definition(path, names[i], &theirs_line);
		CU_ASSERT_PTR_NOT_NULL_FATAL(theirs);
		CU_ASSERT_FATAL(ftl_symfile_definition(f, names[i], 0, &file, &line));
		if (g_strcmp0(file, theirs))
			fprintf(stderr, "%s %s: ours '%s', libdw '%s'\n", path, names[i], file,
				theirs);
		CU_ASSERT_STRING_EQUAL(file, theirs);
		CU_ASSERT_EQUAL(line, (guint)theirs_line);
	}
	const char *file = NULL;
	guint line = 0;
	CU_ASSERT(ftl_symfile_definition(f, "helper", 0, &file, &line));
	CU_ASSERT(file && g_str_has_suffix(file, "/helper.h"));
	CU_ASSERT_EQUAL(line, 2);
}

/* The file table read from the line program's header (DWARF 5, and 4 with
 * its implicit directory 0) names what dwarf_decl_file names. */
static void test_definitions_match_libdw(void)
{
	compare_definitions(exe);
	compare_definitions(exe4);
}

static void test_errors(void)
{
	g_autoptr(GError) error = NULL;
	g_autofree char *missing = g_build_filename(dir, "absent", NULL);
	CU_ASSERT_PTR_NULL(ftl_symfile_open(missing, &error));
	CU_ASSERT(error && strstr(error->message, "absent"));
	g_clear_error(&error);
	g_autofree char *text = g_build_filename(dir, "prog.c", NULL);
	CU_ASSERT_PTR_NULL(ftl_symfile_open(text, &error));
	CU_ASSERT(error && strstr(error->message, "prog.c"));
	g_clear_error(&error);
	/* a vmlinux without a banner given for a named release: refused,
	 * naming both; with force it is taken */
	FtlDebugInfoOptions o = { .vmlinux = exe };
	CU_ASSERT_PTR_NULL(ftl_debuginfo_open(&o, "log", "6.1.0-9", NULL, NULL, NULL, &error));
	CU_ASSERT(error && strstr(error->message, "6.1.0-9") && strstr(error->message, "'log'") &&
		  strstr(error->message, "prog"));
	g_clear_error(&error);
	o.force = TRUE;
	g_autoptr(FtlDebugInfo) d = ftl_debuginfo_open(&o, "log", "6.1.0-9", NULL, NULL, NULL, &error);
	CU_ASSERT_PTR_NOT_NULL(d);
	/* no release and no vmlinux: nothing to look for, no error */
	FtlDebugInfoOptions none = { 0 };
	CU_ASSERT_PTR_NULL(ftl_debuginfo_open(&none, "log", NULL, NULL, NULL, NULL, &error));
	CU_ASSERT_PTR_NULL(error);
	/* the Debian layout under a root that lacks it: the path looked for */
	FtlDebugInfoOptions rooted = { .root = dir };
	g_autofree char *looked = NULL;
	CU_ASSERT_PTR_NULL(ftl_debuginfo_open(&rooted, "log", "6.1.0-9", NULL, NULL, &looked, &error));
	CU_ASSERT_PTR_NULL(error);
	CU_ASSERT(looked && g_str_has_suffix(looked, "/boot/vmlinux-6.1.0-9"));
}

int main(void)
{
	g_autofree char *gcc = g_find_program_in_path("gcc");
	g_autofree char *a2l = g_find_program_in_path("addr2line");
	if (!gcc || !a2l) {
		printf("SKIP: test-symfile needs gcc and addr2line\n");
		return 77;
	}
	dir = g_dir_make_tmp("test-symfile-XXXXXX", NULL);
	g_autofree char *src = g_build_filename(dir, "prog.c", NULL);
	g_autofree char *hdr = g_build_filename(dir, "helper.h", NULL);
	exe = g_build_filename(dir, "prog", NULL);
	exe4 = g_build_filename(dir, "prog4", NULL);
	g_file_set_contents(src, program, -1, NULL);
	g_file_set_contents(hdr, helper, -1, NULL);
	const char *argv[] = { "gcc", "-g", "-O2", "-o", exe, src, NULL };
	const char *argv4[] = { "gcc", "-gdwarf-4", "-O2", "-o", exe4, src, NULL };
	if (!run(argv, NULL) || !run(argv4, NULL)) {
		printf("SKIP: gcc -g -O2 failed\n");
		return 77;
	}
	static const UnitTest tests[] = {
		{ "lookup matches addr2line -f -i at every byte", test_lookup_matches_addr2line },
		{ "inline chain innermost first with call lines", test_inline_chain },
		{ "symbols by name and size, definitions", test_symbols_and_definition },
		{ "definitions as libdw's dwarf_decl_file, DWARF 4 and 5",
		  test_definitions_match_libdw },
		{ "errors name the file; release refusal", test_errors },
		{ NULL, NULL },
	};
	int rc = unit_run("symfile", tests);
	g_unlink(exe);
	g_unlink(exe4);
	g_unlink(src);
	g_unlink(hdr);
	g_rmdir(dir);
	return rc;
}
