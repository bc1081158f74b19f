/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The TUI under random input, as a user who tries everything: a seeded
 * generator picks keys (every key of the table, letters, named keys),
 * mouse clicks and wheel anywhere, resizes (too small included), panel
 * switches, searches, filters and time prompts with good and bad text,
 * marks, bookmarks and jumps, Esc while the input is still read, and
 * starts the app again now and then so that loading is hit often. After
 * each step the whole screen is drawn on the plain-text canvas and read
 * back: a tab row naming the panel shown, no control character, nothing
 * that quits unless q was pressed. A step that takes too long is a hang.
 *
 * FTL_TUI_RANDOM_STEPS (default 1000; bench/tui-random.sh runs 100000)
 * steps per input kind,
 * FTL_TUI_RANDOM_SEED (default 20261206) the seed of the first kind (the
 * next kinds add 1 each), FTL_TUI_RANDOM_INPUT one more input of kind
 * "big" (bench/tui-random.sh: a 1 GiB file while it is read), and
 * FTL_TUI_RANDOM_KINDS a comma-separated list of the kinds to run. The
 * trace.dat runs a quarter of the steps (each start of the app waits on
 * its reading threads) unless FTL_TUI_RANDOM_FULL is set. Each
 * kind prints its seed and steps: the way to replay it;
 * FTL_TUI_RANDOM_TRACE=1 prints every step (what a hang was doing), and
 * FTL_TUI_RANDOM_WATCHDOG the seconds a step may take (default 120). */
#include "config.h"

#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tui-drive.h"

static const char *testdata, *realdata, *srcdir;
static gboolean trace_steps; /* FTL_TUI_RANDOM_TRACE: each step on stderr */
static guint watchdog_s;     /* FTL_TUI_RANDOM_WATCHDOG: a step longer is a hang */
static guint64 steps_per_kind;
static guint32 seed0;

/* ---- what a user may do ------------------------------------------------------- */

static const char *const random_texts[] = {
	"sched",	"mutex",     "(",	      "[a-",	  "^do_sys",   ".*",
	"idle",		"cpu 0",     "cpu 1,3-5",     "pid 1",	  "pid 97",    "func ^_",
	"event sched_switch", "func (", "cpu 99999999999", "pid -1", "bogus", "",
	"12.5",		"^1.5ms",    "+1ms",	      "-20us",	  "^0",	       "+99999s",
	"-99999999999", "x",	     "\xe6\xbc\xa2\xe5\xad\x97", "\x1b[31m", "9.27",
	"sched_switch: prev_pid == 0", ".*: COMM ~ \"k*\" && !(pid > 5)", "comm sh*", "comm \"\\",
	"sched_switch: prev_pid ==", "funcgraph_entry: depth >= 2 || func ~ \"*lock*\"", ": x",
};

/* Z's and O's: names, bad names, files that are no view (O only: Z never
 * gets a '/', so that it writes in the scratch XDG_CONFIG_HOME alone) */
static const char *const view_names[] = { "v1", "v2", "fifo", "", "bad name", ".x", "\x1b[31m",
					  "\xe6\xbc\xa2" };
static const char *const view_files[] = { "/dev/zero", "/etc/passwd", "./nothing.view" };

typedef struct {
	GRand *rand;
	GPtrArray *bindings; /* every key of the table */
	guint64 quits, restarts, resizes, clicks, prompts;
	guint64 drawn[FTL_TUI_N_PANELS]; /* screens drawn with each panel shown */
} Monkey;

static gint monkey_key(Monkey *m)
{
	static const gint named[] = {
		FTL_TUI_KEY_ESC,       FTL_TUI_KEY_ENTER,    FTL_TUI_KEY_TAB,
		FTL_TUI_KEY_BACKTAB,   FTL_TUI_KEY_UP,	     FTL_TUI_KEY_DOWN,
		FTL_TUI_KEY_LEFT,      FTL_TUI_KEY_RIGHT,    FTL_TUI_KEY_PGUP,
		FTL_TUI_KEY_PGDN,      FTL_TUI_KEY_HOME,     FTL_TUI_KEY_END,
		FTL_TUI_KEY_BACKSPACE, FTL_TUI_KEY_DELETE,   FTL_TUI_KEY_F1,
		FTL_TUI_KEY_CTRL_L,    0x15 /* C-u */,	     0x7f,
	};
	guint32 r = (guint32)g_rand_int_range(m->rand, 0, 100);
	if (r < 55) {
		const FtlTuiBinding *b = g_ptr_array_index(
			m->bindings, g_rand_int_range(m->rand, 0, (gint32)m->bindings->len));
		return b->key;
	}
	if (r < 70)
		return named[g_rand_int_range(m->rand, 0, G_N_ELEMENTS(named))];
	if (r < 80)
		return '1' + g_rand_int_range(m->rand, 0, 9);
	if (r < 97)
		return g_rand_int_range(m->rand, 0x20, 0x7f);
	/* anything at all: controls, C1, far code points */
	return g_rand_int_range(m->rand, 0, 0x110000);
}

