/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A trace.dat's per-CPU pages read at memory speed: each CPU's data is cut
 * into blocks (a run of pages, or one compressed chunk), which worker
 * threads read, decompress and split into records a few blocks ahead of the
 * reader; the reader takes them in order. Memory: BLOCKS_AHEAD blocks per
 * CPU, whatever the size of the file. */
#include "config.h"

#include "parse/tracedat-stream.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <string.h>
#include <unistd.h>

#include "parse/pages.h"
#include "util/error.h"
#include "util/escape.h"
#include "util/fdio.h"
#include "util/forkgate.h"

#define BLOCK_PAGES  32u	 /* pages per block of uncompressed data */
#define BLOCKS_AHEAD 4u		 /* blocks per CPU in flight */
#define MAX_CHUNK    (64u << 20) /* a compressed chunk's claimed size, uncompressed */

typedef FtlDatChunk DatChunk;

typedef struct _DatStream DatStream;

typedef struct {
	DatStream *st;
	guint64 index; /* block number within the stream */
	guchar *data;  /* whole pages, FTL_PAGES_SLACK zeroed bytes after them */
	gsize cap;
	guchar *packed; /* compressed bytes of a chunk */
	gsize packed_cap;
	FtlPages *pages;
	GArray *recs;	/* FtlDatRecord, pointing into data */
	GString *text;	/* the records' rendered payloads, when the streams render */
	GPtrArray *bad; /* char*: what was skipped */
	gboolean ready; /* filled: under st's mutex */
} DatBlock;

struct _DatStream {
	FtlDatStreams *all;
	guint32 cpu;
	guint64 offset, size; /* in the file */
	GArray *chunks;	      /* DatChunk; NULL when stored uncompressed */
	guint64 n_pages;      /* uncompressed: whole pages */
	guint64 n_blocks;
	DatBlock *ring[BLOCKS_AHEAD]; /* block k lives in ring[k % BLOCKS_AHEAD] */
	guint64 next_fill;	      /* the next block number to hand to a worker */
	DatBlock *cur;		      /* the block the reader is in, NULL before the first */
	guint64 cur_index;
	guint pos;	     /* the reader's record within cur */
	GPtrArray *scan_bad; /* damage found while reading the chunk table */
	GMutex lock;
	GCond filled;
};

struct _FtlDatStreams {
	int fd;
	char *path;
	guint64 file_size;
	guint32 page_size;
	guint commit_size;
	gboolean big_endian, old_format;
	FtlDatCompress compress;
	FtlTepCommon common; /* where the workers read the common fields */
	GThreadPool *pool; /* NULL: blocks are filled by the reader */
	guint threads;	   /* the pool's, made at the first read */
	gboolean started;  /* the pool made, the first blocks scheduled */
	DatStream **streams;
	guint n;
	FtlDatBadFunc bad;
	gpointer bad_data;
	FtlDatRenderFunc render; /* NULL: payloads are rendered by the reader */
	gpointer render_data;
	gssize rendered; /* records the workers rendered (atomic), for the debug note */
};

/* ---- filling a block ------------------------------------------------------ */

static void block_note(DatBlock *b, const char *fmt, ...) G_GNUC_PRINTF(2, 3);
static void block_note(DatBlock *b, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	g_ptr_array_add(b->bad, g_strdup_vprintf(fmt, ap));
	va_end(ap);
}

static gboolean block_reserve(guchar **p, gsize *cap, gsize n)
{
	if (n <= *cap)
		return TRUE;
	g_free(*p);
	*p = g_try_malloc(n);
	*cap = *p ? n : 0;
	return *p != NULL;
}

/* The bytes of block b into b->data: *len bytes of whole pages, base the
 * offset of data[0] (in the file, or in the decompressed data), *in_file
 * whether base is a file offset. FALSE when nothing could be had (noted). */
