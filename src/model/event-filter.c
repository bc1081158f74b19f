/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Event lists and trace-cmd -F expressions: parsed once, evaluated on every event of every input. */
#include "config.h"

#include "model/event-filter.h"

#include <fnmatch.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include "model/source.h"
#include "util/error.h"
#include "util/escape.h"

/* ---- the parsed form ---------------------------------------------------- */

typedef enum {
	OP_EQ,
	OP_NE,
	OP_LT,
	OP_GT,
	OP_LE,
	OP_GE,
	OP_BAND,  /* field & mask: true when a bit is set */
	OP_GLOB,  /* ~ "kworker*": the kernel's filter glob */
	OP_REGEX, /* =~ "^kw": libtraceevent's regex match */
	OP_NREGEX,
} EvfOp;

/* Fields the model decodes for a kind, so that text and binary inputs of
 * the same events answer alike (a trace-cmd report text line has no
 * key=value pairs; a binary record keeps numbers where text has names). */
typedef enum {
	MF_NONE,
	MF_PREV_COMM,
	MF_PREV_PID,
	MF_PREV_PRIO,
	MF_PREV_STATE,
	MF_NEXT_COMM,
	MF_NEXT_PID,
	MF_NEXT_PRIO,
	MF_WAKE_COMM,
	MF_WAKE_PID,
	MF_WAKE_PRIO,
	MF_TARGET_CPU,
	MF_FUNC,
	MF_PARENT,
	MF_DEPTH,
	MF_DURATION,
	MF_RETVAL,
	MF_BUF,
	MF_IRQ,
	MF_IRQ_NAME,
	MF_IRQ_RET,
} EvfModelField;

/* The fields every event has. */
typedef enum { CF_NONE, CF_COMM, CF_CPU, CF_PID, CF_TGID, CF_TS } EvfCommonField;

typedef struct {
	char *name;
	EvfModelField model;
	EvfCommonField common;
	gboolean common_only; /* COMM, CPU, common_pid: never an event's own field */
} EvfField;

typedef enum { OPND_FIELD, OPND_NUM, OPND_STR } EvfOperandType;

typedef struct {
	EvfOperandType type;
	EvfField field;
	gint64 num;
	char *str;
	GRegex *re;
} EvfOperand;

typedef enum { N_AND, N_OR, N_NOT, N_CMP } EvfNodeType;

typedef struct _EvfNode EvfNode;
struct _EvfNode {
	EvfNodeType type;
	EvfNode *a, *b; /* AND/OR: both; NOT: a */
	EvfOp op;	/* CMP */
	EvfOperand l, r;
};

typedef struct {
	char *system; /* pattern; NULL: the name may match the event or its system */
	char *name;
	GRegex *sys_re, *name_re; /* --filter's regexes; NULL for -e's globs */
} EvfName;

typedef struct {
	GPtrArray *names; /* EvfName */
	EvfNode *expr;	  /* NULL: every event of the names */
	gboolean invert;
	char *text;	  /* as given, for messages */
	/* the expression's fields, and which of them an event it was
	 * evaluated on had: a field no such event has is a typo */
	GPtrArray *fields; /* EvfField*, borrowed from expr */
	guint8 *found;
	guint n_unfound;
	guint64 evaluated;
} EvfSpec;

struct _FtlEventFilter {
	GPtrArray *specs; /* EvfSpec */
	guint n_plain;	  /* specs that are not inverted */
	GHashTable *hits; /* "system\037name" -> guint8[specs->len]: names matched */
	GString *key;	  /* scratch for the cache key */
	GString *scratch; /* NUL-terminated copy of a value for fnmatch */
	GString *given;	  /* the options as given */
	GMutex lock;	  /* hits and scratch: the TUI matches from two threads */
};

/* ---- building and freeing ------------------------------------------------ */

static void evf_operand_clear(EvfOperand *o)
{
	g_free(o->field.name);
	g_free(o->str);
	if (o->re)
		g_regex_unref(o->re);
}

static void evf_node_free(EvfNode *n)
{
	if (!n)
		return;
	evf_node_free(n->a);
	evf_node_free(n->b);
	evf_operand_clear(&n->l);
	evf_operand_clear(&n->r);
	g_free(n);
}

static void evf_name_free(gpointer p)
{
	EvfName *n = p;
	g_free(n->system);
	g_free(n->name);
	if (n->sys_re)
		g_regex_unref(n->sys_re);
	if (n->name_re)
		g_regex_unref(n->name_re);
	g_free(n);
}

static void evf_spec_free(gpointer p)
{
	EvfSpec *s = p;
	g_ptr_array_unref(s->names);
	evf_node_free(s->expr);
	g_free(s->text);
	if (s->fields)
		g_ptr_array_unref(s->fields);
	g_free(s->found);
	g_free(s);
}

FtlEventFilter *ftl_event_filter_new(void)
{
	FtlEventFilter *f = g_new0(FtlEventFilter, 1);
	f->specs = g_ptr_array_new_with_free_func(evf_spec_free);
	f->hits = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
	f->key = g_string_new(NULL);
	f->scratch = g_string_new(NULL);
	f->given = g_string_new(NULL);
	g_mutex_init(&f->lock);
	return f;
}

