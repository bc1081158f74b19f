/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The TUI without a terminal: its state (the model, the panels' view
 * states, marks, filters, the prompt), what a key does to it, and drawing
 * it onto a canvas. The curses loop (tui.c) and the tests drive the same
 * code: keys in, reactions out, screens drawn from state alone. */
#pragma once

#include <glib.h>

#include "views/tui/canvas.h"
#include "views/tui/evsource.h"
#include "views/tui/filter.h"
#include "views/tui/input.h"
#include "views/tui/model.h"
#include "views/tui/view.h"

typedef enum {
	FTL_TUI_PANEL_EVENTS,
	FTL_TUI_PANEL_GRAPH,
	FTL_TUI_PANEL_FUNCS,
	FTL_TUI_PANEL_TIMELINE,
	FTL_TUI_PANEL_MARKERS,
	FTL_TUI_PANEL_FLAME,
	FTL_TUI_PANEL_QUALITY,
	FTL_TUI_PANEL_STACK,
	FTL_TUI_PANEL_OOPS,
	FTL_TUI_PANEL_SCHED,
	FTL_TUI_N_PANELS
} FtlTuiPanelId;

#define FTL_TUI_IN(panel) (1u << FTL_TUI_PANEL_##panel)
#define FTL_TUI_ALL	  ((1u << FTL_TUI_N_PANELS) - 1)

/* What an action asks of the loop, as htop's reactions. */
typedef enum {
	FTL_TUI_REACT_NONE = 0,
	FTL_TUI_REACT_STATUS = 1u << 0,	 /* redraw the status lines */
	FTL_TUI_REACT_REDRAW = 1u << 1,	 /* redraw the screen */
	FTL_TUI_REACT_REBUILD = 1u << 2, /* the filters changed: build the model again */
	FTL_TUI_REACT_SWITCH = 1u << 3,	 /* another panel is shown */
	FTL_TUI_REACT_QUIT = 1u << 4,
	FTL_TUI_REACT_CLEAR = 1u << 5, /* repaint the terminal from scratch (Ctrl-L) */
	FTL_TUI_REACT_GO = 1u << 6,    /* go where app->go says (below) */
} FtlTuiReaction;

/* What keys are bound to (keys.c maps keys to them, one table). The global
 * ones are done by the app, the others by the panel shown. */