static gboolean block_load(DatBlock *b, gsize *len, guint64 *base, gboolean *in_file)
{
	DatStream *st = b->st;
	FtlDatStreams *all = st->all;
	guint32 psize = all->page_size;
	if (!st->chunks) {
		guint64 first = b->index * BLOCK_PAGES;
		guint64 n = MIN((guint64)BLOCK_PAGES, st->n_pages - first);
		*len = (gsize)(n * psize);
		*base = st->offset + first * psize;
		*in_file = TRUE;
		if (!block_reserve(&b->data, &b->cap, *len + FTL_PAGES_SLACK) ||
		    ftl_fd_pread_all(all->fd, b->data, *len, (gint64)*base)) {
			block_note(b,
				   "pages %" G_GUINT64_FORMAT "..%" G_GUINT64_FORMAT
				   " (file offset %" G_GUINT64_FORMAT ") cannot be read: %s",
				   first, first + n - 1, *base, g_strerror(errno ? errno : EIO));
			return FALSE;
		}
		memset(b->data + *len, 0, FTL_PAGES_SLACK);
		return TRUE;
	}
	const DatChunk *c = &g_array_index(st->chunks, DatChunk, b->index);
	*len = c->usize;
	*base = c->ustart;
	*in_file = FALSE;
	switch (ftl_dat_chunk_load(all->fd, all->compress, c, &b->packed, &b->packed_cap, &b->data,
				   &b->cap)) {
	case FTL_DAT_CHUNK_UNREAD:
		block_note(b,
			   "chunk %" G_GUINT64_FORMAT " (file offset %" G_GUINT64_FORMAT
			   ") cannot be read",
			   b->index, c->offset);
		return FALSE;
	case FTL_DAT_CHUNK_UNPACKED:
		block_note(b,
			   "chunk %" G_GUINT64_FORMAT " (file offset %" G_GUINT64_FORMAT
			   ") does not decompress to its %u bytes; skipped",
			   b->index, c->offset, c->usize);
		return FALSE;
	case FTL_DAT_CHUNK_LOADED:
		break;
	}
	return TRUE;
}

/* Splits the pages of a loaded block into records. */
static void block_split(DatBlock *b, gsize len, guint64 base, gboolean in_file)
{
	guint32 psize = b->st->all->page_size;
	const FtlTepCommon *common = &b->st->all->common;
	char why[200];
	guint n = b->recs->len; /* records written in place, the array sized once at the end */
	for (gsize off = 0; off + psize <= len; off += psize) {
		guint64 at = base + off;
		FtlPageStatus status = ftl_pages_load(b->pages, b->data + off, why, sizeof why);
		if (status == FTL_PAGE_EMPTY)
			continue;
		if (status == FTL_PAGE_BAD) {
			block_note(b, "page at %s offset %" G_GUINT64_FORMAT ": %s",
				   in_file ? "file" : "decompressed", at, why);
			continue;
		}
		gint64 missed = ftl_pages_missed(b->pages);
		FtlPageRecord pr;
		while (ftl_pages_next(b->pages, &pr, why, sizeof why)) {
			if (n == b->recs->len)
				g_array_set_size(b->recs, MAX(n * 2, 256u));
			FtlDatRecord *r = &g_array_index(b->recs, FtlDatRecord, n++);
			*r = (FtlDatRecord){ .ts = pr.ts,
					     .data = pr.data,
					     .size = pr.size,
					     .id = -1,
					     .missed = missed,
					     .where = at + pr.offset,
					     .pid = -1 };
			/* the reader's thread only merges and looks names up */
			if (common->ok && pr.size >= 8)
				ftl_tep_common_read(common, pr.data, &r->id, &r->pid, &r->flags);
			missed = 0;
		}
		if (*why)
			block_note(b, "page at %s offset %" G_GUINT64_FORMAT ": %s",
				   in_file ? "file" : "decompressed", at, why);
	}
	g_array_set_size(b->recs, n);
	if (len % psize)
		block_note(b, "%zu bytes at %s offset %" G_GUINT64_FORMAT " are less than a page",
			   len % psize, in_file ? "file" : "decompressed",
			   base + len - len % psize);
}

/* The payload text of every record whose id was read, by the render
 * callback: on the worker, so that the reader's thread only copies it. */
