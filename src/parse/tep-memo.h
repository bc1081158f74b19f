/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What the process keeps of a trace.dat it opened, for the next open of
 * the same file (the TUI opens its input again for the Events list's
 * seeks, its model and each rebuild): that its headers passed the trial
 * child, kallsyms, and the text of the bprint records rendered. Kept per
 * file (size, mtime, inode, device) while one of its traces is open, and
 * for the last file closed. And what the process keeps for every file:
 * the child the formats are tried in, with its verdicts by format text.
 * Private to parse/ (tep.c). */
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

/* The process's format child: libtraceevent's format parser is tried
 * there first, for every file the process opens (one child, not one per
 * file: formats are questions with their text, parsed in a handle of the
 * child's own set up as the file's). NULL when there is none. */
FtlTrialServer *ftl_tep_memo_trials(void);
/* Whether the process needs a new child before the next file's formats:
 * none, or the last one crashed or hung on a format, or it answered so
 * many that what the library leaks there adds up. Only where a fork may
 * be made (before a reader's threads start: parse/trial.h). */
gboolean ftl_tep_memo_trials_unfit(void);
/* Makes trials the process's child (the one before ends). */
void ftl_tep_memo_set_trials(FtlTrialServer *trials);
/* How parsing key ends in the child (arg and key its question, key also
 * what the verdict is kept by for the rest of the process: a format's
 * text and the handle's settings it is parsed with). FTL_TRIAL_OK when
 * there is no child (the caller takes the risk), FTL_TRIAL_CRASHED when
 * it is gone (a format it did not answer for before is not parsed).
 * Thread-safe. */
FtlTrialResult ftl_tep_memo_try(int arg, const char *key, gsize len);

/* Keeps k (a reference of its own) as long as m. */
void ftl_tep_memo_keep_kallsyms(FtlTepMemo *m, FtlKallsyms *k);

/* The text rendered for the record of len bytes at data, NULL when none
 * is kept; and keeping one (a copy; NULL when the memo is full). The text
 * lives as long as m. Thread-safe. */
const char *ftl_tep_memo_text(FtlTepMemo *m, const void *data, gsize len);
const char *ftl_tep_memo_add_text(FtlTepMemo *m, const void *data, gsize len, const char *text);
