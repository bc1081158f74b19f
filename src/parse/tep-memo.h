/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What the process keeps of a trace.dat it opened, for the next open of
 * the same file (the TUI opens its input again for the Events list's
 * seeks, its model and each rebuild): that its headers passed the trial
 * child, the child itself with its verdict on each format, kallsyms, and
 * the text of the bprint records rendered. Kept per file (size, mtime,
 * inode, device) while one of its traces is open, and for the last file
 * closed. Private to parse/ (tep.c). */
#pragma once

#include <glib.h>

#include "parse/kallsyms.h"
#include "parse/trial.h"

typedef struct _FtlTepMemo FtlTepMemo;

/* The memo of the file at path: the one held when a trace of the file is
 * open or was the last closed, else a new one. path NULL, or a file
 * that cannot be read, gives a memo of its own. A new reference;
 * ftl_tep_memo_unref() it. Thread-safe. */
FtlTepMemo *ftl_tep_memo_get(const char *path);
void ftl_tep_memo_unref(FtlTepMemo *m);

/* Whether the file's headers passed the trial child's open in this
 * process; set once they did. */
gboolean ftl_tep_memo_opened(FtlTepMemo *m);
void ftl_tep_memo_set_opened(FtlTepMemo *m);

/* The child that tries the file's formats (NULL: none yet), and the one
 * to keep (m takes it; one only: a later one is freed). */
FtlTrialServer *ftl_tep_memo_trials(FtlTepMemo *m);
void ftl_tep_memo_set_trials(FtlTepMemo *m, FtlTrialServer *trials);
/* How parsing the file's format i ends in the child, asked once per
 * format and process; FTL_TRIAL_OK when there is no child (the caller
 * takes the risk). Thread-safe. */
FtlTrialResult ftl_tep_memo_try(FtlTepMemo *m, int i);

/* Keeps k (a reference of its own) as long as m. */
void ftl_tep_memo_keep_kallsyms(FtlTepMemo *m, FtlKallsyms *k);

/* The text rendered for the record of len bytes at data, NULL when none
 * is kept; and keeping one (a copy; NULL when the memo is full). The text
 * lives as long as m. Thread-safe. */
const char *ftl_tep_memo_text(FtlTepMemo *m, const void *data, gsize len);
const char *ftl_tep_memo_add_text(FtlTepMemo *m, const void *data, gsize len, const char *text);
