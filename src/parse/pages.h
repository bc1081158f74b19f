/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Ring-buffer pages into records, through libtraceevent's kbuffer, with
 * every length checked against the page: shared by the raw page reader and
 * the trace.dat reader. Private to parse/. */
#pragma once

#include <glib.h>

/* Readable bytes a caller keeps after every page it loads: kbuffer may read
 * an event header word just past a damaged page's commit before the checks
 * here see it. */
#define FTL_PAGES_SLACK 64

typedef struct _FtlPages FtlPages;

typedef struct {
	guint64 ts;
	const guchar *data; /* the event's payload, inside the loaded page */
	guint32 size;	    /* its bytes, within the page's commit */
	guint32 offset;	    /* of the event's header, from the start of the page */
} FtlPageRecord;

typedef enum {
	FTL_PAGE_OK,
	FTL_PAGE_EMPTY, /* no data: a reader's padding */
	FTL_PAGE_BAD,	/* damaged: why says how; skip it */
} FtlPageStatus;

/* commit_size: the size of header_page's commit field (4 or 8, the kernel's
 * long); old_format: kernels before the time-extend rework (tep's
 * tep_is_old_format()). NULL when kbuffer cannot be had. Free with
 * ftl_pages_free(). */
FtlPages *ftl_pages_new(guint commit_size, gboolean big_endian, guint32 page_size,
			gboolean old_format);
void ftl_pages_free(FtlPages *pg);
/* Where a page's data starts (after its timestamp and commit). */
guint32 ftl_pages_data_offset(const FtlPages *pg);

/* Loads page (page_size bytes, FTL_PAGES_SLACK readable bytes after it),
 * which stays borrowed until the next load. On FTL_PAGE_BAD, why (of
 * why_len bytes) says what is wrong. */
FtlPageStatus ftl_pages_load(FtlPages *pg, const guchar *page, char *why, gsize why_len);
/* The loaded page's timestamp. */
guint64 ftl_pages_timestamp(const FtlPages *pg);
/* Events lost before the loaded page: 0 none, -1 lost but not counted. */
gint64 ftl_pages_missed(const FtlPages *pg);
/* The next record of the loaded page. FALSE at its end; FALSE with *why
 * set (nonempty) when damage ends the page early. */
gboolean ftl_pages_next(FtlPages *pg, FtlPageRecord *rec, char *why, gsize why_len);

/* For a reader that gives pages to kbuffer itself (libtracecmd's, which
 * steps kbuffer past each record as it reads it): page (page_size bytes,
 * FTL_PAGES_SLACK readable bytes after it)
 * walked as ftl_pages_load() walks it, whose step that goes back would loop
 * kbuffer for ever. TRUE when kbuffer may read all of it, *last its last
 * record's data offset (-1: none). FALSE, with why (of why_len bytes)
 * saying where, when the reader must stop after the record at data offset
 * *last, the last one whose step is sound (-1: after the records of the
 * pages before). */
gboolean ftl_pages_check(FtlPages *pg, const guchar *page, gint64 *last, char *why, gsize why_len);

G_DEFINE_AUTOPTR_CLEANUP_FUNC(FtlPages, ftl_pages_free)
