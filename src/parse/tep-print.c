/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Print formats compiled into steps (literal text, a field as a number, a
 * string, a pointer, a function name or a symbol): dump renders millions of
 * payloads, and libtraceevent parses each conversion, allocates and goes
 * through vsnprintf for every field of every record. What is rendered here
 * follows the library's rules, not C's: fields read zero-extended and then
 * cast by the conversion's length, a plain %p printed as glibc's "%p", %s of
 * a fixed array up to its NUL. tests/e2e/t3007 compares the two renderings
 * of every record of every sample (FTLENS_PAYLOAD_CHECK). */
#include "config.h"

#include "parse/tep-print.h"

#include <stdlib.h>
#include <string.h>

#include <event-parse.h>

#include "parse/tep-printk.h"
#include "util/strput.h"

typedef enum {
	STEP_TEXT, /* literal text */
	STEP_NUM,  /* %d %i %u %x %X of a number */
	STEP_PTR,  /* plain %p */
	STEP_FUNC, /* %ps / %pS */
	STEP_STR,  /* %s of a string argument */
} StepKind;

/* Numbers: the library's eval_num_arg() over fields, constants, casts and
 * operators, unsigned 64-bit throughout. */
typedef enum {
	X_CONST, /* v */
	X_FIELD, /* the field at off of size bytes, zero-extended */
	X_MASK,	 /* a & v: a cast to a type of 1, 2 or 4 bytes */
	X_BIN,	 /* a op b */
	X_COND,	 /* a ? b : c */
	X_INDEX, /* the element a of the array at off, size bytes each, & v */
} ExprKind;

typedef struct {
	ExprKind kind;
	char op[3];
	gint off, size;
	guint64 v;
	gint a, b, c; /* other Exprs, by index */
} Expr;

/* Strings: the library's print_str_arg(). */
typedef enum {
	S_ARRAY,  /* a char array field (size 0: to the record's end) */
	S_DYNSTR, /* __get_str(): a __data_loc or __rel_loc string */
	S_ATOM,	  /* a literal: text */
	S_SYMBOL, /* __print_symbolic(expr, ...): syms */
	S_FLAGS,  /* __print_flags(expr, delim, ...): syms, delim in text */
	S_COND,	  /* expr ? a : b */
	S_PRINTK, /* a pointer-sized field: the printk string at its value */
} StrKind;

typedef struct {
	StrKind kind;
	gint off, size;
	gboolean relative; /* S_DYNSTR: __rel_loc */
	gint expr;	   /* S_SYMBOL, S_FLAGS, S_COND */
	gint a, b;	   /* S_COND: other StrArgs, by index */
	guint first, n;	   /* S_ATOM: bytes in text; S_SYMBOL, S_FLAGS: entries in syms */
	guint delim, delim_len;
} StrArg;

typedef struct {
	StepKind kind;
	char conv;	/* d i u x X; s or S for STEP_FUNC */
	gint8 ls;	/* 0: the value is cast to int, -1 short, -2 char, else a 64-bit long */
	gboolean left;	/* '-' */
	gboolean zero;	/* '0' */
	gboolean alt;	/* '#' */
	guint width;	/* 0: none */
	gint arg;	/* the Expr of a number, the StrArg of a string */
	guint first, n; /* STEP_TEXT: bytes in text */
} Step;

typedef struct {
	guint64 value;
	guint text, len; /* in text */
} Sym;

struct _FtlTepPrint {
	GArray *steps; /* Step */
	GArray *exprs; /* Expr */
	GArray *strs;  /* StrArg */
	GArray *syms;  /* Sym */
	GString *text; /* literal text, symbol names and delimiters */
	gboolean functions;
	FtlPrintkMap *printk; /* S_PRINTK's strings (a reference), or NULL */
};

void ftl_tep_print_free(FtlTepPrint *p)
{
	if (!p)
		return;
	g_array_unref(p->steps);
	g_array_unref(p->exprs);
	g_array_unref(p->strs);
	g_array_unref(p->syms);
	g_string_free(p->text, TRUE);
	ftl_printk_map_unref(p->printk);
	g_free(p);
}

gboolean ftl_tep_print_wants_functions(const FtlTepPrint *p)
{
	return p->functions;
}

/* ---- compiling --------------------------------------------------------- */

