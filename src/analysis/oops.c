/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Kernel reports in a console log: which lines make each one (printk
 * contexts keep reports from different CPUs apart; a silence, a new boot or
 * an end marker closes one), its title, and the ftrace dumps printed with
 * it. oops-lines.c reads what the lines say (task, taint, kernel, faulting
 * function, registers, stack traces, modules); oops-trail.c what the dump
 * shows happened before. */
#include "analysis/oops.h"

#include <string.h>

#include "analysis/oops-arch.h"
#include "analysis/oops-lines.h"
#include "analysis/oops-title.h"

/* A report's lines come out in one burst: a longer silence in its printk
 * context ends it. */
#define OOPS_BURST_NS ((gint64)10 * 1000000000)
/* Lines after the end marker in which the panic it caused still joins it. */
#define OOPS_PANIC_WINDOW 40
/* syzbot leaves the panic out of a title once a report has this many lines
 * (syzkaller's pkg/report/linux.go, findReport(); oops-title.c says more). */
#define OOPS_TITLE_MIN_LINES	   22
#define OOPS_TITLE_MIN_LINES_KMSAN 16
/* How far back the lines that lead a report may go (syzkaller keeps up to
 * 50 lines before a report when printk caller ids name its task). */
#define OOPS_PREFIX_MAX 50
#define OOPS_PREFIX_NS	((gint64)2 * 1000000000)

struct _FtlOops {
	GPtrArray *reports; /* FtlOopsReport* */
};

/* ---- small helpers ---------------------------------------------------------- */

static void oops_report_free(FtlOopsReport *r)
{
	g_free(r->title);
	g_free(r->signature);
	g_free(r->signature_id);
	g_free(r->blamed);
	g_free(r->header);
	g_free(r->comm);
	g_free(r->taint);
	g_free(r->release);
	g_free(r->build);
	g_free(r->hardware);
	ftl_oops_frame_clear(&r->fault);
	g_free(r->fault_reg);
	ftl_oops_frame_clear(&r->link);
	g_free(r->link_reg);
	g_free(r->location);
	g_free(r->oops);
	g_free(r->panic);
	g_free(r->end_marker);
	g_ptr_array_unref(r->modules);
	g_free(r->last_unloaded);
	ftl_oops_regs_array_free(r->regs);
	g_ptr_array_unref(r->reg_blocks);
	g_ptr_array_unref(r->stacks);
	g_array_unref(r->dumps);
	g_free(r);
}

void ftl_oops_free(FtlOops *o)
{
	if (!o)
		return;
	g_ptr_array_unref(o->reports);
	g_free(o);
}

guint ftl_oops_count(const FtlOops *o)
{
	return o->reports->len;
}

const FtlOopsReport *ftl_oops_get(const FtlOops *o, guint i)
{
	return g_ptr_array_index(o->reports, i);
}

const char *ftl_oops_kind_name(FtlOopsKind kind)
{
	static const char *const names[] = {
		[FTL_OOPS_OOPS] = "oops",
		[FTL_OOPS_BUG] = "bug",
		[FTL_OOPS_KERNEL_BUG] = "kernel-bug",
		[FTL_OOPS_WARNING] = "warning",
		[FTL_OOPS_GPF] = "trap",
		[FTL_OOPS_SANITIZER] = "sanitizer",
		[FTL_OOPS_LOCKDEP] = "lockdep",
		[FTL_OOPS_SOFT_LOCKUP] = "soft-lockup",
		[FTL_OOPS_HARD_LOCKUP] = "hard-lockup",
		[FTL_OOPS_RCU_STALL] = "rcu-stall",
		[FTL_OOPS_HUNG_TASK] = "hung-task",
		[FTL_OOPS_BAD_PAGE] = "bad-page",
		[FTL_OOPS_PANIC] = "panic",
		[FTL_OOPS_REBOOT] = "reboot",
		[FTL_OOPS_OTHER] = "other",
	};
	return (guint)kind < G_N_ELEMENTS(names) ? names[kind] : "other";
}

gint ftl_oops_dump_cpu(const FtlOops *o, guint d)
{
	for (guint i = 0; i < ftl_oops_count(o); i++) {
		const FtlOopsReport *r = ftl_oops_get(o, i);
		for (guint k = 0; k < r->dumps->len; k++)
			if (g_array_index(r->dumps, guint, k) == d)
				return r->cpu;
	}
	return -1;
}

