/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The TUI without a terminal: key scripts drive the app, panels draw on the
 * plain-text canvas, and the screens are compared with golden ones
 * (tests/unit/expected/tui/NAME.screen; FTL_TUI_UPDATE=1 writes them).
 * Inputs: the project's fixtures ($FTL_TESTDATA) and, when present, the
 * public traces ($FTL_REAL_DATA; a test without them says so and passes). */
#include "config.h"

#include <unistd.h>

#include "capture/tracedat-write.h"
#include "tui-drive.h"

static const char *testdata, *realdata, *expected_dir, *srcdir;

/* Compares the screen with the golden one of that name. */
static void tui_expect(Tui *t, const char *name)
{
	g_autofree char *screen = tui_screen(t);
	g_autofree char *file = g_strdup_printf("%s.screen", name);
	g_autofree char *path = g_build_filename(expected_dir, file, NULL);
	if (g_getenv("FTL_TUI_UPDATE")) {
		CU_ASSERT_TRUE(g_file_set_contents(path, screen, -1, NULL));
		return;
	}
	g_autofree char *want = NULL;
	if (!g_file_get_contents(path, &want, NULL, NULL)) {
		fprintf(stderr, "\n%s: no golden screen; this one is:\n%s", path, screen);
		CU_FAIL("golden screen missing");
		return;
	}
	if (strcmp(want, screen)) {
		fprintf(stderr, "\n%s differs; the screen is:\n%s", path, screen);
		CU_FAIL("screen differs from the golden one");
	}
}

static char *real_path(Tui *t, const char *rel)
{
	g_autofree char *p = realdata ? g_build_filename(realdata, rel, NULL) : NULL;
	if (!p || !g_file_test(p, G_FILE_TEST_EXISTS))
		return NULL;
	tui_in(t, realdata);
	return g_strdup(rel);
}

static gboolean real_skip(const char *rel)
{
	fprintf(stderr, "skip: needs $FTL_REAL_DATA/%s ", rel);
	return TRUE;
}

/* ---- the key table ---------------------------------------------------------- */

static void test_keys_sorted_unique(void)
{
	g_autoptr(GPtrArray) all = ftl_tui_keys_sorted();
	CU_ASSERT_TRUE(all->len > 40);
	for (guint i = 0; i < all->len; i++) {
		const FtlTuiBinding *b = g_ptr_array_index(all, i);
		CU_ASSERT_PTR_NOT_NULL(b->help);
		/* one binding a key per panel: the table is the only truth */
		for (guint k = i + 1; k < all->len; k++) {
			const FtlTuiBinding *o = g_ptr_array_index(all, k);
			CU_ASSERT_FALSE(o->key == b->key && (o->panels & b->panels));
		}
	}
	/* letters first, in order (a before A), as htop's and less's help */
	for (guint i = 1; i < all->len; i++) {
		const FtlTuiBinding *a = g_ptr_array_index(all, i - 1),
				    *b = g_ptr_array_index(all, i);
		if (g_ascii_isalpha(b->key))
			CU_ASSERT_TRUE(g_ascii_isalpha(a->key) &&
				       g_ascii_tolower(a->key) <= g_ascii_tolower(b->key));
	}
	/* the keys are there */
	static const gint want[] = { 'h',
				     FTL_TUI_KEY_F1,
				     '\t',
				     FTL_TUI_KEY_BACKTAB,
				     '1',
				     '9',
				     'q',
				     '/',
				     '?',
				     'n',
				     'N',
				     'f',
				     't',
				     'a',
				     'b',
				     'm',
				     '\'',
				     'T',
				     'g',
				     'G',
				     FTL_TUI_KEY_CTRL_L };
	for (guint i = 0; i < G_N_ELEMENTS(want); i++)
		CU_ASSERT_PTR_NOT_NULL(ftl_tui_keys_lookup(want[i], FTL_TUI_PANEL_EVENTS));
	CU_ASSERT_PTR_NOT_NULL(ftl_tui_keys_lookup('l', FTL_TUI_PANEL_GRAPH));
	CU_ASSERT_PTR_NOT_NULL(ftl_tui_keys_lookup('s', FTL_TUI_PANEL_FUNCS));
}

static void test_keys_script(void)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(GArray) k = ftl_tui_keys_parse("j<Enter><S-Tab><<<C-l>", &error);
	CU_ASSERT_PTR_NOT_NULL_FATAL(k);
	CU_ASSERT_EQUAL(k->len, 5);
	CU_ASSERT_EQUAL(g_array_index(k, gint, 0), 'j');
	CU_ASSERT_EQUAL(g_array_index(k, gint, 1), FTL_TUI_KEY_ENTER);
	CU_ASSERT_EQUAL(g_array_index(k, gint, 2), FTL_TUI_KEY_BACKTAB);
	CU_ASSERT_EQUAL(g_array_index(k, gint, 3), '<');
	CU_ASSERT_EQUAL(g_array_index(k, gint, 4), FTL_TUI_KEY_CTRL_L);
	GArray *bad = ftl_tui_keys_parse("<NoSuchKey>", &error);
	CU_ASSERT_PTR_NULL(bad);
	CU_ASSERT_PTR_NOT_NULL(error);
}

/* ---- the canvas --------------------------------------------------------------- */

/* ESC [2J, OSC 52 (clipboard) ... BEL, the one-byte CSI 0x9b, U+009B,
 * U+202E (right-to-left override), a stray 0xff */
#define HOSTILE "\033[2J\033]52;c;aGk=\007\233X\302\233Y\342\200\256Z\377"

static gboolean has_raw_control(const char *s)
{
	for (const guchar *p = (const guchar *)s; *p; p++)
		if ((*p < 0x20 && *p != '\n') || *p == 0x7f || *p == 0x9b || *p == 0xff)
			return TRUE;
	return strstr(s, "\342\200\256") != NULL;
}

static void test_canvas_hostile(void)
{
	g_autoptr(FtlTuiCanvas) c = ftl_tui_canvas_text_new(3, 200, TRUE);
	ftl_tui_put_raw(c, 1, 0, -1, HOSTILE, -1, FTL_TUI_STYLE_NORMAL);
	g_autofree char *s = ftl_tui_canvas_text_dump(c);
	CU_ASSERT_FALSE(has_raw_control(s));
	CU_ASSERT_PTR_NOT_NULL(strstr(s, "\\x1b[2J"));
	CU_ASSERT_PTR_NOT_NULL(strstr(s, "\\x07"));
	CU_ASSERT_PTR_NOT_NULL(strstr(s, "\\x9b"));
	CU_ASSERT_PTR_NOT_NULL(strstr(s, "\\u202e"));
}

static void test_canvas_cut(void)
{
	g_autoptr(FtlTuiCanvas) c = ftl_tui_canvas_text_new(2, 10, TRUE);
	/* wide characters are not split at the edge; text is cut, not wrapped */
	ftl_tui_put(c, 0, 0, -1, "abcdefgh\xe6\xbc\xa2\xe5\xad\x97", FTL_TUI_STYLE_NORMAL);
	ftl_tui_put(c, 1, 3, 4, "0123456789", FTL_TUI_STYLE_CURSOR);
	g_autofree char *s = ftl_tui_canvas_text_dump(c);
	CU_ASSERT_STRING_EQUAL(s, " abcdefgh\xe6\xbc\xa2\n>   0123\n");
	ftl_tui_canvas_text_resize(c, 1, 4);
	ftl_tui_bar(c, 0, 0, 4, 0.5, FTL_TUI_STYLE_BAR);
	g_autofree char *b = ftl_tui_canvas_text_dump(c);
	CU_ASSERT_STRING_EQUAL(b, " \u2588\u2588\n");
}

/* ---- screens of the project's own fixtures ------------------------------------- */

static char *fixture(Tui *t, const char *rel)
{
	tui_in(t, testdata);
	return g_build_filename("vm", rel, NULL);
}

static void test_fixture_fgraph_panels(void)
{
	Tui t = { 0 };
	g_autofree char *path = fixture(&t, "fgraph-events/trace.txt");
	tui_open_trace(&t, path, 24, 100);
	tui_expect(&t, "fixture-events");
	tui_keys(&t, "2");
	tui_expect(&t, "fixture-graph");
	tui_keys(&t, "3");
	tui_expect(&t, "fixture-functions");
	tui_keys(&t, "6"); /* no Timeline: the trace has no timestamps */
	tui_expect(&t, "fixture-flame");
	tui_keys(&t, "7");
	tui_expect(&t, "fixture-quality");
	tui_close(&t);
}