static void print_add_text(FtlTepPrint *p, const char *s, gsize len)
{
	Step *last = p->steps->len ? &g_array_index(p->steps, Step, p->steps->len - 1) : NULL;
	if (last && last->kind == STEP_TEXT && last->first + last->n == p->text->len) {
		last->n += (guint)len;
	} else {
		Step st = { .kind = STEP_TEXT, .first = (guint)p->text->len, .n = (guint)len };
		g_array_append_val(p->steps, st);
	}
	g_string_append_len(p->text, s, (gssize)len);
}

/* Literal text up to the next conversion, with the library's escapes
 * (\n \t \r \\ and \c for any other c) and "%%". Returns where it stopped. */
static const char *print_literal(FtlTepPrint *p, const char *f)
{
	while (*f && !(f[0] == '%' && f[1] != '%')) {
		char c = *f;
		if (c == '\\' && f[1]) {
			f++;
			c = *f == 'n' ? '\n' : *f == 't' ? '\t' : *f == 'r' ? '\r' : *f;
		} else if (c == '%') {
			f++; /* "%%" */
		}
		print_add_text(p, &c, 1);
		f++;
	}
	return f;
}

static gint print_add_expr(FtlTepPrint *p, Expr x)
{
	g_array_append_val(p->exprs, x);
	return (gint)p->exprs->len - 1;
}

/* What a cast to type keeps of a value (the library's eval_type_str()):
 * types of 1, 2 or 4 bytes mask it, all others (pointers, structs, longs,
 * typedefs it does not know) leave it. */
static guint64 print_cast_mask(const char *type)
{
	gsize len = strlen(type);
	if (!len || type[len - 1] == '*' || g_str_has_prefix(type, "struct"))
		return G_MAXUINT64;
	if (!strcmp(type, "u8") || !strcmp(type, "s8"))
		return 0xff;
	if (!strcmp(type, "u16") || !strcmp(type, "s16"))
		return 0xffff;
	if (!strcmp(type, "u32") || !strcmp(type, "s32"))
		return 0xffffffff;
	if (g_str_has_prefix(type, "unsigned "))
		type += 9;
	if (!strcmp(type, "char"))
		return 0xff;
	if (!strcmp(type, "short"))
		return 0xffff;
	if (!strcmp(type, "int"))
		return 0xffffffff;
	return G_MAXUINT64;
}

/* A number field of event: not an array, 1, 2, 4 or 8 bytes. */
static struct tep_format_field *print_field(struct tep_event *event, const char *name)
{
	/* VALIDATED: a lookup in a GUARDED-parsed format; offset and size checked here,
	 * against the record in ftl_tep_print_run */
	struct tep_format_field *f = name ? tep_find_any_field(event, name) : NULL;
	if (!f || (f->flags & (TEP_FIELD_IS_ARRAY | TEP_FIELD_IS_DYNAMIC)) || f->offset < 0 ||
	    (f->size != 1 && f->size != 2 && f->size != 4 && f->size != 8))
		return NULL;
	return f;
}

static const char *const print_ops[] = { "!", "!=", "~", "|", "||", "&", "&&", "<", "<<",
					 "<=", ">", ">>", ">=", "==", "-", "+", "/", "%", "*" };

static gint print_expr(FtlTepPrint *p, struct tep_event *event, struct tep_print_arg *a,
		       int depth);

/* REC->x[i], maybe cast: an element of a fixed array field. */
static gint print_index(FtlTepPrint *p, struct tep_event *event, struct tep_print_arg *a,
			int depth)
{
	Expr x = { .kind = X_INDEX, .v = G_MAXUINT64 };
	struct tep_print_arg *l = a->op.left;
	const char *cast = NULL;
	for (; l && l->type == TEP_PRINT_TYPE; l = l->typecast.item)
		if (!cast)
			cast = l->typecast.type;
	if (!l || l->type != TEP_PRINT_FIELD || !l->field.name || !a->op.right)
		return -1;
	/* VALIDATED: a lookup; element size and offset checked below, the index against the
	 * record when run */
	struct tep_format_field *f = tep_find_any_field(event, l->field.name);
	if (!f || f->offset < 0 || (f->flags & TEP_FIELD_IS_DYNAMIC) ||
	    (f->elementsize != 1 && f->elementsize != 2 && f->elementsize != 4 &&
	     f->elementsize != 8))
		return -1;
	if (cast) {
		/* a pointer cast: what the pointed-to type keeps */
		gsize len = strlen(cast);
		if (len < 2 || cast[len - 1] != '*')
			return -1;
		g_autofree char *base = g_strndup(cast, len - 2);
		x.v = print_cast_mask(base);
	}
	x.off = f->offset;
	x.size = (gint)f->elementsize;
	x.a = print_expr(p, event, a->op.right, depth + 1);
	return x.a < 0 ? -1 : print_add_expr(p, x);
}

