/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The one event loop of the analyses: iterate once, feed every consumer. */
#include "config.h"

#include "analysis/pass.h"

typedef struct {
	const FtlConsumerClass *klass;
	gpointer self;
} PassConsumer;

G_STATIC_ASSERT(FTL_EVENT_N_KINDS <= 32);

struct _FtlPass {
	GArray *consumers; /* PassConsumer, in the order added */
	/* by kind, the consumers that take it (in the order added); the last
	 * holds them all, for a kind beyond the known */
	GArray *by_kind[FTL_EVENT_N_KINDS + 1];
};

FtlPass *ftl_pass_new(void)
{
	FtlPass *p = g_new0(FtlPass, 1);
	p->consumers = g_array_new(FALSE, FALSE, sizeof(PassConsumer));
	for (guint k = 0; k <= FTL_EVENT_N_KINDS; k++)
		p->by_kind[k] = g_array_new(FALSE, FALSE, sizeof(PassConsumer));
	return p;
}

void ftl_pass_free(FtlPass *p)
{
	if (!p)
		return;
	g_array_unref(p->consumers);
	for (guint k = 0; k <= FTL_EVENT_N_KINDS; k++)
		g_array_unref(p->by_kind[k]);
	g_free(p);
}

void ftl_pass_add(FtlPass *p, const FtlConsumerClass *klass, gpointer self)
{
	PassConsumer c = { klass, self };
	g_array_append_val(p->consumers, c);
	for (guint k = 0; k <= FTL_EVENT_N_KINDS; k++)
		if (!klass->kinds || k == FTL_EVENT_N_KINDS || (klass->kinds & FTL_PASS_KIND(k)))
			g_array_append_val(p->by_kind[k], c);
}

void ftl_pass_feed(FtlPass *p, const FtlEvent *ev)
{
	guint k = (guint)ev->kind < FTL_EVENT_N_KINDS ? (guint)ev->kind : FTL_EVENT_N_KINDS;
	const GArray *list = p->by_kind[k];
	const PassConsumer *cs = (const PassConsumer *)list->data;
	for (guint i = 0, n = list->len; i < n; i++)
		cs[i].klass->feed(cs[i].self, ev);
}

void ftl_pass_finish(FtlPass *p)
{
	const PassConsumer *cs = (const PassConsumer *)p->consumers->data;
	for (guint i = 0, n = p->consumers->len; i < n; i++)
		cs[i].klass->finish(cs[i].self);
}

gboolean ftl_pass_run(FtlPass *p, FtlTrace *trace, const FtlFilter *filter, GError **error)
{
	g_autoptr(FtlIter) it = ftl_iter_new(trace, filter);
	const FtlEvent *ev;
	FtlStatus st;
	while ((st = ftl_iter_next(it, &ev, error)) == FTL_STATUS_OK)
		ftl_pass_feed(p, ev);
	if (st == FTL_STATUS_ERROR)
		return FALSE;
	ftl_pass_finish(p);
	return TRUE;
}
