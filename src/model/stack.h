/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Stack tracer tables: the frames of the deepest kernel stack the stack
 * tracer saw (the stack_trace file), the stack_max_size values that go with
 * them, and the inconsistencies found in them, each with its file and line.
 * Tables are not events: they never become an FtlTrace. */
#pragma once

#include <glib.h>

#include "util/strpool.h"
#include "util/timefmt.h"

typedef struct {
	guint index;	      /* the "N)" column as printed */
	gint64 depth;	      /* Depth: bytes of stack in use from this frame down */
	gint64 size;	      /* Size: the bytes this frame takes, as printed */
	const char *location; /* as printed: "load_balance+0x19b/0xe50 [mod]" */
	const char *func;     /* location without +off/len and module; a raw
			       * address ("0xc0000000334bbb50") stays as printed */
	const char *module;   /* from "[module]", or NULL */
	gboolean raw;	      /* location is an address the kernel could not name */
	guint64 line;	      /* line of the frame in its file */
} FtlStackFrame;

typedef struct {
	const char *file;     /* the input as given; interned in the set's pool */
	guint64 line;	      /* line of the "Depth Size Location" header */
	gint64 entries;	      /* "(N entries)" of the header, -1 when absent */
	gint64 snapshot;      /* number in an ftlens stack series, -1 outside one */
	gint64 time_ns;	      /* time of the series snapshot, FTL_TS_NONE when unknown */
	gint64 max_size;      /* the stack_max_size that goes with it, -1 unknown */
	const char *max_file; /* where max_size was read (interned), or NULL */
	guint64 max_line;     /* and its line */
	const char *kernel;   /* kernel release of a series, or NULL */
	gboolean disabled;    /* the kernel printed "Stack tracer disabled" */
	GArray *frames;	      /* FtlStackFrame, top of the stack first */
} FtlStackTable;

typedef enum {
	FTL_STACK_DIAG_SIZE,	 /* Size is not Depth minus the next frame's Depth */
	FTL_STACK_DIAG_ENTRIES,	 /* the header's entry count is not the frame count */
	FTL_STACK_DIAG_INDEX,	 /* frame numbers out of sequence */
	FTL_STACK_DIAG_MAX_SIZE, /* stack_max_size is not the top frame's Depth */
	FTL_STACK_DIAG_SERIES,	 /* snapshot numbers or times going backwards */
} FtlStackDiagKind;

typedef struct {
	FtlStackDiagKind kind;
	const char *file; /* interned */
	guint64 line;
	char *message; /* without file and line */
} FtlStackDiag;

/* A stack_max_size value read on its own (a file or a line of a file). */
typedef struct {
	const char *file; /* interned */
	guint64 line;
	gint64 value;
	const FtlStackTable *table; /* the table it was checked against, or NULL */
} FtlStackMaxSize;

typedef struct _FtlStackSet FtlStackSet;

/* Everything read from a set of inputs. Free with ftl_stack_set_free(); all
 * strings and tables handed out live as long as the set. */
FtlStackSet *ftl_stack_set_new(void);
void ftl_stack_set_free(FtlStackSet *set);
FtlStrPool *ftl_stack_set_pool(FtlStackSet *set);

/* A new empty table owned by the set, appended to its tables; file is
 * interned. entries, snapshot and max_size start at -1, time_ns at FTL_TS_NONE. */
FtlStackTable *ftl_stack_set_add_table(FtlStackSet *set, const char *file, guint64 line);
/* Appends a frame; location is split into func and module here. */
void ftl_stack_table_add_frame(FtlStackSet *set, FtlStackTable *t, guint index, gint64 depth,
			       gint64 size, const char *location, gsize location_len, guint64 line);
/* The Depth of the top frame: the stack's size; 0 for a table without frames. */
gint64 ftl_stack_table_depth(const FtlStackTable *t);
/* The frame at i (0 = top), borrowed. */
const FtlStackFrame *ftl_stack_table_frame(const FtlStackTable *t, guint i);
guint ftl_stack_table_n_frames(const FtlStackTable *t);

guint ftl_stack_set_n_tables(const FtlStackSet *set);
FtlStackTable *ftl_stack_set_table(const FtlStackSet *set, guint i);

FtlStackMaxSize *ftl_stack_set_add_max_size(FtlStackSet *set, const char *file, guint64 line,
					    gint64 value);
guint ftl_stack_set_n_max_sizes(const FtlStackSet *set);
FtlStackMaxSize *ftl_stack_set_max_size(const FtlStackSet *set, guint i);

void ftl_stack_set_add_diag(FtlStackSet *set, FtlStackDiagKind kind, const char *file, guint64 line,
			    const char *format, ...) G_GNUC_PRINTF(5, 6);
guint ftl_stack_set_n_diags(const FtlStackSet *set);
const FtlStackDiag *ftl_stack_set_diag(const FtlStackSet *set, guint i);
/* "size", "entries", "index", "max_size", "series". */
const char *ftl_stack_diag_kind_name(FtlStackDiagKind kind);

G_DEFINE_AUTOPTR_CLEANUP_FUNC(FtlStackSet, ftl_stack_set_free)
