/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Inputs as one read-only byte range, for readers that need random access:
 * plain files are mapped (a file cut short while mapped reads as zeros and
 * is reported, never a SIGBUS); compressed files, pipes and devices are
 * expanded into an unlinked temporary file first, up to --max-expand bytes
 * and never past the free space. Front-to-back readers use util/stream.h. */
#pragma once

#include <glib.h>

#include "util/stream.h"

typedef struct {
	char *path;	  /* as given by the user */
	const char *data; /* mapped bytes; NULL when size == 0 */
	gsize size;
	FtlCompression compression;
	/* private */
	gsize map_size;
	gsize released; /* bytes already handed back by ftl_input_release() */
	gpointer owned; /* memory input: the buffer to g_free() */
	gint guard;	/* slot of the mapping in the SIGBUS guard, -1 if none */
} FtlInput;

/* What an expanded copy may take by default: 4 GiB. */
#define FTL_INPUT_MAX_EXPAND_DEFAULT ((guint64)4 << 30)

/* How inputs are read: given by whoever opens them (the command line's -j
 * and --max-expand, through the door of parse/inputs.h), never a setting
 * of the process. NULL or zero members: the defaults. */
typedef struct {
	guint threads;	    /* a text reader's parse threads; 0: one per online CPU */
	guint64 max_expand; /* disk an expanded copy (compressed file, pipe, device) may
			     * take; 0: FTL_INPUT_MAX_EXPAND_DEFAULT */
	guint skip;	    /* FtlEventFields (model/event.h) no consumer reads: a
			     * reader may leave them undecoded; 0: decode all */
	guint eager;	    /* FtlEventFields the consumer reads of every event at
			     * once (FTL_FIELD_TEXT: a reader may render each
			     * payload ahead, on its worker threads) */
} FtlReadOptions;

guint ftl_read_threads(const FtlReadOptions *ro);
guint64 ftl_read_max_expand(const FtlReadOptions *ro);

/* Opens and maps path ("-" reads standard input). Free with ftl_input_free();
 * data stays valid until then. Errors name the path. */
FtlInput *ftl_input_open(const char *path, const FtlReadOptions *ro, GError **error);
void ftl_input_free(FtlInput *in);
/* Gives up to len bytes into buf: the count, 0 at the end, -1 with error. */
typedef gssize (*FtlInputReadFunc)(gpointer data, void *buf, gsize len, GError **error);
/* The bytes read gives (a member of an archive, say), copied into an
 * unlinked temporary file within --max-expand and the free space, and
 * mapped; label names it in messages. Free with ftl_input_free(). */
FtlInput *ftl_input_new_from_reader(const char *label, FtlInputReadFunc read, gpointer data,
				    const FtlReadOptions *ro, GError **error);
/* Makes standard input readable more than once, for commands that look at
 * "-" before they read it: a pipe or device is copied (expanded, within
 * --max-expand) into an unlinked temporary file that becomes fd 0. A regular
 * file is left as it is. Each later open of "-" starts at the beginning. */
gboolean ftl_input_spool_stdin(const FtlReadOptions *ro, GError **error);
/* An input over text made in memory (e.g. a trace recovered from a console
 * log): takes ownership of data (g_malloc'd, size bytes); label names it in
 * messages. Free with ftl_input_free(). */
FtlInput *ftl_input_new_from_memory(const char *label, char *data, gsize size);
/* Tells the kernel that bytes before offset will not be read soon: their pages
 * leave the resident set (they are read back from the file if touched again,
 * so borrowed slices stay valid). Keeps memory flat on multi-GB inputs. */
void ftl_input_release(FtlInput *in, gsize offset);
/* FALSE with an error naming the file when it shrank while mapped: the bytes
 * past its new end read as zeros. */
gboolean ftl_input_check(const FtlInput *in, GError **error);
/* Parses a size such as 4G, 512M, 100000 (K, M, G, T: powers of 1024). */
gboolean ftl_input_parse_size(const char *text, guint64 *bytes);

G_DEFINE_AUTOPTR_CLEANUP_FUNC(FtlInput, ftl_input_free)