static gint print_op(FtlTepPrint *p, struct tep_event *event, struct tep_print_arg *a, int depth)
{
	const char *op = a->op.op;
	if (!op || !a->op.left || !a->op.right)
		return -1;
	if (!strcmp(op, "["))
		return print_index(p, event, a, depth);
	Expr x = { .kind = X_BIN };
	if (!strcmp(op, "?")) {
		struct tep_print_arg *r = a->op.right;
		if (r->type != TEP_PRINT_OP || !r->op.left || !r->op.right)
			return -1;
		x.kind = X_COND;
		x.a = print_expr(p, event, a->op.left, depth + 1);
		x.b = print_expr(p, event, r->op.left, depth + 1);
		x.c = print_expr(p, event, r->op.right, depth + 1);
		return x.a < 0 || x.b < 0 || x.c < 0 ? -1 : print_add_expr(p, x);
	}
	guint i = 0;
	while (i < G_N_ELEMENTS(print_ops) && strcmp(op, print_ops[i]) != 0)
		i++;
	if (i == G_N_ELEMENTS(print_ops))
		return -1;
	g_strlcpy(x.op, op, sizeof x.op);
	x.a = print_expr(p, event, a->op.left, depth + 1);
	x.b = print_expr(p, event, a->op.right, depth + 1);
	return x.a < 0 || x.b < 0 ? -1 : print_add_expr(p, x);
}

/* A numeric argument as an expression: its index, -1 outside the subset
 * (helper calls, dynamic arrays, names the library looks up as symbols). */
static gint print_expr(FtlTepPrint *p, struct tep_event *event, struct tep_print_arg *a,
		       int depth)
{
	if (!a || depth > 32)
		return -1;
	switch (a->type) {
	case TEP_PRINT_NULL:
		return print_add_expr(p, (Expr){ .kind = X_CONST });
	case TEP_PRINT_ATOM:
		/* a name is a kallsyms lookup the library rewrites as its
		 * number once evaluated (see tep.c: compiled after one record) */
		if (!a->atom.atom || !g_ascii_isdigit(a->atom.atom[0]))
			return -1;
		return print_add_expr(p, (Expr){ .kind = X_CONST,
						 .v = strtoull(a->atom.atom, NULL, 0) });
	case TEP_PRINT_FIELD: {
		struct tep_format_field *f = print_field(event, a->field.name);
		return f ? print_add_expr(p, (Expr){ .kind = X_FIELD, .off = f->offset,
						     .size = f->size })
			 : -1;
	}
	case TEP_PRINT_TYPE: {
		if (!a->typecast.type)
			return -1;
		Expr x = { .kind = X_MASK, .v = print_cast_mask(a->typecast.type) };
		x.a = print_expr(p, event, a->typecast.item, depth + 1);
		return x.a < 0 ? -1 : print_add_expr(p, x);
	}
	case TEP_PRINT_OP:
		return print_op(p, event, a, depth);
	default:
		return -1;
	}
}

static gint print_add_str(FtlTepPrint *p, StrArg s)
{
	g_array_append_val(p->strs, s);
	return (gint)p->strs->len - 1;
}

/* A __print_symbolic / __print_flags value as the library's eval_flag()
 * reads it when it prints: a number, one of the names it knows, or -1 for
 * any other name (an enum the kernel did not define for its formats). */
