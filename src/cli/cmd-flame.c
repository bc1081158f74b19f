/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `ftlens flame`: flame graphs, icicles, flame charts, differential flame
 * graphs and stack charts as interactive SVG. */
#include "config.h"

#include <string.h>
#include <unistd.h>

#include "analysis/flame.h"
#include "analysis/flamechart.h"
#include "analysis/pass.h"
#include "analysis/stackhog.h"
#include "cli/cli.h"
#include "util/error.h"
#include "util/output.h"
#include "views/svg-flame.h"
#include "views/svg-stack.h"

typedef struct {
	char *output, *per, *function, *minwidth, *title, *subtitle, *colors, *highlight, *from;
	char *span_start, *span_end, *color_by;
	gint width, max_frames;
	gboolean chart, inverted, diff, normalize, stack;
	FtlCallTreeGroup group; /* --per */
	gint64 limit;
} FlameArgs;

static void flame_args_clear(FlameArgs *a)
{
	g_free(a->output);
	g_free(a->per);
	g_free(a->function);
	g_free(a->minwidth);
	g_free(a->title);
	g_free(a->subtitle);
	g_free(a->colors);
	g_free(a->highlight);
	g_free(a->from);
	g_free(a->span_start);
	g_free(a->span_end);
	g_free(a->color_by);
}
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC(FlameArgs, flame_args_clear)

/* What one input (or one side of --diff) gave. */
typedef struct {
	FtlTrace *trace;
	FtlFlameBuild *build;
	FtlFlameChart *chart;
	FtlSpans *spans;
	FtlFlame *folded;
	FtlFlame *tree; /* borrowed from one of the above */
	GString *note;	/* for the subtitle */
} FlameInput;

static void flame_input_clear(FlameInput *in)
{
	ftl_flame_build_free(in->build);
	ftl_flamechart_free(in->chart);
	ftl_spans_free(in->spans);
	ftl_flame_free(in->folded);
	if (in->trace)
		ftl_trace_free(in->trace);
	if (in->note)
		g_string_free(in->note, TRUE);
}
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC(FlameInput, flame_input_clear)

static void flame_add_folded(const FtlSlice *added, guint n_added, guint same, gint64 weight,
			     gpointer data)
{
	ftl_flame_paths_add(data, added, n_added, same, weight);
}

/* Subtrees too narrow to draw are folded while reading (not from standard
 * input, which cannot be read twice): paths out of tree order that come
 * back to a folded one make the files read again without folding. */
static gboolean flame_load_folded(FlameInput *in, const FtlInputs *inputs, double min_fraction,
				  GError **error)
{
	guint n = ftl_inputs_n(inputs, FTL_INPUT_FOLDED);
	for (guint i = 0; i < n; i++)
		if (!strcmp(ftl_inputs_path(inputs, FTL_INPUT_FOLDED, i), "-"))
			min_fraction = 0;
	for (;;) {
		in->folded = ftl_flame_new(FTL_FLAME_UNIT_NS);
		FtlFlamePaths *fp = ftl_flame_paths_new(in->folded, min_fraction);
		gboolean ok = TRUE;
		gint64 total = 0;
		for (guint i = 0; i < n && ok; i++)
			ok = ftl_inputs_read_folded(inputs, i, flame_add_folded, fp, &total, error);
		if (!ftl_flame_paths_end(fp) && ok && min_fraction > 0) {
			g_clear_pointer(&in->folded, ftl_flame_free);
			min_fraction = 0;
			continue;
		}
		if (!ok)
			return FALSE;
		break;
	}
	ftl_flame_finish(in->folded);
	in->tree = in->folded;
	g_string_append(in->note, "folded stacks");
	return TRUE;
}

static void flame_note_lost(FlameInput *in, guint64 lost, guint64 lines)
{
	if (lines)
		g_string_append_printf(in->note, "; LOST %" G_GUINT64_FORMAT " events (%" G_GUINT64_FORMAT
				       " place%s): calls there are cut",
				       lost, lines, lines == 1 ? "" : "s");
}