static void block_render(DatBlock *b)
{
	const FtlDatStreams *all = b->st->all;
	GString *text = b->text;
	g_string_truncate(text, 0);
	for (guint i = 0; i < b->recs->len; i++) {
		FtlDatRecord *r = &g_array_index(b->recs, FtlDatRecord, i);
		gsize at = text->len;
		if (r->id >= 0 && all->render(all->render_data, r, text)) {
			if (text->len - at <= G_MAXUINT32)
				r->text_len = (guint32)(text->len - at);
			else
				g_string_truncate(text, at);
		}
	}
	/* the texts lie in record order, where the buffer stopped moving */
	gsize at = 0;
	gssize n = 0;
	for (guint i = 0; i < b->recs->len; i++) {
		FtlDatRecord *r = &g_array_index(b->recs, FtlDatRecord, i);
		if (r->text_len) {
			r->text = text->str + at;
			r->text_plain = ftl_escape_plain_run(r->text, r->text_len) == r->text_len;
			at += r->text_len;
			n++;
		}
	}
	g_atomic_pointer_add(&b->st->all->rendered, n);
}

static void block_fill(DatBlock *b)
{
	g_array_set_size(b->recs, 0);
	g_ptr_array_set_size(b->bad, 0);
	gsize len = 0;
	guint64 base = 0;
	gboolean in_file = TRUE;
	errno = 0;
	if (block_load(b, &len, &base, &in_file)) {
		block_split(b, len, base, in_file);
		if (b->st->all->render && b->st->all->pool)
			block_render(b);
	}
}

static void block_job(gpointer data, gpointer user)
{
	(void)user;
	DatBlock *b = data;
	ftl_fork_gate_enter();
	block_fill(b);
	ftl_fork_gate_leave();
	g_mutex_lock(&b->st->lock);
	b->ready = TRUE;
	g_cond_broadcast(&b->st->filled);
	g_mutex_unlock(&b->st->lock);
}

/* Hands the stream's next block to a worker, in the ring slot it frees. */
static void stream_schedule(DatStream *st)
{
	if (st->next_fill >= st->n_blocks)
		return;
	DatBlock *b = st->ring[st->next_fill % BLOCKS_AHEAD];
	b->index = st->next_fill++;
	b->ready = FALSE;
	if (st->all->pool)
		g_thread_pool_push(st->all->pool, b, NULL);
	else
		block_job(b, NULL);
}

/* ---- the chunk table ------------------------------------------------------ */

static guint32 dat_u32(gboolean big_endian, const guchar *p)
{
	return big_endian ? (guint32)p[0] << 24 | (guint32)p[1] << 16 | (guint32)p[2] << 8 | p[3]
			  : (guint32)p[3] << 24 | (guint32)p[2] << 16 | (guint32)p[1] << 8 | p[0];
}

GArray *ftl_dat_chunks_read(int fd, guint64 file_size, gboolean big_endian, guint64 offset,
			    guint64 size, char **bad)
{
	GArray *chunks = g_array_new(FALSE, FALSE, sizeof(DatChunk));
	guchar b[8];
	*bad = NULL;
	/* the size the BUFFER option gives counts from after the count */
	guint64 end = MIN(offset + 4 + size, file_size), at = offset;
	if (size == 0)
		return chunks;
	if (size < 4 || ftl_fd_pread_all(fd, b, 4, (gint64)at)) {
		*bad = g_strdup_printf(
			"the chunk count at file offset %" G_GUINT64_FORMAT " cannot be read", at);
		return chunks;
	}
	guint32 count = dat_u32(big_endian, b);
	at += 4;
	guint64 ustart = 0;
	for (guint32 i = 0; i < count; i++) {
		DatChunk c = { at + 8, 0, 0, ustart };
		if (end - at < 8 || ftl_fd_pread_all(fd, b, 8, (gint64)at)) {
			*bad = g_strdup_printf("chunk %u of %u: its header at file offset "
					       "%" G_GUINT64_FORMAT " lies past the CPU's data",
					       i, count, at);
			return chunks;
		}
		c.csize = dat_u32(big_endian, b);
		c.usize = dat_u32(big_endian, b + 4);
		if (c.csize > end - at - 8 || c.usize > MAX_CHUNK ||
		    (guint64)c.usize > (guint64)c.csize * 1032 + 4096) {
			*bad = g_strdup_printf("chunk %u of %u at file offset %" G_GUINT64_FORMAT
					       ": damaged sizes (%u bytes claiming %u); the rest "
					       "of the CPU's data is skipped",
					       i, count, at, c.csize, c.usize);
			return chunks;
		}
		g_array_append_val(chunks, c);
		at += 8 + c.csize;
		ustart += c.usize;
	}
	return chunks;
}

