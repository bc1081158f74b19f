/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The index's policy for a trace: a single plain text file gets its cached
 * index checked and used for a window, or a new one built on the pass. */
#include "config.h"

#include "parse/text-index.h"

#include "parse/index.h"
#include "parse/open.h"
#include "parse/text.h"
#include "util/error.h"

/* Why no cached index was used: a cache that is not there yet is the
 * common case, not an error worth the file system's words. */
static const char *text_index_why(const GError *load_error)
{
	if (!load_error || g_error_matches(load_error, G_FILE_ERROR, G_FILE_ERROR_NOENT))
		return "none cached";
	return load_error->message;
}

static FtlIndexState text_index_build(FtlSource *src, const FtlIndexKey *key, FtlIndexUse use,
				      guint stride, const GError *load_error, char **why)
{
	if (use != FTL_INDEX_USE_BUILD && key->size < FTL_INDEX_AUTO_MIN) {
		*why = g_strdup_printf("'%s': no index (%s) and none built below %" G_GUINT64_FORMAT
				       " MiB",
				       src->path, text_index_why(load_error),
				       FTL_INDEX_AUTO_MIN >> 20);
		return FTL_INDEX_NONE;
	}
	if (!ftl_text_source_decodes_all(src)) {
		*why = g_strdup_printf("'%s': no index (%s) and none built by a command that "
				       "leaves task names undecoded",
				       src->path, text_index_why(load_error));
		return FTL_INDEX_NONE;
	}
	ftl_text_source_build_index(src, key, stride ? stride : FTL_INDEX_STRIDE);
	*why = g_strdup_printf("'%s': building the index (%s)", src->path,
			       text_index_why(load_error));
	return FTL_INDEX_BUILDING;
}

/* A window that stops at a point is read once to its stop before the pass
 * does, by a source of its own that gives nothing to anyone: the stop point's
 * event count and CPU state are checked against what the lines between gave
 * (text.c's stop check, which removes a cache that fails it) before the
 * first event of the window reaches a consumer, so a forged point costs a
 * full read, never a partial output and an error. A window is a few
 * chunks of the file: parsing it twice is the price of that. The index is
 * copied (serialized and parsed again, against the same key): the caller
 * keeps its own for the real seek. */
static gboolean text_index_verify(FtlTrace *trace, const FtlIndex *idx, gint start, gint stop,
				  GError **error)
{
	FtlSource *src = ftl_trace_source(trace, 0);
	g_autoptr(GBytes) bytes = ftl_index_serialize(idx);
	gsize len;
	const guchar *data = g_bytes_get_data(bytes, &len);
	FtlIndex *copy = ftl_index_parse(data, len, ftl_index_key(idx), error);
	if (!copy)
		return FALSE;
	g_autoptr(FtlTrace) check =
		ftl_trace_open_with(src->path, ftl_trace_flags(trace),
				    ftl_trace_read_options(trace), error);
	FtlSource *cs = check && ftl_trace_n_sources(check) == 1 ? ftl_trace_source(check, 0)
								 : NULL;
	if (!cs || !ftl_text_source_is(cs)) {
		ftl_index_free(copy);
		if (check)
			g_set_error(error, FTL_ERROR, FTL_ERROR_FORMAT,
				    "'%s': changed while it was read", src->path);
		return FALSE;
	}
	if (!ftl_text_source_seek_index(cs, copy, start, stop, error))
		return FALSE;
	const FtlEvent *ev;
	FtlStatus st;
	while ((st = cs->ops->next(cs, &ev, error)) == FTL_STATUS_OK)
		;
	return st == FTL_STATUS_EOF;
}

/* keep: a fresh index that the window does not use stays with the source
 * for a seek to an event number (ftl_trace_seek_event()). */
static FtlIndexState text_index_attach(FtlTrace *trace, gint64 t_start, gint64 t_end,
				       FtlIndexUse use, guint stride, gboolean keep, char **why)
{
	g_autofree char *local = NULL;
	if (!why)
		why = &local;
	*why = NULL;
	if (use == FTL_INDEX_USE_OFF || ftl_trace_n_sources(trace) != 1 ||
	    (ftl_trace_flags(trace) & FTL_OPEN_STRICT))
		return FTL_INDEX_NONE;
	FtlSource *src = ftl_trace_source(trace, 0);
	FtlIndexKey key;
	if (!ftl_text_source_is(src) || !ftl_text_source_index_key(src, &key))
		return FTL_INDEX_NONE;
	g_autoptr(GError) err = NULL;
	g_autoptr(FtlIndex) idx = ftl_index_load(src->path, &key, &err);
	if (!idx)
		return text_index_build(src, &key, use, stride, err, why);
	gint start, stop;
	ftl_index_window(idx, t_start, t_end, &start, &stop);
	if (start < 0 && stop < 0) {
		*why = g_strdup_printf("'%s': index fresh; the window needs all of the file",
				       src->path);
		if (keep)
			ftl_text_source_keep_index(src, g_steal_pointer(&idx));
		return FTL_INDEX_FRESH;
	}
	if (stop >= 0 && !text_index_verify(trace, idx, start, stop, &err)) {
		*why = g_strdup_printf("%s; reading it all", err->message);
		return FTL_INDEX_REFUSED;
	}
	guint64 from = start < 0 ? 0 : ftl_index_point(idx, (guint)start)->offset;
	guint64 to = stop < 0 ? key.size : ftl_index_point(idx, (guint)stop)->offset;
	char *msg = g_strdup_printf("'%s': index: reading bytes %" G_GUINT64_FORMAT
				    "..%" G_GUINT64_FORMAT " of %" G_GUINT64_FORMAT,
				    src->path, from, to, key.size);
	if (!ftl_text_source_seek_index(src, g_steal_pointer(&idx), start, stop, &err)) {
		g_free(msg);
		*why = g_strdup_printf("%s; reading it all", err->message);
		return FTL_INDEX_REFUSED;
	}
	*why = msg;
	return FTL_INDEX_SEEKED;
}

FtlIndexState ftl_text_index_attach(FtlTrace *trace, gint64 t_start, gint64 t_end, FtlIndexUse use,
				    guint stride, char **why)
{
	return text_index_attach(trace, t_start, t_end, use, stride, FALSE, why);
}

FtlIndexState ftl_text_index_attach_seekable(FtlTrace *trace, FtlIndexUse use, guint stride,
					     char **why)
{
	return text_index_attach(trace, FTL_TS_NONE, FTL_TS_NONE, use, stride, TRUE, why);
}