/* function_graph in the kernel's default layout (no task column): the calls
 * before the CPU's first switch are init's, the task it switches out; the
 * idle loop is a tree of its own and init's exits close init's calls. The
 * Graph shows the two tasks apart, as graph --per task does, and all in one
 * tree the same calls with nothing nested across tasks. */
static void test_fixture_graph_tasks(void)
{
	Tui t = { 0 };
	tui_in(&t, testdata);
	g_autofree char *path = g_build_filename("fgraph-tasks", "issue-29.txt", NULL);
	tui_open_trace(&t, path, 16, 100);
	tui_keys(&t, "2E");
	tui_expect(&t, "fgraph-tasks-graph");
	tui_keys(&t, "ppE");
	tui_expect(&t, "fgraph-tasks-graph-task");
	tui_close(&t);
}

/* The per-CPU and per-task trees are read when the Graph asks for them,
 * not with the model; a filter's new model drops them. */
static void test_fixture_lazy_trees(void)
{
	Tui t = { 0 };
	g_autofree char *path = fixture(&t, "fgraph-events/trace.txt");
	tui_open_trace(&t, path, 24, 100);
	FtlTuiModel *m = t.app->model;
	CU_ASSERT_PTR_NOT_NULL_FATAL(m);
	CU_ASSERT_PTR_NOT_NULL(m->trees[FTL_CALLTREE_GROUP_NONE]);
	CU_ASSERT_PTR_NULL(m->trees[FTL_CALLTREE_GROUP_CPU]);
	CU_ASSERT_PTR_NULL(m->trees[FTL_CALLTREE_GROUP_TASK]);
	tui_keys(&t, "2p");
	CU_ASSERT_PTR_NOT_NULL(m->trees[FTL_CALLTREE_GROUP_CPU]);
	CU_ASSERT_PTR_NULL(m->trees[FTL_CALLTREE_GROUP_TASK]);
	tui_expect(&t, "fixture-graph-cpu");
	tui_keys(&t, "p");
	CU_ASSERT_PTR_NOT_NULL(m->trees[FTL_CALLTREE_GROUP_TASK]);
	tui_expect(&t, "fixture-graph-task");
	tui_keys(&t, "fcpu 1<Enter>");
	CU_ASSERT_PTR_NOT_NULL_FATAL(t.app->model);
	CU_ASSERT_PTR_NOT_EQUAL(t.app->model, m);
	CU_ASSERT_PTR_NOT_NULL(t.app->model->trees[FTL_CALLTREE_GROUP_TASK]);
	CU_ASSERT_PTR_NULL(t.app->model->trees[FTL_CALLTREE_GROUP_CPU]);
	tui_expect(&t, "fixture-graph-task-cpu1");
	/* p is taken while the tree it chose is still read (no tick between):
	 * task -> all -> CPU (not read) -> task; the flame's p too */
	FtlTuiInput p = { 'p', 0, 0 };
	for (int i = 0; i < 3; i++)
		ftl_tui_app_key(t.app, &p);
	g_autofree char *screen = tui_screen(&t);
	CU_ASSERT_PTR_NOT_NULL(strstr(screen, "(per task; p: change)"));
	tui_keys(&t, "6");
	ftl_tui_app_key(t.app, &p);
	ftl_tui_app_key(t.app, &p);
	g_free(screen);
	screen = tui_screen(&t);
	CU_ASSERT_PTR_NOT_NULL(strstr(screen, "Flame (per task"));
	tui_close(&t);
}

static void test_fixture_markers(void)
{
	Tui t = { 0 };
	g_autofree char *path = fixture(&t, "events/default.txt");
	tui_open_trace(&t, path, 24, 100);
	tui_keys(&t, "5");
	tui_expect(&t, "fixture-markers");
	tui_close(&t);
}

static void test_fixture_stack(void)
{
	Tui t = { 0 };
	g_autofree char *path = fixture(&t, "stack/stack_trace");
	tui_open_stacks(&t, path, 24, 100);
	tui_expect(&t, "fixture-stack");
	tui_close(&t);
}

/* Tab and Shift-Tab and the number keys switch; each panel keeps its
 * cursor and scroll; help is sorted by key and closes on any key. */
static void test_fixture_view_state(void)
{
	Tui t = { 0 };
	g_autofree char *path = fixture(&t, "fgraph-events/trace.txt");
	tui_open_trace(&t, path, 24, 100);
	tui_keys(&t, "jjjj<PgDn>j");
	g_autofree char *events = tui_screen(&t);
	tui_keys(&t, "<Tab>jj<Enter>"); /* unfold ksys_read */
	g_autofree char *graph = tui_screen(&t);
	CU_ASSERT_STRING_NOT_EQUAL(events, graph);
	tui_keys(&t, "<S-Tab>");
	g_autofree char *back = tui_screen(&t);
	CU_ASSERT_STRING_EQUAL(events, back);
	tui_keys(&t, "2");
	g_autofree char *graph2 = tui_screen(&t);
	CU_ASSERT_STRING_EQUAL(graph, graph2);
	tui_keys(&t, "h");
	tui_expect(&t, "fixture-help");
	tui_keys(&t, "x");
	g_autofree char *closed = tui_screen(&t);
	CU_ASSERT_STRING_EQUAL(graph, closed);
	CU_ASSERT_TRUE(tui_keys(&t, "q") & FTL_TUI_REACT_QUIT);
	tui_close(&t);
}

/* Back to Events once the Timeline's cursor moved: the list goes to the
 * Timeline's time (it recursed until the stack ran out: issue 30). So do
 * the other ways into Events that carry a place: Enter in the Timeline,
 * v (list the calls) from Functions and Flame, with the Timeline's time pending. */
static void test_fixture_timeline_to_events(void)
{
	Tui t = { 0 };
	g_autofree char *src = g_canonicalize_filename("data/sample-fgraph.txt", srcdir);
	tui_open_trace(&t, src, 24, 100);
	tui_keys(&t, "4<Right><Right><Right>");
	gint64 ts = ftl_tui_app_panel(t.app, FTL_TUI_PANEL_TIMELINE)
			    ->klass->cursor_time(ftl_tui_app_panel(t.app, FTL_TUI_PANEL_TIMELINE),
						 t.app);
	CU_ASSERT_NOT_EQUAL_FATAL(ts, FTL_TS_NONE);
	tui_keys(&t, "1");
	CU_ASSERT_EQUAL(t.app->current, FTL_TUI_PANEL_EVENTS);
	FtlTuiPanel *ev = ftl_tui_app_panel(t.app, FTL_TUI_PANEL_EVENTS);
	gint64 at = ev->klass->cursor_time(ev, t.app);
	CU_ASSERT_TRUE(at != FTL_TS_NONE && at >= ts);
	tui_keys(&t, "4<Right><Enter>");
	CU_ASSERT_EQUAL(t.app->current, FTL_TUI_PANEL_EVENTS);
	tui_keys(&t, "4<Left>3v");
	CU_ASSERT_EQUAL(t.app->current, FTL_TUI_PANEL_EVENTS);
	CU_ASSERT_EQUAL(ftl_tui_filter_depth(t.app->filter), 1);
	tui_keys(&t, "4<Right>6v");
	CU_ASSERT_EQUAL(t.app->current, FTL_TUI_PANEL_EVENTS);
	CU_ASSERT_EQUAL(ftl_tui_filter_depth(t.app->filter), 2);
	g_free(tui_screen(&t));
	tui_close(&t);
}

static char *first_line(const char *screen)
{
	const char *nl = strchr(screen, '\n');
	return g_strndup(screen, nl ? (gsize)(nl - screen) : strlen(screen));
}

/* The tab row is the same from the first screen on, and a number is
 * always the same panel: a panel whose part of the model is still read
 * says so, one the input turns out to have nothing for stays in the row
 * and says why (a function_graph trace without timestamps: no Timeline,
 * no Markers). Help starts with the keys of the panel shown. */
