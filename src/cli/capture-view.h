/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What the capture commands print about what they did. These views live in
 * cli/, not views/, because they show capture/'s results and views/ may not
 * depend on capture/ (tests/e2e/t0001-layering.sh). */
#pragma once

#include <glib.h>

#include "views/table.h"

/* arm-oops: the settings changed (FtlOopsArmChange*), in format, with the
 * action ("arm"/"disarm"), the state file and a closing note for text. */
void ftl_capture_view_arm(GPtrArray *changes, FtlFormat format, const char *action,
			  const char *state_path, const char *note);
