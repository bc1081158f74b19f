/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `diff`'s table: per-function change between two traces. */
#pragma once

#include <stdio.h>

#include "analysis/diff.h"
#include "views/table.h"

/* label_a/label_b name the traces; text shows at most top rows. */
void ftl_diff_print(const FtlDiff *d, const char *label_a, const char *label_b, FtlFormat format,
		    guint top, const FtlTextStyle *style, FILE *out);
