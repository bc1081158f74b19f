/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The trail of a kernel report: what the ftrace dump printed with it says
 * happened before, as the last events of every CPU, the calls still open on
 * the crashing CPU and the markers. */
#include "analysis/oops.h"

#include "analysis/calltree.h"
#include "util/checked.h"

typedef struct {
	FtlOopsCpu c;
	FtlOopsEvent *ring; /* n slots */
	guint head, count;
} TrailCpu;

typedef struct {
	FtlOopsOpenCall call;
	gint32 cpu, pid;
} TrailOpen;

struct _FtlOopsTrail {
	guint n;
	gint crash_cpu;
	GArray *cpus; /* TrailCpu, sorted by CPU after finish */
	FtlCallTree *tree;
	FtlMarkers *markers;
	gboolean finishing;
	GArray *open_all; /* TrailOpen, calls left open at the end */
	GArray *path;	  /* FtlOopsOpenCall */
	gint path_cpu;
	gint last_func_cpu;
};

static void trail_on_call(const FtlCall *call, gpointer data)
{
	FtlOopsTrail *t = data;
	if (!t->finishing || (call->flags & ~FTL_CALL_F_RECURSIVE) != FTL_CALL_F_OPEN)
		return;
	TrailOpen o = { { call->func, call->depth, call->line }, call->cpu, call->pid };
	g_array_append_val(t->open_all, o);
}

FtlOopsTrail *ftl_oops_trail_new(guint n, gint crash_cpu)
{
	FtlOopsTrail *t = g_new0(FtlOopsTrail, 1);
	t->n = n;
	t->crash_cpu = crash_cpu;
	t->cpus = g_array_new(FALSE, TRUE, sizeof(TrailCpu));
	t->tree = ftl_calltree_new(FTL_CALLTREE_GROUP_NONE, NULL);
	ftl_calltree_add_on_call(t->tree, trail_on_call, t);
	t->markers = ftl_markers_new();
	t->open_all = g_array_new(FALSE, FALSE, sizeof(TrailOpen));
	t->path = g_array_new(FALSE, FALSE, sizeof(FtlOopsOpenCall));
	t->path_cpu = -1;
	t->last_func_cpu = -1;
	return t;
}

static void trail_event_clear(FtlOopsEvent *e)
{
	g_clear_pointer(&e->text, g_free);
}

void ftl_oops_trail_free(FtlOopsTrail *t)
{
	if (!t)
		return;
	for (guint i = 0; i < t->cpus->len; i++) {
		TrailCpu *c = &g_array_index(t->cpus, TrailCpu, i);
		for (guint k = 0; k < t->n; k++)
			trail_event_clear(&c->ring[k]);
		for (guint k = 0; k < c->c.n_last; k++)
			trail_event_clear(&c->c.last[k]);
		g_free(c->ring);
		g_free(c->c.last);
	}
	g_array_unref(t->cpus);
	ftl_calltree_free(t->tree);
	ftl_markers_free(t->markers);
	g_array_unref(t->open_all);
	g_array_unref(t->path);
	g_free(t);
}

static TrailCpu *trail_cpu(FtlOopsTrail *t, gint32 cpu)
{
	for (guint i = 0; i < t->cpus->len; i++) {
		TrailCpu *c = &g_array_index(t->cpus, TrailCpu, i);
		if (c->c.cpu == cpu)
			return c;
	}
	TrailCpu nc = { .c.cpu = cpu, .ring = g_new0(FtlOopsEvent, MAX(t->n, 1)) };
	g_array_append_val(t->cpus, nc);
	return &g_array_index(t->cpus, TrailCpu, t->cpus->len - 1);
}

