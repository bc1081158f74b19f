/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Where libtracecmd's known crashes on damaged trace.dat files are kept out
 * of ftlens: calls tried in a child process first, stdout and stderr lent
 * while the library prints, handles parked that cannot be closed, and, in
 * sanitizer builds only, what LeakSanitizer is told about the library.
 *
 * Needed up to libtracecmd 1.3.x (FTL_TRACECMD_GUARDED_UP_TO), the version
 * Debian 12 ships (1.3.1), which on damaged files
 * - crashes in tracecmd_open_head() when an option string lacks its NUL;
 * - lets kbuffer read past a page whose header lies in
 *   tracecmd_init_data(), and prints some of its reasons (a truncated file)
 *   with plain printf rather than through tep_vprint();
 * - crashes in tracecmd_close() of a handle whose tracecmd_init_data()
 *   failed (and so in tracecmd_open(), which closes it that way);
 * - frees its parent's memory in tracecmd_buffer_instance_handle() when an
 *   instance is damaged.
 * Built against a newer library (FTL_TRACECMD_GUARDS 0) every call goes
 * straight to it.
 *
 * And where libtracecmd parses more than a reader needs: its header read
 * hands every event format to tep_parse_event() and the whole kallsyms to
 * tep_parse_kallsyms(), through the dynamic linker (1.3 does; a library
 * that binds them within itself is only slower), so that ftlens's own
 * definitions below are called instead; while a file is opened they keep
 * the text for tep.c to parse on demand (a capture's 2,000 formats and
 * 5 MB of kallsyms cost libtracecmd 0.2 s per open, twice with the trial
 * open). Otherwise they pass the call on to libtraceevent. */
#include "config.h"

#include "parse/tracecmd-guard.h"

#include "parse/index.h"
#include "parse/tep-check.h"
#include "parse/trial.h"
#include "util/fdio.h"

#include <dirent.h>
#include <dlfcn.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <event-parse.h>

/* ---- formats and kallsyms kept aside ------------------------------------ */

/* Set while libtracecmd reads a file's headers (in the main thread only);
 * guard_keep_kallsyms says whether kallsyms is kept there (the trial child
 * tries the formats, it would only copy kallsyms and throw it away). */
static FtlTepLazy *guard_lazy;
static gboolean guard_keep_kallsyms;

enum tep_errno tep_parse_event(struct tep_handle *tep, const char *buf, unsigned long size,
			       const char *sys)
{
	static enum tep_errno (*next)(struct tep_handle *, const char *, unsigned long,
				      const char *);
	if (guard_lazy) {
		ftl_tep_lazy_add_format(guard_lazy, sys, buf, size);
		return 0;
	}
	if (!next)
		next = (enum tep_errno(*)(struct tep_handle *, const char *, unsigned long,
					   const char *))ftl_tep_next("tep_parse_event");
	ftl_tep_parse_lock();
	enum tep_errno e = next(tep, buf, size, sys);
	ftl_tep_parse_unlock();
	return e;
}

void ftl_tracecmd_guard_printk(const char *safe)
{
	if (guard_lazy)
		ftl_tep_lazy_add_printk(guard_lazy, safe);
}

int tep_parse_kallsyms(struct tep_handle *tep, const char *kallsyms)
{
	static int (*next)(struct tep_handle *, const char *);
	if (guard_lazy) {
		if (guard_keep_kallsyms)
			ftl_tep_lazy_set_kallsyms(guard_lazy, kallsyms);
		return 0;
	}
	if (!next)
		next = (int (*)(struct tep_handle *, const char *))ftl_tep_next("tep_parse_kallsyms");
	return next(tep, kallsyms);
}

/* The descriptors of this process open on the file st names without
 * close-on-exec (libtracecmd's: ftlens opens its own with O_CLOEXEC), in
 * fds (at most max of them); the count, or -1 when /proc cannot say. */
static int guard_fds_on(const struct stat *st, int *fds, int max)
{
	DIR *d = opendir("/proc/self/fd");
	if (!d)
		return -1;
	int n = 0;
	struct dirent *de;
	while ((de = readdir(d))) {
		struct stat fst;
		char *end;
		long fd = strtol(de->d_name, &end, 10);
		if (*end || end == de->d_name || fd == dirfd(d) ||
		    fstatat(dirfd(d), de->d_name, &fst, 0) != 0 || fst.st_dev != st->st_dev ||
		    fst.st_ino != st->st_ino)
			continue;
		int fl = fcntl((int)fd, F_GETFD);
		if (fl >= 0 && !(fl & FD_CLOEXEC) && n < max)
			fds[n++] = (int)fd;
	}
	closedir(d);
	return n;
}

