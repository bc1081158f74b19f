/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Long output to a terminal through $PAGER, as git does it. */
#pragma once

#include <glib.h>

/* When stdout is a terminal, starts $PAGER (default "less"; "" or "cat":
 * none) with stdout, and stderr when it is a terminal too, going into it;
 * LESS=FRX and LV=-c are set for it unless already set, so that less quits
 * when the output fits one screen, passes ftlens's colours and leaves the
 * screen alone. A pager that cannot start is no error: output stays on the
 * terminal. Waits for the pager at exit and on SIGINT/SIGTERM/SIGHUP; a
 * pager quit early (SIGPIPE) ends ftlens with status 0, quietly. */
void ftl_pager_start(void);
/* TRUE while output goes to a pager. */
gboolean ftl_pager_active(void);