static guint64 print_flag_value(const char *value)
{
	static const struct {
		const char *name;
		guint64 value;
	} known[] = { { "HI_SOFTIRQ", 0 },	   { "TIMER_SOFTIRQ", 1 },   { "NET_TX_SOFTIRQ", 2 },
		      { "NET_RX_SOFTIRQ", 3 },	   { "BLOCK_SOFTIRQ", 4 },   { "IRQ_POLL_SOFTIRQ", 5 },
		      { "TASKLET_SOFTIRQ", 6 },	   { "SCHED_SOFTIRQ", 7 },   { "HRTIMER_SOFTIRQ", 8 },
		      { "RCU_SOFTIRQ", 9 },	   { "HRTIMER_NORESTART", 0 }, { "HRTIMER_RESTART", 1 } };
	if (g_ascii_isdigit(value[0]))
		return strtoull(value, NULL, 0);
	for (guint i = 0; i < G_N_ELEMENTS(known); i++)
		if (strcmp(known[i].name, value) == 0)
			return known[i].value;
	return G_MAXUINT64;
}

/* __print_symbolic / __print_flags's table. */
static gboolean print_syms(FtlTepPrint *p, struct tep_print_flag_sym *list, StrArg *s)
{
	s->first = p->syms->len;
	for (; list; list = list->next) {
		if (!list->value || !list->str)
			return FALSE;
		Sym sym = { print_flag_value(list->value), (guint)p->text->len,
			    (guint)strlen(list->str) };
		g_string_append(p->text, list->str);
		g_array_append_val(p->syms, sym);
	}
	s->n = p->syms->len - s->first;
	return TRUE;
}

/* A string argument: its index, -1 outside the subset. */
static gint print_str(FtlTepPrint *p, struct tep_event *event, struct tep_print_arg *a,
		      gint long_size, int depth)
{
	StrArg s = { .kind = S_ATOM };
	struct tep_format_field *f;
	if (!a || depth > 32)
		return -1;
	switch (a->type) {
	case TEP_PRINT_ATOM:
		if (!a->atom.atom)
			return -1;
		s.first = (guint)p->text->len;
		s.n = (guint)strlen(a->atom.atom);
		g_string_append(p->text, a->atom.atom);
		break;
	case TEP_PRINT_STRING:
		/* VALIDATED: a lookup; a 4-byte dynamic field, its location checked against
		 * the record when run */
		f = a->string.string ? tep_find_any_field(event, a->string.string) : NULL;
		if (!f || !(f->flags & TEP_FIELD_IS_DYNAMIC) || f->size != 4 || f->offset < 0)
			return -1;
		s.kind = S_DYNSTR;
		s.relative = (f->flags & TEP_FIELD_IS_RELATIVE) != 0;
		s.off = f->offset;
		break;
	case TEP_PRINT_FIELD:
		/* VALIDATED: a lookup; offset and size checked against the record when run */
		f = a->field.name ? tep_find_any_field(event, a->field.name) : NULL;
		if (!f || f->offset < 0 || f->size < 0 || (f->flags & TEP_FIELD_IS_DYNAMIC))
			return -1;
		/* a long-sized non-array is a pointer to a printk string: printed
		 * whole, the conversion's width and flags not applied */
		s.kind = !(f->flags & TEP_FIELD_IS_ARRAY) && f->size == long_size ? S_PRINTK
										  : S_ARRAY;
		if (s.kind == S_PRINTK && !p->printk)
			return -1;
		s.off = f->offset;
		s.size = f->size;
		break;
	case TEP_PRINT_SYMBOL:
	case TEP_PRINT_FLAGS:
		s.kind = a->type == TEP_PRINT_SYMBOL ? S_SYMBOL : S_FLAGS;
		s.expr = print_expr(p, event,
				    s.kind == S_SYMBOL ? a->symbol.field : a->flags.field, depth + 1);
		if (s.expr < 0 ||
		    !print_syms(p, s.kind == S_SYMBOL ? a->symbol.symbols : a->flags.flags, &s))
			return -1;
		if (s.kind == S_FLAGS) {
			s.delim = (guint)p->text->len;
			s.delim_len = a->flags.delim ? (guint)strlen(a->flags.delim) : 0;
			if (a->flags.delim)
				g_string_append(p->text, a->flags.delim);
		}
		break;
	case TEP_PRINT_OP:
		if (!a->op.op || strcmp(a->op.op, "?") != 0 || !a->op.right ||
		    a->op.right->type != TEP_PRINT_OP)
			return -1;
		s.kind = S_COND;
		s.expr = print_expr(p, event, a->op.left, depth + 1);
		s.a = print_str(p, event, a->op.right->op.left, long_size, depth + 1);
		s.b = print_str(p, event, a->op.right->op.right, long_size, depth + 1);
		if (s.expr < 0 || s.a < 0 || s.b < 0)
			return -1;
		break;
	default: /* casts print nothing, helpers and bitmasks: the library's */
		return -1;
	}
	return print_add_str(p, s);
}

