/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Result tables rendered as aligned text, CSV or JSON, so every command prints
 * the same rows the same way in each format. */
#pragma once

#include <glib.h>
#include <json-glib/json-glib.h>
#include <stdio.h>

typedef enum {
	FTL_FORMAT_TEXT,
	FTL_FORMAT_CSV,
	FTL_FORMAT_JSON,
} FtlFormat;

/* "text", "csv" or "json"; a usage error otherwise. */
gboolean ftl_format_parse(const char *text, FtlFormat *out, GError **error);

typedef enum {
	FTL_COL_STR, /* text from anywhere: made visible (util/escape.h) in text and CSV,
		      * valid UTF-8 in JSON */
	FTL_COL_INT,
	FTL_COL_NS,  /* a duration in ns: text shows "12.345 us", CSV/JSON the integer */
	FTL_COL_TS,  /* a timestamp in ns: text shows "123.456789", CSV/JSON the integer */
	FTL_COL_PCT, /* a percentage (double): text shows "12.3%" */
	FTL_COL_FLOAT,
} FtlColType;

typedef enum {
	FTL_COL_HIDE_TEXT = 1u << 0,  /* CSV and JSON only */
	FTL_COL_KEEP_START = 1u << 1, /* text cuts a long value at its end ("head~"); by
				       * default the start goes ("~tail") */
	FTL_COL_NO_CUT = 1u << 2,     /* text never cuts it */
	FTL_COL_ALERT = 1u << 3,      /* a nonzero value (lost events, repaired calls)
				       * marks its row: coloured as an alert in text */
} FtlColFlags;

/* One column, declared once: text, CSV and JSON render from it. Strings
 * are left-aligned and may be cut to fit the width (never below 12
 * columns), everything else is right-aligned and never cut. */
typedef struct {
	const char *key;   /* CSV header and JSON member; times end in _ns */
	const char *title; /* text header */
	FtlColType type;
	guint flags; /* FtlColFlags */
} FtlColumn;

typedef struct _FtlTable FtlTable;

/* The column of a time as `ftlens tui --at` takes it (absolute seconds with
 * every ns digit, so the TUI opens on that event): set with
 * ftl_table_set_at(). Report, sched and markers print it for the rows a user
 * would look at next. */
#define FTL_COLUMN_AT { "at", "tui --at", FTL_COL_STR, FTL_COL_NO_CUT }

/* name is the JSON member the rows go under; cols (copied) declares the
 * columns, and a column's index in it is its id for every call below
 * (declare them with an enum of ids). */
FtlTable *ftl_table_new(const char *name, const FtlColumn *cols, guint n_cols);
void ftl_table_free(FtlTable *t);
/* Leaves column col out of every format (a column this table has no data
 * for, e.g. cpu when statistics are not per CPU). */
void ftl_table_omit(FtlTable *t, guint col);
/* Replaces a column's text header (e.g. "time (rel)"). */
void ftl_table_set_title(FtlTable *t, guint col, const char *title);
void ftl_table_begin_row(FtlTable *t);
/* Set cells of the current row by column id; unset cells are null/empty. */
void ftl_table_set_str(FtlTable *t, guint col, const char *s);
void ftl_table_set_int(FtlTable *t, guint col, gint64 v);
void ftl_table_set_double(FtlTable *t, guint col, double v);
/* ts (absolute, never relative to an origin) for an FTL_COLUMN_AT column;
 * FTL_TS_NONE leaves it empty. */
void ftl_table_set_at(FtlTable *t, guint col, gint64 ts);
guint ftl_table_n_rows(const FtlTable *t);

/* How text is laid out for where it goes: decided once by the command line
 * (--width, --color, whether standard output is a terminal) and handed to
 * every view; NULL is plain text that is never cut. */
typedef struct {
	guint width;	  /* a line fits this many columns; 0: never cut (a file, a pipe) */
	gboolean color;	  /* util/color.h's codes */
	/* when not NULL: after the first table whose names were cut, say how
	 * to see them whole, and count it here (once for the whole output) */
	guint *cuts;
} FtlTextStyle;

/* Text: a header line and aligned rows (coloured when style says so: the
 * header, FTL_COL_NS cells by magnitude, FTL_COL_ALERT rows), at most
 * max_rows (0 = all), strings cut so that a line fits style's width; never
 * so that two different names print alike (KEEP_START texts excepted). */
void ftl_table_print_text(const FtlTable *t, FILE *out, guint max_rows, const FtlTextStyle *style);
void ftl_table_print_csv(const FtlTable *t, FILE *out);
/* Adds "name": [ {key: value, ...}, ... ] with every row to an open object. */
void ftl_table_add_json(const FtlTable *t, JsonBuilder *b);
/* The table alone as a document of format (JSON: an object with the one
 * member); text shows max_rows (0: all) within width. */
void ftl_table_print(const FtlTable *t, FtlFormat format, FILE *out, guint max_rows,
		     const FtlTextStyle *style);
/* Appends s[0..len) (len < 0: NUL-terminated) as one CSV cell, as tables
 * write theirs: made visible, quoted when needed, formulas defused. For
 * views that stream rows too many to hold (dump). */
void ftl_csv_append(GString *out, const char *s, gssize len);
/* Several tables as CSV: one document per table, separated by an empty
 * line; NULL tables are left out. */
void ftl_table_print_csv_all(FILE *out, const FtlTable *const *tables, guint n);

G_DEFINE_AUTOPTR_CLEANUP_FUNC(FtlTable, ftl_table_free)

/* Adds "name": v to an open JSON object. */
void ftl_json_member_int(JsonBuilder *b, const char *name, gint64 v);
/* Adds s (NULL: null) as a string value. Text from a trace (marker text,
 * event names, paths) may be any bytes; JSON must be UTF-8, so invalid
 * sequences become U+FFFD. */
void ftl_json_add_text(JsonBuilder *b, const char *s);
/* Adds "name": s (NULL: null), s made valid UTF-8 as ftl_json_add_text(). */
void ftl_json_member_text(JsonBuilder *b, const char *name, const char *s);
/* Sets the next member's name from text that may not be UTF-8 (an event
 * name read from a trace). */
void ftl_json_set_member_text(JsonBuilder *b, const char *name);
/* Adds "name": v, or null when v == none (FTL_TS_NONE, -1 for unknown counts). */
void ftl_json_member_opt(JsonBuilder *b, const char *name, gint64 v, gint64 none);

/* s[0..len) (len < 0: NUL-terminated) as one quoted JSON string, for
 * documents written piece by piece: valid UTF-8 (U+FFFD for bad bytes),
 * controls, C1 and bidi escaped as ftl_json_print() does. g_free() it. */
char *ftl_json_quote(const char *s, gssize len);

/* Prints a JSON document (pretty) and a newline. */
void ftl_json_print(JsonNode *root, FILE *out);
