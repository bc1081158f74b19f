/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Stop requests for the capture loops: SIGINT, SIGTERM and SIGHUP only count,
 * so that cleanup always runs in normal flow and never in a handler. */
#pragma once

#include <glib.h>

/* Installs the counting handlers (and remembers the old ones). */
void ftl_signals_install(void);
/* Puts the old handlers back. */
void ftl_signals_restore(void);
/* How many stop signals arrived since install; the first asks to stop and
 * save, a second one to give up at once. */
guint ftl_signals_count(void);
/* The last signal that arrived (0: none). */
int ftl_signals_last(void);
/* Sleeps up to ms milliseconds; returns early when a signal arrives. */
void ftl_signals_sleep(guint ms);