static void test_fixture_tabs_stable(void)
{
	Tui t = { .unsettled = TRUE };
	g_autofree char *path = fixture(&t, "fgraph-basic/trace.txt");
	tui_open_trace(&t, path, 24, 80);
	CU_ASSERT_PTR_NULL(t.app->model); /* read after the first screen */
	t.app->current = FTL_TUI_PANEL_TIMELINE;
	ftl_tui_app_draw(t.app, t.canvas);
	g_autofree char *loading = ftl_tui_canvas_text_dump(t.canvas);
	CU_ASSERT_PTR_NOT_NULL(strstr(loading, "Timeline: reading the input"));
	g_autofree char *tabs0 = first_line(loading);
	/* ten panels do not fit 80 columns: the ones not shown are cut */
	CU_ASSERT_PTR_NOT_NULL(strstr(tabs0, " 1 Eve  2 Gra  3 Fun  4 Timeline  5 Mar"));
	t.app->current = FTL_TUI_PANEL_EVENTS;
	ftl_tui_app_settle(t.app);
	tui_keys(&t, "4");
	g_autofree char *empty = tui_screen(&t);
	CU_ASSERT_EQUAL(t.app->current, FTL_TUI_PANEL_TIMELINE);
	CU_ASSERT_PTR_NOT_NULL(strstr(empty, "Timeline: no timestamps in this input"));
	g_autofree char *tabs1 = first_line(empty);
	CU_ASSERT_STRING_EQUAL(tabs0, tabs1);
	/* Tab visits the panels that have something: Markers (the trace's
	 * "before foo", "after foo") after Functions */
	tui_keys(&t, "3<Tab>");
	CU_ASSERT_EQUAL(t.app->current, FTL_TUI_PANEL_MARKERS);
	tui_keys(&t, "8");
	g_autofree char *stack = tui_screen(&t);
	CU_ASSERT_EQUAL(t.app->current, FTL_TUI_PANEL_MARKERS);
	CU_ASSERT_PTR_NOT_NULL(strstr(stack, "Stack: nothing in this input for it"));
	tui_keys(&t, "6h");
	g_autofree char *help = tui_screen(&t);
	CU_ASSERT_PTR_NOT_NULL(strstr(help, "What (Flame's own keys first)\n  p          Graph,Flame"));
	tui_close(&t);
}

/* The Timeline's status line names the event under the cursor ("NAME at
 * TIME", on the row's CPU or "on CPU N"); Enter selects that very event
 * in Events: its name, time and CPU. Back in the Timeline after. Returns
 * the name, or NULL when the line names none (then Enter is not pressed). */
static char *timeline_enter_named(Tui *t)
{
	g_autofree char *s = tui_screen(t);
	/* "...: NAME at TIME[ on CPU N]..." after "CPU N" of the row or the task's */
	g_autoptr(GRegex) re = g_regex_new("^ [^\\n]*?(?:CPU (\\d+)[^\\n]*?)?: (\\S+) at ([0-9.]+)"
					   "(?: on CPU (\\d+))?[ ,(][^\\n]*\\[Enter[^\\n]*\\]$",
					   G_REGEX_MULTILINE, 0, NULL);
	g_autoptr(GMatchInfo) m = NULL;
	if (!g_regex_match(re, s, 0, &m))
		return NULL;
	g_autofree char *cpu_row = g_match_info_fetch(m, 1);
	char *name = g_match_info_fetch(m, 2);
	g_autofree char *when = g_match_info_fetch(m, 3);
	g_autofree char *cpu_on = g_match_info_fetch(m, 4);
	gint64 cpu = g_ascii_strtoll(cpu_on && *cpu_on ? cpu_on : cpu_row, NULL, 10);
	tui_keys(t, "<Enter>");
	CU_ASSERT_EQUAL(t->app->current, FTL_TUI_PANEL_EVENTS);
	FtlTuiPanel *ev = ftl_tui_app_panel(t->app, FTL_TUI_PANEL_EVENTS);
	g_free(tui_screen(t)); /* the rows around the cursor are read */
	const FtlTuiRow *row =
		ftl_tui_events_row(t->app->events, (guint64)ftl_tui_events_panel_row(ev));
	CU_ASSERT_PTR_NOT_NULL_FATAL(row);
	char at[48];
	CU_ASSERT_STRING_EQUAL(row->name, name);
	CU_ASSERT_STRING_EQUAL(ftl_tui_app_time(t->app, row->ts, at, sizeof at), when);
	CU_ASSERT_EQUAL(row->cpu, cpu);
	tui_keys(t, "4");
	return name;
}

/* The Timeline at 80x24 on a scheduling trace: CPU rows, then the
 * busiest tasks by letter with runnable shaded apart from running, the
 * marker labels that fit and no label over another, the event under the
 * cursor; M lists the markers; a click and Enter go to that event in
 * Events, on a CPU row and on a task's row running, runnable and asleep. */
static void test_fixture_timeline(void)
{
	Tui t = { 0 };
	g_autofree char *path = fixture(&t, "events/default.txt");
	tui_open_trace(&t, path, 24, 80);
	tui_keys(&t, "4");
	tui_expect(&t, "fixture-timeline");
	g_autofree char *s = tui_screen(&t);
	CU_ASSERT_PTR_NOT_NULL(strstr(s, "CPU 0        "));
	CU_ASSERT_PTR_NOT_NULL(strstr(s, "\n a tasks\u2026-107 "));
	CU_ASSERT_PTR_NOT_NULL(strstr(s, "\u2591")); /* runnable */
	CU_ASSERT_PTR_NOT_NULL(
		strstr(s, "\n CPU 0 sh-96: sys_enter_openat at 3.780047, runs 11.373 ms  "
			  "[Enter: Events]\n"));
	/* a letter is one task: no two task rows share one */
	CU_ASSERT_PTR_NULL(strstr(s, "\n a sh-"));
	tui_keys(&t, "M");
	g_autofree char *list = tui_screen(&t);
	CU_ASSERT_PTR_NOT_NULL(strstr(list, "   1      3.781262  before default\n"));
	tui_keys(&t, "<Esc>++]");
	g_autofree char *zoomed = tui_screen(&t);
	CU_ASSERT_STRING_NOT_EQUAL(zoomed, s);
	FtlTuiInput click = { FTL_TUI_KEY_CLICK, 4, 40 }; /* CPU 1, mid-screen */
	ftl_tui_app_key(t.app, &click);
	g_autofree char *cpu1 = timeline_enter_named(&t);
	CU_ASSERT_PTR_NOT_NULL(cpu1);
	/* a task's row: each state it is in along the row names its event */
	tui_keys(&t, "--<Home><Down><Down>"); /* b sh-108: asleep, runnable, runs */
	gboolean seen[3] = { FALSE };
	static const char *const states[] = { " runs on CPU ", " runnable for CPU ", " asleep: " };
	for (int x = 0; x < 66; x++) {
		g_autofree char *row = tui_screen(&t);
		for (int k = 0; k < 3; k++) {
			if (seen[k] || !strstr(row, states[k]))
				continue;
			g_autofree char *name = timeline_enter_named(&t);
			CU_ASSERT_PTR_NOT_NULL(name);
			seen[k] = TRUE;
		}
		tui_keys(&t, "<Right>");
	}
	CU_ASSERT_TRUE(seen[0] && seen[1] && seen[2]);
	tui_close(&t);
}

/* The sum of pid's waits on the Timeline's lanes and the first one's start. */
static gint64 lanes_waited(const FtlTuiModel *m, gint32 pid, gint64 *first)
{
	gint64 sum = 0;
	*first = FTL_TS_NONE;
	for (guint i = 0; i < m->lanes->len; i++) {
		const FtlTuiLane *lane = m->lanes->pdata[i];
		for (guint k = 0; lane && k < lane->waits->len; k++) {
			const FtlTuiRun *w = &g_array_index(lane->waits, FtlTuiRun, k);
			if (w->pid != pid)
				continue;
			sum += w->t1 - w->t0;
			if (*first == FTL_TS_NONE || w->t0 < *first)
				*first = w->t0;
		}
	}
	return sum;
}

/* The Timeline's runnable stretches are `ftlens sched`'s waits: from the
 * wakeup that counts (sched_waking and sched_wakeup of one wakeup are one,
 * from the first of them; a task woken twice before it runs waits from the
 * latest, as trace-cmd report -w), on the lane of the CPU that ran it. */
