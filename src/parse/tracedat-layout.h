/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Where a trace.dat keeps its ring-buffer data: buffers, per-CPU extents,
 * compression, and the options ftlens reads itself. Private to parse/. */
#pragma once

#include <glib.h>

typedef struct {
	guint32 cpu;
	guint64 offset; /* in the file */
	guint64 size;	/* bytes in the file (compressed bytes when compressed) */
} FtlDatCpu;

typedef struct {
	char *name;	   /* "" for the top buffer */
	char *clock;	   /* the buffer's clock (version 7), NULL when not said */
	guint32 page_size; /* the buffer's page size (version 7), else the file's */
	gboolean latency;  /* text, not pages: only libtracecmd reads those */
	GArray *cpus;	   /* FtlDatCpu, in the order the file lists them */
} FtlDatBuffer;

typedef enum {
	FTL_DAT_COMPRESS_NONE,
	FTL_DAT_COMPRESS_ZLIB,
	FTL_DAT_COMPRESS_ZSTD,
	FTL_DAT_COMPRESS_OTHER, /* a name ftlens does not know */
} FtlDatCompress;

typedef struct {
	guint version;	   /* 6 or 7 (older files are refused by libtracecmd) */
	gboolean big_endian;
	guint long_size;   /* 4 or 8: the tracing machine's user space long */
	guint32 page_size; /* the ring-buffer page size */
	guint64 file_size;
	FtlDatCompress compress;
	char *compress_name; /* as the file names it, NULL when not compressed */
	GPtrArray *buffers;  /* FtlDatBuffer*: the top buffer first when the file has one */
	char *trace_clock;   /* tracefs's trace_clock text ("[local] global ..."), or NULL */
	char *uname;	     /* the UNAME option ("Linux host RELEASE ..."), or NULL */
	GString *cpustats;   /* the CPUSTAT options joined as libtracecmd joins them */
	/* The file asks for timestamps to be moved or scaled (DATE, OFFSET,
	 * TSC2NSEC, TIME_SHIFT options): only libtracecmd's reader applies
	 * those. A static string naming the first such option, else NULL. */
	const char *ts_option;
	guint32 cpu_count; /* CPUs of the tracing machine (0 when not said) */
} FtlDatLayout;

/* Walks the file's headers and options without trusting a size in them:
 * every size and offset is checked against the file (and a compressed
 * section's claimed size against its compressed bytes) before anything is
 * read or allocated by its measure. NULL with error set (naming the file,
 * the part and the offset) when the file is damaged or not a trace.dat of
 * version 6 or 7. Free with ftl_dat_layout_free(). */
FtlDatLayout *ftl_dat_layout_read(const char *path, GError **error);
void ftl_dat_layout_free(FtlDatLayout *layout);
/* Whether libtracecmd 1.3's reading of a HOOK option's text arg finds all
 * its parts ("[SYS:]EVENT,MATCH[,PID]/[SYS:]EVENT,MATCH[,FLAGS]"): it
 * dereferences NULL on one that does not. */
gboolean ftl_dat_hook_parses(const char *arg);

/* Decompresses one block of a compressed trace.dat (a section or a chunk of
 * CPU data): in of in_len bytes into out, which holds exactly out_len
 * bytes. FALSE when the data does not decompress to that size. */
gboolean ftl_dat_uncompress(FtlDatCompress how, const guchar *in, gsize in_len, guchar *out,
			    gsize out_len);

G_DEFINE_AUTOPTR_CLEANUP_FUNC(FtlDatLayout, ftl_dat_layout_free)
