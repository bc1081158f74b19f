/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The one output writer: temp file beside the target, rename on success. */
#include "config.h"

#include "util/output.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <signal.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/error.h"

struct _FtlOutput {
	char *path;
	char *stage; /* where the temp file is made: path's directory, or one
		      * that exists while path's does not yet */
	char *tmp; /* NULL for stdout, and once renamed or removed */
	FILE *f;
	gboolean is_stdout;
	/* an O_TMPFILE without a name until the commit links it: a process
	 * killed by SIGKILL leaves nothing behind */
	gboolean anonymous;
	gboolean closed;
	gboolean committed;
	struct _FtlOutput *next_pending;
};

/* The temp files that exist now. A signal handler cannot be handed
 * context, so this list is the one file-scope state here: it is changed
 * with the stop signals blocked, and the handler only reads it. */
static FtlOutput *volatile output_pending;
static gboolean output_handlers_set;
static const int output_signals[] = { SIGINT, SIGTERM, SIGHUP };

void ftl_output_remove_pending(void)
{
	for (FtlOutput *o = output_pending; o; o = o->next_pending)
		if (o->tmp)
			unlink(o->tmp);
}

static void output_on_signal(int sig)
{
	ftl_output_remove_pending();
	signal(sig, SIG_DFL);
	raise(sig);
}

static void output_block(sigset_t *old)
{
	sigset_t set;
	sigemptyset(&set);
	for (guint i = 0; i < G_N_ELEMENTS(output_signals); i++)
		sigaddset(&set, output_signals[i]);
	sigprocmask(SIG_BLOCK, &set, old);
}

/* Only where the default action (death) would leave the temp file. */
static void output_install(void)
{
	if (output_handlers_set)
		return;
	output_handlers_set = TRUE;
	for (guint i = 0; i < G_N_ELEMENTS(output_signals); i++) {
		struct sigaction old;
		if (sigaction(output_signals[i], NULL, &old) != 0 || old.sa_handler != SIG_DFL)
			continue;
		struct sigaction sa = { 0 };
		sa.sa_handler = output_on_signal;
		sigemptyset(&sa.sa_mask);
		sigaction(output_signals[i], &sa, NULL);
	}
}