/* A pointer conversion after "%...p": plain, or a function name. Returns
 * the characters it takes after the 'p', -1 when outside the subset. */
static gint print_pointer(FtlTepPrint *p, struct tep_event *event, struct tep_print_arg *a,
			  const char *after, Step *st)
{
	gint take = 0;
	if (*after == 's' || *after == 'S') {
		st->kind = STEP_FUNC;
		st->conv = *after;
		p->functions = TRUE;
		take = 1;
	} else if (g_ascii_isalnum(*after)) {
		return -1; /* %pF, %pM, %pI4, %pU, %ph... and %px */
	} else {
		st->kind = STEP_PTR;
	}
	st->arg = print_expr(p, event, a, 0);
	return st->arg < 0 ? -1 : take;
}

/* One conversion at f (after its '%'), consuming *arg. Returns the text
 * after it, NULL when outside the subset. */
static const char *print_conversion(FtlTepPrint *p, struct tep_event *event, const char *f,
				    struct tep_print_arg **arg, gint long_size)
{
	Step st = { .kind = STEP_TEXT };
	for (; *f == '-' || *f == '0' || *f == '#'; f++) {
		st.left |= *f == '-';
		st.zero |= *f == '0';
		st.alt |= *f == '#';
	}
	for (; g_ascii_isdigit(*f); f++) {
		st.width = st.width * 10 + (guint)(*f - '0');
		if (st.width > 4096)
			return NULL;
	}
	/* the library's lengths: l adds one, h takes one away, L is 2, z and Z 1 */
	for (; *f == 'l' || *f == 'h' || *f == 'L' || *f == 'z' || *f == 'Z'; f++)
		st.ls = *f == 'l'   ? st.ls + 1
			: *f == 'h' ? st.ls - 1
			: *f == 'L' ? 2
				    : 1;
	struct tep_print_arg *a = *arg;
	if (!a || st.ls > 2 || st.ls < -2)
		return NULL;
	*arg = a->next;
	switch (*f) {
	case 'd':
	case 'i':
	case 'u':
	case 'x':
	case 'X':
		if (st.alt && *f != 'x' && *f != 'X')
			return NULL;
		st.kind = STEP_NUM;
		st.conv = *f;
		st.arg = print_expr(p, event, a, 0);
		if (st.arg < 0)
			return NULL;
		break;
	case 's':
		st.kind = STEP_STR;
		st.arg = st.zero || st.alt ? -1 : print_str(p, event, a, long_size, 0);
		if (st.arg < 0)
			return NULL;
		break;
	case 'p': {
		gint take = print_pointer(p, event, a, f + 1, &st);
		if (take < 0)
			return NULL;
		f += take;
		break;
	}
	default: /* precision, '*', c, o, and what the library shows as >c< */
		return NULL;
	}
	g_array_append_val(p->steps, st);
	return f + 1;
}

FtlTepPrint *ftl_tep_print_compile(struct tep_event *event, struct tep_handle *tep,
				   FtlPrintkMap *printk)
{
	if (!event || !event->print_fmt.format)
		return NULL;
	/* failed formats, bprint, raw printing and handlers: the library's */
	if (event->flags & (TEP_EVENT_FL_FAILED | TEP_EVENT_FL_ISBPRINT | TEP_EVENT_FL_PRINTRAW))
		return NULL;
	if (event->handler && !(event->flags & TEP_EVENT_FL_NOHANDLE))
		return NULL;
	/* NO FILE DATA: a getter */
	gint long_size = tep_get_long_size(tep);
	FtlTepPrint *p = g_new0(FtlTepPrint, 1);
	p->steps = g_array_new(FALSE, FALSE, sizeof(Step));
	p->exprs = g_array_new(FALSE, FALSE, sizeof(Expr));
	p->strs = g_array_new(FALSE, FALSE, sizeof(StrArg));
	p->syms = g_array_new(FALSE, FALSE, sizeof(Sym));
	p->text = g_string_new(NULL);
	p->printk = printk ? ftl_printk_map_ref(printk) : NULL;
	struct tep_print_arg *arg = event->print_fmt.args;
	const char *f = event->print_fmt.format;
	while (f && *f) {
		f = *f == '%' && f[1] != '%' ? print_conversion(p, event, f + 1, &arg, long_size)
					     : print_literal(p, f);
	}
	/* NO FILE DATA: getters */
	if (!f || long_size != 8 || tep_is_file_bigendian(tep) != tep_is_local_bigendian(tep)) {
		ftl_tep_print_free(p);
		return NULL;
	}
	return p;
}