/* Runs one pass over the trace in paths with the flame or chart builder. */
static gboolean flame_load_trace(FlameInput *in, const FlameArgs *a, FtlCliGlobals *g,
				 char *path, double min_fraction, GError **error)
{
	in->trace = path ? ftl_cli_open_path(g, path, error) : ftl_cli_open_trace(g, error);
	if (!in->trace)
		return FALSE;
	if (ftl_inputs_note(g->inputs) && !path)
		g_string_append(in->note, "an ftrace dump in a console log; ");
	if (a->span_start && !(in->spans = ftl_spans_new(a->span_start, a->span_end, error)))
		return FALSE;
	const char *function =
		a->function ? ftl_strpool_intern(ftl_trace_pool(in->trace), a->function) : NULL;
	g_autoptr(FtlPass) pass = ftl_pass_new();
	FtlFlameFrom from = FTL_FLAME_FROM_AUTO;
	if (a->from)
		ftl_flame_from_parse(a->from, &from);
	if (a->chart) {
		FtlFlameChartOptions o = { a->group, function, in->spans,
					   ftl_trace_diags(in->trace), min_fraction, 0 };
		in->chart = ftl_flamechart_new(&o);
		ftl_pass_add(pass, &ftl_flamechart_consumer, in->chart);
	} else {
		/* a difference needs both whole trees */
		FtlFlameBuildOptions o = { from, a->group, function, in->spans,
					   ftl_trace_diags(in->trace), a->diff ? 0 : min_fraction };
		in->build = ftl_flame_build_new(&o);
		ftl_pass_add(pass, &ftl_flame_build_consumer, in->build);
	}
	g_autoptr(FtlCounts) counts = ftl_counts_new();
	ftl_pass_add(pass, &ftl_counts_consumer, counts);
	if (!ftl_pass_run(pass, in->trace, &g->filter, error) || !ftl_cli_finish(g, in->trace, error))
		return FALSE;
	FtlFlame *drawn = in->chart ? ftl_flamechart_tree(in->chart) : ftl_flame_build_tree(in->build);
	if (!ftl_flame_root(drawn)->child)
		return ftl_cli_lacks(g, in->trace, counts,
				     a->chart ? "function_graph calls to chart"
					      : "function calls, stack traces or function samples",
				     error);
	guint64 lines, lost;
	if (in->chart) {
		in->tree = ftl_flamechart_tree(in->chart);
		g_string_append_printf(in->note, "%" G_GUINT64_FORMAT " calls%s",
				       ftl_flamechart_n_calls(in->chart),
				       ftl_flamechart_timed(in->chart)
					       ? ""
					       : " (no timestamps: laid end to end)");
		lost = ftl_flamechart_lost(in->chart, &lines);
	} else {
		in->tree = ftl_flame_build_tree(in->build);
		FtlFlameFrom used = ftl_flame_build_from(in->build);
		g_string_append_printf(in->note, "%s", used == FTL_FLAME_FROM_CALLS ? "function_graph calls"
					   : used == FTL_FLAME_FROM_STACKS ? "stack trace samples"
									   : "function samples");
		if (ftl_flame_build_repaired(in->build))
			g_string_append_printf(in->note, "; %" G_GUINT64_FORMAT " calls repaired",
					       ftl_flame_build_repaired(in->build));
		lost = ftl_flame_build_lost(in->build, &lines);
	}
	flame_note_lost(in, lost, lines);
	if (a->span_start)
		g_string_append_printf(in->note, "; inside %u span%s", ftl_spans_count(in->spans),
				       ftl_spans_count(in->spans) == 1 ? "" : "s");
	return TRUE;
}

/* One side: all operands, or with --diff the operand path alone. */
static gboolean flame_load(FlameInput *in, const FlameArgs *a, FtlCliGlobals *g, char *path,
			   double min_fraction, GError **error)
{
	in->note = g_string_new(NULL);
	if (ftl_inputs_kinds(g->inputs) & FTL_INPUT_FOLDED) {
		if (!path) /* a difference needs both whole trees */
			return flame_load_folded(in, g->inputs, a->diff ? 0 : min_fraction, error);
		FtlInputsOptions o = { .command = "flame", .accept = FTL_INPUT_FOLDED };
		char *one[] = { path, NULL };
		g_autoptr(FtlInputs) side = ftl_inputs_sort(&o, one, 1, error);
		return side && flame_load_folded(in, side, 0, error);
	}
	return flame_load_trace(in, a, g, path, min_fraction, error);
}

