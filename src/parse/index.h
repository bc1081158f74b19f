/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The sparse index of a single-file text trace: every Nth event's line offset,
 * timestamp and the text source's state there (restart points), and the
 * source's state at the end, so that a --time window (or an event number)
 * is reached by parsing at most N events, with results byte-identical to a
 * full scan. Built by the text source during any pass that reads the file
 * from start to end; cached in $XDG_CACHE_HOME/ftlens/, keyed by the file's
 * size, mtime, inode and device and the index version. */
#pragma once

#include <glib.h>

#include "model/diag.h"
#include "model/source.h"
#include "model/trace.h"

/* Bumped whenever the file layout or what a restart point means changes. */
#define FTL_INDEX_VERSION 2
/* Events between restart points. */
#define FTL_INDEX_STRIDE 4096
/* Smallest file that a pass indexes without being asked (ftlens index). */
#define FTL_INDEX_AUTO_MIN ((guint64)16 << 20)
/* A string id that names no string. */
#define FTL_INDEX_NO_STR G_MAXUINT32

/* One CPU's text-source state at a restart point. */
typedef struct {
	gint32 pid;	 /* task of its last task switch line, -1 none */
	guint32 comm;	 /* string id */
	gint64 last_ts;	 /* its last timestamp, FTL_TS_NONE none */
} FtlIndexCpu;

/* A restart point: the line of a (not synthesized) event. */
typedef struct {
	guint64 offset;	    /* file offset of its line */
	guint64 event_no;   /* events the source gave before it */
	gint64 ts;	    /* its timestamp */
	gint64 max_before;  /* largest timestamp before it; FTL_TS_NONE: none */
	gint64 min_from;    /* smallest timestamp from it to the end */
	guint64 line;	    /* its line number (from 1) */
	guint64 seq;	    /* its sequence number */
	guint32 tracer;	    /* string id: the tracer the header named so far */
	guint32 n_cpus;	    /* FtlIndexCpu slots */
	guint32 cpu_first;  /* index of its first slot */
	guint32 reserved;
} FtlIndexPoint;

/* The text source's diagnostic kinds (the ones a window's pass would miss). */
#define FTL_INDEX_N_DIAGS 4
extern const FtlDiagKind ftl_index_diag_kinds[FTL_INDEX_N_DIAGS];

typedef struct {
	guint64 count, amount, first_line;
	gint32 first_cpu;
	guint32 first_text; /* string id */
} FtlIndexDiag;

typedef struct {
	gint32 pid, tgid;
	guint32 comm; /* string id */
	guint32 reserved;
} FtlIndexTask;

/* The source's state after the last line: what a window's pass restores at
 * its end, so that totals, header facts, diagnostics and the task table are
 * the whole file's. */
typedef struct {
	FtlSourceStats stats;
	gint64 entries_in_buffer, entries_written;
	gint32 header_cpus;
	guint32 flags; /* FtlIndexEndFlags */
	guint32 tracer;
	guint32 reserved;
	FtlIndexDiag diags[FTL_INDEX_N_DIAGS];
} FtlIndexEnd;

typedef enum {
	FTL_INDEX_END_HEADER = 1u << 0,
	FTL_INDEX_END_RELATIVE = 1u << 1,
	FTL_INDEX_END_FGRAPH = 1u << 2,
	FTL_INDEX_END_LATENCY = 1u << 3,
	FTL_INDEX_END_REPORT = 1u << 4,
	/* every event has a timestamp: windows can seek (an event without one
	 * passes every window, so a full scan would show it) */
	FTL_INDEX_END_TIMED = 1u << 5,
} FtlIndexEndFlags;

/* What identifies the indexed file's contents. */
typedef struct _FtlIndexKey {
	guint64 size, ino, dev;
	gint64 mtime_ns;
} FtlIndexKey;

typedef struct _FtlIndex FtlIndex;

/* ---- building ---------------------------------------------------------- */

