/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The fuzz targets' common half: memory files, multi-file inputs, the whole
 * analysis and view path over a trace, and the checks on what it prints. */
#include "config.h"

#include "fuzz.h"

#include <dirent.h>
#include <errno.h>
#include <malloc.h>
#include <signal.h>
#include <stdarg.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "analysis/calltree.h"
#include "analysis/comm.h"
#include "analysis/counts.h"
#include "analysis/diff.h"
#include "analysis/funcstats.h"
#include "analysis/longest.h"
#include "analysis/markers.h"
#include "analysis/pass.h"
#include "analysis/quality.h"
#include "parse/trial.h"
#include "util/escape.h"
#include "util/fdio.h"
#include "util/linereader.h"
#include "util/nocov.h"
#include "views/diff.h"
#include "views/dump.h"
#include "views/graph.h"
#include "views/info.h"
#include "views/markers.h"
#include "views/quality.h"
#include "views/report.h"

#define FUZZ_SLOTS 4

FtlReadOptions fuzz_read = { .threads = 1 };

static int fuzz_fds[FUZZ_SLOTS] = { -1, -1, -1, -1 };
static char fuzz_paths[FUZZ_SLOTS][64];
static char *fuzz_scratch;
static int fuzz_scratch_fd = -1; /* open on fuzz_scratch once written to */

/* A multi-file input's sections: name, and bytes as offsets into data. */
typedef struct {
	char *name;
	size_t at, len;
} FuzzSection;

/* What fuzz_scratch_sections() last wrote, while the scratch directory
 * holds exactly that. */
static gboolean fuzz_last_valid;
static GArray *fuzz_last; /* FuzzSection */
static GByteArray *fuzz_last_data;
static char *fuzz_fresh; /* the check's fresh write (fuzz_scratch_checked()) */

#ifndef FTL_FUZZING
static void fuzz_json_selftest(void);
#endif

static void fuzz_log_quiet(const gchar *domain, GLogLevelFlags level, const gchar *msg,
			   gpointer data)
{
	(void)domain, (void)level, (void)msg, (void)data;
}

static void fuzz_remove_tree(const char *dir, gboolean self);

static void fuzz_cleanup(void)
{
	if (fuzz_scratch) {
		fuzz_scratch_reset();
		g_rmdir(fuzz_scratch);
	}
	if (fuzz_fresh)
		fuzz_remove_tree(fuzz_fresh, TRUE);
}

void fuzz_init(void)
{
	static gboolean done;
	if (done)
		return;
	done = TRUE;
	/* warnings about damaged input are expected by the million */
	g_log_set_default_handler(fuzz_log_quiet, NULL);
	/* Executions cheap (bench/fuzz-results.md): no parse threads unless
	 * FTL_FUZZ_THREADS says how many (a pool's threads share the address
	 * space, so every large free of the sanitizer's allocator, an munmap,
	 * flushed the TLB of each CPU they ran on), and 16 KB text chunks
	 * rather than 256 KB ones, which every input allocated and freed
	 * whole (FTLENS_CHUNK_BYTES, when set, wins). Small chunks also put
	 * more inputs across a chunk boundary. */
	guint64 threads = 1;
	const char *env = g_getenv("FTL_FUZZ_THREADS");
	if (env && !g_ascii_string_to_unsigned(env, 10, 1, 64, &threads, NULL))
		threads = 1;
	fuzz_read.threads = (guint)threads;
	g_setenv("FTLENS_CHUNK_BYTES", "16384", FALSE);
	/* glibc's malloc (the unsanitized fast build: a sanitizer's allocator
	 * ignores this) gave the top of its heap back to the kernel and took
	 * it again, and mapped and unmapped every block of 128 KB or more, at
	 * every input: a third of an execution went to page faults and to the
	 * TLB shootdowns of brk and munmap. Kept instead, as a long-running
	 * command's heap is. */
	mallopt(M_TRIM_THRESHOLD, 256 << 20);
	mallopt(M_MMAP_THRESHOLD, 32 << 20);
	mallopt(M_TOP_PAD, 16 << 20);
	/* tmpfs when there is one: the multi-file targets write every input */
	const char *base =
		g_file_test("/dev/shm", G_FILE_TEST_IS_DIR) ? "/dev/shm" : g_get_tmp_dir();
	g_autofree char *tmpl = g_build_filename(base, "ftlens-fuzz-XXXXXX", NULL);
	fuzz_scratch = g_mkdtemp(g_steal_pointer(&tmpl));
	if (!fuzz_scratch) {
		fprintf(stderr, "fuzz: cannot make a scratch directory in %s\n", base);
		abort();
	}
	atexit(fuzz_cleanup);
#ifndef FTL_FUZZING
	fuzz_json_selftest();
#endif
}

#if defined(__SANITIZE_ADDRESS__)
#define FUZZ_HAVE_SANITIZER 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define FUZZ_HAVE_SANITIZER 1
#endif
#endif
#ifdef FUZZ_HAVE_SANITIZER
#include <sanitizer/common_interface_defs.h>
#endif

pid_t __real_fork(void);
pid_t __wrap_fork(void);

