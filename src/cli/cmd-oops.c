/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `ftlens oops LOG...`: the kernel reports in console logs, and the ftrace
 * dumps printed with them read back as traces. */
#include "config.h"

#include <errno.h>
#include <glib/gstdio.h>
#include <stdio.h>
#include <string.h>

#include "analysis/oops.h"
#include "cli/cli.h"
#include "parse/console.h"
#include "util/error.h"
#include "util/output.h"
#include "views/oops.h"
#include "views/table.h"

#define OOPS_LAST_DEFAULT 10

typedef struct {
	FtlTrace *trace;
	FtlOopsTrail *trail;
} OopsDump;

/* The CPU of the report a dump was printed with, -1 when none says. */
static gint oops_dump_cpu(const FtlOops *o, guint d)
{
	for (guint i = 0; i < ftl_oops_count(o); i++) {
		const FtlOopsReport *r = ftl_oops_get(o, i);
		for (guint k = 0; k < r->dumps->len; k++)
			if (g_array_index(r->dumps, guint, k) == d)
				return r->cpu;
	}
	return -1;
}

/* Reads dump d back as a trace. A dump the text parser cannot read is
 * reported and skipped: the reports are worth showing without it. */
static void oops_read_dump(const FtlCliGlobals *g, const FtlConsole *con, const FtlOops *o, guint d,
			   guint last_n, OopsDump *out, FtlOopsDumpView *view)
{
	const FtlConsoleDump *dump = g_ptr_array_index(con->dumps, d);
	if (dump->empty || !dump->content->len)
		return;
	g_autoptr(GError) error = NULL;
	FtlTrace *trace =
		ftl_console_dump_open(con, d, g->strict ? FTL_OPEN_STRICT : FTL_OPEN_NONE, &error);
	if (!trace) {
		g_printerr("ftlens: warning: %s\n", error->message);
		return;
	}
	FtlOopsTrail *trail = ftl_oops_trail_new(last_n, oops_dump_cpu(o, d));
	g_autoptr(FtlIter) it = ftl_iter_new(trace, &g->filter);
	const FtlEvent *ev;
	FtlStatus st;
	while ((st = ftl_iter_next(it, &ev, &error)) == FTL_STATUS_OK)
		ftl_oops_trail_feed(trail, ev);
	if (st == FTL_STATUS_ERROR) {
		g_printerr("ftlens: warning: %s\n", error->message);
		ftl_oops_trail_free(trail);
		ftl_trace_free(trace);
		return;
	}
	ftl_oops_trail_finish(trail);
	out->trace = trace;
	out->trail = trail;
	view->trail = trail;
	view->label = ftl_trace_label(trace);
	view->stats = ftl_trace_stats(trace);
	view->diags = ftl_trace_diags(trace);
	view->dialect =
		ftl_trace_n_sources(trace) ? ftl_source_dialect(ftl_trace_source(trace, 0)) : NULL;
}

/* --extract-trace: the dump's recovered lines, written whole or not at all. */
static gboolean oops_extract(const FtlConsole *con, gint which, const char *out_path,
			     GError **error)
{
	guint d = 0;
	if (!con->dumps->len) {
		g_set_error(error, FTL_ERROR, FTL_ERROR_FORMAT,
			    "'%s': no ftrace dump (\"Dumping ftrace buffer:\") in this log",
			    con->path);
		return FALSE;
	}
	if (which > 0) {
		if ((guint)which > con->dumps->len) {
			g_set_error(error, FTL_ERROR, FTL_ERROR_USAGE,
				    "oops: --dump %d: '%s' has %u ftrace dump%s", which, con->path,
				    con->dumps->len, con->dumps->len == 1 ? "" : "s");
			return FALSE;
		}
		d = (guint)which - 1;
	} else {
		/* the first one with something in it */
		while (d + 1 < con->dumps->len &&
		       !((const FtlConsoleDump *)g_ptr_array_index(con->dumps, d))->content->len)
			d++;
	}
	const FtlConsoleDump *dump = g_ptr_array_index(con->dumps, d);
	guint64 at = ftl_console_line(con, dump->header)->lineno;
	if (!dump->content->len) {
		g_set_error(error, FTL_ERROR, FTL_ERROR_EMPTY,
			    "'%s': line %" G_GUINT64_FORMAT ": ftrace dump %u is empty%s",
			    con->path, at, d + 1,
			    dump->empty ? " (\"(ftrace buffer empty)\")" : "");
		return FALSE;
	}
	gsize len;
	g_autofree char *text = ftl_console_dump_text(con, d, &len);
	const char *inputs[] = { con->path, NULL };
	if (!ftl_output_write_all(out_path, inputs, text, len, error))
		return FALSE;
	printf("%s: ftrace dump %u of '%s' (lines %" G_GUINT64_FORMAT "-%" G_GUINT64_FORMAT
	       "), %u trace lines%s\n",
	       out_path, d + 1, con->path, at, ftl_console_line(con, dump->end)->lineno,
	       dump->content->len, dump->closed ? "" : ", cut short");
	return TRUE;
}

