/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Counts: per-CPU and per-event-name tallies and time spans. */
#include "analysis/counts.h"

#include "util/slots.h"

struct _FtlCounts {
	GArray *cpus;	   /* FtlCpuCounts, index cpu + 1 */
	GHashTable *names; /* interned name -> FtlNameCount* */
	GPtrArray *sorted_names;
	GArray *sorted_cpus; /* FtlCpuCounts that saw events */
	GPtrArray *markers;  /* FtlMarkerSample* */
	guint64 kinds[FTL_EVENT_N_KINDS];
	guint64 event_lines, events, lost_events, lost_lines;
	gint64 first_ts, last_ts;
	/* the last two names counted: function_graph entries and exits take
	 * turns, and each would miss a cache of one */
	const char *last_name[2];
	FtlNameCount *last_nc[2];
};

static void counts_marker_free(gpointer p)
{
	FtlMarkerSample *m = p;
	g_free(m->text);
	g_free(m);
}

FtlCounts *ftl_counts_new(void)
{
	FtlCounts *c = g_new0(FtlCounts, 1);
	c->cpus = g_array_new(FALSE, TRUE, sizeof(FtlCpuCounts));
	c->names = g_hash_table_new_full(g_direct_hash, g_direct_equal, NULL, g_free);
	c->markers = g_ptr_array_new_with_free_func(counts_marker_free);
	c->first_ts = c->last_ts = FTL_TS_NONE;
	return c;
}

void ftl_counts_free(FtlCounts *c)
{
	if (!c)
		return;
	g_array_unref(c->cpus);
	g_hash_table_destroy(c->names);
	if (c->sorted_names)
		g_ptr_array_unref(c->sorted_names);
	if (c->sorted_cpus)
		g_array_unref(c->sorted_cpus);
	g_ptr_array_unref(c->markers);
	g_free(c);
}

/* slot 0 holds the events without a CPU */
static void counts_cpu_init(gpointer slot, guint idx)
{
	FtlCpuCounts *cc = slot;
	cc->cpu = (gint32)idx - 1;
	cc->first_ts = cc->last_ts = FTL_TS_NONE;
}

static FtlCpuCounts *counts_cpu(FtlCounts *c, gint32 cpu)
{
	return ftl_slots_get(c->cpus, cpu < 0 ? 0 : (guint)cpu + 1, sizeof(FtlCpuCounts),
			     counts_cpu_init);
}

void ftl_counts_feed(FtlCounts *c, const FtlEvent *ev)
{
	FtlCpuCounts *cc = counts_cpu(c, ev->cpu);
	cc->events++;
	c->events++;
	c->kinds[ev->kind]++;
	/* a leaf's synthesized exit time is computed, not printed: spans use what
	 * the lines say, like the quality window does */
	if (ev->ts != FTL_TS_NONE && !(ev->flags & FTL_EVENT_F_SYNTH)) {
		if (cc->first_ts == FTL_TS_NONE || ev->ts < cc->first_ts)
			cc->first_ts = ev->ts;
		if (cc->last_ts == FTL_TS_NONE || ev->ts > cc->last_ts)
			cc->last_ts = ev->ts;
		if (c->first_ts == FTL_TS_NONE || ev->ts < c->first_ts)
			c->first_ts = ev->ts;
		if (c->last_ts == FTL_TS_NONE || ev->ts > c->last_ts)
			c->last_ts = ev->ts;
	}
	if (ev->flags & FTL_EVENT_F_SYNTH)
		return;
	if (ev->kind == FTL_EVENT_LOST) {
		cc->lost_lines++;
		cc->lost_events += ev->u.lost.count;
		c->lost_lines++;
		c->lost_events += ev->u.lost.count;
		return;
	}
	if (ev->kind == FTL_EVENT_BUFFER_START) {
		cc->buffer_started++;
		return;
	}
	cc->event_lines++;
	c->event_lines++;
	if (ev->name) {
		FtlNameCount *nc;
		if (ev->name == c->last_name[0]) {
			nc = c->last_nc[0];
		} else if (ev->name == c->last_name[1]) {
			nc = c->last_nc[1];
		} else {
			nc = g_hash_table_lookup(c->names, ev->name);
			if (!nc) {
				nc = g_new0(FtlNameCount, 1);
				nc->name = ev->name;
				g_hash_table_insert(c->names, (gpointer)ev->name, nc);
			}
			c->last_name[1] = c->last_name[0];
			c->last_nc[1] = c->last_nc[0];
			c->last_name[0] = ev->name;
			c->last_nc[0] = nc;
		}
		nc->count++;
	}
	if (ev->kind == FTL_EVENT_MARKER && c->markers->len < FTL_COUNTS_MARKER_SAMPLES) {
		FtlMarkerSample *m = g_new0(FtlMarkerSample, 1);
		m->ts = ev->ts;
		m->cpu = ev->cpu;
		m->pid = ev->pid;
		m->line = ev->line;
		m->text = g_strndup(ev->u.marker.text.p, ev->u.marker.text.len);
		g_ptr_array_add(c->markers, m);
	}
}

