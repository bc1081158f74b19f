/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `ftlens oops LOG...`: the kernel reports in console logs, and the ftrace
 * dumps printed with them read back as traces. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "analysis/oops.h"
#include "analysis/pass.h"
#include "cli/cli.h"
#include "util/error.h"
#include "util/output.h"
#include "views/oops.h"
#include "views/table.h"

#define OOPS_LAST_DEFAULT 10

/* Reads dump d back as a trace and runs the trail of its last events over
 * it; *trace and the view's trail are the caller's to free. A dump the text
 * parser cannot read is reported and skipped: the reports are worth showing
 * without it. */
static void oops_read_dump(const FtlCliGlobals *g, const FtlConsole *con, const FtlOops *o, guint d,
			   guint last_n, FtlTrace **trace, FtlOopsDumpView *view)
{
	const FtlConsoleDump *dump = g_ptr_array_index(con->dumps, d);
	if (dump->empty || !dump->content->len)
		return;
	g_autoptr(GError) error = NULL;
	FtlTrace *t = ftl_inputs_open_dump(g->inputs, con, d, FTL_OPEN_NONE, &error);
	if (!t) {
		g_printerr("ftlens: oops: warning: %s\n", error->message);
		return;
	}
	FtlOopsTrail *trail = ftl_oops_trail_new(last_n, ftl_oops_dump_cpu(o, d));
	g_autoptr(FtlPass) pass = ftl_pass_new();
	ftl_pass_add(pass, &ftl_oops_trail_consumer, trail);
	if (!ftl_pass_run(pass, t, &g->filter, &error)) {
		g_printerr("ftlens: oops: warning: %s\n", error->message);
		ftl_oops_trail_free(trail);
		ftl_trace_free(t);
		return;
	}
	*trace = t;
	view->trail = trail;
	view->label = ftl_trace_label(t);
	view->stats = ftl_trace_stats(t);
	view->diags = ftl_trace_diags(t);
	view->dialect = ftl_trace_n_sources(t) ? ftl_source_dialect(ftl_trace_source(t, 0)) : NULL;
}

/* --extract-trace: the dump's recovered lines, written whole or not at all. */
static gboolean oops_extract(FtlInputs *operands, gint which, const char *out_path, GError **error)
{
	const FtlConsole *con = ftl_inputs_console(operands, 0, error);
	if (!con)
		return FALSE;
	if (which > 0 && (guint)which > con->dumps->len && con->dumps->len) {
		g_set_error(error, FTL_ERROR, FTL_ERROR_USAGE, "oops: --dump %d: '%s' has %u ftrace dump%s",
			    which, con->path, con->dumps->len, con->dumps->len == 1 ? "" : "s");
		return FALSE;
	}
	guint d;
	if (!ftl_console_pick_dump(con, which, &d, error))
		return FALSE;
	gsize len;
	g_autofree char *text = ftl_inputs_dump_text(con, d, &len);
	const char *inputs[] = { con->path, NULL };
	if (!ftl_output_write_all(out_path, inputs, text, len, error))
		return FALSE;
	ftl_oops_print_extracted(stdout, con, d, out_path);
	return TRUE;
}

/* The kernel release and build a log names: its first report's, else its
 * boot banner's "Linux version RELEASE ... #BUILD" (build then NULL). */
static void oops_kernel(const FtlConsole *con, const FtlOops *o, const char **release,
			const char **build, char **banner_release)
{
	*release = *build = NULL;
	for (guint i = 0; i < ftl_oops_count(o) && !*release; i++) {
		const FtlOopsReport *r = ftl_oops_get(o, i);
		*release = r->release;
		*build = r->release ? r->build : NULL;
	}
	static const char lead[] = "Linux version ";
	for (guint i = 0; !*release && i < con->lines->len; i++) {
		const char *t = strstr(ftl_console_line(con, i)->text, lead);
		if (t) {
			t += strlen(lead);
			*banner_release = g_strndup(t, strcspn(t, " "));
			*release = *banner_release;
		}
	}
}

