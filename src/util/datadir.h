/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Files ftlens ships in its data directory (the flame graph's script and
 * style): in $FTLENS_DATADIR alone when it is set; otherwise in data/
 * beside the program (a build tree), then the installed FTL_DATADIR. */
#pragma once

#include <glib.h>

/* The contents of data file name, NUL-terminated; *len (may be NULL) gets
 * its length. NULL with error naming the places looked at when it is
 * nowhere. Free with g_free(). */
char *ftl_datadir_read(const char *name, gsize *len, GError **error);
/* The path of data file name (the same places, in the same order), for a
 * file another program reads; NULL with the same error. g_free() it. */
char *ftl_datadir_find(const char *name, GError **error);