typedef enum {
	FTL_TUI_CMD_QUIT,
	FTL_TUI_CMD_HELP,
	FTL_TUI_CMD_NEXT_PANEL,
	FTL_TUI_CMD_PREV_PANEL,
	FTL_TUI_CMD_PANEL_1, /* ... the panel of that number */
	FTL_TUI_CMD_PANEL_9 = FTL_TUI_CMD_PANEL_1 + 8,
	FTL_TUI_CMD_UP,
	FTL_TUI_CMD_DOWN,
	FTL_TUI_CMD_PAGE_UP,
	FTL_TUI_CMD_PAGE_DOWN,
	FTL_TUI_CMD_TOP,
	FTL_TUI_CMD_BOTTOM,
	FTL_TUI_CMD_LEFT,
	FTL_TUI_CMD_RIGHT,
	FTL_TUI_CMD_WHEEL_UP,
	FTL_TUI_CMD_WHEEL_DOWN,
	FTL_TUI_CMD_CLICK,
	FTL_TUI_CMD_SEARCH,
	FTL_TUI_CMD_SEARCH_BACK,
	FTL_TUI_CMD_NEXT_MATCH,
	FTL_TUI_CMD_PREV_MATCH,
	FTL_TUI_CMD_FILTER,
	FTL_TUI_CMD_BACK, /* Esc: leave what the panel zoomed into, else pop a filter */
	FTL_TUI_CMD_GOTO_TIME,
	FTL_TUI_CMD_MARK_A,
	FTL_TUI_CMD_MARK_B,
	FTL_TUI_CMD_BOOKMARK,
	FTL_TUI_CMD_JUMP_BOOKMARK,
	FTL_TUI_CMD_REDRAW,
	FTL_TUI_CMD_RESIZE,
	FTL_TUI_CMD_ACTIVATE, /* Enter: the panel's own */
	FTL_TUI_CMD_TIME_MODE,
	FTL_TUI_CMD_EXPAND,
	FTL_TUI_CMD_COLLAPSE,
	FTL_TUI_CMD_EXPAND_SUBTREE,
	FTL_TUI_CMD_EXPAND_ALL,
	FTL_TUI_CMD_COLLAPSE_SUBTREE,
	FTL_TUI_CMD_COLLAPSE_ALL,
	FTL_TUI_CMD_LONGEST,
	FTL_TUI_CMD_GROUP, /* p: all / per CPU / per task */
	FTL_TUI_CMD_LIST_CALLS,
	FTL_TUI_CMD_FLAME_OF,
	FTL_TUI_CMD_SORT,
	FTL_TUI_CMD_SORT_REVERSE,
	FTL_TUI_CMD_ZOOM_IN,
	FTL_TUI_CMD_ZOOM_OUT,
	FTL_TUI_CMD_PAN_LEFT,
	FTL_TUI_CMD_PAN_RIGHT,
	FTL_TUI_CMD_MARKER_LIST,
	FTL_TUI_CMD_PANEL_10, /* the panel past 9 (key 0) */
	FTL_TUI_CMD_SCOPE,    /* the next scope: whole trace, spans, marks A..B */
	FTL_TUI_CMD_HISTOGRAM,
	FTL_TUI_CMD_WAKEUPS, /* W: the selected task's wakeup links */
	FTL_TUI_CMD_SAVE_VIEW, /* Z: save the view (view.h) */
	FTL_TUI_CMD_OPEN_VIEW, /* O: open a saved one */
	FTL_TUI_CMD_COMPARE_SWAP,  /* x: --compare's A and B swapped */
	FTL_TUI_CMD_COMPARE_ALIGN, /* X: B's timeline at A's marker, or at its start */
	FTL_TUI_N_CMDS
} FtlTuiCmd;

typedef struct _FtlTuiApp FtlTuiApp;
typedef struct _FtlTuiPanel FtlTuiPanel;

typedef struct {
	FtlTuiPanelId id;
	const char *name;
	FtlTuiPanel *(*new)(void);
	void (*free)(FtlTuiPanel *p);
	/* Whether the inputs can have something for it, known from the first
	 * screen on: the tab row shows these panels and never changes. */
	gboolean (*available)(FtlTuiApp *app);
	/* Why it has nothing after all, once the model is read ("no function
	 * calls in this input"); NULL when it has something or the model is
	 * still read. May be NULL: never empty. The app draws the reason. */
	const char *(*empty)(FtlTuiApp *app);
	/* It has nothing to draw until the model is read: the app says the
	 * input is being read instead. */
	gboolean needs_model;
	/* Draws rows [y, y + h) from the app and its own view state only. */
	void (*draw)(FtlTuiPanel *p, FtlTuiApp *app, FtlTuiCanvas *c, int y, int h);
	/* A command the app does not do itself; NONE when it has no meaning here. */
	FtlTuiReaction (*command)(FtlTuiPanel *p, FtlTuiApp *app, FtlTuiCmd cmd,
				  const FtlTuiInput *in);
	/* A search for re (dir +1 / -1) from the cursor; may be NULL. */
	FtlTuiReaction (*search)(FtlTuiPanel *p, FtlTuiApp *app, GRegex *re, int dir);
	/* The time at the cursor, FTL_TS_NONE when it has none; may be NULL. */
	gint64 (*cursor_time)(FtlTuiPanel *p, FtlTuiApp *app);
	/* Go to the first thing at or after ts; may be NULL. */
	FtlTuiReaction (*goto_time)(FtlTuiPanel *p, FtlTuiApp *app, gint64 ts);
	/* A new model (after a filter change): view state that names things
	 * in the old one is mapped or reset. May be NULL. */
	void (*model_changed)(FtlTuiPanel *p, FtlTuiApp *app, const FtlTuiModel *old);
	/* Called on every tick: background results it waits for; may be NULL. */
	FtlTuiReaction (*tick)(FtlTuiPanel *p, FtlTuiApp *app);
	/* Saved views (view.h): writes its state into v, in its own group;
	 * reads it back once the model under the view's filters is read
	 * (same: the view was saved for this trace, so rows still name the
	 * same events; else only times and names are used). What names a
	 * part of a tree the panel may wait for is kept until it is read.
	 * Both may be NULL: nothing of it is saved. */
	void (*save)(FtlTuiPanel *p, FtlTuiApp *app, FtlTuiView *v);
	void (*restore)(FtlTuiPanel *p, FtlTuiApp *app, const FtlTuiView *v, gboolean same);
} FtlTuiPanelClass;

