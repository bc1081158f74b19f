/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Kernel reports in a console log: where each one starts and ends (printk
 * contexts keep reports from different CPUs apart), what it says (task,
 * taint, kernel, faulting function, registers, stack traces, modules), and
 * what the ftrace dump printed with it shows happened before. */
#include "analysis/oops.h"

#include <string.h>

#include "analysis/calltree.h"
#include "analysis/oops-title.h"
#include "model/source.h"
#include "util/timefmt.h"

/* A report's lines come out in one burst: a longer silence in its printk
 * context ends it. */
#define OOPS_BURST_NS ((gint64)10 * 1000000000)
/* Lines after the end marker in which the panic it caused still joins it. */
#define OOPS_PANIC_WINDOW 40
/* Lines that are neither frames nor registers before a stack trace ends. */
#define OOPS_TRACE_JUNK 4
/* syzbot leaves the panic out of a title once a report has this many lines. */
#define OOPS_TITLE_MIN_LINES	   22
#define OOPS_TITLE_MIN_LINES_KMSAN 16
/* How far back the lines that lead a report may go. */
#define OOPS_PREFIX_MAX 50
#define OOPS_PREFIX_NS	((gint64)2 * 1000000000)

struct _FtlOops {
	GPtrArray *reports; /* FtlOopsReport* */
};

/* ---- small helpers ---------------------------------------------------------- */

static const char *oops_trim(const char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	return s;
}

static gboolean oops_ends_with(const char *s, const char *suffix)
{
	gsize n = strlen(s), m = strlen(suffix);
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
		n--;
	return n >= m && memcmp(s + n - m, suffix, m) == 0;
}

static gboolean oops_is_hex(char c)
{
	return g_ascii_isxdigit(c);
}

/* Identifier characters of kernel symbols, '.' included ("foo.isra.0"). */
static gboolean oops_is_sym(char c)
{
	return g_ascii_isalnum(c) || c == '_' || c == '.' || c == '$';
}

/* A context key: the caller id, or whether the line has a printk time. */
static gint64 oops_context(const FtlConsoleLine *l)
{
	if (l->caller_kind == 'T')
		return (gint64)l->caller;
	if (l->caller_kind == 'C')
		return ((gint64)1 << 32) | (gint64)l->caller;
	return l->ts != FTL_TS_NONE ? -2 : -1;
}

static void oops_frame_clear(FtlOopsFrame *f)
{
	g_free(f->func);
	g_free(f->module);
	g_free(f->address);
	g_free(f->source);
	memset(f, 0, sizeof *f);
}

static void oops_stack_free(FtlOopsStack *s)
{
	for (guint i = 0; i < s->frames->len; i++)
		oops_frame_clear(&g_array_index(s->frames, FtlOopsFrame, i));
	g_array_unref(s->frames);
	g_free(s->label);
	g_free(s);
}