/* ---- running ----------------------------------------------------------- */

typedef struct {
	const FtlTepPrint *p;
	struct tep_handle *tep;
	FtlKallsyms *ks;
	const guchar *data;
	gint size;
	GString *out;
} PrintRun;

static guint64 print_binary(const char *op, guint64 l, guint64 r)
{
	switch (op[0]) {
	case '!':
		return op[1] ? l != r : !r;
	case '~':
		return ~r;
	case '|':
		return op[1] ? l || r : l | r;
	case '&':
		return op[1] ? l && r : l & r;
	case '<':
		return op[1] == '<' ? l << r : op[1] ? l <= r : l < r;
	case '>':
		return op[1] == '>' ? l >> r : op[1] ? l >= r : l > r;
	case '=':
		return l == r;
	case '-':
		return l - r;
	case '+':
		return l + r;
	case '/':
		return l / r;
	case '%':
		return l % r;
	default:
		return l * r;
	}
}

/* Expression i's value; FALSE where the library would warn (a field beyond
 * the record), divide by zero or shift beyond 63 bits. */
static gboolean print_eval(const PrintRun *run, gint i, guint64 *out)
{
	const Expr *x = &g_array_index(run->p->exprs, Expr, i);
	guint64 a, b;
	switch (x->kind) {
	case X_CONST:
		*out = x->v;
		return TRUE;
	case X_FIELD:
		if (x->off + x->size > run->size)
			return FALSE;
		*out = ftl_tep_read_uint(run->data + x->off, (guint)x->size, FALSE);
		return TRUE;
	case X_MASK:
		if (!print_eval(run, x->a, &a))
			return FALSE;
		*out = a & x->v;
		return TRUE;
	case X_COND:
		if (!print_eval(run, x->a, &a))
			return FALSE;
		return print_eval(run, a ? x->b : x->c, out);
	case X_INDEX: {
		if (!print_eval(run, x->a, &a) || a > (guint64)run->size)
			return FALSE;
		gint64 at = x->off + (gint64)a * x->size;
		if (at + x->size > run->size)
			return FALSE;
		*out = ftl_tep_read_uint(run->data + at, (guint)x->size, FALSE) & x->v;
		return TRUE;
	}
	default:
		if (!print_eval(run, x->a, &a) || !print_eval(run, x->b, &b))
			return FALSE;
		if (((x->op[0] == '/' || x->op[0] == '%') && !b) ||
		    ((x->op[1] == '<' || x->op[1] == '>') && b > 63))
			return FALSE;
		*out = print_binary(x->op, a, b);
		return TRUE;
	}
}

/* body (len bytes, after prefix) padded to the step's width as printf pads. */
static void print_pad(GString *out, const Step *st, const char *prefix, const char *body,
		      gsize len)
{
	if (!st->width && !*prefix) {
		ftl_string_put(out, body, len);
		return;
	}
	gsize plen = strlen(prefix), total = plen + len;
	gsize fill = st->width > total ? st->width - total : 0;
	if (!st->left && !st->zero)
		for (gsize i = 0; i < fill; i++)
			g_string_append_c(out, ' ');
	ftl_string_put(out, prefix, plen);
	if (!st->left && st->zero)
		for (gsize i = 0; i < fill; i++)
			g_string_append_c(out, '0');
	ftl_string_put(out, body, len);
	if (st->left)
		for (gsize i = 0; i < fill; i++)
			g_string_append_c(out, ' ');
}

