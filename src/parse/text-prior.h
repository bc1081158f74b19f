/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The task a CPU ran before the first task-switch line the text shows for it
 * (function_graph without funcgraph-proc, the kernel's default): the one that
 * line names as switched out. Found by reading ahead of the parse for the
 * switch lines alone, so a CPU's first calls belong to their task, not to an
 * unknown one shared with whatever runs next. */
#pragma once

#include <glib.h>

#include "parse/text-chunk.h"

/* Up to len bytes of the input at offset off into buf: the count read, 0 at
 * the end or when the input cannot be read there. */
typedef gsize (*TextPriorRead)(gpointer data, guint64 off, char *buf, gsize len);

typedef struct _TextPrior TextPrior;

/* ctx parses the switch lines (borrowed: it outlives the result). Free with
 * ftl_text_prior_free(). */
TextPrior *ftl_text_prior_new(const TextChunkCtx *ctx, TextPriorRead read, gpointer data);
void ftl_text_prior_free(TextPrior *p);

/* The task on cpu at input offset off, for an event on a CPU that no switch
 * line before it named: the switched-out task of the CPU's next switch line
 * within FTL_TEXT_PRIOR_AHEAD bytes of where the look started. FALSE when
 * there is none (pid and comm untouched); comm is interned in ctx's pool. */
#define FTL_TEXT_PRIOR_AHEAD ((guint64)64 << 20)
gboolean ftl_text_prior_task(TextPrior *p, guint64 off, gint32 cpu, gint32 *pid,
			     const char **comm);

G_DEFINE_AUTOPTR_CLEANUP_FUNC(TextPrior, ftl_text_prior_free)