const FtlOopsStack *ftl_oops_report_trace(const FtlOopsReport *r)
{
	for (guint i = 0; i < r->stacks->len; i++) {
		const FtlOopsStack *s = g_ptr_array_index(r->stacks, i);
		if (s->label && (g_ascii_strncasecmp(s->label, "call trace", 10) == 0 ||
				 g_str_has_prefix(s->label, "Backtrace") ||
				 strstr(s->label, "stack backtrace")))
			return s;
	}
	return r->stacks->len ? g_ptr_array_index(r->stacks, 0) : NULL;
}

/* ---- finding reports ---------------------------------------------------------- */

typedef struct OopsBuild_ {
	FtlOopsReport *r;
	gint family;
	GArray *lines; /* guint console line indexes */
	gint64 key;    /* printk context */
	gint64 last_ts;
	guint last_line; /* index of its last line */
	gboolean ended;	 /* its end marker was printed */
	gboolean fatal;	 /* ... and then the panic it caused: only its trailer joins */
	gboolean closed; /* nothing joins it any more */
	/* the sanitizer report open in its context when it began (a WARNING
	 * inside a KMSAN report): its rule is yet to come, so it goes on once
	 * this one has ended */
	struct OopsBuild_ *displaced;
	gboolean nmi;	    /* "Sending NMI from CPU": other CPUs' backtraces follow */
	gboolean sanitizer; /* KASAN-like: a "=====" rule closes it */
} OopsBuild;

static void oops_build_free(OopsBuild *b)
{
	if (b->lines)
		g_array_unref(b->lines);
	g_free(b);
}

static FtlOopsKind oops_kind(gint family, const char *s)
{
	const char *h = ftl_oops_family_header(family);
	if (!strcmp(h, "BUG:")) {
		if (strstr(s, "KASAN:") || strstr(s, "KFENCE:") || strstr(s, "KMSAN:") ||
		    strstr(s, "KCSAN:"))
			return FTL_OOPS_SANITIZER;
		if (strstr(s, "soft lockup"))
			return FTL_OOPS_SOFT_LOCKUP;
		if (strstr(s, "Bad page"))
			return FTL_OOPS_BAD_PAGE;
		if (strstr(s, "nable to handle") || strstr(s, "NULL pointer dereference"))
			return FTL_OOPS_OOPS;
		if (strstr(s, "spinlock ") || strstr(s, "rwlock ") || strstr(s, "lock held") ||
		    strstr(s, "held lock") || strstr(s, "unlock balance") ||
		    strstr(s, "locks held") || strstr(s, "Invalid wait context"))
			return FTL_OOPS_LOCKDEP;
		return FTL_OOPS_BUG;
	}
	if (!strcmp(h, "WARNING:") || !strcmp(h, "INFO:")) {
		static const char *const lockdep[] = {
			"locking dependency", "recursive locking",  "inconsistent lock state",
			"lock inversion",     "-unsafe lock order", "suspicious RCU usage",
			"Nested lock",	      "unlock balance",	    "held lock freed",
			"lock held when",     "locks held",	    "non-static key",
		};
		for (guint i = 0; i < G_N_ELEMENTS(lockdep); i++)
			if (strstr(s, lockdep[i]))
				return FTL_OOPS_LOCKDEP;
		if (strstr(s, "INFO: rcu_") && strstr(s, "stall"))
			return FTL_OOPS_RCU_STALL;
		if (strstr(s, "INFO: task ") &&
		    (strstr(s, " blocked for more than") || strstr(s, "can't die")))
			return FTL_OOPS_HUNG_TASK;
		return h[0] == 'W' ? FTL_OOPS_WARNING : FTL_OOPS_OTHER;
	}
	static const struct {
		const char *header;
		FtlOopsKind kind;
	} by_header[] = {
		{ "Unable to handle kernel", FTL_OOPS_OOPS },
		{ "general protection fault", FTL_OOPS_GPF },
		{ "stack segment: ", FTL_OOPS_GPF },
		{ "Kernel panic", FTL_OOPS_PANIC },
		{ "PANIC: double fault", FTL_OOPS_GPF },
		{ "kernel BUG", FTL_OOPS_KERNEL_BUG },
		{ "Kernel BUG", FTL_OOPS_KERNEL_BUG },
		{ "BUG kmalloc-", FTL_OOPS_BUG },
		{ "divide error:", FTL_OOPS_GPF },
		{ "divide_error:", FTL_OOPS_GPF },
		{ "invalid opcode:", FTL_OOPS_GPF },
		{ "UBSAN:", FTL_OOPS_SANITIZER },
		{ "Booting the kernel.", FTL_OOPS_REBOOT },
		{ "Internal error:", FTL_OOPS_OOPS },
		{ "Unhandled fault:", FTL_OOPS_OOPS },
		{ "Alignment trap:", FTL_OOPS_OOPS },
		{ "hard LOCKUP", FTL_OOPS_HARD_LOCKUP },
		{ "Oops", FTL_OOPS_OOPS },
	};
	for (guint i = 0; i < G_N_ELEMENTS(by_header); i++)
		if (!strcmp(h, by_header[i].header))
			return by_header[i].kind;
	return FTL_OOPS_OTHER;
}