void ftl_event_filter_free(FtlEventFilter *f)
{
	if (!f)
		return;
	g_ptr_array_unref(f->specs);
	g_hash_table_unref(f->hits);
	g_string_free(f->key, TRUE);
	g_string_free(f->scratch, TRUE);
	g_string_free(f->given, TRUE);
	g_mutex_clear(&f->lock);
	g_free(f);
}

/* A usage error that shows text with a caret under byte offset at. The
 * caret's column counts the text as main.c shows it (escaped). */
G_GNUC_PRINTF(5, 6)
static gboolean evf_fail(GError **error, const char *opt, const char *text, gsize at,
			 const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	g_autofree char *what = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	gsize shown = strcspn(text, "\n"); /* main.c prints a message line by line */
	g_autofree char *prefix = g_strndup(text, MIN(at, shown));
	g_autofree char *shown_prefix = ftl_escape(prefix, -1);
	gsize col = ftl_escape_width(shown_prefix);
	g_set_error(error, FTL_ERROR, FTL_ERROR_USAGE, "%s: %s at column %zu\n  %.*s\n  %*s^", opt,
		    what, col + 1, (int)shown, text, (int)col, "");
	return FALSE;
}

static void evf_given(FtlEventFilter *f, const char *opt, const char *text, gboolean invert)
{
	g_string_append_printf(f->given, "%s%s%s '%s'", f->given->len ? " " : "",
			       invert ? "-v " : "", opt, text);
}

static EvfSpec *evf_spec_new(gboolean invert)
{
	EvfSpec *s = g_new0(EvfSpec, 1);
	s->names = g_ptr_array_new_with_free_func(evf_name_free);
	s->invert = invert;
	return s;
}

static void evf_add_spec(FtlEventFilter *f, EvfSpec *s)
{
	g_ptr_array_add(f->specs, s);
	if (!s->invert)
		f->n_plain++;
	g_hash_table_remove_all(f->hits); /* the cached rows are one spec short */
}

/* ---- event names ----------------------------------------------------------- */

/* -e: "NAME", "SYSTEM:NAME" or "SYSTEM/NAME", globs. */
gboolean ftl_event_filter_add_events(FtlEventFilter *f, const char *list, gboolean invert,
				     GError **error)
{
	g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func(evf_name_free);
	gsize at = 0;
	g_auto(GStrv) items = g_strsplit(list, ",", -1);
	for (guint i = 0; items[i]; at += strlen(items[i]) + 1, i++) {
		const char *item = items[i];
		gsize bad = strspn(item, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
					 "0123456789_-.*?[]!:/");
		if (!*item)
			return evf_fail(error, "-e", list, at, "expected an event name");
		if (item[bad])
			return evf_fail(error, "-e", list, at + bad,
					"expected EVENT, SYSTEM or SYSTEM:EVENT");
		EvfName *n = g_new0(EvfName, 1);
		const char *sep = strpbrk(item, ":/");
		if (sep) {
			n->system = g_strndup(item, (gsize)(sep - item));
			n->name = g_strdup(sep + 1);
			if (!*n->system || !*n->name || strpbrk(n->name, ":/")) {
				evf_name_free(n);
				return evf_fail(error, "-e", list, at + (gsize)(sep - item),
						"expected SYSTEM:EVENT");
			}
		} else {
			n->name = g_strdup(item);
		}
		g_ptr_array_add(names, n);
	}
	EvfSpec *s = evf_spec_new(invert);
	g_ptr_array_extend_and_steal(s->names, g_steal_pointer(&names));
	s->text = g_strdup_printf("-e '%s'", list);
	evf_add_spec(f, s);
	evf_given(f, "-e", list, invert);
	return TRUE;
}

static gboolean evf_glob(const char *pat, const char *s)
{
	return s && fnmatch(pat, s, 0) == 0;
}

static gboolean evf_re(GRegex *re, const char *s)
{
	return s && g_regex_match(re, s, 0, NULL);
}

static gboolean evf_name_match(const EvfName *n, const char *system, const char *name)
{
	if (n->name_re) {
		if (n->sys_re)
			return evf_re(n->sys_re, system) && evf_re(n->name_re, name);
		return evf_re(n->name_re, name) || evf_re(n->name_re, system);
	}
	if (n->system)
		return evf_glob(n->system, system) && evf_glob(n->name, name);
	return evf_glob(n->name, name) || evf_glob(n->name, system);
}

/* Which specs name the event: computed once per (system, name). */
static const guint8 *evf_hits(FtlEventFilter *f, const FtlEvent *ev)
{
	const char *name = ev->name ? ev->name : "";
	g_string_assign(f->key, ev->system ? ev->system : "");
	g_string_append_c(f->key, '\037');
	g_string_append(f->key, name);
	guint8 *row = g_hash_table_lookup(f->hits, f->key->str);
	if (row)
		return row;
	const char *system = ev->system ? ev->system : ftl_event_system_guess(name);
	row = g_new0(guint8, f->specs->len);
	for (guint i = 0; i < f->specs->len; i++) {
		const EvfSpec *s = g_ptr_array_index(f->specs, i);
		for (guint j = 0; j < s->names->len && !row[i]; j++)
			row[i] = evf_name_match(g_ptr_array_index(s->names, j), system, name);
	}
	g_hash_table_insert(f->hits, g_strdup(f->key->str), row);
	return row;
}

/* ---- the expression lexer --------------------------------------------------- */

typedef enum {
	T_END,
	T_IDENT,
	T_NUM,
	T_STR,
	T_LP,
	T_RP,
	T_AND,
	T_OR,
	T_NOT,
	T_CMP,
	T_BAD,
} EvfTokType;

