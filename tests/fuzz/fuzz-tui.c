/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Fuzz target: the TUI's key handling over its plain-text canvas, as
 * tests/unit/test-tui-random.c drives it, with the fuzzer choosing the
 * steps. The app is opened on a small timestamped function_graph trace
 * (nested calls on two CPUs, markers), made once per process; the input
 * is a list of steps, each an opcode byte and its operands: a resize
 * (rows, cols; too small included), a click or wheel (y, x, anywhere), a
 * key of the key table, a named key, a printable character, a tick, or
 * any code point at all. After each step the screen is drawn and read
 * back: no control character, and a tab row that names the panel shown
 * (test-tui-random.c's screen check); only the quit key quits, and it
 * ends the input. */
#include "config.h"

#include "fuzz.h"

#include <string.h>

#include "parse/open.h"
#include "util/escape.h"
#include "views/tui/app.h"
#include "views/tui/canvas.h"
#include "views/tui/input.h"

#define TUI_MAX_STEPS 400

static char *tui_trace;
static GPtrArray *tui_bindings;

static void tui_make_trace(void)
{
	GString *s = g_string_new("# tracer: function_graph\n#\n"
				  "#     TIME        CPU  TASK/PID         DURATION"
				  "                  FUNCTION CALLS\n");
	static const char *const fn[] = { "do_sys_open", "vfs_read", "schedule", "__x64_sys_write",
					  "mutex_lock" };
	gint64 us = 3781262000;
	for (guint i = 0; i < 60; i++) {
		guint cpu = i % 2;
		const char *task = cpu ? " bash-97 " : "   sh-96 ";
		const char *f = fn[i % G_N_ELEMENTS(fn)];
#define TUI_LINE(dur, fmt, ...)                                                                  \
	g_string_append_printf(s, " %" G_GINT64_FORMAT ".%06" G_GINT64_FORMAT " |   %u) %s |%s|  " fmt "\n", \
			       us / 1000000, us % 1000000, cpu, task, dur, __VA_ARGS__)
		TUI_LINE("               ", "%s() {", f);
		us += 3;
		TUI_LINE("   0.500 us    ", "  %s_inner();", f);
		us += 2;
		if (i % 7 == 3)
			TUI_LINE("               ", "  /* tracing_mark_write: step %u */", i);
		us += 1;
		TUI_LINE("   6.000 us    ", "}%s", "");
		us += 4;
#undef TUI_LINE
	}
	g_autofree char *tmpl = g_build_filename(
		g_file_test("/dev/shm", G_FILE_TEST_IS_DIR) ? "/dev/shm" : g_get_tmp_dir(),
		"ftlens-fuzz-tui-XXXXXX", NULL);
	char *dir = g_mkdtemp(g_steal_pointer(&tmpl));
	if (!dir)
		abort();
	tui_trace = g_build_filename(dir, "fg.txt", NULL);
	g_free(dir);
	if (!g_file_set_contents(tui_trace, s->str, (gssize)s->len, NULL))
		abort();
	g_string_free(s, TRUE);
}

static FtlTrace *tui_open(gpointer data, FtlOpenFlags flags, GError **error)
{
	(void)data;
	return ftl_trace_open(tui_trace, flags, error);
}

/* The screen read back: what test-tui-random.c's screen_ok() checks. */
static void tui_check(FtlTuiApp *app, FtlTuiCanvas *c)
{
	g_autofree char *s = ftl_tui_canvas_text_dump(c);
	/* printable ASCII skipped first: most of the screen */
	for (const char *p = s; *(p += ftl_escape_plain_len(p)); p++)
		if (((guchar)*p < 0x20 && *p != '\n') || *p == 0x7f) {
			fprintf(stderr, "fuzz-tui: a control character on the screen:\n%s\n", s);
			abort();
		}
	FtlTuiTab tabs[FTL_TUI_N_PANELS];
	if (app->help || c->rows < 6 || c->cols < 30 ||
	    ftl_tui_app_tabs(app, c->cols, tabs) > c->cols)
		return;
	g_autofree char *tab = g_strdup_printf(
		" %d %s", (app->current + 1) % 10, ftl_tui_app_panel(app, app->current)->klass->name);
	const char *nl = strchr(s, '\n');
	g_autofree char *first = g_strndup(s, nl ? (gsize)(nl - s) : strlen(s));
	if (!strstr(first, tab)) {
		fprintf(stderr, "fuzz-tui: the tab row does not name the panel shown:\n%s\n", s);
		abort();
	}
}

static const gint tui_named[] = {
	FTL_TUI_KEY_ESC,       FTL_TUI_KEY_ENTER,  FTL_TUI_KEY_TAB,	  FTL_TUI_KEY_BACKTAB,
	FTL_TUI_KEY_UP,	       FTL_TUI_KEY_DOWN,   FTL_TUI_KEY_LEFT,	  FTL_TUI_KEY_RIGHT,
	FTL_TUI_KEY_PGUP,      FTL_TUI_KEY_PGDN,   FTL_TUI_KEY_HOME,	  FTL_TUI_KEY_END,
	FTL_TUI_KEY_BACKSPACE, FTL_TUI_KEY_DELETE, FTL_TUI_KEY_F1,	  FTL_TUI_KEY_CTRL_L,
	0x15 /* C-u */,	       0x7f,		   FTL_TUI_KEY_WHEEL_UP, FTL_TUI_KEY_WHEEL_DOWN,
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_init();
	if (!tui_trace) {
		tui_make_trace();
		tui_bindings = ftl_tui_keys_sorted();
		/* Z saves views: in a scratch directory, never the user's */
		char *config = g_dir_make_tmp("fuzz-tui-config-XXXXXX", NULL);
		if (!config)
			abort();
		g_setenv("XDG_CONFIG_HOME", config, TRUE);
		g_free(config);
	}
	FtlTuiOptions opt = { .label = "fg.txt", .open = tui_open, .oops_cpu = -1, .utf8 = TRUE };
	FtlTuiApp *app = ftl_tui_app_new(&opt);
	FtlTuiCanvas *c = ftl_tui_canvas_text_new(24, 80, TRUE);
	/* half the inputs wait for the model first, half type while it is read */
	if (size && (data[0] & 1))
		ftl_tui_app_settle(app);
	size_t at = size ? 1 : 0;
	for (guint step = 0; step < TUI_MAX_STEPS && at < size; step++) {
		guint8 op = data[at++];
#define NEXT() (at < size ? data[at++] : 0)
		FtlTuiInput in = { FTL_TUI_KEY_TICK, 0, 0 };
		if (op < 0x10) {
			int rows = 1 + NEXT() % 70, cols = 1 + NEXT() % 240;
			ftl_tui_canvas_text_resize(c, rows, cols);
			in.key = FTL_TUI_KEY_RESIZE;
		} else if (op < 0x30) {
			in.key = op < 0x28 ? FTL_TUI_KEY_CLICK : FTL_TUI_KEY_WHEEL_DOWN;
			in.y = (int)(NEXT() % (guint)(c->rows + 4)) - 2;
			in.x = (int)(NEXT() % (guint)(c->cols + 4)) - 2;
		} else if (op < 0xa0) {
			const FtlTuiBinding *b =
				g_ptr_array_index(tui_bindings, NEXT() % tui_bindings->len);
			in.key = b->key;
		} else if (op < 0xc0) {
			in.key = tui_named[NEXT() % G_N_ELEMENTS(tui_named)];
		} else if (op < 0xf0) {
			in.key = 0x20 + NEXT() % 0x5f;
		} else if (op < 0xf8) {
			in.key = FTL_TUI_KEY_TICK;
		} else if (op < 0xfc) {
			ftl_tui_app_settle(app); /* a user who waits */
		} else {
			guint32 hi = NEXT(), mid = NEXT(), lo = NEXT();
			in.key = (gint)((hi << 16 | mid << 8 | lo) % 0x110000);
		}
#undef NEXT
		const FtlTuiBinding *b = ftl_tui_keys_lookup(in.key, app->current);
		gboolean quit_key = !app->prompt && !app->pending && b && b->cmd == FTL_TUI_CMD_QUIT;
		FtlTuiReaction r = ftl_tui_app_key(app, &in);
		if (in.key != FTL_TUI_KEY_TICK)
			r |= ftl_tui_app_tick(app);
		if ((r & FTL_TUI_REACT_QUIT) && !quit_key && !app->help) {
			g_autoptr(GError) error = ftl_tui_app_take_error(app);
			char kb[8];
			fprintf(stderr, "fuzz-tui: key %s quit: %s\n", ftl_tui_key_name(in.key, kb),
				error ? error->message : "no error said");
			abort();
		}
		if (r & FTL_TUI_REACT_QUIT)
			break;
		ftl_tui_app_draw(app, c);
		tui_check(app, c);
	}
	g_autoptr(GError) error = ftl_tui_app_take_error(app);
	ftl_tui_app_free(app);
	ftl_tui_canvas_free(c);
	return 0;
}
