/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Counter tracks: steps, time per value, keys, cpu_idle's exit value,
 * the user's counters and bad values. */
#include "config.h"

#include "analysis/counters.h"
#include "evbuild.h"
#include "unit.h"

static void steps_collect(const FtlCounterStep *st, gpointer data)
{
	GString *s = data;
	g_string_append_printf(s, "%s %s %" G_GINT64_FORMAT "-%" G_GINT64_FORMAT " %" G_GINT64_FORMAT
			       "\n",
			       st->track->event, st->track->key, st->t0, st->t1, st->value);
}

static void cfeed(FtlCounters *c, FtlEvent ev)
{
	ftl_counters_feed(c, &ev);
}

static void test_freq_idle(void)
{
	g_autoptr(FtlCounters) c = ftl_counters_new();
	g_autoptr(GString) steps = g_string_new(NULL);
	ftl_counters_add_on_step(c, steps_collect, steps);
	cfeed(c, evb_generic(100, 0, 0, "swapper", "cpu_frequency", "state=700000 cpu_id=1"));
	cfeed(c, evb_generic(150, 0, 0, "swapper", "cpu_idle", "state=2 cpu_id=0"));
	cfeed(c, evb_generic(200, 0, 0, "swapper", "cpu_frequency", "state=700000 cpu_id=1"));
	cfeed(c, evb_generic(250, 0, 0, "swapper", "cpu_idle", "state=4294967295 cpu_id=0"));
	cfeed(c, evb_generic(300, 0, 0, "swapper", "cpu_frequency", "state=900000 cpu_id=1"));
	cfeed(c, evb_generic(320, 0, 0, "swapper", "cpu_frequency", "state=bogus cpu_id=1"));
	cfeed(c, evb_switch(400, 2, "a", 5, "b", 6));
	ftl_counters_finish(c);
	CU_ASSERT_STRING_EQUAL(steps->str, "cpu_idle cpu 0 150-250 2\n"
					   "cpu_frequency cpu 1 100-300 700000\n"
					   "cpu_frequency cpu 1 300-400 900000\n"
					   "cpu_idle cpu 0 250-400 -1\n");
	CU_ASSERT_EQUAL(ftl_counters_n_tracks(c), 2);
	const FtlCounterTrack *f = ftl_counters_track(c, 0), *i = ftl_counters_track(c, 1);
	CU_ASSERT_STRING_EQUAL(f->event, "cpu_frequency");
	CU_ASSERT_EQUAL(f->cpu, 1);
	CU_ASSERT_EQUAL(f->events, 3);
	CU_ASSERT_EQUAL(f->n_levels, 2);
	CU_ASSERT_EQUAL(f->levels[0].value, 700000);
	CU_ASSERT_EQUAL(f->levels[0].ns, 200);
	CU_ASSERT_EQUAL(f->levels[1].ns, 100);
	CU_ASSERT_EQUAL(f->t0, 100);
	CU_ASSERT_EQUAL(f->t1, 400);
	CU_ASSERT_STRING_EQUAL(i->event, "cpu_idle");
	CU_ASSERT_EQUAL(i->levels[0].value, -1);
	CU_ASSERT_EQUAL(i->levels[0].ns, 150);
	CU_ASSERT_EQUAL(i->levels[1].value, 2);
	CU_ASSERT_EQUAL(i->levels[1].ns, 100);
	CU_ASSERT_EQUAL(ftl_counters_unreadable(c), 1);
}

