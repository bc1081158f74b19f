/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What the capture commands print about what they did. These views live in
 * cli/, not views/, because they show capture/'s results and views/ may not
 * depend on capture/ (tests/e2e/t0001-layering.sh). */
#pragma once

#include <glib.h>

#include "capture/record.h"
#include "views/table.h"

/* arm-oops: the settings changed (FtlOopsArmChange*), in format, with the
 * action ("arm"/"disarm"), the state file and a closing note for text. */
void ftl_capture_view_arm(GPtrArray *changes, FtlFormat format, const char *action,
			  const char *state_path, const char *note);

/* record: the capture layer's notes (one "ftlens: note:" line each), how the
 * traced command ended (nothing when it exited 0 or there was none), and
 * what was recorded per CPU with the losses the ring buffer counted. All on
 * stderr: stdout may be the trace. */
void ftl_capture_view_notes(const GString *notes);
void ftl_capture_view_child(int status);
void ftl_capture_view_record(const FtlRecordOptions *o, const FtlRecordResult *r);