static void test_timeline_waits_are_sched(void)
{
	static const char trace[] =
		"# tracer: nop\n#\n"
		"  a-10 [000] d..2.   100.000000: sched_switch: prev_comm=a prev_pid=10 "
		"prev_prio=120 prev_state=S ==> next_comm=b next_pid=20 next_prio=120\n"
		/* a: waking then wakeup, one wakeup from 100.000100 */
		"  b-20 [000] d..3.   100.000100: sched_waking: comm=a pid=10 prio=120 "
		"target_cpu=001\n"
		"  b-20 [000] d..3.   100.000150: sched_wakeup: comm=a pid=10 prio=120 "
		"target_cpu=001\n"
		"  c-30 [001] d..2.   100.000400: sched_switch: prev_comm=c prev_pid=30 "
		"prev_prio=120 prev_state=S ==> next_comm=a next_pid=10 next_prio=120\n"
		/* c: woken twice before it runs (its run and sleep between were
		 * not recorded): it waits from the second, 100.000700 */
		"  b-20 [000] d..3.   100.000500: sched_wakeup: comm=c pid=30 prio=120 "
		"target_cpu=000\n"
		"  b-20 [000] d..3.   100.000700: sched_wakeup: comm=c pid=30 prio=120 "
		"target_cpu=000\n"
		"  b-20 [000] d..2.   100.001000: sched_switch: prev_comm=b prev_pid=20 "
		"prev_prio=120 prev_state=S ==> next_comm=c next_pid=30 next_prio=120\n"
		"  a-10 [001] d..2.   100.001200: sched_switch: prev_comm=a prev_pid=10 "
		"prev_prio=120 prev_state=S ==> next_comm=swapper next_pid=0 next_prio=120\n";
	g_autofree char *dir = g_dir_make_tmp("ftl-tui-XXXXXX", NULL);
	g_autofree char *path = g_build_filename(dir, "waits.txt", NULL);
	CU_ASSERT_TRUE_FATAL(g_file_set_contents(path, trace, -1, NULL));
	Tui t = { 0 };
	tui_in(&t, dir);
	tui_open_trace(&t, "waits.txt", 24, 80);
	const FtlTuiModel *m = t.app->model;
	CU_ASSERT_PTR_NOT_NULL_FATAL(m);
	gint64 first;
	const gint64 s = 100000000000;
	CU_ASSERT_EQUAL(lanes_waited(m, 10, &first), 300000);
	CU_ASSERT_EQUAL(first, s + 100000);
	CU_ASSERT_EQUAL(lanes_waited(m, 30, &first), 300000);
	CU_ASSERT_EQUAL(first, s + 700000);
	/* and the sched panel's figures, from the same analysis */
	const FtlSchedScope *sc = ftl_sched_scope(m->sched, 0);
	for (guint i = 0; i < sc->n_tasks; i++)
		if (sc->tasks[i].pid == 10 || sc->tasks[i].pid == 30)
			CU_ASSERT_EQUAL(sc->tasks[i].wait_ns, 300000);
	const FtlTuiLane *cpu1 = ftl_tui_lanes_get(m->lanes, 1);
	CU_ASSERT_EQUAL_FATAL(cpu1->waits->len, 1); /* a's, ended by the switch on CPU 1 */
	CU_ASSERT_STRING_EQUAL(g_array_index(cpu1->waits, FtlTuiRun, 0).event, "sched_waking");
	CU_ASSERT_EQUAL(g_array_index(cpu1->waits, FtlTuiRun, 0).cpu, 0);
	tui_close(&t);
	g_unlink(path);
	g_rmdir(dir);
}

/* The Timeline's markers row on screen s: whole labels ("mark-NN") and
 * numbers only, and the cursor's "v" among them, never over one. */
static void timeline_marks_whole(const char *s)
{
	g_auto(GStrv) lines = g_strsplit(s, "\n", -1);
	CU_ASSERT_FATAL(g_strv_length(lines) > 2 && g_utf8_strlen(lines[2], -1) > 13);
	const char *row = g_utf8_offset_to_pointer(lines[2], 13); /* past the cursor's time */
	CU_ASSERT_PTR_NOT_NULL(strchr(row, 'v'));
	g_auto(GStrv) words = g_regex_split_simple("[ v\\x{2502}]+", row, 0, 0);
	for (char **w = words; *w; w++) {
		if (!**w || g_regex_match_simple("^(?:mark-\\d\\d|\\d+)$", *w, 0, 0))
			continue;
		fprintf(stderr, "\na marker label cut: '%s' in '%s'", *w, lines[2]);
		CU_FAIL("a marker label cut by the cursor");
	}
}

/* A crowded Timeline at 80x24: 30 tasks on two CPUs and 80 markers in a
 * third of the span. The tasks without a row of their own are in the
 * legend by letter and name, the rest counted; a marker label is drawn
 * whole or not at all (its number instead), and M lists every marker in
 * view by those numbers. */
static void test_timeline_crowded(void)
{
	g_autofree char *dir = g_dir_make_tmp("ftl-tui-XXXXXX", NULL);
	g_autofree char *path = g_build_filename(dir, "crowded.txt", NULL);
	g_autoptr(GString) text = g_string_new("# tracer: nop\n#\n");
	int prev[2] = { 0, 0 };
	for (int k = 0; k < 120; k++) {
		int cpu = k % 2, next = 1000 + (k * 7) % 30;
		g_string_append_printf(text,
				       "           t%d-%d [%03d] d..2.   100.%06d: sched_switch: "
				       "prev_comm=t%d prev_pid=%d prev_prio=120 prev_state=S ==> "
				       "next_comm=t%d next_pid=%d next_prio=120\n",
				       prev[cpu], prev[cpu], cpu, k * 1000 + (k % 5) * 100,
				       prev[cpu], prev[cpu], next, next);
		prev[cpu] = next;
		if (k >= 40 && k < 80)
			for (int j = 0; j < 2; j++)
				g_string_append_printf(text,
						       "           t%d-%d [%03d] .....   100.%06d: "
						       "tracing_mark_write: mark-%02d\n",
						       next, next, cpu, k * 1000 + 500 + j * 200,
						       (k - 40) * 2 + j);
	}
	CU_ASSERT_TRUE_FATAL(g_file_set_contents(path, text->str, -1, NULL));
	Tui t = { 0 };
	tui_in(&t, dir);
	tui_open_trace(&t, "crowded.txt", 24, 80);
	tui_keys(&t, "4");
	g_autofree char *s = tui_screen(&t);
	g_auto(GStrv) lines = g_strsplit(s, "\n", -1);
	CU_ASSERT_FATAL(g_strv_length(lines) >= 22);
	/* the legend: after the last task row, the next tasks by letter */
	const char *legend = lines[20];
	CU_ASSERT_PTR_NOT_NULL(strstr(legend, "runnable"));
	CU_ASSERT_PTR_NOT_NULL(strstr(legend, "more"));
	const char *last_row = lines[19];
	CU_ASSERT_TRUE_FATAL(g_ascii_islower(last_row[1]) && last_row[2] == ' ');
	char next_letter[4] = { (char)(last_row[1] + 1), ' ', 't', 0 };
	CU_ASSERT_PTR_NOT_NULL(strstr(legend, next_letter));
	/* the markers' row: whole labels or numbers, no label over another */
	const char *marks = lines[2];
	g_autoptr(GRegex) cut = g_regex_new("mark-(?!\\d\\d(?:[ \\x{2502}]|$))", 0, 0, NULL);
	CU_ASSERT_FALSE(g_regex_match(cut, marks, 0, NULL));
	CU_ASSERT_PTR_NOT_NULL(strstr(marks, "mark-"));
	g_autoptr(GRegex) num = g_regex_new("\\x{2502}(\\d+)", 0, 0, NULL);
	g_autoptr(GMatchInfo) m = NULL;
	CU_ASSERT_TRUE_FATAL(g_regex_match(num, marks, 0, &m));
	g_autofree char *first_num = g_match_info_fetch(m, 1);
	/* the cursor's "v" over every column: beside labels, never over one */
	tui_keys(&t, "<Home>");
	for (int x = 0; x < 80 - 13; x++) {
		g_autofree char *at = tui_screen(&t);
		timeline_marks_whole(at);
		tui_keys(&t, "<Right>");
	}
	tui_keys(&t, "<Home>");
	/* M: the marker of that number is in the list */
	tui_keys(&t, "M");
	g_autofree char *list = tui_screen(&t);
	CU_ASSERT_PTR_NOT_NULL(strstr(list, "   1    100.040500  mark-00\n"));
	g_autofree char *want = g_strdup_printf("\n %3s    100.", first_num);
	CU_ASSERT_PTR_NOT_NULL(strstr(list, want));
	tui_close(&t);
	g_unlink(path);
	g_rmdir(dir);
}

/* Task rows whose names do not fit the Timeline's label column (an
 * unknown comm, a long one) and whose pids share their first digits:
 * each row shows its pid whole, the name cut (and marked so), so that no
 * two rows read the same. */
