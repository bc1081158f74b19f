/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The one key table: every key the TUI knows, the panels where it works,
 * what it does and the line of help that says so. The help screen, the
 * man page's table and `ftlens tui --keys` are all read from here. */
#include "config.h"

#include <string.h>

#include "util/error.h"
#include "views/tui/app.h"

#define EV  FTL_TUI_IN(EVENTS)
#define GR  FTL_TUI_IN(GRAPH)
#define FN  FTL_TUI_IN(FUNCS)
#define TL  FTL_TUI_IN(TIMELINE)
#define MK  FTL_TUI_IN(MARKERS)
#define FL  FTL_TUI_IN(FLAME)
#define QU  FTL_TUI_IN(QUALITY)
#define ST  FTL_TUI_IN(STACK)
#define OO  FTL_TUI_IN(OOPS)
#define SC  FTL_TUI_IN(SCHED)
#define ALL FTL_TUI_ALL
/* where the arrows have no meaning of their own */
#define SCROLL (ALL & ~(GR | TL | FL))

/* A key has at most one row per panel (test-tui checks it), so that the
 * help says what the key does wherever it is pressed. */
static const FtlTuiBinding keys_table[] = {
	{ 'q', ALL, FTL_TUI_CMD_QUIT, "quit" },
	{ 'h', ALL, FTL_TUI_CMD_HELP, "this help (any key closes it)" },
	{ FTL_TUI_KEY_F1, ALL, FTL_TUI_CMD_HELP, "this help" },
	{ FTL_TUI_KEY_TAB, ALL, FTL_TUI_CMD_NEXT_PANEL, "next panel" },
	{ FTL_TUI_KEY_BACKTAB, ALL, FTL_TUI_CMD_PREV_PANEL, "previous panel" },
	{ '1', ALL, FTL_TUI_CMD_PANEL_1 + 0, "Events: every event" },
	{ '2', ALL, FTL_TUI_CMD_PANEL_1 + 1, "Graph: the merged call tree" },
	{ '3', ALL, FTL_TUI_CMD_PANEL_1 + 2, "Functions: per-function table" },
	{ '4', ALL, FTL_TUI_CMD_PANEL_1 + 3, "Timeline: what each CPU ran" },
	{ '5', ALL, FTL_TUI_CMD_PANEL_1 + 4, "Markers: trace_marker writes and spans" },
	{ '6', ALL, FTL_TUI_CMD_PANEL_1 + 5, "Flame: the call tree as an icicle" },
	{ '7', ALL, FTL_TUI_CMD_PANEL_1 + 6, "Quality: lost events and repairs" },
	{ '8', ALL, FTL_TUI_CMD_PANEL_1 + 7, "Stack: stack tracer tables" },
	{ '9', ALL, FTL_TUI_CMD_PANEL_1 + 8, "Oops: kernel reports in a console log" },
	{ '0', ALL, FTL_TUI_CMD_PANEL_10, "Sched: CPUs, tasks, wakeup latency, interrupts" },
	{ FTL_TUI_KEY_UP, ALL, FTL_TUI_CMD_UP, "up one row" },
	{ 'k', ALL, FTL_TUI_CMD_UP, "up one row" },
	{ FTL_TUI_KEY_DOWN, ALL, FTL_TUI_CMD_DOWN, "down one row" },
	{ 'j', ALL, FTL_TUI_CMD_DOWN, "down one row" },
	{ FTL_TUI_KEY_PGUP, ALL, FTL_TUI_CMD_PAGE_UP, "up one page" },
	{ FTL_TUI_KEY_PGDN, ALL, FTL_TUI_CMD_PAGE_DOWN, "down one page" },
	{ ' ', ALL, FTL_TUI_CMD_PAGE_DOWN, "down one page" },
	{ 'g', ALL, FTL_TUI_CMD_TOP, "first row" },
	{ FTL_TUI_KEY_HOME, ALL, FTL_TUI_CMD_TOP, "first row" },
	{ 'G', ALL, FTL_TUI_CMD_BOTTOM, "last row" },
	{ FTL_TUI_KEY_END, ALL, FTL_TUI_CMD_BOTTOM, "last row" },
	{ FTL_TUI_KEY_LEFT, GR, FTL_TUI_CMD_LEFT, "fold, or go to the parent" },
	{ FTL_TUI_KEY_RIGHT, GR, FTL_TUI_CMD_RIGHT, "unfold, or go to the first child" },
	{ FTL_TUI_KEY_LEFT, TL, FTL_TUI_CMD_LEFT, "cursor back in time (pans at the edge)" },
	{ FTL_TUI_KEY_RIGHT, TL, FTL_TUI_CMD_RIGHT, "cursor on in time (pans at the edge)" },
	{ FTL_TUI_KEY_LEFT, FL, FTL_TUI_CMD_LEFT, "frame to the left" },
	{ FTL_TUI_KEY_RIGHT, FL, FTL_TUI_CMD_RIGHT, "frame to the right" },
	{ FTL_TUI_KEY_LEFT, SCROLL, FTL_TUI_CMD_LEFT, "scroll left" },
	{ FTL_TUI_KEY_RIGHT, SCROLL, FTL_TUI_CMD_RIGHT, "scroll right" },
	{ '/', ALL, FTL_TUI_CMD_SEARCH, "search forward (regex; Esc stops a long one)" },
	{ '?', ALL, FTL_TUI_CMD_SEARCH_BACK, "search backward" },
	{ 'n', ALL, FTL_TUI_CMD_NEXT_MATCH, "next match" },
	{ 'N', ALL, FTL_TUI_CMD_PREV_MATCH, "previous match" },
	{ 'f', ALL, FTL_TUI_CMD_FILTER,
	  "push a filter: cpu, pid, event, func, comm or EVENTS: EXPR" },
	{ FTL_TUI_KEY_ESC, ALL, FTL_TUI_CMD_BACK,
	  "back: leave a zoom or sandwich, else pop a filter" },
	{ 't', ALL, FTL_TUI_CMD_GOTO_TIME,
	  "go to a time: 12.5, ^1.5ms from the start, +1.5ms, -20us" },
	{ 'a', ALL, FTL_TUI_CMD_MARK_A, "set mark A at the cursor's time" },
	{ 'b', ALL, FTL_TUI_CMD_MARK_B, "set mark B (the status line shows B-A)" },
	{ 'm', ALL, FTL_TUI_CMD_BOOKMARK, "m LETTER: bookmark the cursor" },
	{ '\'', ALL, FTL_TUI_CMD_JUMP_BOOKMARK, "' LETTER: go to a bookmark" },
	{ FTL_TUI_KEY_CTRL_L, ALL, FTL_TUI_CMD_REDRAW, "redraw the screen" },
	{ FTL_TUI_KEY_RESIZE, ALL, FTL_TUI_CMD_RESIZE, NULL },
	{ FTL_TUI_KEY_WHEEL_UP, ALL, FTL_TUI_CMD_WHEEL_UP, "scroll up" },
	{ FTL_TUI_KEY_WHEEL_DOWN, ALL, FTL_TUI_CMD_WHEEL_DOWN, "scroll down" },
	{ FTL_TUI_KEY_CLICK, ALL, FTL_TUI_CMD_CLICK, "select the row clicked" },
	{ FTL_TUI_KEY_ENTER, EV, FTL_TUI_CMD_ACTIVATE,
	  "from a call's entry to its exit, and back" },
	{ FTL_TUI_KEY_ENTER, GR, FTL_TUI_CMD_ACTIVATE,
	  "fold or unfold; on a leaf, list its calls" },
	{ FTL_TUI_KEY_ENTER, FN, FTL_TUI_CMD_ACTIVATE, "callers above, callees below (sandwich)" },
	{ FTL_TUI_KEY_ENTER, TL, FTL_TUI_CMD_ACTIVATE, "the event under the cursor, in Events" },
	{ FTL_TUI_KEY_ENTER, FL, FTL_TUI_CMD_ACTIVATE, "zoom into the frame (Esc: back)" },
	{ FTL_TUI_KEY_ENTER, MK | QU | OO, FTL_TUI_CMD_ACTIVATE, "go there in Events" },
	{ 'T', EV | MK, FTL_TUI_CMD_TIME_MODE,
	  "time: absolute, since the row before, since mark A" },
	{ '+', GR, FTL_TUI_CMD_EXPAND, "unfold (a single child's chain too)" },
	{ '-', GR, FTL_TUI_CMD_COLLAPSE, "fold" },
	{ '+', TL, FTL_TUI_CMD_ZOOM_IN, "zoom in around the cursor" },
	{ '-', TL, FTL_TUI_CMD_ZOOM_OUT, "zoom out" },
	{ 'e', GR, FTL_TUI_CMD_EXPAND_SUBTREE, "unfold the subtree" },
	{ 'E', GR, FTL_TUI_CMD_EXPAND_ALL, "unfold everything" },
	{ 'c', GR, FTL_TUI_CMD_COLLAPSE_SUBTREE, "fold the subtree" },
	{ 'C', GR, FTL_TUI_CMD_COLLAPSE_ALL, "fold everything" },
	{ 'l', GR, FTL_TUI_CMD_LONGEST, "go to the longest child (the critical path)" },
	{ 'p', GR | FL, FTL_TUI_CMD_GROUP, "calls of all tasks, per CPU, per task" },
	{ '[', TL, FTL_TUI_CMD_PAN_LEFT, "pan back by half the view" },
	{ ']', TL, FTL_TUI_CMD_PAN_RIGHT, "pan on by half the view" },
	{ 'M', TL, FTL_TUI_CMD_MARKER_LIST, "list the markers in view, numbered as their ticks" },
	{ 'v', GR | FN | FL, FTL_TUI_CMD_LIST_CALLS, "list the function's calls in Events" },
	{ 'F', GR | FN, FTL_TUI_CMD_FLAME_OF, "the function in Flame" },
	{ 's', FN | SC, FTL_TUI_CMD_SORT, "sort by the next column" },
	{ 'w', SC, FTL_TUI_CMD_SCOPE, "next scope: whole trace, each --span span, marks A..B" },
	{ FTL_TUI_KEY_ENTER, SC, FTL_TUI_CMD_ACTIVATE,
	  "a task: filter every panel to it; a wakeup: its event in Events, A..B marked" },
	{ 'S', FN, FTL_TUI_CMD_SORT_REVERSE, "reverse the sort" },
	{ 'H', FN | GR, FTL_TUI_CMD_HISTOGRAM,
	  "the function's duration histogram, as plot durations bins it (Esc: back)" },
	{ 'W', TL, FTL_TUI_CMD_WAKEUPS,
	  "the selected task's wakeups, waker -> wakee, marked and listed (Up/Down, Enter)" },
	{ 'H', SC | MK, FTL_TUI_CMD_HISTOGRAM,
	  "histogram of the row: a latency class (as plot latency), a span pattern" },
	{ 'Z', ALL, FTL_TUI_CMD_SAVE_VIEW,
	  "save the view (panel, filters, marks, folds, cursors) under a name" },
	{ 'O', ALL, FTL_TUI_CMD_OPEN_VIEW, "open a saved view (tui --view NAME does too)" },
	{ 'x', ALL, FTL_TUI_CMD_COMPARE_SWAP,
	  "--compare: swap A and B (every panel then shows the other as A)" },
	{ 'X', TL, FTL_TUI_CMD_COMPARE_ALIGN,
	  "--compare: align B at A's marker by the cursor (same text), again: at the starts" },
};