FtlDatChunkLoad ftl_dat_chunk_load(int fd, FtlDatCompress how, const FtlDatChunk *c,
				   guchar **packed, gsize *packed_cap, guchar **data,
				   gsize *data_cap)
{
	if (!block_reserve(packed, packed_cap, c->csize) ||
	    !block_reserve(data, data_cap, (gsize)c->usize + FTL_PAGES_SLACK) ||
	    ftl_fd_pread_all(fd, *packed, c->csize, (gint64)c->offset))
		return FTL_DAT_CHUNK_UNREAD;
	if (!ftl_dat_uncompress(how, *packed, c->csize, *data, c->usize))
		return FTL_DAT_CHUNK_UNPACKED;
	memset(*data + c->usize, 0, FTL_PAGES_SLACK);
	return FTL_DAT_CHUNK_LOADED;
}

/* Reads the chunk table of a compressed CPU; what lies beyond the first
 * damaged header is noted and skipped. */
static void stream_scan_chunks(DatStream *st)
{
	FtlDatStreams *all = st->all;
	char *bad;
	st->chunks = ftl_dat_chunks_read(all->fd, all->file_size, all->big_endian, st->offset,
					 st->size, &bad);
	if (bad)
		g_ptr_array_add(st->scan_bad, bad);
}

/* ---- the streams ---------------------------------------------------------- */

static DatStream *stream_new(FtlDatStreams *all, const FtlDatCpu *cpu)
{
	DatStream *st = g_new0(DatStream, 1);
	st->all = all;
	st->cpu = cpu->cpu;
	st->offset = cpu->offset;
	st->size = cpu->size;
	st->scan_bad = g_ptr_array_new_with_free_func(g_free);
	g_mutex_init(&st->lock);
	g_cond_init(&st->filled);
	if (all->compress != FTL_DAT_COMPRESS_NONE) {
		stream_scan_chunks(st);
		st->n_blocks = st->chunks->len;
	} else {
		st->n_pages = st->size / all->page_size;
		st->n_blocks = (st->n_pages + BLOCK_PAGES - 1) / BLOCK_PAGES;
		if (st->size % all->page_size)
			g_ptr_array_add(st->scan_bad,
					g_strdup_printf("its data ends in %" G_GUINT64_FORMAT
							" bytes that are less than a page",
							st->size % all->page_size));
	}
	for (guint i = 0; i < BLOCKS_AHEAD; i++) {
		DatBlock *b = g_new0(DatBlock, 1);
		b->st = st;
		b->pages = ftl_pages_new(all->commit_size, all->big_endian, all->page_size,
					 all->old_format);
		b->recs = g_array_new(FALSE, FALSE, sizeof(FtlDatRecord));
		b->text = g_string_new(NULL);
		b->bad = g_ptr_array_new_with_free_func(g_free);
		st->ring[i] = b;
	}
	return st;
}

static void stream_free(DatStream *st)
{
	for (guint i = 0; i < BLOCKS_AHEAD; i++) {
		DatBlock *b = st->ring[i];
		g_free(b->data);
		g_free(b->packed);
		ftl_pages_free(b->pages);
		g_array_unref(b->recs);
		g_string_free(b->text, TRUE);
		g_ptr_array_unref(b->bad);
		g_free(b);
	}
	if (st->chunks)
		g_array_unref(st->chunks);
	g_ptr_array_unref(st->scan_bad);
	g_mutex_clear(&st->lock);
	g_cond_clear(&st->filled);
	g_free(st);
}

static gint stream_cmp_cpu(gconstpointer a, gconstpointer b)
{
	const DatStream *x = *(DatStream *const *)a, *y = *(DatStream *const *)b;
	return x->cpu < y->cpu ? -1 : x->cpu > y->cpu;
}

