/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Counter tracks: values that hold from one event to the next, as Perfetto
 * draws them. Built in: cpu_frequency and cpu_idle (per cpu_id),
 * thermal_temperature (per thermal_zone), cdev_update (per cooling device),
 * clock_set_rate and power_domain_target (per name), devfreq_frequency (per
 * device); the user adds any event with one numeric field per CPU or zone
 * (`--counter EVENT:FIELD[:KEY]`).
 *
 * Conventions:
 * - A track is one event and one key (its KEY field's value: a CPU number or
 *   a zone's name; without a KEY field, the CPU the event was recorded on).
 * - A value holds from its event to the track's next event, the last one to
 *   the end of the trace (the last event the pass saw). Before a track's first
 *   event its value is unknown: no time counts.
 * - cpu_idle's 4294967295 (PWR_EVENT_EXIT, (u32)-1) is -1: out of idle.
 * - An event whose value is not a number counts in `unreadable`, not in
 *   the track.
 * Memory: tracks x distinct values; steps reach listeners during the pass. */
#pragma once

#include <glib.h>

#include "analysis/pass.h"
#include "model/event.h"

typedef enum {
	FTL_COUNTER_FREQ,    /* cpu_frequency, devfreq: kHz or Hz as the event has it */
	FTL_COUNTER_IDLE,    /* cpu_idle: the C-state, -1 out of idle */
	FTL_COUNTER_THERMAL, /* thermal_temperature (m°C), cdev_update (cooling state) */
	FTL_COUNTER_POWER,   /* clock_set_rate, power_domain_target */
	FTL_COUNTER_USER,    /* --counter */
} FtlCounterKind;

typedef struct {
	gint64 value;
	gint64 ns;	 /* time at this value */
	guint64 entries; /* steps to it */
} FtlCounterLevel;

typedef struct {
	guint index;	   /* in ftl_counters_track(): the order below */
	FtlCounterKind kind;
	const char *event; /* interned event name */
	const char *field; /* the value's field */
	const char *key;   /* "cpu 3", "exynos-therm", ...: owned by the analysis */
	gint32 cpu;	   /* the CPU the key names, -1 when it names none */
	gint64 t0, t1;	   /* first event, end of the trace */
	guint64 events;
	gint64 min, max;
	FtlCounterLevel *levels; /* by value */
	guint n_levels;
} FtlCounterTrack;

/* One value held over [t0, t1) on a track (its index in the finished
 * order is not known during the pass: listeners keep the track's
 * address, stable from its first step on). */
typedef struct {
	const FtlCounterTrack *track;
	gint64 t0, t1;
	gint64 value;
} FtlCounterStep;

typedef void (*FtlCounterStepFunc)(const FtlCounterStep *st, gpointer data);

typedef struct _FtlCounters FtlCounters;

/* The built-in counters. Free with ftl_counters_free(). */
FtlCounters *ftl_counters_new(void);
void ftl_counters_free(FtlCounters *c);
/* A user's counter, "EVENT:FIELD" or "EVENT:FIELD:KEY" (KEY: the field
 * that names the track; without it cpu_id when the event has one, else
 * the event's CPU). A usage error when malformed. Before the pass. */
gboolean ftl_counters_add_spec(FtlCounters *c, const char *spec, GError **error);
/* The built-in counters and the user's (specs: NULL-terminated, may be
 * NULL), as --counter gives them; NULL with a usage error. */
FtlCounters *ftl_counters_new_specs(char *const *specs, GError **error);
/* Called for every step as it ends (during the pass and at finish). */
void ftl_counters_add_on_step(FtlCounters *c, FtlCounterStepFunc fn, gpointer data);
void ftl_counters_feed(FtlCounters *c, const FtlEvent *ev);
void ftl_counters_finish(FtlCounters *c);
extern const FtlConsumerClass ftl_counters_consumer;

/* After finish, tracks by kind, event, then key (CPUs in order); borrowed,
 * valid as long as c. */
guint ftl_counters_n_tracks(const FtlCounters *c);
const FtlCounterTrack *ftl_counters_track(const FtlCounters *c, guint i);
/* Events of a counter whose value was not a number. */
guint64 ftl_counters_unreadable(const FtlCounters *c);
/* After finish: FALSE with an FTL_ERROR_EMPTY error naming cmd, the spec
 * and input when a user's counter drew nothing (no such event, or none
 * with a numeric field), as a --filter term that matches nothing. */
gboolean ftl_counters_check_user(const FtlCounters *c, const char *cmd, const char *input,
				 GError **error);
/* "freq", "idle", "thermal", "power", "user". */
const char *ftl_counter_kind_name(FtlCounterKind kind);

/* The steps kept for drawing (the timelines): a listener that stores
 * every step, then, sealed after the pass, each track's steps in time
 * order. Memory grows with the steps. */
typedef struct _FtlCounterSteps FtlCounterSteps;
FtlCounterSteps *ftl_counter_steps_new(void);
void ftl_counter_steps_free(FtlCounterSteps *s);
/* An FtlCounterStepFunc: ftl_counters_add_on_step(c, ftl_counter_steps_add, s). */
void ftl_counter_steps_add(const FtlCounterStep *st, gpointer s);
/* After c's finish: sorts by track and time. */
void ftl_counter_steps_seal(FtlCounterSteps *s, const FtlCounters *c);
/* Track i's steps from the first that ends at or after t (G_MININT64:
 * all), *n of them; borrowed. */
const FtlCounterStep *ftl_counter_steps_from(const FtlCounterSteps *s, guint track, gint64 t,
					     guint *n);

G_DEFINE_AUTOPTR_CLEANUP_FUNC(FtlCounters, ftl_counters_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC(FtlCounterSteps, ftl_counter_steps_free)