const FtlTuiBinding *ftl_tui_keys_lookup(gint key, FtlTuiPanelId panel)
{
	for (guint i = 0; i < G_N_ELEMENTS(keys_table); i++)
		if (keys_table[i].key == key && (keys_table[i].panels & (1u << panel)))
			return &keys_table[i];
	return NULL;
}

static const struct {
	gint key;
	const char *name;
} key_names[] = {
	{ FTL_TUI_KEY_ENTER, "Enter" },
	{ FTL_TUI_KEY_ESC, "Esc" },
	{ FTL_TUI_KEY_TAB, "Tab" },
	{ ' ', "Space" },
	{ FTL_TUI_KEY_UP, "Up" },
	{ FTL_TUI_KEY_DOWN, "Down" },
	{ FTL_TUI_KEY_LEFT, "Left" },
	{ FTL_TUI_KEY_RIGHT, "Right" },
	{ FTL_TUI_KEY_PGUP, "PgUp" },
	{ FTL_TUI_KEY_PGDN, "PgDn" },
	{ FTL_TUI_KEY_HOME, "Home" },
	{ FTL_TUI_KEY_END, "End" },
	{ FTL_TUI_KEY_BACKTAB, "S-Tab" },
	{ FTL_TUI_KEY_BACKSPACE, "Backspace" },
	{ FTL_TUI_KEY_DELETE, "Delete" },
	{ FTL_TUI_KEY_F1, "F1" },
	{ FTL_TUI_KEY_RESIZE, "Resize" },
	{ FTL_TUI_KEY_WHEEL_UP, "WheelUp" },
	{ FTL_TUI_KEY_WHEEL_DOWN, "WheelDown" },
	{ FTL_TUI_KEY_CLICK, "Click" },
	{ FTL_TUI_KEY_TICK, "Tick" },
};