static void test_timeline_task_labels(void)
{
	g_autofree char *dir = g_dir_make_tmp("ftl-tui-XXXXXX", NULL);
	g_autofree char *path = g_build_filename(dir, "names.txt", NULL);
	g_autoptr(GString) text = g_string_new("# tracer: nop\n#\n");
	static const char *const comms[] = { "<...>", "<...>", "kworker/u16:3", "kworker/u16:3" };
	static const int pids[] = { 18981, 18989, 4194301, 4194303 };
	int prev = 0;
	for (int k = 0; k < 40; k++) {
		int i = k % 4;
		g_string_append_printf(text,
				       "           t-%d [000] d..2.   100.%06d: sched_switch: "
				       "prev_comm=t prev_pid=%d prev_prio=120 prev_state=S ==> "
				       "next_comm=%s next_pid=%d next_prio=120\n",
				       prev, k * 1000, prev, comms[i], pids[i]);
		prev = pids[i];
	}
	CU_ASSERT_TRUE_FATAL(g_file_set_contents(path, text->str, -1, NULL));
	Tui t = { 0 };
	tui_in(&t, dir);
	tui_open_trace(&t, "names.txt", 24, 80);
	tui_keys(&t, "4");
	g_autofree char *s = tui_screen(&t);
	g_auto(GStrv) lines = g_strsplit(s, "\n", -1);
	g_autoptr(GHashTable) seen = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	guint rows = 0;
	for (char **l = lines; *l; l++) {
		/* a task row: its letter, a space, the label to column 12 */
		if (strlen(*l) < 14 || !g_ascii_islower((*l)[1]) || (*l)[2] != ' ' || !strstr(*l, "-"))
			continue;
		const char *end = g_utf8_offset_to_pointer(*l, MIN(13, g_utf8_strlen(*l, -1)));
		char *label = g_strndup(*l + 3, (gsize)(end - (*l + 3)));
		g_strchomp(label);
		CU_ASSERT_FALSE(g_hash_table_contains(seen, label));
		g_hash_table_add(seen, label);
		rows++;
	}
	CU_ASSERT_EQUAL(rows, 4);
	for (guint i = 0; i < G_N_ELEMENTS(pids); i++) {
		g_autofree char *pid = g_strdup_printf("-%d ", pids[i]);
		CU_ASSERT_PTR_NOT_NULL(strstr(s, pid));
	}
	CU_ASSERT_PTR_NOT_NULL(strstr(s, "<..\u2026-18981 "));
	CU_ASSERT_PTR_NOT_NULL(strstr(s, "k\u2026-4194303 "));
	tui_close(&t);
	g_unlink(path);
	g_rmdir(dir);
}

/* The screen without its last line (the message: "view saved" then
 * "view ... opened"). */
static char *tui_screen_body(Tui *t)
{
	g_autofree char *s = tui_screen(t);
	char *end = strrchr(s, '\n');
	while (end && end > s && end[-1] != '\n')
		end--;
	return g_strndup(s, end ? (gsize)(end - s) : strlen(s));
}

/* keys, Z saved as name; closes the app: the screens of each panel in
 * panels before the save (the key and the screen body). */
static void view_save_close(Tui *t, const char *keys, const char *name)
{
	tui_keys(t, keys);
	g_autofree char *script = g_strdup_printf("Z<C-u>%s<Enter>", name);
	tui_keys(t, script);
	g_autofree char *s = tui_screen(t);
	CU_ASSERT_PTR_NOT_NULL(strstr(s, "view saved: "));
}

/* Opens path with the view saved as name: the screen is the one saved. */
static void view_reopen(Tui *t, const char *path, const char *name, const char *want,
			const char *golden)
{
	g_autoptr(GError) error = NULL;
	g_autofree char *file = ftl_tui_view_resolve(name, &error);
	g_autoptr(FtlTuiView) v = ftl_tui_view_load(file, &error);
	CU_ASSERT_PTR_NOT_NULL_FATAL(v);
	t->opt.view = v;
	tui_open_trace(t, path, 24, 100);
	g_autofree char *got = tui_screen_body(t);
	if (strcmp(got, want))
		fprintf(stderr, "\nsaved:\n%s\nreopened:\n%s\n", want, got);
	CU_ASSERT_STRING_EQUAL(got, want);
	g_autofree char *s = tui_screen(t);
	CU_ASSERT_PTR_NOT_NULL(strstr(s, " opened"));
	tui_expect(t, golden);
	t->opt.view = NULL; /* v goes; the app's view was applied */
	CU_ASSERT_PTR_NULL(t->app->view);
}

/* Z, quit, open the view: the same screen, on every panel it saved. */
static void test_fixture_saved_view_graph(void)
{
	Tui t = { 0 };
	g_autofree char *path = fixture(&t, "fgraph-events/trace.txt");
	tui_open_trace(&t, path, 24, 100);
	/* a filter, folds (by path), the cursor, the Functions' sort */
	view_save_close(&t, "fcpu 1<Enter>3sSjj2jj<Right>jjj<Right>jj", "fgraph");
	g_autofree char *graph = tui_screen_body(&t);
	tui_keys(&t, "3");
	g_autofree char *funcs = tui_screen_body(&t);
	tui_keys(&t, "1");
	g_autofree char *events = tui_screen_body(&t);
	tui_keys(&t, "2");
	tui_close(&t);
	memset(&t, 0, sizeof t);
	g_autofree char *again = fixture(&t, "fgraph-events/trace.txt");
	view_reopen(&t, again, "fgraph", graph, "saved-view-graph");
	tui_keys(&t, "3");
	g_autofree char *funcs2 = tui_screen_body(&t);
	CU_ASSERT_STRING_EQUAL(funcs2, funcs);
	tui_keys(&t, "1");
	g_autofree char *events2 = tui_screen_body(&t);
	CU_ASSERT_STRING_EQUAL(events2, events);
	tui_close(&t);
}

static void test_fixture_saved_view_timeline(void)
{
	Tui t = { 0 };
	g_autofree char *path = fixture(&t, "events/default.txt");
	tui_open_trace(&t, path, 24, 100);
	/* the Events cursor, a bookmark, marks, a zoomed and panned window */
	view_save_close(&t, "jjjjjjjjjjjjjjjjjjjjjjjjjmxjjja4++]<Right><Right>jbT", "events");
	g_autofree char *timeline = tui_screen_body(&t);
	tui_keys(&t, "1");
	g_autofree char *events = tui_screen_body(&t);
	tui_keys(&t, "G'x");
	g_autofree char *bookmark = tui_screen_body(&t);
	tui_close(&t);
	memset(&t, 0, sizeof t);
	g_autofree char *again = fixture(&t, "events/default.txt");
	view_reopen(&t, again, "events", timeline, "saved-view-timeline");
	tui_keys(&t, "1");
	g_autofree char *events2 = tui_screen_body(&t);
	if (strcmp(events2, events))
		fprintf(stderr, "\nsaved:\n%s\nreopened:\n%s\n", events, events2);
	CU_ASSERT_STRING_EQUAL(events2, events);
	/* the bookmark: the same row */
	tui_keys(&t, "G'x");
	g_autofree char *bookmark2 = tui_screen_body(&t);
	CU_ASSERT_STRING_EQUAL(bookmark2, bookmark);
	CU_ASSERT_STRING_NOT_EQUAL(bookmark2, events2);
	tui_close(&t);
}

/* O: a bad file is one message naming it and its line; the app goes on. */
static void test_fixture_open_bad_view(void)
{
	Tui t = { 0 };
	g_autofree char *path = fixture(&t, "fgraph-events/trace.txt");
	g_autofree char *dir = ftl_tui_view_dir();
	CU_ASSERT_EQUAL(g_mkdir_with_parents(dir, 0700), 0);
	g_autofree char *bad = g_build_filename(dir, "bad.view", NULL);
	CU_ASSERT_TRUE(g_file_set_contents(bad, "[ftlens-view]\nversion=1\n[graph]\ngroup=9\n",
					   -1, NULL));
	tui_open_trace(&t, path, 24, 100);
	tui_keys(&t, "Obad<Enter>");
	g_autofree char *s = tui_screen(&t);
	CU_ASSERT_PTR_NOT_NULL(strstr(s, "bad.view': line 4: group: '9'"));
	tui_keys(&t, "Onone<Enter>");
	g_autofree char *s2 = tui_screen(&t);
	CU_ASSERT_PTR_NOT_NULL(strstr(s2, "open view: "));
	CU_ASSERT_PTR_NOT_NULL(strstr(s2, "none.view"));
	tui_keys(&t, "O");
	g_autofree char *s3 = tui_screen(&t);
	CU_ASSERT_PTR_NOT_NULL(strstr(s3, "open view (bad"));
	tui_close(&t);
	g_unlink(bad);
}

