/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The FTL_ERROR domain: every error a user can see carries one of these codes. */
#pragma once

#include <glib.h>

#define FTL_ERROR (ftl_error_quark())

typedef enum {
	FTL_ERROR_IO,	       /* open/read/write/mmap failed */
	FTL_ERROR_PARSE,       /* input is malformed at a known location */
	FTL_ERROR_FORMAT,      /* input is not a format ftlens knows */
	FTL_ERROR_UNSUPPORTED, /* known format, not handled by this build */
	FTL_ERROR_USAGE,       /* bad command line: exit 2 */
	FTL_ERROR_EMPTY,       /* nothing to read */
} FtlErrorCode;

GQuark ftl_error_quark(void);