const char *ftl_tui_key_name(gint key, char buf[8])
{
	for (guint i = 0; i < G_N_ELEMENTS(key_names); i++)
		if (key_names[i].key == key)
			return key_names[i].name;
	if (key > 0 && key < ' ') {
		g_snprintf(buf, 8, "C-%c", 'a' + key - 1);
		return buf;
	}
	if (key <= 0 || key >= FTL_TUI_KEY_BASE || !g_unichar_validate((gunichar)key) ||
	    !g_unichar_isgraph((gunichar)key))
		return "?";
	buf[g_unichar_to_utf8((gunichar)key, buf)] = 0;
	return buf;
}

static gint keys_by_name(const char *name)
{
	for (guint i = 0; i < G_N_ELEMENTS(key_names); i++)
		if (!g_ascii_strcasecmp(key_names[i].name, name))
			return key_names[i].key;
	if ((name[0] == 'C' || name[0] == 'c') && name[1] == '-' && g_ascii_isalpha(name[2]) &&
	    !name[3])
		return g_ascii_tolower(name[2]) - 'a' + 1;
	return -1;
}

GArray *ftl_tui_keys_parse(const char *script, GError **error)
{
	g_autoptr(GArray) keys = g_array_new(FALSE, FALSE, sizeof(gint));
	for (const char *p = script; *p;) {
		gint k;
		if (p[0] == '<' && p[1] == '<') {
			k = '<';
			p += 2;
		} else if (*p == '<') {
			const char *end = strchr(p, '>');
			g_autofree char *name = end ? g_strndup(p + 1, (gsize)(end - p - 1)) : NULL;
			k = name ? keys_by_name(name) : -1;
			if (k < 0) {
				g_set_error(error, FTL_ERROR, FTL_ERROR_USAGE,
					    "key script: no key named at '%s'", p);
				return NULL;
			}
			p = end + 1;
		} else {
			k = (gint)g_utf8_get_char_validated(p, -1);
			if (k < 0) {
				g_set_error(error, FTL_ERROR, FTL_ERROR_USAGE,
					    "key script: not UTF-8");
				return NULL;
			}
			p = g_utf8_next_char(p);
		}
		g_array_append_val(keys, k);
	}
	return g_steal_pointer(&keys);
}