static gint counts_name_cmp(gconstpointer a, gconstpointer b)
{
	const FtlNameCount *x = *(const FtlNameCount *const *)a;
	const FtlNameCount *y = *(const FtlNameCount *const *)b;
	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	return g_strcmp0(x->name, y->name);
}

void ftl_counts_finish(FtlCounts *c)
{
	c->sorted_names = g_ptr_array_new();
	GHashTableIter it;
	gpointer v;
	g_hash_table_iter_init(&it, c->names);
	while (g_hash_table_iter_next(&it, NULL, &v))
		g_ptr_array_add(c->sorted_names, v);
	g_ptr_array_sort(c->sorted_names, counts_name_cmp);
	c->sorted_cpus = g_array_new(FALSE, FALSE, sizeof(FtlCpuCounts));
	for (guint i = 0; i < c->cpus->len; i++) {
		FtlCpuCounts *cc = &g_array_index(c->cpus, FtlCpuCounts, i);
		if (cc->events)
			g_array_append_val(c->sorted_cpus, *cc);
	}
}

guint ftl_counts_n_cpus(const FtlCounts *c)
{
	return c->sorted_cpus->len;
}

const FtlCpuCounts *ftl_counts_cpu(const FtlCounts *c, guint i)
{
	return &g_array_index(c->sorted_cpus, FtlCpuCounts, i);
}

GPtrArray *ftl_counts_names(const FtlCounts *c)
{
	return c->sorted_names;
}

guint64 ftl_counts_kind(const FtlCounts *c, FtlEventKind kind)
{
	return c->kinds[kind];
}

guint64 ftl_counts_event_lines(const FtlCounts *c)
{
	return c->event_lines;
}

guint64 ftl_counts_events(const FtlCounts *c)
{
	return c->events;
}

guint64 ftl_counts_lost_events(const FtlCounts *c)
{
	return c->lost_events;
}

guint64 ftl_counts_lost_lines(const FtlCounts *c)
{
	return c->lost_lines;
}

gint64 ftl_counts_first_ts(const FtlCounts *c)
{
	return c->first_ts;
}

gint64 ftl_counts_last_ts(const FtlCounts *c)
{
	return c->last_ts;
}

GPtrArray *ftl_counts_marker_samples(const FtlCounts *c)
{
	return c->markers;
}

const char *ftl_counts_tracer(const FtlCounts *c, const FtlTrace *trace)
{
	const char *t = ftl_trace_tracer(trace);
	if (t)
		return t;
	/* No header: say what the events show. */
	if (ftl_counts_kind(c, FTL_EVENT_FUNC_ENTRY) || ftl_counts_kind(c, FTL_EVENT_FUNC_EXIT))
		return "function_graph (inferred)";
	if (ftl_counts_kind(c, FTL_EVENT_FUNC))
		return "function (inferred)";
	return "unknown";
}

FTL_CONSUMER_DEFINE(counts, FtlCounts);
