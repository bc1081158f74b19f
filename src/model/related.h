/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Whether the operands of one trace can be one capture: per-CPU files, split
 * parts and a raw directory can; two runs, two machines or two boots cannot,
 * and merging them would interleave unrelated times without a word.
 *
 * Two operands are unrelated when
 *  - both name their kernel release and the releases differ,
 *  - both name their trace clock and the clocks differ,
 *  - both headers give the machine's CPU count ("#P:N") and the counts
 *    differ,
 *  - both hold events of one CPU in overlapping times (a capture records a
 *    CPU once; the same file twice is refused so too), or
 *  - their time ranges are disjoint by more than a second and more than ten
 *    times the longer of the two spans (split parts touch; two runs of one
 *    boot hours apart do not).
 * Kernel, clock and CPU count are known once the trace is open; the times
 * once it was read (the iterator notes them, for several operands only).
 * Two boots of one kernel whose times happen to fit are not told apart: a
 * trace holds nothing that names its boot. */
#pragma once

#include <glib.h>

#include "model/event.h"

typedef struct _FtlRelated FtlRelated;

FtlRelated *ftl_related_new(void);
void ftl_related_free(FtlRelated *r);
/* Before an operand's sources are added: later sources belong to it. path
 * is copied. */
void ftl_related_begin_operand(FtlRelated *r, const char *path);
guint ftl_related_n_operands(const FtlRelated *r);
/* Source number src_index was added (to the operand begun last). */
void ftl_related_add_source(FtlRelated *r, guint src_index);
/* The operand begun last names its kernel release or trace clock (interned
 * strings). */
void ftl_related_note_kernel(FtlRelated *r, const char *release);
void ftl_related_note_clock(FtlRelated *r, const char *clock);
/* The iterator's note of an event of source src_index. */
void ftl_related_note_event(FtlRelated *r, guint src_index, const FtlEvent *ev);
/* FALSE with an FTL_ERROR_USAGE naming both operands and why when two are
 * unrelated; src_cpus[i] is source i's header CPU count (-1: none); times
 * count only once the trace was read (read_done). */
gboolean ftl_related_check(const FtlRelated *r, const gint *src_cpus, guint n_src,
			   gboolean read_done, GError **error);
