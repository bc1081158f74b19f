/* SPDX-License-Identifier: GPL-2.0-or-later */
/* tracefs access for the capture layer: the directory, file reads and writes
 * with errors that name the file, and putting changed settings back. */
#include "config.h"

#include "capture/tracefs.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <tracefs.h>

#include "util/error.h"
#include "util/fdio.h"
#include "util/tracefs-text.h"

const char *ftl_tracefs_dir(GError **error)
{
	const char *dir = tracefs_tracing_dir();
	if (!dir) {
		g_set_error(error, FTL_ERROR, FTL_ERROR_IO,
			    "cannot find tracefs: it is not mounted, and mounting it at "
			    "/sys/kernel/tracing (or debugfs at /sys/kernel/debug) failed; "
			    "as root: mount -t tracefs nodev /sys/kernel/tracing");
		return NULL;
	}
	g_autofree char *probe = g_build_filename(dir, "tracing_on", NULL);
	if (access(probe, F_OK) != 0) {
		g_set_error(error, FTL_ERROR, FTL_ERROR_IO,
			    "'%s' is not a tracing directory (no tracing_on): is this kernel "
			    "built with CONFIG_FTRACE?",
			    dir);
		return NULL;
	}
	return dir;
}

char *ftl_tracefs_read(const char *path, GError **error)
{
	/* g_file_get_contents() stats for the size, which tracefs reports as 0. */
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		int e = errno;
		g_set_error(error, FTL_ERROR, FTL_ERROR_IO, "'%s': %s", path, g_strerror(e));
		return NULL;
	}
	GString *s = g_string_new(NULL);
	char buf[8192];
	for (;;) {
		gssize n = ftl_fd_read(fd, buf, sizeof buf);
		if (n < 0) {
			int e = errno;
			close(fd);
			g_string_free(s, TRUE);
			g_set_error(error, FTL_ERROR, FTL_ERROR_IO, "'%s': read: %s", path,
				    g_strerror(e));
			return NULL;
		}
		if (n == 0)
			break;
		g_string_append_len(s, buf, n);
	}
	close(fd);
	return g_string_free(s, FALSE);
}

int ftl_tracefs_write_errno(const char *path, const char *value, gboolean append)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC | (append ? O_APPEND : O_TRUNC));
	if (fd < 0)
		return errno;
	/* one write(): the kernel takes each as a whole command */
	gsize len = strlen(value);
	gssize n = ftl_fd_write(fd, value, len);
	int e = n < 0 ? errno : (gsize)n != len ? EIO : 0;
	close(fd);
	return e;
}

gboolean ftl_tracefs_write(const char *path, const char *value, gboolean append, GError **error)
{
	int e = ftl_tracefs_write_errno(path, value, append);
	if (e) {
		g_autofree char *shown = g_strescape(value, NULL);
		g_set_error(error, FTL_ERROR, FTL_ERROR_IO, "'%s': writing '%s': %s", path, shown,
			    g_strerror(e));
		return FALSE;
	}
	return TRUE;
}

