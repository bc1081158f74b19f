/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Counter tracks: the step intervals of cpu_frequency, cpu_idle, thermal and
 * power events and the user's counters (conventions in counters.h). */
#include "analysis/counters.h"

#include <string.h>

#include "util/checked.h"
#include "util/error.h"

typedef struct {
	char *event, *field, *key; /* key NULL: cpu_id when present, else the CPU */
	FtlCounterKind kind;
	guint64 seen, unreadable; /* its events, those without a numeric field */
} CounterSpec;

/* A track as it accumulates. */
typedef struct {
	FtlCounterTrack pub;
	guint spec;
	gint64 cur;	   /* the value now */
	gint64 since;	   /* from when, FTL_TS_NONE before the first event */
	GHashTable *levels; /* value (gint64*) -> FtlCounterLevel* */
} Track;

typedef struct {
	gpointer fn;
	gpointer data;
} CounterListener;

struct _FtlCounters {
	GArray *specs;	    /* CounterSpec */
	GHashTable *names;  /* interned event name -> spec index + 1, 0: none */
	GHashTable *tracks; /* "spec\x1fkey" -> Track* */
	GPtrArray *order;   /* Track*, after finish: the public order */
	GArray *on_step;
	gint64 last_ts;
};

static const struct {
	const char *event, *field, *key;
	FtlCounterKind kind;
} builtin[] = {
	{ "cpu_frequency", "state", "cpu_id", FTL_COUNTER_FREQ },
	{ "cpu_idle", "state", "cpu_id", FTL_COUNTER_IDLE },
	{ "devfreq_frequency", "freq", "dev_name", FTL_COUNTER_FREQ },
	{ "thermal_temperature", "temp", "thermal_zone", FTL_COUNTER_THERMAL },
	{ "cdev_update", "target", "type", FTL_COUNTER_THERMAL },
	{ "clock_set_rate", "state", "name", FTL_COUNTER_POWER },
	{ "power_domain_target", "state", "name", FTL_COUNTER_POWER },
};

const char *ftl_counter_kind_name(FtlCounterKind kind)
{
	static const char *const names[] = { "freq", "idle", "thermal", "power", "user" };
	return kind < G_N_ELEMENTS(names) ? names[kind] : "?";
}

static void counter_spec_add(FtlCounters *c, const char *event, const char *field,
			     const char *key, FtlCounterKind kind)
{
	/* a user's counter of a built-in event replaces it */
	for (guint i = 0; i < c->specs->len; i++) {
		CounterSpec *s = &g_array_index(c->specs, CounterSpec, i);
		if (!strcmp(s->event, event)) {
			g_free(s->field);
			g_free(s->key);
			s->field = g_strdup(field);
			s->key = g_strdup(key);
			s->kind = kind;
			return;
		}
	}
	CounterSpec s = { g_strdup(event), g_strdup(field), g_strdup(key), kind, 0, 0 };
	g_array_append_val(c->specs, s);
}

static void counter_spec_clear(gpointer p)
{
	CounterSpec *s = p;
	g_free(s->event);
	g_free(s->field);
	g_free(s->key);
}

static void track_free(gpointer p)
{
	Track *t = p;
	g_hash_table_unref(t->levels);
	g_free((char *)t->pub.key);
	g_free(t->pub.levels);
	g_free(t);
}

FtlCounters *ftl_counters_new(void)
{
	FtlCounters *c = g_new0(FtlCounters, 1);
	c->specs = g_array_new(FALSE, TRUE, sizeof(CounterSpec));
	g_array_set_clear_func(c->specs, counter_spec_clear);
	for (guint i = 0; i < G_N_ELEMENTS(builtin); i++)
		counter_spec_add(c, builtin[i].event, builtin[i].field, builtin[i].key,
				 builtin[i].kind);
	c->names = g_hash_table_new(NULL, NULL);
	c->tracks = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, track_free);
	c->on_step = g_array_new(FALSE, FALSE, sizeof(CounterListener));
	c->last_ts = FTL_TS_NONE;
	return c;
}

