/* SPDX-License-Identifier: GPL-2.0-or-later */
/* FtlEvent: the one event model every parser produces and every analysis reads. */
#pragma once

#include <glib.h>

#include "util/timefmt.h"

/* A borrowed, not NUL-terminated piece of input text. Like the event that
 * holds it, it lives until the source's next event: text traces are read in
 * chunks that are recycled. Keep a copy (analyses do) to hold it longer. */
typedef struct {
	const char *p;
	guint32 len;
} FtlSlice;

#define FTL_SLICE_FMT	 "%.*s"
#define FTL_SLICE_ARG(s) (int)(s).len, (s).p

typedef enum {
	FTL_EVENT_GENERIC = 0,	/* any trace event: name + payload fields */
	FTL_EVENT_FUNC_ENTRY,	/* function_graph entry "f() {" (and the entry half of a leaf) */
	FTL_EVENT_FUNC_EXIT,	/* function_graph exit "}" (synthesized for a leaf "f();") */
	FTL_EVENT_FUNC,		/* function tracer "f <-parent" */
	FTL_EVENT_MARKER,	/* trace_marker write, trace_printk, function_graph comment */
	FTL_EVENT_SCHED_SWITCH, /* sched_switch event or legacy sched_switch tracer line */
	FTL_EVENT_SCHED_WAKEUP, /* sched_wakeup / sched_wakeup_new / legacy "+" line */
	FTL_EVENT_IRQ_ENTRY,	/* irq_handler_entry, or function_graph "==========>" */
	FTL_EVENT_IRQ_EXIT,	/* irq_handler_exit, or function_graph "<==========" */
	FTL_EVENT_LOST,		/* "CPU:N [LOST N EVENTS]" and friends */
	FTL_EVENT_STACK,	/* "<stack trace>" / "<user stack trace>" with frames */
	FTL_EVENT_TASK_SWITCH,	/* function_graph task-switch separator "a-1 => b-2" */
	FTL_EVENT_BUFFER_START, /* "##### CPU N buffer started ####" */
	FTL_EVENT_N_KINDS
} FtlEventKind;

typedef enum {
	FTL_EVENT_F_SYNTH = 1u << 0,	    /* made by the parser, not on a line of its own */
	FTL_EVENT_F_TS_REL = 1u << 1,	    /* timestamp is relative (latency format) */
	FTL_EVENT_F_PID_INFERRED = 1u << 2, /* pid/comm from the last task switch, not the line */
	FTL_EVENT_F_COMMENT = 1u << 3,	    /* printed as a function_graph comment */
	FTL_EVENT_F_TS_COUNTER = 1u << 4,   /* timestamp is a raw counter, not ns */
	/* the payload text its source renders (ftl_source_payload()) is known
	 * to need no escaping: printable ASCII, no backslash */
	FTL_EVENT_F_PLAIN_TEXT = 1u << 5,
} FtlEventFlags;

/* The members of an event a reader decodes only for a consumer that reads
 * them (a command declares the ones its analyses and views read:
 * FtlCommand.fields; readers get the rest as FtlReadOptions.skip). Time, CPU,
 * pid, tgid, kind, name, flags, depth, payload and raw text, a marker's
 * text, a LOST line's count and a stack's frames are always there. An
 * undecoded member keeps its empty value (NULL, FTL_TS_NONE, -1, ""). */
typedef enum {
	FTL_FIELD_FUNC = 1u << 0,     /* u.graph.func, u.fn.func, u.fn.parent */
	FTL_FIELD_COMM = 1u << 1,     /* comm, u.sw.prev_comm/next_comm, u.wake.comm */
	FTL_FIELD_DURATION = 1u << 2, /* u.graph.duration and mark (an event with a time
				       * has them anyway: a leaf's exit is timed by them) */
	FTL_FIELD_RETVAL = 1u << 3,   /* u.graph.retval, has_retval, retval_hex */
	FTL_FIELD_PAYLOAD = 1u << 4,  /* u.sw, u.wake and u.irq beyond their kind;
				       * u.fn.repeats and last_ts */
	FTL_FIELD_LAT = 1u << 5,      /* lat */
	FTL_FIELDS_ALL = (1u << 6) - 1,
	/* not a member, and not in FTL_FIELDS_ALL: the payload text of a
	 * binary input (ftl_source_payload()) is read for every event, so a
	 * reader may render it ahead (FtlReadOptions.eager) */
	FTL_FIELD_TEXT = 1u << 6,
} FtlEventFields;

