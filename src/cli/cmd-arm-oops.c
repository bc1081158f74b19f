/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `ftlens arm-oops`: prepare the machine so that an oops dumps the ftrace
 * ring buffer to the console, print what changed, and undo it (--disarm). */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "capture/oops-arm.h"
#include "cli/capture-view.h"
#include "cli/cli.h"
#include "util/error.h"

/* The options make sense together; a usage error otherwise. */
static gboolean arm_check(int argc, char **argv, gboolean disarm, const char *tracer, char **events,
			  const char *buffer_s, guint64 *buffer_kb, GError **error)
{
	if (argc > 1) {
		g_set_error(error, FTL_ERROR, FTL_ERROR_USAGE, "arm-oops: unexpected operand '%s'",
			    argv[1]);
		return FALSE;
	}
	if (disarm && (tracer || events || buffer_s)) {
		g_set_error(error, FTL_ERROR, FTL_ERROR_USAGE,
			    "arm-oops: --disarm takes no -p, -e or -b");
		return FALSE;
	}
	if (buffer_s && !g_ascii_string_to_unsigned(buffer_s, 10, 1, G_MAXUINT, buffer_kb, NULL)) {
		g_set_error(error, FTL_ERROR, FTL_ERROR_USAGE,
			    "arm-oops: -b '%s': expected a size in KiB above 0", buffer_s);
		return FALSE;
	}
	if (tracer && (!*tracer || strpbrk(tracer, " \t\n"))) {
		g_set_error(error, FTL_ERROR, FTL_ERROR_USAGE,
			    "arm-oops: -p '%s': not a tracer name", tracer);
		return FALSE;
	}
	for (guint i = 0; events && events[i]; i++) {
		if (!*events[i] || strpbrk(events[i], " \t\n/")) {
			g_set_error(error, FTL_ERROR, FTL_ERROR_USAGE,
				    "arm-oops: -e '%s': not an event name", events[i]);
			return FALSE;
		}
	}
	return TRUE;
}

gboolean ftl_cmd_arm_oops(const FtlCommand *cmd, int argc, char **argv, GError **error)
{
	g_autofree char *tracer = NULL, *buffer_s = NULL;
	g_auto(GStrv) events = NULL;
	guint64 buffer_kb = 0;
	gboolean disarm = FALSE;
	const GOptionEntry entries[] = {
		{ "tracer", 'p', 0, G_OPTION_ARG_STRING, &tracer,
		  "Set current_tracer (e.g. function_graph)", "TRACER" },
		{ "event", 'e', 0, G_OPTION_ARG_STRING_ARRAY, &events,
		  "Enable only these events: system, system:event or event (repeat)", "EVENT" },
		{ "buffer-size", 'b', 0, G_OPTION_ARG_STRING, &buffer_s,
		  "Ring buffer per CPU in KiB (small: the dump prints it all)", "KB" },
		{ "disarm", 0, 0, G_OPTION_ARG_NONE, &disarm,
		  "Restore what the last arm-oops changed", NULL },
		{ NULL },
	};
	g_auto(FtlCliGlobals) g = { 0 };
	if (!ftl_cli_parse(cmd, entries, &g, &argc, &argv, error))
		return FALSE;
	FtlFormat format = g.format;
	if (!arm_check(argc, argv, disarm, tracer, events, buffer_s, &buffer_kb, error))
		return FALSE;
	g_autofree char *state_path = ftl_oops_arm_state_path();
	g_autoptr(GPtrArray) changes = NULL;
	const char *dir = ftl_oops_arm_tracing_dir(error);
	if (!dir)
		return FALSE;
	if (disarm) {
		gboolean stale = FALSE;
		changes = ftl_oops_disarm(dir, state_path, &stale, error);
		if (!changes) {
			g_prefix_error(error, "arm-oops: ");
			return FALSE;
		}
		g_autofree char *note =
			stale ? g_strdup_printf("%s was written before the last boot, which reset "
						"those settings; removed it",
						state_path)
			      : g_strdup_printf("disarmed: %s restored and removed", state_path);
		ftl_capture_view_arm(changes, format, "disarm", state_path, note);
		return TRUE;
	}
	FtlOopsArmPlan plan = {
		.tracer = tracer,
		.events = (const char *const *)events,
		.buffer_kb = (guint)buffer_kb,
	};
	changes = ftl_oops_arm(dir, &plan, state_path, error);
	if (!changes) {
		g_prefix_error(error, "arm-oops: ");
		return FALSE;
	}
	g_autofree char *note = g_strdup_printf(
		"armed: an oops now dumps the top-level ring buffer (%s) to the console\n"
		"previous values saved in %s; 'ftlens arm-oops --disarm' restores them",
		dir, state_path);
	ftl_capture_view_arm(changes, format, "arm", state_path, note);
	return TRUE;
}