FtlIndex *ftl_index_new(const FtlIndexKey *key, guint stride);
void ftl_index_free(FtlIndex *idx);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(FtlIndex, ftl_index_free)

/* The id of s (NULL: FTL_INDEX_NO_STR) in idx's string table. */
guint32 ftl_index_string(FtlIndex *idx, const char *s);
/* Appends a restart point (its cpus slots follow with ftl_index_add_cpu). */
FtlIndexPoint *ftl_index_add_point(FtlIndex *idx);
void ftl_index_add_cpu(FtlIndex *idx, const FtlIndexCpu *cpu);
void ftl_index_add_task(FtlIndex *idx, gint32 pid, gint32 tgid, const char *comm);
/* Settles the build: end is the source's state after its last line;
 * last_seg_min the smallest timestamp since the last point (the builder sets
 * each point's min_from to its segment's smallest timestamp as it goes; this
 * turns them into the smallest from the point to the end). */
void ftl_index_finish(FtlIndex *idx, const FtlIndexEnd *end, gint64 last_seg_min);
guint ftl_index_stride(const FtlIndex *idx);

/* ---- reading ----------------------------------------------------------- */

guint ftl_index_n_points(const FtlIndex *idx);
const FtlIndexPoint *ftl_index_point(const FtlIndex *idx, guint i);
const FtlIndexCpu *ftl_index_cpus(const FtlIndex *idx, const FtlIndexPoint *p);
const FtlIndexEnd *ftl_index_end(const FtlIndex *idx);
guint ftl_index_n_tasks(const FtlIndex *idx);
const FtlIndexTask *ftl_index_task(const FtlIndex *idx, guint i);
/* The string of id (borrowed, lives as long as idx), NULL for FTL_INDEX_NO_STR. */
const char *ftl_index_str(const FtlIndex *idx, guint32 id);
const FtlIndexKey *ftl_index_key(const FtlIndex *idx);

/* The restart point to start a pass for the window [t_start, t_end] from
 * (the last one that no event in the window precedes; -1: the start of the
 * file) and the one to stop before (the first after it from which every
 * event is later than t_end; -1: read to the end). FTL_TS_NONE: open side. */
void ftl_index_window(const FtlIndex *idx, gint64 t_start, gint64 t_end, gint *start, gint *stop);
/* The restart point to reach event number n (counted from 0) from. */
gint ftl_index_find_event(const FtlIndex *idx, guint64 n);

/* ---- files --------------------------------------------------------------- */

/* The binary form: a versioned header with the key and a SHA-256 of the rest. */
GBytes *ftl_index_serialize(const FtlIndex *idx);
/* Parses data; NULL with error when it is not an index of this version, is
 * cut, corrupt, or does not hold for key (stale), or names an offset beyond
 * key->size. Never trusts a count or an offset it did not check. */
FtlIndex *ftl_index_parse(const guchar *data, gsize len, const FtlIndexKey *key, GError **error);
/* $XDG_CACHE_HOME/ftlens/<hash of the absolute path>.idx (newly allocated). */
char *ftl_index_cache_path(const char *input);
/* The same with another ending (ext, e.g. ".idx"), for other facts kept
 * about an input. */
char *ftl_cache_path(const char *input, const char *ext);
/* Writes len bytes of data to path, a cache file about input (through
 * util/output.h, so atomically), creating the directory. */
gboolean ftl_cache_write(const char *path, const void *data, gsize len, const char *input,
			 GError **error);
/* The key of the regular file at path; FALSE when it cannot be read. */
gboolean ftl_index_key_of(const char *path, FtlIndexKey *key);
/* Loads input's cached index, NULL (error set) when absent, stale or corrupt. */
FtlIndex *ftl_index_load(const char *input, const FtlIndexKey *key, GError **error);
/* Writes idx to input's cache file (through util/output.h, so atomically),
 * creating the directory. */
gboolean ftl_index_save(const FtlIndex *idx, const char *input, GError **error);
