/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The shared analysis pass of report, graph and diff. */
#include "config.h"

#include "cli/pass.h"

#define PASS_LONGEST 50

static void pass_on_call(const FtlCall *call, gpointer data)
{
	FtlPass *p = data;
	ftl_funcstats_add_call(call, p->funcs);
	ftl_longest_add_call(call, p->longest);
}

void ftl_pass_free(FtlPass *p)
{
	if (!p)
		return;
	ftl_counts_free(p->counts);
	ftl_quality_free(p->quality);
	ftl_comm_free(p->comm);
	ftl_markers_free(p->markers);
	ftl_calltree_free(p->tree);
	ftl_funcstats_free(p->funcs);
	ftl_longest_free(p->longest);
	ftl_trace_free(p->trace);
	g_free(p);
}

FtlPass *ftl_pass_run(const FtlCliGlobals *g, int argc, char **argv, FtlFuncStatsKey key,
		      FtlCallTreeGroup group, const char *focus, GError **error)
{
	g_autoptr(FtlPass) p = g_new0(FtlPass, 1);
	p->trace = ftl_cli_open_trace(g, argc, argv, error);
	if (!p->trace)
		return NULL;
	FtlTrace *t = p->trace;
	p->counts = ftl_counts_new();
	p->quality = ftl_quality_new(t);
	p->comm = ftl_comm_new(ftl_trace_tasks(t), ftl_trace_pool(t));
	p->markers = ftl_markers_new();
	p->tree = ftl_calltree_new(group, ftl_trace_diags(t));
	p->funcs = ftl_funcstats_new(key);
	p->longest = ftl_longest_new(PASS_LONGEST);
	ftl_calltree_set_on_call(p->tree, pass_on_call, p);
	if (focus)
		ftl_calltree_set_focus(p->tree, ftl_strpool_intern(ftl_trace_pool(t), focus));
	g_autoptr(FtlIter) it = ftl_iter_new(t, &g->filter);
	const FtlEvent *ev;
	FtlStatus st;
	while ((st = ftl_iter_next(it, &ev, error)) == FTL_STATUS_OK) {
		ftl_counts_feed(p->counts, ev);
		ftl_quality_feed(p->quality, ev);
		ftl_comm_feed(p->comm, ev);
		ftl_markers_feed(p->markers, ev);
		ftl_calltree_feed(p->tree, ev);
		ftl_funcstats_feed(p->funcs, ev);
	}
	if (st == FTL_STATUS_ERROR)
		return NULL;
	ftl_counts_finish(p->counts);
	ftl_quality_finish(p->quality);
	ftl_comm_finish(p->comm);
	ftl_markers_finish(p->markers);
	ftl_calltree_finish(p->tree);
	ftl_funcstats_finish(p->funcs);
	guint n = ftl_trace_n_sources(t);
	p->dialect = n ? ftl_source_dialect(ftl_trace_source(t, 0)) : "none";
	for (guint i = 1; i < n; i++)
		if (g_strcmp0(p->dialect, ftl_source_dialect(ftl_trace_source(t, i))))
			p->dialect = "mixed";
	return g_steal_pointer(&p);
}
