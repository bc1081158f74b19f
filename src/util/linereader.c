/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Chunks of whole lines read from a stream and parsed on a thread pool, handed
 * back in order: reading is serialized (one stream), parsing is not. */
#include "config.h"

#include "util/linereader.h"

#include <string.h>

#include "util/error.h"
#include "util/forkgate.h"
#include "util/progress.h"

/* A chunk reads this much, then ends at the last line start it may end at.
 * FTLENS_CHUNK_BYTES changes it: tests make chunks tiny, so that chunk
 * boundaries fall everywhere, multi-line records included. */
#define LR_CHUNK_DEFAULT ((gsize)256 << 10)
/* A chunk that finds no place to end grows up to this, then ends at any line. */
#define LR_MAX_CHUNK ((gsize)64 << 20)
/* Line starts tried, from the end back, for one a chunk may begin with. */
#define LR_CUT_TRIES 4096

typedef struct {
	FtlLineChunk c;
	char *buf;
	gsize cap;
	gboolean ready; /* parsed, for the consumer */
} LrSlot;

struct _FtlLineReader {
	FtlStream *stream;
	FtlLineReaderFuncs f;
	gsize chunk; /* bytes a chunk reads before it looks for its end */
	guint ahead; /* chunks in flight at most, 0: the share of the budget,
		      * FTL_LINE_READER_ON_DEMAND: only the one asked for */
	guint threads; /* parse threads the caller gave it (-j) */
	gboolean threaded;
	GMutex lock; /* slots' ready flags, the counters below */
	GCond cond;
	/* the read side, under read_lock */
	GMutex read_lock;
	char *carry;
	gsize carry_len, carry_cap;
	guint64 next_index, stream_off, progress_pos;
	gboolean read_done;
	/* under lock */
	guint64 n_chunks; /* valid when n_known */
	gboolean n_known;
	guint64 submitted; /* jobs pushed to the pool */
	guint running;	   /* jobs not finished */
	gint stopping;	   /* atomic: jobs read nothing more */
	/* the consumer's */
	LrSlot *slots;
	guint n_slots;
	guint64 want; /* the index the consumer takes next */
	LrSlot *held; /* the chunk in the consumer's hand */
};

/* One pool for the readers of the process, as large as the largest of
 * their -j: a reader never keeps more than its own in flight. */
static GThreadPool *lr_pool;
static gint lr_live; /* readers alive: they share the in-flight budget */
static GMutex lr_pool_lock;


static gsize lr_chunk_bytes(void)
{
	const char *env = g_getenv("FTLENS_CHUNK_BYTES");
	guint64 n;
	if (env && g_ascii_string_to_unsigned(env, 10, 16, LR_MAX_CHUNK, &n, NULL))
		return (gsize)n;
	return LR_CHUNK_DEFAULT;
}

static LrSlot *lr_slot(FtlLineReader *r, guint64 idx)
{
	return &r->slots[idx % r->n_slots];
}

static void lr_ensure(char **buf, gsize *cap, gsize need)
{
	if (need <= *cap)
		return;
	gsize n = MAX(need, *cap * 2);
	*buf = g_realloc(*buf, n);
	*cap = n;
}

/* The last line start in buf[0, len) that a chunk may begin with (0: none). */
static gsize lr_find_cut(FtlLineReader *r, const char *buf, gsize len)
{
	const char *end = buf + len, *p = end;
	for (guint tries = 0; tries < LR_CUT_TRIES; tries++) {
		p = memrchr(buf, '\n', (gsize)(p - buf));
		if (!p)
			return 0;
		const char *line = p + 1;
		if (!r->f.can_cut || r->f.can_cut(line, end))
			return (gsize)(line - buf);
	}
	return 0;
}

/* The length of a line too long to hold, which began len bytes ago: read on
 * (and discard) to its newline, or up to FTL_LINE_LONG_CAP. */
static guint64 lr_long_line(FtlLineReader *r, LrSlot *s, gsize len, GError **error)
{
	guint64 n = len;
	char *scratch = s->buf + FTL_LINE_LONG_HEAD; /* its head stays, for messages */
	gsize room = s->cap - FTL_LINE_LONG_HEAD;
	while (n <= FTL_LINE_LONG_CAP) {
		gssize got = ftl_stream_read(r->stream, scratch, room, error);
		if (got <= 0)
			return got < 0 ? 0 : n;
		const char *nl = memchr(scratch, '\n', (gsize)got);
		if (nl)
			return n + (guint64)(nl - scratch);
		n += (guint64)got;
	}
	return FTL_LINE_LONG_CAP + 1;
}

static void lr_progress(FtlLineReader *r)
{
	guint64 pos = ftl_stream_input_pos(r->stream);
	if (pos > r->progress_pos) {
		ftl_progress_advance(pos - r->progress_pos);
		r->progress_pos = pos;
	}
}