gboolean ftl_cmd_oops(int argc, char **argv, GError **error)
{
	g_autofree char *format_s = NULL, *extract = NULL;
	gint last_n = OOPS_LAST_DEFAULT, which = 0;
	const GOptionEntry entries[] = {
		{ "format", 'F', 0, G_OPTION_ARG_STRING, &format_s, "text or json", "FMT" },
		{ "last", 'n', 0, G_OPTION_ARG_INT, &last_n,
		  "Show the last N events of every CPU in the ftrace dump (default 10)", "N" },
		{ "extract-trace", 'o', 0, G_OPTION_ARG_FILENAME, &extract,
		  "Write the ftrace dump as a text trace to OUT and stop", "OUT" },
		{ "dump", 0, 0, G_OPTION_ARG_INT, &which,
		  "With --extract-trace: which dump (1 = the first; default: the first "
		  "that is not empty)",
		  "N" },
		{ NULL },
	};
	g_auto(FtlCliGlobals) g = { 0 };
	if (!ftl_cli_parse(ftl_cli_find("oops"), entries, &g, &argc, &argv, error))
		return FALSE;
	FtlFormat format = FTL_FORMAT_TEXT;
	if (format_s && !ftl_format_parse(format_s, &format, error))
		return FALSE;
	if (format == FTL_FORMAT_CSV) {
		g_set_error(error, FTL_ERROR, FTL_ERROR_USAGE,
			    "oops: --format csv: a report is not a table; use text or json");
		return FALSE;
	}
	if (last_n < 0 || last_n > 100000) {
		g_set_error(error, FTL_ERROR, FTL_ERROR_USAGE, "oops: --last %d: expected 0-100000",
			    last_n);
		return FALSE;
	}
	if (which < 0) {
		g_set_error(error, FTL_ERROR, FTL_ERROR_USAGE,
			    "oops: --dump %d: expected 1 or more", which);
		return FALSE;
	}
	if (g.relative_to || g.wallclock) {
		g_set_error(error, FTL_ERROR, FTL_ERROR_USAGE,
			    "oops: --relative-to and --wallclock apply to traces: use them on the "
			    "dump --extract-trace writes");
		return FALSE;
	}
	if (argc < 2) {
		g_set_error(error, FTL_ERROR, FTL_ERROR_USAGE,
			    "oops: no console log given (try 'ftlens help oops')");
		return FALSE;
	}
	if (extract) {
		if (argc != 2) {
			g_set_error(error, FTL_ERROR, FTL_ERROR_USAGE,
				    "oops: --extract-trace takes one console log");
			return FALSE;
		}
		g_autoptr(FtlConsole) con = ftl_console_read(argv[1], error);
		return con && oops_extract(con, which, extract, error);
	}
	g_autoptr(JsonBuilder) b = json_builder_new();
	json_builder_begin_object(b);
	json_builder_set_member_name(b, "logs");
	json_builder_begin_array(b);
	for (int a = 1; a < argc; a++) {
		g_autoptr(FtlConsole) con = ftl_console_read(argv[a], error);
		if (!con)
			return FALSE;
		g_autoptr(FtlOops) o = ftl_oops_find(con);
		guint nd = con->dumps->len;
		g_autofree OopsDump *dumps = g_new0(OopsDump, MAX(nd, 1));
		g_autofree FtlOopsDumpView *views = g_new0(FtlOopsDumpView, MAX(nd, 1));
		for (guint d = 0; d < nd; d++)
			oops_read_dump(&g, con, o, d, (guint)last_n, &dumps[d], &views[d]);
		FtlOopsView v = { con, o, views, (guint)last_n };
		if (format == FTL_FORMAT_JSON) {
			ftl_oops_add_json(b, &v);
		} else {
			if (a > 1)
				fputc('\n', stdout);
			ftl_oops_print_text(stdout, &v);
		}
		for (guint d = 0; d < nd; d++) {
			ftl_oops_trail_free(dumps[d].trail);
			ftl_trace_free(dumps[d].trace);
		}
	}
	json_builder_end_array(b);
	json_builder_end_object(b);
	if (format == FTL_FORMAT_JSON) {
		g_autoptr(JsonNode) root = json_builder_get_root(b);
		ftl_json_print(root, stdout);
	}
	return TRUE;
}