/* FTL_FUZZ_INPROCESS=1: no trial child but for the calls nothing else
 * guards (ftl_trial_run_only_line: libtracecmd reading the pages of the
 * trace.dats ftlens does not read itself, and libtraceevent parsing the
 * print fmts tep-check.c cannot vouch for). A fork of the sanitized
 * fuzzer costs ~30 ms of copy-on-write faults, one to three per trace.dat
 * input (86 hours of one core for 10 M executions); refused, parse/trial.c
 * takes the risk and runs the library's calls in-process, as it does when
 * no child can be made. The campaign then measures ftlens's own code at
 * full speed; a crash inside libtracecmd or libtraceevent it reports is
 * replayed without the variable, where the guard must contain it (only a
 * crash that survives that replay is a finding). */
static gboolean fuzz_trials_default = TRUE;

static gboolean fuzz_inprocess(void)
{
	static gint state; /* 0 unknown, 1 no, 2 yes */
	if (!state) {
		const char *v = g_getenv("FTL_FUZZ_INPROCESS");
		state = g_strcmp0(v, "1") == 0	 ? 2
			: g_strcmp0(v, "0") == 0 ? 1
			: fuzz_trials_default	 ? 1
						 : 2;
	}
	return state == 2;
}

void fuzz_trials_off(void)
{
	fuzz_trials_default = FALSE;
}

/* Every fork (parse/trial.c tries libtracecmd's and libtraceevent's calls
 * in a child first) goes through here (-Wl,--wrap=fork): in the child, a crash or a
 * sanitizer report must end the child by a signal, as it would without the
 * fuzzer, so that the guard sees it contained; the fuzzer's own handlers
 * would instead record the input as a crash of the target and exit. */
pid_t __wrap_fork(void)
{
	/* the calls only a trial guards fork all the same (parse/trial.h) */
	if (fuzz_inprocess() && !ftl_trial_only_line()) {
		errno = EAGAIN;
		return -1;
	}
	pid_t pid = __real_fork();
	if (pid == 0) {
#ifdef FUZZ_HAVE_SANITIZER
		__sanitizer_set_death_callback(NULL);
#endif
		const int sigs[] = { SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT };
		for (guint i = 0; i < G_N_ELEMENTS(sigs); i++)
			signal(sigs[i], SIG_DFL);
	}
	return pid;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc, (void)argv;
	fuzz_init();
	return 0;
}

static void fuzz_write_all(int fd, const guint8 *data, size_t size)
{
	int e = ftl_fd_write_all(fd, data, size, -1);
	if (e) {
		fprintf(stderr, "fuzz: write: %s\n", g_strerror(e));
		abort();
	}
}

const char *fuzz_memfile(guint slot, const guint8 *data, size_t size)
{
	g_assert(slot < FUZZ_SLOTS);
	/* A new file per input, not the last one truncated: a handle whose
	 * tracecmd_init_data() failed is parked with the pages libtracecmd
	 * mapped (parse/tracecmd-guard.c), and truncating a file unmaps it
	 * from every mapping left, thousands in a 20-minute run (70% of
	 * fuzz-tracedat's time went to the kernel's walk of them); and a new
	 * inode is never taken for the last input's file by what ftlens
	 * keeps per file (device, inode, size, time: parse/tep-memo.c). */
	if (fuzz_fds[slot] >= 0)
		close(fuzz_fds[slot]);
	fuzz_fds[slot] = memfd_create("ftlens-fuzz", 0);
	if (fuzz_fds[slot] < 0) {
		perror("fuzz: memfd_create");
		abort();
	}
	g_snprintf(fuzz_paths[slot], sizeof fuzz_paths[slot], "/proc/self/fd/%d", fuzz_fds[slot]);
	fuzz_write_all(fuzz_fds[slot], data, size);
	return fuzz_paths[slot];
}

/* Empties the directory open at fd, and closes fd: by name from it
 * (readdir's type, unlinkat), without a path walked or a stat made per
 * entry, since the multi-file targets empty their scratch directory at
 * every input (with paths and two stats per entry it was a tenth of a
 * fuzz-rawdir execution). */
static void fuzz_empty_dir(int fd)
{
	DIR *d = fdopendir(fd);
	if (!d) {
		close(fd);
		return;
	}
	const struct dirent *e;
	while ((e = readdir(d))) {
		const char *name = e->d_name;
		if (!strcmp(name, ".") || !strcmp(name, ".."))
			continue;
		/* a type the file system does not say: a directory is what
		 * unlinking refuses so */
		if (e->d_type != DT_DIR && (unlinkat(dirfd(d), name, 0) == 0 || errno != EISDIR))
			continue;
		int sub = openat(dirfd(d), name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (sub >= 0)
			fuzz_empty_dir(sub);
		unlinkat(dirfd(d), name, AT_REMOVEDIR);
	}
	closedir(d);
}

static void fuzz_remove_tree(const char *dir, gboolean self)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd >= 0)
		fuzz_empty_dir(fd);
	if (self)
		g_rmdir(dir);
}

const char *fuzz_scratch_reset(void)
{
	fuzz_init();
	fuzz_last_valid = FALSE;
	fuzz_remove_tree(fuzz_scratch, FALSE);
	return fuzz_scratch;
}

/* Makes the directories of relpath below the directory open at dfd, as
 * g_mkdir_with_parents() does with its whole path; FALSE when one is not
 * a directory and cannot be made one. */
static gboolean fuzz_mkdirs_at(int dfd, const char *relpath)
{
	g_autofree char *prefix = g_strdup(relpath);
	for (char *slash = strchr(prefix, '/'); slash; slash = strchr(slash + 1, '/')) {
		if (slash == prefix || slash[-1] == '/')
			continue; /* "a//b": one component */
		*slash = 0;
		struct stat st;
		if (mkdirat(dfd, prefix, 0700) < 0 &&
		    (errno != EEXIST || fstatat(dfd, prefix, &st, 0) < 0 || !S_ISDIR(st.st_mode)))
			return FALSE;
		*slash = '/';
	}
	return TRUE;
}

