/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Ring-buffer pages into records: kbuffer walks a page, this file makes sure
 * nothing it returns reaches past the page's committed bytes, and that a
 * timestamp fits the event model, so that damaged pages are reported and
 * skipped, never read beyond.
 *
 * Each libtraceevent call here says in a comment which of three it is
 * (as parse/tracedat.c does for libtracecmd): GUARDED, tried first in a
 * trial child (parse/trial.c), a crash there is a note here; VALIDATED,
 * made only after ftlens checked what it touches; NO FILE DATA, it reads
 * nothing that came from the input. A new call must be one of them. */
#include "config.h"

#include "parse/pages.h"

#include <stdio.h>

#include <kbuffer.h>

/* kbuffer's mask for the data size in a page's commit word; the bits above
 * carry the missed-events flags. */
#define PAGES_COMMIT_MASK ((1u << 27) - 1)

struct _FtlPages {
	struct kbuffer *kb;
	guint commit_size;
	gboolean big_endian;
	guint32 page_size;
	guint32 data_off;  /* after the timestamp and the commit word */
	guint32 committed; /* data bytes of the loaded page */
	gint64 missed;
	guint64 page_ts;
};

FtlPages *ftl_pages_new(guint commit_size, gboolean big_endian, guint32 page_size,
			gboolean old_format)
{
	if ((commit_size != 4 && commit_size != 8) || page_size <= 8 + commit_size)
		return NULL;
	struct kbuffer *kb =
		/* NO FILE DATA: sizes checked above */
		kbuffer_alloc(commit_size == 8 ? KBUFFER_LSIZE_8 : KBUFFER_LSIZE_4,
			      big_endian ? KBUFFER_ENDIAN_BIG : KBUFFER_ENDIAN_LITTLE);
	if (!kb)
		return NULL;
	if (old_format)
		/* NO FILE DATA */
		kbuffer_set_old_format(kb);
	FtlPages *pg = g_new0(FtlPages, 1);
	pg->kb = kb;
	pg->commit_size = commit_size;
	pg->big_endian = big_endian;
	pg->page_size = page_size;
	pg->data_off = 8 + commit_size;
	return pg;
}

void ftl_pages_free(FtlPages *pg)
{
	if (!pg)
		return;
	/* NO FILE DATA */
	kbuffer_free(pg->kb);
	g_free(pg);
}

guint32 ftl_pages_data_offset(const FtlPages *pg)
{
	return pg->data_off;
}

static guint64 pages_read_num(const FtlPages *pg, const guchar *p, guint n)
{
	guint64 v = 0;
	for (guint i = 0; i < n; i++)
		v = (v << 8) | p[pg->big_endian ? i : n - 1 - i];
	return v;
}

FtlPageStatus ftl_pages_load(FtlPages *pg, const guchar *page, char *why, gsize why_len)
{
	pg->committed = 0;
	pg->missed = 0;
	guint64 commit = pages_read_num(pg, page + 8, pg->commit_size);
	guint64 size = commit & PAGES_COMMIT_MASK;
	if (size == 0)
		return FTL_PAGE_EMPTY;
	if (size > pg->page_size - pg->data_off) {
		g_snprintf(why, why_len,
			   "corrupt header: commit %" G_GUINT64_FORMAT
			   " is larger than the page's %u data bytes",
			   size, pg->page_size - pg->data_off);
		return FTL_PAGE_BAD;
	}
	pg->page_ts = pages_read_num(pg, page, 8);
	if (pg->page_ts > (guint64)G_MAXINT64) {
		g_snprintf(why, why_len, "corrupt header: timestamp %" G_GUINT64_FORMAT,
			   pg->page_ts);
		return FTL_PAGE_BAD;
	}
	/* kbuffer takes a non-const page but only reads it */
	/* VALIDATED: the commit size is checked against the page above; the page has
	 * FTL_PAGES_SLACK bytes past its end for kbuffer's header reads */
	if (kbuffer_load_subbuffer(pg->kb, (void *)page) < 0) {
		g_snprintf(why, why_len, "kbuffer cannot load it");
		return FTL_PAGE_BAD;
	}
	pg->committed = (guint32)size;
	/* VALIDATED: a getter of the loaded page */
	pg->missed = kbuffer_missed_events(pg->kb);
	return FTL_PAGE_OK;
}

guint64 ftl_pages_timestamp(const FtlPages *pg)
{
	return pg->page_ts;
}

gint64 ftl_pages_missed(const FtlPages *pg)
{
	return pg->missed;
}

gboolean ftl_pages_next(FtlPages *pg, FtlPageRecord *rec, char *why, gsize why_len)
{
	*why = 0;
	if (!pg->committed)
		return FALSE;
	unsigned long long ts;
	/* VALIDATED: inside the committed bytes the load checked (plus the slack); what it
	 * returns is checked below */
	void *data = kbuffer_read_event(pg->kb, &ts);
	if (!data) {
		pg->committed = 0;
		return FALSE;
	}
	gint off = kbuffer_curr_index(pg->kb); /* from the start of the data */
	gint csize = kbuffer_curr_size(pg->kb);
	gint esize = kbuffer_event_size(pg->kb);
	if (off < 0 || csize <= 0 || esize < 0 || esize > csize || (guint64)off + (guint64)csize > pg->committed) {
		g_snprintf(why, why_len,
			   "event at data offset %d runs past the page's %u committed bytes; the "
			   "rest of the page is skipped",
			   off, pg->committed);
		pg->committed = 0;
		return FALSE;
	}
	if (ts > (guint64)G_MAXINT64) {
		g_snprintf(why, why_len,
			   "event at data offset %d has timestamp %llu, beyond any clock; the rest "
			   "of the page is skipped",
			   off, ts);
		pg->committed = 0;
		return FALSE;
	}
	rec->ts = ts;
	rec->data = data;
	rec->size = (guint32)esize;
	rec->offset = pg->data_off + (guint32)off;
	/* VALIDATED: moves past a record checked above to lie within the committed bytes */
	kbuffer_next_event(pg->kb, NULL);
	return TRUE;
}
