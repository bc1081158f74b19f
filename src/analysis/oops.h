/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Kernel reports (oops, BUG, WARNING, KASAN, lockdep, hung tasks, panics...)
 * found in a console log, each taken apart into its title, task, taint,
 * kernel, faulting function, registers, stack traces, modules and end
 * marker; and what the ftrace dump printed with it says led up to it. */
#pragma once

#include "analysis/pass.h"
#include <glib.h>

#include "analysis/markers.h"
#include "analysis/oops-title.h"
#include "model/console.h"
#include "model/event.h"

typedef enum {
	FTL_OOPS_OOPS,	      /* Oops, paging request, NULL pointer, Unhandled/Internal error */
	FTL_OOPS_BUG,	      /* BUG: ... (not one of the kinds below) */
	FTL_OOPS_KERNEL_BUG,  /* kernel BUG at file:line (BUG_ON) */
	FTL_OOPS_WARNING,     /* WARNING: ... at file:line */
	FTL_OOPS_GPF,	      /* general protection fault, traps (divide error, invalid opcode) */
	FTL_OOPS_SANITIZER,   /* KASAN, KFENCE, KMSAN, KCSAN, UBSAN */
	FTL_OOPS_LOCKDEP,     /* possible deadlock, inconsistent lock state, suspicious RCU usage */
	FTL_OOPS_SOFT_LOCKUP, /* watchdog: BUG: soft lockup */
	FTL_OOPS_HARD_LOCKUP, /* NMI watchdog: hard LOCKUP */
	FTL_OOPS_RCU_STALL,   /* rcu: INFO: rcu_* detected stall(s) */
	FTL_OOPS_HUNG_TASK,   /* INFO: task ... blocked for more than N seconds */
	FTL_OOPS_BAD_PAGE,    /* BUG: Bad page state / map / cache */
	FTL_OOPS_PANIC,	      /* Kernel panic - not syncing (on its own) */
	FTL_OOPS_REBOOT,      /* the machine booted again without a report */
	FTL_OOPS_OTHER,
} FtlOopsKind;

typedef struct {
	char *func;	      /* NULL when only an address was printed */
	guint64 offset, size; /* func+0xOFFSET/0xSIZE; size 0 when not printed */
	char *module;	      /* "[oops]" -> "oops", NULL for the kernel */
	char *address;	      /* hex digits as printed, NULL when none */
	char *source;	      /* "lib/list_debug.c:51" on symbolized reports, else NULL */
	gboolean inlined;     /* "[inline]" */
	gboolean reliable;    /* FALSE for "? func" and "(unreliable)" frames */
	const char *section;  /* "IRQ", "SOFTIRQ", "NMI", "TASK", "EXCEPTION" or NULL; static */
	guint line;	      /* index of its console line */
} FtlOopsFrame;

typedef struct {
	char *label;	/* the line that introduced it ("Call Trace:"), NULL if none */
	guint line;	/* index of the first frame's console line */
	GArray *frames; /* FtlOopsFrame */
	/* its lines were printed mixed with another CPU's (printk caller ids
	 * between its frames, or times that go back): with caller ids the
	 * others were set apart and these frames are its own; without, some
	 * may be the other CPU's */
	gboolean interleaved;
	/* the CPU it was running on: "NMI backtrace for cpu N", else the
	 * "CPU: N PID:" line before it, else a [CN] caller id; -1 when not
	 * said, or for a task that was not running ("task:NAME state:S") */
	gint cpu;
	gint32 caller; /* printk caller id of its lines, -1 none */
	char caller_kind;
} FtlOopsStack;

typedef struct {
	char *name;  /* as printed: "RIP", "x29", "GPR04" */
	char *value; /* as printed */
} FtlOopsReg;

/* One register dump, with the context it belongs to. */
typedef struct {
	/* static: "report" (where the report was made), "user" (user mode:
	 * RIP: 0033:, "User PSW"), "interrupted" (after an IRQ or NMI section
	 * of a trace: the context the interrupt came in), "exception" (after
	 * "--- interrupt:"), "nmi-backtrace" (another CPU's, answering "Sending
	 * NMI"), "other" */
	const char *context;
	gint cpu;     /* as FtlOopsStack.cpu */
	guint line;   /* console line index of its first line */
	GArray *regs; /* FtlOopsReg */
	/* where that CPU was: the kernel-mode RIP/EIP/pc/PC/NIP/epc the dump
	 * names as a function (pc_reg static), has_pc FALSE when none */
	gboolean has_pc;
	FtlOopsFrame pc;
	const char *pc_reg;
} FtlOopsRegs;

