/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The `dump` view: one normalized line per event. */
#pragma once

#include <glib.h>

#include "model/event.h"

/* Appends one line (with '\n') describing ev to out. Text from the trace is made
 * visible by util/escape.h. */
void ftl_dump_event(GString *out, const FtlEvent *ev);
/* The same with the timestamp shown as ts - origin (negative before it);
 * origin FTL_TS_NONE shows ts as it is. */
void ftl_dump_event_at(GString *out, const FtlEvent *ev, gint64 origin);