gboolean ftl_tracefs_copy(const char *src, const char *dst, GError **error)
{
	int in = open(src, O_RDONLY | O_CLOEXEC);
	if (in < 0) {
		int e = errno;
		g_set_error(error, FTL_ERROR, FTL_ERROR_IO, "'%s': %s", src, g_strerror(e));
		return FALSE;
	}
	int out = open(dst, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (out < 0) {
		int e = errno;
		close(in);
		g_set_error(error, FTL_ERROR, FTL_ERROR_IO, "'%s': %s", dst, g_strerror(e));
		return FALSE;
	}
	char buf[65536];
	gboolean ok = TRUE;
	for (;;) {
		gssize n = ftl_fd_read(in, buf, sizeof buf);
		if (n < 0) {
			int e = errno;
			g_set_error(error, FTL_ERROR, FTL_ERROR_IO, "'%s': read: %s", src,
				    g_strerror(e));
			ok = FALSE;
			break;
		}
		if (n == 0)
			break;
		int e = ftl_fd_write_all(out, buf, (gsize)n, -1);
		if (e) {
			g_set_error(error, FTL_ERROR, FTL_ERROR_IO, "'%s': write: %s", dst,
				    g_strerror(e));
			ok = FALSE;
			break;
		}
	}
	close(in);
	if (close(out) != 0 && ok) {
		int e = errno;
		g_set_error(error, FTL_ERROR, FTL_ERROR_IO, "'%s': close: %s", dst, g_strerror(e));
		ok = FALSE;
	}
	return ok;
}


/* ---- settings to put back ---------------------------------------------- */

typedef struct {
	char *path;
	FtlSaveKind kind;
	char *text;	  /* saved content */
	gboolean is_undo; /* text is written (appended) as it is */
} SaveEntry;

struct _FtlTracefsSave {
	GArray *entries; /* SaveEntry, oldest first */
};

static void save_entry_clear(gpointer p)
{
	SaveEntry *e = p;
	g_free(e->path);
	g_free(e->text);
}

FtlTracefsSave *ftl_tracefs_save_new(void)
{
	FtlTracefsSave *s = g_new0(FtlTracefsSave, 1);
	s->entries = g_array_new(FALSE, TRUE, sizeof(SaveEntry));
	g_array_set_clear_func(s->entries, save_entry_clear);
	return s;
}

void ftl_tracefs_save_free(FtlTracefsSave *s)
{
	if (!s)
		return;
	g_array_unref(s->entries);
	g_free(s);
}

gboolean ftl_tracefs_save_file(FtlTracefsSave *s, const char *path, FtlSaveKind kind,
			       GError **error)
{
	for (guint i = 0; i < s->entries->len; i++) {
		SaveEntry *e = &g_array_index(s->entries, SaveEntry, i);
		if (!e->is_undo && strcmp(e->path, path) == 0)
			return TRUE;
	}
	char *text = ftl_tracefs_read(path, error);
	if (!text)
		return FALSE;
	SaveEntry e = { g_strdup(path), kind, text, FALSE };
	g_array_append_val(s->entries, e);
	return TRUE;
}

void ftl_tracefs_save_undo(FtlTracefsSave *s, const char *path, const char *undo)
{
	SaveEntry e = { g_strdup(path), FTL_SAVE_VALUE, g_strdup(undo), TRUE };
	g_array_append_val(s->entries, e);
}

/* Writes one saved entry back; 0 or errno. */
static int save_entry_restore(const SaveEntry *e)
{
	if (e->is_undo)
		return ftl_tracefs_write_errno(e->path, e->text, TRUE);
	switch (e->kind) {
	case FTL_SAVE_VALUE: {
		g_autofree char *v = g_strstrip(g_strdup(e->text));
		/* "1*" marks a soft-enabled event: the star is not writable. */
		gsize n = strlen(v);
		if (n && v[n - 1] == '*')
			v[n - 1] = '\0';
		return ftl_tracefs_write_errno(e->path, v, FALSE);
	}
	case FTL_SAVE_CLOCK: {
		g_autofree char *clock = ftl_trace_clock_selected(e->text);
		return clock ? ftl_tracefs_write_errno(e->path, clock, FALSE) : 0;
	}
	case FTL_SAVE_SIZE: {
		/* An unexpanded buffer reads "7 (expanded: 1408)": 1408 is what it
		 * becomes on first use, and writing 7 would make it 7 KB. */
		guint64 kb = ftl_buffer_size_kb_parse(e->text);
		if (!kb)
			return 0; /* "X": per-CPU sizes differ; nothing sane to write */
		g_autofree char *v = g_strdup_printf("%" G_GUINT64_FORMAT, kb);
		return ftl_tracefs_write_errno(e->path, v, FALSE);
	}
	case FTL_SAVE_FILTER: {
		g_autofree char *v = g_strstrip(g_strdup(e->text));
		return ftl_tracefs_write_errno(e->path, strcmp(v, "none") == 0 ? "0" : v, FALSE);
	}
	case FTL_SAVE_LINES: {
		int err = ftl_tracefs_write_errno(e->path, "", FALSE);
		if (err)
			return err;
		g_auto(GStrv) lines = g_strsplit(e->text, "\n", -1);
		for (char **l = lines; *l; l++) {
			g_strstrip(*l);
			if (!**l || **l == '#')
				continue;
			err = ftl_tracefs_write_errno(e->path, *l, TRUE);
			if (err)
				return err;
		}
		return 0;
	}
	}
	return 0;
}

gboolean ftl_tracefs_save_restore(FtlTracefsSave *s, GError **error)
{
	gboolean ok = TRUE;
	for (guint i = s->entries->len; i-- > 0;) {
		const SaveEntry *e = &g_array_index(s->entries, SaveEntry, i);
		int err = save_entry_restore(e);
		if (err && ok) {
			g_set_error(error, FTL_ERROR, FTL_ERROR_IO, "restoring '%s': %s", e->path,
				    g_strerror(err));
			ok = FALSE;
		}
	}
	g_array_set_size(s->entries, 0);
	return ok;
}

/* ---- statistics ---------------------------------------------------------- */