struct _FtlTuiPanel {
	const FtlTuiPanelClass *klass;
	int page; /* rows of content drawn last, for paging */
};

extern const FtlTuiPanelClass ftl_tui_events_panel, ftl_tui_graph_panel, ftl_tui_funcs_panel,
	ftl_tui_timeline_panel, ftl_tui_markers_panel, ftl_tui_flame_panel, ftl_tui_quality_panel,
	ftl_tui_stack_panel, ftl_tui_oops_panel, ftl_tui_sched_panel;

typedef enum {
	FTL_TUI_TIME_ABS,  /* as in the trace */
	FTL_TUI_TIME_PREV, /* since the row before */
	FTL_TUI_TIME_MARK, /* since mark A */
	FTL_TUI_N_TIME_MODES
} FtlTuiTimeMode;

typedef enum {
	FTL_TUI_PROMPT_NONE,
	FTL_TUI_PROMPT_SEARCH,
	FTL_TUI_PROMPT_SEARCH_BACK,
	FTL_TUI_PROMPT_FILTER,
	FTL_TUI_PROMPT_TIME,
	FTL_TUI_PROMPT_SAVE_VIEW,
	FTL_TUI_PROMPT_OPEN_VIEW,
} FtlTuiPromptKind;

typedef struct {
	gint64 ts;
	gint64 row; /* Events row, -1 when set elsewhere */
} FtlTuiBookmark;

/* Where a panel sends the user (another panel, a place in the Events
 * list, the calls of a function): the panel fills app->go with one of the
 * ftl_tui_go_*() below and returns their FTL_TUI_REACT_GO; the app goes
 * there once the panel returned. So no panel calls back into the app,
 * and showing a panel never re-enters the panel that asked for it. */
typedef struct {
	FtlTuiFilterItem *filter; /* pushed first (owned), or NULL */
	gboolean find;		  /* then the Events list goes to `at` */
	FtlTuiFind at;
	FtlTuiPanelId show; /* and this panel is shown; FTL_TUI_N_PANELS: none */
} FtlTuiGo;

struct _FtlTuiApp {
	const FtlTuiOptions *opt;
	FtlTuiIo io;
	FtlTuiModel *model;   /* shown; NULL until the first is built */
	FtlTuiLoader *loader; /* building one, or NULL */
	gint64 loader_due;    /* the first one starts after the first screen: since when
			       * (g_get_monotonic_time()), 0 when started */
	FtlTuiLoader *tree_loader; /* building a tree a panel asked for, or NULL */
	FtlCallTreeGroup tree_group; /* its group */
	FtlTuiFilter *filter; /* the stack as set */
	FtlTuiEvents *events; /* the Events list under `filter`; NULL without events */
	FtlTrace *first;      /* the opened trace, until the Events list takes it */
	FtlTuiPanel *panels[FTL_TUI_N_PANELS];
	FtlTuiPanelId current;
	gboolean help;
	int help_top;
	gint64 mark[2]; /* A, B; FTL_TS_NONE unset */
	FtlTuiBookmark bookmarks[26];
	gint pending; /* 'm' or '\'' waiting for its letter, else 0 */
	FtlTuiPromptKind prompt;
	GString *prompt_text;
	GRegex *search;
	int search_dir;
	FtlTuiTimeMode time_mode;
	char *message;
	gboolean message_error;
	GError *error; /* a background failure: the loop ends with it */
	gboolean selection_checked; /* opt->selected was called */
	int rows, cols;
	gint64 follow_ts; /* the Timeline's cursor, for the Events list; FTL_TS_NONE */
	FtlTuiGo go;	  /* asked by the panel that returned FTL_TUI_REACT_GO */
	/* an analysis a panel asked for beside the model (the scheduling of
	 * windows, a function's durations): being read, and read, each for
	 * its key (ftl_tui_app_want_sched, _want_durations) */
	FtlTuiLoader *side_loader;
	FtlTuiModel *side_model;
	guint64 side_loading, side_read;
	gboolean started; /* opt->start was acted on (with the first model) */
	/* a saved view to apply once the model under its filters is read
	 * (opt->view, or view_owned, opened by O), or NULL */
	const FtlTuiView *view;
	FtlTuiView *view_owned;
};