#define GUARD_FDS_MAX 16

/* The descriptor libtracecmd opened on st's file in the call after before
 * was listed: the only one not open then, or -1 (none, or more than one). */
static int guard_new_fd(const struct stat *st, const int *before, int n_before)
{
	int after[GUARD_FDS_MAX], found = -1;
	int n = guard_fds_on(st, after, GUARD_FDS_MAX);
	for (int i = 0; i < n; i++) {
		gboolean old = FALSE;
		for (int j = 0; j < n_before && !old; j++)
			old = before[j] == after[i];
		if (old)
			continue;
		if (found >= 0)
			return -1;
		found = after[i];
	}
	return found;
}

/* Points fd (STDOUT_FILENO or STDERR_FILENO) at the descriptor to for a
 * library call that prints there: what gives fd back (guard_give_back()),
 * or -1 when fd could not be lent and is as it was. */
static int guard_lend(int fd, int to)
{
	fflush(fd == STDOUT_FILENO ? stdout : stderr);
	int saved = to >= 0 ? dup(fd) : -1;
	if (saved >= 0 && dup2(to, fd) < 0) {
		close(saved);
		saved = -1;
	}
	return saved;
}

static void guard_give_back(int fd, int saved)
{
	if (saved < 0)
		return;
	fflush(fd == STDOUT_FILENO ? stdout : stderr);
	dup2(saved, fd);
	close(saved);
}

/* tracecmd_open_head() with the formats kept in lazy, and kallsyms when
 * kallsyms. The descriptor it opens is looked for (files are opened in
 * the main thread only, as guard_lazy says): kept as the handle's private
 * data (plus one: NULL is "not known"), so that a handle parked by
 * ftl_tracecmd_discard() gives it back; and closed when the open fails,
 * since libtracecmd 1.3 does not close it when tracecmd_alloc_fd() refuses
 * the file's first bytes. A process that opens thousands of damaged files
 * (a fuzz campaign) kept them all. */
static struct tracecmd_input *guard_open_lazy(const char *path, FtlTepLazy *lazy,
					      gboolean kallsyms)
{
	struct stat st;
	int before[GUARD_FDS_MAX];
	int n_before = stat(path, &st) == 0 ? guard_fds_on(&st, before, GUARD_FDS_MAX) : -1;
	guard_lazy = lazy;
	guard_keep_kallsyms = kallsyms;
	/* libtracecmd 1.3 printf()s a HOOK option's text to stdout while it
	 * reads the options: trace text that would reach the terminal raw, or
	 * break `--format json`. stdout is lent to /dev/null for the call (the
	 * TUI draws on a descriptor of its own). */
	int null = open("/dev/null", O_WRONLY | O_CLOEXEC);
	int out = guard_lend(STDOUT_FILENO, null);
	if (null >= 0)
		close(null);
	struct tracecmd_input *handle = tracecmd_open_head(path, TRACECMD_FL_LOAD_NO_PLUGINS);
	guard_give_back(STDOUT_FILENO, out);
	guard_lazy = NULL;
	int fd = n_before >= 0 && n_before < GUARD_FDS_MAX ? guard_new_fd(&st, before, n_before)
							   : -1;
	if (fd >= 0 && handle)
		tracecmd_set_private(handle, GINT_TO_POINTER(fd + 1));
	else if (fd >= 0)
		close(fd);
	return handle;
}

#if FTL_TRACECMD_GUARDS

typedef struct {
	const char *path;
	FtlTepLazy *lazy;
} GuardOpen;

/* In the file's trial child: the open, the formats kept in the child's
 * lazy as in the real one, so that the child then tries them there. */
static struct tep_handle *guard_child_open(gpointer ctx)
{
	GuardOpen *o = ctx;
	struct tracecmd_input *handle = guard_open_lazy(o->path, o->lazy, FALSE);
	return handle ? tracecmd_get_tep(handle) : NULL;
}

static int guard_step_instance(gpointer handle, int i)
{
	return tracecmd_buffer_instance_handle(handle, i) ? 0 : -1;
}

static int guard_step_init(gpointer handle, int unused)
{
	(void)unused;
	return tracecmd_init_data(handle) < 0 ? -1 : 0;
}

/* tracecmd_init_data() with stdout and stderr lent to a temporary file for
 * the call; what landed there joins msgs. */