/* Headers that, printed while a report is open in the same context, belong
 * to it: the oops line after "BUG: unable to handle", the panic a report
 * caused, the arm "Internal error" after "Unhandled fault". */
static gboolean oops_continues(gint family, const char *s)
{
	const char *h = ftl_oops_family_header(family);
	static const char *const cont[] = {
		"Kernel panic",
		"PANIC: double fault",
		"Internal error:",
		"Oops",
		"unregister_netdevice: waiting for",
	};
	for (guint i = 0; i < G_N_ELEMENTS(cont); i++)
		if (!strcmp(h, cont[i]))
			return TRUE;
	if (strstr(s, "invalid opcode: 0000"))
		return TRUE;
	/* the detail lines of a SLUB debug report ("BUG kmalloc-4096 (Not
	 * tainted): Poison overwritten"), also inside old KASAN reports */
	static const char *const slub[] = {
		"INFO: 0x",	   "INFO: Allocated in ", "INFO: Freed in ", "INFO: Slab 0x",
		"INFO: Object 0x", "INFO: Freepointer ",  "INFO: Padding ",
	};
	if (strcmp(h, "INFO:"))
		return FALSE;
	for (guint i = 0; i < G_N_ELEMENTS(slub); i++)
		if (strstr(s, slub[i]))
			return TRUE;
	return FALSE;
}

/* What a panic prints after its reason line: nothing of these belongs to
 * another report. */
static gboolean oops_panic_trailer(const char *s)
{
	static const char *const trailer[] = {
		"---[ end Kernel panic", "Kernel Offset:",	   "Rebooting in ",
		"SMP: stopping",	 "CPU features:",	   "Memory Limit:",
		"Shutting down cpus",	 "Dumping ftrace buffer:", "(ftrace buffer empty)",
	};
	for (guint i = 0; i < G_N_ELEMENTS(trailer); i++)
		if (g_str_has_prefix(s, trailer[i]))
			return TRUE;
	return FALSE;
}

static gboolean oops_is_rule_of(const char *s, char c, gsize min)
{
	s = oops_trim(s);
	gsize n = strspn(s, (char[]){ c, 0 });
	return n >= min && *oops_trim(s + n) == 0;
}

static gboolean oops_cut_here(const char *s)
{
	return strstr(s, "[ cut here ]") || strstr(s, "8<--- cut here");
}

static void oops_build_add(OopsBuild *b, guint i, const FtlConsoleLine *l)
{
	g_array_append_val(b->lines, i);
	b->last_line = i;
	if (l->ts != FTL_TS_NONE)
		b->last_ts = l->ts;
}

/* ---- one report ---------------------------------------------------------------- */

/* The text a title is made from: the report's own lines, without the
 * unreliable frames and the noise syzbot leaves out too. */