/* Starts reading (model thread, Events reader) and sets the first panel.
 * opt (and everything it points to) must outlive the app. Free with
 * ftl_tui_app_free(). */
FtlTuiApp *ftl_tui_app_new(const FtlTuiOptions *opt);
void ftl_tui_app_free(FtlTuiApp *app);
/* One key. */
FtlTuiReaction ftl_tui_app_key(FtlTuiApp *app, const FtlTuiInput *in);
/* Background results: a model built, rows read, a find ended. */
FtlTuiReaction ftl_tui_app_tick(FtlTuiApp *app);
/* Does what a reaction with FTL_TUI_REACT_GO asks (ftl_tui_go_*()) and
 * returns the reaction that leaves; other reactions pass unchanged. The
 * keys' and ticks' reactions come out of the two above already done. */
FtlTuiReaction ftl_tui_app_go(FtlTuiApp *app, FtlTuiReaction r);
/* Draws the whole screen (rows and cols from the canvas). */
void ftl_tui_app_draw(FtlTuiApp *app, FtlTuiCanvas *c);
/* Draws the status and message lines only (the "redraw line" reaction). */
void ftl_tui_app_draw_status(FtlTuiApp *app, FtlTuiCanvas *c);
/* TRUE while a background reader has rows or a find under way: the loop
 * then looks for its results more often. */
gboolean ftl_tui_app_busy(FtlTuiApp *app);
/* Waits until the model is built and the readers are idle, then ticks
 * (tests: screens that do not depend on timing). */
void ftl_tui_app_settle(FtlTuiApp *app);
/* The error that ended it, if any (taken). */
GError *ftl_tui_app_take_error(FtlTuiApp *app);

/* For panels. */
FtlTuiPanel *ftl_tui_app_panel(FtlTuiApp *app, FtlTuiPanelId id);
/* Replaces the filter stack (taken) and reads the model again. */
void ftl_tui_app_set_filter(FtlTuiApp *app, FtlTuiFilter *f);

/* Saved views (app-view.c). The view of the app as it is (free with
 * ftl_tui_view_free()). */
FtlTuiView *ftl_tui_app_view_take(FtlTuiApp *app);
/* Z's and O's prompts: saves the view as name (a name only: Z writes in
 * the views directory alone), opens the one saved as name (or a file,
 * with a '/'); the outcome on the status line. */
FtlTuiReaction ftl_tui_app_view_save(FtlTuiApp *app, const char *name);
FtlTuiReaction ftl_tui_app_view_open(FtlTuiApp *app, const char *name);
/* Sets the filter stack of app->view (before the first model: no
 * rebuild). */
void ftl_tui_app_view_filters(FtlTuiApp *app, gboolean rebuild);
/* Applies app->view once the model under its filters is read. */
FtlTuiReaction ftl_tui_app_view_apply(FtlTuiApp *app);
/* O's prompt: "open view (NAME, ...): " (g_free()). */
char *ftl_tui_app_view_prompt(void);
/* A message on the bottom line until the next key. */
void ftl_tui_app_say(FtlTuiApp *app, gboolean error, const char *fmt, ...) G_GNUC_PRINTF(3, 4);
/* What a panel returns to be taken elsewhere (FtlTuiGo): panel id; the
 * Events list at the first event at or after ts, at one event, or of input line `line`
 * (on cpu, -1 any); the Events list of the calls to `item` (a filter,
 * taken). */
