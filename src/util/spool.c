/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The spool: per-key buffers flushed as blocks to an unlinked temp file. */
#include "config.h"

#include "util/spool.h"

#include <errno.h>
#include <glib/gstdio.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "util/error.h"
#include "util/fdio.h"

#define SPOOL_BLOCK 8192

typedef struct {
	char *buf;     /* SPOOL_BLOCK bytes, allocated on first use */
	gsize used;
	GArray *blocks; /* gint64 file offsets of full blocks */
	guint64 count;
} SpoolKey;

struct _FtlSpool {
	gsize rec;
	gsize per_block; /* records per block */
	int fd;
	gint64 end;
	GArray *keys; /* SpoolKey */
	gboolean failed;
};

FtlSpool *ftl_spool_new(gsize record_size, GError **error)
{
	g_return_val_if_fail(record_size > 0 && record_size <= 1024, NULL);
	g_autofree char *path = NULL;
	GError *local = NULL;
	int fd = g_file_open_tmp("ftlens-spool-XXXXXX", &path, &local);
	if (fd < 0) {
		g_set_error(error, FTL_ERROR, FTL_ERROR_IO, "cannot make a temporary file: %s",
			    local->message);
		g_error_free(local);
		return NULL;
	}
	g_unlink(path); /* gone when closed, whatever happens */
	FtlSpool *s = g_new0(FtlSpool, 1);
	s->rec = record_size;
	s->per_block = SPOOL_BLOCK / record_size;
	s->fd = fd;
	s->keys = g_array_new(FALSE, TRUE, sizeof(SpoolKey));
	return s;
}

void ftl_spool_free(FtlSpool *s)
{
	if (!s)
		return;
	for (guint i = 0; i < s->keys->len; i++) {
		SpoolKey *k = &g_array_index(s->keys, SpoolKey, i);
		g_free(k->buf);
		if (k->blocks)
			g_array_unref(k->blocks);
	}
	g_array_unref(s->keys);
	close(s->fd);
	g_free(s);
}

static gboolean spool_fail(FtlSpool *s, GError **error, const char *what, int err)
{
	s->failed = TRUE;
	g_set_error(error, FTL_ERROR, FTL_ERROR_IO, "temporary file: %s: %s", what,
		    g_strerror(err));
	return FALSE;
}

gboolean ftl_spool_add(FtlSpool *s, guint key, const void *record, GError **error)
{
	if (s->failed)
		return spool_fail(s, error, "an earlier write failed", EIO);
	if (key >= s->keys->len)
		g_array_set_size(s->keys, key + 1);
	SpoolKey *k = &g_array_index(s->keys, SpoolKey, key);
	if (!k->buf) {
		k->buf = g_malloc(s->per_block * s->rec);
		k->blocks = g_array_new(FALSE, FALSE, sizeof(gint64));
	}
	memcpy(k->buf + k->used * s->rec, record, s->rec);
	k->count++;
	if (++k->used < s->per_block)
		return TRUE;
	gsize len = s->per_block * s->rec;
	int err = ftl_fd_write_all(s->fd, k->buf, len, s->end);
	if (err)
		return spool_fail(s, error, "write", err);
	g_array_append_val(k->blocks, s->end);
	s->end += (gint64)len;
	k->used = 0;
	return TRUE;
}

guint64 ftl_spool_count(const FtlSpool *s, guint key)
{
	return key < s->keys->len ? g_array_index(s->keys, SpoolKey, key).count : 0;
}

gboolean ftl_spool_read(FtlSpool *s, guint key, FtlSpoolFunc func, gpointer data, GError **error)
{
	if (key >= s->keys->len)
		return TRUE;
	SpoolKey *k = &g_array_index(s->keys, SpoolKey, key);
	if (!k->buf)
		return TRUE;
	gsize len = s->per_block * s->rec;
	g_autofree char *blk = g_malloc(len);
	for (guint b = 0; b < k->blocks->len; b++) {
		int err = ftl_fd_pread_all(s->fd, blk, len, g_array_index(k->blocks, gint64, b));
		if (err)
			return spool_fail(s, error, "read", err);
		for (gsize i = 0; i < s->per_block; i++)
			if (!func(blk + i * s->rec, data))
				return TRUE;
	}
	for (gsize i = 0; i < k->used; i++)
		if (!func(k->buf + i * s->rec, data))
			return TRUE;
	return TRUE;
}
