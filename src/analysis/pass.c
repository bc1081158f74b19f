/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The one event loop of the analyses: iterate once, feed every consumer. */
#include "config.h"

#include "analysis/pass.h"

typedef struct {
	const FtlConsumerClass *klass;
	gpointer self;
} PassConsumer;

struct _FtlPass {
	GArray *consumers; /* PassConsumer */
};

FtlPass *ftl_pass_new(void)
{
	FtlPass *p = g_new0(FtlPass, 1);
	p->consumers = g_array_new(FALSE, FALSE, sizeof(PassConsumer));
	return p;
}

void ftl_pass_free(FtlPass *p)
{
	if (!p)
		return;
	g_array_unref(p->consumers);
	g_free(p);
}

void ftl_pass_add(FtlPass *p, const FtlConsumerClass *klass, gpointer self)
{
	PassConsumer c = { klass, self };
	g_array_append_val(p->consumers, c);
}

void ftl_pass_feed(FtlPass *p, const FtlEvent *ev)
{
	const PassConsumer *cs = (const PassConsumer *)p->consumers->data;
	for (guint i = 0, n = p->consumers->len; i < n; i++)
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