/* v as printf's %d/%u/%x/%X with the step's flags, width and length. */
static void print_number(GString *out, const Step *st, guint64 v)
{
	char buf[24];
	char *e = buf + sizeof buf, *s = e;
	const char *prefix = "";
	gboolean sig = st->conv == 'd' || st->conv == 'i';
	/* the cast the library's print_arg_number() makes, then printf's */
	if (st->ls == 0)
		v = sig ? (guint64)(gint64)(gint32)(guint32)v : (guint32)v;
	else if (st->ls == -1)
		v = sig ? (guint64)(gint64)(gint16)(guint16)v : (guint16)v;
	else if (st->ls == -2)
		v = sig ? (guint64)(gint64)(gint8)(guint8)v : (guint8)v;
	if (sig && (gint64)v < 0) {
		prefix = "-";
		v = -v;
	}
	if (st->conv == 'x' || st->conv == 'X') {
		const char *digits = st->conv == 'x' ? "0123456789abcdef" : "0123456789ABCDEF";
		if (st->alt && v)
			prefix = st->conv == 'x' ? "0x" : "0X";
		do
			*--s = digits[v & 15];
		while (v >>= 4);
	} else {
		do
			*--s = (char)('0' + v % 10);
		while (v /= 10);
	}
	print_pad(out, st, prefix, s, (gsize)(e - s));
}

/* v in lowercase hex, as "%llx" prints it; after "0x" when prefix, as
 * "0x%llx" and glibc's "%p" print it. */
static void print_hex_as(GString *out, guint64 v, gboolean prefix)
{
	char buf[20];
	char *e = buf + sizeof buf, *s = e;
	do
		*--s = "0123456789abcdef"[v & 15];
	while (v >>= 4);
	if (prefix) {
		*--s = 'x';
		*--s = '0';
	}
	ftl_string_put(out, s, (gsize)(e - s));
}

static void print_hex(GString *out, guint64 v)
{
	print_hex_as(out, v, TRUE);
}

/* %ps: the function's name; %pS: and "+0x" the offset into it */
static void print_function(GString *out, const Step *st, const PrintRun *run, guint64 v)
{
	const char *name = NULL;
	unsigned long long start = 0;
	unsigned long size;
	if (run->ks) {
		/* what tep's resolver (kallsyms.c) answers, without the library's
		 * map it writes each lookup into */
		guint64 at = 0;
		name = ftl_kallsyms_find(run->ks, v, &at);
		start = at;
	} else if (st->conv == 'S' ? tep_find_function_info(run->tep, v, &name, &start, &size) == 0
				   : !(name = tep_find_function(run->tep, v))) {
		/* VALIDATED: lookups in a table the resolver (kallsyms.c, ftlens's own
		 * parse) or the GUARDED open made; any address is a key */
		name = NULL;
	}
	if (!name) {
		print_hex(out, v);
		return;
	}
	ftl_string_put(out, name, strlen(name));
	if (st->conv == 'S') {
		ftl_string_put(out, "+", 1);
		print_hex(out, v - start);
	}
}

/* __get_str(): where the string lies and its length to the NUL; FALSE
 * when the library would read outside the record or print nothing. */
static gboolean print_dynstr(const StrArg *s, const guchar *data, gint size, gsize *at,
			     gsize *len)
{
	if (s->off + 4 > size)
		return FALSE;
	guint32 loc = (guint32)ftl_tep_read_uint(data + s->off, 4, FALSE);
	gsize o = loc & 0xffff, l = loc >> 16;
	if (s->relative)
		o += (gsize)s->off + 4;
	if (l == 0 || o + l > (gsize)size)
		return FALSE;
	const guchar *nul = memchr(data + o, 0, l);
	if (!nul)
		return FALSE;
	*at = o;
	*len = (gsize)(nul - (data + o));
	return TRUE;
}

/* __print_symbolic: the name of v, or its number. */
static void print_symbol(const PrintRun *run, const Step *st, const StrArg *s, guint64 v)
{
	const FtlTepPrint *p = run->p;
	for (guint i = 0; i < s->n; i++) {
		const Sym *sym = &g_array_index(p->syms, Sym, s->first + i);
		if (sym->value == v) {
			print_pad(run->out, st, "", p->text->str + sym->text, sym->len);
			return;
		}
	}
	print_hex(run->out, v);
}

