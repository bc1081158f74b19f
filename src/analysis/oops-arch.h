/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The architecture a kernel report's lines say it came from. */
#pragma once

#include <glib.h>

#include "model/console.h"

/* "x86_64", "i386", "arm64", "arm", "ppc64", "ppc", "s390", "riscv64",
 * "mips", ... (static) from the console lines (indexes into con) of one
 * report; NULL when nothing in them tells. */
const char *ftl_oops_arch_guess(const FtlConsole *con, GArray *lines);
