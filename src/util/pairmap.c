/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The pointer-pair map's growth: linear probing kept under half full. */
#include "util/pairmap.h"

#define PAIRMAP_MIN 64

void ftl_pairmap_init(FtlPairMap *m)
{
	m->slots = g_new0(FtlPairSlot, PAIRMAP_MIN);
	m->mask = PAIRMAP_MIN - 1;
	m->n = 0;
}

void ftl_pairmap_clear(FtlPairMap *m)
{
	g_clear_pointer(&m->slots, g_free);
	m->mask = m->n = 0;
}

static FtlPairSlot *pairmap_slot(FtlPairSlot *slots, gsize mask, gconstpointer a, gconstpointer b)
{
	gsize i = ftl_pairmap_hash(a, b) & mask;
	while (slots[i].a && !(slots[i].a == a && slots[i].b == b))
		i = (i + 1) & mask;
	return &slots[i];
}

void ftl_pairmap_put(FtlPairMap *m, gconstpointer a, gconstpointer b, gpointer value)
{
	g_return_if_fail(a != NULL);
	if ((m->n + 1) * 2 > m->mask + 1) {
		gsize size = (m->mask + 1) * 2;
		FtlPairSlot *slots = g_new0(FtlPairSlot, size);
		for (gsize i = 0; i <= m->mask; i++)
			if (m->slots[i].a)
				*pairmap_slot(slots, size - 1, m->slots[i].a, m->slots[i].b) =
					m->slots[i];
		g_free(m->slots);
		m->slots = slots;
		m->mask = size - 1;
	}
	FtlPairSlot *s = pairmap_slot(m->slots, m->mask, a, b);
	if (!s->a) {
		s->a = a;
		s->b = b;
		m->n++;
	}
	s->value = value;
}