/* Letters first (a before A), then other characters, then named keys. */
static int keys_rank(gint key)
{
	if (key < FTL_TUI_KEY_BASE && g_unichar_isalpha((gunichar)key))
		return 0;
	if (key > ' ' && key < FTL_TUI_KEY_BASE)
		return 1;
	return 2;
}

static gint keys_cmp(gconstpointer a, gconstpointer b)
{
	const FtlTuiBinding *x = *(const FtlTuiBinding *const *)a;
	const FtlTuiBinding *y = *(const FtlTuiBinding *const *)b;
	int rx = keys_rank(x->key), ry = keys_rank(y->key);
	if (rx != ry)
		return rx - ry;
	char bx[8], by[8];
	const char *nx = ftl_tui_key_name(x->key, bx), *ny = ftl_tui_key_name(y->key, by);
	int c = g_ascii_strcasecmp(nx, ny);
	if (c)
		return c;
	c = strcmp(ny, nx); /* lower case first */
	if (c)
		return c;
	return x < y ? -1 : x > y;
}

GPtrArray *ftl_tui_keys_sorted(void)
{
	GPtrArray *out = g_ptr_array_new();
	for (guint i = 0; i < G_N_ELEMENTS(keys_table); i++)
		if (keys_table[i].help)
			g_ptr_array_add(out, (gpointer)&keys_table[i]);
	g_ptr_array_sort(out, keys_cmp);
	return out;
}

char *ftl_tui_keys_panels(guint panels)
{
	static const char *const names[FTL_TUI_N_PANELS] = {
		"Events", "Graph",   "Functions", "Timeline", "Markers",
		"Flame",  "Quality", "Stack",	  "Oops",	  "Sched",
	};
	if (panels == FTL_TUI_ALL)
		return g_strdup("all");
	GString *s = g_string_new(NULL);
	for (guint i = 0; i < FTL_TUI_N_PANELS; i++)
		if (panels & (1u << i))
			g_string_append_printf(s, "%s%s", s->len ? "," : "", names[i]);
	return g_string_free(s, FALSE);
}

char *ftl_tui_keys_table(void)
{
	g_autoptr(GPtrArray) rows = ftl_tui_keys_sorted();
	GString *s = g_string_new(NULL);
	for (guint i = 0; i < rows->len; i++) {
		const FtlTuiBinding *b = g_ptr_array_index(rows, i);
		char buf[8];
		g_autofree char *where = ftl_tui_keys_panels(b->panels);
		g_string_append_printf(s, "%-10s %-24s %s\n", ftl_tui_key_name(b->key, buf), where,
				       b->help);
	}
	return g_string_free(s, FALSE);
}
