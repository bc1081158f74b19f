/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The flight recorder: the top-level buffer in overwrite mode runs until
 * tracing_on drops to 0 (a kernel tracing_off(), a traceoff trigger, an
 * application), then the history that led up to it is saved and tracing is
 * re-armed, N times. */
#pragma once

#include <glib.h>

#include "capture/buffer.h"

typedef struct {
	FtlBufferConfig cfg; /* overwrite is forced on */
	guint hits;	     /* how many stops to save (>= 1) */
	const char *stop_on; /* --stop-on SYSTEM:EVENT[:FILTER]; NULL: none */
	double duration;     /* seconds; 0: no limit */
	char **argv;	     /* a command to run while armed; NULL: none */
	const char *output;  /* OUT: hits go to OUT.hitK.dat */
} FtlFlightOptions;

typedef struct {
	GPtrArray *files;     /* char *: the hit files written, in order */
	gboolean interrupted; /* a signal ended the wait */
	int child_status;     /* -1: no command */
	GString *notes;
} FtlFlightResult;

void ftl_flight_result_clear(FtlFlightResult *r);
/* The file of hit k: OUT.hitK.dat, OUT's own ".dat" dropped first. */
char *ftl_flight_hit_path(const char *output, guint k);
/* Runs the flight recorder. Every top-level setting it changed, the trigger
 * included, is put back at the end, on an error and after a signal. */
gboolean ftl_flight_run(const FtlFlightOptions *o, FtlFlightResult *r, GError **error);
