/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The `dump` view: one normalized line per event. */
#pragma once

#include <glib.h>

#include "model/event.h"
#include "views/table.h"

/* Appends one line (with '\n') describing ev to out. Text from the trace is made
 * visible by util/escape.h. */
void ftl_dump_event(GString *out, const FtlEvent *ev);
/* The same with the timestamp shown as ts - origin (negative before it);
 * origin FTL_TS_NONE shows ts as it is. */
void ftl_dump_event_at(GString *out, const FtlEvent *ev, gint64 origin);
/* The same with the time in microseconds when us is TRUE, rounded as
 * trace-cmd report and the kernel print it (util/timefmt.h). */
void ftl_dump_event_text(GString *out, const FtlEvent *ev, gint64 origin, gboolean us);

/* The same events as CSV (ts_ns,cpu,pid,comm,kind,name,fields: fields is
 * the text form's "key=value ..." in one cell) or JSON ({"input": ...,
 * "events": [ one object per line, fields as members ]}), streamed: begin,
 * every event (first: TRUE for the first), end. Text needs no begin or end. */
void ftl_dump_begin(GString *out, FtlFormat format, const char *input);
void ftl_dump_event_as(GString *out, const FtlEvent *ev, gint64 origin, FtlFormat format,
		       gboolean first);
void ftl_dump_end(GString *out, FtlFormat format);