typedef struct {
	const char *text; /* the whole --filter argument, for messages */
	gsize pos;	  /* next byte to lex */
	EvfTokType type;  /* the current token */
	gsize at, len;	  /* where it is */
	EvfOp op;
	gint64 num;
	GString *str; /* T_STR's text, T_IDENT's name */
	const char *why; /* T_BAD: what is wrong */
	GError **error;
} EvfLexer;

static const struct {
	const char *text;
	EvfTokType type;
	EvfOp op;
} evf_ops[] = {
	/* longest first */
	{ "&&", T_AND, 0 },	   { "||", T_OR, 0 },	      { "==", T_CMP, OP_EQ },
	{ "!=", T_CMP, OP_NE },	   { "<=", T_CMP, OP_LE },    { ">=", T_CMP, OP_GE },
	{ "=~", T_CMP, OP_REGEX }, { "!~", T_CMP, OP_NREGEX }, { "<", T_CMP, OP_LT },
	{ ">", T_CMP, OP_GT },	   { "&", T_CMP, OP_BAND },   { "~", T_CMP, OP_GLOB },
	{ "!", T_NOT, 0 },	   { "(", T_LP, 0 },	      { ")", T_RP, 0 },
};

static void evf_lex_string(EvfLexer *lx)
{
	const char *t = lx->text;
	char quote = t[lx->pos++];
	g_string_truncate(lx->str, 0);
	while (t[lx->pos] && t[lx->pos] != quote) {
		if (t[lx->pos] == '\\' && (t[lx->pos + 1] == quote || t[lx->pos + 1] == '\\'))
			lx->pos++;
		g_string_append_c(lx->str, t[lx->pos++]);
	}
	if (!t[lx->pos]) {
		lx->type = T_BAD;
		lx->why = "unterminated string";
		return;
	}
	lx->pos++;
	lx->type = T_STR;
}

static void evf_lex_number(EvfLexer *lx)
{
	const char *start = lx->text + lx->pos;
	gsize n = 1;
	while (g_ascii_isalnum(start[n]))
		n++;
	lx->pos += n;
	if (!ftl_slice_to_i64((FtlSlice){ start, (guint32)n }, &lx->num)) {
		lx->type = T_BAD;
		lx->why = "not a number";
		return;
	}
	lx->type = T_NUM;
}

static void evf_lex(EvfLexer *lx)
{
	const char *t = lx->text;
	while (t[lx->pos] == ' ' || t[lx->pos] == '\t')
		lx->pos++;
	lx->at = lx->pos;
	char c = t[lx->pos];
	if (!c) {
		lx->type = T_END;
	} else if (c == '"' || c == '\'') {
		evf_lex_string(lx);
	} else if (g_ascii_isdigit(c) || (c == '-' && g_ascii_isdigit(t[lx->pos + 1]))) {
		evf_lex_number(lx);
	} else if (g_ascii_isalpha(c) || c == '_') {
		g_string_truncate(lx->str, 0);
		while (g_ascii_isalnum(t[lx->pos]) || t[lx->pos] == '_' || t[lx->pos] == '.')
			g_string_append_c(lx->str, t[lx->pos++]);
		lx->type = T_IDENT;
	} else {
		lx->type = T_BAD;
		lx->why = c == '\n' ? "a filter is one line" : "unexpected character";
		for (guint i = 0; i < G_N_ELEMENTS(evf_ops); i++) {
			gsize n = strlen(evf_ops[i].text);
			if (strncmp(t + lx->pos, evf_ops[i].text, n) == 0) {
				lx->type = evf_ops[i].type;
				lx->op = evf_ops[i].op;
				lx->pos += n;
				break;
			}
		}
	}
	lx->len = lx->pos - lx->at;
}

/* ---- the expression parser: || below &&, below !, below comparisons ---- */

static gboolean evf_expect(EvfLexer *lx, const char *what)
{
	if (lx->type == T_BAD)
		return evf_fail(lx->error, "--filter", lx->text, lx->at, "%s", lx->why);
	if (lx->type == T_END)
		return evf_fail(lx->error, "--filter", lx->text, lx->at, "expected %s, found the end",
				what);
	return evf_fail(lx->error, "--filter", lx->text, lx->at, "expected %s, found '%.*s'",
			what, (int)lx->len, lx->text + lx->at);
}