FtlTuiReaction ftl_tui_go_panel(FtlTuiApp *app, FtlTuiPanelId id);
FtlTuiReaction ftl_tui_go_time(FtlTuiApp *app, gint64 ts);
/* The Events list at event `name` of time ts on cpu (name copied); at the
 * first event at or after ts when the list does not have it. */
FtlTuiReaction ftl_tui_go_event(FtlTuiApp *app, gint64 ts, gint32 cpu, const char *name);
FtlTuiReaction ftl_tui_go_line(FtlTuiApp *app, guint64 line, gint32 cpu);
FtlTuiReaction ftl_tui_go_filter(FtlTuiApp *app, FtlTuiFilterItem *item);
/* Drops a request not acted on (the app, when it is done or freed). */
void ftl_tui_go_clear(FtlTuiApp *app);
/* The root of the call tree panels show, grouped by `group`; NULL before
 * the model. */
const FtlCallNode *ftl_tui_app_tree_root(FtlTuiApp *app, FtlCallTreeGroup group);
/* Asks for the tree of group when the model lacks it (the per-CPU and
 * per-task ones are read on demand): ftl_tui_app_tree_root gives NULL
 * until it is read. Panels call it from their tick. */
void ftl_tui_app_want_tree(FtlTuiApp *app, FtlCallTreeGroup group);
/* Asks for an analysis beside the model, of the shown model's events:
 * the scheduling with windows (FtlTuiSpan, taken) as scopes 1..n, or the
 * durations of func's calls. key names what is asked (a nonzero hash:
 * one asked again with its key is not read again). ftl_tui_app_side gives
 * it once read, while the model stays: panels call them from their tick.
 * One at a time: asking for another drops the one before. */
void ftl_tui_app_want_sched(FtlTuiApp *app, GArray *windows, guint64 key);
/* A key for those: hash (of the windows, a function's name, a pid) with
 * its kind in the top two bits, so that keys of two kinds never meet
 * (and never 0). */
typedef enum {
	FTL_TUI_SIDE_SCHED = 1,
	FTL_TUI_SIDE_DURATIONS = 2,
	FTL_TUI_SIDE_WAKEUPS = 3,
} FtlTuiSideKind;
guint64 ftl_tui_side_key(FtlTuiSideKind kind, guint64 hash);
void ftl_tui_app_want_durations(FtlTuiApp *app, const char *func, guint64 key);
/* Or the wakeups of task pid (the side model's wakeups). */
void ftl_tui_app_want_wakeups(FtlTuiApp *app, gint32 pid, guint64 key);
/* The side model read for key (its sched or durations), or NULL while it
 * is read (or never asked). */
const FtlTuiModel *ftl_tui_app_side(FtlTuiApp *app, guint64 key);
/* For the panels that show what an event input has (available). */
gboolean ftl_tui_app_has_events(FtlTuiApp *app);
/* For the tree panels (Graph, Functions, Flame): why they are empty. */
const char *ftl_tui_app_no_calls(FtlTuiApp *app);
/* Whether panel id is in the tab row and has something (or may, while the
 * model is read): what Tab and Shift-Tab visit. */
gboolean ftl_tui_app_panel_has(FtlTuiApp *app, FtlTuiPanelId id);
/* Formats ts for the time columns: absolute, or since mark A with T. */
char *ftl_tui_app_time(FtlTuiApp *app, gint64 ts, char *buf, gsize size);
/* Formats ts as the trace's time: from --relative-to's origin when given. */
char *ftl_tui_app_abs_time(const FtlTuiApp *app, gint64 ts, char *buf, gsize size);

/* keys.c: the one key table. */
typedef struct {
	gint key;
	guint panels; /* FTL_TUI_IN() mask */
	FtlTuiCmd cmd;
	const char *help;
} FtlTuiBinding;

/* The binding of key in panel, or NULL. */
const FtlTuiBinding *ftl_tui_keys_lookup(gint key, FtlTuiPanelId panel);
/* Every binding, sorted by key name (the help screen and the man page). */
GPtrArray *ftl_tui_keys_sorted(void);
/* "Events, Graph" or "all panels": where a binding applies. g_free(). */
char *ftl_tui_keys_panels(guint panels);
/* The key table as text, one binding a line (ftlens tui --keys). */
char *ftl_tui_keys_table(void);