static int guard_init_data(struct tracecmd_input *handle, GString *msgs)
{
	FILE *tmp = tmpfile();
	int out = tmp ? guard_lend(STDOUT_FILENO, fileno(tmp)) : -1;
	int err = out >= 0 ? guard_lend(STDERR_FILENO, fileno(tmp)) : -1;
	if (err < 0) {
		guard_give_back(STDOUT_FILENO, out);
		if (tmp)
			fclose(tmp);
		return tracecmd_init_data(handle);
	}
	int r = tracecmd_init_data(handle);
	guard_give_back(STDOUT_FILENO, out);
	guard_give_back(STDERR_FILENO, err);
	char buf[512];
	rewind(tmp);
	gsize n = fread(buf, 1, sizeof buf - 1, tmp);
	fclose(tmp);
	buf[n] = 0;
	g_strstrip(buf);
	/* one line; main.c makes the message visible */
	g_strdelimit(buf, "\n\r\t", ' ');
	if (*buf) {
		if (msgs->len)
			g_string_append(msgs, "; ");
		g_string_append(msgs, buf);
	}
	return r;
}

/* Handles that tracecmd_close() would crash on, reachable for the rest of
 * the process (so that leak checkers do not count them). */
static GPtrArray *guard_parked;

/* ---- files whose headers passed the trial before ------------------------ */

/* libtracecmd reads the same headers the same way each time: a large file
 * whose open passed the trial is remembered in the cache
 * ($XDG_CACHE_HOME/ftlens/<hash>.tracecmd-pass), so that opening it again
 * skips the child's open (a capture's: 5 MB of kallsyms read and 2,300
 * formats copied, the half of the TUI's first screen spent waiting on it).
 * Its formats are still tried in a child. The record holds what the pass
 * depends on: the file (size, mtime, inode, device: the sparse index's key)
 * and the libraries that read it (path and identity of each loaded file),
 * and ftlens's version; any change and the trial runs again. Files below
 * FTL_INDEX_AUTO_MIN are not recorded, as they are not indexed. */
#define GUARD_PASS_MAX 4096

/* The record for path, or NULL when it cannot be made. */
static char *guard_pass_record(const char *path)
{
	FtlIndexKey key;
	if (!ftl_index_key_of(path, &key) || key.size < FTL_INDEX_AUTO_MIN)
		return NULL;
	g_autoptr(GString) s = g_string_new(NULL);
	g_string_printf(s,
			"ftlens %s: libtracecmd opens it\n%" G_GUINT64_FORMAT " %" G_GINT64_FORMAT
			" %" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT "\n",
			PACKAGE_VERSION, key.size, key.mtime_ns, key.ino, key.dev);
	const void *libs[] = { (const void *)tracecmd_open_head, (const void *)tep_alloc };
	for (guint i = 0; i < G_N_ELEMENTS(libs); i++) {
		Dl_info info;
		FtlIndexKey lib;
		if (!dladdr(libs[i], &info) || !info.dli_fname ||
		    !ftl_index_key_of(info.dli_fname, &lib))
			return NULL;
		g_string_append_printf(s, "%s %" G_GUINT64_FORMAT " %" G_GINT64_FORMAT "\n",
				       info.dli_fname, lib.ino, lib.mtime_ns);
	}
	return s->len < GUARD_PASS_MAX ? g_string_free(g_steal_pointer(&s), FALSE) : NULL;
}

/* Whether the cache file holds record (a file this user made: a planted
 * one would skip the trial child). */
static gboolean guard_passed(const char *cache, const char *record)
{
	gsize n;
	g_autoptr(GError) error = NULL;
	g_autofree char *buf = ftl_file_read_own(cache, GUARD_PASS_MAX, &n, &error);
	if (!buf && !g_error_matches(error, G_FILE_ERROR, G_FILE_ERROR_NOENT))
		g_debug("%s", error->message);
	return buf && n == strlen(record) && memcmp(buf, record, n) == 0;
}

struct tracecmd_input *ftl_tracecmd_open_head(const char *path, FtlTepLazy *lazy,
					      FtlTracecmdResult *result)
{
	GuardOpen o = { path, lazy };
	g_autofree char *record = guard_pass_record(path);
	g_autofree char *cache = record ? ftl_cache_path(path, ".tracecmd-pass") : NULL;
	gboolean tried = FALSE;
	FtlTrialResult trial = FTL_TRIAL_OK;
	/* one child per file: it opens the file, then tries its formats (a
	 * file that passed before gets its child at ftl_tep_lazy_start()) */
	if (!cache || !guard_passed(cache, record))
		trial = ftl_tep_lazy_fork(lazy, guard_child_open, &o, &tried);
	if (trial == FTL_TRIAL_CRASHED) {
		*result = FTL_TRACECMD_CRASHED;
		return NULL;
	}
	struct tracecmd_input *handle = guard_open_lazy(path, lazy, TRUE);
	*result = handle ? FTL_TRACECMD_OK : FTL_TRACECMD_FAILED;
	g_autoptr(GError) error = NULL;
	if (handle && tried && trial == FTL_TRIAL_OK && cache &&
	    !ftl_cache_write(cache, record, strlen(record), path, &error))
		g_debug("%s", error->message);
	return handle;
}