static char *oops_title_text(const FtlOopsReport *r, const FtlConsole *con, GArray *lines,
			     gboolean has_context)
{
	GString *s = g_string_new(NULL);
	guint taken = 0;
	guint min_lines = strstr(r->header, "BUG: KMSAN:") ? OOPS_TITLE_MIN_LINES_KMSAN
							   : OOPS_TITLE_MIN_LINES;
	for (guint k = 0; k < lines->len; k++) {
		const FtlConsoleLine *l = ftl_console_line(con, g_array_index(lines, guint, k));
		const char *t = l->text;
		if (k > 0 && has_context) {
			const char *q = strstr(t, " ? ");
			if ((q || g_str_has_prefix(t, "? ")) && !strstr(t, "<EOI>"))
				continue;
			if (oops_ends_with(t, " (unreliable)"))
				continue;
		}
		if (k > 0 && strstr(t, "Disabling lock debugging due to kernel taint"))
			continue;
		taken++;
		if (k > 0 && taken > min_lines &&
		    (strstr(t, "Kernel panic - not syncing") ||
		     strstr(t, "WARNING: possible circular locking dependency detected")))
			break;
		g_string_append(s, t);
		g_string_append_c(s, '\n');
	}
	return g_string_free(s, FALSE);
}

/* The log stops inside a report when its last line, or the last line of a
 * dump printed with it, is the log's, and it has no end marker nor a panic
 * that would have stopped the machine. */
static void oops_mark_cut(FtlOopsReport *r, const FtlConsole *con)
{
	guint last = r->last;
	for (guint k = 0; k < r->dumps->len; k++) {
		const FtlConsoleDump *d =
			g_ptr_array_index(con->dumps, g_array_index(r->dumps, guint, k));
		last = MAX(last, d->end);
	}
	if (r->end_marker || r->panic || !r->open_at_end || last + 1 < con->lines->len)
		return;
	const FtlConsoleLine *l = ftl_console_line(con, last);
	gboolean needs_end = r->kind == FTL_OOPS_OOPS || r->kind == FTL_OOPS_GPF ||
			     r->kind == FTL_OOPS_KERNEL_BUG || r->kind == FTL_OOPS_WARNING ||
			     r->sanitizer_open;
	r->cut = (l->flags & FTL_CONSOLE_LINE_CUT) || r->n_lines < 3 || needs_end;
	if (r->cut)
		ftl_diags_add(con->diags, FTL_DIAG_REPORT_CUT,
			      &(FtlDiagLoc){ con->path,
					     ftl_console_line(con, r->header_line)->lineno,
					     r->cpu },
			      r->header, -1, 0);
}

/* Lines printed just before a report's first line that belong to it: back
 * to its "cut here" or "=====" line, or, with printk caller ids, the rest of
 * the burst in its context ("Insufficient stack space..." before a panic). */
static GArray *oops_prefix(const FtlConsole *con, const OopsBuild *b, const guint8 *owned)
{
	GArray *pre = g_array_new(FALSE, FALSE, sizeof(guint));
	const FtlConsoleLine *head = ftl_console_line(con, b->r->first);
	gboolean marker = FALSE;
	for (guint i = b->r->first; i-- > 0 && pre->len < OOPS_PREFIX_MAX;) {
		const FtlConsoleLine *l = ftl_console_line(con, i);
		if (owned[i] || (l->flags & FTL_CONSOLE_LINE_DUMP))
			break;
		if (oops_context(l) != b->key)
			continue;
		if (head->ts != FTL_TS_NONE && l->ts != FTL_TS_NONE &&
		    (l->ts > head->ts || head->ts - l->ts > OOPS_PREFIX_NS))
			break;
		g_array_prepend_val(pre, i);
		const char *s = oops_trim(l->text);
		if (oops_cut_here(s) || oops_is_rule_of(s, '=', 40)) {
			marker = TRUE;
			break;
		}
	}
	if (!marker && !b->r->caller_kind)
		g_array_set_size(pre, 0);
	return pre;
}

/* The lines a title is read from. With printk caller ids, every later line
 * of the report's task or CPU counts, as for syzbot: a report that another
 * one interrupts (an oops inside a lockdep splat) finishes in its lines. */
static GArray *oops_title_lines(const FtlConsole *con, const FtlOopsReport *r, GArray *own)
{
	if (!r->caller_kind)
		return g_array_ref(own);
	GArray *lines = g_array_new(FALSE, FALSE, sizeof(guint));
	const FtlConsoleLine *head = ftl_console_line(con, r->first);
	gboolean nmi = FALSE;
	for (guint i = r->first; i < con->lines->len; i++) {
		const FtlConsoleLine *l = ftl_console_line(con, i);
		if (l->flags & FTL_CONSOLE_LINE_DUMP)
			continue;
		if (!ftl_console_same_context(l, head) && !(nmi && l->caller_kind == 'C'))
			continue;
		g_array_append_val(lines, i);
		nmi |= strstr(l->text, "Sending NMI from CPU") != NULL;
	}
	return lines;
}

