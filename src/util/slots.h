/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Arrays indexed by CPU (or depth) that grow on first use of an index. */
#pragma once

#include <glib.h>

/* Sets up a slot that has just been added at index idx. */
typedef void (*FtlSlotInit)(gpointer slot, guint idx);

/* Returns the element at idx of arr, first growing arr to idx + 1 elements and
 * calling init (may be NULL: zeroed if arr clears) on every slot added. The
 * pointer is valid until arr grows again. */
gpointer ftl_slots_get(GArray *arr, guint idx, FtlSlotInit init);