static void evf_field_resolve(EvfField *fd, const char *name)
{
	static const struct {
		const char *name;
		EvfModelField model;
	} model[] = {
		{ "prev_comm", MF_PREV_COMM },	 { "prev_pid", MF_PREV_PID },
		{ "prev_prio", MF_PREV_PRIO },	 { "prev_state", MF_PREV_STATE },
		{ "next_comm", MF_NEXT_COMM },	 { "next_pid", MF_NEXT_PID },
		{ "next_prio", MF_NEXT_PRIO },	 { "comm", MF_WAKE_COMM },
		{ "pid", MF_WAKE_PID },		 { "prio", MF_WAKE_PRIO },
		{ "target_cpu", MF_TARGET_CPU }, { "func", MF_FUNC },
		{ "parent", MF_PARENT },	 { "depth", MF_DEPTH },
		{ "duration", MF_DURATION },	 { "duration_ns", MF_DURATION },
		{ "retval", MF_RETVAL },	 { "buf", MF_BUF },
		{ "text", MF_BUF },		 { "irq", MF_IRQ },
		{ "name", MF_IRQ_NAME },	 { "ret", MF_IRQ_RET },
	};
	static const struct {
		const char *name;
		EvfCommonField common;
		gboolean only;
	} common[] = {
		{ "COMM", CF_COMM, TRUE },	 { "CPU", CF_CPU, TRUE }, { "common_pid", CF_PID, TRUE },
		{ "common_cpu", CF_CPU, TRUE }, { "comm", CF_COMM, FALSE }, { "cpu", CF_CPU, FALSE },
		{ "pid", CF_PID, FALSE },	 { "tgid", CF_TGID, FALSE }, { "ts", CF_TS, FALSE },
	};
	fd->name = g_strdup(name);
	for (guint i = 0; i < G_N_ELEMENTS(model); i++)
		if (strcmp(name, model[i].name) == 0)
			fd->model = model[i].model;
	for (guint i = 0; i < G_N_ELEMENTS(common); i++)
		if (strcmp(name, common[i].name) == 0) {
			fd->common = common[i].common;
			fd->common_only = common[i].only;
		}
}

static gboolean evf_parse_operand(EvfLexer *lx, EvfOperand *o)
{
	switch (lx->type) {
	case T_IDENT:
		o->type = OPND_FIELD;
		evf_field_resolve(&o->field, lx->str->str);
		break;
	case T_NUM:
		o->type = OPND_NUM;
		o->num = lx->num;
		break;
	case T_STR:
		o->type = OPND_STR;
		o->str = g_strdup(lx->str->str);
		break;
	default:
		return evf_expect(lx, "a number, a quoted string or a field");
	}
	evf_lex(lx);
	return TRUE;
}

/* What each operator takes on its right, checked where the user can fix it. */
static gboolean evf_check_right(EvfLexer *lx, EvfNode *n, gsize at)
{
	gboolean text_op = n->op == OP_GLOB || n->op == OP_REGEX || n->op == OP_NREGEX;
	gboolean number_op = n->op != OP_EQ && n->op != OP_NE && !text_op;
	if (text_op && n->r.type != OPND_STR)
		return evf_fail(lx->error, "--filter", lx->text, at,
				"'~', '=~' and '!~' take a quoted pattern");
	if (number_op && n->r.type == OPND_STR)
		return evf_fail(lx->error, "--filter", lx->text, at,
				"'<', '>', '<=', '>=' and '&' compare numbers");
	if (n->op == OP_REGEX || n->op == OP_NREGEX) {
		g_autoptr(GError) local = NULL;
		n->r.re = g_regex_new(n->r.str, G_REGEX_OPTIMIZE, 0, &local);
		if (!n->r.re)
			return evf_fail(lx->error, "--filter", lx->text, at, "bad regular expression: %s",
					local->message);
	}
	return TRUE;
}

static EvfNode *evf_parse_or(EvfLexer *lx);

static EvfNode *evf_parse_cmp(EvfLexer *lx)
{
	if (lx->type != T_IDENT) {
		evf_expect(lx, "a field name");
		return NULL;
	}
	EvfNode *n = g_new0(EvfNode, 1);
	n->type = N_CMP;
	evf_parse_operand(lx, &n->l);
	if (lx->type != T_CMP) {
		evf_expect(lx, "a comparison (== != < > <= >= & ~ =~ !~)");
		evf_node_free(n);
		return NULL;
	}
	n->op = lx->op;
	evf_lex(lx);
	gsize at = lx->at;
	if (!evf_parse_operand(lx, &n->r) || !evf_check_right(lx, n, at)) {
		evf_node_free(n);
		return NULL;
	}
	return n;
}

static EvfNode *evf_parse_unary(EvfLexer *lx)
{
	if (lx->type == T_NOT) {
		evf_lex(lx);
		EvfNode *a = evf_parse_unary(lx);
		if (!a)
			return NULL;
		EvfNode *n = g_new0(EvfNode, 1);
		n->type = N_NOT;
		n->a = a;
		return n;
	}
	if (lx->type != T_LP)
		return evf_parse_cmp(lx);
	evf_lex(lx);
	EvfNode *n = evf_parse_or(lx);
	if (n && lx->type != T_RP) {
		evf_expect(lx, "')'");
		g_clear_pointer(&n, evf_node_free);
	}
	if (n)
		evf_lex(lx);
	return n;
}

/* One level of the binary operators: && (tok T_AND) over unary, || over &&. */
static EvfNode *evf_parse_binary(EvfLexer *lx, EvfTokType tok)
{
	EvfNode *(*down)(EvfLexer *) = tok == T_OR ? NULL : evf_parse_unary;
	EvfNode *n = down ? down(lx) : evf_parse_binary(lx, T_AND);
	while (n && lx->type == tok) {
		evf_lex(lx);
		EvfNode *b = down ? down(lx) : evf_parse_binary(lx, T_AND);
		if (!b) {
			evf_node_free(n);
			return NULL;
		}
		EvfNode *p = g_new0(EvfNode, 1);
		p->type = tok == T_AND ? N_AND : N_OR;
		p->a = n;
		p->b = b;
		n = p;
	}
	return n;
}

static EvfNode *evf_parse_or(EvfLexer *lx)
{
	return evf_parse_binary(lx, T_OR);
}

/* ---- --filter: the event part, then the expression --------------------- */