static void output_track(FtlOutput *o, gboolean on)
{
	sigset_t old;
	output_block(&old);
	if (on) {
		o->next_pending = output_pending;
		output_pending = o;
	} else {
		for (FtlOutput *volatile *p = &output_pending; *p; p = &(*p)->next_pending)
			if (*p == o) {
				*p = o->next_pending;
				break;
			}
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
}

static gboolean output_error(GError **error, const char *path, const char *what, int err)
{
	g_set_error(error, FTL_ERROR, FTL_ERROR_IO, "'%s': %s: %s", path, what, g_strerror(err));
	return FALSE;
}

gboolean ftl_output_same_file(const char *a, const char *b)
{
	struct stat sa, sb;
	return g_stat(a, &sa) == 0 && g_stat(b, &sb) == 0 && sa.st_dev == sb.st_dev &&
	       sa.st_ino == sb.st_ino;
}

static void output_remove_tmp(FtlOutput *o)
{
	if (!o->tmp)
		return;
	sigset_t old;
	output_block(&old);
	g_unlink(o->tmp);
	g_clear_pointer(&o->tmp, g_free);
	sigprocmask(SIG_SETMASK, &old, NULL);
}

static gboolean output_refuse_input(const char *path, const char *const *inputs, GError **error)
{
	for (guint i = 0; inputs && inputs[i]; i++) {
		if (strcmp(inputs[i], "-") != 0 && ftl_output_same_file(path, inputs[i])) {
			g_set_error(error, FTL_ERROR, FTL_ERROR_USAGE,
				    "'%s': is an input of this command (%s); ftlens never "
				    "overwrites its input",
				    path, inputs[i]);
			return FALSE;
		}
	}
	return TRUE;
}

FtlOutput *ftl_output_open(const char *path, const char *const *inputs, GError **error)
{
	return ftl_output_open_staged(path, NULL, inputs, error);
}

FtlOutput *ftl_output_open_staged(const char *path, const char *stage, const char *const *inputs,
				  GError **error)
{
	g_autoptr(FtlOutput) o = g_new0(FtlOutput, 1);
	o->path = g_strdup(path);
	if (strcmp(path, "-") == 0) {
		o->is_stdout = TRUE;
		o->f = stdout;
		return g_steal_pointer(&o);
	}
	if (!output_refuse_input(path, inputs, error))
		return NULL;
	/* what a writer of path killed by SIGKILL left beside it (its temp file
	 * between the link and the rename), said on stderr */
	g_autoptr(GString) notes = g_string_new(NULL);
	ftl_output_staging_sweep(path, notes);
	for (char *l = notes->str, *nl; (nl = strchr(l, '\n')); l = nl + 1)
		fprintf(stderr, "ftlens: note: %.*s\n", (int)(nl - l), l);
	struct stat st;
	mode_t mode;
	if (g_stat(path, &st) == 0) {
		if (S_ISDIR(st.st_mode)) {
			g_set_error(error, FTL_ERROR, FTL_ERROR_USAGE, "'%s': is a directory", path);
			return NULL;
		}
		mode = st.st_mode & 07777;
	} else {
		mode_t mask = umask(0);
		umask(mask);
		mode = 0666 & ~mask;
	}
	g_autofree char *dir = stage ? g_strdup(stage) : g_path_get_dirname(path);
	o->stage = g_strdup(dir);
	int afd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
	if (afd >= 0) {
		if (fchmod(afd, mode) != 0 || !(o->f = fdopen(afd, "w+b"))) {
			int err = errno;
			close(afd);
			output_error(error, path, "cannot open the file", err);
			return NULL;
		}
		o->anonymous = TRUE;
		return g_steal_pointer(&o);
	}
	/* a file system without O_TMPFILE: a named temp file, removed on
	 * failure and on the stop signals (not on SIGKILL) */
	g_autofree char *base = g_path_get_basename(path);
	/* the pid in the name: ftl_output_staging_sweep() knows whose it was */
	g_autofree char *name = g_strdup_printf(".%s.ftlens-%d-XXXXXX", base, (int)getpid());
	char *tmp = g_build_filename(dir, name, NULL);
	output_install();
	sigset_t old;
	output_block(&old);
	int fd = g_mkstemp_full(tmp, O_RDWR | O_CLOEXEC, 0600);
	int err = errno;
	if (fd >= 0) {
		o->tmp = tmp;
		output_track(o, TRUE);
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	if (fd < 0) {
		g_free(tmp);
		output_error(error, path, "cannot create the file", err);
		return NULL;
	}
	if (fchmod(fd, mode) != 0 || !(o->f = fdopen(fd, "w+b"))) {
		err = errno;
		close(fd);
		output_error(error, path, "cannot open the file", err);
		return NULL;
	}
	return g_steal_pointer(&o);
}

FILE *ftl_output_stream(FtlOutput *o)
{
	return o->f;
}

const char *ftl_output_path(const FtlOutput *o)
{
	return o->path;
}

gboolean ftl_output_close(FtlOutput *o, GError **error)
{
	if (o->closed)
		return TRUE;
	o->closed = TRUE;
	int rc = fflush(o->f), err = errno;
	if (rc == 0 && ferror(o->f))
		rc = -1, err = EIO;
	if (o->is_stdout) {
		o->f = NULL;
		return rc == 0 || output_error(error, "-", "write failed", err);
	}
	if (rc == 0 && fsync(fileno(o->f)) != 0)
		rc = -1, err = errno;
	if (o->anonymous && rc == 0)
		return TRUE; /* open until the commit gives it a name */
	if (fclose(o->f) != 0 && rc == 0)
		rc = -1, err = errno;
	o->f = NULL;
	if (rc != 0) {
		output_remove_tmp(o);
		return output_error(error, o->path, "write failed", err);
	}
	return TRUE;
}

/* Gives the anonymous file a hidden name beside the target (to rename
 * over it), closed. */
static gboolean output_link(FtlOutput *o, GError **error)
{
	g_autofree char *proc = g_strdup_printf("/proc/self/fd/%d", fileno(o->f));
	g_autofree char *dir = g_path_get_dirname(o->path);
	g_autofree char *base = g_path_get_basename(o->path);
	int err = EEXIST;
	output_install();
	for (guint i = 0; i < 100 && err == EEXIST; i++) {
		g_autofree char *name =
			g_strdup_printf(".%s.ftlens-%d-%08x", base, (int)getpid(), g_random_int());
		char *tmp = g_build_filename(dir, name, NULL);
		sigset_t old;
		output_block(&old);
		if (linkat(AT_FDCWD, proc, AT_FDCWD, tmp, AT_SYMLINK_FOLLOW) == 0) {
			o->tmp = tmp;
			output_track(o, TRUE);
			err = 0;
		} else {
			err = errno;
			g_free(tmp);
		}
		sigprocmask(SIG_SETMASK, &old, NULL);
	}
	fclose(o->f);
	o->f = NULL;
	return err == 0 || output_error(error, o->path, "cannot name the written file", err);
}

/* Names the anonymous file path itself when nothing has that name (linkat
 * does not replace), closed: TRUE. FALSE, still open, when path exists or
 * the link fails otherwise (output_link() and a rename then). */
static gboolean output_link_new(FtlOutput *o)
{
	g_autofree char *proc = g_strdup_printf("/proc/self/fd/%d", fileno(o->f));
	if (linkat(AT_FDCWD, proc, AT_FDCWD, o->path, AT_SYMLINK_FOLLOW) != 0)
		return FALSE;
	fclose(o->f);
	o->f = NULL;
	return TRUE;
}

gboolean ftl_output_commit(FtlOutput *o, GError **error)
{
	if (!ftl_output_close(o, error))
		return FALSE;
	if (o->is_stdout || o->committed)
		return TRUE;
	if (o->anonymous && o->f && output_link_new(o)) {
		/* a new file: named in one step, no temp name in between */
	} else {
		if (o->anonymous && o->f && !output_link(o, error))
			return FALSE;
		if (!o->tmp)
			return output_error(error, o->path, "write failed", EIO);
		if (g_rename(o->tmp, o->path) != 0) {
			int err = errno;
			output_remove_tmp(o);
			return output_error(error, o->path, "cannot rename the temp file over it",
					    err);
		}
		output_track(o, FALSE);
		g_clear_pointer(&o->tmp, g_free);
	}
	o->committed = TRUE;
	/* the name itself lasts once the directory is on disk */
	g_autofree char *dir = g_path_get_dirname(o->path);
	ftl_output_sync_dir(dir);
	return TRUE;
}

void ftl_output_sync_dir(const char *dir)
{
	int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd >= 0) {
		fsync(dfd);
		close(dfd);
	}
}

void ftl_output_block_stops(sigset_t *old)
{
	output_block(old);
}

gboolean ftl_output_commit_at(FtlOutput *o, const char *path, GError **error)
{
	g_free(o->path);
	o->path = g_strdup(path);
	return ftl_output_commit(o, error);
}

void ftl_output_free(FtlOutput *o)
{
	if (!o)
		return;
	if (o->f && !o->is_stdout)
		fclose(o->f);
	if (o->tmp) {
		output_remove_tmp(o);
	}
	output_track(o, FALSE);
	g_free(o->path);
	g_free(o->stage);
	g_free(o);
}

gboolean ftl_output_write_all(const char *path, const char *const *inputs, const void *data,
			      gsize len, GError **error)
{
	g_autoptr(FtlOutput) o = ftl_output_open(path, inputs, error);
	if (!o)
		return FALSE;
	if (len && fwrite(data, 1, len, o->f) != len)
		return output_error(error, path, "write failed", errno);
	return ftl_output_commit(o, error);
}

void ftl_output_staging_sweep(const char *path, GString *notes)
{
	g_autofree char *parent = g_path_get_dirname(path);
	g_autofree char *base = g_path_get_basename(path);
	g_autofree char *prefix = g_strdup_printf(".%s.ftlens-", base);
	g_autoptr(GDir) d = g_dir_open(parent, 0, NULL);
	for (const char *name; d && (name = g_dir_read_name(d));) {
		if (!g_str_has_prefix(name, prefix))
			continue;
		/* .BASE.ftlens-PID-XXXXXX: only a certainly dead PID's */
		const char *p = name + strlen(prefix);
		char *end;
		guint64 pid = g_ascii_strtoull(p, &end, 10);
		if (end == p || *end != '-' || pid == 0 || pid > G_MAXINT32 ||
		    kill((pid_t)pid, 0) == 0 || errno != ESRCH)
			continue;
		g_autofree char *dir = g_build_filename(parent, name, NULL);
		struct stat st;
		if (lstat(dir, &st) != 0 || st.st_uid != geteuid() ||
		    !(S_ISDIR(st.st_mode) || S_ISREG(st.st_mode)))
			continue; /* not one ftlens made: a symlink is not followed */
		if (S_ISDIR(st.st_mode))
			ftl_output_staging_remove(dir);
		else if (g_unlink(dir) != 0)
			continue;
		g_string_append_printf(notes, "removed %s, left by pid %d\n", dir, (int)pid);
	}
}

char *ftl_output_staging_new(const char *path, GError **error)
{
	g_autofree char *parent = g_path_get_dirname(path);
	g_autofree char *base = g_path_get_basename(path);
	/* the pid in the name: ftl_output_staging_sweep() knows whose it was */
	g_autofree char *tmpl =
		g_strdup_printf("%s/.%s.ftlens-%d-XXXXXX", parent, base, (int)getpid());
	if (!g_mkdtemp(tmpl)) {
		int e = errno;
		g_set_error(error, FTL_ERROR, FTL_ERROR_IO,
			    "'%s': cannot create files in its directory: %s", path, g_strerror(e));
		return NULL;
	}
	return g_steal_pointer(&tmpl);
}

void ftl_output_staging_remove(const char *dir)
{
	g_autoptr(GDir) d = g_dir_open(dir, 0, NULL);
	if (d) {
		for (const char *name; (name = g_dir_read_name(d));) {
			g_autofree char *sub = g_build_filename(dir, name, NULL);
			if (g_file_test(sub, G_FILE_TEST_IS_DIR) &&
			    !g_file_test(sub, G_FILE_TEST_IS_SYMLINK))
				ftl_output_staging_remove(sub);
			else
				g_unlink(sub);
		}
	}
	g_rmdir(dir);
}