/* Search, marks A/B with the delta in the status line, a CPU filter and
 * Esc popping it, at 80x24. */
static void test_fixture_search_marks_filter(void)
{
	Tui t = { 0 };
	g_autofree char *path = fixture(&t, "events/default.txt");
	tui_open_trace(&t, path, 24, 80);
	tui_keys(&t, "/sched_wakeup<Enter>a");
	tui_keys(&t, "nb");
	tui_expect(&t, "fixture-search-marks");
	g_autofree char *marks = tui_screen(&t);
	CU_ASSERT_PTR_NOT_NULL(strstr(marks, "B-A"));
	tui_keys(&t, "fcpu 1<Enter>");
	tui_expect(&t, "fixture-filter-cpu1");
	g_autofree char *cpu1 = tui_screen(&t);
	CU_ASSERT_PTR_NULL(strstr(cpu1, "[000]"));
	tui_keys(&t, "<Esc>g");
	g_autofree char *popped = tui_screen(&t);
	CU_ASSERT_PTR_NOT_NULL(strstr(popped, "[000]"));
	tui_close(&t);
}

/* Hostile comms and marker text reach the screen made visible, in every
 * panel that shows them. */
static void test_hostile_screens(void)
{
	g_autofree char *dir = g_dir_make_tmp("ftl-tui-XXXXXX", NULL);
	g_autofree char *path = g_build_filename(dir, "hostile.txt", NULL);
	g_autofree char *text = g_strdup_printf(
		"# tracer: nop\n#\n"
		"#           TASK-PID     CPU#  |||||  TIMESTAMP  FUNCTION\n"
		"#              | |         |   |||||     |         |\n"
		"        ev" HOSTILE "il-96      [000] .....   100.000000: tracing_mark_write: "
		"start " HOSTILE "\n"
		"        ev" HOSTILE "il-96      [000] .....   100.000100: sched_switch: "
		"prev_comm=ev" HOSTILE "il prev_pid=96 prev_prio=120 prev_state=S ==> "
		"next_comm=swapper/0 next_pid=0 next_prio=120\n"
		"          <idle>-0       [001] d....   100.000200: tracing_mark_write: "
		"end " HOSTILE "\n");
	CU_ASSERT_TRUE_FATAL(g_file_set_contents(path, text, -1, NULL));
	Tui t = { 0 };
	tui_in(&t, dir);
	tui_open_trace(&t, "hostile.txt", 20, 160);
	static const char *const panels[] = { "1", "4", "5", "7", "0" };
	for (guint i = 0; i < G_N_ELEMENTS(panels); i++) {
		tui_keys(&t, panels[i]);
		g_autofree char *s = tui_screen(&t);
		CU_ASSERT_FALSE(has_raw_control(s));
		/* Quality shows counts, no trace text */
		if (strcmp(panels[i], "7"))
			CU_ASSERT_PTR_NOT_NULL(strstr(s, "\\x1b"));
	}
	tui_keys(&t, "5");
	tui_expect(&t, "hostile-markers");
	tui_keys(&t, "1");
	tui_expect(&t, "hostile-events");
	tui_close(&t);
	g_unlink(path);
	g_rmdir(dir);
}

/* ---- seeking with the sparse index ------------------------------------------ */

/* A function_graph trace without timestamps, comments or tails: two CPUs
 * each in a call that stays open across the whole file, nested calls
 * below it closed by bare "}" lines, so that naming an exit after a seek
 * needs the calls open there. */
static char *seek_trace(const char *dir, guint rounds)
{
	char *path = g_build_filename(dir, "seek.txt", NULL);
	g_autoptr(GString) t = g_string_new("# tracer: function_graph\n#\n");
	for (int cpu = 0; cpu < 2; cpu++)
		g_string_append_printf(t, " %d)               |  outer_%d() {\n", cpu, cpu);
	for (guint r = 0; r < rounds; r++) {
		int cpu = r % 2;
		g_string_append_printf(t, " %d)               |    mid_%u() {\n", cpu, r % 7);
		g_string_append_printf(t, " %d)   0.%03u us    |      leaf_%u();\n", cpu, r % 1000,
				       r % 5);
		g_string_append_printf(t, " %d)   1.%03u us    |    }\n", cpu, r % 1000);
	}
	for (int cpu = 0; cpu < 2; cpu++)
		g_string_append_printf(t, " %d) ! 999.999 us   |  }\n", cpu);
	CU_ASSERT_TRUE(g_file_set_contents(path, t->str, (gssize)t->len, NULL));
	return path;
}

/* Builds the trace's index with a point every 64 events (a full pass). */
static void seek_index_build(const char *path)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(FtlTrace) trace = ftl_trace_open(path, FTL_OPEN_NONE, &error);
	CU_ASSERT_PTR_NOT_NULL_FATAL(trace);
	CU_ASSERT_EQUAL(ftl_text_index_attach_seekable(trace, FTL_INDEX_USE_BUILD, 64, NULL),
			FTL_INDEX_BUILDING);
	g_autoptr(FtlIter) it = ftl_iter_new(trace, NULL);
	const FtlEvent *ev;
	while (ftl_iter_next(it, &ev, &error) == FTL_STATUS_OK)
		;
	CU_ASSERT_PTR_NULL(error);
}

/* The screens after each key of script, with the index and without: the
 * same, and the indexed one reads a window for G, not the file. */