/* Writes data to relpath below the directory open at dfd, making its
 * directories: from that directory, since g_mkdir_with_parents() and a
 * path tested and made every component of the whole path, /dev and
 * /dev/shm included, for each file of each input. */
static void fuzz_write_at(int dfd, const char *relpath, const guint8 *data, size_t size)
{
	int fd = openat(dfd, relpath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0) {
		/* its directories made (even when the name then fails, as
		 * before), or a name that is a file already: dropped */
		if (!fuzz_mkdirs_at(dfd, relpath))
			return;
		fd = openat(dfd, relpath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
		if (fd < 0)
			return;
	}
	fuzz_write_all(fd, data, size);
	close(fd);
}

static int fuzz_scratch_dir_fd(void)
{
	if (fuzz_scratch_fd < 0)
		fuzz_scratch_fd = open(fuzz_scratch, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	return fuzz_scratch_fd;
}

void fuzz_scratch_write(const char *relpath, const guint8 *data, size_t size)
{
	fuzz_init();
	fuzz_last_valid = FALSE; /* written apart from fuzz_scratch_sections() */
	fuzz_write_at(fuzz_scratch_dir_fd(), relpath, data, size);
}

/* Keeps [A-Za-z0-9_./-], drops ".." and leading '/'. */
static char *fuzz_section_name(const char *s, size_t n)
{
	GString *out = g_string_new(NULL);
	for (size_t i = 0; i < n && out->len < 64; i++) {
		char c = s[i];
		if (g_ascii_isalnum(c) || c == '_' || c == '-' || c == '/' ||
		    (c == '.' && !(out->len && out->str[out->len - 1] == '.')))
			g_string_append_c(out, c);
	}
	while (out->len && out->str[0] == '/')
		g_string_erase(out, 0, 1);
	if (!out->len)
		g_string_append(out, "x");
	return g_string_free(out, FALSE);
}

void fuzz_sections(const guint8 *data, size_t size, const char *default_name, guint max_sections,
		   FuzzSectionFunc fn, gpointer user)
{
	const char *p = (const char *)data, *end = p + size;
	g_autofree char *name = g_strdup(default_name);
	guint n = 0;
	if (size >= 3 && !memcmp(p, "@@ ", 3)) {
		const char *nl = memchr(p, '\n', size);
		const char *e = nl ? nl : end;
		g_free(name);
		name = fuzz_section_name(p + 3, (size_t)(e - p - 3));
		p = nl ? nl + 1 : end;
	}
	while (n < max_sections) {
		/* the next "\n@@ " ends this section */
		const char *q = p;
		const char *next = NULL;
		while (q < end && (q = memchr(q, '\n', (size_t)(end - q)))) {
			if ((size_t)(end - q) >= 4 && !memcmp(q, "\n@@ ", 4)) {
				next = q;
				break;
			}
			q++;
		}
		const char *stop = next ? next + 1 : end;
		fn(name, (const guint8 *)p, (size_t)(stop - p), user);
		n++;
		if (!next)
			break;
		const char *hdr = next + 4;
		const char *nl = memchr(hdr, '\n', (size_t)(end - hdr));
		const char *e = nl ? nl : end;
		g_free(name);
		name = fuzz_section_name(hdr, (size_t)(e - hdr));
		p = nl ? nl + 1 : end;
	}
}

typedef struct {
	GArray *secs;
	const guint8 *base;
} FuzzSplit;

static void fuzz_collect_section(const char *name, const guint8 *bytes, size_t n, gpointer user)
{
	FuzzSplit *split = user;
	FuzzSection sec = { g_strdup(name), (size_t)(bytes - split->base), n };
	g_array_append_val(split->secs, sec);
}

static void fuzz_section_clear(gpointer p)
{
	g_free(((FuzzSection *)p)->name);
}

static GArray *fuzz_split(const guint8 *data, size_t size, const char *default_name, guint max)
{
	FuzzSplit split = { g_array_new(FALSE, FALSE, sizeof(FuzzSection)), data };
	g_array_set_clear_func(split.secs, fuzz_section_clear);
	fuzz_sections(data, size, default_name, max, fuzz_collect_section, &split);
	return split.secs;
}

/* How many leading sections of secs (over data) the scratch directory
 * already holds as a fresh write of every section in order would leave
 * them; -1 when the names differ from the last input's. With the same
 * names in the same order, the same writes succeed and fail (nothing is
 * ever removed, a file never becomes a directory nor the reverse), so
 * writing again from the first changed section on leaves what a fresh
 * write would: each file ends with its last write. */
static gint fuzz_same_prefix(const GArray *secs, const guint8 *data)
{
	if (!fuzz_last_valid || secs->len != fuzz_last->len)
		return -1;
	for (guint i = 0; i < secs->len; i++)
		if (strcmp(g_array_index(secs, FuzzSection, i).name,
			   g_array_index(fuzz_last, FuzzSection, i).name))
			return -1;
	guint i = 0;
	for (; i < secs->len; i++) {
		const FuzzSection *a = &g_array_index(secs, FuzzSection, i);
		const FuzzSection *b = &g_array_index(fuzz_last, FuzzSection, i);
		if (a->len != b->len || memcmp(data + a->at, fuzz_last_data->data + b->at, a->len))
			break;
	}
	return (gint)i;
}

static gboolean fuzz_tree_equal(int a, int b, const char *path);

static gboolean fuzz_scratch_quiet; /* the self-test's planted difference */

static G_GNUC_PRINTF(1, 2) void fuzz_scratch_say(const char *fmt, ...)
{
	if (fuzz_scratch_quiet)
		return;
	va_list ap;
	va_start(ap, fmt);
	fputs("fuzz: scratch check: ", stderr);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
}

static gint fuzz_name_cmp(gconstpointer a, gconstpointer b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* FALSE, said on stderr, when the two directories open at a and b (both
 * closed) differ in a name, a type or a file's bytes. */
static gboolean fuzz_tree_equal_fds(int a, int b, const char *path)
{
	DIR *da = fdopendir(a), *db = fdopendir(b);
	g_assert(da && db);
	g_autoptr(GPtrArray) na = g_ptr_array_new_with_free_func(g_free);
	g_autoptr(GPtrArray) nb = g_ptr_array_new_with_free_func(g_free);
	const struct dirent *e;
	while ((e = readdir(da)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			g_ptr_array_add(na, g_strdup(e->d_name));
	while ((e = readdir(db)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			g_ptr_array_add(nb, g_strdup(e->d_name));
	g_ptr_array_sort(na, fuzz_name_cmp);
	g_ptr_array_sort(nb, fuzz_name_cmp);
	gboolean same = na->len == nb->len;
	for (guint i = 0; same && i < na->len; i++) {
		const char *name = g_ptr_array_index(na, i);
		g_autofree char *sub = g_strconcat(path, "/", name, NULL);
		if (strcmp(name, g_ptr_array_index(nb, i))) {
			fuzz_scratch_say("%s on one side only\n", sub);
			same = FALSE;
			break;
		}
		same = fuzz_tree_equal(dirfd(da), dirfd(db), sub);
	}
	if (!same && na->len != nb->len)
		fuzz_scratch_say("%s: %u entries against %u\n", path, na->len, nb->len);
	closedir(da);
	closedir(db);
	return same;
}

/* path's last component, below the directories open at a and b */
static gboolean fuzz_tree_equal(int a, int b, const char *path)
{
	const char *name = strrchr(path, '/') + 1;
	struct stat sa, sb;
	if (fstatat(a, name, &sa, AT_SYMLINK_NOFOLLOW) ||
	    fstatat(b, name, &sb, AT_SYMLINK_NOFOLLOW) ||
	    (sa.st_mode & S_IFMT) != (sb.st_mode & S_IFMT) || sa.st_mode != sb.st_mode) {
		fuzz_scratch_say("%s: types or modes differ\n", path);
		return FALSE;
	}
	if (S_ISDIR(sa.st_mode))
		return fuzz_tree_equal_fds(openat(a, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC),
					   openat(b, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC),
					   path);
	gboolean same = sa.st_size == sb.st_size;
	if (same && sa.st_size) {
		g_autofree guint8 *ba = g_malloc((gsize)sa.st_size),
				  *bb = g_malloc((gsize)sa.st_size);
		int fa = openat(a, name, O_RDONLY | O_CLOEXEC),
		    fb = openat(b, name, O_RDONLY | O_CLOEXEC);
		same = fa >= 0 && fb >= 0 && !ftl_fd_read_all(fa, ba, (gsize)sa.st_size) &&
		       !ftl_fd_read_all(fb, bb, (gsize)sb.st_size) &&
		       !memcmp(ba, bb, (size_t)sa.st_size);
		close(fa);
		close(fb);
	}
	if (!same)
		fuzz_scratch_say("%s: contents differ\n", path);
	return same;
}

/* FTL_FUZZ_SCRATCH_CHECK=1, and always when replayed (make check): the
 * scratch directory compared, after every input, with a fresh write of
 * the same sections into a directory of its own. */
static gboolean fuzz_scratch_checked(void)
{
#ifdef FTL_FUZZING
	static gint state; /* 0 unknown, 1 no, 2 yes */
	if (!state)
		state = g_strcmp0(g_getenv("FTL_FUZZ_SCRATCH_CHECK"), "1") == 0 ? 2 : 1;
	return state == 2;
#else
	return TRUE;
#endif
}

static guint fuzz_scratch_writes; /* sections written by fuzz_scratch_sections() */

static gboolean fuzz_scratch_same_as_fresh(const GArray *secs, const guint8 *data)
{
	if (!fuzz_fresh) {
		g_autofree char *tmpl = g_strconcat(fuzz_scratch, "-fresh-XXXXXX", NULL);
		fuzz_fresh = g_mkdtemp(g_steal_pointer(&tmpl));
		g_assert(fuzz_fresh);
	}
	fuzz_remove_tree(fuzz_fresh, FALSE);
	int dfd = open(fuzz_fresh, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	for (guint i = 0; i < secs->len; i++) {
		const FuzzSection *sec = &g_array_index(secs, FuzzSection, i);
		fuzz_write_at(dfd, sec->name, data + sec->at, sec->len);
	}
	return fuzz_tree_equal_fds(open(fuzz_scratch, O_RDONLY | O_DIRECTORY | O_CLOEXEC), dfd,
				   "scratch");
}

static void fuzz_scratch_check(const GArray *secs, const guint8 *data)
{
	if (!fuzz_scratch_same_as_fresh(secs, data)) {
		fprintf(stderr, "fuzz: scratch check: the sections written again differ from a "
				"fresh write of them\n");
		abort();
	}
}

#ifndef FTL_FUZZING
/* Runs of inputs whose names clash (a file and a directory of one name,
 * two spellings of one path, a name that can only be a directory), each
 * written after the one before and checked against a fresh write; the
 * second of a pair with the same names must write only from its first
 * change on, and a difference planted in the directory must be seen. */
static void fuzz_scratch_selftest(void)
{
	static const struct {
		const char *input;
		guint writes; /* sections fuzz_scratch_sections() must write */
	} runs[] = {
		{ "@@ a\nX\n@@ a/b\nY\n", 2 },
		{ "@@ a\nZZ\n@@ a/b\nY\n", 2 },
		{ "@@ a\nZZ\n@@ a/b\nW\n", 1 },
		{ "@@ a\nZZ\n@@ a/b\nW\n", 0 },
		{ "@@ a/b\nY\n@@ a\nX\n", 2 },
		{ "@@ a/b\nQ\n@@ a\nX\n", 2 },
		{ "@@ a//b\n1\n@@ a/./b\n2\n@@ c\n3\n", 3 },
		{ "@@ a//b\n9\n@@ a/./b\n2\n@@ c\n3\n", 3 },
		{ "@@ a//b\n9\n@@ a/./b\n2\n@@ c\n4\n", 1 },
		{ "@@ d/\n1\n@@ d/.\n2\n@@ d/e\n3\n@@ d\n4\n", 4 },
		{ "@@ d/\n1\n@@ d/.\n2\n@@ d/e\n5\n@@ d\n4\n", 2 },
		{ "headerless\n@@ x/y/z\n1\n@@ x/y\n2\n", 3 },
		{ "headerlesS\n@@ x/y/z\n1\n@@ x/y\n2\n", 3 },
		{ "headerlesS\n@@ x/y/z\n7\n@@ x/y\n2\n", 2 },
	};
	for (guint i = 0; i < G_N_ELEMENTS(runs); i++) {
		guint before = fuzz_scratch_writes;
		const char *in = runs[i].input;
		fuzz_scratch_sections((const guint8 *)in, strlen(in), "h", 64);
		if (fuzz_scratch_writes - before != runs[i].writes) {
			fprintf(stderr,
				"fuzz: scratch self-test: input %u wrote %u sections, not %u\n", i,
				fuzz_scratch_writes - before, runs[i].writes);
			abort();
		}
	}
	/* the check sees a planted file */
	g_autoptr(GArray) secs = fuzz_split(fuzz_last_data->data, fuzz_last_data->len, "h", 64);
	fuzz_write_at(fuzz_scratch_dir_fd(), "x/planted", (const guint8 *)"p", 1);
	fuzz_scratch_quiet = TRUE;
	gboolean seen = !fuzz_scratch_same_as_fresh(secs, fuzz_last_data->data);
	fuzz_scratch_quiet = FALSE;
	if (!seen) {
		fprintf(stderr, "fuzz: scratch self-test: a planted file went unseen\n");
		abort();
	}
	fuzz_scratch_reset();
}
#endif

const char *fuzz_scratch_sections(const guint8 *data, size_t size, const char *default_name,
				  guint max_sections)
{
	fuzz_init();
#ifndef FTL_FUZZING
	static gboolean tested;
	if (!tested) {
		tested = TRUE;
		fuzz_scratch_selftest();
	}
#endif
	g_autoptr(GArray) secs = fuzz_split(data, size, default_name, max_sections);
	gint from = fuzz_same_prefix(secs, data);
	if (from < 0) {
		fuzz_remove_tree(fuzz_scratch, FALSE);
		from = 0;
	}
	int dfd = fuzz_scratch_dir_fd();
	for (guint i = (guint)from; i < secs->len; i++) {
		const FuzzSection *sec = &g_array_index(secs, FuzzSection, i);
		/* a new file, not the old one truncated: what ftlens keeps per
		 * file (device, inode, size, time: parse/tep-memo.c) would
		 * take a file of the same size rewritten within the clock's
		 * tick for the one it read */
		unlinkat(dfd, sec->name, 0);
		fuzz_write_at(dfd, sec->name, data + sec->at, sec->len);
		fuzz_scratch_writes++;
	}
	if (fuzz_scratch_checked())
		fuzz_scratch_check(secs, data);
	if (fuzz_last)
		g_array_unref(fuzz_last);
	fuzz_last = g_steal_pointer(&secs);
	if (!fuzz_last_data)
		fuzz_last_data = g_byte_array_new();
	g_byte_array_set_size(fuzz_last_data, 0);
	g_byte_array_append(fuzz_last_data, data, (guint)size);
	fuzz_last_valid = TRUE;
	return fuzz_scratch;
}

static void fuzz_fail(const char *what, const char *why, const char *s, size_t n, size_t at)
{
	size_t from = at > 40 ? at - 40 : 0, to = MIN(n, at + 40);
	g_autofree char *ctx = ftl_escape(s + from, (gssize)(to - from));
	fprintf(stderr, "fuzz: %s: %s at byte %zu: ...%s...\n", what, why, at, ctx);
	abort();
}

/* The output checks' branches are not the product's: kept out of the
 * coverage the fuzzer steers by (FTL_NO_COVERAGE), as those of
 * json-glib's parser, which the JSON one replaced, were; they ran on
 * every byte of every output. */

FTL_NO_COVERAGE void fuzz_check_text(const char *what, const char *s, size_t n, gboolean allow_tab)
{
	g_assert(s[n] == 0);
	const char *bad;
	if (!g_utf8_validate(s, (gssize)n, &bad))
		fuzz_fail(what, "invalid UTF-8", s, n, (size_t)(bad - s));
	for (const char *p = s; p < s + n; p = g_utf8_next_char(p)) {
		/* printable ASCII, the common case, skipped first (a NUL
		 * inside the text stops it too) */
		p += ftl_escape_plain_len(p);
		if (p >= s + n)
			break;
		gunichar u = g_utf8_get_char(p);
		if (u == '\n' || (u == '\t' && allow_tab))
			continue;
		if (u < 0x20 || u == 0x7f)
			fuzz_fail(what, "raw control character", s, n, (size_t)(p - s));
		if (ftl_escape_is_hidden(u))
			fuzz_fail(what, "raw C1, bidi or separator character", s, n,
				  (size_t)(p - s));
	}
}

FTL_NO_COVERAGE static const char *fuzz_json_ws(const char *p, const char *e)
{
	while (p < e && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r'))
		p++;
	return p;
}

FTL_NO_COVERAGE static const char *fuzz_json_digits(const char *p, const char *e)
{
	while (p < e && g_ascii_isdigit(*p))
		p++;
	return p;
}

/* The string at p (its opening quote): its end, or NULL with *why. */
FTL_NO_COVERAGE static const char *fuzz_json_string(const char *p, const char *e, const char **why)
{
	for (p++;;) {
		while (p < e && *p != '"' && *p != '\\' && (guchar)*p >= 0x20)
			p++;
		if (p >= e) {
			*why = "unterminated string";
			return NULL;
		}
		if (*p == '"')
			return p + 1;
		if (*p != '\\') {
			*why = "raw control character in a string";
			return NULL;
		}
		p++;
		if (p < e && *p && strchr("\"\\/bfnrt", *p)) {
			p++;
			continue;
		}
		if (p >= e || *p != 'u') {
			*why = "invalid escape";
			return NULL;
		}
		for (int i = 0; i < 4; i++)
			if (++p >= e || !g_ascii_isxdigit(*p)) {
				*why = "\\u escape without four hex digits";
				return NULL;
			}
		p++;
	}
}

/* The number or true, false, null at p: its end, or NULL with *why. */
FTL_NO_COVERAGE static const char *fuzz_json_scalar(const char *p, const char *e, const char **why)
{
	static const char *const words[] = { "true", "false", "null" };
	for (guint w = 0; w < G_N_ELEMENTS(words); w++) {
		size_t len = strlen(words[w]);
		if ((size_t)(e - p) >= len && !memcmp(p, words[w], len))
			return p + len;
	}
	*why = "value expected";
	if (p < e && *p == '-')
		p++;
	if (p >= e || !g_ascii_isdigit(*p))
		return NULL;
	p = *p == '0' ? p + 1 : fuzz_json_digits(p, e);
	if (p < e && *p == '.') {
		if (++p >= e || !g_ascii_isdigit(*p))
			return NULL;
		p = fuzz_json_digits(p, e);
	}
	if (p < e && (*p == 'e' || *p == 'E')) {
		p++;
		if (p < e && (*p == '+' || *p == '-'))
			p++;
		if (p >= e || !g_ascii_isdigit(*p))
			return NULL;
		p = fuzz_json_digits(p, e);
	}
	return p;
}

/* JSON text as RFC 8259 has it (one value; no trailing comma, comment,
 * NaN or single quote; its UTF-8 is fuzz_check_text()'s): the offset where
 * it is not, with why, or -1. Builds nothing: the tree json-glib's parser
 * built and freed for every JSON output was most of what checking one
 * cost. Nesting is kept in a string of '[' and '{', not on the stack. */
FTL_NO_COVERAGE static gssize fuzz_json_invalid(const char *s, size_t n, const char **why)
{
	const char *p = s, *e = s + n;
	g_autoptr(GString) open = g_string_new(NULL);
	enum { VALUE, NAME, AFTER } state = VALUE;
	for (;;) {
		p = fuzz_json_ws(p, e);
		if (state == NAME) {
			*why = "member name expected";
			const char *q = p < e && *p == '"' ? fuzz_json_string(p, e, why) : NULL;
			if (!q)
				break;
			p = fuzz_json_ws(q, e);
			*why = "':' expected";
			if (p >= e || *p != ':')
				break;
			p++;
			state = VALUE;
		} else if (state == VALUE) {
			*why = "value expected";
			if (p >= e)
				break;
			if (*p == '{' || *p == '[') {
				char close = *p == '{' ? '}' : ']';
				g_string_append_c(open, *p);
				state = *p == '{' ? NAME : VALUE;
				p = fuzz_json_ws(p + 1, e);
				if (p < e && *p == close) {
					g_string_truncate(open, open->len - 1);
					p++;
					state = AFTER;
				}
			} else {
				const char *q = *p == '"' ? fuzz_json_string(p, e, why)
							  : fuzz_json_scalar(p, e, why);
				if (!q)
					break;
				p = q;
				state = AFTER;
			}
		} else if (!open->len) {
			*why = "text after the value";
			return p == e ? -1 : p - s;
		} else {
			char in = open->str[open->len - 1];
			*why = in == '{' ? "',' or '}' expected" : "',' or ']' expected";
			if (p < e && *p == ',') {
				p++;
				state = in == '{' ? NAME : VALUE;
			} else if (p < e && *p == (in == '{' ? '}' : ']')) {
				p++;
				g_string_truncate(open, open->len - 1);
			} else {
				break;
			}
		}
	}
	return p - s; /* where the token that failed starts */
}

#ifndef FTL_FUZZING
/* The validator against cases whose verdict is known and against
 * json-glib, once per replay process (make check): a check that could no
 * longer fail would be found here. */
static void fuzz_json_selftest(void)
{
	static const char *const good[] = {
		"{}",
		" [ ]\n",
		"0",
		"-0.5e+3",
		"\"\"",
		"null",
		"{\"a\": [1, -2.5E-3, true, false, null, \"x\\u00e9\\n\\\"\\\\\\/\"],\n \"b\": {}}",
		"[[[]], {\"\": 1e9}]",
	};
	static const char *const bad[] = {
		"",	 " ",	       "{",	 "[1,]",       "{\"a\":1,}", "{\"a\" 1}",
		"{1:2}", "[01]",       "[1.]",	 "[.5]",       "[1e]",	     "[-]",
		"nan",	 "[NaN]",      "[inf]",	 "\"\\x\"",    "\"\\u12\"",  "\"a",
		"[] []", "{\"a\":1}}", "[1 2]",	 "[\"\x01\"]", "[\"\t\"]",   "tru",
		"'a'",	 "/* c */ 1",  "[1,,2]", "{\"a\"}",    "{,}",	     "[}",
		"{]",	 "[\"a\":1]",  "+1",
	};
	const char *why;
	for (guint i = 0; i < G_N_ELEMENTS(good); i++) {
		g_autoptr(JsonParser) parser = json_parser_new();
		if (fuzz_json_invalid(good[i], strlen(good[i]), &why) >= 0 ||
		    !json_parser_load_from_data(parser, good[i], -1, NULL)) {
			fprintf(stderr, "fuzz: JSON self-test: %s refused (%s)\n", good[i], why);
			abort();
		}
	}
	for (guint i = 0; i < G_N_ELEMENTS(bad); i++)
		if (fuzz_json_invalid(bad[i], strlen(bad[i]), &why) < 0) {
			fprintf(stderr, "fuzz: JSON self-test: %s accepted\n", bad[i]);
			abort();
		}
}
#endif

void fuzz_check_json(const char *what, const char *s, size_t n)
{
	/* its strings escape controls themselves: \t and \n outside them are
	 * the pretty printer's */
	fuzz_check_text(what, s, n, TRUE);
	const char *why = NULL;
	gssize at = fuzz_json_invalid(s, n, &why);
	if (at >= 0)
		fuzz_fail(what, why, s, n, (size_t)at);
#ifndef FTL_FUZZING
	/* replayed (make check): json-glib's parser must agree */
	g_autoptr(JsonParser) parser = json_parser_new();
	g_autoptr(GError) error = NULL;
	if (!json_parser_load_from_data(parser, s, (gssize)n, &error))
		fuzz_fail(what, error->message, s, n, 0);
#endif
}

FILE *fuzz_capture_open(FuzzCapture *c)
{
	c->buf = NULL;
	c->len = 0;
	c->f = open_memstream(&c->buf, &c->len);
	if (!c->f)
		abort();
	return c->f;
}

void fuzz_capture_check(FuzzCapture *c, const char *what, int format)
{
	fclose(c->f);
	if (format == FTL_FORMAT_JSON)
		fuzz_check_json(what, c->buf, c->len);
	else
		fuzz_check_text(what, c->buf, c->len, FALSE);
	free(c->buf);
	c->buf = NULL;
}

/* `dump` as a consumer: every event printed into a string, checked in chunks. */
typedef struct {
	GString *out; /* NULL: only the origin is kept */
	gint64 origin;
} FuzzDump;

static void fuzz_dump_flush(FuzzDump *d)
{
	if (!d->out)
		return;
	fuzz_check_text("dump", d->out->str, d->out->len, FALSE);
	g_string_truncate(d->out, 0);
}

static void fuzz_dump_feed(gpointer self, const FtlEvent *ev)
{
	FuzzDump *d = self;
	if (d->origin == FTL_TS_NONE && ev->ts != FTL_TS_NONE)
		d->origin = ev->ts;
	if (!d->out)
		return;
	ftl_dump_event(d->out, ev);
	ftl_dump_event_at(d->out, ev, d->origin);
	if (d->out->len > 1 << 16)
		fuzz_dump_flush(d);
}

static void fuzz_dump_finish(gpointer self)
{
	fuzz_dump_flush(self);
}

static const FtlConsumerClass fuzz_dump_consumer = { "dump", fuzz_dump_feed, fuzz_dump_finish };

static void fuzz_views_report(const FtlReportData *r, int f)
{
	static const char *const names[] = { "report text", "report csv", "report json" };
	FuzzCapture c;
	ftl_report_print(r, (FtlFormat)f, fuzz_capture_open(&c));
	fuzz_capture_check(&c, names[f], f);
}

static void fuzz_views_graph(const FtlCallTree *calls, int f)
{
	static const char *const names[] = { "graph text", "graph csv", "graph json" };
	FtlGraphOptions opt = { .max_depth = -1, .threshold = 0, .style = &fuzz_text_style };
	FuzzCapture c;
	ftl_graph_print(ftl_calltree_root(calls), &opt, (FtlFormat)f, fuzz_capture_open(&c));
	fuzz_capture_check(&c, names[f], f);
}

static void fuzz_views_info(FtlTrace *trace, const FtlCounts *counts, const FtlQuality *quality,
			    int f)
{
	FuzzCapture c;
	FILE *out = fuzz_capture_open(&c);
	if (f == FTL_FORMAT_TEXT) {
		ftl_info_print_text(out, trace, counts, quality, &fuzz_text_style);
	} else if (f == FTL_FORMAT_CSV) {
		ftl_info_print_csv(out, trace, counts, quality);
	} else {
		g_autoptr(JsonNode) node = ftl_info_to_json(trace, counts, quality);
		ftl_json_print(node, out);
	}
	fuzz_capture_check(&c, "info", f);
}

static void fuzz_views_markers(const FtlMarkers *m, const FtlSpans *spans, gint64 origin, int f)
{
	static const char *const names[] = { "markers text", "markers csv", "markers json" };
	FtlMarkersViewOptions opt = {
		.format = (FtlFormat)f,
		.origin = f == FTL_FORMAT_TEXT ? origin : FTL_TS_NONE,
		.origin_pattern = "x",
		.wall_offset = FTL_TS_NONE,
		.style = &fuzz_text_style,
		.top = 3,
		.span_start = "(\\w+) start",
		.span_end = "\\1 end",
	};
	guint anchor;
	ftl_markers_wall_anchor(m, &anchor, &opt.wall_offset);
	FuzzCapture c;
	ftl_markers_print(m, spans, &opt, fuzz_capture_open(&c));
	fuzz_capture_check(&c, names[f], f);
}

static void fuzz_views_diff(FtlFuncStats *funcs, const char *label, int f)
{
	static const char *const names[] = { "diff text", "diff csv", "diff json" };
	g_autoptr(FtlDiff) d = ftl_diff_new(funcs, funcs, FTL_DIFF_BY_SELF);
	FuzzCapture c;
	ftl_diff_print(d, label, label, (FtlFormat)f, 5, &fuzz_text_style, fuzz_capture_open(&c));
	fuzz_capture_check(&c, names[f], f);
}

void fuzz_run_trace(FtlTrace *trace, guint sel)
{
	fuzz_run_trace_with(trace, sel, NULL, NULL);
}

gboolean fuzz_run_trace_with(FtlTrace *trace, guint sel, const FtlConsumerClass *extra,
			     gpointer self)
{
	g_autoptr(FtlCounts) counts = ftl_counts_new();
	g_autoptr(FtlQuality) quality = ftl_quality_new(trace);
	g_autoptr(FtlCommRecovery) comm =
		ftl_comm_new(ftl_trace_tasks(trace), ftl_trace_pool(trace));
	g_autoptr(FtlMarkers) markers = ftl_markers_new();
	g_autoptr(FtlSpans) spans = ftl_spans_new("(\\w+) start", "\\1 end", NULL);
	g_autoptr(FtlCallTree) calls =
		ftl_calltree_new(FTL_CALLTREE_GROUP_TASK, ftl_trace_diags(trace));
	g_autoptr(FtlFuncStats) funcs = ftl_funcstats_new(FTL_FUNCSTATS_BY_FUNC);
	g_autoptr(FtlLongest) longest = ftl_longest_new(10);
	/* one view in one format per input (all of them every time would
	 * cost most of the executions): the fuzzer reaches each through sel */
	guint view = sel % 6;
	int f = (int)(sel / 6 % 3);
	FuzzDump dump = { view == 5 ? g_string_new(NULL) : NULL, FTL_TS_NONE };
	ftl_calltree_add_on_call(calls, ftl_funcstats_add_call, funcs);
	ftl_calltree_add_on_call(calls, ftl_longest_add_call, longest);
	g_autoptr(FtlPass) pass = ftl_pass_new();
	ftl_pass_add(pass, &ftl_counts_consumer, counts);
	ftl_pass_add(pass, &ftl_quality_consumer, quality);
	ftl_pass_add(pass, &ftl_comm_consumer, comm);
	ftl_pass_add(pass, &ftl_markers_consumer, markers);
	ftl_pass_add(pass, &ftl_spans_consumer, spans);
	ftl_pass_add(pass, &ftl_calltree_consumer, calls);
	ftl_pass_add(pass, &ftl_funcstats_consumer, funcs);
	ftl_pass_add(pass, &fuzz_dump_consumer, &dump);
	if (extra)
		ftl_pass_add(pass, extra, self);
	g_autoptr(GError) error = NULL;
	gboolean ok = ftl_pass_run(pass, trace, NULL, &error);
	if (dump.out)
		g_string_free(dump.out, TRUE);
	if (!ok)
		return FALSE; /* one clear error: what main.c prints is escaped there */
	FtlReportData r = {
		.trace = trace,
		.counts = counts,
		.quality = quality,
		.funcs = funcs,
		.calls = calls,
		.longest = longest,
		.markers = markers,
		.top = 5,
		.threshold = 0,
		.origin = dump.origin,
		.sort = FTL_FUNCSTATS_SORT_SELF,
		.style = &fuzz_text_style,
	};
	switch (view) {
	case 0:
		fuzz_views_report(&r, f);
		break;
	case 1:
		fuzz_views_graph(calls, f);
		break;
	case 2:
		fuzz_views_info(trace, counts, quality, f);
		break;
	case 3:
		fuzz_views_markers(markers, spans, dump.origin, f);
		break;
	case 4:
		fuzz_views_diff(funcs, ftl_trace_label(trace), f);
		break;
	default:
		break; /* the dump, checked as it was fed */
	}
	return TRUE;
}