void ftl_counters_free(FtlCounters *c)
{
	if (!c)
		return;
	if (c->order)
		g_ptr_array_unref(c->order);
	g_hash_table_unref(c->tracks);
	g_hash_table_unref(c->names);
	g_array_unref(c->specs);
	g_array_unref(c->on_step);
	g_free(c);
}

static gboolean counter_word(const char *w)
{
	if (!*w)
		return FALSE;
	for (const char *q = w; *q; q++)
		if (!g_ascii_isalnum(*q) && *q != '_')
			return FALSE;
	return TRUE;
}

gboolean ftl_counters_add_spec(FtlCounters *c, const char *spec, GError **error)
{
	g_auto(GStrv) part = g_strsplit(spec, ":", 4);
	guint n = g_strv_length(part);
	if (n < 2 || n > 3 || !counter_word(part[0]) || !counter_word(part[1]) ||
	    (n == 3 && !counter_word(part[2]))) {
		g_set_error(error, FTL_ERROR, FTL_ERROR_USAGE,
			    "--counter '%s': expected EVENT:FIELD or EVENT:FIELD:KEY (names of "
			    "letters, digits and '_')",
			    spec);
		return FALSE;
	}
	counter_spec_add(c, part[0], part[1], n == 3 ? part[2] : NULL, FTL_COUNTER_USER);
	return TRUE;
}

FtlCounters *ftl_counters_new_specs(char *const *specs, GError **error)
{
	g_autoptr(FtlCounters) c = ftl_counters_new();
	for (guint i = 0; specs && specs[i]; i++)
		if (!ftl_counters_add_spec(c, specs[i], error))
			return NULL;
	return g_steal_pointer(&c);
}

void ftl_counters_add_on_step(FtlCounters *c, FtlCounterStepFunc fn, gpointer data)
{
	CounterListener l = { (gpointer)fn, data };
	g_array_append_val(c->on_step, l);
}

static int counter_spec_of(FtlCounters *c, const char *name)
{
	gpointer v;
	if (g_hash_table_lookup_extended(c->names, name, NULL, &v))
		return GPOINTER_TO_INT(v) - 1;
	int k = -1;
	for (guint i = 0; i < c->specs->len && k < 0; i++)
		if (!strcmp(g_array_index(c->specs, CounterSpec, i).event, name))
			k = (int)i;
	g_hash_table_insert(c->names, (gpointer)name, GINT_TO_POINTER(k + 1));
	return k;
}

/* The track's key: the CPU the key field (or the event) names, or the
 * key field's text. */
static char *counter_key(const CounterSpec *s, const FtlEvent *ev, gint32 *cpu)
{
	const char *field = s->key ? s->key : "cpu_id";
	gint64 v;
	FtlSlice text;
	*cpu = -1;
	if (!strcmp(field, "cpu_id") || !strcmp(field, "cpu")) {
		if (ftl_event_field_int(ev, field, &v) && v >= 0 && v < G_MAXINT32)
			*cpu = (gint32)v;
		else if (!s->key || ev->cpu >= 0)
			*cpu = ev->cpu;
		return *cpu >= 0 ? g_strdup_printf("cpu %d", *cpu) : g_strdup("?");
	}
	if (ftl_event_field(ev, field, &text))
		return g_strndup(text.p, text.len);
	return g_strdup("?");
}

static void counter_emit(FtlCounters *c, Track *t, gint64 t1)
{
	if (t->since == FTL_TS_NONE || t1 < t->since)
		return;
	gint64 d = ftl_sat_sub_i64(t1, t->since);
	FtlCounterLevel *lv = g_hash_table_lookup(t->levels, &t->cur);
	if (!lv) {
		lv = g_new0(FtlCounterLevel, 1);
		lv->value = t->cur;
		g_hash_table_insert(t->levels, &lv->value, lv);
	}
	lv->ns = ftl_sat_add_i64(lv->ns, d);
	lv->entries++;
	FtlCounterStep st = { &t->pub, t->since, t1, t->cur };
	for (guint i = 0; i < c->on_step->len; i++) {
		CounterListener *l = &g_array_index(c->on_step, CounterListener, i);
		((FtlCounterStepFunc)l->fn)(&st, l->data);
	}
}