static FtlOopsReport *oops_report_new(void)
{
	FtlOopsReport *r = g_new0(FtlOopsReport, 1);
	r->cpu = r->pid = -1;
	r->ts = FTL_TS_NONE;
	r->modules = g_ptr_array_new_with_free_func(g_free);
	r->regs = g_array_new(FALSE, FALSE, sizeof(FtlOopsReg));
	r->reg_blocks = g_ptr_array_new_with_free_func((GDestroyNotify)ftl_oops_regs_free);
	r->stacks = g_ptr_array_new_with_free_func((GDestroyNotify)ftl_oops_stack_free);
	r->dumps = g_array_new(FALSE, FALSE, sizeof(guint));
	return r;
}

/* The pass over the console's lines that groups them into reports. */
typedef struct {
	const FtlConsole *con;
	const FtlOopsTitler *titler;
	GPtrArray *builds; /* OopsBuild*, in the order their headers appear */
	GHashTable *open;  /* printk context -> the OopsBuild open in it */
	/* the sanitizer report a "cut here" line just interrupted: the report
	 * that follows in its context takes its place until it ends */
	struct OopsBuild_ *cut;
	gboolean seen_kernel;
} OopsFind;

/* A silence, a new boot, a "cut here" line, or the end of the window in
 * which a panic may follow its end marker: the report open in the
 * context of line i takes no more lines. */
static gboolean oops_build_ends(const OopsBuild *b, guint i, const FtlConsoleLine *l, const char *s)
{
	return (l->ts != FTL_TS_NONE && b->last_ts != FTL_TS_NONE &&
		(l->ts > b->last_ts + OOPS_BURST_NS || l->ts + 1000000000 < b->last_ts)) ||
	       g_str_has_prefix(s, "Linux version ") || oops_cut_here(s) ||
	       (b->ended && i > b->last_line + OOPS_PANIC_WINDOW);
}

/* The family of the report line l opens, or -1. */
static gint oops_find_family(OopsFind *f, const FtlConsoleLine *l, const char *s)
{
	gint fam =
		g_str_has_prefix(s, "---[ end") ? -1 : ftl_oops_titler_header(f->titler, l->text);
	if (fam >= 0 && !strcmp(ftl_oops_family_header(fam), "Booting the kernel.") &&
	    !f->seen_kernel)
		fam = -1; /* the first boot of the log, not a reboot */
	if (l->ts != FTL_TS_NONE || fam >= 0)
		f->seen_kernel = TRUE;
	return fam;
}

/* The panic a report that just ended caused (panic_on_warn): the last
 * report of context key, open again when line i follows it closely enough;
 * NULL when there is none. */
static OopsBuild *oops_find_reopen(OopsFind *f, gint64 key, guint i, const FtlConsoleLine *l)
{
	for (guint k = f->builds->len; k-- > 0;) {
		OopsBuild *o = g_ptr_array_index(f->builds, k);
		if (o->key != key)
			continue;
		if (i <= o->last_line + OOPS_PANIC_WINDOW &&
		    (l->ts == FTL_TS_NONE || o->last_ts == FTL_TS_NONE ||
		     l->ts <= o->last_ts + OOPS_BURST_NS)) {
			o->closed = FALSE;
			g_hash_table_insert(f->open, &o->key, o);
			return o;
		}
		return NULL;
	}
	return NULL;
}

/* A report begins at header line i of family fam; it takes the place of
 * the one open in its context, b (may be NULL). */