/* ---- one kind of input ---------------------------------------------------------- */

typedef enum { KIND_TRACE, KIND_CONSOLE, KIND_STACKS } KindOpen;

typedef struct {
	const char *name;
	KindOpen how;
	const char *dir; /* "data" "src" "real" "tmp", or NULL: path as given */
	const char *path;
	gboolean loading; /* never waits for the model: keys while it is read */
	guint slow;	  /* runs steps / slow: each start waits on threads reading it */
} Kind;

/* The kinds of two traces (tui A --compare B): B, in the test data. */
static const char *kind_compare(const Kind *k)
{
	static const struct {
		const char *kind, *b;
	} pairs[] = {
		/* x swaps the two under the keys, X aligns the Timeline */
		{ "compare", "vm/function/record-tgid.txt" },
		{ "compare-fgraph", "vm/fgraph-events/trace.txt" },
	};
	for (guint i = 0; i < G_N_ELEMENTS(pairs); i++)
		if (!strcmp(k->name, pairs[i].kind))
			return pairs[i].b;
	return NULL;
}

static void kind_open(Tui *t, const Kind *k, const char *path, int rows, int cols)
{
	t->unsettled = TRUE;
	if (k->how == KIND_CONSOLE)
		tui_open_console(t, path, rows, cols);
	else if (k->how == KIND_STACKS)
		tui_open_stacks(t, path, rows, cols);
	else {
		/* the rig's traces mark each command with "before X" and "after
		 * X": the Markers panel then has span statistics to draw */
		t->opt.span_start = "before (.*)";
		t->opt.span_end = "after \\1";
		tui_open_trace(t, path, rows, cols);
	}
}

/* The app again from the start, as a user who quits and runs it again. */
static void kind_restart(Tui *t)
{
	int rows = t->canvas->rows, cols = t->canvas->cols;
	ftl_tui_app_free(t->app);
	ftl_tui_canvas_free(t->canvas);
	t->opt.first = NULL;
	tui_start(t, rows, cols);
}

static void on_alarm(int sig)
{
	static const char msg[] = "\nrandom keys: a step took longer than the watchdog: hang\n";
	(void)sig;
	(void)!write(STDERR_FILENO, msg, sizeof msg - 1);
	_exit(1);
}

/* The screen after a step, read back. */
static gboolean screen_ok(Tui *t, const char *name, guint64 step, gint key)
{
	g_autofree char *s = ftl_tui_canvas_text_dump(t->canvas);
	const char *why = NULL;
	for (const guchar *p = (const guchar *)s; *p && !why; p++)
		if ((*p < 0x20 && *p != '\n') || *p == 0x7f)
			why = "a control character on the screen";
	FtlTuiTab tabs[FTL_TUI_N_PANELS];
	if (!why && t->canvas->rows >= 6 && t->canvas->cols >= 30 &&
	    ftl_tui_app_tabs(t->app, t->canvas->cols, tabs) <= t->canvas->cols) {
		/* the tab row names the panel shown, whatever the width */
		g_autofree char *tab =
			g_strdup_printf(" %d %s ", (t->app->current + 1) % 10,
					ftl_tui_app_panel(t->app, t->app->current)->klass->name);
		const char *nl = strchr(s, '\n');
		g_autofree char *first = g_strndup(s, nl ? (gsize)(nl - s) : strlen(s));
		g_strchomp(tab);
		if (!strstr(first, tab))
			why = "the tab row does not name the panel shown";
	}
	if (!why)
		return TRUE;
	char kb[8];
	fprintf(stderr, "\n%s: step %" G_GUINT64_FORMAT " (key %s): %s:\n%s", name, step,
		ftl_tui_key_name(key, kb), why, s);
	return FALSE;
}

