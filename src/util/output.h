/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The one output writer: every file ftlens writes appears whole or not at
 * all.
 *
 * Data goes to a temp file beside the target (same directory, so the
 * rename cannot cross file systems); ftl_output_commit() flushes, fsyncs
 * and names it: a new target in one step (an O_TMPFILE linked there), an
 * existing one replaced atomically (linked under a hidden name, renamed
 * over it). Any failure, and freeing an output that was not committed,
 * removes the temp file; so does SIGINT, SIGTERM or SIGHUP arriving while
 * the program keeps the default action for it (the capture commands
 * install their own handlers and commit or free in normal flow). A write
 * error is sticky: it is reported by close/commit, with the path. "-" is
 * standard output, written in place. */
#pragma once

#include <glib.h>
#include <signal.h>
#include <stdio.h>

typedef struct _FtlOutput FtlOutput;

/* Opens path for writing (created with mode 0666 under the umask, or the
 * mode of the file it replaces). inputs (NULL-terminated, may be NULL)
 * are the files the command reads: a path naming one of them (the same
 * file, whatever the name) is refused. Free with ftl_output_free(). */
FtlOutput *ftl_output_open(const char *path, const char *const *inputs, GError **error);

/* The same, with the temp file made in stage, a directory that exists on
 * the file system path will be on (an ancestor of path's directory), for a
 * writer that creates path's directory only at the commit: a process
 * killed before it leaves no empty directory behind. path's directory must
 * exist when ftl_output_commit() is called. stage NULL: path's directory. */
FtlOutput *ftl_output_open_staged(const char *path, const char *stage, const char *const *inputs,
				  GError **error);

/* The stream to write to; borrowed, valid until close or free. */
FILE *ftl_output_stream(FtlOutput *o);

/* The target path as given. */
const char *ftl_output_path(const FtlOutput *o);

/* Flushes, fsyncs and closes the temp file; FALSE with error when any write
 * failed. Several outputs can be closed first and committed after, so that
 * a failure leaves every target as it was. */
gboolean ftl_output_close(FtlOutput *o, GError **error);

/* Closes (when not yet closed) and renames the temp file over the target.
 * FALSE with error on failure; the temp file is gone then. */
gboolean ftl_output_commit(FtlOutput *o, GError **error);

/* ftl_output_commit(), the file named path instead of the path it was
 * opened for: a file of a tree built under a hidden name and renamed into
 * place whole (path is on the temp file's file system). Errors name path. */
gboolean ftl_output_commit_at(FtlOutput *o, const char *path, GError **error);

/* fsyncs directory dir, so that a name made or renamed in it lasts (a
 * failure is not told: the name is there, only maybe not yet on disk). */
void ftl_output_sync_dir(const char *dir);

/* Blocks the stop signals the writer handles (SIGINT, SIGTERM, SIGHUP),
 * for a commit of several files a signal must not cut in two; they are
 * taken when sigprocmask(SIG_SETMASK, old, NULL) restores the mask. */
void ftl_output_block_stops(sigset_t *old);

/* Removes the temp file unless committed, and frees o. NULL is fine. */
void ftl_output_free(FtlOutput *o);

G_DEFINE_AUTOPTR_CLEANUP_FUNC(FtlOutput, ftl_output_free)

/* Unlinks every temp file not yet committed; async-signal-safe, for a
 * signal handler of ftlens's own that ends the process (the pager's: the
 * writer's own handlers stand aside when another is installed). */
void ftl_output_remove_pending(void);

/* Writes data[0..len) to path in one go, as open + write + commit. */
gboolean ftl_output_write_all(const char *path, const char *const *inputs, const void *data,
			      gsize len, GError **error);

/* ---- staging directories ------------------------------------------------- */

/* A new hidden directory beside path (".NAME.ftlens-PID-XXXXXX"), where a
 * writer of a directory (record, split) builds it before renaming it to
 * path, or keeps what a writer of path needs until then. Free with g_free()
 * after ftl_output_staging_remove(). */
char *ftl_output_staging_new(const char *path, GError **error);
/* Removes the staging directories and temp files (".NAME.ftlens-PID-x")
 * beside path that writers killed by SIGKILL left: their PID gone,
 * directories and regular files (not symlinks) of this user; a line per
 * one removed goes to notes. ftl_output_open() does it for its path. */
void ftl_output_staging_sweep(const char *path, GString *notes);
/* Removes a staging directory and everything in it. */
void ftl_output_staging_remove(const char *dir);

/* TRUE when a and b name the same existing file. */
gboolean ftl_output_same_file(const char *a, const char *b);