/* Reads the text of chunk idx into s (read_lock held). FALSE when the input
 * has ended before it. */
static gboolean lr_read_chunk(FtlLineReader *r, LrSlot *s, guint64 idx)
{
	if (r->read_done)
		return FALSE;
	s->c = (FtlLineChunk){ .index = idx, .offset = r->stream_off };
	lr_ensure(&s->buf, &s->cap, r->carry_len + r->chunk);
	if (r->carry_len)
		memcpy(s->buf, r->carry, r->carry_len);
	gsize len = r->carry_len, target = r->chunk, nl_from = 0, cut = 0;
	gboolean eof = FALSE, have_nl = FALSE;
	r->carry_len = 0;
	for (;;) {
		while (!eof && len < target) {
			/* up to target, not the buffer's end: chunks end where they
			 * would whatever the buffer grew to before */
			gssize n =
				ftl_stream_read(r->stream, s->buf + len, target - len, &s->c.error);
			if (n < 0)
				break;
			eof = n == 0;
			len += (gsize)n;
		}
		if (!have_nl) {
			have_nl = memchr(s->buf + nl_from, '\n', len - nl_from) != NULL;
			nl_from = len;
		}
		if (s->c.error) {
			const char *nl = memrchr(s->buf, '\n', len);
			cut = nl ? (gsize)(nl + 1 - s->buf) : 0;
			break;
		}
		if (!have_nl && len > r->f.max_line) {
			s->c.long_line = lr_long_line(r, s, len, &s->c.error);
			cut = 0;
			break;
		}
		if (eof) {
			/* a file another process appends to: its last line may
			 * be one it was writing when the size was taken; what it
			 * held is read, whole lines only */
			cut = len;
			if (len && s->buf[len - 1] != '\n' && ftl_stream_grew(r->stream)) {
				const char *nl = memrchr(s->buf, '\n', len);
				cut = nl ? (gsize)(nl + 1 - s->buf) : 0;
			}
			break;
		}
		if ((cut = lr_find_cut(r, s->buf, len)) > 0)
			break;
		if (len >= LR_MAX_CHUNK && have_nl) {
			cut = (gsize)((const char *)memrchr(s->buf, '\n', len) + 1 - s->buf);
			break;
		}
		target = len + r->chunk;
		lr_ensure(&s->buf, &s->cap, target);
	}
	s->c.text = s->buf;
	s->c.len = cut;
	s->c.last = eof || s->c.error || s->c.long_line;
	if (s->c.last) {
		r->read_done = TRUE;
	} else {
		lr_ensure(&r->carry, &r->carry_cap, len - cut);
		if (len > cut)
			memcpy(r->carry, s->buf + cut, len - cut);
		r->carry_len = len - cut;
	}
	r->stream_off += cut;
	lr_progress(r);
	return TRUE;
}

/* Reads the next chunk into its slot and parses it; NULL past the end. Any
 * thread: the text is read under read_lock, so chunks come in index order. */
static LrSlot *lr_produce(FtlLineReader *r)
{
	LrSlot *s = NULL;
	g_mutex_lock(&r->read_lock);
	if (!r->read_done && !g_atomic_int_get(&r->stopping)) {
		guint64 idx = r->next_index++;
		s = lr_slot(r, idx);
		lr_read_chunk(r, s, idx);
	}
	if (r->read_done) {
		g_mutex_lock(&r->lock);
		if (!r->n_known) {
			r->n_chunks = r->next_index;
			r->n_known = TRUE;
			g_cond_broadcast(&r->cond);
		}
		g_mutex_unlock(&r->lock);
	}
	g_mutex_unlock(&r->read_lock);
	if (s)
		s->c.result = r->f.parse(&s->c, r->f.data);
	return s;
}

static void lr_job(gpointer data, gpointer user)
{
	FtlLineReader *r = data;
	(void)user;
	ftl_fork_gate_enter();
	LrSlot *s = lr_produce(r);
	ftl_fork_gate_leave();
	g_mutex_lock(&r->lock);
	if (s)
		s->ready = TRUE;
	r->running--;
	g_cond_broadcast(&r->cond);
	g_mutex_unlock(&r->lock);
}

static void lr_release(FtlLineReader *r, LrSlot *s)
{
	if (s->c.result && r->f.free_result)
		r->f.free_result(s->c.result, r->f.data);
	s->c.result = NULL;
	g_clear_error(&s->c.error);
	s->ready = FALSE;
}

/* Chunks a reader keeps in flight: the readers alive share a budget. */
static guint lr_target(FtlLineReader *r)
{
	if (r->ahead == FTL_LINE_READER_ON_DEMAND)
		return 1;
	guint live = (guint)MAX(1, g_atomic_int_get(&lr_live));
	guint t = (2 * r->threads + 2) / live;
	if (r->ahead)
		t = MIN(t, r->ahead);
	return CLAMP(t, 2, r->n_slots - 1);
}

