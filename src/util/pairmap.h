/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A map from a pair of pointers to a pointer, for the merged trees that look
 * up (parent node, interned name) once per call or stack frame.
 *
 * Open addressing with the keys stored inline: a lookup is one hash and,
 * mostly, one cache line, where a GHashTable keyed by a node costs two
 * indirect calls and a load of the node it compares. Pointers are compared,
 * never dereferenced. */
#pragma once

#include <glib.h>

/* A tree node with at most this many children is better scanned than looked
 * up: its children go in the map when it gets one more. */
#define FTL_PAIRMAP_SCAN 8

typedef struct {
	gconstpointer a, b; /* a == NULL: an empty slot */
	gpointer value;
} FtlPairSlot;

typedef struct {
	FtlPairSlot *slots;
	gsize mask; /* slots - 1, slots a power of two */
	gsize n;
} FtlPairMap;

void ftl_pairmap_init(FtlPairMap *m);
void ftl_pairmap_clear(FtlPairMap *m);
/* Sets (a, b) to value; a must not be NULL. */
void ftl_pairmap_put(FtlPairMap *m, gconstpointer a, gconstpointer b, gpointer value);

static inline gsize ftl_pairmap_hash(gconstpointer a, gconstpointer b)
{
	guint64 h = ((guint64)(guintptr)a ^ ((guint64)(guintptr)b * 0x9e3779b97f4a7c15u)) *
		    0xff51afd7ed558ccdu;
	return (gsize)(h ^ (h >> 29));
}

/* The value of (a, b), NULL when absent. */
static inline gpointer ftl_pairmap_get(const FtlPairMap *m, gconstpointer a, gconstpointer b)
{
	for (gsize i = ftl_pairmap_hash(a, b) & m->mask;; i = (i + 1) & m->mask) {
		const FtlPairSlot *s = &m->slots[i];
		if (s->a == a && s->b == b)
			return s->value;
		if (!s->a)
			return NULL;
	}
}