typedef enum {
	FTL_MARKER_TRACE_MARKER, /* tracing_mark_write / print */
	FTL_MARKER_PRINTK,	 /* bprint / bputs (trace_printk) */
	FTL_MARKER_COMMENT,	 /* function_graph comment of unknown origin */
} FtlMarkerOrigin;

typedef struct _FtlSource FtlSource;

typedef struct {
	gint64 ts;	/* ns since the trace clock's origin; FTL_TS_NONE when the input has none */
	guint64 seq;	/* input order within the source: the final tie-break */
	guint64 line;	/* 1-based line in the source file (0 for binary inputs) */
	FtlSource *src; /* where it came from: file name, field access */
	gint32 cpu;	/* -1 when unknown */
	gint32 pid;	/* -1 when unknown */
	gint32 tgid;	/* -1 when unknown */
	guint32 flags;	/* FtlEventFlags */
	FtlEventKind kind;
	char lat[8]; /* latency flags as printed ("d.h1."), NUL-terminated, "" if none */
	const char
		*name; /* interned event name, e.g. "sched_switch", "funcgraph_entry", "function" */
	/* interned event system ("sched", "ftrace") when the input says it
	 * (binary formats); NULL otherwise (text: see ftl_event_system_guess) */
	const char *system;
	const char *comm; /* interned task name; NULL when the input has "<...>" or none */
	FtlSlice payload; /* the text after the event name, for field access and dump */
	FtlSlice raw;	  /* text inputs: the input line(s) as read, without the final
			   * newline (a stack event spans its frame lines); else empty */
	union {
		struct {
			const char *func; /* interned; NULL for a bare "}" */
			gint32 depth;	  /* nesting depth as printed (0 = outermost) */
			gint64 duration;  /* ns as printed, FTL_TS_NONE if absent */
			gint64 retval;
			gboolean has_retval;
			gboolean retval_hex; /* printed in hex (funcgraph-retval-hex, pointers) */
			char mark;	     /* duration mark: ' ', '+', '!', '#', '*', '@', '$' */
		} graph;
		struct {
			const char *func;   /* interned */
			const char *parent; /* interned; NULL if none */
			guint32 repeats;    /* "(repeats: N, ...)", 0 otherwise */
			gint64 last_ts;
		} fn;
		struct {
			FtlSlice text;
			/* where it was written from, as the trace names it:
			 * "tracing_mark_write", a function, or an address
			 * when unresolved; empty when the input has none */
			FtlSlice caller;
			FtlMarkerOrigin origin;
		} marker;
		struct {
			const char *prev_comm; /* interned, may be NULL */
			gint32 prev_pid;
			gint32 prev_prio;
			FtlSlice prev_state;
			const char *next_comm;
			gint32 next_pid;
			gint32 next_prio;
		} sw;
		struct {
			const char *comm;
			gint32 pid;
			gint32 prio;
			gint32 target_cpu;
		} wake;
		struct {
			gint32 irq; /* -1 when not printed */
			FtlSlice name;
			gint32 ret;
		} irq;
		struct {
			guint64 count; /* 0 when the input says events were lost but not how many */
		} lost;
		struct {
			const FtlSlice *frames; /* borrowed until the next event */
			/* beside each frame, the address the input printed with
			 * it ("=> func (ffffffff8108a9a0)": the frame is "func"),
			 * 0 where it printed none; NULL when the source gives
			 * no addresses */
			const guint64 *addrs;
			guint32 n_frames;
		} stack;
	} u;
} FtlEvent;

const char *ftl_event_kind_name(FtlEventKind kind);
/* Looks up "key=value" in a GENERIC-style payload. The value runs to the next
 * " word=" or the end, so values with spaces (comm=Web Content) survive.
 * Binary inputs have no payload text: their source reads the field from the
 * record (FtlSourceOps.field), so this works on every input. */
gboolean ftl_event_field(const FtlEvent *ev, const char *key, FtlSlice *value);
/* Walks the payload's key=value pairs: start with *pos = 0. */
gboolean ftl_payload_next_field(FtlSlice payload, guint32 *pos, FtlSlice *key, FtlSlice *value);
gboolean ftl_slice_eq(FtlSlice s, const char *str);
gboolean ftl_slice_to_i64(FtlSlice s, gint64 *out);
/* The leading integer of field key ("vec=3 [action=NET_RX]" gives 3,
 * "target_cpu=001" gives 1); FALSE when the field is absent or not a number. */
gboolean ftl_event_field_int(const FtlEvent *ev, const char *key, gint64 *out);
