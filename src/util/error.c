/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The FTL_ERROR GError domain. */
#include "util/error.h"

G_DEFINE_QUARK(ftl - error - quark, ftl_error)
