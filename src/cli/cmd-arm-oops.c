/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `ftlens arm-oops`: prepare the machine so that an oops dumps the ftrace
 * ring buffer to the console, print what changed, and undo it (--disarm). */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "capture/oops-arm.h"
#include "cli/cli.h"
#include "util/error.h"
#include "views/table.h"

/* set_event holds one event a line: a few are listed, more are counted
 * per system ("24 events: sched 24"), so that a row stays readable. */
static char *arm_value(const char *name, const char *v)
{
	if (strcmp(name, "set_event") != 0)
		return g_strdup(v);
	if (!*v)
		return g_strdup("(none)");
	g_auto(GStrv) lines = g_strsplit(v, "\n", -1);
	guint n = g_strv_length(lines);
	if (n <= 3)
		return g_strjoinv(",", lines);
	GString *out = g_string_new(NULL);
	g_string_printf(out, "%u events:", n);
	for (guint i = 0; i < n;) {
		const char *colon = strchr(lines[i], ':');
		size_t len = colon ? (size_t)(colon - lines[i]) : strlen(lines[i]);
		guint j = i + 1;
		while (j < n && !strncmp(lines[j], lines[i], len) &&
		       lines[j][len] == (colon ? ':' : 0))
			j++;
		g_string_append_printf(out, " %.*s %u", (int)len, lines[i], j - i);
		i = j;
	}
	return g_string_free(out, FALSE);
}

static void arm_print(GPtrArray *changes, FtlFormat format, const char *action,
		      const char *state_path, const char *note)
{
	enum { C_SETTING, C_BEFORE, C_AFTER, C_CHANGED };
	static const FtlColumn t_cols[] = {
		[C_SETTING] = { "setting", "setting", FTL_COL_STR },
		[C_BEFORE] = { "before", "before", FTL_COL_STR },
		[C_AFTER] = { "after", "after", FTL_COL_STR },
		[C_CHANGED] = { "changed", "changed", FTL_COL_STR },
	};
	g_autoptr(FtlTable) t = ftl_table_new("settings", t_cols, G_N_ELEMENTS(t_cols));
	for (guint i = 0; i < changes->len; i++) {
		const FtlOopsArmChange *c = changes->pdata[i];
		g_autofree char *before = arm_value(c->name, c->before);
		g_autofree char *after = arm_value(c->name, c->after);
		ftl_table_begin_row(t);
		ftl_table_set_str(t, C_SETTING, c->name);
		ftl_table_set_str(t, C_BEFORE, before);
		ftl_table_set_str(t, C_AFTER, after);
		ftl_table_set_str(t, C_CHANGED, strcmp(c->before, c->after) ? "yes" : "no");
	}
	if (format == FTL_FORMAT_JSON) {
		g_autoptr(JsonBuilder) jb = json_builder_new();
		json_builder_begin_object(jb);
		json_builder_set_member_name(jb, "action");
		ftl_json_add_text(jb, action);
		json_builder_set_member_name(jb, "state_file");
		ftl_json_add_text(jb, state_path);
		ftl_table_add_json(t, jb);
		json_builder_end_object(jb);
		g_autoptr(JsonNode) root = json_builder_get_root(jb);
		ftl_json_print(root, stdout);
	} else if (format == FTL_FORMAT_CSV) {
		ftl_table_print_csv(t, stdout);
	} else {
		if (changes->len)
			ftl_table_print_text(t, stdout, 0, 100);
		printf("%s\n", note);
	}
}

gboolean ftl_cmd_arm_oops(int argc, char **argv, GError **error)
{
	g_autofree char *tracer = NULL, *format_s = NULL, *buffer_s = NULL;
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
		{ "format", 'F', 0, G_OPTION_ARG_STRING, &format_s, "text, csv or json", "FMT" },
		{ NULL },
	};
	g_auto(FtlCliGlobals) g = { 0 };
	if (!ftl_cli_parse(ftl_cli_find("arm-oops"), entries, &g, &argc, &argv, error))
		return FALSE;
	FtlFormat format = FTL_FORMAT_TEXT;
	if (format_s && !ftl_format_parse(format_s, &format, error))
		return FALSE;
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
	if (buffer_s && !g_ascii_string_to_unsigned(buffer_s, 10, 1, G_MAXUINT, &buffer_kb, NULL)) {
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
		arm_print(changes, format, "disarm", state_path, note);
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
	arm_print(changes, format, "arm", state_path, note);
	return TRUE;
}
