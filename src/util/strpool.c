/* SPDX-License-Identifier: GPL-2.0-or-later */
/* String interning with an open-addressing table keyed by (text, length), so a
 * parser can intern a slice of a mapped file without copying it first. */
#include "util/strpool.h"

#include <string.h>

typedef struct {
	const char *str; /* NULL: empty slot */
	guint32 hash;
	guint32 len;
} PoolSlot;

struct _FtlStrPool {
	GMutex lock; /* parse threads intern concurrently */
	gboolean locked; /* FALSE: one thread's pool, no lock taken */
	guint64 id;
	GStringChunk *chunk;
	PoolSlot *slots;
	guint mask;
	guint used;
};

guint64 ftl_strpool_hash(const char *s, gsize len)
{
	/* eight bytes a step, each mixed by a multiply: a function name is
	 * two to four steps, where a byte-wise hash took a multiply per byte */
	guint64 h = 0x9e3779b97f4a7c15u ^ len;
	gsize i = 0;
	for (; i + 8 <= len; i += 8) {
		guint64 w;
		memcpy(&w, s + i, 8);
		h = (h ^ w) * 0xff51afd7ed558ccdu;
		h ^= h >> 32;
	}
	guint64 w = 0;
	memcpy(&w, s + i, len - i);
	h = (h ^ w) * 0xc4ceb9fe1a85ec53u;
	return h ^ (h >> 29);
}

static inline guint32 strpool_hash(const char *s, gsize len)
{
	return (guint32)ftl_strpool_hash(s, len);
}

FtlStrPool *ftl_strpool_new(void)
{
	FtlStrPool *pool = ftl_strpool_new_local();
	pool->locked = TRUE;
	return pool;
}

FtlStrPool *ftl_strpool_new_local(void)
{
	static guint64 next_id;
	FtlStrPool *pool = g_new0(FtlStrPool, 1);
	g_mutex_init(&pool->lock);
	pool->id = __atomic_add_fetch(&next_id, 1, __ATOMIC_RELAXED);
	pool->chunk = g_string_chunk_new(64 * 1024);
	pool->mask = 1023;
	pool->slots = g_new0(PoolSlot, pool->mask + 1);
	return pool;
}

void ftl_strpool_free(FtlStrPool *pool)
{
	if (!pool)
		return;
	g_string_chunk_free(pool->chunk);
	g_mutex_clear(&pool->lock);
	g_free(pool->slots);
	g_free(pool);
}

static void strpool_grow(FtlStrPool *pool)
{
	guint new_mask = pool->mask * 2 + 1;
	PoolSlot *slots = g_new0(PoolSlot, new_mask + 1);
	for (guint i = 0; i <= pool->mask; i++) {
		PoolSlot *old = &pool->slots[i];
		if (!old->str)
			continue;
		guint j = old->hash & new_mask;
		while (slots[j].str)
			j = (j + 1) & new_mask;
		slots[j] = *old;
	}
	g_free(pool->slots);
	pool->slots = slots;
	pool->mask = new_mask;
}

const char *ftl_strpool_intern_len(FtlStrPool *pool, const char *s, gsize len)
{
	guint32 h = strpool_hash(s, len);
	if (pool->locked)
		g_mutex_lock(&pool->lock);
	guint i = h & pool->mask;
	for (;;) {
		PoolSlot *slot = &pool->slots[i];
		if (!slot->str)
			break;
		if (slot->hash == h && slot->len == len && memcmp(slot->str, s, len) == 0) {
			/* read before the unlock: once it is released another
			 * thread's insert may grow the table and free this slot */
			const char *found = slot->str;
			if (pool->locked)
				g_mutex_unlock(&pool->lock);
			return found;
		}
		i = (i + 1) & pool->mask;
	}
	PoolSlot *slot = &pool->slots[i];
	slot->str = g_string_chunk_insert_len(pool->chunk, s, (gssize)len);
	slot->hash = h;
	slot->len = (guint32)len;
	const char *ret = slot->str;
	if (++pool->used * 2 > pool->mask)
		strpool_grow(pool);
	if (pool->locked)
		g_mutex_unlock(&pool->lock);
	return ret;
}

const char *ftl_strpool_intern(FtlStrPool *pool, const char *s)
{
	return ftl_strpool_intern_len(pool, s, strlen(s));
}

guint ftl_strpool_size(const FtlStrPool *pool)
{
	return pool->used;
}

guint64 ftl_strpool_id(const FtlStrPool *pool)
{
	return pool->id;
}
