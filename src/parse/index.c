/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The sparse index of a text trace: its points and end state in memory, the
 * window search over them, and the checked binary cache file. */
#include "config.h"

#include "parse/index.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "util/error.h"
#include "util/fdio.h"
#include "util/output.h"
#include "util/stream.h"

G_STATIC_ASSERT(sizeof(FtlIndexCpu) == 16);
G_STATIC_ASSERT(sizeof(FtlIndexPoint) == 72);
G_STATIC_ASSERT(sizeof(FtlIndexTask) == 16);
G_STATIC_ASSERT(sizeof(FtlSourceStats) == 56);

const FtlDiagKind ftl_index_diag_kinds[FTL_INDEX_N_DIAGS] = {
	FTL_DIAG_UNPARSED_LINE,
	FTL_DIAG_TRUNCATED_LINE,
	FTL_DIAG_LOST_EVENTS,
	FTL_DIAG_TIME_BACKWARDS,
};

#define INDEX_MAGIC "FTLIDX\n"
#define INDEX_BOM 0x01020304u
/* Sanity bounds for counts a file states: far above any real trace. */
#define INDEX_MAX_CPUS 4096u

/* The file's fixed header; the payload (the arrays, then the strings)
 * follows. checksum holds zlib's CRC-32 of the whole file (this header with
 * checksum zeroed, then the payload), little-endian, then 28 zero bytes. A
 * CRC catches a damaged file as surely as a SHA-256 did, at a fiftieth of
 * the cost (a 1 ms window read of a 1 GiB trace spent a fifth of its
 * instructions on SHA-256); contents made to lie on purpose are
 * index_check()'s business either way. */
typedef struct {
	char magic[8];
	guint32 version, bom;
	guint64 size, ino, dev;
	gint64 mtime_ns;
	guint32 stride, reserved;
	guint64 payload_len;
	guint8 checksum[32];
} IndexHeader;

struct _FtlIndex {
	FtlIndexKey key;
	guint stride;
	GArray *points; /* FtlIndexPoint */
	GArray *cpus;	/* FtlIndexCpu */
	GArray *tasks;	/* FtlIndexTask */
	FtlIndexEnd end;
	GPtrArray *strings;  /* char*, owned */
	GHashTable *str_ids; /* while building: string -> id + 1 */
};

FtlIndex *ftl_index_new(const FtlIndexKey *key, guint stride)
{
	FtlIndex *idx = g_new0(FtlIndex, 1);
	idx->key = *key;
	idx->stride = MAX(stride, 1);
	idx->points = g_array_new(FALSE, TRUE, sizeof(FtlIndexPoint));
	idx->cpus = g_array_new(FALSE, TRUE, sizeof(FtlIndexCpu));
	idx->tasks = g_array_new(FALSE, TRUE, sizeof(FtlIndexTask));
	idx->strings = g_ptr_array_new_with_free_func(g_free);
	idx->str_ids = g_hash_table_new(g_str_hash, g_str_equal);
	idx->end.tracer = FTL_INDEX_NO_STR;
	for (guint i = 0; i < FTL_INDEX_N_DIAGS; i++)
		idx->end.diags[i].first_text = FTL_INDEX_NO_STR;
	return idx;
}

void ftl_index_free(FtlIndex *idx)
{
	if (!idx)
		return;
	g_array_unref(idx->points);
	g_array_unref(idx->cpus);
	g_array_unref(idx->tasks);
	g_hash_table_unref(idx->str_ids);
	g_ptr_array_unref(idx->strings);
	g_free(idx);
}

guint32 ftl_index_string(FtlIndex *idx, const char *s)
{
	if (!s)
		return FTL_INDEX_NO_STR;
	gpointer v = g_hash_table_lookup(idx->str_ids, s);
	if (v)
		return GPOINTER_TO_UINT(v) - 1;
	char *copy = g_strdup(s);
	g_ptr_array_add(idx->strings, copy);
	g_hash_table_insert(idx->str_ids, copy, GUINT_TO_POINTER(idx->strings->len));
	return idx->strings->len - 1;
}

FtlIndexPoint *ftl_index_add_point(FtlIndex *idx)
{
	g_array_set_size(idx->points, idx->points->len + 1);
	FtlIndexPoint *p = &g_array_index(idx->points, FtlIndexPoint, idx->points->len - 1);
	p->cpu_first = idx->cpus->len;
	p->tracer = FTL_INDEX_NO_STR;
	return p;
}

void ftl_index_add_cpu(FtlIndex *idx, const FtlIndexCpu *cpu)
{
	g_array_append_val(idx->cpus, *cpu);
	g_array_index(idx->points, FtlIndexPoint, idx->points->len - 1).n_cpus++;
}

