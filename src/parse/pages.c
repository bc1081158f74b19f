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

#include <stdarg.h>
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
	gint next_off;	   /* where the next record may start: past the last one */
	gboolean old_format;
	/* the page's walk goes wrong after the record at data offset halt
	 * (pages_walk): reading stops there, and says why_halt; -1: no stop */
	gint64 halt;
	gboolean halted;
	char why_halt[96];
	gint64 walk_last; /* pages_walk(): the last record of a sound page, -1: none */
	gint64 halt_prev; /* ... of a page that goes back: the record before halt */
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
	pg->old_format = old_format;
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

/* Where kbuffer goes from the header at cur of a page's data (its
 * translate_data(): a padding's length is its 32-bit word, a type-0
 * record's its word less 4, rounded up to 4; the offsets are 32-bit), and
 * the header's type. cur lies within the committed bytes; the word after
 * the header may lie in the FTL_PAGES_SLACK bytes past the page, where
 * kbuffer reads it too. */
static guint32 pages_step(const FtlPages *pg, const guchar *data, guint32 cur, guint *type)
{
	guint32 hdr = (guint32)pages_read_num(pg, data + cur, 4);
	*type = pg->big_endian ? hdr >> 27 : hdr & 31;
	guint32 word = (guint32)pages_read_num(pg, data + cur + 4, 4);
	if (*type == 0)
		return cur + 8 + ((word - 4 + 3) & ~3u);
	if (*type <= 28)
		return cur + 4 + *type * 4;
	if (*type == 29)
		return cur + 4 + word;
	return cur + 8; /* a time stamp */
}

/* Whether kbuffer_next_event(), arriving at pos, ends: past paddings and
 * time stamps it reaches a record or the end of the data, or else it goes
 * round for ever. */
static gboolean pages_chain_ends(const FtlPages *pg, const guchar *data, guint32 size, guint32 pos)
{
	/* more steps than headers fit in the page: round and round */
	for (guint32 steps = 0; steps <= size / 4 + 1; steps++) {
		guint type;
		if (pos >= size)
			return TRUE;
		guint32 next = pages_step(pg, data, pos, &type);
		if (type <= 28)
			return TRUE;
		pos = next;
	}
	return FALSE;
}

/* Walks the headers of the page's size data bytes as kbuffer will and
 * finds the first step that does not go forward, which kbuffer follows:
 * landing on a record it reads the page again, and when paddings and time
 * stamps take it round, it loops inside kbuffer_next_event() for ever.
 * Sets pg->halt to the last record to read before that step (the stepping
 * record itself when it is a record), -1 when the page is sound; FALSE
 * when no record comes before the step. pg->halt_prev is the last record
 * kbuffer may step past (libtracecmd's reader steps past each record it
 * returns): halt itself when the step's chain ends, else the record before
 * it. The old format's paddings end the page and only records step back:
 * ftl_pages_next()'s order check is enough there. */
static gboolean pages_walk(FtlPages *pg, const guchar *data, guint32 size)
{
	pg->halt = pg->halt_prev = -1;
	pg->halted = FALSE;
	pg->walk_last = -1;
	if (pg->old_format)
		return TRUE;
	gint64 last = -1, prev = -1; /* the last record met, the one before it */
	for (guint32 cur = 0; cur < size;) {
		guint type;
		guint32 next = pages_step(pg, data, cur, &type);
		if (next <= cur) { /* a time stamp always steps 8 */
			pg->halt = type <= 28 ? (gint64)cur : last;
			if (pages_chain_ends(pg, data, size, next))
				pg->halt_prev = pg->halt;
			else
				pg->halt_prev = type <= 28 ? last : prev;
			g_snprintf(pg->why_halt, sizeof pg->why_halt,
				   "the %s at data offset %u leads back to %u",
				   type <= 28 ? "event" : "padding", cur, next);
			return pg->halt >= 0;
		}
		if (type <= 28) {
			prev = last;
			last = cur;
		}
		cur = next;
	}
	pg->walk_last = last;
	return TRUE;
}