static void test_zones_user(void)
{
	g_autoptr(FtlCounters) c = ftl_counters_new();
	g_autoptr(GError) error = NULL;
	CU_ASSERT_TRUE(ftl_counters_add_spec(c, "my_load:load", &error));
	CU_ASSERT_TRUE(ftl_counters_add_spec(c, "gpu_busy:pct:gpu", &error));
	CU_ASSERT_FALSE(ftl_counters_add_spec(c, "x", &error));
	CU_ASSERT_PTR_NOT_NULL(error);
	g_clear_error(&error);
	CU_ASSERT_FALSE(ftl_counters_add_spec(c, "a:b:c:d", &error));
	g_clear_error(&error);
	CU_ASSERT_FALSE(ftl_counters_add_spec(c, "a b:c", &error));
	g_clear_error(&error);
	cfeed(c, evb_generic(10, 3, 1, "k", "thermal_temperature",
			     "thermal_zone=exynos-therm id=0 temp_prev=53808 temp=53875"));
	cfeed(c, evb_generic(20, 3, 1, "k", "my_load", "load=5"));
	cfeed(c, evb_generic(30, 1, 1, "k", "my_load", "load=7"));
	cfeed(c, evb_generic(40, 1, 1, "k", "gpu_busy", "gpu=mali pct=40"));
	cfeed(c, evb_generic(50, 3, 1, "k", "thermal_temperature",
			     "thermal_zone=exynos-therm id=0 temp_prev=53875 temp=53913"));
	ftl_counters_finish(c);
	CU_ASSERT_EQUAL(ftl_counters_n_tracks(c), 4);
	const FtlCounterTrack *t = ftl_counters_track(c, 0);
	CU_ASSERT_STRING_EQUAL(t->key, "exynos-therm");
	CU_ASSERT_EQUAL(t->cpu, -1);
	CU_ASSERT_EQUAL(t->levels[0].ns, 40);
	CU_ASSERT_EQUAL(t->levels[1].ns, 0);
	/* the user's: by the event's CPU without a key field */
	CU_ASSERT_STRING_EQUAL(ftl_counters_track(c, 1)->event, "gpu_busy");
	CU_ASSERT_STRING_EQUAL(ftl_counters_track(c, 1)->key, "mali");
	CU_ASSERT_STRING_EQUAL(ftl_counters_track(c, 2)->key, "cpu 1");
	CU_ASSERT_STRING_EQUAL(ftl_counters_track(c, 3)->key, "cpu 3");
	CU_ASSERT_EQUAL(ftl_counters_track(c, 3)->levels[0].ns, 30);
	CU_ASSERT_TRUE(ftl_counters_check_user(c, "sched", "t", &error));
}

/* A user's counter that draws nothing is an error naming it, as a filter
 * term that matches nothing; one of a non-generic event draws. */
static void test_user_unmatched(void)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(FtlCounters) none = ftl_counters_new();
	CU_ASSERT_TRUE(ftl_counters_add_spec(none, "my_load:load", &error));
	cfeed(none, evb_generic(10, 0, 1, "k", "cpu_idle", "state=1 cpu_id=0"));
	ftl_counters_finish(none);
	CU_ASSERT_FALSE(ftl_counters_check_user(none, "sched", "t.txt", &error));
	CU_ASSERT_STRING_EQUAL(error ? error->message : "",
			       "sched: --counter my_load:load: no my_load event in t.txt");
	g_clear_error(&error);
	g_autoptr(FtlCounters) text = ftl_counters_new();
	CU_ASSERT_TRUE(ftl_counters_add_spec(text, "my_load:load", &error));
	cfeed(text, evb_generic(10, 0, 1, "k", "my_load", "load=high"));
	cfeed(text, evb_generic(20, 0, 1, "k", "my_load", "other=1"));
	ftl_counters_finish(text);
	CU_ASSERT_EQUAL(ftl_counters_n_tracks(text), 0);
	CU_ASSERT_FALSE(ftl_counters_check_user(text, "timeline", "t.txt", &error));
	CU_ASSERT_STRING_EQUAL(error ? error->message : "",
			       "timeline: --counter my_load:load: none of the 2 my_load events in "
			       "t.txt has a numeric load");
	g_clear_error(&error);
	g_autoptr(FtlCounters) sw = ftl_counters_new();
	CU_ASSERT_TRUE(ftl_counters_add_spec(sw, "sched_switch:next_prio", &error));
	FtlEvent ev = evb_generic(10, 2, 1, "k", "sched_switch", "prev_pid=1 next_pid=2 next_prio=120");
	ev.kind = FTL_EVENT_SCHED_SWITCH;
	cfeed(sw, ev);
	ftl_counters_finish(sw);
	CU_ASSERT_EQUAL(ftl_counters_n_tracks(sw), 1);
	CU_ASSERT_TRUE(ftl_counters_check_user(sw, "sched", "t.txt", &error));
}

int main(void)
{
	static const UnitTest tests[] = {
		{ "cpu_frequency and cpu_idle: steps and time per value", test_freq_idle },
		{ "thermal zones, the user's counters and their keys", test_zones_user },
		{ "a user's counter that draws nothing is an error", test_user_unmatched },
		{ NULL, NULL },
	};
	return unit_run("counters", tests);
}
