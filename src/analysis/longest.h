/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The N longest timed calls, with where and when they ran. */
#pragma once

#include <glib.h>

#include "analysis/calltree.h"

typedef struct _FtlLongest FtlLongest;

FtlLongest *ftl_longest_new(guint n);
void ftl_longest_free(FtlLongest *l);
/* Matches FtlCallFunc. */
void ftl_longest_add_call(const FtlCall *call, gpointer l);
/* Longest first; borrowed, valid as long as l. */
guint ftl_longest_count(const FtlLongest *l);
const FtlCall *ftl_longest_get(const FtlLongest *l, guint i);

G_DEFINE_AUTOPTR_CLEANUP_FUNC(FtlLongest, ftl_longest_free)
