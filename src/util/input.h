/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Input files as one read-only byte range: plain files are mapped, gzip and zstd
 * streams are inflated once into an anonymous temporary file that is mapped. */
#pragma once

#include <glib.h>

typedef enum {
	FTL_COMPRESSION_NONE,
	FTL_COMPRESSION_GZIP,
	FTL_COMPRESSION_ZSTD,
} FtlCompression;

typedef struct {
	char *path;	  /* as given by the user */
	const char *data; /* mapped bytes; NULL when size == 0 */
	gsize size;
	FtlCompression compression;
	/* private */
	gsize map_size;
	gsize released; /* bytes already handed back by ftl_input_release() */
	gpointer owned; /* memory input: the buffer to g_free() */
} FtlInput;

/* Opens and maps path ("-" reads standard input). Free with ftl_input_free();
 * data stays valid until then. Errors name the path. */
FtlInput *ftl_input_open(const char *path, GError **error);
void ftl_input_free(FtlInput *in);
/* An input over text made in memory (e.g. a trace recovered from a console
 * log): takes ownership of data (g_malloc'd, size bytes); label names it in
 * messages. Free with ftl_input_free(). */
FtlInput *ftl_input_new_from_memory(const char *label, char *data, gsize size);
/* Tells the kernel that bytes before offset will not be read soon: their pages
 * leave the resident set (they are read back from the file if touched again,
 * so borrowed slices stay valid). Keeps memory flat on multi-GB inputs. */
void ftl_input_release(FtlInput *in, gsize offset);
const char *ftl_compression_name(FtlCompression c);

G_DEFINE_AUTOPTR_CLEANUP_FUNC(FtlInput, ftl_input_free)