void ftl_oops_trail_feed(FtlOopsTrail *t, const FtlEvent *ev)
{
	TrailCpu *c = trail_cpu(t, ev->cpu);
	c->c.events++;
	if (ev->kind == FTL_EVENT_LOST)
		c->c.lost = ftl_sat_add_u64(c->c.lost, ev->u.lost.count);
	else if (!(ev->flags & FTL_EVENT_F_SYNTH))
		c->c.event_lines++;
	if (ev->kind == FTL_EVENT_FUNC_ENTRY || ev->kind == FTL_EVENT_FUNC_EXIT)
		t->last_func_cpu = ev->cpu;
	ftl_calltree_feed(t->tree, ev);
	ftl_markers_feed(t->markers, ev);
	/* a leaf's exit is made from the same line as its entry: keep the line once */
	if (t->n == 0 || (ev->flags & FTL_EVENT_F_SYNTH))
		return;
	FtlOopsEvent *slot = &c->ring[c->head];
	trail_event_clear(slot);
	*slot = (FtlOopsEvent){
		.line = ev->line,
		.ts = ev->ts,
		.pid = ev->pid,
		.kind = ev->kind,
		.text = g_strndup(ev->raw.p ? ev->raw.p : "", ev->raw.len),
	};
	c->head = (c->head + 1) % t->n;
	if (c->count < t->n)
		c->count++;
}

static gint trail_cpu_cmp(gconstpointer a, gconstpointer b)
{
	const TrailCpu *x = a, *y = b;
	return (x->c.cpu > y->c.cpu) - (x->c.cpu < y->c.cpu);
}

static gint trail_open_cmp(gconstpointer a, gconstpointer b)
{
	const FtlOopsOpenCall *x = a, *y = b;
	if (x->depth != y->depth)
		return x->depth - y->depth;
	return (x->line > y->line) - (x->line < y->line);
}

void ftl_oops_trail_finish(FtlOopsTrail *t)
{
	t->finishing = TRUE;
	ftl_calltree_finish(t->tree);
	t->finishing = FALSE;
	ftl_markers_finish(t->markers);
	for (guint i = 0; i < t->cpus->len; i++) {
		TrailCpu *c = &g_array_index(t->cpus, TrailCpu, i);
		c->c.n_last = c->count;
		c->c.last = g_new0(FtlOopsEvent, MAX(c->count, 1));
		for (guint k = 0; k < c->count; k++) {
			guint from = (c->head + t->n - c->count + k) % t->n;
			c->c.last[k] = c->ring[from];
			c->ring[from].text = NULL;
		}
	}
	g_array_sort(t->cpus, trail_cpu_cmp);
	/* the open path: on the crashing CPU, the task that entered last */
	gint cpu = t->crash_cpu >= 0 ? t->crash_cpu : t->last_func_cpu;
	gint32 pid = G_MININT32;
	guint64 latest = 0;
	for (guint i = 0; i < t->open_all->len; i++) {
		const TrailOpen *o = &g_array_index(t->open_all, TrailOpen, i);
		if (o->cpu == cpu && o->call.line >= latest) {
			latest = o->call.line;
			pid = o->pid;
		}
	}
	for (guint i = 0; pid != G_MININT32 && i < t->open_all->len; i++) {
		const TrailOpen *o = &g_array_index(t->open_all, TrailOpen, i);
		if (o->cpu == cpu && o->pid == pid)
			g_array_append_val(t->path, o->call);
	}
	g_array_sort(t->path, trail_open_cmp);
	t->path_cpu = t->path->len ? cpu : -1;
}

guint ftl_oops_trail_n_cpus(const FtlOopsTrail *t)
{
	return t->cpus->len;
}

const FtlOopsCpu *ftl_oops_trail_cpu(const FtlOopsTrail *t, guint i)
{
	return &g_array_index(t->cpus, TrailCpu, i).c;
}

const FtlOopsOpenCall *ftl_oops_trail_open(const FtlOopsTrail *t, guint *n, gint *cpu)
{
	*n = t->path->len;
	*cpu = t->path_cpu;
	return (const FtlOopsOpenCall *)(void *)t->path->data;
}

const FtlMarkers *ftl_oops_trail_markers(const FtlOopsTrail *t)
{
	return t->markers;
}

FTL_CONSUMER_DEFINE(oops_trail, FtlOopsTrail);