static void test_seek_index(void)
{
	g_autofree char *dir = g_dir_make_tmp("ftl-tui-seek-XXXXXX", NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(dir);
	guint rounds = 30000; /* 90004 rows; 120004 events with the leaves' exits */
	g_autofree char *path = seek_trace(dir, rounds);
	seek_index_build(path);
	static const char *const steps[] = { "G", "<PgUp><PgUp>k", "g", "G<Enter>", "<Enter>" };
	Tui plain = { 0 }, seek = { 0 };
	seek.indexed = TRUE;
	tui_open_trace(&plain, path, 24, 100);
	tui_open_trace(&seek, path, 24, 100);
	for (guint i = 0; i < G_N_ELEMENTS(steps); i++) {
		guint64 before = ftl_tui_events_n_read(seek.app->events);
		tui_keys(&plain, steps[i]);
		tui_keys(&seek, steps[i]);
		g_autofree char *want = tui_screen(&plain);
		g_autofree char *got = tui_screen(&seek);
		if (strcmp(want, got))
			fprintf(stderr, "\nafter %s, read %s\nwith the index:\n%s", steps[i], want,
				got);
		CU_ASSERT_STRING_EQUAL(got, want);
		guint64 read = ftl_tui_events_n_read(seek.app->events) - before;
		if (i == 0) {
			/* the last rows: a bare "}" named after a call opened at the start */
			CU_ASSERT_PTR_NOT_NULL(strstr(got, "} /* outer_1 */"));
			CU_ASSERT_PTR_NOT_NULL(strstr(got, "} /* mid_"));
			/* a checkpoint's rows and an index interval, not the file */
			CU_ASSERT_TRUE(read < 4 * FTL_TUI_CHECKPOINT);
		}
	}
	/* a jump to an input line (Markers, Quality) starts at the checkpoint
	 * before it: round r's mid_ entry is on line 5 + 3r */
	guint64 line = 5 + 3 * (guint64)(rounds - 50);
	guint64 before = ftl_tui_events_n_read(seek.app->events);
	ftl_tui_app_go(plain.app, ftl_tui_go_line(plain.app, line, -1));
	ftl_tui_app_go(seek.app, ftl_tui_go_line(seek.app, line, -1));
	ftl_tui_app_settle(plain.app);
	ftl_tui_app_settle(seek.app);
	g_autofree char *want_line = tui_screen(&plain);
	g_autofree char *got_line = tui_screen(&seek);
	CU_ASSERT_STRING_EQUAL(got_line, want_line);
	CU_ASSERT_PTR_NOT_NULL(strstr(got_line, "mid_4() {")); /* 29950 % 7 */
	CU_ASSERT_TRUE(ftl_tui_events_n_read(seek.app->events) - before < 4 * FTL_TUI_CHECKPOINT);
	tui_close(&plain);
	tui_close(&seek);
	g_autofree char *cache = ftl_index_cache_path(path);
	g_unlink(cache);
	g_unlink(path);
	g_rmdir(dir);
}

/* ---- a trace.dat entered by time ------------------------------------------ */

#define DAT_COPIES 100
#define DAT_SHIFT  G_GUINT64_CONSTANT(1000000000) /* more than the pages' span */

/* The fixture's raw pages (538 events, 0.24 s, 3 pages per CPU) DAT_COPIES
 * times over, each copy DAT_SHIFT later (a page's events are deltas from
 * its header's timestamp), packed as a trace.dat: 53,800 events in 8
 * blocks of pages per CPU. */
static char *seek_tracedat(const char *dir)
{
	g_autofree char *src = g_build_filename(testdata, "vm", "raw", "raw", NULL);
	g_autofree char *raw = g_build_filename(dir, "raw", NULL);
	static const char *const links[] = { "events", "printk_formats", "saved_cmdlines",
					     "trace_clock", "kallsyms" };
	CU_ASSERT_EQUAL_FATAL(g_mkdir(raw, 0700), 0);
	for (guint i = 0; i < G_N_ELEMENTS(links); i++) {
		g_autofree char *to = g_canonicalize_filename(links[i], src);
		g_autofree char *at = g_build_filename(raw, links[i], NULL);
		CU_ASSERT_EQUAL_FATAL(symlink(to, at), 0);
	}
	for (int cpu = 0; cpu < 2; cpu++) {
		g_autofree char *name = g_strdup_printf("cpu%d", cpu);
		g_autofree char *in =
			g_build_filename(src, "per_cpu", name, "trace_pipe_raw", NULL);
		g_autofree char *out_dir = g_build_filename(raw, "per_cpu", name, NULL);
		g_autofree char *out = g_build_filename(out_dir, "trace_pipe_raw", NULL);
		g_autofree char *pages = NULL;
		gsize len = 0;
		CU_ASSERT_TRUE_FATAL(g_file_get_contents(in, &pages, &len, NULL));
		CU_ASSERT_TRUE_FATAL(len > 0 && len % 4096 == 0);
		g_autoptr(GByteArray) all = g_byte_array_new();
		for (guint k = 0; k < DAT_COPIES; k++)
			for (gsize off = 0; off < len; off += 4096) {
				guint64 ts;
				memcpy(&ts, pages + off, sizeof ts);
				ts = GUINT64_TO_LE(GUINT64_FROM_LE(ts) + k * DAT_SHIFT);
				g_byte_array_append(all, (const guint8 *)&ts, sizeof ts);
				g_byte_array_append(all, (const guint8 *)pages + off + 8, 4096 - 8);
			}
		CU_ASSERT_EQUAL_FATAL(g_mkdir_with_parents(out_dir, 0700), 0);
		CU_ASSERT_TRUE_FATAL(
			g_file_set_contents(out, (const char *)all->data, (gssize)all->len, NULL));
	}
	char *path = g_build_filename(dir, "copies.dat", NULL);
	g_autoptr(GError) error = NULL;
	CU_ASSERT_TRUE_FATAL(ftl_tracedat_write(raw, path, NULL, &error));
	return path;
}

/* Removes what seek_tracedat() made. */
static void seek_tracedat_clean(const char *dir)
{
	static const char *const files[] = {
		"copies.dat",
		"raw/per_cpu/cpu0/trace_pipe_raw",
		"raw/per_cpu/cpu1/trace_pipe_raw",
		"raw/per_cpu/cpu0",
		"raw/per_cpu/cpu1",
		"raw/per_cpu",
		"raw/events",
		"raw/printk_formats",
		"raw/saved_cmdlines",
		"raw/trace_clock",
		"raw/kallsyms",
		"raw",
	};
	for (guint i = 0; i < G_N_ELEMENTS(files); i++) {
		g_autofree char *p = g_build_filename(dir, files[i], NULL);
		g_remove(p);
	}
	g_rmdir(dir);
}

/* The screens after each key, from libtracecmd's reader (which reads from
 * the start) and from ftlens's page reader entered at a checkpoint's time
 * (a binary search of each CPU's blocks): the same, and G reads a window,
 * not the file. */
static void test_seek_tracedat(void)
{
	g_autofree char *dir = g_dir_make_tmp("ftl-tui-dat-XXXXXX", NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(dir);
	g_autofree char *path = seek_tracedat(dir);
	static const char *const steps[] = { "G", "<PgUp><PgUp>k", "g", "G", "<PgUp>" };
	g_autoptr(GPtrArray) want = g_ptr_array_new_with_free_func(g_free);
	Tui plain = { 0 }, seek = { 0 };
	/* one app at a time: the reader is chosen when a thread opens the file */
	g_setenv("FTLENS_TRACEDAT_READER", "libtracecmd", TRUE);
	tui_open_trace(&plain, path, 24, 100);
	CU_ASSERT_EQUAL(plain.app->model->n_list, 538 * DAT_COPIES);
	for (guint i = 0; i < G_N_ELEMENTS(steps); i++) {
		tui_keys(&plain, steps[i]);
		g_ptr_array_add(want, tui_screen(&plain));
	}
	tui_close(&plain);
	g_unsetenv("FTLENS_TRACEDAT_READER");
	tui_open_trace(&seek, path, 24, 100);
	CU_ASSERT_TRUE(seek.app->model->ts_sorted);
	for (guint i = 0; i < G_N_ELEMENTS(steps); i++) {
		guint64 before = ftl_tui_events_n_read(seek.app->events);
		tui_keys(&seek, steps[i]);
		g_autofree char *got = tui_screen(&seek);
		const char *w = g_ptr_array_index(want, i);
		if (strcmp(w, got))
			fprintf(stderr, "\nafter %s, read %s\nentered by time:\n%s", steps[i], w,
				got);
		CU_ASSERT_STRING_EQUAL(got, w);
		guint64 read = ftl_tui_events_n_read(seek.app->events) - before;
		if (i == 0 || i == 3)
			CU_ASSERT_TRUE(read < 4 * FTL_TUI_CHECKPOINT);
	}
	tui_close(&seek);
	seek_tracedat_clean(dir);
}

/* ---- screens of public traces --------------------------------------------------- */

#define REAL_FGRAPH "fgraph/perftools_funcgraph_abstime_oncpu_vfs_read.txt"
#define REAL_OOPS   "oops/kdoc2.6.35_oops_null_deref_with_ftrace_dump_hw_branch.txt"
#define REAL_MARKER "events/catapult_atrace_tgid_trace_marker.txt"

static void test_real_fgraph(void)
{
	Tui t = { 0 };
	g_autofree char *path = real_path(&t, REAL_FGRAPH);
	if (!path && real_skip(REAL_FGRAPH))
		return;
	tui_open_trace(&t, path, 24, 100);
	tui_expect(&t, "real-fgraph-events");
	tui_keys(&t, "2");
	tui_expect(&t, "real-fgraph-graph");
	tui_keys(&t, "El");
	tui_expect(&t, "real-fgraph-graph-longest");
	tui_keys(&t, "3sS");
	tui_expect(&t, "real-fgraph-functions");
	tui_keys(&t, "6");
	tui_expect(&t, "real-fgraph-flame");
	tui_close(&t);
}

static void test_real_oops(void)
{
	Tui t = { 0 };
	g_autofree char *path = real_path(&t, REAL_OOPS);
	if (!path && real_skip(REAL_OOPS))
		return;
	tui_open_console(&t, path, 24, 100);
	tui_keys(&t, "9");
	tui_expect(&t, "real-oops");
	tui_keys(&t, "1");
	tui_expect(&t, "real-oops-events");
	tui_close(&t);
}

static void test_real_markers(void)
{
	Tui t = { 0 };
	g_autofree char *path = real_path(&t, REAL_MARKER);
	if (!path && real_skip(REAL_MARKER))
		return;
	tui_open_trace(&t, path, 24, 100);
	tui_keys(&t, "5");
	tui_expect(&t, "real-markers");
	tui_keys(&t, "4");
	tui_expect(&t, "real-timeline");
	tui_close(&t);
}


/* ---- filters by expression: the Events list is dump --filter's ---------------- */

#define REAL_SCHED "events/lisa_tracecmd_report_sched_448k.txt"

/* The Events list's rows as "ts cpu pid name", one a line. */
static char *tui_events_rows(Tui *t)
{
	FtlTuiEvents *ev = t->app->events;
	GString *out = g_string_new(NULL);
	gboolean exact = FALSE;
	ftl_tui_events_count(ev, &exact);
	for (guint64 i = 0;; i++) {
		const FtlTuiRow *row = ftl_tui_events_row(ev, i);
		if (!row) {
			ftl_tui_events_wait(ev);
			row = ftl_tui_events_row(ev, i);
		}
		if (!row)
			break;
		g_string_append_printf(out, "%" G_GINT64_FORMAT ".%09" G_GINT64_FORMAT " %d %d %s\n",
				       row->ts / 1000000000, row->ts % 1000000000, row->cpu,
				       row->pid, row->name);
	}
	return g_string_free(out, FALSE);
}

/* `ftlens dump --filter expr input`'s events, as tui_events_rows() prints them. */
static char *dump_rows(const char *input, const char *expr)
{
	const char *ftlens = g_getenv("FTLENS");
	CU_ASSERT_PTR_NOT_NULL_FATAL(ftlens);
	const char *argv[] = { ftlens, "dump", "--filter", expr, input, NULL };
	g_autofree char *out = NULL;
	gint status = 0;
	g_autoptr(GError) error = NULL;
	CU_ASSERT_TRUE_FATAL(g_spawn_sync(NULL, (char **)argv, NULL, G_SPAWN_STDERR_TO_DEV_NULL,
					  NULL, NULL, &out, NULL, &status, &error));
	CU_ASSERT_TRUE(g_spawn_check_wait_status(status, NULL));
	GString *rows = g_string_new(NULL);
	g_auto(GStrv) lines = g_strsplit(out, "\n", -1);
	for (guint i = 0; lines[i]; i++) {
		char ts[64];
		int cpu, pid;
		if (sscanf(lines[i], "%63s %d %d", ts, &cpu, &pid) != 3)
			continue;
		/* the event's name ends at the first ": " (comms here have none) */
		const char *colon = strstr(lines[i], ": ");
		if (!colon)
			continue;
		const char *w = colon;
		while (w > lines[i] && w[-1] != ' ')
			w--;
		g_string_append_printf(rows, "%s %d %d %.*s\n", ts, cpu, pid, (int)(colon - w), w);
	}
	return g_string_free(rows, FALSE);
}

static void test_real_filter_expr(void)
{
	Tui t = { 0 };
	g_autofree char *path = real_path(&t, REAL_SCHED);
	if (!path && real_skip(REAL_SCHED))
		return;
	tui_open_trace(&t, path, 24, 120);
	/* the prompt's text, and what dump is given for it */
	static const struct {
		const char *typed, *cli;
		guint min_rows;
	} cases[] = {
		{ "sched_switch: prev_pid == 0", "sched_switch: prev_pid == 0", 100 },
		{ "sched_wakeup: comm ~ \"rt*\" || target_cpu == 2",
		  "sched_wakeup: comm ~ \"rt*\" || target_cpu == 2", 10 },
		{ "sched_switch: !(prev_state == 1) && next_prio < 120",
		  "sched_switch: !(prev_state == 1) && next_prio < 120", 1 },
		{ "sched_switch,sched_wakeup: COMM == \"sshd\"",
		  "sched_switch,sched_wakeup: COMM == \"sshd\"", 3 },
		{ "comm sh*", ".*: COMM ~ \"sh*\"", 100 },
		{ "comm rt-app", ".*: COMM ~ \"rt-app\"", 1 },
	};
	g_autofree char *input = g_build_filename(realdata, REAL_SCHED, NULL);
	for (guint i = 0; i < G_N_ELEMENTS(cases); i++) {
		/* '<' opens a key name in a script: "<<" types it */
		g_auto(GStrv) parts = g_strsplit(cases[i].typed, "<", -1);
		g_autofree char *typed = g_strjoinv("<<", parts);
		g_autofree char *keys = g_strdup_printf("f%s<Enter>", typed);
		tui_keys(&t, keys);
		g_autofree char *screen = tui_screen(&t);
		g_autofree char *tui = tui_events_rows(&t);
		g_autofree char *cli = dump_rows(input, cases[i].cli);
		guint n = 0;
		for (const char *q = tui; *q; q++)
			n += *q == '\n';
		if (strcmp(tui, cli) || n < cases[i].min_rows)
			fprintf(stderr, "\n'%s': %u rows in the TUI; the screen:\n%s\ndump:\n%.2000s\n",
				cases[i].typed, n, screen, cli);
		CU_ASSERT_STRING_EQUAL(tui, cli);
		CU_ASSERT_TRUE(n >= cases[i].min_rows);
		tui_keys(&t, "<Esc>");
	}
	/* a mistake names its column, and pushes nothing */
	tui_keys(&t, "fsched_switch: prev_pid == 0 &&& x<Enter>");
	g_autofree char *bad = tui_screen(&t);
	CU_ASSERT_PTR_NOT_NULL(strstr(bad, "at column 31"));
	CU_ASSERT_EQUAL(ftl_tui_filter_depth(t.app->filter), 0);
	tui_keys(&t, "fsched_switch: prev_pid ==<Enter>");
	tui_expect(&t, "real-filter-expr-error");
	tui_keys(&t, "fsched_switch: prev_pid == 0<Enter>");
	tui_expect(&t, "real-filter-expr");
	tui_close(&t);
}

int main(void)
{
	/* Z writes saved views there, never in the user's own */
	g_autofree char *config = g_dir_make_tmp("ftl-tui-config-XXXXXX", NULL);
	g_setenv("XDG_CONFIG_HOME", config, TRUE);
	testdata = g_getenv("FTL_TESTDATA") ? g_getenv("FTL_TESTDATA") : "tests/data";
	realdata = g_getenv("FTL_REAL_DATA");
	const char *top = g_getenv("top_srcdir") ? g_getenv("top_srcdir") : ".";
	g_autofree char *abs_top = g_canonicalize_filename(top, NULL);
	srcdir = abs_top;
	/* absolute: tests work in the inputs' directories */
	g_autofree char *exp = g_canonicalize_filename("tests/unit/expected/tui", top);
	expected_dir = exp;
	g_autofree char *probe =
		g_build_filename(testdata, "vm", "fgraph-events", "trace.txt", NULL);
	if (!g_file_test(probe, G_FILE_TEST_EXISTS)) {
		fprintf(stderr, "skip: %s missing\n", probe);
		return 77;
	}
	static const UnitTest tests[] = {
		{ "keys: one table, sorted by key, one binding a key", test_keys_sorted_unique },
		{ "keys: key scripts", test_keys_script },
		{ "canvas: hostile text made visible", test_canvas_hostile },
		{ "canvas: cut at the edge, wide characters, bars", test_canvas_cut },
		{ "fixture: every panel of a function_graph trace", test_fixture_fgraph_panels },
		{ "fixture: calls before a CPU's first switch are its task's", test_fixture_graph_tasks },
		{ "fixture: the per-CPU and per-task trees are read on demand",
		  test_fixture_lazy_trees },
		{ "fixture: markers", test_fixture_markers },
		{ "fixture: stack table", test_fixture_stack },
		{ "fixture: panels keep their view state; help", test_fixture_view_state },
		{ "fixture: back to Events from a moved Timeline", test_fixture_timeline_to_events },
		{ "fixture: the tab row is the same from the first screen", test_fixture_tabs_stable },
		{ "fixture: the Timeline at 80x24", test_fixture_timeline },
		{ "a crowded Timeline at 80x24: legend, markers", test_timeline_crowded },
		{ "Timeline waits are sched's: the latest wakeup, waking+wakeup as one",
		  test_timeline_waits_are_sched },
		{ "Timeline task rows: the pid whole, never two rows alike", test_timeline_task_labels },
		{ "fixture: search, marks, CPU filter at 80x24", test_fixture_search_marks_filter },
		{ "hostile comms and markers in every panel", test_hostile_screens },
		{ "seek: G and back with the sparse index, as without it", test_seek_index },
		{ "seek: G and back in a trace.dat entered by time, as read through",
		  test_seek_tracedat },
		{ "real: function_graph panels", test_real_fgraph },
		{ "real: console log with an ftrace dump", test_real_oops },
		{ "real: trace_marker text", test_real_markers },
		{ "real: f takes --filter's expressions; the list is dump --filter's",
		  test_real_filter_expr },
		{ "saved view: Graph folds, filter, sort: the same screens reopened",
		  test_fixture_saved_view_graph },
		{ "saved view: Timeline window, marks, Events cursor: the same screens",
		  test_fixture_saved_view_timeline },
		{ "saved view: O on a bad file says the file and line", test_fixture_open_bad_view },
		{ NULL, NULL },
	};
	int rc = unit_run("tui", tests);
	g_autofree char *rm = g_strdup_printf("rm -rf '%s'", config);
	return system(rm) == 0 ? rc : 1;
}