void ftl_counters_feed(FtlCounters *c, const FtlEvent *ev)
{
	if (ev->ts != FTL_TS_NONE && (c->last_ts == FTL_TS_NONE || ev->ts > c->last_ts))
		c->last_ts = ev->ts;
	if (!ev->name || ev->ts == FTL_TS_NONE)
		return;
	int k = counter_spec_of(c, ev->name);
	if (k < 0)
		return;
	CounterSpec *s = &g_array_index(c->specs, CounterSpec, k);
	/* the built-in tracks are generic events; a user's may be any event
	 * whose payload has the field (sched_switch's next_prio) */
	if (ev->kind != FTL_EVENT_GENERIC && s->kind != FTL_COUNTER_USER)
		return;
	s->seen++;
	gint64 v;
	if (!ftl_event_field_int(ev, s->field, &v)) {
		s->unreadable++;
		return;
	}
	if (s->kind == FTL_COUNTER_IDLE && v == G_MAXUINT32)
		v = -1;
	gint32 cpu;
	g_autofree char *key = counter_key(s, ev, &cpu);
	g_autofree char *id = g_strdup_printf("%d\x1f%s", k, key);
	Track *t = g_hash_table_lookup(c->tracks, id);
	if (!t) {
		t = g_new0(Track, 1);
		t->spec = (guint)k;
		t->pub.kind = s->kind;
		t->pub.event = ev->name;
		t->pub.field = s->field;
		t->pub.key = g_steal_pointer(&key);
		t->pub.cpu = cpu;
		t->pub.t0 = ev->ts;
		t->pub.min = t->pub.max = v;
		t->since = FTL_TS_NONE;
		t->levels = g_hash_table_new_full(g_int64_hash, g_int64_equal, NULL, g_free);
		g_hash_table_insert(c->tracks, g_steal_pointer(&id), t);
	}
	t->pub.events++;
	t->pub.min = MIN(t->pub.min, v);
	t->pub.max = MAX(t->pub.max, v);
	if (t->since != FTL_TS_NONE && v == t->cur)
		return; /* the same value again: one step goes on */
	counter_emit(c, t, ev->ts);
	t->cur = v;
	t->since = ev->ts;
}

static int level_cmp(gconstpointer a, gconstpointer b)
{
	const FtlCounterLevel *x = a, *y = b;
	return x->value < y->value ? -1 : x->value > y->value;
}

static int track_cmp(gconstpointer a, gconstpointer b)
{
	const Track *x = *(Track *const *)a, *y = *(Track *const *)b;
	if (x->pub.kind != y->pub.kind)
		return x->pub.kind < y->pub.kind ? -1 : 1;
	int e = strcmp(x->pub.event, y->pub.event);
	if (e)
		return e;
	if (x->pub.cpu != y->pub.cpu)
		return x->pub.cpu < y->pub.cpu ? -1 : 1;
	return strcmp(x->pub.key, y->pub.key);
}

void ftl_counters_finish(FtlCounters *c)
{
	c->order = g_ptr_array_new();
	GHashTableIter it;
	gpointer v;
	g_hash_table_iter_init(&it, c->tracks);
	while (g_hash_table_iter_next(&it, NULL, &v))
		g_ptr_array_add(c->order, v);
	g_ptr_array_sort(c->order, track_cmp);
	for (guint i = 0; i < c->order->len; i++) {
		Track *t = g_ptr_array_index(c->order, i);
		t->pub.index = i;
		t->pub.t1 = MAX(c->last_ts, t->since);
		counter_emit(c, t, t->pub.t1);
		t->pub.n_levels = g_hash_table_size(t->levels);
		t->pub.levels = g_new0(FtlCounterLevel, MAX(1, t->pub.n_levels));
		GHashTableIter li;
		guint n = 0;
		g_hash_table_iter_init(&li, t->levels);
		while (g_hash_table_iter_next(&li, NULL, &v))
			t->pub.levels[n++] = *(FtlCounterLevel *)v;
		qsort(t->pub.levels, n, sizeof(FtlCounterLevel), level_cmp);
	}
}

