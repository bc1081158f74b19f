/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The `oops` view: the kernel reports of a console log and the ftrace dumps
 * printed with them, as text or as JSON. */
#pragma once

#include <json-glib/json-glib.h>
#include <stdio.h>

#include "analysis/oops.h"
#include "model/console.h"
#include "model/source.h"

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
} FtlOopsView;

void ftl_oops_print_text(FILE *out, const FtlOopsView *v);
/* Adds one object for the log to an open JSON array or member. */
void ftl_oops_add_json(JsonBuilder *b, const FtlOopsView *v);
