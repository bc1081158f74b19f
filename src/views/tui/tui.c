/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The TUI's loop: keys from the terminal into the app, reactions into
 * drawing, background results on a timer; and the terminal given back on
 * every way out, signals, crashes and reading errors included. */
#include "config.h"

#include "views/tui/tui.h"

#include <signal.h>
#include <stdio.h>
#include <unistd.h>

#ifdef __GLIBC__
#include <malloc.h>
#endif

#include "views/tui/app.h"
#include "views/tui/terminal.h"

#define TUI_TICK_MS 100
/* while rows asked for are read: they show within this */
#define TUI_TICK_BUSY_MS 15

static volatile sig_atomic_t tui_signal;

static void tui_on_signal(int sig)
{
	tui_signal = sig;
}

typedef struct {
	int sigs[3];
	struct sigaction old[3];
} TuiSignals;

/* Installed before curses starts, so that curses leaves them to us: the
 * loop sees the flag within a tick and restores the terminal. */
static void tui_signals_set(TuiSignals *s)
{
	struct sigaction sa = { 0 };
	sa.sa_handler = tui_on_signal;
	sigemptyset(&sa.sa_mask);
	s->sigs[0] = SIGTERM;
	s->sigs[1] = SIGINT;
	s->sigs[2] = SIGHUP;
	for (int i = 0; i < 3; i++)
		sigaction(s->sigs[i], &sa, &s->old[i]);
}

static void tui_signals_restore(TuiSignals *s)
{
	for (int i = 0; i < 3; i++)
		sigaction(s->sigs[i], &s->old[i], NULL);
}

/* A fatal signal (a crash, an abort, an assertion) while the screen is
 * up: the terminal is given back first, then the signal goes on to the
 * handler there was (the sanitizers' report, a core dump). What the
 * handler needs is set once before and only read in it. */
static const int tui_fatal_sigs[] = { SIGSEGV, SIGBUS, SIGABRT, SIGFPE, SIGILL };
#define TUI_N_FATAL G_N_ELEMENTS(tui_fatal_sigs)
static FtlTuiTermRestore tui_fatal_restore = { .fd = -1 };
static struct sigaction tui_fatal_old[TUI_N_FATAL];
/* a stack overflow leaves no stack for the handler */
static char tui_fatal_stack[64 * 1024];

static void tui_on_fatal(int sig, siginfo_t *info, void *ctx)
{
	(void)ctx;
	ftl_tui_term_restore(&tui_fatal_restore);
	for (guint i = 0; i < TUI_N_FATAL; i++)
		if (tui_fatal_sigs[i] == sig)
			sigaction(sig, &tui_fatal_old[i], NULL);
	/* a fault happens again when the handler returns, now to the old
	 * handler; a signal sent (abort(), kill) is sent again */
	if (info->si_code <= 0)
		raise(sig);
}

static void tui_fatal_set(FtlTuiCanvas *c)
{
	ftl_tui_canvas_curses_restore_info(c, &tui_fatal_restore);
	stack_t st = { .ss_sp = tui_fatal_stack, .ss_size = sizeof tui_fatal_stack };
	sigaltstack(&st, NULL);
	struct sigaction sa = { 0 };
	sa.sa_sigaction = tui_on_fatal;
	sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_NODEFER;
	sigemptyset(&sa.sa_mask);
	for (guint i = 0; i < TUI_N_FATAL; i++)
		sigaction(tui_fatal_sigs[i], &sa, &tui_fatal_old[i]);
}

static void tui_fatal_clear(void)
{
	for (guint i = 0; i < TUI_N_FATAL; i++)
		sigaction(tui_fatal_sigs[i], &tui_fatal_old[i], NULL);
	tui_fatal_restore.fd = -1;
}

/* Whatever a library prints on stderr while the screen is up (libtracecmd
 * warns there) would tear the screen: it goes to a file and is shown
 * after. */
