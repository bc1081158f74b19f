/* SPDX-License-Identifier: GPL-2.0-or-later */
/* --relative-to and --wallclock: a pre-pass over the trace's markers that
 * fixes the time origin and the trace-to-wall-clock offset every view uses. */
#include "config.h"

#include <string.h>

#include "analysis/markers.h"
#include "cli/cli.h"
#include "util/error.h"
#include "util/scan.h"

/* One pattern to resolve: the first marker matching it. */
typedef struct {
	const char *option; /* "--relative-to" or "--wallclock", for messages */
	const char *pattern;
	GRegex *re;
	gboolean found;
	gint64 ts;
	guint64 line;
	const char *path; /* borrowed from the trace */
} TimeOriginQuery;

static gboolean time_origin_compile(TimeOriginQuery *q, GError **error)
{
	g_autoptr(GError) local = NULL;
	/* RAW: marker text is whatever a process wrote, not necessarily UTF-8 */
	q->re = g_regex_new(q->pattern, G_REGEX_RAW, 0, &local);
	if (!q->re) {
		g_set_error(error, FTL_ERROR, FTL_ERROR_USAGE, "%s: pattern '%s': %s", q->option,
			    q->pattern, local->message);
		return FALSE;
	}
	return TRUE;
}

/* Reads the digits of a fraction of a second after the first ':' of an
 * ISO 8601 time, because GDateTime keeps only microseconds. */
static gint64 time_origin_fraction_ns(const char *iso)
{
	const char *p = strchr(iso, ':');
	if (!p)
		return 0;
	p += strcspn(p, ".,");
	if (!*p)
		return 0;
	gint64 ns;
	ftl_scan_frac_ns(p + 1, p + strlen(p), &ns);
	return ns;
}

/* "2026-12-03T09:20:19.123456789Z" (UTC when no zone is given) as ns since the
 * Unix epoch. */
static gboolean time_origin_parse_iso(const char *iso, gint64 *wall_ns, GError **error)
{
	g_autoptr(GTimeZone) utc = g_time_zone_new_utc();
	g_autoptr(GDateTime) dt = g_date_time_new_from_iso8601(iso, utc);
	if (!dt) {
		g_set_error(error, FTL_ERROR, FTL_ERROR_USAGE,
			    "--wallclock: '%s' is not an ISO 8601 date and time "
			    "(e.g. 2026-12-03T09:20:19.5Z)",
			    iso);
		return FALSE;
	}
	gint64 sec = g_date_time_to_unix(dt);
	if (sec < 0 || sec > G_MAXINT64 / 1000000000 - 1) {
		g_set_error(error, FTL_ERROR, FTL_ERROR_USAGE,
			    "--wallclock: '%s' is out of range (1970 to 2262)", iso);
		return FALSE;
	}
	*wall_ns = sec * 1000000000 + time_origin_fraction_ns(iso);
	return TRUE;
}

static gboolean time_origin_resolve(const TimeOriginQuery *q, const char *label, GError **error)
{
	if (!q->found) {
		g_set_error(error, FTL_ERROR, FTL_ERROR_EMPTY, "%s: no marker in '%s' matches '%s'",
			    q->option, label, q->pattern);
		return FALSE;
	}
	if (q->ts == FTL_TS_NONE) {
		g_set_error(error, FTL_ERROR, FTL_ERROR_UNSUPPORTED,
			    "%s: '%s': line %" G_GUINT64_FORMAT
			    ": the marker matching '%s' has no timestamp",
			    q->option, q->path, q->line, q->pattern);
		return FALSE;
	}
	return TRUE;
}

/* The pre-pass: the first marker each pattern matches, read from the start
 * whatever the window, unfiltered (the origin must not move with --cpu or
 * --pid). */
static gboolean time_origin_scan(const FtlCliGlobals *g, TimeOriginQuery *rel,
				 TimeOriginQuery *wall, GError **error)
{
	g_autoptr(FtlTrace) trace =
		ftl_inputs_open_trace(g->inputs, FTL_TS_NONE, FTL_TS_NONE, FTL_OPEN_NONE, error);
	if (!trace)
		return FALSE;
	g_autoptr(FtlIter) it = ftl_iter_new(trace, NULL);
	const FtlEvent *ev;
	FtlStatus st = FTL_STATUS_OK;
	while ((!rel->re || !rel->found || !wall->re || !wall->found) &&
	       (st = ftl_iter_next(it, &ev, error)) == FTL_STATUS_OK) {
		if (ev->kind != FTL_EVENT_MARKER)
			continue;
		g_autofree char *text = g_strndup(ev->u.marker.text.p ? ev->u.marker.text.p : "",
						  ev->u.marker.text.len);
		TimeOriginQuery *qs[] = { rel, wall };
		for (guint i = 0; i < G_N_ELEMENTS(qs); i++) {
			TimeOriginQuery *q = qs[i];
			if (!q->re || q->found || !g_regex_match(q->re, text, 0, NULL))
				continue;
			q->found = TRUE;
			q->ts = ev->ts;
			q->line = ev->line;
			q->path = ev->src ? ev->src->path : ftl_trace_label(trace);
		}
	}
	if ((!rel->re || !rel->found || !wall->re || !wall->found) && st == FTL_STATUS_ERROR)
		return FALSE;
	return (!rel->re || time_origin_resolve(rel, ftl_trace_label(trace), error)) &&
	       (!wall->re || time_origin_resolve(wall, ftl_trace_label(trace), error));
}

gboolean ftl_cli_time_origin(FtlCliGlobals *g, GError **error)
{
	if (!g->relative_to && !g->wallclock)
		return TRUE;
	TimeOriginQuery rel = {
		"--relative-to", g->relative_to, NULL, FALSE, FTL_TS_NONE, 0, NULL
	};
	TimeOriginQuery wall = { "--wallclock", NULL, NULL, FALSE, FTL_TS_NONE, 0, NULL };
	g_autofree char *wall_pattern = NULL;
	gint64 wall_ns = 0;
	gboolean ok = FALSE;
	if (g->wallclock) {
		/* ISO 8601 has no '=', a regex may: split at the last one */
		const char *eq = strrchr(g->wallclock, '=');
		if (!eq || eq == g->wallclock) {
			g_set_error(error, FTL_ERROR, FTL_ERROR_USAGE,
				    "--wallclock: '%s': expected PATTERN=ISO8601", g->wallclock);
			return FALSE;
		}
		wall_pattern = g_strndup(g->wallclock, (gsize)(eq - g->wallclock));
		wall.pattern = wall_pattern;
		if (!time_origin_parse_iso(eq + 1, &wall_ns, error))
			return FALSE;
	}
	if (rel.pattern && !time_origin_compile(&rel, error))
		goto out;
	if (wall.pattern && !time_origin_compile(&wall, error))
		goto out;
	if (!time_origin_scan(g, &rel, &wall, error))
		goto out;
	if (rel.re) {
		g->origin_ns = rel.ts;
		/* --time reads like the times shown: relative to the marker too */
		if (g->filter.t_start != FTL_TS_NONE)
			g->filter.t_start += rel.ts;
		if (g->filter.t_end != FTL_TS_NONE)
			g->filter.t_end += rel.ts;
	}
	if (wall.re)
		g->wall_offset_ns = wall_ns - wall.ts;
	ok = TRUE;
out:
	g_clear_pointer(&rel.re, g_regex_unref);
	g_clear_pointer(&wall.re, g_regex_unref);
	return ok;
}
