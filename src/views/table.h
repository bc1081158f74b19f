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
	FTL_COL_STR,  /* text; control characters are shown as \xNN in text and CSV */
	FTL_COL_VSTR, /* text the caller already made visible for the text view (shown
		       * as is there); CSV and JSON treat it as FTL_COL_STR */
	FTL_COL_INT,
	FTL_COL_NS,  /* a duration in ns: text shows "12.345 us", CSV/JSON the integer */
	FTL_COL_TS,  /* a timestamp in ns: text shows "123.456789", CSV/JSON the integer */
	FTL_COL_PCT, /* a percentage (double): text shows "12.3%" */
	FTL_COL_FLOAT,
} FtlColType;

typedef struct _FtlTable FtlTable;

/* name is the JSON member the rows go under. */
FtlTable *ftl_table_new(const char *name);
void ftl_table_free(FtlTable *t);
/* key names the column in CSV and JSON (use a _ns suffix for times); title is
 * the text header. Columns are added before rows. */
void ftl_table_add_column(FtlTable *t, const char *key, const char *title, FtlColType type);
/* The last added column is left out of the text view (CSV and JSON keep it). */
void ftl_table_hide_in_text(FtlTable *t);
void ftl_table_begin_row(FtlTable *t);
/* Set cells of the current row by column index; unset cells are null/empty. */
void ftl_table_set_str(FtlTable *t, guint col, const char *s);
void ftl_table_set_int(FtlTable *t, guint col, gint64 v);
void ftl_table_set_double(FtlTable *t, guint col, double v);
guint ftl_table_n_rows(const FtlTable *t);

/* Text: a header line and aligned rows, at most max_rows (0 = all), strings
 * cut so that a line fits width columns. */
void ftl_table_print_text(const FtlTable *t, FILE *out, guint max_rows, guint width);
void ftl_table_print_csv(const FtlTable *t, FILE *out);
/* Adds "name": [ {key: value, ...}, ... ] with every row to an open object. */
void ftl_table_add_json(const FtlTable *t, JsonBuilder *b);
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

/* Prints a JSON document (pretty) and a newline. */
void ftl_json_print(JsonNode *root, FILE *out);