static void kind_run(const Kind *k, guint32 seed, guint64 steps)
{
	Tui t = { 0 };
	g_autofree char *path = NULL;
	if (k->dir && !strcmp(k->dir, "real")) {
		g_autofree char *p = realdata ? g_build_filename(realdata, k->path, NULL) : NULL;
		if (!p || !g_file_test(p, G_FILE_TEST_EXISTS)) {
			fprintf(stderr, "\n%s: skip: needs $FTL_REAL_DATA/%s", k->name, k->path);
			return;
		}
		path = g_steal_pointer(&p);
	} else if (k->dir && !strcmp(k->dir, "data")) {
		path = g_build_filename(testdata, k->path, NULL);
	} else if (k->dir && !strcmp(k->dir, "src")) {
		path = g_build_filename(srcdir, k->path, NULL);
	} else {
		path = g_strdup(k->path);
	}
	/* --compare B: B opened as the driver opens A, its options A's */
	Tui other = { 0 };
	FtlTuiOptions b_opt = { 0 };
	if (kind_compare(k)) {
		other.path = g_build_filename(testdata, kind_compare(k), NULL);
		b_opt = (FtlTuiOptions){ .label = other.path,
					 .open = tui_reopen,
					 .open_data = &other,
					 .oops_cpu = -1,
					 .utf8 = TRUE,
					 .origin = FTL_TS_NONE,
					 .compare = &t.opt };
		t.opt.compare = &b_opt;
	}
	g_autoptr(GRand) rand = g_rand_new_with_seed(seed);
	Monkey m = { .rand = rand, .bindings = ftl_tui_keys_sorted() };
	kind_open(&t, k, path, 24, 80);
	gint64 start = g_get_monotonic_time();
	guint64 fails = 0;
	signal(SIGALRM, on_alarm);
	for (guint64 step = 0; step < steps && fails < 3; step++) {
		alarm(watchdog_s);
		guint32 what = (guint32)g_rand_int_range(rand, 0, 1000);
		FtlTuiInput in = { FTL_TUI_KEY_TICK, 0, 0 };
		if (what < 20) {
			/* a resize, now and then to something too small */
			int rows = g_rand_int_range(rand, 0, 4) ? g_rand_int_range(rand, 6, 70)
								: g_rand_int_range(rand, 1, 8);
			int cols = g_rand_int_range(rand, 0, 4) ? g_rand_int_range(rand, 30, 240)
								: g_rand_int_range(rand, 1, 40);
			ftl_tui_canvas_text_resize(t.canvas, rows, cols);
			in.key = FTL_TUI_KEY_RESIZE;
			m.resizes++;
		} else if (what < 80) {
			in.key = g_rand_int_range(rand, 0, 3) ? FTL_TUI_KEY_CLICK
				 : g_rand_boolean(rand)	      ? FTL_TUI_KEY_WHEEL_UP
							      : FTL_TUI_KEY_WHEEL_DOWN;
			in.y = g_rand_int_range(rand, -2, t.canvas->rows + 2);
			in.x = g_rand_int_range(rand, -2, t.canvas->cols + 2);
			m.clicks++;
		} else if (what < 100 && !t.app->prompt) {
			/* a prompt typed whole: / ? f t Z O, text, Enter (or Esc) */
			static const gint opens[] = { '/', '?', 'f', 't', 'Z', 'O' };
			FtlTuiInput o = { opens[g_rand_int_range(rand, 0, G_N_ELEMENTS(opens))], 0,
					  0 };
			ftl_tui_app_key(t.app, &o);
			const char *text = random_texts[g_rand_int_range(
				rand, 0, G_N_ELEMENTS(random_texts))];
			if (o.key == 'Z' || o.key == 'O') {
				FtlTuiInput clear = { 0x15, 0, 0 }; /* C-u: Z offers a name */
				ftl_tui_app_key(t.app, &clear);
				gint i = g_rand_int_range(rand, 0, G_N_ELEMENTS(view_names) +
									(o.key == 'O' ? 3 : 0));
				text = i < (gint)G_N_ELEMENTS(view_names)
					       ? view_names[i]
					       : view_files[i - G_N_ELEMENTS(view_names)];
			}
			for (const char *c = text; *c; c = g_utf8_next_char(c)) {
				FtlTuiInput ch = { (gint)g_utf8_get_char(c), 0, 0 };
				ftl_tui_app_key(t.app, &ch);
			}
			in.key = g_rand_int_range(rand, 0, 5) ? FTL_TUI_KEY_ENTER : FTL_TUI_KEY_ESC;
			m.prompts++;
		} else if (what < 104) {
			kind_restart(&t);
			m.restarts++;
			continue;
		} else if (what < 106 && !k->loading) {
			ftl_tui_app_settle(t.app); /* a user who waits */
		} else if (what < 300) {
			in.key = FTL_TUI_KEY_TICK;
		} else {
			in.key = monkey_key(&m);
		}
		if (trace_steps) {
			char kb[8];
			fprintf(stderr, "%s %" G_GUINT64_FORMAT " %s\n", k->name, step,
				ftl_tui_key_name(in.key, kb));
		}
		const FtlTuiBinding *b = ftl_tui_keys_lookup(in.key, t.app->current);
		gboolean quit_key = !t.app->prompt && !t.app->pending && b &&
				    b->cmd == FTL_TUI_CMD_QUIT;
		FtlTuiReaction r = ftl_tui_app_key(t.app, &in);
		if (in.key != FTL_TUI_KEY_TICK)
			r |= ftl_tui_app_tick(t.app);
		if ((r & FTL_TUI_REACT_QUIT) && !quit_key && !t.app->help) {
			g_autoptr(GError) error = ftl_tui_app_take_error(t.app);
			char kb[8];
			fprintf(stderr, "\n%s: step %" G_GUINT64_FORMAT ": key %s quit: %s", k->name,
				step, ftl_tui_key_name(in.key, kb),
				error ? error->message : "no error said");
			fails++;
		}
		if (r & FTL_TUI_REACT_QUIT)
			m.quits++;
		ftl_tui_app_draw(t.app, t.canvas);
		if (!t.app->help)
			m.drawn[t.app->current]++;
		if (!screen_ok(&t, k->name, step, in.key))
			fails++;
	}
	alarm(0);
	CU_ASSERT_EQUAL(fails, 0);
	/* every panel this input has was drawn (a short run may miss one) */
	g_autoptr(GString) drawn = g_string_new(NULL);
	for (guint i = 0; i < FTL_TUI_N_PANELS; i++) {
		const FtlTuiPanelClass *pk = ftl_tui_app_panel(t.app, i)->klass;
		if (!pk->available(t.app))
			continue;
		g_string_append_printf(drawn, " %s %" G_GUINT64_FORMAT, pk->name, m.drawn[i]);
		if (steps >= 1000 && !m.drawn[i]) {
			fprintf(stderr, "\n%s: the %s panel was never drawn", k->name, pk->name);
			CU_FAIL("a panel never drawn");
		}
	}
	fprintf(stderr,
		"\n%s: seed %" G_GUINT32_FORMAT ", %" G_GUINT64_FORMAT " steps in %.1f s "
		"(%" G_GUINT64_FORMAT " restarts, %" G_GUINT64_FORMAT " resizes, %" G_GUINT64_FORMAT
		" clicks, %" G_GUINT64_FORMAT " prompts, %" G_GUINT64_FORMAT " quits; drawn:%s)",
		k->name, seed, steps, (double)(g_get_monotonic_time() - start) / 1e6, m.restarts,
		m.resizes, m.clicks, m.prompts, m.quits, drawn->str);
	g_ptr_array_unref(m.bindings);
	tui_close(&t);
	g_free(other.path);
}