FtlDatStreams *ftl_dat_streams_new(const char *path, const FtlDatLayout *l, const FtlDatBuffer *b,
				   guint commit_size, gboolean old_format,
				   const FtlTepCommon *common, guint threads, FtlDatBadFunc bad,
				   gpointer bad_data, GError **error)
{
	/* both come from the file (its header_page): the page reader takes
	 * what a kernel writes only */
	if ((commit_size != 4 && commit_size != 8) || b->page_size <= 8 + commit_size) {
		g_set_error(error, FTL_ERROR, FTL_ERROR_FORMAT,
			    "'%s': not a valid trace.dat: its header_page gives a commit field of "
			    "%u bytes for pages of %u bytes (4 or 8, in a larger page)",
			    path, commit_size, b->page_size);
		return NULL;
	}
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		g_set_error(error, FTL_ERROR, FTL_ERROR_IO, "'%s': %s", path, g_strerror(errno));
		return NULL;
	}
	FtlDatStreams *s = g_new0(FtlDatStreams, 1);
	s->fd = fd;
	s->path = g_strdup(path);
	s->page_size = b->page_size;
	s->file_size = l->file_size;
	s->commit_size = commit_size;
	s->big_endian = l->big_endian;
	s->old_format = old_format;
	s->compress = l->compress;
	if (common)
		s->common = *common;
	s->bad = bad;
	s->bad_data = bad_data;
	s->n = b->cpus->len;
	s->streams = g_new0(DatStream *, MAX(s->n, 1));
	for (guint i = 0; i < s->n; i++)
		s->streams[i] = stream_new(s, &g_array_index(b->cpus, FtlDatCpu, i));
	qsort(s->streams, s->n, sizeof *s->streams, stream_cmp_cpu);
	s->threads = threads;
	return s;
}

void ftl_dat_streams_free(FtlDatStreams *s)
{
	if (!s)
		return;
	if (s->pool)
		g_thread_pool_free(s->pool, TRUE, TRUE); /* queued blocks are dropped */
	if (s->render)
		g_debug("%s: %" G_GSSIZE_FORMAT " payloads rendered by the page readers", s->path,
			(gssize)g_atomic_pointer_get(&s->rendered));
	for (guint i = 0; i < s->n; i++)
		stream_free(s->streams[i]);
	g_free(s->streams);
	close(s->fd);
	g_free(s->path);
	g_free(s);
}

void ftl_dat_streams_set_render(FtlDatStreams *s, FtlDatRenderFunc fn, gpointer data)
{
	g_return_if_fail(!s->started);
	s->render = fn;
	s->render_data = data;
}

guint ftl_dat_streams_count(const FtlDatStreams *s)
{
	return s->n;
}

guint32 ftl_dat_streams_cpu(const FtlDatStreams *s, guint i)
{
	return s->streams[i]->cpu;
}

/* Makes cur the block the reader is in, waiting for its worker; passes
 * what was skipped to the bad callback. */
static DatBlock *stream_take(FtlDatStreams *s, DatStream *st)
{
	if (st->scan_bad->len) {
		for (guint i = 0; i < st->scan_bad->len; i++)
			s->bad(s->bad_data, st->cpu, g_ptr_array_index(st->scan_bad, i));
		g_ptr_array_set_size(st->scan_bad, 0);
	}
	if (st->cur_index >= st->n_blocks)
		return NULL;
	DatBlock *b = st->ring[st->cur_index % BLOCKS_AHEAD];
	g_mutex_lock(&st->lock);
	while (!b->ready)
		g_cond_wait(&st->filled, &st->lock);
	g_mutex_unlock(&st->lock);
	for (guint i = 0; i < b->bad->len; i++)
		s->bad(s->bad_data, st->cpu, g_ptr_array_index(b->bad, i));
	g_ptr_array_set_size(b->bad, 0);
	st->cur = b;
	st->pos = 0;
	return b;
}

/* The pool made and, when schedule, every stream's first blocks handed to
 * it: at the first read, not at the open. The trial children of the inputs
 * opened after this one are forked before any thread of this one runs
 * (util/forkgate.h says why a fork must not meet a running thread). */
static void streams_start(FtlDatStreams *s, gboolean schedule)
{
	if (s->started)
		return;
	s->started = TRUE;
	/* the reader's thread is one of the threads: it merges, decodes and
	 * feeds the command, the critical path; a worker more than the cores
	 * left to it preempts it */
	if (s->threads > 1 && s->n > 0)
		s->pool = g_thread_pool_new(block_job, NULL, (gint)MIN(s->threads - 1, s->n), FALSE,
					    NULL);
	if (schedule)
		for (guint i = 0; i < s->n; i++)
			for (guint k = 0; k < BLOCKS_AHEAD; k++)
				stream_schedule(s->streams[i]);
}

