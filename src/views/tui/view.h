/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Saved views (`Z` saves, `O` and `tui --view` open), as KernelShark's
 * sessions: the panel, the filters, marks and bookmarks, and each panel's
 * own state (the Timeline's window, the Graph's folds by call path, sort
 * orders, scopes, cursors), with the trace they were saved for.
 *
 * A view is a small key file under $XDG_CONFIG_HOME/ftlens/views/NAME.view:
 *
 *   [ftlens-view]
 *   version=1
 *   [trace]
 *   paths=run.sav;
 *   ...
 *   [graph]
 *   unfolded=do_syscall_64/__x64_sys_read;...
 *
 * Every key the reader knows is declared once (view.c's table) with its
 * type and range; a file is checked whole when read, so that the getters
 * below cannot meet a bad value. Names from the trace (functions, comms in
 * a filter) are written quoted: bytes other than printable ASCII, and '%',
 * ';' and '\\' (and '/' in a call path's names), as %XX; nothing in a name
 * can start a line or a key.
 * The file read back is hostile input: read through ftl_file_read_own()
 * (a regular file of this user, no symlink, no FIFO, bounded), every value
 * range-checked, an error names the file and the line. */
#pragma once

#include <glib.h>

typedef struct _FtlTuiView FtlTuiView;

/* The sort orders the panels have (their files check it). */
#define FTL_TUI_VIEW_FUNCS_SORTS 7
#define FTL_TUI_VIEW_SCHED_SORTS 6

/* No view this program writes comes near it. */
#define FTL_TUI_VIEW_MAX_BYTES (256 * 1024)

FtlTuiView *ftl_tui_view_new(void);
void ftl_tui_view_free(FtlTuiView *v);
/* The file it was read from, or NULL. */
const char *ftl_tui_view_path(const FtlTuiView *v);

/* Setters: group and key must be the table's (a programming error
 * otherwise); the value must be in the key's range. */
void ftl_tui_view_set_int(FtlTuiView *v, const char *group, const char *key, gint64 value);
void ftl_tui_view_set_bool(FtlTuiView *v, const char *group, const char *key, gboolean value);
void ftl_tui_view_set_name(FtlTuiView *v, const char *group, const char *key, const char *name);
void ftl_tui_view_set_names(FtlTuiView *v, const char *group, const char *key,
			    const char *const *names, guint n);
void ftl_tui_view_set_ints(FtlTuiView *v, const char *group, const char *key,
			   const gint64 *values, guint n);
/* Appends a path (names from the root down) to a list of paths. */
void ftl_tui_view_add_path(FtlTuiView *v, const char *group, const char *key,
			   const char *const *names, guint n);

/* Getters: FALSE / NULL when the key is absent. */
gboolean ftl_tui_view_get_int(const FtlTuiView *v, const char *group, const char *key,
			      gint64 *out);
gboolean ftl_tui_view_get_bool(const FtlTuiView *v, const char *group, const char *key,
			       gboolean *out);
char *ftl_tui_view_get_name(const FtlTuiView *v, const char *group, const char *key);
/* NULL-terminated (g_strfreev()). */
char **ftl_tui_view_get_names(const FtlTuiView *v, const char *group, const char *key);
/* n values (g_free()). */
gint64 *ftl_tui_view_get_ints(const FtlTuiView *v, const char *group, const char *key, guint *n);
/* Each path a NULL-terminated array of names (the array frees them). */
GPtrArray *ftl_tui_view_get_paths(const FtlTuiView *v, const char *group, const char *key);

/* The file's text. */
char *ftl_tui_view_to_data(const FtlTuiView *v, gsize *len);
/* Reads a view's text; path names it in errors ("'PATH': line 7: ..."). */
FtlTuiView *ftl_tui_view_parse(const char *data, gsize len, const char *path, GError **error);
/* Reads the file at path (ftl_file_read_own(): bounded, this user's). */
FtlTuiView *ftl_tui_view_load(const char *path, GError **error);
/* Writes v to path atomically (util/output.h), creating its directory
 * (mode 0700). */
gboolean ftl_tui_view_save(const FtlTuiView *v, const char *path, GError **error);

/* $XDG_CONFIG_HOME/ftlens/views (g_free()). */
char *ftl_tui_view_dir(void);
/* A name is letters, digits, '.', '_' and '-', not starting with '.',
 * at most 64 bytes. */
gboolean ftl_tui_view_name_ok(const char *name, GError **error);
/* The file of a name or file given to --view or O: with a '/', the file
 * itself; else the name's file in the views directory. NULL with a usage
 * error for a bad name. */
char *ftl_tui_view_resolve(const char *name_or_file, GError **error);
/* A name for a view of the trace at path: its basename, other characters
 * made '_'. */
char *ftl_tui_view_default_name(const char *trace_path);
/* The names saved, sorted (an empty array without any). */
GPtrArray *ftl_tui_view_list(void);

G_DEFINE_AUTOPTR_CLEANUP_FUNC(FtlTuiView, ftl_tui_view_free)