/* Formatting shared by panels (draw.c). */
/* "12.345 us"-style durations into buf; "-" for FTL_TS_NONE. */
const char *ftl_tui_duration(gint64 ns, char *buf, gsize size);
/* A stable style for a name (tasks, frames). */
FtlTuiStyle ftl_tui_name_style(const char *name, gint32 id);
/* Scrolls *top so that cursor shows in h rows. */
void ftl_tui_scroll(gint64 *top, gint64 cursor, int h);
/* Moves *cursor by cmd (up, down, pages, top, bottom, wheel) within
 * [0, n); page is the rows shown. TRUE when it understood cmd. */
gboolean ftl_tui_move(gint64 *cursor, gint64 n, int page, FtlTuiCmd cmd);
/* A click (in) on a list of n rows drawn from the screen's row 2, page of
 * them from row top: *cursor on the row clicked; a click elsewhere (the
 * header, a footer below the page) leaves it. */
void ftl_tui_click(gint64 *cursor, gint64 top, gint64 n, int page, const FtlTuiInput *in);

/* The Events panel, for jumps from elsewhere (panel-events.c). */
void ftl_tui_events_panel_find(FtlTuiPanel *p, FtlTuiApp *app, const FtlTuiFind *find);
void ftl_tui_events_panel_goto_row(FtlTuiPanel *p, gint64 row);
gint64 ftl_tui_events_panel_row(FtlTuiPanel *p);

/* A histogram (histo-draw.c) in rows [y, y + h). Texts are safe (made
 * visible); hist is NULL while it is read. */
typedef struct {
	const char *title;  /* "Durations of f" */
	const char *noun;   /* what it counts: "timed calls", "wakeups" */
	const char *column; /* the count's column header: "CALLS" */
	const char *note;   /* after the count, or NULL: " (3 untimed)" */
	const FtlHisto *hist;
} FtlTuiHisto;
void ftl_tui_histo_draw(FtlTuiCanvas *c, int y, int h, const FtlTuiHisto *what);
/* The durations of func's calls (every call of the function, as `plot
 * durations -f func` selects them), read beside the model: tick asks for
 * them and says to redraw once they changed (*drawn: the FtlTuiModel.gen
 * of the side model last drawn, 0 none); draw draws them, or says they
 * are being read. */
guint64 ftl_tui_durations_key(const char *func);
FtlTuiReaction ftl_tui_durations_tick(FtlTuiApp *app, const char *func, guint64 *drawn);
void ftl_tui_durations_draw(FtlTuiCanvas *c, int y, int h, FtlTuiApp *app, const char *func);

/* The Flame panel zoomed on n of the tree grouped by group (panel-flame.c). */
void ftl_tui_flame_panel_focus(FtlTuiPanel *p, FtlCallTreeGroup group, const FtlCallNode *n);

/* A list of lines made once from the model (lines.c): Markers, Quality,
 * Stack and Oops are such lists. Text is made safe when a line is added
 * (trace text through the escaper); a line may say where Enter goes. */
typedef struct {
	char *text; /* safe */
	FtlTuiStyle style;
	gint64 ts;    /* Enter: the Events list at this time, FTL_TS_NONE */
	guint64 line; /* or at this input line (0: none) */
	gint32 cpu;   /* of that line, -1 any */
	/* H: a histogram of what the line sums up (borrowed from the model,
	 * as long as the lines), titled histo_title (safe, owned), or NULL */
	const FtlHisto *histo;
	char *histo_title;
	const char *histo_noun; /* static: "wakeups" */
} FtlTuiLine;

typedef struct {
	GArray *lines; /* FtlTuiLine */
	gint64 cursor, top;
	int page;
	guint64 built_key;
	gboolean histo; /* H: the cursor line's histogram over the list */
} FtlTuiLines;

void ftl_tui_lines_init(FtlTuiLines *l);
void ftl_tui_lines_clear(FtlTuiLines *l);
/* Drops the lines (a new model); the cursor stays where it can. */
void ftl_tui_lines_reset(FtlTuiLines *l);
/* Adds a line of safe text: the program's own words, or trace text that
 * went through ftl_tui_lines_raw(). */
