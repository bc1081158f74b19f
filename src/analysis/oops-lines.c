/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What the lines of one kernel report say: the task and kernel line, taint,
 * modules, where the CPU was, the register dump and the stack traces, in the
 * layouts of x86 (old and new), arm, arm64, ppc64 and riscv. oops.c decides
 * which console lines make a report; this file reads them. */
#include "analysis/oops-lines.h"

#include <string.h>

/* Lines that are neither frames nor registers before a stack trace ends. */
#define OOPS_TRACE_JUNK 4
/* ... in a trace mixed with another CPU's output, which prints between */
#define OOPS_MIXED_JUNK 24

/* ---- small helpers ---------------------------------------------------------- */

static gboolean oops_is_hex(char c)
{
	return g_ascii_isxdigit(c);
}

/* Identifier characters of kernel symbols, '.' included ("foo.isra.0"). */
static gboolean oops_is_sym(char c)
{
	return g_ascii_isalnum(c) || c == '_' || c == '.' || c == '$';
}
void ftl_oops_frame_clear(FtlOopsFrame *f)
{
	g_free(f->func);
	g_free(f->module);
	g_free(f->address);
	g_free(f->source);
	memset(f, 0, sizeof *f);
}

void ftl_oops_stack_free(FtlOopsStack *s)
{
	for (guint i = 0; i < s->frames->len; i++)
		ftl_oops_frame_clear(&g_array_index(s->frames, FtlOopsFrame, i));
	g_array_unref(s->frames);
	g_free(s->label);
	g_free(s);
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
		/* ppc64 ELFv1 names a function's code ".func": the function is func */
		if (p[0] == '.' && (g_ascii_isalpha(p[1]) || p[1] == '_'))
			p++;
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
	ftl_oops_frame_clear(f);
	return FALSE;
}

/* One stack frame line (x86, arm64, ppc, riscv layouts); section markers
 * already taken off. */