typedef struct {
	FtlOopsKind kind;
	char *title;	    /* one line, syzbot's conventions */
	char *blamed;	    /* the function the title names, NULL if none */
	gboolean corrupted; /* too damaged (mixed with other output, cut) for its title rule */
	gboolean cut;	    /* the log ends inside it */
	char *header;	    /* the text of its first line */
	guint first, last;  /* console line indexes it spans ("cut here" lines included) */
	guint header_line;  /* console line index of its header */
	guint n_lines;	    /* console lines that belong to it */
	gint32 caller;	    /* printk caller id of its lines, -1 none */
	char caller_kind;
	gint64 ts; /* printk time of the first line, FTL_TS_NONE */
	/* the task and kernel, from "CPU: 1 PID: 22 Comm: sh Not tainted 6.1.0 #1" */
	gint cpu, pid; /* -1 when not printed */
	const char *arch; /* "x86_64", "arm64", "s390"... (static), NULL when unknown */
	char *comm, *taint, *release, *build, *hardware;
	gboolean tainted;
	/* where the CPU was: RIP/IP (x86), PC/pc (arm, arm64), NIP (ppc), epc
	 * (riscv); never another CPU's (its NMI backtrace's register dump: that
	 * dump's pc says where it was) */
	gboolean has_fault;
	FtlOopsFrame fault;
	char *fault_reg;
	/* the return address beside it: lr (arm64), LR is at (arm), LR (ppc) */
	gboolean has_link;
	FtlOopsFrame link;
	char *link_reg;
	char *location;	    /* WARNING / kernel BUG "at file:line" */
	char *oops;	    /* "Oops: 0002 [#1] SMP", "invalid opcode: 0000 [#1]..." */
	char *panic;	    /* the reason after "Kernel panic - not syncing: " */
	char *end_marker;   /* "---[ end trace 1234 ]---" */
	GPtrArray *modules; /* char*, "Modules linked in:" */
	char *last_unloaded;
	GArray *regs;	   /* FtlOopsReg, the report's own register dump */
	GPtrArray *reg_blocks; /* FtlOopsRegs*: every register dump, in order */
	GPtrArray *stacks; /* FtlOopsStack* */
	GArray *dumps;	   /* guint indexes of the console's ftrace dumps printed with it */
	/* the same for the same bug on any machine and kernel: the normalized
	 * title, " @ ", and its top call trace frames (" < " between them),
	 * without offsets, addresses, compiler clone suffixes and the frames of
	 * the reporting machinery; signature_id is 16 hex digits of its SHA-256 */
	char *signature, *signature_id;
	/* private */
	gboolean open_at_end, sanitizer_open;
} FtlOopsReport;

typedef struct _FtlOops FtlOops;

/* Finds every report in con (borrowed only during the call). Free with
 * ftl_oops_free(). Reports are in the order their first line appears. */
FtlOops *ftl_oops_find(const FtlConsole *con);
/* The same with rules compiled once by the caller (ftl_oops_titler_new()):
 * compiling them costs more than reading a short log. */
FtlOops *ftl_oops_find_with(const FtlConsole *con, const FtlOopsTitler *titler);
void ftl_oops_free(FtlOops *o);
guint ftl_oops_count(const FtlOops *o);
/* Borrowed; lives as long as o. */
const FtlOopsReport *ftl_oops_get(const FtlOops *o, guint i);
/* The stack that shows where the report was made ("Call Trace:"...), NULL if
 * the report has none. */
const FtlOopsStack *ftl_oops_report_trace(const FtlOopsReport *r);
/* The CPU of the report that ftrace dump d (an index into the console's
 * dumps) was printed with, -1 when no report says. */
gint ftl_oops_dump_cpu(const FtlOops *o, guint d);
/* Sets r's signature and signature_id (analysis/oops-sig.c). */
void ftl_oops_sign(FtlOopsReport *r, const FtlOopsTitler *t);
/* Static names: "oops", "bug", "kernel-bug", "warning"... */
const char *ftl_oops_kind_name(FtlOopsKind kind);

G_DEFINE_AUTOPTR_CLEANUP_FUNC(FtlOops, ftl_oops_free)

/* ---- what the recovered trace says led up to the report ------------------- */

typedef struct {
	guint64 line; /* line in the recovered trace text */
	gint64 ts;
	gint32 pid;
	FtlEventKind kind;
	char *text; /* the event's line(s), as printed */
} FtlOopsEvent;

typedef struct {
	gint32 cpu;
	guint64 events;	     /* events on this CPU, synthesized exits included */
	guint64 event_lines; /* trace lines that made them */
	guint64 lost;	     /* events the kernel said it lost */
	FtlOopsEvent *last;  /* the last ones, oldest first */
	guint n_last;
} FtlOopsCpu;

typedef struct {
	const char *func; /* borrowed from the trace's pool */
	gint depth;
	guint64 line; /* line in the recovered trace of the entry */
} FtlOopsOpenCall;

typedef struct _FtlOopsTrail FtlOopsTrail;

/* Keeps the last n events of every CPU and the call path still open on
 * crash_cpu (-1: the CPU of the last function event) at the end. Feed it
 * every event of the recovered trace. Free with ftl_oops_trail_free(). */
FtlOopsTrail *ftl_oops_trail_new(guint n, gint crash_cpu);
void ftl_oops_trail_free(FtlOopsTrail *t);
void ftl_oops_trail_feed(FtlOopsTrail *t, const FtlEvent *ev);
void ftl_oops_trail_finish(FtlOopsTrail *t);
/* The oops trail analysis as a pass consumer (analysis/pass.h). */
extern const FtlConsumerClass ftl_oops_trail_consumer;
/* After finish; borrowed, as long as t (func names as long as the trace). */
guint ftl_oops_trail_n_cpus(const FtlOopsTrail *t);
const FtlOopsCpu *ftl_oops_trail_cpu(const FtlOopsTrail *t, guint i);
/* The open call path, outermost first, on *cpu (set to the CPU it is on, or
 * -1 when there is none). */
const FtlOopsOpenCall *ftl_oops_trail_open(const FtlOopsTrail *t, guint *n, gint *cpu);
const FtlMarkers *ftl_oops_trail_markers(const FtlOopsTrail *t);

G_DEFINE_AUTOPTR_CLEANUP_FUNC(FtlOopsTrail, ftl_oops_trail_free)