/* The data bytes page's commit word says it holds (its flag bits off). */
static guint64 pages_commit_size(const FtlPages *pg, const guchar *page)
{
	return pages_read_num(pg, page + 8, pg->commit_size) & PAGES_COMMIT_MASK;
}

gboolean ftl_pages_check(FtlPages *pg, const guchar *page, gint64 *last, char *why, gsize why_len)
{
	*why = 0;
	guint64 size = MIN(pages_commit_size(pg, page), (guint64)(pg->page_size - pg->data_off));
	if (pages_walk(pg, page + pg->data_off, (guint32)size) && pg->halt < 0) {
		*last = pg->walk_last;
		return TRUE;
	}
	*last = pg->halt_prev;
	g_snprintf(why, why_len, "%s", pg->why_halt);
	return FALSE;
}

FtlPageStatus ftl_pages_load(FtlPages *pg, const guchar *page, char *why, gsize why_len)
{
	pg->committed = 0;
	pg->missed = 0;
	guint64 size = pages_commit_size(pg, page);
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
	if (!pages_walk(pg, page + pg->data_off, (guint32)size)) {
		g_snprintf(why, why_len, "%s; the page is skipped", pg->why_halt);
		return FTL_PAGE_BAD;
	}
	/* kbuffer takes a non-const page but only reads it */
	/* VALIDATED: the commit size is checked against the page above, its walk
	 * (pages_walk: kbuffer is never asked past a step that goes back); the page
	 * has FTL_PAGES_SLACK bytes past its end for kbuffer's header reads */
	if (kbuffer_load_subbuffer(pg->kb, (void *)page) < 0) {
		g_snprintf(why, why_len, "kbuffer cannot load it");
		return FTL_PAGE_BAD;
	}
	pg->committed = (guint32)size;
	pg->next_off = 0;
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

/* Ends the loaded page early, saying why (why_len bytes) as format says,
 * followed by "; the rest of the page is skipped". FALSE. */
G_GNUC_PRINTF(4, 5)
static gboolean pages_cut(FtlPages *pg, char *why, gsize why_len, const char *format, ...)
{
	va_list ap;
	va_start(ap, format);
	g_autofree char *text = g_strdup_vprintf(format, ap);
	va_end(ap);
	g_snprintf(why, why_len, "%s; the rest of the page is skipped", text);
	pg->committed = 0;
	return FALSE;
}

gboolean ftl_pages_next(FtlPages *pg, FtlPageRecord *rec, char *why, gsize why_len)
{
	*why = 0;
	if (pg->halted) {
		pg->halted = FALSE;
		return pages_cut(pg, why, why_len, "%s", pg->why_halt);
	}
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
	if (off < 0 || csize <= 0 || esize < 0 || esize > csize ||
	    (guint64)off + (guint64)csize > pg->committed)
		return pages_cut(pg, why, why_len,
				 "event at data offset %d runs past the page's %u committed bytes",
				 off, pg->committed);
	if (off < pg->next_off)
		/* a record that steps back (its length wraps kbuffer's 32-bit
		 * offset): kbuffer reads the page again from there, for ever. The
		 * walk stops the new format's pages before; the old format's are
		 * caught here */
		return pages_cut(
			pg, why, why_len,
			"event at data offset %d lies before the end of the one read before "
			"it (%d)",
			off, pg->next_off);
	pg->next_off = off + csize;
	if (ts > (guint64)G_MAXINT64)
		return pages_cut(pg, why, why_len,
				 "event at data offset %d has timestamp %llu, beyond any clock",
				 off, ts);
	rec->ts = ts;
	rec->data = data;
	rec->size = (guint32)esize;
	rec->offset = pg->data_off + (guint32)off;
	if (off == pg->halt) {
		pg->halted = TRUE; /* the next step would not end */
		return TRUE;
	}
	/* VALIDATED: moves past a record checked above to lie within the committed bytes,
	 * never from the record before a step that goes back (pg->halt) */
	kbuffer_next_event(pg->kb, NULL);
	return TRUE;
}
