/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Fuzz target: a console log (serial, dmesg, syslog): kernel reports found,
 * every ftrace dump in it read back as a trace and run through every
 * analysis and view, and the oops view in text and JSON. */
#include "config.h"

#include "fuzz.h"

#include <json-glib/json-glib.h>
#include <stdio.h>

#include "analysis/oops.h"
#include "parse/console.h"
#include "views/oops.h"
#include "views/table.h"

#define CONSOLE_MAX_DUMPS 8

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_init();
	g_autoptr(FtlConsole) con = ftl_console_parse("fuzz", (const char *)data, size);
	if (!con)
		return 0;
	/* the title rules, compiled once: per input they would cost most of it */
	static FtlOopsTitler *titler;
	if (!titler)
		titler = ftl_oops_titler_new();
	g_autoptr(FtlOops) o = ftl_oops_find_with(con, titler);
	guint nd = MIN(con->dumps->len, CONSOLE_MAX_DUMPS);
	g_autofree FtlOopsDumpView *views = g_new0(FtlOopsDumpView, MAX(con->dumps->len, 1));
	FtlTrace *traces[CONSOLE_MAX_DUMPS] = { NULL };
	for (guint d = 0; d < nd; d++) {
		g_autoptr(GError) error = NULL;
		traces[d] = ftl_console_dump_open(con, d, FTL_OPEN_NONE, &fuzz_read, &error);
		if (!traces[d])
			continue;
		/* the trail of the last events per CPU rides on the same pass */
		FtlOopsTrail *trail = ftl_oops_trail_new(5, (gint)d - 1);
		if (fuzz_run_trace_with(traces[d], fuzz_selector(data, size) + d,
					&ftl_oops_trail_consumer, trail)) {
			views[d].trail = trail;
			views[d].label = ftl_trace_label(traces[d]);
			views[d].stats = ftl_trace_stats(traces[d]);
			views[d].diags = ftl_trace_diags(traces[d]);
		} else {
			ftl_oops_trail_free(trail);
		}
	}
	FtlOopsView v = { .con = con, .oops = o, .dumps = views, .last_n = 10 };
	FuzzCapture c;
	ftl_oops_print_text(fuzz_capture_open(&c), &v);
	fuzz_capture_check(&c, "oops text", FTL_FORMAT_TEXT);
	g_autoptr(JsonBuilder) b = json_builder_new();
	json_builder_begin_object(b);
	json_builder_set_member_name(b, "logs");
	json_builder_begin_array(b);
	ftl_oops_add_json(b, &v);
	json_builder_end_array(b);
	json_builder_end_object(b);
	g_autoptr(JsonNode) root = json_builder_get_root(b);
	ftl_json_print(root, fuzz_capture_open(&c));
	fuzz_capture_check(&c, "oops json", FTL_FORMAT_JSON);
	for (guint d = 0; d < nd; d++) {
		if (views[d].trail)
			ftl_oops_trail_free(views[d].trail);
		if (traces[d])
			ftl_trace_free(traces[d]);
	}
	return 0;
}
