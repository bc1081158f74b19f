/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Arrays indexed by CPU that grow on first use of an index. */
#include "util/slots.h"

gpointer ftl_slots_grow(GArray *arr, guint idx, FtlSlotInit init)
{
	guint size = g_array_get_element_size(arr);
	if (idx >= arr->len) {
		guint old = arr->len;
		g_array_set_size(arr, idx + 1);
		if (init)
			for (guint i = old; i <= idx; i++)
				init(arr->data + (gsize)i * size, i);
	}
	return arr->data + (gsize)idx * size;
}