const FtlDatRecord *ftl_dat_streams_peek(FtlDatStreams *s, guint i)
{
	streams_start(s, TRUE);
	DatStream *st = s->streams[i];
	for (;;) {
		if (!st->cur && !stream_take(s, st))
			return NULL;
		if (st->pos < st->cur->recs->len)
			return &g_array_index(st->cur->recs, FtlDatRecord, st->pos);
		/* the block is done: its slot takes the block BLOCKS_AHEAD on */
		st->cur = NULL;
		st->cur_index++;
		stream_schedule(st);
	}
}

void ftl_dat_streams_advance(FtlDatStreams *s, guint i)
{
	DatStream *st = s->streams[i];
	if (st->cur)
		st->pos++;
}

const FtlDatRecord *ftl_dat_streams_take(FtlDatStreams *s, guint i, guint *n)
{
	streams_start(s, TRUE);
	DatStream *st = s->streams[i];
	if (st->cur && st->pos >= st->cur->recs->len) {
		/* the block handed out last is done: its slot takes the block
		 * BLOCKS_AHEAD on */
		st->cur = NULL;
		st->cur_index++;
		stream_schedule(st);
	}
	const FtlDatRecord *r = ftl_dat_streams_peek(s, i);
	if (!r)
		return NULL;
	*n = st->cur->recs->len - st->pos;
	st->pos = st->cur->recs->len;
	return r;
}

/* ---- starting at a time ---------------------------------------------------- */

/* Waits until the blocks handed to workers are filled: the ring is the
 * reader's again. */
static void stream_quiesce(DatStream *st)
{
	g_mutex_lock(&st->lock);
	for (guint64 k = st->cur_index; k < st->next_fill; k++)
		while (!st->ring[k % BLOCKS_AHEAD]->ready)
			g_cond_wait(&st->filled, &st->lock);
	g_mutex_unlock(&st->lock);
}

/* The first nonempty block in [k, end), filled into b, and its first
 * record's timestamp; end when there is none. What a probe finds damaged
 * is noted when the reader reaches that block, not here. */
static guint64 stream_probe(DatStream *st, DatBlock *b, guint64 k, guint64 end, guint64 *ts)
{
	for (; k < end; k++) {
		b->index = k;
		block_fill(b);
		g_ptr_array_set_size(b->bad, 0);
		if (b->recs->len) {
			*ts = g_array_index(b->recs, FtlDatRecord, 0).ts;
			return k;
		}
	}
	return end;
}

/* The last block whose first record is before ts (0 when none): the first
 * record at ts or later is in it or after it, when the CPU's timestamps
 * never go down. A binary search: a few blocks read, not the CPU's data. */
static guint64 stream_find(DatStream *st, guint64 ts)
{
	DatBlock *scratch = st->ring[0];
	guint64 lo = 0, hi = st->n_blocks, found = 0;
	while (lo < hi) {
		guint64 mid = lo + (hi - lo) / 2, first = 0;
		guint64 k = stream_probe(st, scratch, mid, hi, &first);
		if (k == hi) {
			hi = mid;
		} else if (first < ts) {
			found = k;
			lo = k + 1;
		} else {
			hi = mid;
		}
	}
	return found;
}

void ftl_dat_streams_seek_time(FtlDatStreams *s, guint64 ts)
{
	streams_start(s, FALSE);
	for (guint i = 0; i < s->n; i++) {
		DatStream *st = s->streams[i];
		stream_quiesce(st);
		guint64 k = stream_find(st, ts);
		st->cur = NULL;
		st->cur_index = st->next_fill = k;
		for (guint j = 0; j < BLOCKS_AHEAD; j++)
			stream_schedule(st);
	}
	for (guint i = 0; i < s->n; i++) {
		const FtlDatRecord *r;
		while ((r = ftl_dat_streams_peek(s, i)) && r->ts < ts)
			ftl_dat_streams_advance(s, i);
	}
}
