/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Tables of what the capture commands changed and captured. */
#include "config.h"

#include "cli/capture-view.h"

#include <stdio.h>
#include <string.h>
#include <sys/wait.h>

#include "capture/oops-arm.h"
#include "capture/record.h"
#include "util/checked.h"

/* Capture's status tables: settings and per-CPU figures, never trace names. */
static const FtlTextStyle capture_style = { 100, FALSE, NULL };

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

void ftl_capture_view_arm(GPtrArray *changes, FtlFormat format, const char *action,
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
			ftl_table_print_text(t, stdout, 0, &capture_style);
		printf("%s\n", note);
	}
}

void ftl_capture_view_notes(const GString *notes)
{
	if (!notes)
		return;
	g_auto(GStrv) lines = g_strsplit(notes->str, "\n", -1);
	for (char **l = lines; *l; l++)
		if (**l)
			fprintf(stderr, "ftlens: note: %s\n", *l);
}

void ftl_capture_view_child(int status)
{
	if (status == -1)
		return;
	if (WIFEXITED(status) && WEXITSTATUS(status))
		fprintf(stderr, "ftlens: the command exited with status %d\n", WEXITSTATUS(status));
	else if (WIFSIGNALED(status))
		fprintf(stderr, "ftlens: the command was killed by signal %d (%s)\n",
			WTERMSIG(status), strsignal(WTERMSIG(status)));
}

/* What was recorded, per CPU, with the losses the ring buffer counted. */
void ftl_capture_view_record(const FtlRecordOptions *o, const FtlRecordResult *r)
{
	guint64 total = 0, lost = 0;
	for (guint i = 0; i < r->n_cpus; i++)
		total += r->bytes[i];
	fprintf(stderr,
		"ftlens: recorded %.3f s in the %s: %u CPUs, %" G_GUINT64_FORMAT
		" pages (%.1f KiB) -> %s%s\n",
		r->seconds, r->buffer, r->n_cpus, r->page_size ? total / r->page_size : 0,
		(double)total / 1024, o->raw_dir ? o->raw_dir : o->output,
		r->interrupted ? " (stopped by a signal)" : "");
	enum { C_CPU, C_PAGES, C_EVENTS, C_OVERRUN, C_DROPPED };
	static const FtlColumn t_cols[] = {
		[C_CPU] = { "cpu", "CPU", FTL_COL_INT },
		[C_PAGES] = { "pages", "pages", FTL_COL_INT },
		[C_EVENTS] = { "events", "events", FTL_COL_INT },
		[C_OVERRUN] = { "overrun", "overrun", FTL_COL_INT },
		[C_DROPPED] = { "dropped", "dropped", FTL_COL_INT },
	};
	g_autoptr(FtlTable) t = ftl_table_new("cpus", t_cols, G_N_ELEMENTS(t_cols));
	for (guint i = 0; i < r->n_cpus; i++) {
		const FtlCpuStats *st = &r->stats[i];
		ftl_table_begin_row(t);
		ftl_table_set_int(t, C_CPU, i);
		ftl_table_set_int(t, C_PAGES,
				  (gint64)(r->page_size ? r->bytes[i] / r->page_size : 0));
		ftl_table_set_int(t, C_EVENTS, (gint64)st->read);
		ftl_table_set_int(t, C_OVERRUN, (gint64)st->overrun);
		ftl_table_set_int(t, C_DROPPED, (gint64)st->dropped);
		lost = ftl_sat_add_u64(lost, ftl_sat_add_u64(st->overrun, st->dropped));
	}
	ftl_table_print_text(t, stderr, 0, &capture_style);
	if (lost)
		fprintf(stderr,
			"ftlens: %" G_GUINT64_FORMAT " events were lost (overrun: overwritten "
			"before they were read; dropped: the buffer was full): a larger -b helps\n",
			lost);
}