/* Pushes jobs for the chunks after want, up to the target (lock held). */
static void lr_refill(FtlLineReader *r)
{
	guint64 limit = r->want + lr_target(r);
	while (r->submitted < limit && !(r->n_known && r->submitted >= r->n_chunks) &&
	       !g_atomic_int_get(&r->stopping)) {
		r->submitted++;
		r->running++;
		g_thread_pool_push(lr_pool, r, NULL);
	}
}

FtlLineReader *ftl_line_reader_new(FtlStream *stream, const FtlLineReaderFuncs *funcs,
				   const FtlReadOptions *ro)
{
	FtlLineReader *r = g_new0(FtlLineReader, 1);
	r->stream = stream;
	r->f = *funcs;
	r->chunk = lr_chunk_bytes();
	r->threads = ftl_read_threads(ro);
	r->threaded = r->threads > 1;
	r->n_slots = r->threaded ? 2 * r->threads + 3 : 2;
	r->slots = g_new0(LrSlot, r->n_slots);
	g_mutex_init(&r->lock);
	g_cond_init(&r->cond);
	g_mutex_init(&r->read_lock);
	if (r->threaded) {
		g_mutex_lock(&lr_pool_lock);
		if (!lr_pool)
			lr_pool = g_thread_pool_new(lr_job, NULL, (gint)r->threads, FALSE, NULL);
		else if (g_thread_pool_get_max_threads(lr_pool) < (gint)r->threads)
			g_thread_pool_set_max_threads(lr_pool, (gint)r->threads, NULL);
		g_mutex_unlock(&lr_pool_lock);
	}
	g_atomic_int_inc(&lr_live);
	ftl_progress_expect(ftl_stream_input_size(stream));
	return r;
}

void ftl_line_reader_set_ahead(FtlLineReader *r, guint chunks)
{
	g_mutex_lock(&r->lock);
	r->ahead = chunks;
	g_mutex_unlock(&r->lock);
}

/* Stops the jobs and waits for the running ones. */
static void lr_stop(FtlLineReader *r)
{
	g_atomic_int_set(&r->stopping, 1);
	g_mutex_lock(&r->lock);
	while (r->running)
		g_cond_wait(&r->cond, &r->lock);
	g_mutex_unlock(&r->lock);
	for (guint i = 0; i < r->n_slots; i++)
		lr_release(r, &r->slots[i]);
	r->held = NULL;
}

void ftl_line_reader_free(FtlLineReader *r)
{
	if (!r)
		return;
	lr_stop(r);
	for (guint i = 0; i < r->n_slots; i++)
		g_free(r->slots[i].buf);
	g_free(r->slots);
	g_free(r->carry);
	ftl_stream_free(r->stream);
	g_mutex_clear(&r->lock);
	g_cond_clear(&r->cond);
	g_mutex_clear(&r->read_lock);
	if (g_atomic_int_dec_and_test(&lr_live))
		ftl_progress_finish();
	g_free(r);
}

const FtlLineChunk *ftl_line_reader_next(FtlLineReader *r)
{
	LrSlot *s;
	if (r->threaded) {
		g_mutex_lock(&r->lock);
		lr_refill(r);
		s = lr_slot(r, r->want);
		while (!s->ready && !(r->n_known && r->want >= r->n_chunks))
			g_cond_wait(&r->cond, &r->lock);
		if (!s->ready) {
			g_mutex_unlock(&r->lock);
			return NULL;
		}
		g_mutex_unlock(&r->lock);
	} else {
		s = lr_produce(r);
		if (!s)
			return NULL;
	}
	if (r->held) {
		g_mutex_lock(&r->lock);
		lr_release(r, r->held);
		g_mutex_unlock(&r->lock);
	}
	r->held = s;
	r->want++;
	if (r->threaded && r->ahead != FTL_LINE_READER_ON_DEMAND) {
		g_mutex_lock(&r->lock);
		lr_refill(r);
		g_mutex_unlock(&r->lock);
	}
	return &s->c;
}

gboolean ftl_line_reader_seek(FtlLineReader *r, guint64 offset, GError **error)
{
	return ftl_line_reader_seek_range(r, offset, G_MAXUINT64, error);
}

gboolean ftl_line_reader_seek_range(FtlLineReader *r, guint64 offset, guint64 end, GError **error)
{
	lr_stop(r);
	if (!ftl_stream_seek_range(r->stream, offset, end, error))
		return FALSE;
	r->carry_len = 0;
	r->next_index = r->submitted = r->want = 0;
	r->stream_off = offset;
	r->progress_pos = ftl_stream_input_pos(r->stream);
	r->read_done = r->n_known = FALSE;
	g_atomic_int_set(&r->stopping, 0);
	return TRUE;
}

FtlStream *ftl_line_reader_stream(FtlLineReader *r)
{
	return r->stream;
}
