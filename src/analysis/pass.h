/* SPDX-License-Identifier: GPL-2.0-or-later */
/* One streaming pass over a trace feeding the analyses a command asked for.
 *
 * Every analysis is a consumer: feed(event) for each event in time order,
 * then finish() once; its results are read-only after that, and views read
 * them. A command builds its pass from the consumers it prints, so it never
 * pays for one it does not show, and a new analysis plugs in by defining a
 * consumer (FTL_CONSUMER_DEFINE) without any change here. */
#pragma once

#include <glib.h>

#include "model/iter.h"
#include "model/trace.h"

typedef struct {
	const char *name;
	void (*feed)(gpointer self, const FtlEvent *ev);
	void (*finish)(gpointer self);
	/* The kinds feed does anything with, as FTL_PASS_KIND() bits: the pass
	 * feeds it no other. 0 is every kind. */
	guint32 kinds;
} FtlConsumerClass;

#define FTL_PASS_KIND(kind) (1u << (kind))

/* Defines `const FtlConsumerClass ftl_STEM_consumer` over the module's
 * ftl_STEM_feed(Type *, const FtlEvent *) and ftl_STEM_finish(Type *),
 * fed every event. */
#define FTL_CONSUMER_DEFINE(stem, Type) FTL_CONSUMER_DEFINE_KINDS(stem, Type, 0)

/* The same for a consumer whose feed ignores every event of a kind not
 * among kinds (FTL_PASS_KIND() bits): on a trace of other kinds it costs
 * no call per event. */
#define FTL_CONSUMER_DEFINE_KINDS(stem, Type, kinds_mask)                                          \
	static void stem##_consumer_feed(gpointer self, const FtlEvent *ev)                        \
	{                                                                                          \
		ftl_##stem##_feed((Type *)self, ev);                                               \
	}                                                                                          \
	static void stem##_consumer_finish(gpointer self)                                          \
	{                                                                                          \
		ftl_##stem##_finish((Type *)self);                                                 \
	}                                                                                          \
	const FtlConsumerClass ftl_##stem##_consumer = { #stem, stem##_consumer_feed,              \
							 stem##_consumer_finish, kinds_mask }

typedef struct _FtlPass FtlPass;

FtlPass *ftl_pass_new(void);
void ftl_pass_free(FtlPass *p);
/* Adds a consumer (self borrowed: it must outlive the run). Consumers are
 * fed each event of their kinds in the order they were added. */
void ftl_pass_add(FtlPass *p, const FtlConsumerClass *klass, gpointer self);
/* Feeds every event of trace that filter lets through (filter may be NULL)
 * to every consumer, then finishes them in order. FALSE with error when
 * the trace cannot be read; the consumers are not finished then. */
gboolean ftl_pass_run(FtlPass *p, FtlTrace *trace, const FtlFilter *filter, GError **error);
/* The two halves of ftl_pass_run(), for a caller that owns the loop (the
 * TUI reads in a thread of its own, reports progress and filters with more
 * than FtlFilter): every event to every consumer of its kind, then finish
 * them all. */
void ftl_pass_feed(FtlPass *p, const FtlEvent *ev);
void ftl_pass_finish(FtlPass *p);

G_DEFINE_AUTOPTR_CLEANUP_FUNC(FtlPass, ftl_pass_free)