void ftl_index_add_task(FtlIndex *idx, gint32 pid, gint32 tgid, const char *comm)
{
	FtlIndexTask t = { pid, tgid, ftl_index_string(idx, comm), 0 };
	g_array_append_val(idx->tasks, t);
}

void ftl_index_finish(FtlIndex *idx, const FtlIndexEnd *end, gint64 last_seg_min)
{
	idx->end = *end;
	gint64 min = G_MAXINT64;
	for (guint i = idx->points->len; i-- > 0;) {
		FtlIndexPoint *p = &g_array_index(idx->points, FtlIndexPoint, i);
		gint64 seg = i + 1 == idx->points->len ? last_seg_min : p->min_from;
		min = MIN(min, seg);
		p->min_from = min;
	}
}

guint ftl_index_stride(const FtlIndex *idx)
{
	return idx->stride;
}

guint ftl_index_n_points(const FtlIndex *idx)
{
	return idx->points->len;
}

const FtlIndexPoint *ftl_index_point(const FtlIndex *idx, guint i)
{
	return &g_array_index(idx->points, FtlIndexPoint, i);
}

const FtlIndexCpu *ftl_index_cpus(const FtlIndex *idx, const FtlIndexPoint *p)
{
	return p->n_cpus ? &g_array_index(idx->cpus, FtlIndexCpu, p->cpu_first) : NULL;
}

const FtlIndexEnd *ftl_index_end(const FtlIndex *idx)
{
	return &idx->end;
}

guint ftl_index_n_tasks(const FtlIndex *idx)
{
	return idx->tasks->len;
}

const FtlIndexTask *ftl_index_task(const FtlIndex *idx, guint i)
{
	return &g_array_index(idx->tasks, FtlIndexTask, i);
}

const char *ftl_index_str(const FtlIndex *idx, guint32 id)
{
	return id < idx->strings->len ? g_ptr_array_index(idx->strings, id) : NULL;
}

const FtlIndexKey *ftl_index_key(const FtlIndex *idx)
{
	return &idx->key;
}

void ftl_index_window(const FtlIndex *idx, gint64 t_start, gint64 t_end, gint *start, gint *stop)
{
	guint n = idx->points->len;
	*start = *stop = -1;
	if (!(idx->end.flags & FTL_INDEX_END_TIMED) || n == 0)
		return;
	/* max_before grows with the point: the last one below t_start */
	guint lo = 0, hi = n;
	if (t_start != FTL_TS_NONE) {
		while (lo < hi) {
			guint mid = lo + (hi - lo) / 2;
			if (ftl_index_point(idx, mid)->max_before < t_start)
				lo = mid + 1;
			else
				hi = mid;
		}
		/* points [0, lo) have only earlier events before them */
		*start = lo > 1 ? (gint)lo - 1 : -1;
	}
	if (t_end == FTL_TS_NONE)
		return;
	/* min_from grows too: the first after the start above t_end */
	lo = *start < 0 ? 1 : (guint)*start + 1;
	hi = n;
	while (lo < hi) {
		guint mid = lo + (hi - lo) / 2;
		if (ftl_index_point(idx, mid)->min_from > t_end)
			hi = mid;
		else
			lo = mid + 1;
	}
	if (lo < n)
		*stop = (gint)lo;
}

gint ftl_index_find_event(const FtlIndex *idx, guint64 n)
{
	guint lo = 0, hi = idx->points->len;
	while (lo < hi) {
		guint mid = lo + (hi - lo) / 2;
		if (ftl_index_point(idx, mid)->event_no <= n)
			lo = mid + 1;
		else
			hi = mid;
	}
	return (gint)lo - 1;
}

/* ---- the file ---------------------------------------------------------- */

static void index_put(GByteArray *b, const void *p, gsize len)
{
	g_byte_array_append(b, p, (guint)len);
}

static void index_put_u32(GByteArray *b, guint32 v)
{
	index_put(b, &v, sizeof v);
}

/* SHA-256 of the whole file with the checksum field zeroed. */
static void index_digest(const guchar *data, gsize len, guint8 out[32])
{
	IndexHeader h;
	memcpy(&h, data, sizeof h);
	memset(h.checksum, 0, sizeof h.checksum);
	uLong crc = crc32(0, (const Bytef *)&h, sizeof h);
	for (gsize at = sizeof h; at < len;) {
		uInt n = (uInt)MIN(len - at, (gsize)G_MAXUINT32);
		crc = crc32(crc, data + at, n);
		at += n;
	}
	memset(out, 0, 32);
	guint32 le = GUINT32_TO_LE((guint32)crc);
	memcpy(out, &le, sizeof le);
}