FtlTracecmdResult ftl_tracecmd_init_data(struct tracecmd_input *handle, GString *msgs)
{
	/* GUARDED only: ftlens reads these files' pages through libtracecmd */
	if (ftl_trial_run_only_line(guard_step_init, handle, 0) < 0)
		return FTL_TRACECMD_CRASHED;
	return guard_init_data(handle, msgs) < 0 ? FTL_TRACECMD_FAILED : FTL_TRACECMD_OK;
}

void ftl_tracecmd_discard(struct tracecmd_input *handle)
{
	/* the handle is never read again: its descriptor is given back (a
	 * fuzz campaign parks thousands) */
	int fd = GPOINTER_TO_INT(tracecmd_get_private(handle)) - 1;
	if (fd >= 0) {
		close(fd);
		tracecmd_set_private(handle, NULL);
	}
	if (!guard_parked)
		guard_parked = g_ptr_array_new();
	g_ptr_array_add(guard_parked, handle);
}

struct tracecmd_input *ftl_tracecmd_instance(struct tracecmd_input *handle, int i)
{
	/* a clean failure in the child may still have freed the parent's
	 * memory there: only an instance that opens there is opened here */
	if (ftl_trial_run_only_line(guard_step_instance, handle, i) != 0)
		return NULL;
	return tracecmd_buffer_instance_handle(handle, i);
}

#else /* !FTL_TRACECMD_GUARDS */

struct tracecmd_input *ftl_tracecmd_open_head(const char *path, FtlTepLazy *lazy,
					      FtlTracecmdResult *result)
{
	struct tracecmd_input *handle = guard_open_lazy(path, lazy, TRUE);
	*result = handle ? FTL_TRACECMD_OK : FTL_TRACECMD_FAILED;
	return handle;
}

FtlTracecmdResult ftl_tracecmd_init_data(struct tracecmd_input *handle, GString *msgs)
{
	(void)msgs;
	return tracecmd_init_data(handle) < 0 ? FTL_TRACECMD_FAILED : FTL_TRACECMD_OK;
}

void ftl_tracecmd_discard(struct tracecmd_input *handle)
{
	tracecmd_close(handle);
}

struct tracecmd_input *ftl_tracecmd_instance(struct tracecmd_input *handle, int i)
{
	return tracecmd_buffer_instance_handle(handle, i);
}

#endif /* FTL_TRACECMD_GUARDS */

#ifdef FTL_SANITIZERS
/* Library leaks LeakSanitizer is told about, or sanitizer builds would
 * fail on them; configure defines FTL_SANITIZERS only for those builds, so
 * that the production binary carries no sanitizer settings:
 * - libtraceevent 1.7 leaks a few bytes while parsing some event formats
 *   (tep_parse_event); on damaged formats the leak is inside its static
 *   parser functions, which have no names for the fast unwinder, so the
 *   library itself is named as well (found by tests/fuzz/fuzz-rawdir);
 * - its tep_parse_saved_cmdlines() leaks the name its sscanf("%ms")
 *   allocated when a damaged cmdlines line does not parse (with the fast
 *   unwinder the report ends at libc's __vfscanf_internal; ftlens itself
 *   never calls sscanf);
 * - libtracecmd 1.3's tracecmd_open_head() leaks what it had read when the
 *   headers of a damaged file fail; the fast unwinder stops inside the
 *   library there, so the library itself is named. */
const char *__lsan_default_suppressions(void);
__attribute__((used)) const char *__lsan_default_suppressions(void)
{
	return "leak:tep_parse_event\nleak:tep_parse_saved_cmdlines\nleak:__vfscanf_internal\n"
	       "leak:libtracecmd.so\nleak:libtraceevent.so\n";
}

/* ... and keeps quiet about having used the suppression, so stderr still
 * holds only ftlens's own message. */
const char *__lsan_default_options(void);
__attribute__((used)) const char *__lsan_default_options(void)
{
	return "print_suppressions=0";
}
#endif