static gboolean flame_check_args(FlameArgs *a, FtlCliGlobals *g, int argc, FtlSvgMinWidth *mw,
				 GError **error)
{
	FtlFlameFrom from;
	FtlFlameColors colors;
	const char *bad = NULL;
	/* into a pipe or a file by default, as flamegraph.pl writes */
	if (!a->output && !isatty(STDOUT_FILENO))
		a->output = g_strdup("-");
	if (!a->output)
		bad = "-o FILE is required on a terminal (- for standard output)";
	else if (a->from && !ftl_flame_from_parse(a->from, &from))
		bad = "--from: expected calls, stacks, functions or auto";
	else if (a->colors && !ftl_flame_colors_parse(a->colors, &colors))
		bad = "--colors: expected hot, kernel, mono, mem, io, aqua, purple or yellow";
	else if (a->minwidth && !ftl_svg_minwidth_parse(a->minwidth, mw))
		bad = "--minwidth: expected pixels (0.5) or a percentage (0.1%)";
	else if (a->width < 0 || (a->width && (a->width < 200 || a->width > 100000)))
		bad = "--width: expected 200 to 100000 pixels";
	else if (a->diff && argc != 3)
		bad = "--diff expects two inputs, A and B";
	else if (a->diff && (a->chart || a->stack))
		bad = "--diff draws flame graphs: not with --chart or --stack";
	else if (a->chart && a->stack)
		bad = "--chart and --stack are different pictures: choose one";
	else if (a->stack && a->span_start)
		bad = "--stack: stack tables have no markers to make spans of";
	else if (a->color_by && (a->diff || a->stack))
		bad = "--color-by colours the frames of one flame graph or chart: not with --diff "
		      "or --stack";
	if (bad) {
		g_set_error(error, FTL_ERROR, FTL_ERROR_USAGE, "flame: %s", bad);
		return FALSE;
	}
	FtlSourceBy by;
	if (a->color_by &&
	    !ftl_cli_parse_source_by("flame", "--color-by", g, a->color_by, &by, error))
		return FALSE;
	return ftl_cli_parse_per(g, a->per, TRUE, &a->group, error);
}

static gboolean flame_write(const FlameArgs *a, const FtlCliGlobals *g, FtlFlame *tree,
			    FtlFlameSvgOptions *o, char **inputs, GError **error)
{
	g_autoptr(FtlOutput) out = ftl_output_open(a->output, (const char *const *)inputs, error);
	if (!out)
		return FALSE;
	FtlFlameSvgStats st;
	if (!ftl_flame_svg_write(tree, o, ftl_output_stream(out), &st, error) ||
	    !ftl_output_commit(out, error))
		return FALSE;
	if (g->verbose)
		g_printerr("ftlens: flame: %" G_GUINT64_FORMAT " frames drawn, %" G_GUINT64_FORMAT
			   " boxes of %" G_GUINT64_FORMAT " smaller frames merged (minimum width "
			   "%.2f px), %" G_GUINT64_FORMAT " vanished paths; %s: %" G_GUINT64_FORMAT
			   " bytes\n",
			   st.frames, st.merged, st.merged_nodes, st.minwidth_px, st.vanished,
			   a->output, st.bytes);
	return TRUE;
}

/* --color-by: the map of where the trace's functions are defined */
static gboolean flame_color_by(const FlameArgs *a, const FtlCliGlobals *g, FtlTrace *trace,
			       FtlDebugInfo **dbg, FtlSourceMap **sources, GError **error)
{
	FtlSourceBy by = FTL_SOURCE_BY_DIR;
	ftl_source_by_parse(a->color_by, &by);
	*dbg = ftl_cli_source_debuginfo("flame", g, trace, error);
	if (!*dbg)
		return FALSE;
	*sources = ftl_source_map_new(*dbg, by);
	return TRUE;
}