/* ---- the kinds ------------------------------------------------------------------- */

/* per_cpu/cpuN/trace from the fixture's per-CPU files, in a scratch dir. */
static char *percpu_tree(void)
{
	g_autofree char *dir = g_dir_make_tmp("tui-random-XXXXXX", NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(dir);
	for (int cpu = 0; cpu < 2; cpu++) {
		g_autofree char *from = g_strdup_printf("%s/vm/fgraph-basic/trace-cpu%d.txt",
							testdata, cpu);
		g_autofree char *sub = g_strdup_printf("%s/per_cpu/cpu%d", dir, cpu);
		g_autofree char *to = g_build_filename(sub, "trace", NULL);
		g_autofree char *text = NULL;
		gsize len;
		CU_ASSERT_TRUE_FATAL(g_file_get_contents(from, &text, &len, NULL));
		CU_ASSERT_EQUAL_FATAL(g_mkdir_with_parents(sub, 0755), 0);
		CU_ASSERT_TRUE_FATAL(g_file_set_contents(to, text, (gssize)len, NULL));
	}
	return g_steal_pointer(&dir);
}

static void rm_tree(const char *dir)
{
	g_autofree char *cmd = g_strdup_printf("rm -rf '%s'", dir);
	CU_ASSERT_EQUAL(system(cmd), 0);
}

static gboolean kind_wanted(const char *name)
{
	const char *list = g_getenv("FTL_TUI_RANDOM_KINDS");
	if (!list || !*list)
		return strcmp(name, "big") != 0;
	g_auto(GStrv) names = g_strsplit(list, ",", -1);
	return g_strv_contains((const char *const *)names, name);
}

static void test_random_keys(void)
{
	g_autofree char *tmp = percpu_tree();
	g_autofree char *percpu = g_build_filename(tmp, "per_cpu", NULL);
	const Kind kinds[] = {
		{ "fgraph-tasks", KIND_TRACE, "src", "data/sample-fgraph.txt", FALSE, 1 },
		{ "fgraph-no-tasks", KIND_TRACE, "data", "vm/fgraph-basic/trace.txt", FALSE, 1 },
		{ "fgraph-events", KIND_TRACE, "data", "vm/fgraph-events/trace.txt", FALSE, 1 },
		{ "sched-events", KIND_TRACE, "data", "vm/events/default.txt", FALSE, 1 },
		{ "sched-tracedat", KIND_TRACE, "real", "raw/lisa_rtapp_6cpu_trace.dat", FALSE, 4 },
		{ "idle-tracedat", KIND_TRACE, "real", "raw/trappy_arm64_6cpu_idle_trace.dat", FALSE, 4 },
		{ "per-cpu", KIND_TRACE, NULL, percpu, FALSE, 1 },
		/* with a B (kind_compare) */
		{ "compare", KIND_TRACE, "data", "vm/events/record-tgid.txt", FALSE, 1 },
		{ "compare-fgraph", KIND_TRACE, "data", "vm/fgraph-basic/trace.txt", FALSE, 1 },
		{ "console-dump", KIND_CONSOLE, "data", "vm/oops/console.log", FALSE, 1 },
		{ "stack-tables", KIND_STACKS, "data", "vm/stack/stack_trace", FALSE, 1 },
		{ "big", KIND_TRACE, NULL, g_getenv("FTL_TUI_RANDOM_INPUT"), TRUE, 1 },
	};
	for (guint i = 0; i < G_N_ELEMENTS(kinds); i++) {
		if (!kind_wanted(kinds[i].name))
			continue;
		if (!kinds[i].path) {
			fprintf(stderr, "\n%s: skip: FTL_TUI_RANDOM_INPUT names no file",
				kinds[i].name);
			continue;
		}
		guint slow = g_getenv("FTL_TUI_RANDOM_FULL") ? 1 : MAX(kinds[i].slow, 1);
		kind_run(&kinds[i], seed0 + i, steps_per_kind / slow);
	}
	rm_tree(tmp);
	fprintf(stderr, "\n");
}

int main(void)
{
	testdata = g_getenv("FTL_TESTDATA") ? g_getenv("FTL_TESTDATA") : "tests/data";
	realdata = g_getenv("FTL_REAL_DATA");
	srcdir = g_getenv("top_srcdir") ? g_getenv("top_srcdir") : ".";
	const char *steps = g_getenv("FTL_TUI_RANDOM_STEPS");
	const char *seed = g_getenv("FTL_TUI_RANDOM_SEED");
	steps_per_kind = steps ? g_ascii_strtoull(steps, NULL, 10) : 1000;
	seed0 = seed ? (guint32)g_ascii_strtoull(seed, NULL, 10) : 20261206;
	trace_steps = g_getenv("FTL_TUI_RANDOM_TRACE") != NULL;
	/* under ASan on a loaded machine, opening the 1 GiB input again (a
	 * restart) waited 30 s and more for its first chunk */
	const char *wd = g_getenv("FTL_TUI_RANDOM_WATCHDOG");
	watchdog_s = wd ? (guint)g_ascii_strtoull(wd, NULL, 10) : 120;
	/* absolute: the driver works in the inputs' directories */
	g_autofree char *abs_data = g_canonicalize_filename(testdata, NULL);
	g_autofree char *abs_src = g_canonicalize_filename(srcdir, NULL);
	testdata = abs_data;
	srcdir = abs_src;
	g_autofree char *probe = g_build_filename(testdata, "vm", "fgraph-basic", "trace.txt", NULL);
	if (!g_file_test(probe, G_FILE_TEST_EXISTS)) {
		fprintf(stderr, "skip: %s missing\n", probe);
		return 77;
	}
	static const UnitTest tests[] = {
		{ "random keys, clicks, resizes and prompts on every kind of input",
		  test_random_keys },
		{ NULL, NULL },
	};
	/* Z writes there alone; a FIFO where a view would be: O must not hang */
	g_autofree char *config = g_dir_make_tmp("ftl-random-config-XXXXXX", NULL);
	g_setenv("XDG_CONFIG_HOME", config, TRUE);
	g_autofree char *views = g_build_filename(config, "ftlens", "views", NULL);
	g_autofree char *fifo = g_build_filename(views, "fifo.view", NULL);
	if (g_mkdir_with_parents(views, 0700) != 0 || mkfifo(fifo, 0600) != 0)
		return 99;
	int rc = unit_run("tui-random", tests);
	g_autofree char *rm = g_strdup_printf("rm -rf '%s'", config);
	return system(rm) == 0 ? rc : 1;
}