/* One trace-cmd event pattern: anchored like libtraceevent's. */
static GRegex *evf_event_re(const char *pat)
{
	g_autofree char *anchored = g_strdup_printf("^(?:%s)$", pat);
	return g_regex_new(anchored, G_REGEX_OPTIMIZE, 0, NULL);
}

static gboolean evf_parse_event(const char *text, gsize at, gsize len, EvfSpec *s,
				GError **error)
{
	g_autofree char *item = g_strndup(text + at, len);
	g_strstrip(item);
	at += (gsize)(strstr(text + at, item) - (text + at));
	if (!*item)
		return evf_fail(error, "--filter", text, at, "expected an event name");
	for (const char *p = item; *p; p++)
		if (g_ascii_isspace(*p) || *p == '=' || *p == '"' || *p == '\'')
			return evf_fail(error, "--filter", text, at + (gsize)(p - item),
					"expected EVENT[,EVENT...][: EXPRESSION]");
	EvfName *n = g_new0(EvfName, 1);
	g_ptr_array_add(s->names, n);
	const char *slash = strchr(item, '/');
	n->name = g_strdup(slash ? slash + 1 : item);
	n->name_re = evf_event_re(n->name);
	if (slash) {
		n->system = g_strndup(item, (gsize)(slash - item));
		n->sys_re = evf_event_re(n->system);
	}
	if (!n->name_re || (slash && !n->sys_re))
		return evf_fail(error, "--filter", text, at, "bad event pattern");
	return TRUE;
}

static gboolean evf_parse_events(const char *text, gsize end, EvfSpec *s, GError **error)
{
	gsize at = 0;
	for (;;) {
		const char *comma = memchr(text + at, ',', end - at);
		gsize stop = comma ? (gsize)(comma - text) : end;
		if (!evf_parse_event(text, at, stop - at, s, error))
			return FALSE;
		if (!comma)
			return TRUE;
		at = stop + 1;
	}
}

/* The fields an expression reads, left to right (a loop: no recursion
 * on a depth the user typed). */
static void evf_collect_fields(EvfNode *root, GPtrArray *out)
{
	g_autoptr(GPtrArray) todo = g_ptr_array_new();
	g_ptr_array_add(todo, root);
	while (todo->len) {
		EvfNode *n = g_ptr_array_steal_index(todo, todo->len - 1);
		if (!n)
			continue;
		if (n->type == N_CMP) {
			if (n->l.type == OPND_FIELD)
				g_ptr_array_add(out, &n->l.field);
			if (n->r.type == OPND_FIELD)
				g_ptr_array_add(out, &n->r.field);
			continue;
		}
		g_ptr_array_add(todo, n->b);
		g_ptr_array_add(todo, n->a);
	}
}

gboolean ftl_event_filter_add_expr(FtlEventFilter *f, const char *text, gboolean invert,
				   GError **error)
{
	const char *colon = strchr(text, ':');
	gsize end = colon ? (gsize)(colon - text) : strlen(text);
	EvfSpec *s = evf_spec_new(invert);
	if (!evf_parse_events(text, end, s, error)) {
		evf_spec_free(s);
		return FALSE;
	}
	if (colon) {
		g_autoptr(GString) str = g_string_new(NULL);
		EvfLexer lx = { .text = text, .pos = end + 1, .str = str, .error = error };
		evf_lex(&lx);
		s->expr = evf_parse_or(&lx);
		if (s->expr && lx.type != T_END) {
			evf_expect(&lx, "'&&', '||' or the end");
			g_clear_pointer(&s->expr, evf_node_free);
		}
		if (!s->expr) {
			evf_spec_free(s);
			return FALSE;
		}
		s->fields = g_ptr_array_new();
		evf_collect_fields(s->expr, s->fields);
		s->n_unfound = s->fields->len;
		s->found = g_new0(guint8, s->fields->len + 1);
	}
	s->text = g_strdup_printf("--filter '%s'", text);
	evf_add_spec(f, s);
	evf_given(f, "--filter", text, invert);
	return TRUE;
}

/* ---- evaluation ----------------------------------------------------------- */

typedef struct {
	FtlSlice s;
	gint64 i;
	gboolean has_s, has_i;
	char buf[32]; /* a short value copied: a binary source reuses its scratch */
} EvfValue;

static void evf_set_str(EvfValue *v, const char *s)
{
	if (!s)
		return;
	v->s = (FtlSlice){ s, (guint32)strlen(s) };
	v->has_s = TRUE;
}

static void evf_set_int(EvfValue *v, gint64 i)
{
	v->i = i;
	v->has_i = TRUE;
}

/* prev_state letters as numbers where every kernel agrees: R 0, S 1, D 2,
 * T 4 ("D|W": the bits of each; any other letter, "R+" included: none).
 * A text trace of a kernel that printed a preempted task as plain "R"
 * reads as 0 where the record holds the preempt bit. */
static gboolean evf_state_bits(FtlSlice s, gint64 *out)
{
	static const char letters[] = "RSDT";
	gint64 bits = 0;
	for (guint32 i = 0; i < s.len; i += 2) {
		const char *l = s.len ? strchr(letters, s.p[i]) : NULL;
		if (!l || !*l || (i + 1 < s.len && s.p[i + 1] != '|'))
			return FALSE;
		bits |= (1 << (l - letters)) >> 1;
	}
	*out = bits;
	return s.len > 0;
}