static void oops_find_open(OopsFind *f, OopsBuild *b, gint fam, gint64 key, guint i,
			   const FtlConsoleLine *l, const char *s)
{
	OopsBuild *nb = g_new0(OopsBuild, 1);
	nb->r = oops_report_new();
	nb->family = fam;
	nb->key = key;
	nb->lines = g_array_new(FALSE, FALSE, sizeof(guint));
	nb->last_ts = FTL_TS_NONE;
	nb->sanitizer = strstr(s, "KASAN:") || strstr(s, "KFENCE:") || strstr(s, "KMSAN:") ||
			strstr(s, "KCSAN:") || strstr(s, "UBSAN:");
	nb->r->first = i;
	nb->r->header = g_strdup(s);
	g_strchomp(nb->r->header);
	nb->r->ts = l->ts;
	nb->r->caller = l->caller;
	nb->r->caller_kind = l->caller_kind;
	nb->r->kind = oops_kind(fam, s);
	oops_build_add(nb, i, l);
	g_ptr_array_add(f->builds, nb);
	if (!b && f->cut && f->cut->key == key)
		b = f->cut;
	f->cut = NULL;
	if (b) {
		b->closed = TRUE;
		if (!b->ended && b->sanitizer)
			nb->displaced = b;
	}
	g_hash_table_insert(f->open, &nb->key, nb);
}

/* Another CPU's backtrace is asked for by an open report: the latest that
 * printed "Sending NMI from CPU", or NULL. */
static OopsBuild *oops_find_nmi_owner(OopsFind *f)
{
	for (guint k = f->builds->len; k-- > 0;) {
		OopsBuild *o = g_ptr_array_index(f->builds, k);
		if (!o->closed && o->nmi)
			return o;
	}
	return NULL;
}

/* b takes no more lines; the report it interrupted, if any, goes on. */
static void oops_find_close(OopsFind *f, OopsBuild *b)
{
	g_hash_table_remove(f->open, &b->key);
	b->closed = TRUE;
	OopsBuild *d = b->displaced;
	if (d && d->closed && !d->ended && !g_hash_table_contains(f->open, &d->key)) {
		d->closed = FALSE;
		g_hash_table_insert(f->open, &d->key, d);
	}
	b->displaced = NULL;
}

/* Line i joins b; what it says may end b. fam: the family it opens, or -1. */
static void oops_find_take(OopsFind *f, OopsBuild *b, gint fam, guint i, const FtlConsoleLine *l,
			   const char *s)
{
	if (b->fatal && fam < 0 && !oops_panic_trailer(s)) {
		/* "Kernel panic - not syncing: Fatal exception" was its last word */
		oops_find_close(f, b);
		return;
	}
	oops_build_add(b, i, l);
	if (fam >= 0 && b->ended && oops_kind(fam, s) == FTL_OOPS_PANIC)
		b->fatal = TRUE; /* the panic its end caused prints no trace */
	else if (fam >= 0)
		b->ended = FALSE; /* the panic it caused: its own trace follows */
	if (g_str_has_prefix(s, "---[ end ")) {
		/* the end marker closes it: only the panic it causes may follow */
		b->ended = TRUE;
		oops_find_close(f, b);
		return;
	}
	if (strstr(s, "Sending NMI from CPU"))
		b->nmi = TRUE;
	if (b->sanitizer && b->lines->len > 2 && oops_is_rule_of(s, '=', 40)) {
		g_hash_table_remove(f->open, &b->key);
		b->closed = TRUE;
	}
}

static void oops_find_line(OopsFind *f, guint i)
{
	const FtlConsoleLine *l = ftl_console_line(f->con, i);
	if (l->flags & FTL_CONSOLE_LINE_DUMP)
		return;
	gint64 key = oops_context(l);
	OopsBuild *b = g_hash_table_lookup(f->open, &key);
	const char *s = oops_trim(l->text);
	if (b && oops_build_ends(b, i, l, s)) {
		g_hash_table_remove(f->open, &key);
		b->closed = TRUE;
		if (b->sanitizer && !b->ended && oops_cut_here(s))
			f->cut = b;
		b = NULL;
	}
	gint fam = oops_find_family(f, l, s);
	if (fam >= 0 && !b && oops_continues(fam, s))
		b = oops_find_reopen(f, key, i, l);
	if (fam >= 0 && !(b && oops_continues(fam, s))) {
		oops_find_open(f, b, fam, key, i, l, s);
		return;
	}
	if (!b && l->caller_kind == 'C')
		b = oops_find_nmi_owner(f);
	if (b)
		oops_find_take(f, b, fam, i, l, s);
}

/* The report b made: its lines, with those that lead it (owned marks the
 * lines a report has taken), read and titled. */