FtlTuiLine *ftl_tui_lines_add(FtlTuiLines *l, FtlTuiStyle style, const char *fmt, ...)
	G_GNUC_PRINTF(3, 4);
/* Trace text made visible, for a line's arguments; borrowed until the
 * next call with the same buf. */
const char *ftl_tui_lines_raw(GString *buf, const char *raw, gssize len);
/* Appends safe text cut or padded to exactly cols terminal columns. */
void ftl_tui_cell(GString *out, const char *safe, int cols, gboolean right);
/* The same, left-aligned, for names that differ at the end ("Issue ...
 * Button 849x126", "Issue ... LinearLayout 1080x189"): one too wide keeps
 * its start and its end around a '~'. */
void ftl_tui_cell_mid(GString *out, const char *safe, int cols);
void ftl_tui_lines_draw(FtlTuiLines *l, FtlTuiCanvas *c, int y, int h, const char *header);
FtlTuiReaction ftl_tui_lines_command(FtlTuiLines *l, FtlTuiApp *app, FtlTuiCmd cmd,
				     const FtlTuiInput *in);
FtlTuiReaction ftl_tui_lines_search(FtlTuiLines *l, FtlTuiApp *app, GRegex *re, int dir);
gint64 ftl_tui_lines_time(FtlTuiLines *l);

/* A panel that is such a list: build() fills lines (and the header) from
 * the app whenever the model, the time mode or mark A changed. */
typedef void (*FtlTuiLinesBuild)(FtlTuiLines *l, FtlTuiApp *app, GString *header);
FtlTuiPanel *ftl_tui_lines_panel_new(FtlTuiLinesBuild build);
void ftl_tui_lines_panel_free(FtlTuiPanel *p);
void ftl_tui_lines_panel_draw(FtlTuiPanel *p, FtlTuiApp *app, FtlTuiCanvas *c, int y, int h);
FtlTuiReaction ftl_tui_lines_panel_command(FtlTuiPanel *p, FtlTuiApp *app, FtlTuiCmd cmd,
					   const FtlTuiInput *in);
FtlTuiReaction ftl_tui_lines_panel_search(FtlTuiPanel *p, FtlTuiApp *app, GRegex *re, int dir);
gint64 ftl_tui_lines_panel_time(FtlTuiPanel *p, FtlTuiApp *app);
FtlTuiReaction ftl_tui_lines_panel_tick(FtlTuiPanel *p, FtlTuiApp *app);
#define FTL_TUI_LINES_PANEL_METHODS                                                                \
	.free = ftl_tui_lines_panel_free, .draw = ftl_tui_lines_panel_draw,                        \
	.command = ftl_tui_lines_panel_command, .search = ftl_tui_lines_panel_search,              \
	.cursor_time = ftl_tui_lines_panel_time, .tick = ftl_tui_lines_panel_tick

/* Reads the time prompt: "12.5" (seconds, as the trace prints them),
 * "^1.5ms" (from the start), "+1.5ms" / "-20us" (from the cursor); units
 * s, ms, us, ns, seconds without one. Seconds count from origin (the
 * --relative-to one, FTL_TS_NONE: from 0). */
gboolean ftl_tui_parse_time(const char *text, gint64 cursor, gint64 start, gint64 origin,
			    gint64 *out, GError **error);
/* app-draw.c */
/* A panel's place in the tab row: w columns from x; w 0 when it is not in
 * the row (nothing for it in these inputs). */
typedef struct {
	int x, w;
	char text[24];
} FtlTuiTab;
/* Lays out the tab row in cols: every panel the inputs can have, numbered
 * as its key; when they do not fit, the names of the panels not shown are
 * cut to three letters, then left out (the number stays). Returns the
 * columns used. */
int ftl_tui_app_tabs(FtlTuiApp *app, int cols, FtlTuiTab tabs[FTL_TUI_N_PANELS]);
void ftl_tui_app_draw_chrome(FtlTuiApp *app, FtlTuiCanvas *c);
void ftl_tui_app_draw_help(FtlTuiApp *app, FtlTuiCanvas *c, int y, int h);