static gboolean evf_model_switch(const FtlEvent *ev, EvfModelField m, EvfValue *v)
{
	switch (m) {
	case MF_PREV_COMM:
		evf_set_str(v, ev->u.sw.prev_comm);
		return TRUE;
	case MF_PREV_PID:
		evf_set_int(v, ev->u.sw.prev_pid);
		return TRUE;
	case MF_PREV_PRIO:
		evf_set_int(v, ev->u.sw.prev_prio);
		return TRUE;
	case MF_PREV_STATE:
		/* letters as printed; binary inputs add the number they keep */
		v->s = ev->u.sw.prev_state;
		v->has_s = TRUE;
		v->has_i = evf_state_bits(v->s, &v->i);
		return TRUE;
	case MF_NEXT_COMM:
		evf_set_str(v, ev->u.sw.next_comm);
		return TRUE;
	case MF_NEXT_PID:
		evf_set_int(v, ev->u.sw.next_pid);
		return TRUE;
	case MF_NEXT_PRIO:
		evf_set_int(v, ev->u.sw.next_prio);
		return TRUE;
	default:
		return FALSE;
	}
}

static gboolean evf_model_graph(const FtlEvent *ev, EvfModelField m, EvfValue *v)
{
	switch (m) {
	case MF_FUNC:
		evf_set_str(v, ev->u.graph.func);
		return TRUE;
	case MF_DEPTH:
		evf_set_int(v, ev->u.graph.depth);
		return TRUE;
	case MF_DURATION:
		if (ev->u.graph.duration != FTL_TS_NONE)
			evf_set_int(v, ev->u.graph.duration);
		return TRUE;
	case MF_RETVAL:
		if (ev->u.graph.has_retval)
			evf_set_int(v, ev->u.graph.retval);
		return TRUE;
	default:
		return FALSE;
	}
}

/* The model's value of m for ev's kind; FALSE when the kind has no such
 * field (the event's own fields are asked next). */
static gboolean evf_model(const FtlEvent *ev, EvfModelField m, EvfValue *v)
{
	switch (ev->kind) {
	case FTL_EVENT_SCHED_SWITCH:
		return evf_model_switch(ev, m, v);
	case FTL_EVENT_SCHED_WAKEUP:
		if (m == MF_WAKE_COMM)
			evf_set_str(v, ev->u.wake.comm);
		else if (m == MF_WAKE_PID || m == MF_WAKE_PRIO || m == MF_TARGET_CPU)
			evf_set_int(v, m == MF_WAKE_PID	   ? ev->u.wake.pid
				       : m == MF_WAKE_PRIO ? ev->u.wake.prio
							   : ev->u.wake.target_cpu);
		return m == MF_WAKE_COMM || m == MF_WAKE_PID || m == MF_WAKE_PRIO ||
		       m == MF_TARGET_CPU;
	case FTL_EVENT_FUNC_ENTRY:
	case FTL_EVENT_FUNC_EXIT:
		return evf_model_graph(ev, m, v);
	case FTL_EVENT_FUNC:
		if (m == MF_FUNC || m == MF_PARENT)
			evf_set_str(v, m == MF_FUNC ? ev->u.fn.func : ev->u.fn.parent);
		return m == MF_FUNC || m == MF_PARENT;
	case FTL_EVENT_MARKER:
		/* the message; a marker's payload is free text, not fields,
		 * so the model answers for every name */
		if (m == MF_BUF) {
			v->s = ev->u.marker.text;
			v->has_s = TRUE;
		}
		return TRUE;
	case FTL_EVENT_IRQ_ENTRY:
	case FTL_EVENT_IRQ_EXIT:
		if (m == MF_IRQ && ev->u.irq.irq >= 0)
			evf_set_int(v, ev->u.irq.irq);
		else if (m == MF_IRQ_NAME && ev->u.irq.name.len) {
			v->s = ev->u.irq.name;
			v->has_s = TRUE;
		} else if (m == MF_IRQ_RET && ev->kind == FTL_EVENT_IRQ_EXIT)
			evf_set_int(v, ev->u.irq.ret);
		return m == MF_IRQ || m == MF_IRQ_NAME || m == MF_IRQ_RET;
	default:
		return FALSE;
	}
}

/* The event's own field: payload text, or the binary record's field. */
static gboolean evf_own(const FtlEvent *ev, const char *name, EvfValue *v)
{
	FtlSlice s;
	if (!ftl_event_field(ev, name, &s))
		return FALSE;
	if (s.len >= 2 && s.p[0] == '"' && s.p[s.len - 1] == '"')
		s = (FtlSlice){ s.p + 1, s.len - 2 };
	if (s.len < sizeof v->buf) {
		memcpy(v->buf, s.p, s.len);
		s.p = v->buf;
	}
	v->s = s;
	v->has_s = TRUE;
	/* the leading number: "vec=3 [action=NET_RX]" is 3 */
	guint32 n = 0;
	while (n < s.len && s.p[n] != ' ')
		n++;
	v->has_i = ftl_slice_to_i64((FtlSlice){ s.p, n }, &v->i);
	return TRUE;
}