static FtlOopsReport *oops_assemble(OopsFind *f, OopsBuild *b, guint8 *owned)
{
	const FtlConsole *con = f->con;
	g_autoptr(GArray) all = oops_prefix(con, b, owned);
	for (guint i = 0; i < all->len; i++)
		owned[g_array_index(all, guint, i)] = 1;
	g_array_append_vals(all, b->lines->data, b->lines->len);
	FtlOopsReport *r = g_steal_pointer(&b->r);
	r->last = b->last_line;
	r->n_lines = all->len;
	ftl_oops_read_fields(r, con, all);
	ftl_oops_read_stacks(r, con, all);
	ftl_oops_read_pcs(r);
	r->arch = ftl_oops_arch_guess(con, all);
	gboolean has_context = ftl_console_line(con, r->first)->ts != FTL_TS_NONE || r->caller_kind;
	g_autoptr(GArray) title_lines = oops_title_lines(con, r, b->lines);
	g_autofree char *text = oops_title_text(r, con, title_lines, has_context);
	r->title = ftl_oops_titler_title(f->titler, b->family, text, &r->blamed, &r->corrupted);
	ftl_oops_sign(r, f->titler);
	r->header_line = r->first;
	r->first = g_array_index(all, guint, 0);
	r->sanitizer_open = b->sanitizer && !b->closed;
	r->open_at_end = !b->closed;
	return r;
}

/* A report that names no architecture of its own (a hung task, a lockdep
 * splat) was printed by the same machine as the rest of its log. */
static void oops_fill_arch(FtlOops *o, const FtlConsole *con)
{
	const char *log_arch = NULL;
	for (guint k = 0; k < o->reports->len && !log_arch; k++)
		log_arch = ((FtlOopsReport *)g_ptr_array_index(o->reports, k))->arch;
	if (!log_arch && o->reports->len) {
		g_autoptr(GArray) all =
			g_array_sized_new(FALSE, FALSE, sizeof(guint), con->lines->len);
		for (guint i = 0; i < con->lines->len; i++)
			g_array_append_val(all, i);
		log_arch = ftl_oops_arch_guess(con, all);
	}
	for (guint k = 0; k < o->reports->len; k++) {
		FtlOopsReport *r = g_ptr_array_index(o->reports, k);
		if (!r->arch)
			r->arch = log_arch;
	}
}
/* Each ftrace dump goes with the last report that began before it. */
static void oops_attach_dumps(FtlOops *o, const FtlConsole *con)
{
	for (guint d = 0; d < con->dumps->len; d++) {
		const FtlConsoleDump *dump = g_ptr_array_index(con->dumps, d);
		FtlOopsReport *best = NULL;
		for (guint k = 0; k < o->reports->len; k++) {
			FtlOopsReport *r = g_ptr_array_index(o->reports, k);
			if (r->first < dump->header)
				best = r;
		}
		if (best)
			g_array_append_val(best->dumps, d);
	}
}

FtlOops *ftl_oops_find(const FtlConsole *con)
{
	g_autoptr(FtlOopsTitler) titler = ftl_oops_titler_new();
	return ftl_oops_find_with(con, titler);
}

FtlOops *ftl_oops_find_with(const FtlConsole *con, const FtlOopsTitler *titler)
{
	g_autoptr(GPtrArray) builds =
		g_ptr_array_new_with_free_func((GDestroyNotify)oops_build_free);
	g_autoptr(GHashTable) open = g_hash_table_new(g_int64_hash, g_int64_equal);
	OopsFind f = { .con = con, .titler = titler, .builds = builds, .open = open };
	for (guint i = 0; i < con->lines->len; i++)
		oops_find_line(&f, i);
	FtlOops *o = g_new0(FtlOops, 1);
	o->reports = g_ptr_array_new_with_free_func((GDestroyNotify)oops_report_free);
	g_autofree guint8 *owned = g_new0(guint8, MAX(con->lines->len, 1));
	for (guint k = 0; k < builds->len; k++) {
		OopsBuild *b = g_ptr_array_index(builds, k);
		for (guint i = 0; i < b->lines->len; i++)
			owned[g_array_index(b->lines, guint, i)] = 1;
	}
	for (guint k = 0; k < builds->len; k++)
		g_ptr_array_add(o->reports, oops_assemble(&f, g_ptr_array_index(builds, k), owned));
	oops_attach_dumps(o, con);
	for (guint k = 0; k < o->reports->len; k++)
		oops_mark_cut(g_ptr_array_index(o->reports, k), con);
	oops_fill_arch(o, con);
	return o;
}
