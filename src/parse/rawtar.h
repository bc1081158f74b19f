/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A raw capture in a tar archive (plain, gzip, zstd, xz...), as
 * `ftlens capture-script` writes it: read through libarchive, member by
 * member, without extracting anything by name. */
#pragma once

#include "model/trace.h"

/* TRUE when head, the first n bytes of an input (after decompression), is
 * a tar archive's first header. */
gboolean ftl_rawtar_sniff(const char *head, gsize n);

/* Adds one source per CPU of the capture in the tar at path ("-": standard
 * input, when it is a file or was spooled to one). Page files go to
 * unlinked temporary files within --max-expand; the formats, the stats and
 * the other texts are read into memory, each within a bound. Members
 * outside the capture's layout, links, devices and names with ".." are
 * skipped. FALSE with an error naming the archive and the member when it
 * cannot be read. */
gboolean ftl_rawtar_open(FtlTrace *trace, const char *path, GError **error);
