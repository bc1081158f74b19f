/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The `oops` view: the kernel reports of a console log and the ftrace dumps
 * printed with them, as text or as JSON. */
#pragma once

#include <json-glib/json-glib.h>
#include <stdio.h>

#include "analysis/oops.h"
#include "model/console.h"
#include "model/source.h"
#include "symbols/debuginfo.h"
#include "views/table.h"

/* What was read of one ftrace dump. */
typedef struct {
	FtlOopsTrail *trail; /* NULL when the dump is empty or could not be read */
	const char *dialect; /* of the recovered trace, static or NULL */
	FtlSourceStats stats;
	const FtlDiags *diags; /* of the recovered trace, may be NULL */
	const char *label;     /* its name in messages */
} FtlOopsDumpView;

typedef struct {
	const FtlConsole *con;
	const FtlOops *oops;
	const FtlOopsDumpView *dumps; /* con->dumps->len of them */
	guint last_n;		      /* events shown per CPU */
	/* the kernel's debug info: frames gain file:line and their inline
	 * chain; NULL when there is none, and then dbg_note says why (or NULL) */
	FtlDebugInfo *dbg;
	const char *dbg_note;
	/* text: decode the x86 "Code:" bytes with objdump (a child process
	 * per report, so off where that costs too much: the fuzzers) */
	gboolean decode_code;
} FtlOopsView;

void ftl_oops_print_text(FILE *out, const FtlOopsView *v);
/* Prints logs one after the other: text as each is added, JSON as one
 * document {"logs": [...]} at finish. */
typedef struct _FtlOopsPrinter FtlOopsPrinter;
FtlOopsPrinter *ftl_oops_printer_new(FILE *out, FtlFormat format);
void ftl_oops_printer_add(FtlOopsPrinter *p, const FtlOopsView *v);
void ftl_oops_printer_finish(FtlOopsPrinter *p);
void ftl_oops_printer_free(FtlOopsPrinter *p);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(FtlOopsPrinter, ftl_oops_printer_free)
/* The line `oops --extract-trace` prints once dump d of con is in out_path. */
void ftl_oops_print_extracted(FILE *out, const FtlConsole *con, guint d, const char *out_path);
/* Adds one object for the log to an open JSON array or member. */
void ftl_oops_add_json(JsonBuilder *b, const FtlOopsView *v);