static gboolean oops_parse_frame(const char *p, FtlOopsFrame *f)
{
	memset(f, 0, sizeof *f);
	f->reliable = TRUE;
	p = oops_trim(p);
	/* s390 prints a frame it could not vouch for in parentheses:
	 * "([<0000000016cf4fa2>] __symbol_put+0x32/0x58)" */
	g_autofree char *inner = NULL;
	if (p[0] == '(' && p[1] == '[') {
		const char *close = strrchr(p, ')');
		if (!close || oops_trim(close + 1)[0])
			return FALSE;
		inner = g_strndup(p + 1, (gsize)(close - p - 1));
		p = inner;
		f->reliable = FALSE;
	}
	const char *q;
	for (guint i = 0; i < 2 && (q = oops_bracket_addr(p, &f->address)); i++)
		p = oops_trim(q);
	if (p[0] == '?' && p[1] == ' ') {
		f->reliable = FALSE;
		p = oops_trim(p + 2);
	}
	if (!*p) {
		ftl_oops_frame_clear(f);
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
		ftl_oops_frame_clear(f);
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
		ftl_oops_frame_clear(callee);
		ftl_oops_frame_clear(caller);
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
		/* "RIP: 0010:foo+0x1/0x2 [mod]": the module is part of the frame */
		const char *m = q;
		while (*m == ' ')
			m++;
		const char *mend = *m == '[' ? strchr(m, ']') : NULL;
		if (mend && g_strstr_len(v, q - v, "+0x") && mend - m > 1 &&
		    !memchr(m, ' ', (gsize)(mend - m)))
			q = mend + 1;
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
	/* 2.6.2x put them in parentheses: "Not tainted (2.6.26-rc3 #82)" */
	gboolean paren = *p == '(';
	p += paren;
	const char *rel = p;
	while (*p && *p != ' ' && !(paren && *p == ')'))
		p++;
	if (p > rel && !r->release)
		r->release = g_strndup(rel, (gsize)(p - rel));
	p = oops_trim(p);
	if (*p == '#' && !r->build) {
		const char *b = p;
		while (*p && *p != ' ' && !(paren && *p == ')'))
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

/* "8576591c rest": rest */
static const char *oops_skip_hex_word(const char *p)
{
	while (oops_is_hex(*p))
		p++;
	return oops_trim(p);
}

/* v after its code segment ("0010:"), NULL when that is user mode's
 * (privilege 3: "0033:"); v itself when it has none. */
static const char *oops_kernel_segment(const char *v)
{
	if (!(oops_is_hex(v[0]) && oops_is_hex(v[1]) && oops_is_hex(v[2]) && oops_is_hex(v[3]) &&
	      v[4] == ':'))
		return v;
	return (g_ascii_xdigit_value(v[3]) & 3) == 3 ? NULL : v + 5;
}

/* The frame v names into *f (TRUE), for register reg (static). */
static gboolean oops_reg_frame(const char *v, FtlOopsFrame *f)
{
	if (!oops_parse_frame(v, f)) {
		/* "RIP: 0010:          (null)": nothing to name */
		if (!strstr(v, "(null)"))
			return FALSE;
		memset(f, 0, sizeof *f);
		f->address = g_strdup("0");
	}
	f->reliable = TRUE;
	return TRUE;
}

/* r's fault is the frame v names, register reg (static). */
static void oops_fault_set(FtlOopsReport *r, const char *reg, const char *v)
{
	if (!oops_reg_frame(v, &r->fault))
		return;
	r->has_fault = TRUE;
	r->fault_reg = g_strdup(reg);
}

/* The link register's line beside the faulting one, the first of the
 * report: "lr : func+0x1c/0x120" (arm64), "LR is at func+0x6c/0x120"
 * (arm), "LR [c00000000022d784] func+0x194/0x5f0" (ppc). Not arm64's old
 * "pc : [<...>] lr : [<...>] pstate: ..." (addresses only). */
static void oops_link_line(FtlOopsReport *r, const char *s)
{
	if (r->has_link)
		return;
	const char *reg, *v;
	if (g_str_has_prefix(s, "lr : ")) {
		reg = "lr";
		v = s + 5;
	} else if (g_str_has_prefix(s, "LR is at ")) {
		reg = "LR";
		v = s + 9;
	} else if (g_str_has_prefix(s, "LR [")) {
		reg = "LR";
		v = s + 3;
	} else {
		return;
	}
	if (!oops_reg_frame(v, &r->link))
		return;
	if (r->link.inlined) {
		/* syzkaller's symbolized level "LR [...] f file:line [inline]":
		 * the frame itself is on the next line */
		ftl_oops_frame_clear(&r->link);
		return;
	}
	r->has_link = TRUE;
	r->link_reg = g_strdup(reg);
}

/* Where the CPU was, from the report's first kernel-mode RIP/PC/NIP/epc/PSW. */
static void oops_fault_line(FtlOopsReport *r, const char *s)
{
	if (r->has_fault)
		return;
	const char *reg = NULL, *v = NULL;
	if (g_str_has_prefix(s, "RIP: ") || g_str_has_prefix(s, "EIP: ")) {
		reg = s[0] == 'R' ? "RIP" : "EIP";
		/* i386: "EIP:    0060:[<c021e50e>]" */
		if (!(v = oops_kernel_segment(oops_trim(s + 5))))
			return;
	} else if (g_str_has_prefix(s, "IP: ")) {
		reg = "IP";
		v = s + 4;
	} else if (g_str_has_prefix(s, "EIP is at ")) {
		/* i386 before 3.x named it on a line of its own after
		 * "EIP: 0060:[<c10731b2>] EFLAGS: 00000246 CPU: 0" */
		reg = "EIP";
		v = s + 10;
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
	} else if (g_str_has_prefix(s, "epc   : ") && strstr(s, "+0x")) {
		/* mips: "epc   : 8576591c mt7615_mcu_add_bss+0xd0/0x3c0 [mt7615_common]" */
		reg = "epc";
		v = oops_skip_hex_word(s + 8);
	} else if (g_str_has_prefix(s, "Krnl PSW : ") && strchr(s, '(')) {
		/* s390: "Krnl PSW : 0704c00180000000 0000000000811ee4 (blk_rq_merge_ok+0x1c/0x120)" */
		reg = "PSW";
		v = strchr(s, '(') + 1;
		g_autofree char *sym = g_strndup(v, strcspn(v, ")"));
		oops_fault_set(r, reg, sym);
		return;
	} else {
		return;
	}
	oops_fault_set(r, reg, v);
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

/* ---- a report's lines ------------------------------------------------------------ */

/* Which printk context printed l, as far as the log says: its caller id;
 * without caller ids, one context for the whole report. */
static gint64 oops_line_context(const FtlConsole *con, const FtlConsoleLine *l)
{
	return con->has_caller ? oops_context(l) : 0;
}

static FtlOopsStack *oops_stack_new(const char *label, guint line)
{
	FtlOopsStack *s = g_new0(FtlOopsStack, 1);
	s->label = label ? g_strdup(label) : NULL;
	s->line = line;
	s->frames = g_array_new(FALSE, FALSE, sizeof(FtlOopsFrame));
	s->cpu = -1;
	s->caller = -1;
	return s;
}

static void oops_reg_clear(gpointer p)
{
	FtlOopsReg *g = p;
	g_free(g->name);
	g_free(g->value);
}

void ftl_oops_regs_array_free(GArray *regs)
{
	for (guint i = 0; i < regs->len; i++) {
		FtlOopsReg *g = &g_array_index(regs, FtlOopsReg, i);
		g_free(g->name);
		g_free(g->value);
	}
	g_array_unref(regs);
}

void ftl_oops_regs_free(FtlOopsRegs *b)
{
	ftl_oops_regs_array_free(b->regs);
	ftl_oops_frame_clear(&b->pc);
	g_free(b);
}

/* Where a register dump says its CPU was: the value of its RIP/EIP (in
 * kernel mode), pc, PC, NIP or epc register, when it names a function.
 * Returns the register's value (after the code segment), NULL for none. */
static const char *oops_regs_pc_value(const FtlOopsRegs *rb, const char **reg)
{
	static const char *const names[] = { "RIP", "EIP", "pc", "PC", "NIP", "epc" };
	for (guint i = 0; i < rb->regs->len; i++) {
		const FtlOopsReg *g = &g_array_index(rb->regs, FtlOopsReg, i);
		for (guint k = 0; k < G_N_ELEMENTS(names); k++) {
			if (strcmp(g->name, names[k]) != 0)
				continue;
			*reg = names[k];
			return oops_kernel_segment(oops_trim(g->value));
		}
	}
	return NULL;
}

static gboolean oops_same_place(const FtlOopsFrame *a, const FtlOopsFrame *b)
{
	return g_strcmp0(a->func, b->func) == 0 && a->offset == b->offset &&
	       g_strcmp0(a->module, b->module) == 0 && g_strcmp0(a->address, b->address) == 0;
}

void ftl_oops_read_pcs(FtlOopsReport *r)
{
	const FtlOopsRegs *fault_block = NULL;
	for (guint i = 0; i < r->reg_blocks->len; i++) {
		FtlOopsRegs *rb = g_ptr_array_index(r->reg_blocks, i);
		const char *reg = NULL, *v = oops_regs_pc_value(rb, &reg);
		if (!v || !oops_reg_frame(v, &rb->pc) || !rb->pc.func) {
			ftl_oops_frame_clear(&rb->pc);
			continue;
		}
		rb->has_pc = TRUE;
		rb->pc_reg = reg;
		if (r->has_fault && !fault_block && oops_same_place(&rb->pc, &r->fault))
			fault_block = rb;
	}
	/* another CPU's: not where this report's CPU was */
	if (!fault_block || fault_block->cpu < 0 || r->cpu < 0 || fault_block->cpu == r->cpu)
		return;
	ftl_oops_frame_clear(&r->fault);
	g_clear_pointer(&r->fault_reg, g_free);
	r->has_fault = FALSE;
	for (guint i = 0; i < r->reg_blocks->len; i++) {
		const FtlOopsRegs *rb = g_ptr_array_index(r->reg_blocks, i);
		const char *reg = NULL, *v = rb->has_pc ? oops_regs_pc_value(rb, &reg) : NULL;
		if (v && rb->cpu == r->cpu) {
			oops_fault_set(r, reg, v);
			return;
		}
	}
}

/* Reading one printk context's lines of a report (one CPU's or task's):
 * its stack traces and register dumps. */
typedef struct {
	gint64 key;	     /* oops_line_context() of its lines */
	GPtrArray *sections; /* the x86 sections ("IRQ", "TASK"...) the line is in */
	FtlOopsStack *cur;   /* the trace being read, NULL between traces */
	guint junk;	     /* lines since cur's last frame that are not its own */
	const char *label;   /* the line that may introduce the next trace */
	gboolean arm_started;
	/* another CPU's trace was being printed when the report began, on a log
	 * without printk caller ids: frames that no line of the report
	 * introduces are its, not the report's */
	gboolean foreign;
	gint cpu;	    /* the CPU its lines speak of now, -1 unknown */
	gboolean nmi;	    /* it answers "Sending NMI": "NMI backtrace for cpu N" */
	gboolean left;	    /* cur left an IRQ or NMI section */
	gboolean exception; /* "--- interrupt:" just printed */
	gboolean ambiguous; /* two CPUs' NMI backtraces mixed without caller ids */
	FtlOopsRegs *regs;  /* the register dump being read */
	gint64 last_ts;	    /* printk time of cur's last frame */
} OopsCtx;

typedef struct {
	FtlOopsReport *r;
	const FtlConsole *con;
	GPtrArray *ctxs; /* OopsCtx*, one per printk context */
	gint64 own;	 /* the report's own context */
	gint64 prev;	 /* the context of the line before */
	gboolean regs_done;
} OopsStacks;

static void oops_ctx_free(OopsCtx *c)
{
	g_ptr_array_unref(c->sections);
	g_free(c);
}

static OopsCtx *oops_stacks_ctx(OopsStacks *st, const FtlConsoleLine *l)
{
	gint64 key = oops_line_context(st->con, l);
	for (guint i = 0; i < st->ctxs->len; i++) {
		OopsCtx *c = g_ptr_array_index(st->ctxs, i);
		if (c->key == key)
			return c;
	}
	OopsCtx *c = g_new0(OopsCtx, 1);
	c->key = key;
	c->sections = g_ptr_array_new();
	c->last_ts = FTL_TS_NONE;
	/* a [CN] caller id names the CPU that printed, until a line says
	 * whose registers and trace follow */
	c->cpu = key == st->own ? st->r->cpu : l->caller_kind == 'C' ? (gint)l->caller : -1;
	g_ptr_array_add(st->ctxs, c);
	return c;
}

/* Lines that end in ':' but introduce no stack trace: between a report's
 * lines they mean another message, never the label of frames after them. */
static gboolean oops_not_label(const char *s)
{
	static const char *const starts[] = {
		"Modules linked in:", "Dumping ftrace buffer:", "Mem-Info:", "lowmem_reserve[]:",
		"Code:", "Instruction dump:", "Krnl Code:", "Stack:", "Showing all locks held",
	};
	for (guint i = 0; i < G_N_ELEMENTS(starts); i++)
		if (g_str_has_prefix(s, starts[i]))
			return TRUE;
	/* the free-area lines of Mem-Info: "DMA: 1*4kB ...", "Normal:" */
	gsize n = strcspn(s, ": ");
	return s[n] == ':' && n && n <= 8 && g_ascii_isupper(s[0]) && !oops_trim(s + n + 1)[0];
}

/* A line that introduces the frames after it: "Call Trace:", "Allocated by
 * task 12:", and SLUB's "Allocated in func+0x1/0x2 age=3 cpu=0 pid=4",
 * which ends in no colon. */
static gboolean oops_trace_intro(const char *s)
{
	if (oops_ends_with(s, ":"))
		return !oops_not_label(s);
	if (g_str_has_prefix(s, "INFO: "))
		s += 6;
	return (g_str_has_prefix(s, "Allocated in ") || g_str_has_prefix(s, "Freed in ") ||
		g_str_has_prefix(s, "page last allocated via ")) &&
	       strstr(s, " pid");
}

/* A frame line (or a bare section marker) at console line l (index idx)
 * of context c: frame is a parsed frame in f, arm an arm pair in f and
 * caller. */
static void oops_stacks_frame(OopsStacks *st, OopsCtx *c, guint idx, const FtlConsoleLine *l,
			      gboolean frame, gboolean arm, FtlOopsFrame *f, FtlOopsFrame *caller)
{
	c->regs = NULL;
	if (!c->cur) {
		if (c->foreign && !c->label) {
			/* the other CPU's frame, printed between the report's lines */
			ftl_oops_frame_clear(f);
			if (arm)
				ftl_oops_frame_clear(caller);
			return;
		}
		c->cur = oops_stack_new(c->label, idx);
		c->cur->interleaved = c->foreign;
		c->cur->cpu = c->cpu;
		c->cur->caller = l->caller;
		c->cur->caller_kind = l->caller_kind;
		g_ptr_array_add(st->r->stacks, c->cur);
		c->arm_started = c->left = FALSE;
		c->last_ts = FTL_TS_NONE;
	} else if ((frame || arm) && c->cur->frames->len &&
		   (st->prev != c->key ||
		    (l->ts != FTL_TS_NONE && c->last_ts != FTL_TS_NONE && l->ts < c->last_ts))) {
		/* another context's line came between two of its frames, or
		 * the times go back: two CPUs printed at once */
		c->cur->interleaved = TRUE;
	}
	if (frame || arm)
		c->last_ts = l->ts;
	GPtrArray *sections = c->sections;
	const char *section = sections->len ? g_ptr_array_index(sections, sections->len - 1) : NULL;
	if (frame) {
		f->section = section;
		f->line = idx;
		g_array_append_val(c->cur->frames, *f);
	} else if (arm) {
		/* each line names the caller of the one before; the first
		 * also names where the CPU was, and so does a line whose
		 * callee is not the caller before it: the function an
		 * exception interrupted ("Exception stack(...)" then
		 * "(func) from (caller)"), or lines the log lost */
		const FtlOopsFrame *prev =
			c->arm_started && c->cur->frames->len
				? &g_array_index(c->cur->frames, FtlOopsFrame,
						 c->cur->frames->len - 1)
				: NULL;
		if (!c->arm_started || !prev || g_strcmp0(prev->func, f->func)) {
			f->line = idx;
			f->section = section;
			g_array_append_val(c->cur->frames, *f);
			c->arm_started = TRUE;
		} else {
			ftl_oops_frame_clear(f);
		}
		caller->line = idx;
		caller->section = section;
		g_array_append_val(c->cur->frames, *caller);
	}
	c->junk = 0;
	c->label = NULL;
}

/* i386's die() ends a report with "EIP: [<c10731b2>] func+0xe2/0xf0 SS:ESP
 * 0068:c46f3e30": where it was, said again, no register dump. */
static gboolean oops_eip_summary(const char *s)
{
	return g_str_has_prefix(s, "EIP: [<") && strstr(s, " SS:ESP ");
}

/* The code segment of an x86 "RIP: 0033:..." says user mode (privilege 3). */
static gboolean oops_user_segment(const char *s)
{
	const char *v = NULL;
	if (g_str_has_prefix(s, "RIP: ") || g_str_has_prefix(s, "EIP: "))
		v = oops_trim(s + 5);
	return v && oops_is_hex(v[0]) && oops_is_hex(v[1]) && oops_is_hex(v[2]) &&
	       oops_is_hex(v[3]) && v[4] == ':' && (g_ascii_xdigit_value(v[3]) & 3) == 3;
}

/* s390: "Krnl PSW : 0704c00180000000 0000000000811ee4 (func+0x1c/0x120)" and
 * "Krnl GPRS: r0 r1 r2 r3", the other twelve on the three lines after it
 * ("User PSW", "User GPRS" in user mode). *gprs counts the registers of
 * the GPRS dump read so far (16: none is being read). Adds the line's
 * registers to regs (may be NULL: then *gprs is left alone); returns
 * their count, 0 for any other line. */
static guint oops_parse_s390(const char *s, GArray *regs, guint *gprs)
{
	const char *p = s;
	gboolean prefixed = g_str_has_prefix(p, "Krnl ") || g_str_has_prefix(p, "User ");
	if (prefixed)
		p += 5;
	if (prefixed && g_str_has_prefix(p, "PSW : ")) {
		const char *v = oops_trim(p + 6), *e = v;
		while (oops_is_hex(*e) || (*e == ' ' && oops_is_hex(e[1])))
			e++;
		if (e == v)
			return 0;
		if (regs)
			oops_reg_add(regs, "PSW", 3, v, (gsize)(e - v));
		return 1;
	}
	guint at = *gprs;
	if (prefixed && g_str_has_prefix(p, "GPRS: "))
		at = 0, p += 6;
	else if (prefixed || at >= 16)
		return 0;
	const char *words[4];
	guint n = 0;
	for (p = oops_trim(p); *p && n < 4 && at + n < 16; p = oops_trim(p + 16)) {
		words[n] = p;
		if (strspn(p, "0123456789abcdef") != 16 || (p[16] && p[16] != ' '))
			return 0;
		n++;
	}
	if (!n || *p)
		return 0;
	if (regs) {
		for (guint i = 0; i < n; i++) {
			char rn[8];
			g_snprintf(rn, sizeof rn, "r%u", at + i);
			oops_reg_add(regs, rn, strlen(rn), words[i], 16);
		}
		*gprs = at + n;
	}
	return n;
}

/* What context a register dump beginning at line s in context c is of. */
static const char *oops_regs_context(OopsStacks *st, OopsCtx *c, const char *s)
{
	if (oops_user_segment(s) || g_str_has_prefix(s, "User PSW"))
		return "user";
	if (c->cur && c->left)
		return "interrupted";
	if (c->exception)
		return "exception";
	if (c->nmi)
		return "nmi-backtrace";
	if (c->key == st->own && !st->regs_done)
		return "report";
	return "other";
}

/* A register line s of context c (console line idx): a new dump, or more
 * of the one being read. */
static void oops_stacks_regs(OopsStacks *st, OopsCtx *c, guint idx, const char *s, guint *gprs)
{
	g_autoptr(GArray) line = g_array_new(FALSE, FALSE, sizeof(FtlOopsReg));
	g_array_set_clear_func(line, oops_reg_clear);
	if (!oops_parse_s390(s, line, gprs))
		oops_parse_regs(s, line);
	/* a dump names its first register once: that name again begins the
	 * next dump, unless two CPUs' lines are known to be mixed here */
	gboolean again = c->regs && line->len && c->regs->regs->len && !c->ambiguous &&
			 !strcmp(g_array_index(line, FtlOopsReg, 0).name,
				 g_array_index(c->regs->regs, FtlOopsReg, 0).name);
	if (!c->regs || again || oops_user_segment(s) || g_str_has_prefix(s, "User PSW")) {
		c->regs = g_new0(FtlOopsRegs, 1);
		c->regs->context = oops_regs_context(st, c, s);
		c->regs->cpu = c->cpu;
		c->regs->line = idx;
		c->regs->regs = g_array_new(FALSE, FALSE, sizeof(FtlOopsReg));
		g_ptr_array_add(st->r->reg_blocks, c->regs);
	}
	/* the values move over to the dump; line frees only the array */
	g_array_append_vals(c->regs->regs, line->data, line->len);
	g_array_set_clear_func(line, NULL);
}

/* The trace c was reading has ended. */
static void oops_ctx_end_stack(OopsStacks *st, OopsCtx *c)
{
	c->cur = NULL;
	c->junk = 0;
	c->nmi = c->ambiguous = FALSE;
	st->regs_done = st->regs_done || st->r->regs->len > 0;
	g_ptr_array_set_size(c->sections, 0);
}

/* What a line of context c says of the CPU its next lines are about. */
static void oops_stacks_cpu(OopsStacks *st, OopsCtx *c, const char *s)
{
	const char *n = NULL;
	if (g_str_has_prefix(s, "NMI backtrace for cpu ")) {
		/* another CPU's registers and trace follow */
		if (c->cur)
			oops_ctx_end_stack(st, c);
		gboolean pending = c->nmi; /* one said so and printed nothing yet */
		n = s + 22;
		c->nmi = !strstr(s, "skipped");
		c->regs = NULL;
		if (pending && c->nmi) {
			/* two CPUs' backtraces mixed in one context: whose lines
			 * follow, the log does not say */
			c->cpu = -1;
			c->ambiguous = TRUE;
		}
		if (c->ambiguous)
			return;
	} else if (c->ambiguous) {
		return;
	} else if (g_str_has_prefix(s, "CPU: ") && strstr(s, "PID: ")) {
		n = s + 5;
	} else if (g_str_has_prefix(s, "EIP: ") && strstr(s, " EFLAGS: ") && strstr(s, " CPU: ")) {
		/* i386 before 3.x: "EIP: 0060:[<c10731b2>] EFLAGS: 00000246 CPU: 0",
		 * its only word of the CPU */
		n = strstr(s, " CPU: ") + 6;
	} else if (g_str_has_prefix(s, "task:") && strstr(s, " state:")) {
		/* a task's stack (sched_show_task), not a running CPU's */
		c->cpu = -1;
		c->nmi = FALSE;
		return;
	}
	if (n && g_ascii_isdigit(*n))
		c->cpu = (gint)g_ascii_strtoll(n, NULL, 10);
}

/* Any other line s of context c: registers, code bytes, the end of a
 * trace, a label. */
static void oops_stacks_other(OopsStacks *st, OopsCtx *c, guint idx, const char *s,
			      guint *gprs)
{
	FtlOopsReport *r = st->r;
	gboolean regline = !oops_eip_summary(s) &&
			   (oops_parse_regs(s, NULL) > 0 || oops_parse_s390(s, NULL, gprs) > 0);
	if (regline)
		oops_stacks_regs(st, c, idx, s, gprs);
	else if (!g_str_has_prefix(s, "Code: ") && !g_str_has_prefix(s, "Krnl Code") &&
		 !(c->regs && g_str_has_prefix(s, "EIP is at ")) &&
		 !(c->regs && *s && strspn(s, "RTIOEXKeyMWPASCRI:0123456789 ") == strlen(s)))
		c->regs = NULL; /* the s390 PSW flags line, i386's "EIP is at" stay in their dump */
	if (g_str_has_prefix(s, "--- interrupt:"))
		c->exception = TRUE;
	else if (*s && !regline && !g_str_has_prefix(s, "Code: "))
		c->exception = FALSE;
	if (c->cur) {
		/* exception registers and code bytes inside a trace */
		if (regline || g_str_has_prefix(s, "Code: ") ||
		    g_str_has_prefix(s, "--- interrupt:") ||
		    g_str_has_prefix(s, "Exception stack("))
			return;
		/* another CPU's lines come between the frames of one mixed with it */
		if (!oops_trace_intro(s) && !g_str_has_prefix(s, "---[ end") &&
		    ++c->junk < (c->cur->interleaved ? OOPS_MIXED_JUNK : OOPS_TRACE_JUNK))
			return;
		oops_ctx_end_stack(st, c);
	}
	if (regline && !st->regs_done && c->key == st->own && !c->nmi)
		oops_parse_regs(s, r->regs);
	/* a label for the frames that may follow */
	if (oops_trace_intro(s) && !regline)
		c->label = s;
	else if (*s)
		c->label = NULL;
}

/* Whether the log was in the middle of a stack trace of another printk
 * context when the report at line first began, on a log without caller ids
 * to tell the two apart. */
static gboolean oops_foreign_trace_open(const FtlConsole *con, guint first)
{
	if (con->has_caller)
		return FALSE;
	for (guint i = first; i-- > 0 && first - i <= 3;) {
		const char *s = oops_trim(ftl_console_line(con, i)->text);
		if (!*s)
			continue;
		FtlOopsFrame f;
		if (oops_parse_frame(s, &f)) {
			ftl_oops_frame_clear(&f);
			return TRUE;
		}
		if (g_str_has_prefix(s, "Call Trace:") || g_str_has_prefix(s, "Call trace:"))
			return TRUE;
	}
	return FALSE;
}

void ftl_oops_read_stacks(FtlOopsReport *r, const FtlConsole *con, GArray *lines)
{
	g_autoptr(GPtrArray) ctxs = g_ptr_array_new_with_free_func((GDestroyNotify)oops_ctx_free);
	OopsStacks st = { .r = r, .con = con, .ctxs = ctxs };
	st.own = oops_line_context(con, ftl_console_line(con, r->first));
	st.prev = st.own;
	gboolean foreign = oops_foreign_trace_open(con, r->first);
	guint gprs = 16;
	for (guint k = 0; k < lines->len; k++) {
		guint idx = g_array_index(lines, guint, k);
		const FtlConsoleLine *l = ftl_console_line(con, idx);
		OopsCtx *c = oops_stacks_ctx(&st, l);
		if (k == 0)
			c->foreign = foreign;
		const char *s = oops_trim(l->text);
		gboolean marker;
		GPtrArray *sections = c->sections;
		guint depth = sections->len;
		const char *rest = oops_sections(s, sections, &marker);
		if (marker && c->cur && sections->len < depth)
			c->left = TRUE; /* "</IRQ>": the registers of what it interrupted may follow */
		/* zeroed: a bare section marker ("<IRQ>") parses no frame, and
		 * oops_stacks_frame() clears what it is given (found by
		 * fuzz-console: a double free of the last line's strings) */
		FtlOopsFrame f = { 0 }, caller = { 0 };
		gboolean arm = FALSE, frame = FALSE;
		/* a line the log cut short may name a wrong offset: no frame */
		if (*rest && !(l->flags & FTL_CONSOLE_LINE_CUT)) {
			frame = oops_parse_frame(rest, &f);
			if (!frame)
				arm = oops_parse_arm_frame(rest, &f, &caller);
		}
		if (frame || arm || (marker && !*rest)) {
			oops_stacks_frame(&st, c, idx, l, frame, arm, &f, &caller);
		} else {
			oops_stacks_cpu(&st, c, s);
			oops_stacks_other(&st, c, idx, s, &gprs);
		}
		st.prev = c->key;
	}
	/* a dump that only the block reader understands (s390's PSW and
	 * GPRS) is the report's own one too */
	for (guint i = 0; i < r->reg_blocks->len && !r->regs->len; i++) {
		const FtlOopsRegs *rb = g_ptr_array_index(r->reg_blocks, i);
		if (!strcmp(rb->context, "report"))
			for (guint k = 0; k < rb->regs->len; k++) {
				const FtlOopsReg *g = &g_array_index(rb->regs, FtlOopsReg, k);
				oops_reg_add(r->regs, g->name, strlen(g->name), g->value,
					     strlen(g->value));
			}
	}
	/* stack labels are borrowed until here: copy them now */
	for (guint i = 0; i < r->stacks->len; i++) {
		FtlOopsStack *stack = g_ptr_array_index(r->stacks, i);
		if (stack->label) {
			char *lab = g_strdup(oops_trim(stack->label));
			g_strchomp(lab);
			g_free(stack->label);
			stack->label = lab;
		}
	}
}

/* Lockdep's own lines, for the kernels that print no "CPU: N PID:" line
 * before its stack (before 3.10, and a splat cut short): the kernel
 * ident under its header, "2.6.18-1.2189self #1" or "3.17.0-rc4+ #1498
 * Not tainted", and the task, "kswapd0/186 is trying to acquire lock:",
 * "swapper/0/0 [HC0[0]:SC1[1]:HE1:SE0] takes:". */
static void oops_lockdep_line(FtlOopsReport *r, const char *s)
{
	if (!r->release && g_ascii_isdigit(s[0]) && strchr(s, '.') && strstr(s, " #")) {
		const char *sp = strchr(s, ' ');
		const char *b = oops_trim(sp);
		const char *be = b + strcspn(b, " ");
		const char *t = oops_trim(be);
		if (sp && b[0] == '#' && be > b + 1 &&
		    (!*t || g_str_has_prefix(t, "Not tainted") || g_str_has_prefix(t, "Tainted: "))) {
			r->release = g_strndup(s, (gsize)(sp - s));
			r->build = g_strndup(b, (gsize)(be - b));
			if (!r->taint && *t) {
				r->tainted = t[0] == 'T';
				r->taint = g_strdup(r->tainted ? t + 9 : "Not tainted");
				g_strchomp(r->taint);
			}
		}
		return;
	}
	static const char *const verbs[] = { " is trying to acquire lock:",
					     " is trying to release lock",
					     " just changed the state of lock:",
					     " is exiting with locks still held!",
					     " [HC" };
	const char *v = NULL;
	for (guint i = 0; i < G_N_ELEMENTS(verbs) && !v; i++)
		v = strstr(s, verbs[i]);
	if (!v || r->pid >= 0 || r->comm)
		return;
	const char *d = v;
	while (d > s && g_ascii_isdigit(d[-1]))
		d--;
	if (d == v || d - 1 <= s || d[-1] != '/')
		return;
	r->pid = (gint)g_ascii_strtoll(d, NULL, 10);
	r->comm = g_strndup(s, (gsize)(d - 1 - s));
}

static void oops_header_task(FtlOopsReport *r);

/* Field lines: task, kernel, taint, modules, markers. */
void ftl_oops_read_fields(FtlOopsReport *r, const FtlConsole *con, GArray *lines)
{
	gint64 own = oops_line_context(con, ftl_console_line(con, r->first));
	for (guint k = 0; k < lines->len; k++) {
		const FtlConsoleLine *l = ftl_console_line(con, g_array_index(lines, guint, k));
		const char *s = oops_trim(l->text);
		/* another CPU's lines (its NMI backtrace) speak of its own task
		 * and registers: they stay with its stacks (read_stacks) */
		if (oops_line_context(con, l) != own)
			continue;
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
		const char *eflags = g_str_has_prefix(s, "EIP: ") ? strstr(s, " EFLAGS: ") : NULL;
		const char *on = eflags ? strstr(eflags, " CPU: ") : NULL;
		if (r->cpu < 0 && on && g_ascii_isdigit(on[6]))
			r->cpu = (gint)g_ascii_strtoll(on + 6, NULL, 10); /* i386 before 3.x */
		oops_location(r, s);
		oops_fault_line(r, s);
		oops_link_line(r, s);
		if (r->kind == FTL_OOPS_LOCKDEP)
			oops_lockdep_line(r, s);
	}
	oops_header_task(r);
}

/* Hung tasks and lockups name the task in their first line. */
static void oops_header_task(FtlOopsReport *r)
{
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