GBytes *ftl_index_serialize(const FtlIndex *idx)
{
	GByteArray *b = g_byte_array_new();
	IndexHeader h = { .version = FTL_INDEX_VERSION,
			  .bom = INDEX_BOM,
			  .size = idx->key.size,
			  .ino = idx->key.ino,
			  .dev = idx->key.dev,
			  .mtime_ns = idx->key.mtime_ns,
			  .stride = idx->stride };
	memcpy(h.magic, INDEX_MAGIC, sizeof h.magic);
	index_put(b, &h, sizeof h);
	index_put_u32(b, idx->points->len);
	index_put(b, idx->points->data, (gsize)idx->points->len * sizeof(FtlIndexPoint));
	index_put_u32(b, idx->cpus->len);
	index_put(b, idx->cpus->data, (gsize)idx->cpus->len * sizeof(FtlIndexCpu));
	index_put_u32(b, idx->tasks->len);
	index_put(b, idx->tasks->data, (gsize)idx->tasks->len * sizeof(FtlIndexTask));
	index_put(b, &idx->end, sizeof idx->end);
	index_put_u32(b, idx->strings->len);
	for (guint i = 0; i < idx->strings->len; i++) {
		const char *s = g_ptr_array_index(idx->strings, i);
		guint32 len = (guint32)strlen(s);
		index_put_u32(b, len);
		index_put(b, s, len);
	}
	IndexHeader *hp = (IndexHeader *)b->data;
	hp->payload_len = b->len - sizeof h;
	index_digest(b->data, b->len, hp->checksum);
	return g_byte_array_free_to_bytes(b);
}

/* A cursor over the payload that never reads past its end. */
typedef struct {
	const guchar *p, *e;
} IndexCursor;

static gboolean cursor_take(IndexCursor *c, void *out, gsize len)
{
	if ((gsize)(c->e - c->p) < len)
		return FALSE;
	if (len)
		memcpy(out, c->p, len);
	c->p += len;
	return TRUE;
}

/* count elements of size each, bounded by what is left. */
static gboolean cursor_array(IndexCursor *c, GArray *arr, gsize size)
{
	guint32 n;
	if (!cursor_take(c, &n, sizeof n) || (gsize)(c->e - c->p) / size < n)
		return FALSE;
	g_array_set_size(arr, n);
	return cursor_take(c, arr->data, (gsize)n * size);
}

static gboolean index_strings(FtlIndex *idx, IndexCursor *c)
{
	guint32 n, len;
	if (!cursor_take(c, &n, sizeof n) || (gsize)(c->e - c->p) / 4 < n)
		return FALSE;
	for (guint32 i = 0; i < n; i++) {
		if (!cursor_take(c, &len, sizeof len) || (gsize)(c->e - c->p) < len ||
		    memchr(c->p, 0, len))
			return FALSE;
		g_ptr_array_add(idx->strings, g_strndup((const char *)c->p, len));
		c->p += len;
	}
	return c->p == c->e;
}

static gboolean index_str_ok(const FtlIndex *idx, guint32 id)
{
	return id == FTL_INDEX_NO_STR || id < idx->strings->len;
}

/* Every point in order and inside the file, its CPU slots and strings real. */
static gboolean index_check(const FtlIndex *idx)
{
	const FtlIndexPoint *prev = NULL;
	for (guint i = 0; i < idx->points->len; i++) {
		const FtlIndexPoint *p = ftl_index_point(idx, i);
		if (p->offset >= idx->key.size || p->n_cpus > INDEX_MAX_CPUS ||
		    p->cpu_first > idx->cpus->len || p->n_cpus > idx->cpus->len - p->cpu_first ||
		    !index_str_ok(idx, p->tracer) || p->line == 0 || p->seq == 0)
			return FALSE;
		if (prev && (p->offset <= prev->offset || p->event_no <= prev->event_no ||
			     p->line <= prev->line || p->seq <= prev->seq ||
			     p->max_before < prev->max_before || p->min_from < prev->min_from))
			return FALSE;
		/* A point is an event: the bounds a window seeks by hold its
		 * time and the time of the point before it. A bound moved past
		 * them (lowered to make a window start late) is a lie; one that
		 * agrees is checked against the line when a window uses it. */
		if (p->ts != FTL_TS_NONE && p->min_from > p->ts)
			return FALSE;
		if (prev && prev->ts != FTL_TS_NONE && p->max_before < prev->ts)
			return FALSE;
		prev = p;
	}
	for (guint i = 0; i < idx->cpus->len; i++)
		if (!index_str_ok(idx, g_array_index(idx->cpus, FtlIndexCpu, i).comm))
			return FALSE;
	for (guint i = 0; i < idx->tasks->len; i++)
		if (!index_str_ok(idx, ftl_index_task(idx, i)->comm))
			return FALSE;
	if (!index_str_ok(idx, idx->end.tracer) || idx->end.header_cpus < -1)
		return FALSE;
	for (guint i = 0; i < FTL_INDEX_N_DIAGS; i++)
		if (!index_str_ok(idx, idx->end.diags[i].first_text))
			return FALSE;
	return TRUE;
}

