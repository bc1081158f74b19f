/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The progress line: when stderr is a terminal and reading the input takes
 * more than about a second, one line there shows bytes read, MB/s and the
 * time left, redrawn a few times a second and erased when reading ends.
 * Nothing otherwise. Any thread may report. */
#pragma once

#include <glib.h>

/* Adds bytes to the total expected (0: a stream of unknown size). */
void ftl_progress_expect(guint64 bytes);
/* Counts bytes read. */
void ftl_progress_advance(guint64 bytes);
/* Erases the line, if one was drawn; the next reading starts afresh. */
void ftl_progress_finish(void);
