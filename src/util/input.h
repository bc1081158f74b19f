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
	char *path;            /* as given by the user */
	const char *data;      /* mapped bytes; NULL when size == 0 */
	gsize size;
	FtlCompression compression;
	/* private */
	gsize map_size;
} FtlInput;

/* Opens and maps path ("-" reads standard input). Free with ftl_input_free();
 * data stays valid until then. Errors name the path. */
FtlInput *ftl_input_open(const char *path, GError **error);
void ftl_input_free(FtlInput *in);
const char *ftl_compression_name(FtlCompression c);

G_DEFINE_AUTOPTR_CLEANUP_FUNC(FtlInput, ftl_input_free)