static gboolean flame_draw(const FlameArgs *a, FtlCliGlobals *g, char **argv,
			   const FtlSvgMinWidth *mw, GError **error)
{
	FtlFlameSvgOptions o = { .width = (guint)a->width,
				 .minwidth_px = mw->px,
				 .minwidth_pct = mw->pct,
				 .title = a->title,
				 .inverted = a->inverted,
				 .diff = a->diff,
				 .max_frames = (guint)MAX(a->max_frames, 0),
				 .origin = g->origin_ns };
	if (a->colors)
		ftl_flame_colors_parse(a->colors, &o.colors);
	g_autoptr(GRegex) hl = NULL;
	if (a->highlight && !(hl = g_regex_new(a->highlight, G_REGEX_RAW, 0, error))) {
		g_prefix_error(error, "flame: --highlight: ");
		return FALSE;
	}
	o.highlight = hl;
	double frac = mw->pct > 0 ? mw->pct / 100 : (mw->px >= 0 ? mw->px : 0.1) /
							  ((a->width ? a->width : 1200) - 20);
	g_auto(FlameInput) in = { 0 };
	g_auto(FlameInput) in_b = { 0 };
	g_autoptr(FtlFlame) diff = NULL;
	FtlFlame *tree;
	g_autoptr(GString) sub = g_string_new(a->subtitle);
	if (a->diff) {
		if (!flame_load(&in, a, g, NULL, frac, error) ||
		    !flame_load(&in_b, a, g, argv[2], frac, error))
			return FALSE;
		if (ftl_flame_unit(in.tree) != ftl_flame_unit(in_b.tree)) {
			g_set_error(error, FTL_ERROR, FTL_ERROR_USAGE,
				    "flame --diff: A and B weigh differently (time and samples)");
			return FALSE;
		}
		tree = diff = ftl_flame_diff(in.tree, in_b.tree, a->normalize);
		g_string_append_printf(sub, "%sA: %s (%s); B: %s (%s)%s", sub->len ? "; " : "",
				       argv[1], in.note->str, argv[2], in_b.note->str,
				       a->normalize ? "; A scaled to B's total" : "");
	} else {
		if (!flame_load(&in, a, g, NULL, frac, error))
			return FALSE;
		tree = in.tree;
		g_string_append_printf(sub, "%s%s", sub->len ? "; " : "", in.note->str);
	}
	o.subtitle = sub->str;
	g_autoptr(FtlDebugInfo) dbg = NULL;
	g_autoptr(FtlSourceMap) sources = NULL;
	if (a->color_by && !flame_color_by(a, g, in.trace, &dbg, &sources, error))
		return FALSE;
	o.color_by = sources;
	g_autofree char *both = a->diff ? g_strdup_printf("A: %s  B: %s", argv[1], argv[2]) : NULL;
	o.input_label = both ? both : in.trace ? ftl_trace_label(in.trace) : argv[1];
	g_autofree FtlFlameMark *marks = NULL;
	if (in.chart) {
		o.n_marks = ftl_flamechart_n_marks(in.chart);
		marks = g_new0(FtlFlameMark, o.n_marks + 1);
		for (guint i = 0; i < o.n_marks; i++) {
			const FtlFlameChartMark *m = ftl_flamechart_mark(in.chart, i);
			marks[i] = (FtlFlameMark){ m->ts, m->text, m->lost };
		}
		o.marks = marks;
	}
	return flame_write(a, g, tree, &o, argv + 1, error);
}

static gboolean flame_stack(const FlameArgs *a, const FtlCliGlobals *g, char **argv,
			    GError **error)
{
	g_autoptr(FtlStackSet) set = ftl_stack_set_new();
	if (!ftl_inputs_read_stacks(g->inputs, set, error))
		return FALSE;
	FtlStackSvgOptions o = { .width = (guint)a->width, .title = a->title,
				 .subtitle = a->subtitle, .limit = a->limit };
	g_autoptr(FtlOutput) out = ftl_output_open(a->output, (const char *const *)argv + 1, error);
	if (!out)
		return FALSE;
	guint64 bytes = 0;
	if (!ftl_stack_svg_write(set, &o, ftl_output_stream(out), &bytes, error) ||
	    !ftl_output_commit(out, error))
		return FALSE;
	if (g->verbose)
		g_printerr("ftlens: flame --stack: %u tables; %s: %" G_GUINT64_FORMAT " bytes\n",
			   ftl_stack_set_n_tables(set), a->output, bytes);
	return TRUE;
}

