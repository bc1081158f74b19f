/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `ftlens tui`: the interactive terminal view over every input ftlens reads. */
#pragma once

#include <glib.h>

#include "views/tui/model.h"

/* Runs the TUI until the user quits. The terminal is given back on every
 * way out: quitting, an error while reading (returned here, after the
 * screen is restored), SIGTERM, SIGINT or SIGHUP (the signal is raised
 * again once the terminal is restored), a crash or an abort (SIGSEGV,
 * SIGBUS, SIGABRT, SIGFPE, SIGILL: the handler there was gets it after). */
gboolean ftl_tui_run(const FtlTuiOptions *opt, GError **error);
/* Sets malloc up for the TUI's threads; call before any thread starts
 * (before the first input is opened). */
void ftl_tui_memory_init(void);
/* The key table as text (`ftlens tui --keys`); g_free(). */
char *ftl_tui_keys_text(void);
/* The panel named name (its tab's name, any case: "graph", "functions");
 * FALSE with a usage error listing the names. */
gboolean ftl_tui_panel_lookup(const char *name, gint *id, GError **error);