/* Every log's reports, as text one after the other or as one JSON document. */
static gboolean oops_show(const FtlCliGlobals *g, FtlFormat format, guint last_n, GError **error)
{
	g_autoptr(FtlOopsPrinter) pr = ftl_oops_printer_new(stdout, format);
	for (guint a = 0; a < ftl_inputs_n(g->inputs, FTL_INPUT_CONSOLE); a++) {
		const FtlConsole *con = ftl_inputs_console(g->inputs, a, error);
		if (!con)
			return FALSE;
		g_autoptr(FtlOops) o = ftl_oops_find(con);
		const char *release, *build;
		g_autofree char *banner_release = NULL, *note = NULL;
		oops_kernel(con, o, &release, &build, &banner_release);
		g_autoptr(FtlDebugInfo) dbg =
			ftl_cli_debuginfo(g, con->path, release, NULL, build, &note, error);
		if (!dbg && error && *error)
			return FALSE;
		guint nd = con->dumps->len;
		g_autofree FtlTrace **traces = g_new0(FtlTrace *, MAX(nd, 1));
		g_autofree FtlOopsDumpView *views = g_new0(FtlOopsDumpView, MAX(nd, 1));
		for (guint d = 0; d < nd; d++)
			oops_read_dump(g, con, o, d, last_n, &traces[d], &views[d]);
		FtlOopsView v = { con, o, views, last_n, dbg, note, TRUE };
		ftl_oops_printer_add(pr, &v);
		for (guint d = 0; d < nd; d++) {
			ftl_oops_trail_free(views[d].trail);
			ftl_trace_free(traces[d]);
		}
	}
	ftl_oops_printer_finish(pr);
	return TRUE;
}

static gboolean oops_check(gint last_n, gint which, int argc, const char *extract, GError **error)
{
	g_autofree char *why = NULL;
	if (last_n < 0 || last_n > 100000)
		why = g_strdup_printf("--last %d: expected 0-100000", last_n);
	else if (which < 0)
		why = g_strdup_printf("--dump %d: expected 1 or more", which);
	else if (argc < 2)
		why = g_strdup("no console log given (try 'ftlens help oops')");
	else if (extract && argc != 2)
		why = g_strdup("--extract-trace takes one console log");
	if (why)
		g_set_error(error, FTL_ERROR, FTL_ERROR_USAGE, "oops: %s", why);
	return !why;
}

gboolean ftl_cmd_oops(const FtlCommand *cmd, int argc, char **argv, GError **error)
{
	g_autofree char *extract = NULL;
	gint last_n = OOPS_LAST_DEFAULT, which = 0;
	g_auto(FtlCliGlobals) g = { 0 };
	const GOptionEntry entries[] = {
		{ "last", 'n', 0, G_OPTION_ARG_INT, &last_n,
		  "Show the last N events of every CPU in the ftrace dump (default 10)", "N" },
		{ "extract-trace", 'o', 0, G_OPTION_ARG_FILENAME, &extract,
		  "Write the ftrace dump as a text trace to OUT and stop", "OUT" },
		{ "dump", 0, 0, G_OPTION_ARG_INT, &which,
		  "With --extract-trace: which dump (1 = the first; default: the first "
		  "that is not empty)",
		  "N" },
		/* a log, not events: but it may be compressed or a pipe */
		{ "max-expand", 0, 0, G_OPTION_ARG_STRING, &g.max_expand,
		  "Disk a compressed log or a pipe may expand to (default 4G)", "SIZE" },
		{ NULL },
	};
	if (!ftl_cli_parse(cmd, entries, &g, &argc, &argv, error))
		return FALSE;
	FtlFormat format = g.format;
	if (!oops_check(last_n, which, argc, extract, error) ||
	    !ftl_cli_setup(&g, cmd->inputs, argc, argv, error))
		return FALSE;
	if (extract)
		return oops_extract(g.inputs, which, extract, error);
	return oops_show(&g, format, (guint)last_n, error);
}