static FtlIndex *index_bad(GError **error, const char *why)
{
	g_set_error(error, FTL_ERROR, FTL_ERROR_FORMAT, "index cache %s", why);
	return NULL;
}

FtlIndex *ftl_index_parse(const guchar *data, gsize len, const FtlIndexKey *key, GError **error)
{
	IndexHeader h;
	if (len < sizeof h)
		return index_bad(error, "is cut short");
	memcpy(&h, data, sizeof h);
	if (memcmp(h.magic, INDEX_MAGIC, sizeof h.magic) || h.bom != INDEX_BOM)
		return index_bad(error, "is not an ftlens index of this machine");
	if (h.version != FTL_INDEX_VERSION)
		return index_bad(error, "is of another ftlens version");
	if (h.size != key->size || h.ino != key->ino || h.dev != key->dev ||
	    h.mtime_ns != key->mtime_ns)
		return index_bad(error, "is stale: the input changed since it was made");
	if (h.payload_len != len - sizeof h)
		return index_bad(error, "is cut short");
	guint8 digest[32];
	index_digest(data, len, digest);
	if (memcmp(digest, h.checksum, sizeof digest) || h.stride == 0 || h.reserved)
		return index_bad(error, "is corrupt (checksum)");
	g_autoptr(FtlIndex) idx = ftl_index_new(key, h.stride);
	IndexCursor c = { data + sizeof h, data + len };
	if (!cursor_array(&c, idx->points, sizeof(FtlIndexPoint)) ||
	    !cursor_array(&c, idx->cpus, sizeof(FtlIndexCpu)) ||
	    !cursor_array(&c, idx->tasks, sizeof(FtlIndexTask)) ||
	    !cursor_take(&c, &idx->end, sizeof idx->end) || !index_strings(idx, &c) ||
	    !index_check(idx))
		return index_bad(error, "is corrupt (contents)");
	return g_steal_pointer(&idx);
}

char *ftl_cache_path(const char *input, const char *ext)
{
	g_autofree char *abs = realpath(input, NULL);
	if (!abs)
		abs = g_canonicalize_filename(input, NULL);
	g_autofree char *hash = g_compute_checksum_for_string(G_CHECKSUM_SHA256, abs, -1);
	hash[32] = '\0';
	g_autofree char *name = g_strconcat(hash, ext, NULL);
	return g_build_filename(g_get_user_cache_dir(), "ftlens", name, NULL);
}

char *ftl_index_cache_path(const char *input)
{
	return ftl_cache_path(input, ".idx");
}

gboolean ftl_index_key_of(const char *path, FtlIndexKey *key)
{
	return ftl_file_id(path, &key->dev, &key->ino, &key->size, &key->mtime_ns);
}

gboolean ftl_cache_write(const char *path, const void *data, gsize len, const char *input,
			 GError **error)
{
	g_autofree char *dir = g_path_get_dirname(path);
	if (g_mkdir_with_parents(dir, 0700) < 0) {
		int e = errno;
		g_set_error(error, FTL_ERROR, FTL_ERROR_IO, "'%s': %s", dir, g_strerror(e));
		return FALSE;
	}
	const char *inputs[] = { input, NULL };
	return ftl_output_write_all(path, inputs, data, len, error);
}

/* No index is larger than the file it indexes (a point stands for a
 * stride of lines) plus its fixed parts. */
static gsize index_max_len(const FtlIndexKey *key)
{
	return (gsize)MIN(key->size, (guint64)G_MAXSIZE / 2) + ((gsize)1 << 20);
}

FtlIndex *ftl_index_load(const char *input, const FtlIndexKey *key, GError **error)
{
	g_autofree char *path = ftl_index_cache_path(input);
	gsize len;
	g_autofree char *data = ftl_file_read_own(path, index_max_len(key), &len, error);
	if (!data)
		return NULL;
	FtlIndex *idx = ftl_index_parse((const guchar *)data, len, key, error);
	if (!idx)
		g_prefix_error(error, "'%s': ", path);
	return idx;
}

gboolean ftl_index_save(const FtlIndex *idx, const char *input, GError **error)
{
	g_autofree char *path = ftl_index_cache_path(input);
	g_autoptr(GBytes) bytes = ftl_index_serialize(idx);
	gsize len;
	const void *data = g_bytes_get_data(bytes, &len);
	return ftl_cache_write(path, data, len, input, error);
}