static int tui_stderr_hold(FILE **held)
{
	fflush(stderr);
	*held = tmpfile();
	int saved = *held ? dup(STDERR_FILENO) : -1;
	if (saved >= 0)
		dup2(fileno(*held), STDERR_FILENO);
	return saved;
}

static void tui_stderr_release(int saved, FILE *held)
{
	if (saved < 0)
		return;
	fflush(stderr);
	dup2(saved, STDERR_FILENO);
	close(saved);
	char buf[4096];
	size_t n;
	rewind(held);
	while ((n = fread(buf, 1, sizeof buf, held)) > 0)
		fwrite(buf, 1, n, stderr);
	fclose(held);
}

static void tui_draw(FtlTuiApp *app, FtlTuiCanvas *c, FtlTuiReaction r)
{
	if (r & FTL_TUI_REACT_CLEAR)
		ftl_tui_canvas_curses_clear(c);
	if (r & (FTL_TUI_REACT_REDRAW | FTL_TUI_REACT_SWITCH | FTL_TUI_REACT_REBUILD |
		 FTL_TUI_REACT_CLEAR))
		ftl_tui_app_draw(app, c);
	else if (r & FTL_TUI_REACT_STATUS)
		ftl_tui_app_draw_status(app, c);
	else
		return;
	ftl_tui_canvas_flush(c);
}

static void tui_loop(FtlTuiApp *app, FtlTuiCanvas *c, FtlTuiInputReader *in)
{
	tui_draw(app, c, FTL_TUI_REACT_REDRAW);
	while (!tui_signal) {
		FtlTuiInput key = ftl_tui_input_read(in, ftl_tui_app_busy(app) ? TUI_TICK_BUSY_MS
									       : TUI_TICK_MS);
		if (tui_signal)
			break;
		if (key.key == FTL_TUI_KEY_RESIZE)
			ftl_tui_canvas_curses_resize(c);
		FtlTuiReaction r = ftl_tui_app_key(app, &key);
		if (key.key != FTL_TUI_KEY_TICK)
			r |= ftl_tui_app_tick(app);
		if (r & FTL_TUI_REACT_QUIT)
			break;
		tui_draw(app, c, r);
	}
}

gboolean ftl_tui_run(const FtlTuiOptions *opt, GError **error)
{
	TuiSignals sigs;
	tui_signal = 0;
	tui_signals_set(&sigs);
	FILE *held = NULL;
	int saved = tui_stderr_hold(&held);
	FtlTuiApp *app = ftl_tui_app_new(opt);
	FtlTuiCanvas *c = ftl_tui_canvas_curses_new(opt->color, opt->utf8, error);
	if (c) {
		FtlTuiInputReader *in = ftl_tui_input_new(opt->mouse);
		tui_fatal_set(c);
		tui_loop(app, c, in);
		ftl_tui_input_free(in);
		tui_fatal_clear();
		ftl_tui_canvas_free(c); /* the terminal is back */
	}
	tui_stderr_release(saved, held);
	GError *failed = ftl_tui_app_take_error(app);
	ftl_tui_app_free(app);
	tui_signals_restore(&sigs);
	if (tui_signal) {
		g_clear_error(&failed);
		raise(tui_signal);
	}
	if (failed) {
		g_propagate_error(error, failed);
		return FALSE;
	}
	return c != NULL;
}

void ftl_tui_memory_init(void)
{
#ifdef __GLIBC__
	/* One malloc arena for every thread: the model's reader, the Events
	 * list's, the parse pool's and the page threads' each kept memory
	 * freed in a heap of its own (4-12 MiB resident per thread, and more
	 * as the readers' chunks moved between threads), which counted
	 * against the 5% of the input the TUI may hold beside the call tree:
	 * on the 1 GiB function_graph text, 54.1 MiB beside the nodes before,
	 * 47.7 with this and the Events list's reopen letting go first. The
	 * threads allocate little per event (chunks are recycled), and the
	 * model is read as fast. */
	mallopt(M_ARENA_MAX, 1);
#endif
}

char *ftl_tui_keys_text(void)
{
	return ftl_tui_keys_table();
}