guint ftl_counters_n_tracks(const FtlCounters *c)
{
	return c->order ? c->order->len : 0;
}

const FtlCounterTrack *ftl_counters_track(const FtlCounters *c, guint i)
{
	return &((Track *)g_ptr_array_index(c->order, i))->pub;
}

guint64 ftl_counters_unreadable(const FtlCounters *c)
{
	guint64 n = 0;
	for (guint k = 0; k < c->specs->len; k++)
		n += g_array_index(c->specs, CounterSpec, k).unreadable;
	return n;
}

gboolean ftl_counters_check_user(const FtlCounters *c, const char *cmd, const char *input,
				 GError **error)
{
	for (guint k = 0; k < c->specs->len; k++) {
		const CounterSpec *s = &g_array_index(c->specs, CounterSpec, k);
		if (s->kind != FTL_COUNTER_USER || s->seen > s->unreadable)
			continue;
		if (!s->seen)
			g_set_error(error, FTL_ERROR, FTL_ERROR_EMPTY,
				    "%s: --counter %s:%s: no %s event in %s", cmd, s->event,
				    s->field, s->event, input);
		else
			g_set_error(error, FTL_ERROR, FTL_ERROR_EMPTY,
				    "%s: --counter %s:%s: none of the %" G_GUINT64_FORMAT
				    " %s events in %s has a numeric %s",
				    cmd, s->event, s->field, s->seen, s->event, input, s->field);
		return FALSE;
	}
	return TRUE;
}

/* ---- steps kept for drawing ------------------------------------------------- */

struct _FtlCounterSteps {
	GArray *steps; /* FtlCounterStep */
	guint *first;  /* per track, its first step; [n] = steps->len */
	guint n_tracks;
};

FtlCounterSteps *ftl_counter_steps_new(void)
{
	FtlCounterSteps *s = g_new0(FtlCounterSteps, 1);
	s->steps = g_array_new(FALSE, FALSE, sizeof(FtlCounterStep));
	return s;
}

void ftl_counter_steps_free(FtlCounterSteps *s)
{
	if (!s)
		return;
	g_array_unref(s->steps);
	g_free(s->first);
	g_free(s);
}

void ftl_counter_steps_add(const FtlCounterStep *st, gpointer data)
{
	FtlCounterSteps *s = data;
	g_array_append_val(s->steps, *st);
}

static int step_cmp(gconstpointer a, gconstpointer b)
{
	const FtlCounterStep *x = a, *y = b;
	if (x->track->index != y->track->index)
		return x->track->index < y->track->index ? -1 : 1;
	return x->t0 < y->t0 ? -1 : x->t0 > y->t0;
}

void ftl_counter_steps_seal(FtlCounterSteps *s, const FtlCounters *c)
{
	guint n = ftl_counters_n_tracks(c);
	g_array_sort(s->steps, step_cmp);
	g_free(s->first);
	s->first = g_new0(guint, n + 1);
	s->n_tracks = n;
	guint i = 0;
	for (guint k = 0; k <= n; k++) {
		while (i < s->steps->len &&
		       g_array_index(s->steps, FtlCounterStep, i).track->index < k)
			i++;
		s->first[k] = i;
	}
}

const FtlCounterStep *ftl_counter_steps_from(const FtlCounterSteps *s, guint track, gint64 t,
					     guint *n)
{
	*n = 0;
	if (!s->first || track >= s->n_tracks)
		return NULL;
	const FtlCounterStep *st = (const FtlCounterStep *)(void *)s->steps->data;
	/* a track's steps follow each other: their ends go up */
	guint lo = s->first[track], hi = s->first[track + 1];
	while (lo < hi) {
		guint mid = lo + (hi - lo) / 2;
		if (st[mid].t1 < t)
			lo = mid + 1;
		else
			hi = mid;
	}
	*n = s->first[track + 1] - lo;
	return st + lo;
}

FTL_CONSUMER_DEFINE(counters, FtlCounters);
