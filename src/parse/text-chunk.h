/* SPDX-License-Identifier: GPL-2.0-or-later */
/* One chunk of a text trace parsed on its own (on any thread): every line
 * accounted for, events made, and what needs the lines before the chunk left
 * as ops and fixes for the text source, which applies the chunks in order. */
#pragma once

#include "parse/text-line.h"

typedef enum {
	TEXT_OP_HEADER,	     /* a '#' header line: p is the text after the '#' */
	TEXT_OP_OLD_LATENCY, /* an old header line (no '#') that says "latency trace v" */
	TEXT_OP_UNPARSED,    /* a line no parser knows: p is the line */
	TEXT_OP_LONG_LINE,   /* a line longer than FTL_TEXT_MAX_LINE: len; the chunk ends */
	TEXT_OP_CPUS,	     /* trace-cmd report's "cpus=N": len is N */
} TextOpKind;

typedef struct {
	TextOpKind kind;
	guint at;      /* the index of the event it comes before */
	guint64 line;  /* line in the chunk, from 1 */
	const char *p; /* borrowed from the chunk's text */
	gsize len;
	gboolean truncated; /* UNPARSED: the input's last line, without its newline */
} TextOp;

typedef struct {
	/* FtlEvent, one per event line (a leaf's exit is not stored: the
	 * source makes it, TEXT_FIX_LEAF); line and seq count from the
	 * chunk's start, the exits' seq numbers included */
	GArray *events;
	GArray *fix;	/* guint8 TextFix per event */
	GArray *ops;	/* TextOp, in input order */
	GArray *frames; /* FtlSlice: the frames of the chunk's stack events */
	GArray *addrs;	/* guint64: the address printed with each frame, 0 if none */
	GArray *cpu_task;
	guint events_room, fix_room; /* elements events and fix hold without growing */
	FtlSourceStats stats;	     /* the chunk's lines (leaf exits counted in events) */
	guint64 seqs;		     /* seq numbers the chunk used */
	guint64 fast_lines;	     /* lines the fast path took */
	guint64 decoded;	     /* optional fields decoded (TextLine.decoded) */
	gboolean fgraph, latency, report;
	/* for the sniff: offsets of the first event or special line, of the
	 * first header line ('#' lines alone do not make a trace: a README or a
	 * mail has them) and of the first line that did not parse; G_MAXSIZE none */
	gsize first_known, first_header, first_bad;
	guint64 first_bad_line;
} TextChunk;

/* Which line parsers read function_graph lines (FTLENS_TEXT_PARSE). */
typedef enum {
	TEXT_PARSE_FAST,    /* the fast path, the general parser for what it refuses */
	TEXT_PARSE_GENERAL, /* the general parser alone, every field decoded
			     * ("general": the reference) */
	TEXT_PARSE_VERIFY,  /* both on every line the fast path takes, which must
			     * agree, else abort ("verify": for tests) */
} TextParseMode;

/* What every chunk of a source is parsed with; read-only while parsing. */
typedef struct {
	FtlSource *src;
	gint cpu_hint;
	FtlStrPool *pool;
	const TextNames *names;
	TextParseMode mode;
	guint decode; /* FtlEventFields to decode: ftl_text_decode() */
} TextChunkCtx;

/* The mode FTLENS_TEXT_PARSE names ("fast", the default, "general",
 * "verify"), read once per source. */
TextParseMode ftl_text_parse_mode(void);
/* The FtlEventFields a source parsed in mode decodes, of which a reader
 * may skip skip (FtlReadOptions.skip): all of them with "general" (the
 * reference) or FTLENS_DECODE=all (the check that every command declares
 * what it reads), read once per source. */
guint ftl_text_decode(TextParseMode mode, guint skip);

TextChunk *ftl_text_chunk_new(void);
void ftl_text_chunk_free(TextChunk *c);
/* Parses [text, text + len), whole lines (only the input's last line may lack
 * its newline), into c, which is emptied first. */
void ftl_text_chunk_parse(TextChunk *c, const TextChunkCtx *ctx, const char *text, gsize len);
/* FALSE for a line a chunk must not begin with: a stack frame (" => f")
 * belongs to the event above it. [line, end) may be cut short. */
gboolean ftl_text_chunk_can_cut(const char *line, const char *end);
