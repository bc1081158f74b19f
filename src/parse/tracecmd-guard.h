/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Guards around libtracecmd's crashes on damaged trace.dat files: the calls
 * that crash are tried in a child process first. Private to parse/; only
 * tracedat.c calls them. */
#pragma once

#include "config.h"

#include <glib.h>

#include <trace-cmd.h>

#include "parse/tep.h"

/* The newest libtracecmd the guards are known to be needed for: 1.3.x, the
 * version Debian 12 ships (1.3.1), where each crash named in
 * tracecmd-guard.c was seen. Built against a newer library, the calls go
 * straight to it; t3001's damaged copies and the crashers in
 * shared/data/crashers tell whether that library still crashes, and if so
 * this bound is raised (or -DFTL_TRACECMD_GUARDS=1 given to the build). */
#define FTL_TRACECMD_GUARDED_UP_TO 10399 /* 1.3.99 */

#ifndef FTL_TRACECMD_GUARDS
#if FTL_LIBTRACECMD_VERSION <= FTL_TRACECMD_GUARDED_UP_TO
#define FTL_TRACECMD_GUARDS 1
#else
#define FTL_TRACECMD_GUARDS 0
#endif
#endif

typedef enum {
	FTL_TRACECMD_OK,
	FTL_TRACECMD_FAILED,  /* the library refused the file */
	FTL_TRACECMD_CRASHED, /* the library crashes on it: not called here */
} FtlTracecmdResult;

/* tracecmd_open_head(path, TRACECMD_FL_LOAD_NO_PLUGINS), with the event
 * formats and kallsyms the library reads kept in lazy instead of parsed
 * (ftl_tep_lazy_start() next). NULL when it fails or would crash; *result
 * says which. Close the handle with tracecmd_close(). */
struct tracecmd_input *ftl_tracecmd_open_head(const char *path, FtlTepLazy *lazy,
					      FtlTracecmdResult *result);

/* The printk strings (the lines tep_parse_printk_formats() passes on)
 * libtracecmd gives a handle while ftl_tracecmd_open_head() reads its
 * headers: kept in its lazy as well (ftl_tep_lazy_add_printk()). */
void ftl_tracecmd_guard_printk(const char *safe);

/* tracecmd_init_data(handle). What the library prints to stdout or stderr
 * instead of through tep_vprint() meanwhile (libtraceevent's messages go
 * to ftl_tep_capture_messages()) is appended to msgs, not printed. On
 * anything but FTL_TRACECMD_OK, hand the handle to ftl_tracecmd_discard(). */
FtlTracecmdResult ftl_tracecmd_init_data(struct tracecmd_input *handle, GString *msgs);

/* Gives up a handle whose tracecmd_init_data() failed: closed, or, where
 * closing it crashes, kept for the rest of the process. */
void ftl_tracecmd_discard(struct tracecmd_input *handle);

/* tracecmd_buffer_instance_handle(handle, i), or NULL when it fails or
 * would crash (or damage handle). */
struct tracecmd_input *ftl_tracecmd_instance(struct tracecmd_input *handle, int i);