gboolean ftl_cmd_flame(const FtlCommand *cmd, int argc, char **argv, GError **error)
{
	g_auto(FlameArgs) a = { 0 };
	char *span_help = NULL; /* never set: --span is taken out of argv first */
	const GOptionEntry entries[] = {
		{ "output", 'o', 0, G_OPTION_ARG_FILENAME, &a.output, "Write the SVG to FILE", "FILE" },
		{ "per", 0, 0, G_OPTION_ARG_STRING, &a.per,
		  "One tower (or chart lane) per task or CPU under the root", "task|cpu|none" },
		{ "chart", 0, 0, G_OPTION_ARG_NONE, &a.chart,
		  "Flame chart: x is time, calls never merged, a lane per task (or CPU)", NULL },
		{ "inverted", 0, 0, G_OPTION_ARG_NONE, &a.inverted, "Icicle: the root on top", NULL },
		{ "function", 'f', 0, G_OPTION_ARG_STRING, &a.function,
		  "Only the subtrees of FUNCTION", "FUNCTION" },
		{ "from", 0, 0, G_OPTION_ARG_STRING, &a.from,
		  "What to draw: function_graph calls, stack traces or function samples "
		  "(default: the first the trace has)",
		  "calls|stacks|functions" },
		{ "minwidth", 0, 0, G_OPTION_ARG_STRING, &a.minwidth,
		  "Merge frames narrower than PX pixels (default 0.1) or N% of the total", "PX|N%" },
		{ "width", 0, 0, G_OPTION_ARG_INT, &a.width, "Image width in pixels (1200)", "PX" },
		{ "title", 0, 0, G_OPTION_ARG_STRING, &a.title, "Title", "TEXT" },
		{ "subtitle", 0, 0, G_OPTION_ARG_STRING, &a.subtitle, "Subtitle", "TEXT" },
		{ "colors", 0, 0, G_OPTION_ARG_STRING, &a.colors,
		  "Palette, a stable colour per name: hot, kernel, mono, mem, io, aqua, purple, "
		  "yellow",
		  "NAME" },
		{ "color-by", 0, 0, G_OPTION_ARG_STRING, &a.color_by,
		  "Colour frames by the source directory or file defining each function, with a "
		  "legend (needs the kernel's debug info)",
		  "dir|file" },
		{ "highlight", 0, 0, G_OPTION_ARG_STRING, &a.highlight,
		  "Colour the frames whose name matches REGEX", "REGEX" },
		{ "span", 0, 0, G_OPTION_ARG_STRING, &span_help,
		  "Only what happens between markers matching START and END (regexes)",
		  "START END" },
		{ "diff", 0, 0, G_OPTION_ARG_NONE, &a.diff,
		  "Differential flame graph of A and B: widths from B, red grew, blue shrank", NULL },
		{ "normalize", 0, 0, G_OPTION_ARG_NONE, &a.normalize,
		  "--diff: scale A to B's total first", NULL },
		{ "stack", 0, 0, G_OPTION_ARG_NONE, &a.stack,
		  "Stack chart of stack tracer tables: frames to scale in bytes", NULL },
		{ "limit", 0, 0, G_OPTION_ARG_INT64, &a.limit,
		  "--stack: draw the stack limit (e.g. 16384) as a line", "BYTES" },
		{ "max-frames", 0, 0, G_OPTION_ARG_INT, &a.max_frames,
		  "Draw at most N frames; the minimum width grows to fit (12000)", "N" },
		{ NULL },
	};
	if (!ftl_cli_take_pair("flame", "--span", &argc, argv, &a.span_start, &a.span_end, error))
		return FALSE;
	g_auto(FtlCliGlobals) g = { 0 };
	gboolean parsed = ftl_cli_parse(cmd, entries, &g, &argc, &argv, error);
	g_free(span_help);
	if (!parsed)
		return FALSE;
	if (a.stack && !ftl_cli_no_selection(&g, "flame --stack", error))
		return FALSE;
	guint accept = a.stack ? FTL_INPUT_STACKS
		       : a.chart ? FTL_INPUT_EVENTS
				 : FTL_INPUT_EVENTS | FTL_INPUT_FOLDED;
	FtlSvgMinWidth mw = { -1, 0 };
	/* with --diff, A alone: B is sorted through the door by itself */
	if (!flame_check_args(&a, &g, argc, &mw, error) ||
	    !ftl_cli_setup(&g, accept, a.diff ? 2 : argc, argv, error))
		return FALSE;
	if (a.stack)
		return flame_stack(&a, &g, argv, error);
	return flame_draw(&a, &g, argv, &mw, error);
}
