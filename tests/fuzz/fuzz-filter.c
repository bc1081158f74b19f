/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Fuzz target: the --filter expression parser and evaluator
 * (model/event-filter.h). The input's lines: the first a -F expression
 * ("EVENTS[: EXPR]"), the second an -e event list, the third another
 * expression added inverted (-v); each empty line is left out. A filter
 * that parses is described and applied to every event
 * of a small trace that has the fields its expressions name: switches,
 * wakeups, function_graph calls, markers and payload key=value pairs. A
 * refused one must say why. */
#include "config.h"

#include "fuzz.h"

#include <string.h>

#include "model/event-filter.h"
#include "model/iter.h"
#include "parse/open.h"

static const char filter_trace[] =
	"# tracer: nop\n"
	"          <idle>-0       [001] d..2.     3.785720: sched_switch: prev_comm=swapper/1 "
	"prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=sh next_pid=105 next_prio=120\n"
	"              sh-105     [001] d..3.     3.785801: sched_wakeup: comm=kworker/1:2 "
	"pid=44 prio=120 target_cpu=001\n"
	"              sh-96      [000] .....     3.790000: tracing_mark_write: a start\n"
	"              sh-96      [000] .....     3.790100: block_rq_issue: dev=8,0 rwbs=W "
	"sector=4096 nr_sector=8 comm=\"sh\"\n"
	"              sh-96      [000] .....     3.790200: irq_handler_entry: irq=24 "
	"name=eth0\n"
	"              sh-96      [000] .....     3.800000: tracing_mark_write: a end\n";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_init();
	g_autofree char *text = g_strndup((const char *)data, size);
	char *line[3] = { NULL };
	char *p = text;
	for (int i = 0; i < 3 && p; i++) {
		char *nl = strchr(p, '\n');
		if (nl)
			*nl = 0;
		line[i] = *p ? p : NULL;
		p = nl ? nl + 1 : NULL;
	}
	g_autoptr(FtlEventFilter) f = ftl_event_filter_new();
	g_autoptr(GError) error = NULL;
	if ((line[0] && !ftl_event_filter_add_expr(f, line[0], FALSE, &error)) ||
	    (line[1] && !ftl_event_filter_add_events(f, line[1], FALSE, &error)) ||
	    (line[2] && !ftl_event_filter_add_expr(f, line[2], TRUE, &error))) {
		/* refused: one message, as a user would read it */
		g_assert(error && error->message && *error->message);
		return 0;
	}
	g_autofree char *what = ftl_event_filter_describe(f);
	g_assert(what);
	g_autoptr(FtlTrace) trace = ftl_trace_open_memory(
		"filter", g_memdup2(filter_trace, sizeof filter_trace - 1), sizeof filter_trace - 1,
		FTL_OPEN_NONE, &fuzz_read, &error);
	g_assert(trace);
	g_autoptr(FtlIter) it = ftl_iter_new(trace, NULL);
	const FtlEvent *ev;
	g_autoptr(GHashTable) seen = g_hash_table_new(g_str_hash, g_str_equal);
	guint kept = 0;
	while (ftl_iter_next(it, &ev, &error) == FTL_STATUS_OK) {
		kept += ftl_event_filter_match(f, ev);
		if (ev->name)
			g_hash_table_insert(seen, (gpointer)ev->name, NULL);
	}
	g_autofree char *unmatched = ftl_event_filter_unmatched(f, seen, "filter");
	(void)kept;
	return 0;
}
