/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Arrays indexed by CPU (or depth) that grow on first use of an index. */
#pragma once

#include <glib.h>

/* Sets up a slot that has just been added at index idx. */
typedef void (*FtlSlotInit)(gpointer slot, guint idx);

/* Grows arr to idx + 1 elements, calling init (may be NULL: zeroed if arr
 * clears) on every slot added; returns the element at idx. */
gpointer ftl_slots_grow(GArray *arr, guint idx, FtlSlotInit init);

/* Returns the element at idx of arr (of elements of size bytes), first
 * growing it as ftl_slots_grow() does. The pointer is valid until arr grows
 * again. Inline: parsers and analyses ask once per event. */
static inline gpointer ftl_slots_get(GArray *arr, guint idx, gsize size, FtlSlotInit init)
{
	if (G_LIKELY(idx < arr->len))
		return arr->data + (gsize)idx * size;
	return ftl_slots_grow(arr, idx, init);
}