static gboolean evf_common(const FtlEvent *ev, EvfCommonField c, EvfValue *v)
{
	switch (c) {
	case CF_COMM:
		evf_set_str(v, ev->comm ? ev->comm : ev->pid == 0 ? "<idle>" : "<...>");
		return TRUE;
	case CF_CPU:
		if (ev->cpu >= 0)
			evf_set_int(v, ev->cpu);
		return ev->cpu >= 0;
	case CF_PID:
		if (ev->pid >= 0)
			evf_set_int(v, ev->pid);
		return ev->pid >= 0;
	case CF_TGID:
		if (ev->tgid >= 0)
			evf_set_int(v, ev->tgid);
		return ev->tgid >= 0;
	case CF_TS:
		if (ev->ts != FTL_TS_NONE)
			evf_set_int(v, ev->ts);
		return ev->ts != FTL_TS_NONE;
	default:
		return FALSE;
	}
}

static gboolean evf_binary(const FtlEvent *ev)
{
	return ev->payload.len == 0 && ev->src && ev->src->ops->field;
}

static gboolean evf_value(const FtlEvent *ev, const EvfField *fd, EvfValue *v)
{
	memset(v, 0, offsetof(EvfValue, buf));
	if (fd->common_only)
		return evf_common(ev, fd->common, v);
	if (fd->model && evf_model(ev, fd->model, v)) {
		/* a binary record keeps the number the text shows as a name
		 * (prev_state, a function's address): trace-cmd compares it */
		if (v->has_s && !v->has_i && evf_binary(ev)) {
			EvfValue raw;
			memset(&raw, 0, sizeof raw);
			if (evf_own(ev, fd->name, &raw) && raw.has_i)
				evf_set_int(v, raw.i);
		}
		if (v->has_s || v->has_i)
			return TRUE;
	} else if (ev->kind != FTL_EVENT_MARKER && evf_own(ev, fd->name, v)) {
		return TRUE;
	}
	return fd->common && evf_common(ev, fd->common, v);
}

static gboolean evf_cmp_int(EvfOp op, gint64 a, gint64 b)
{
	switch (op) {
	case OP_EQ:
		return a == b;
	case OP_NE:
		return a != b;
	case OP_LT:
		return a < b;
	case OP_GT:
		return a > b;
	case OP_LE:
		return a <= b;
	case OP_GE:
		return a >= b;
	case OP_BAND:
		return (a & b) != 0;
	default:
		return FALSE;
	}
}

static gboolean evf_cmp_str(FtlEventFilter *f, const EvfNode *n, FtlSlice s)
{
	switch (n->op) {
	case OP_EQ:
	case OP_NE:
		return ftl_slice_eq(s, n->r.str) == (n->op == OP_EQ);
	case OP_GLOB:
		g_string_truncate(f->scratch, 0);
		g_string_append_len(f->scratch, s.p, s.len);
		return fnmatch(n->r.str, f->scratch->str, 0) == 0;
	case OP_REGEX:
	case OP_NREGEX:
		return g_regex_match_full(n->r.re, s.p, s.len, 0, 0, NULL, NULL) ==
		       (n->op == OP_REGEX);
	default:
		return FALSE;
	}
}

static gboolean evf_cmp(FtlEventFilter *f, const EvfNode *n, const FtlEvent *ev)
{
	EvfValue l, r;
	if (!evf_value(ev, &n->l.field, &l))
		return FALSE;
	switch (n->r.type) {
	case OPND_NUM:
		return l.has_i && evf_cmp_int(n->op, l.i, n->r.num);
	case OPND_STR:
		if (!l.has_s) {
			gint len = g_snprintf(l.buf, sizeof l.buf, "%" G_GINT64_FORMAT, l.i);
			l.s = (FtlSlice){ l.buf, (guint32)len };
		}
		return evf_cmp_str(f, n, l.s);
	case OPND_FIELD:
		if (!evf_value(ev, &n->r.field, &r))
			return FALSE;
		if (l.has_i && r.has_i)
			return evf_cmp_int(n->op, l.i, r.i);
		if (l.has_s && r.has_s && (n->op == OP_EQ || n->op == OP_NE))
			return (l.s.len == r.s.len && memcmp(l.s.p, r.s.p, l.s.len) == 0) ==
			       (n->op == OP_EQ);
		return FALSE;
	}
	return FALSE;
}

static gboolean evf_eval(FtlEventFilter *f, const EvfNode *n, const FtlEvent *ev)
{
	switch (n->type) {
	case N_AND:
		return evf_eval(f, n->a, ev) && evf_eval(f, n->b, ev);
	case N_OR:
		return evf_eval(f, n->a, ev) || evf_eval(f, n->b, ev);
	case N_NOT:
		return !evf_eval(f, n->a, ev);
	case N_CMP:
		return evf_cmp(f, n, ev);
	}
	return FALSE;
}

/* Marks the fields of s's expression that ev has (until all are found):
 * apart from evaluation, which stops at the first false term. */
static void evf_probe_fields(EvfSpec *s, const FtlEvent *ev)
{
	for (guint i = 0; i < s->fields->len; i++) {
		EvfValue v;
		if (!s->found[i] && evf_value(ev, g_ptr_array_index(s->fields, i), &v)) {
			s->found[i] = 1;
			s->n_unfound--;
		}
	}
}