static void oops_report_free(FtlOopsReport *r)
{
	g_free(r->title);
	g_free(r->blamed);
	g_free(r->header);
	g_free(r->comm);
	g_free(r->taint);
	g_free(r->release);
	g_free(r->build);
	g_free(r->hardware);
	oops_frame_clear(&r->fault);
	g_free(r->fault_reg);
	g_free(r->location);
	g_free(r->oops);
	g_free(r->panic);
	g_free(r->end_marker);
	g_ptr_array_unref(r->modules);
	g_free(r->last_unloaded);
	for (guint i = 0; i < r->regs->len; i++) {
		FtlOopsReg *g = &g_array_index(r->regs, FtlOopsReg, i);
		g_free(g->name);
		g_free(g->value);
	}
	g_array_unref(r->regs);
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

/* ---- frames ----------------------------------------------------------------- */

/* "[<ffffffff81000000>]", "[c00000000022d79c]", "[<0x1234>]": the hex digits. */
static const char *oops_bracket_addr(const char *p, char **addr)
{
	if (*p != '[')
		return NULL;
	const char *q = p + 1;
	if (*q == '<')
		q++;
	if (q[0] == '0' && q[1] == 'x')
		q += 2;
	const char *h = q;
	while (oops_is_hex(*q))
		q++;
	if (q == h)
		return NULL;
	const char *he = q;
	if (*q == '>')
		q++;
	if (*q != ']')
		return NULL;
	if (addr) {
		g_free(*addr);
		*addr = g_strndup(h, (gsize)(he - h));
	}
	return q + 1;
}

/* "lib/list_debug.c:51" */
static const char *oops_source(const char *p)
{
	const char *q = p;
	gboolean dot = FALSE;
	while (oops_is_sym(*q) || *q == '/' || *q == '-' || *q == '+') {
		dot |= *q == '.';
		q++;
	}
	if (q == p || !dot || *q != ':' || !g_ascii_isdigit(q[1]))
		return NULL;
	q++;
	while (g_ascii_isdigit(*q))
		q++;
	return q;
}

/* "func+0x1c/0x40", with what may follow it; FALSE leaves f cleared. */
static gboolean oops_parse_symbol(const char *p, FtlOopsFrame *f, gboolean bare_ok)
{
	const char *q;
	while (*p == ' ')
		p++;
	if (p[0] == '0' && p[1] == 'x' && oops_is_hex(p[2])) {
		q = p + 2;
		while (oops_is_hex(*q))
			q++;
		g_free(f->address);
		f->address = g_strndup(p + 2, (gsize)(q - p - 2));
	} else if (g_str_has_prefix(p, "(null)")) {
		q = p + 6;
	} else {
		q = p;
		if (!(g_ascii_isalpha(*q) || *q == '_' || *q == '$'))
			return FALSE;
		while (oops_is_sym(*q))
			q++;
		const char *ne = q;
		if (q[0] == '+' && q[1] == '0' && q[2] == 'x') {
			char *end;
			f->offset = g_ascii_strtoull(q + 3, &end, 16);
			q = end;
			if (q[0] == '/' && q[1] == '0' && q[2] == 'x') {
				f->size = g_ascii_strtoull(q + 3, &end, 16);
				q = end;
			}
		} else {
			/* syzbot's symbolized inline frames: "name file.c:12 [inline]" */
			const char *s = q;
			while (*s == ' ')
				s++;
			if (!(bare_ok && !*s) && (s == q || !oops_source(s)))
				return FALSE;
		}
		f->func = g_strndup(p, (gsize)(ne - p));
	}
	/* what may follow: [module], file:line, [inline], (unreliable), (P) */
	for (;;) {
		while (*q == ' ' || *q == '\t')
			q++;
		if (!*q)
			return TRUE;
		const char *s;
		if (g_str_has_prefix(q, "[inline]")) {
			f->inlined = TRUE;
			q += 8;
		} else if (g_str_has_prefix(q, "(unreliable)")) {
			f->reliable = FALSE;
			q += 12;
		} else if (q[0] == '(' && g_ascii_isupper(q[1]) && q[2] == ')') {
			q += 3;
		} else if (*q == '[' && !f->module && oops_is_sym(q[1])) {
			const char *m = q + 1;
			s = m;
			while (oops_is_sym(*s) || *s == '-')
				s++;
			const char *close = strchr(s, ']');
			if (!close)
				break;
			f->module = g_strndup(m, (gsize)(s - m));
			q = close + 1;
		} else if (!f->source && (s = oops_source(q))) {
			f->source = g_strndup(q, (gsize)(s - q));
			q = s;
		} else {
			break;
		}
	}
	oops_frame_clear(f);
	return FALSE;
}

/* One stack frame line (x86, arm64, ppc, riscv layouts); section markers
 * already taken off. */
static gboolean oops_parse_frame(const char *p, FtlOopsFrame *f)
{
	memset(f, 0, sizeof *f);
	f->reliable = TRUE;
	p = oops_trim(p);
	const char *q;
	for (guint i = 0; i < 2 && (q = oops_bracket_addr(p, &f->address)); i++)
		p = oops_trim(q);
	if (p[0] == '?' && p[1] == ' ') {
		f->reliable = FALSE;
		p = oops_trim(p + 2);
	}
	if (!*p) {
		oops_frame_clear(f);
		return FALSE;
	}
	char *addr = g_steal_pointer(&f->address);
	gboolean ok = oops_parse_symbol(p, f, FALSE);
	if (ok && !f->address)
		f->address = g_steal_pointer(&addr);
	g_free(addr);
	if (ok && !f->func && !f->address)
		ok = FALSE; /* "(null)" alone is no frame */
	if (!ok)
		oops_frame_clear(f);
	return ok;
}

/* arm: "[<80b10c70>] (memset) from [<8062eec8>] (n_tty_set_termios+0x154/0x3c4)".
 * Fills callee and caller. */
static gboolean oops_parse_arm_frame(const char *p, FtlOopsFrame *callee, FtlOopsFrame *caller)
{
	memset(callee, 0, sizeof *callee);
	memset(caller, 0, sizeof *caller);
	callee->reliable = caller->reliable = TRUE;
	p = oops_trim(p);
	const char *q = oops_bracket_addr(p, &callee->address);
	const char *close = q && q[0] == ' ' && q[1] == '(' ? strstr(q, ") from ") : NULL;
	gboolean ok = FALSE;
	if (close) {
		char *inner = g_strndup(q + 2, (gsize)(close - q - 2));
		ok = oops_parse_symbol(inner, callee, TRUE) && callee->func;
		g_free(inner);
	}
	q = ok ? oops_bracket_addr(close + 7, &caller->address) : NULL;
	const char *end = q && q[0] == ' ' && q[1] == '(' ? strrchr(q, ')') : NULL;
	ok = FALSE;
	if (end) {
		char *inner = g_strndup(q + 2, (gsize)(end - q - 2));
		ok = oops_parse_symbol(inner, caller, TRUE) && caller->func;
		g_free(inner);
	}
	if (!ok) {
		oops_frame_clear(callee);
		oops_frame_clear(caller);
	}
	return ok;
}

/* Takes x86 section markers ("<IRQ>", "</TASK>", "<EOI>"...) off the line
 * start, updating the section stack. Returns the rest of the line. */
static const char *oops_sections(const char *p, GPtrArray *sections, gboolean *any)
{
	static const struct {
		const char *mark, *name; /* name NULL: leaves a section */
	} marks[] = {
		{ "<IRQ>", "IRQ" },	  { "</IRQ>", NULL },	      { "<EOI>", NULL },
		{ "<NMI>", "NMI" },	  { "</NMI>", NULL },	      { "<TASK>", "TASK" },
		{ "</TASK>", NULL },	  { "<SOFTIRQ>", "SOFTIRQ" }, { "</SOFTIRQ>", NULL },
		{ "<#DF>", "EXCEPTION" }, { "</#DF>", NULL },	      { "<<EOE>>", NULL },
		{ "<EOE>", NULL },
	};
	*any = FALSE;
	for (;;) {
		p = oops_trim(p);
		guint i;
		for (i = 0; i < G_N_ELEMENTS(marks); i++)
			if (g_str_has_prefix(p, marks[i].mark))
				break;
		if (i == G_N_ELEMENTS(marks))
			return p;
		*any = TRUE;
		if (marks[i].name)
			g_ptr_array_add(sections, (gpointer)marks[i].name);
		else if (sections->len)
			g_ptr_array_set_size(sections, sections->len - 1);
		p += strlen(marks[i].mark);
	}
}

/* ---- registers --------------------------------------------------------------- */

static gboolean oops_reg_name(const char *n)
{
	static const char *const names[] = {
		"RIP",	    "RSP",    "RAX",	  "RBX",     "RCX",	"RDX",	  "RSI",  "RDI",
		"RBP",	    "EFLAGS", "ORIG_RAX", "FS",	     "GS",	"knlGS",  "CS",	  "DS",
		"ES",	    "SS",     "CR0",	  "CR2",     "CR3",	"CR4",	  "PKRU", "EIP",
		"ESP",	    "EAX",    "EBX",	  "ECX",     "EDX",	"ESI",	  "EDI",  "EBP",
		"ORIG_EAX", "IP",     "pc",	  "lr",	     "sp",	"pstate", "psr",  "ip",
		"fp",	    "NIP",    "LR",	  "CTR",     "REGS",	"TRAP",	  "MSR",  "CR",
		"XER",	    "CFAR",   "DAR",	  "DSISR",   "IRQMASK", "SOFTE",  "epc",  "ra",
		"gp",	    "tp",     "status",	  "badaddr", "cause",	NULL,
	};
	for (guint i = 0; names[i]; i++)
		if (!strcmp(n, names[i]))
			return TRUE;
	/* numbered ones: R8-R15, DR0-7, x0-x30, r0-r12, GPR00-31, t0-6, s0-11, a0-7 */
	const char *d = n;
	while (g_ascii_isalpha(*d))
		d++;
	if (!*d || d == n)
		return FALSE;
	for (const char *x = d; *x; x++)
		if (!g_ascii_isdigit(*x))
			return FALSE;
	gsize pl = (gsize)(d - n);
	static const char *const prefixes[] = { "R", "DR", "x", "r", "GPR", "t", "s", "a" };
	for (guint i = 0; i < G_N_ELEMENTS(prefixes); i++)
		if (strlen(prefixes[i]) == pl && !strncmp(n, prefixes[i], pl))
			return TRUE;
	return FALSE;
}

static void oops_reg_add(GArray *regs, const char *name, gsize nlen, const char *value, gsize vlen)
{
	FtlOopsReg g = { g_strndup(name, nlen), g_strndup(value, vlen) };
	g_array_append_val(regs, g);
}

/* Reads "NAME: VALUE" pairs of a register dump line into regs (may be NULL).
 * Returns how many were read: 0 when the line is no register line. */
static guint oops_parse_regs(const char *p, GArray *regs)
{
	guint n = 0;
	p = oops_trim(p);
	while (*p) {
		const char *name = p;
		while (g_ascii_isalnum(*p) || *p == '_')
			p++;
		gsize nlen = (gsize)(p - name);
		if (!nlen || nlen > 8)
			break;
		char nbuf[16];
		memcpy(nbuf, name, nlen);
		nbuf[nlen] = 0;
		const char *q = p;
		while (*q == ' ')
			q++;
		if (*q != ':' || !oops_reg_name(nbuf))
			break;
		q++;
		while (*q == ' ')
			q++;
		const char *v = q;
		while (*q && *q != ' ' && *q != '\t')
			q++;
		if (q == v)
			break;
		if (regs)
			oops_reg_add(regs, name, nlen, v, (gsize)(q - v));
		n++;
		/* ppc: "GPR04: a b c d" holds four registers */
		if (nlen == 5 && !strncmp(name, "GPR", 3)) {
			guint base = (guint)g_ascii_strtoull(name + 3, NULL, 10);
			for (guint k = 1; k < 8; k++) {
				const char *w = q;
				while (*w == ' ')
					w++;
				const char *we = w;
				while (oops_is_hex(*we))
					we++;
				if (we - w < 8 || (*we && *we != ' '))
					break;
				if (regs) {
					char rn[16];
					g_snprintf(rn, sizeof rn, "GPR%02u", base + k);
					oops_reg_add(regs, rn, strlen(rn), w, (gsize)(we - w));
				}
				q = we;
			}
		}
		p = q;
		while (*p == ' ' || *p == '\t')
			p++;
		/* annotations: "<SF,EE,ME>", "(nZCv daIF +PAN)" */
		if (*p == '<' || *p == '(') {
			const char *close = strchr(p, *p == '<' ? '>' : ')');
			if (!close)
				break;
			p = oops_trim(close + 1);
		}
	}
	return n;
}

/* ---- report fields ---------------------------------------------------------- */

/* "CPU: 1 PID: 22 Comm: sh Not tainted 6.1.0-57-cloud-amd64 #1 ..." and the
 * 6.10+ form with "UID: 0"; fields already known are kept. */
static gboolean oops_cpu_line(FtlOopsReport *r, const char *s)
{
	if (!g_str_has_prefix(s, "CPU: "))
		return FALSE;
	char *end;
	gint64 cpu = g_ascii_strtoll(s + 5, &end, 10);
	if (end == s + 5)
		return FALSE;
	const char *p = oops_trim(end);
	if (g_str_has_prefix(p, "UID: ")) {
		p += 5;
		while (g_ascii_isdigit(*p))
			p++;
		p = oops_trim(p);
	}
	if (!g_str_has_prefix(p, "PID: "))
		return FALSE;
	gint64 pid = g_ascii_strtoll(p + 5, &end, 10);
	p = oops_trim(end);
	if (!g_str_has_prefix(p, "Comm: "))
		return FALSE;
	p += 6;
	/* comm (up to 16 bytes, may hold blanks) ends where the taint begins */
	const char *taint = strstr(p, " Not tainted");
	if (!taint)
		taint = strstr(p, " Tainted: ");
	const char *k = strstr(p, " Kdump: loaded");
	if (k && (!taint || k < taint))
		taint = k;
	if (r->cpu < 0)
		r->cpu = (gint)cpu;
	if (r->pid < 0)
		r->pid = (gint)pid;
	if (!taint) {
		if (!r->comm)
			r->comm = g_strdup(p);
		return TRUE;
	}
	if (!r->comm)
		r->comm = g_strndup(p, (gsize)(taint - p));
	p = oops_trim(taint);
	if (g_str_has_prefix(p, "Kdump: loaded"))
		p = oops_trim(p + 13);
	if (g_str_has_prefix(p, "Not tainted")) {
		if (!r->taint)
			r->taint = g_strdup("Not tainted");
		p += 11;
	} else if (g_str_has_prefix(p, "Tainted: ")) {
		const char *f = p + 9, *q = f;
		/* flag letters and the blanks of unset flags, then the release */
		while (*q && (g_ascii_isupper(*q) || *q == ' ') && !g_ascii_isdigit(*q))
			q++;
		while (q > f && q[-1] == ' ')
			q--;
		if (!r->taint) {
			r->taint = g_strndup(f, (gsize)(q - f));
			r->tainted = TRUE;
		}
		p = q;
	}
	p = oops_trim(p);
	const char *rel = p;
	while (*p && *p != ' ')
		p++;
	if (p > rel && !r->release)
		r->release = g_strndup(rel, (gsize)(p - rel));
	p = oops_trim(p);
	if (*p == '#' && !r->build) {
		const char *b = p;
		while (*p && *p != ' ')
			p++;
		r->build = g_strndup(b, (gsize)(p - b));
	}
	return TRUE;
}

/* 2.6-era x86: "Pid: 5542, comm: cat Tainted: G        W  2.6.28 #23" */
static gboolean oops_pid_line(FtlOopsReport *r, const char *s)
{
	if (!g_str_has_prefix(s, "Pid: "))
		return FALSE;
	char *end;
	gint64 pid = g_ascii_strtoll(s + 5, &end, 10);
	if (!g_str_has_prefix(end, ", comm: "))
		return FALSE;
	if (r->pid < 0)
		r->pid = (gint)pid;
	/* the rest reads like the modern line after "Comm: " */
	g_autofree char *modern =
		g_strdup_printf("CPU: %d PID: %d Comm: %s", MAX(r->cpu, 0), (gint)pid, end + 8);
	gint cpu = r->cpu;
	oops_cpu_line(r, modern);
	r->cpu = cpu;
	return TRUE;
}

static void oops_modules(FtlOopsReport *r, const char *s)
{
	const char *p = s + strlen("Modules linked in:");
	g_auto(GStrv) words = g_strsplit_set(p, " \t", -1);
	for (guint i = 0; words[i]; i++) {
		const char *w = words[i];
		if (!*w)
			continue;
		if (!strcmp(w, "[last") && words[i + 1] &&
		    g_str_has_prefix(words[i + 1], "unloaded:")) {
			const char *m = words[i + 2];
			if (m) {
				gsize n = strlen(m);
				if (n && m[n - 1] == ']')
					n--;
				g_free(r->last_unloaded);
				r->last_unloaded = g_strndup(m, n);
			}
			break;
		}
		g_ptr_array_add(r->modules, g_strdup(w));
	}
}

/* Where the CPU was, from the report's first kernel-mode RIP/PC/NIP/epc. */
static void oops_fault_line(FtlOopsReport *r, const char *s)
{
	if (r->has_fault)
		return;
	const char *reg = NULL, *v = NULL;
	if (g_str_has_prefix(s, "RIP: ") || g_str_has_prefix(s, "EIP: ")) {
		reg = s[0] == 'R' ? "RIP" : "EIP";
		v = s + 5;
		/* "0010:" the code segment: user mode runs at privilege 3 */
		if (oops_is_hex(v[0]) && oops_is_hex(v[1]) && oops_is_hex(v[2]) &&
		    oops_is_hex(v[3]) && v[4] == ':') {
			if ((g_ascii_xdigit_value(v[3]) & 3) == 3)
				return;
			v += 5;
		}
	} else if (g_str_has_prefix(s, "IP: ")) {
		reg = "IP";
		v = s + 4;
	} else if (g_str_has_prefix(s, "PC is at ")) {
		reg = "PC";
		v = s + 9;
	} else if (g_str_has_prefix(s, "pc : ") && !strstr(s, " lr : ")) {
		reg = "pc";
		v = s + 5;
	} else if (g_str_has_prefix(s, "NIP [")) {
		reg = "NIP";
		v = s + 4;
	} else if (g_str_has_prefix(s, "epc : ") && strstr(s, "+0x")) {
		reg = "epc";
		v = s + 6;
	} else {
		return;
	}
	FtlOopsFrame f;
	if (!oops_parse_frame(v, &f)) {
		/* "RIP: 0010:          (null)": nothing to name */
		if (!strstr(v, "(null)"))
			return;
		memset(&f, 0, sizeof f);
		f.address = g_strdup("0");
	}
	f.reliable = TRUE;
	r->fault = f;
	r->has_fault = TRUE;
	r->fault_reg = g_strdup(reg);
}

static void oops_location(FtlOopsReport *r, const char *s)
{
	if (r->location)
		return;
	/* "WARNING: CPU: 1 PID: 2 at lib/foo.c:12 func+0x1/0x2", "kernel BUG at
	 * mm/foo.c:12!", and since 6.18 "WARNING: lib/foo.c:12 at func+0x1/0x2" */
	const char *at[3] = { NULL, NULL, NULL };
	if (g_str_has_prefix(s, "WARNING: ")) {
		at[0] = strstr(s, " at ");
		at[0] = at[0] ? at[0] + 4 : NULL;
		at[1] = s + 9;
	}
	at[2] = strstr(s, "kernel BUG at ");
	at[2] = at[2] ? at[2] + 14 : NULL;
	for (guint i = 0; i < G_N_ELEMENTS(at); i++) {
		const char *e = at[i] ? oops_source(at[i]) : NULL;
		if (e) {
			r->location = g_strndup(at[i], (gsize)(e - at[i]));
			return;
		}
	}
}

/* ---- finding reports ---------------------------------------------------------- */

typedef struct {
	FtlOopsReport *r;
	gint family;
	GArray *lines; /* guint console line indexes */
	gint64 key;    /* printk context */
	gint64 last_ts;
	guint last_line;    /* index of its last line */
	gboolean ended;	    /* its end marker was printed */
	gboolean closed;    /* nothing joins it any more */
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
	/* SLUB debug lines inside old KASAN reports */
	return !strcmp(h, "INFO:") &&
	       (strstr(s, "INFO: Allocated in ") || strstr(s, "INFO: Freed in ") ||
		strstr(s, "INFO: Slab 0x") || strstr(s, "INFO: Object 0x"));
}

static gboolean oops_is_rule_of(const char *s, char c, gsize min)
{
	s = oops_trim(s);
	gsize n = strspn(s, (char[]){ c, 0 });
	return n >= min && *oops_trim(s + n) == 0;
}

static void oops_build_add(OopsBuild *b, guint i, const FtlConsoleLine *l)
{
	g_array_append_val(b->lines, i);
	b->last_line = i;
	if (l->ts != FTL_TS_NONE)
		b->last_ts = l->ts;
}

/* ---- structure of one report --------------------------------------------------- */

static FtlOopsStack *oops_stack_new(const char *label, guint line)
{
	FtlOopsStack *s = g_new0(FtlOopsStack, 1);
	s->label = label ? g_strdup(label) : NULL;
	s->line = line;
	s->frames = g_array_new(FALSE, FALSE, sizeof(FtlOopsFrame));
	return s;
}

static void oops_structure(FtlOopsReport *r, const FtlConsole *con, GArray *lines)
{
	g_autoptr(GPtrArray) sections = g_ptr_array_new();
	FtlOopsStack *cur = NULL;
	guint junk = 0;
	const char *label = NULL;
	gboolean regs_done = FALSE, arm_started = FALSE;
	for (guint k = 0; k < lines->len; k++) {
		guint idx = g_array_index(lines, guint, k);
		const FtlConsoleLine *l = ftl_console_line(con, idx);
		const char *s = oops_trim(l->text);
		gboolean marker;
		const char *rest = oops_sections(s, sections, &marker);
		FtlOopsFrame f, caller;
		gboolean arm = FALSE, frame = FALSE;
		/* a line the log cut short may name a wrong offset: no frame */
		if (*rest && !(l->flags & FTL_CONSOLE_LINE_CUT)) {
			frame = oops_parse_frame(rest, &f);
			if (!frame)
				arm = oops_parse_arm_frame(rest, &f, &caller);
		}
		if (frame || arm || (marker && !*rest)) {
			if (!cur) {
				cur = oops_stack_new(label, idx);
				g_ptr_array_add(r->stacks, cur);
				arm_started = FALSE;
			}
			const char *section =
				sections->len ? g_ptr_array_index(sections, sections->len - 1)
					      : NULL;
			if (frame) {
				f.section = section;
				f.line = idx;
				g_array_append_val(cur->frames, f);
			} else if (arm) {
				/* each line names the caller of the one before; the first
				 * also names where the CPU was */
				if (!arm_started) {
					f.line = idx;
					g_array_append_val(cur->frames, f);
					arm_started = TRUE;
				} else {
					oops_frame_clear(&f);
				}
				caller.line = idx;
				g_array_append_val(cur->frames, caller);
			}
			junk = 0;
			label = NULL;
			continue;
		}
		gboolean regline = oops_parse_regs(s, NULL) > 0;
		if (cur) {
			/* exception registers and code bytes inside a trace */
			if (regline || g_str_has_prefix(s, "Code: ") ||
			    g_str_has_prefix(s, "--- interrupt:") ||
			    g_str_has_prefix(s, "Exception stack("))
				continue;
			if (oops_ends_with(s, ":") || g_str_has_prefix(s, "---[ end") ||
			    ++junk >= OOPS_TRACE_JUNK) {
				cur = NULL;
				junk = 0;
				regs_done = regs_done || r->regs->len > 0;
				g_ptr_array_set_size(sections, 0);
			} else {
				continue;
			}
		}
		if (regline && !regs_done)
			oops_parse_regs(s, r->regs);
		/* a label for the frames that may follow */
		if (oops_ends_with(s, ":") && !regline)
			label = s;
		else if (*s)
			label = NULL;
	}
	/* stack labels are borrowed until here: copy them now */
	for (guint i = 0; i < r->stacks->len; i++) {
		FtlOopsStack *st = g_ptr_array_index(r->stacks, i);
		if (st->label) {
			char *lab = g_strdup(oops_trim(st->label));
			g_strchomp(lab);
			g_free(st->label);
			st->label = lab;
		}
	}
}

/* Field lines: task, kernel, taint, modules, markers. */
static void oops_fields(FtlOopsReport *r, const FtlConsole *con, GArray *lines)
{
	for (guint k = 0; k < lines->len; k++) {
		const FtlConsoleLine *l = ftl_console_line(con, g_array_index(lines, guint, k));
		const char *s = oops_trim(l->text);
		if (r->kind != FTL_OOPS_HUNG_TASK && oops_cpu_line(r, s))
			continue;
		if (oops_pid_line(r, s))
			continue;
		if (r->cpu < 0 && g_str_has_prefix(s, "CPU ") && g_ascii_isdigit(s[4])) {
			char *end;
			gint64 c = g_ascii_strtoll(s + 4, &end, 10);
			if (!*oops_trim(end))
				r->cpu = (gint)c;
			continue;
		}
		if (!r->hardware && g_str_has_prefix(s, "Hardware name: ")) {
			r->hardware = g_strdup(s + 15);
			g_strchomp(r->hardware);
			continue;
		}
		if (!r->modules->len && !r->last_unloaded &&
		    g_str_has_prefix(s, "Modules linked in:")) {
			oops_modules(r, s);
			continue;
		}
		if (g_str_has_prefix(s, "Tainted: [")) {
			/* 6.10+ spells the flags out on a line of their own */
			g_free(r->taint);
			r->taint = g_strdup(s + 9);
			g_strchomp(r->taint);
			r->tainted = TRUE;
			continue;
		}
		if (g_str_has_prefix(s, "---[ end ")) {
			g_free(r->end_marker);
			r->end_marker = g_strdup(s);
			g_strchomp(r->end_marker);
			continue;
		}
		const char *kp = strstr(s, "Kernel panic - not syncing: ");
		if (kp && !g_str_has_prefix(s, "---[") && !r->panic) {
			r->panic = g_strdup(kp + strlen("Kernel panic - not syncing: "));
			g_strchomp(r->panic);
		}
		const char *die = strstr(s, " [#");
		if (!r->oops && die && g_ascii_isdigit(die[3]) && !g_str_has_prefix(s, "---[")) {
			r->oops = g_strdup(s);
			g_strchomp(r->oops);
		}
		oops_location(r, s);
		oops_fault_line(r, s);
	}
	/* hung tasks and lockups name the task in their first line */
	const char *h = r->header;
	const char *t;
	if ((t = strstr(h, "INFO: task ")) && r->pid < 0) {
		t += 11;
		const char *b = strstr(t, " blocked for more than");
		if (!b)
			b = strstr(t, " can't die");
		const char *colon = b ? g_strrstr_len(t, b - t, ":") : NULL;
		if (colon) {
			if (!r->comm)
				r->comm = g_strndup(t, (gsize)(colon - t));
			r->pid = (gint)g_ascii_strtoll(colon + 1, NULL, 10);
		}
	}
	if ((t = strstr(h, "stuck for ")) && (t = strchr(t, '[')) && strchr(t, ':')) {
		const char *colon = strrchr(t, ':');
		if (r->pid < 0)
			r->pid = (gint)g_ascii_strtoll(colon + 1, NULL, 10);
		if (!r->comm)
			r->comm = g_strndup(t + 1, (gsize)(colon - t - 1));
	}
	if (r->cpu < 0 && (t = strstr(h, "CPU#")))
		r->cpu = (gint)g_ascii_strtoll(t + 4, NULL, 10);
}

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
		ftl_diags_add(con->diags, FTL_DIAG_REPORT_CUT, con->path,
			      ftl_console_line(con, r->header_line)->lineno, r->cpu, r->header,
			      strlen(r->header), 0);
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
		if (strstr(s, "[ cut here ]") || strstr(s, "8<--- cut here") ||
		    oops_is_rule_of(s, '=', 40)) {
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
	r->stacks = g_ptr_array_new_with_free_func((GDestroyNotify)oops_stack_free);
	r->dumps = g_array_new(FALSE, FALSE, sizeof(guint));
	return r;
}

FtlOops *ftl_oops_find(const FtlConsole *con)
{
	g_autoptr(FtlOopsTitler) titler = ftl_oops_titler_new();
	g_autoptr(GPtrArray) builds =
		g_ptr_array_new_with_free_func((GDestroyNotify)oops_build_free);
	g_autoptr(GHashTable) open = g_hash_table_new(g_int64_hash, g_int64_equal);
	gboolean seen_kernel = FALSE;
	for (guint i = 0; i < con->lines->len; i++) {
		const FtlConsoleLine *l = ftl_console_line(con, i);
		if (l->flags & FTL_CONSOLE_LINE_DUMP)
			continue;
		gint64 key = oops_context(l);
		OopsBuild *b = g_hash_table_lookup(open, &key);
		const char *s = oops_trim(l->text);
		/* a silence, a new boot, or a rule that ends sanitizer reports */
		if (b &&
		    ((l->ts != FTL_TS_NONE && b->last_ts != FTL_TS_NONE &&
		      (l->ts > b->last_ts + OOPS_BURST_NS || l->ts + 1000000000 < b->last_ts)) ||
		     g_str_has_prefix(s, "Linux version ") || strstr(s, "[ cut here ]") ||
		     strstr(s, "8<--- cut here") ||
		     (b->ended && i > b->last_line + OOPS_PANIC_WINDOW))) {
			g_hash_table_remove(open, &key);
			b->closed = TRUE;
			b = NULL;
		}
		gint fam = g_str_has_prefix(s, "---[ end")
				   ? -1
				   : ftl_oops_titler_header(titler, l->text);
		if (fam >= 0 && !strcmp(ftl_oops_family_header(fam), "Booting the kernel.") &&
		    !seen_kernel)
			fam = -1; /* the first boot of the log, not a reboot */
		if (l->ts != FTL_TS_NONE || fam >= 0)
			seen_kernel = TRUE;
		if (fam >= 0 && !b && oops_continues(fam, s)) {
			/* the panic a report that just ended caused (panic_on_warn) */
			for (guint k = builds->len; k-- > 0;) {
				OopsBuild *o = g_ptr_array_index(builds, k);
				if (o->key != key)
					continue;
				if (i <= o->last_line + OOPS_PANIC_WINDOW &&
				    (l->ts == FTL_TS_NONE || o->last_ts == FTL_TS_NONE ||
				     l->ts <= o->last_ts + OOPS_BURST_NS)) {
					b = o;
					b->closed = FALSE;
					g_hash_table_insert(open, &b->key, b);
				}
				break;
			}
		}
		if (fam >= 0 && !(b && oops_continues(fam, s))) {
			OopsBuild *nb = g_new0(OopsBuild, 1);
			nb->r = oops_report_new();
			nb->family = fam;
			nb->key = key;
			nb->lines = g_array_new(FALSE, FALSE, sizeof(guint));
			nb->last_ts = FTL_TS_NONE;
			nb->sanitizer = strstr(s, "KASAN:") || strstr(s, "KFENCE:") ||
					strstr(s, "KMSAN:") || strstr(s, "KCSAN:") ||
					strstr(s, "UBSAN:");
			nb->r->first = i;
			nb->r->header = g_strdup(s);
			g_strchomp(nb->r->header);
			nb->r->ts = l->ts;
			nb->r->caller = l->caller;
			nb->r->caller_kind = l->caller_kind;
			nb->r->kind = oops_kind(fam, s);
			oops_build_add(nb, i, l);
			g_ptr_array_add(builds, nb);
			if (b)
				b->closed = TRUE;
			g_hash_table_insert(open, &nb->key, nb);
			continue;
		}
		if (!b && l->caller_kind == 'C') {
			/* another CPU's backtrace, asked for by an open report */
			for (guint k = builds->len; k-- > 0;) {
				OopsBuild *o = g_ptr_array_index(builds, k);
				if (!o->closed && o->nmi) {
					b = o;
					break;
				}
			}
		}
		if (!b)
			continue;
		oops_build_add(b, i, l);
		if (fam >= 0)
			b->ended = FALSE; /* the panic it caused: its own trace follows */
		if (g_str_has_prefix(s, "---[ end "))
			b->ended = TRUE;
		if (strstr(s, "Sending NMI from CPU"))
			b->nmi = TRUE;
		if (b->sanitizer && b->lines->len > 2 && oops_is_rule_of(s, '=', 40)) {
			g_hash_table_remove(open, &b->key);
			b->closed = TRUE;
		}
	}
	FtlOops *o = g_new0(FtlOops, 1);
	o->reports = g_ptr_array_new_with_free_func((GDestroyNotify)oops_report_free);
	g_autofree guint8 *owned = g_new0(guint8, MAX(con->lines->len, 1));
	for (guint k = 0; k < builds->len; k++) {
		OopsBuild *b = g_ptr_array_index(builds, k);
		for (guint i = 0; i < b->lines->len; i++)
			owned[g_array_index(b->lines, guint, i)] = 1;
	}
	for (guint k = 0; k < builds->len; k++) {
		OopsBuild *b = g_ptr_array_index(builds, k);
		g_autoptr(GArray) all = oops_prefix(con, b, owned);
		for (guint i = 0; i < all->len; i++)
			owned[g_array_index(all, guint, i)] = 1;
		g_array_append_vals(all, b->lines->data, b->lines->len);
		FtlOopsReport *r = g_steal_pointer(&b->r);
		r->last = b->last_line;
		r->n_lines = all->len;
		oops_fields(r, con, all);
		oops_structure(r, con, all);
		gboolean has_context =
			ftl_console_line(con, r->first)->ts != FTL_TS_NONE || r->caller_kind;
		g_autoptr(GArray) title_lines = oops_title_lines(con, r, b->lines);
		g_autofree char *text = oops_title_text(r, con, title_lines, has_context);
		r->title =
			ftl_oops_titler_title(titler, b->family, text, &r->blamed, &r->corrupted);
		r->header_line = r->first;
		r->first = g_array_index(all, guint, 0);
		r->sanitizer_open = b->sanitizer && !b->closed;
		r->open_at_end = !b->closed;
		g_ptr_array_add(o->reports, r);
	}
	/* the ftrace dumps printed with each report */
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
	for (guint k = 0; k < o->reports->len; k++)
		oops_mark_cut(g_ptr_array_index(o->reports, k), con);
	return o;
}

/* ---- the trail ------------------------------------------------------------------ */

typedef struct {
	FtlOopsCpu c;
	FtlOopsEvent *ring; /* n slots */
	guint head, count;
} TrailCpu;

typedef struct {
	FtlOopsOpenCall call;
	gint32 cpu, pid;
} TrailOpen;

struct _FtlOopsTrail {
	guint n;
	gint crash_cpu;
	GArray *cpus; /* TrailCpu, sorted by CPU after finish */
	FtlCallTree *tree;
	FtlMarkers *markers;
	gboolean finishing;
	GArray *open_all; /* TrailOpen, calls left open at the end */
	GArray *path;	  /* FtlOopsOpenCall */
	gint path_cpu;
	gint last_func_cpu;
};

static void trail_on_call(const FtlCall *call, gpointer data)
{
	FtlOopsTrail *t = data;
	if (!t->finishing || (call->flags & ~FTL_CALL_F_RECURSIVE) != FTL_CALL_F_OPEN)
		return;
	TrailOpen o = { { call->func, call->depth, call->line }, call->cpu, call->pid };
	g_array_append_val(t->open_all, o);
}

FtlOopsTrail *ftl_oops_trail_new(guint n, gint crash_cpu)
{
	FtlOopsTrail *t = g_new0(FtlOopsTrail, 1);
	t->n = n;
	t->crash_cpu = crash_cpu;
	t->cpus = g_array_new(FALSE, TRUE, sizeof(TrailCpu));
	t->tree = ftl_calltree_new(FTL_CALLTREE_GROUP_NONE, NULL);
	ftl_calltree_set_on_call(t->tree, trail_on_call, t);
	t->markers = ftl_markers_new();
	t->open_all = g_array_new(FALSE, FALSE, sizeof(TrailOpen));
	t->path = g_array_new(FALSE, FALSE, sizeof(FtlOopsOpenCall));
	t->path_cpu = -1;
	t->last_func_cpu = -1;
	return t;
}

static void trail_event_clear(FtlOopsEvent *e)
{
	g_clear_pointer(&e->text, g_free);
}

void ftl_oops_trail_free(FtlOopsTrail *t)
{
	if (!t)
		return;
	for (guint i = 0; i < t->cpus->len; i++) {
		TrailCpu *c = &g_array_index(t->cpus, TrailCpu, i);
		for (guint k = 0; k < t->n; k++)
			trail_event_clear(&c->ring[k]);
		for (guint k = 0; k < c->c.n_last; k++)
			trail_event_clear(&c->c.last[k]);
		g_free(c->ring);
		g_free(c->c.last);
	}
	g_array_unref(t->cpus);
	ftl_calltree_free(t->tree);
	ftl_markers_free(t->markers);
	g_array_unref(t->open_all);
	g_array_unref(t->path);
	g_free(t);
}

static TrailCpu *trail_cpu(FtlOopsTrail *t, gint32 cpu)
{
	for (guint i = 0; i < t->cpus->len; i++) {
		TrailCpu *c = &g_array_index(t->cpus, TrailCpu, i);
		if (c->c.cpu == cpu)
			return c;
	}
	TrailCpu nc = { .c.cpu = cpu, .ring = g_new0(FtlOopsEvent, MAX(t->n, 1)) };
	g_array_append_val(t->cpus, nc);
	return &g_array_index(t->cpus, TrailCpu, t->cpus->len - 1);
}

void ftl_oops_trail_feed(FtlOopsTrail *t, const FtlEvent *ev)
{
	TrailCpu *c = trail_cpu(t, ev->cpu);
	c->c.events++;
	if (ev->kind == FTL_EVENT_LOST)
		c->c.lost += ev->u.lost.count;
	else if (!(ev->flags & FTL_EVENT_F_SYNTH))
		c->c.event_lines++;
	if (ev->kind == FTL_EVENT_FUNC_ENTRY || ev->kind == FTL_EVENT_FUNC_EXIT)
		t->last_func_cpu = ev->cpu;
	ftl_calltree_feed(t->tree, ev);
	ftl_markers_feed(t->markers, ev);
	/* a leaf's exit is made from the same line as its entry: keep the line once */
	if (t->n == 0 || (ev->flags & FTL_EVENT_F_SYNTH))
		return;
	FtlOopsEvent *slot = &c->ring[c->head];
	trail_event_clear(slot);
	*slot = (FtlOopsEvent){
		.line = ev->line,
		.ts = ev->ts,
		.pid = ev->pid,
		.kind = ev->kind,
		.text = g_strndup(ev->raw.p ? ev->raw.p : "", ev->raw.len),
	};
	c->head = (c->head + 1) % t->n;
	if (c->count < t->n)
		c->count++;
}

static gint trail_cpu_cmp(gconstpointer a, gconstpointer b)
{
	const TrailCpu *x = a, *y = b;
	return (x->c.cpu > y->c.cpu) - (x->c.cpu < y->c.cpu);
}

static gint trail_open_cmp(gconstpointer a, gconstpointer b)
{
	const FtlOopsOpenCall *x = a, *y = b;
	if (x->depth != y->depth)
		return x->depth - y->depth;
	return (x->line > y->line) - (x->line < y->line);
}

void ftl_oops_trail_finish(FtlOopsTrail *t)
{
	t->finishing = TRUE;
	ftl_calltree_finish(t->tree);
	t->finishing = FALSE;
	ftl_markers_finish(t->markers);
	for (guint i = 0; i < t->cpus->len; i++) {
		TrailCpu *c = &g_array_index(t->cpus, TrailCpu, i);
		c->c.n_last = c->count;
		c->c.last = g_new0(FtlOopsEvent, MAX(c->count, 1));
		for (guint k = 0; k < c->count; k++) {
			guint from = (c->head + t->n - c->count + k) % t->n;
			c->c.last[k] = c->ring[from];
			c->ring[from].text = NULL;
		}
	}
	g_array_sort(t->cpus, trail_cpu_cmp);
	/* the open path: on the crashing CPU, the task that entered last */
	gint cpu = t->crash_cpu >= 0 ? t->crash_cpu : t->last_func_cpu;
	gint32 pid = G_MININT32;
	guint64 latest = 0;
	for (guint i = 0; i < t->open_all->len; i++) {
		const TrailOpen *o = &g_array_index(t->open_all, TrailOpen, i);
		if (o->cpu == cpu && o->call.line >= latest) {
			latest = o->call.line;
			pid = o->pid;
		}
	}
	for (guint i = 0; pid != G_MININT32 && i < t->open_all->len; i++) {
		const TrailOpen *o = &g_array_index(t->open_all, TrailOpen, i);
		if (o->cpu == cpu && o->pid == pid)
			g_array_append_val(t->path, o->call);
	}
	g_array_sort(t->path, trail_open_cmp);
	t->path_cpu = t->path->len ? cpu : -1;
}

guint ftl_oops_trail_n_cpus(const FtlOopsTrail *t)
{
	return t->cpus->len;
}

const FtlOopsCpu *ftl_oops_trail_cpu(const FtlOopsTrail *t, guint i)
{
	return &g_array_index(t->cpus, TrailCpu, i).c;
}

const FtlOopsOpenCall *ftl_oops_trail_open(const FtlOopsTrail *t, guint *n, gint *cpu)
{
	*n = t->path->len;
	*cpu = t->path_cpu;
	return (const FtlOopsOpenCall *)(void *)t->path->data;
}

const FtlMarkers *ftl_oops_trail_markers(const FtlOopsTrail *t)
{
	return t->markers;
}