/* __print_flags: the names of v's bits, then what no name covers. */
static void print_flags(const PrintRun *run, const Step *st, const StrArg *s, guint64 v)
{
	const FtlTepPrint *p = run->p;
	gboolean any = FALSE;
	for (guint i = 0; i < s->n; i++) {
		const Sym *sym = &g_array_index(p->syms, Sym, s->first + i);
		gint64 f = (gint64)sym->value;
		if (!v && f < 0) {
			print_pad(run->out, st, "", p->text->str + sym->text, sym->len);
			break;
		}
		if (f > 0 && (v & (guint64)f) == (guint64)f) {
			if (any)
				ftl_string_put(run->out, p->text->str + s->delim, s->delim_len);
			print_pad(run->out, st, "", p->text->str + sym->text, sym->len);
			any = TRUE;
			v &= ~(guint64)f;
		}
	}
	if (v) {
		if (any)
			ftl_string_put(run->out, p->text->str + s->delim, s->delim_len);
		print_hex(run->out, v);
	}
}

/* A pointer-sized field's printk string, else its value in hex without
 * "0x" (libtraceevent's print_str_arg(): trace_seq_puts() or "%llx", the
 * conversion's width not applied); FALSE where the file gave the address
 * strings that differ, of which the library's bsearch picks one. */
static gboolean print_printk(const PrintRun *run, const StrArg *s)
{
	if (s->off > run->size || s->size > run->size - s->off)
		return FALSE;
	guint64 addr = ftl_tep_read_uint(run->data + s->off, (guint)s->size, FALSE);
	const char *str = NULL;
	gint found = ftl_printk_map_find(run->p->printk, addr, &str);
	if (found < 0)
		return FALSE;
	if (found)
		ftl_string_put(run->out, str, strlen(str));
	else
		print_hex_as(run->out, addr, FALSE);
	return TRUE;
}

static gboolean print_string(const PrintRun *run, const Step *st, gint i, int depth)
{
	const StrArg *s = &g_array_index(run->p->strs, StrArg, i);
	const char *text = run->p->text->str + s->first;
	gsize at, len = s->n;
	guint64 v;
	switch (s->kind) {
	case S_ATOM:
		break;
	case S_DYNSTR:
		if (!print_dynstr(s, run->data, run->size, &at, &len))
			return FALSE;
		text = (const char *)run->data + at;
		break;
	case S_ARRAY:
		if (s->off > run->size || s->off + s->size > run->size)
			return FALSE;
		text = (const char *)run->data + s->off;
		len = strnlen(text, s->size ? (gsize)s->size : (gsize)(run->size - s->off));
		break;
	case S_COND:
		return depth < 32 && print_eval(run, s->expr, &v) &&
		       print_string(run, st, v ? s->a : s->b, depth + 1);
	case S_PRINTK:
		return print_printk(run, s);
	default:
		if (!print_eval(run, s->expr, &v))
			return FALSE;
		if (s->kind == S_SYMBOL)
			print_symbol(run, st, s, v);
		else
			print_flags(run, st, s, v);
		return TRUE;
	}
	print_pad(run->out, st, "", text, len);
	return TRUE;
}

static gboolean print_step(const PrintRun *run, const Step *st)
{
	guint64 v;
	if (st->kind == STEP_TEXT) {
		ftl_string_put(run->out, run->p->text->str + st->first, st->n);
		return TRUE;
	}
	if (st->kind == STEP_STR)
		return print_string(run, st, st->arg, 0);
	if (!print_eval(run, st->arg, &v))
		return FALSE;
	if (st->kind == STEP_NUM)
		print_number(run->out, st, v);
	else if (st->kind == STEP_FUNC)
		print_function(run->out, st, run, v);
	else if (v)
		print_hex(run->out, v);
	else
		ftl_string_put(run->out, "(nil)", 5);
	return TRUE;
}

gboolean ftl_tep_print_run(const FtlTepPrint *p, struct tep_handle *tep, FtlKallsyms *ks,
			   const guchar *data, gint size, GString *out)
{
	PrintRun run = { p, tep, ks, data, size, out };
	gsize at = out->len;
	for (guint i = 0; i < p->steps->len; i++) {
		if (!print_step(&run, &g_array_index(p->steps, Step, i))) {
			g_string_truncate(out, at);
			return FALSE;
		}
	}
	return TRUE;
}