static gboolean evf_match_locked(FtlEventFilter *f, const FtlEvent *ev)
{
	const guint8 *hit = evf_hits(f, ev);
	gboolean plain_ok = FALSE;
	for (guint i = 0; i < f->specs->len; i++) {
		const EvfSpec *s = g_ptr_array_index(f->specs, i);
		if (!hit[i] || (plain_ok && !s->invert))
			continue;
		if (s->expr && s->n_unfound)
			evf_probe_fields((EvfSpec *)s, ev);
		((EvfSpec *)s)->evaluated++;
		gboolean m = !s->expr || evf_eval(f, s->expr, ev);
		if (m && s->invert)
			return FALSE;
		plain_ok |= m;
	}
	return plain_ok || !f->n_plain;
}

gboolean ftl_event_filter_match(FtlEventFilter *f, const FtlEvent *ev)
{
	if (!f || !f->specs->len)
		return TRUE;
	g_mutex_lock(&f->lock);
	gboolean pass = evf_match_locked(f, ev);
	g_mutex_unlock(&f->lock);
	return pass;
}

char *ftl_event_filter_unmatched(FtlEventFilter *f, GHashTable *seen, const char *label)
{
	g_autoptr(GString) out = g_string_new(NULL);
	g_autoptr(GString) have = g_string_new(NULL);
	g_autoptr(GList) keys = g_hash_table_get_keys(seen);
	keys = g_list_sort(keys, (GCompareFunc)g_strcmp0);
	guint shown = 0;
	for (GList *k = keys; k; k = k->next)
		if (shown++ < 12)
			g_string_append_printf(have, "%s%s", have->len ? ", " : "", (char *)k->data);
	if (shown > 12)
		g_string_append_printf(have, " and %u more", shown - 12);
	g_mutex_lock(&f->lock);
	for (guint i = 0; i < f->specs->len; i++) {
		const EvfSpec *s = g_ptr_array_index(f->specs, i);
		for (guint j = 0; j < s->names->len; j++) {
			const EvfName *n = g_ptr_array_index(s->names, j);
			gboolean any = FALSE;
			GHashTableIter it;
			gpointer name, system;
			g_hash_table_iter_init(&it, seen);
			while (!any && g_hash_table_iter_next(&it, &name, &system))
				any = evf_name_match(n, system ? system
							       : ftl_event_system_guess(name),
						     name);
			if (any)
				continue;
			g_string_append_printf(out, "%s%s: no event of '%s' is named '%s%s%s' (%s%s)",
					       out->len ? "\n" : "", s->text, label,
					       n->system ? n->system : "", n->system ? ":" : "",
					       n->name, have->len ? "it has " : "it has no event",
					       have->str);
		}
		for (guint j = 0; s->evaluated && s->fields && j < s->fields->len; j++)
			if (!s->found[j])
				g_string_append_printf(
					out, "%s%s: no event it names in '%s' has a field '%s'",
					out->len ? "\n" : "", s->text, label,
					((const EvfField *)g_ptr_array_index(s->fields, j))->name);
	}
	g_mutex_unlock(&f->lock);
	return out->len ? g_string_free(g_steal_pointer(&out), FALSE) : NULL;
}

char *ftl_event_filter_describe(const FtlEventFilter *f)
{
	return g_strdup(f ? f->given->str : "");
}

/* ---- systems of well-known events, for text inputs ---------------------- */

const char *ftl_event_system_guess(const char *name)
{
	static const struct {
		const char *glob;
		const char *system;
	} known[] = {
		{ "function", "ftrace" },	    { "funcgraph_*", "ftrace" },
		{ "print", "ftrace" },		    { "bprint", "ftrace" },
		{ "bputs", "ftrace" },		    { "tracing_mark_write", "ftrace" },
		{ "kernel_stack", "ftrace" },	    { "user_stack", "ftrace" },
		{ "hwlat", "ftrace" },		    { "osnoise", "ftrace" },
		{ "timerlat", "ftrace" },	    { "func_repeats", "ftrace" },
		{ "sched_*", "sched" },		    { "irq_handler_*", "irq" },
		{ "softirq_*", "irq" },		    { "tasklet_*", "irq" },
		{ "cpu_idle*", "power" },	    { "cpu_frequency*", "power" },
		{ "clock_*", "power" },		    { "suspend_resume", "power" },
		{ "timer_*", "timer" },		    { "hrtimer_*", "timer" },
		{ "itimer_*", "timer" },	    { "tick_stop", "timer" },
		{ "sys_enter", "raw_syscalls" },    { "sys_exit", "raw_syscalls" },
		{ "sys_enter_*", "syscalls" },	    { "sys_exit_*", "syscalls" },
		{ "workqueue_*", "workqueue" },	    { "block_*", "block" },
		{ "signal_*", "signal" },	    { "thermal_*", "thermal" },
		{ "cdev_update", "thermal" },	    { "task_newtask", "task" },
		{ "task_rename", "task" },	    { "kmalloc*", "kmem" },
		{ "kfree", "kmem" },		    { "kmem_cache_*", "kmem" },
		{ "mm_page_*", "kmem" },	    { "mm_compaction_*", "compaction" },
		{ "mm_vmscan_*", "vmscan" },	    { "rcu_utilization", "rcu" },
		{ "napi_*", "napi" },		    { "net_dev_*", "net" },
		{ "netif_*", "net" },		    { "writeback_*", "writeback" },
		{ "ext4_*", "ext4" },		    { "local_timer_*", "irq_vectors" },
	};
	if (!name)
		return NULL;
	for (guint i = 0; i < G_N_ELEMENTS(known); i++)
		if (fnmatch(known[i].glob, name, 0) == 0)
			return known[i].system;
	return NULL;
}
