/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Line program headers (DWARF 2-5, section 6.2.4) read for their directory
 * and file tables only, with libdw 0.188's read_srclines' rules for naming
 * a file, so that a definition's file is the string dwarf_decl_file gives. */
#include "symbols/linefiles.h"

#include <dwarf.h>
#include <string.h>

typedef struct {
	const guchar *data;
	gsize size;
} LfSection;

/* One header's tables: pointers into the sections, joined on demand. */
typedef struct {
	gboolean bad;	   /* not read here: libdw's answer instead */
	guint n_dirs, n_files;
	const char **dirs; /* DWARF < 5: dirs[0] is comp_dir (may be NULL) */
	const char **names;
	guint64 *dir_of;
	const char **joined; /* NULL until asked */
} LfTable;

struct _FtlLineFiles {
	LfSection line, line_str, str;
	GHashTable *tables; /* stmt_list offset -> LfTable* */
	GStringChunk *strings;
};

static void lf_table_free(gpointer p)
{
	LfTable *t = p;
	g_free(t->dirs);
	g_free(t->names);
	g_free(t->dir_of);
	g_free(t->joined);
	g_free(t);
}

FtlLineFiles *ftl_linefiles_new(Elf *elf)
{
	GElf_Ehdr ehdr;
	size_t shstrndx;
	if (!elf || !gelf_getehdr(elf, &ehdr) || ehdr.e_type == ET_REL ||
	    ehdr.e_ident[EI_DATA] != ELFDATA2LSB || elf_getshdrstrndx(elf, &shstrndx) != 0)
		return NULL;
	LfSection line = { 0 }, line_str = { 0 }, str = { 0 };
	for (Elf_Scn *scn = elf_nextscn(elf, NULL); scn; scn = elf_nextscn(elf, scn)) {
		GElf_Shdr sh;
		if (!gelf_getshdr(scn, &sh))
			return NULL;
		const char *name = elf_strptr(elf, shstrndx, sh.sh_name);
		LfSection *s = !g_strcmp0(name, ".debug_line")	    ? &line
			       : !g_strcmp0(name, ".debug_line_str") ? &line_str
			       : !g_strcmp0(name, ".debug_str")	    ? &str
								    : NULL;
		if (!s)
			continue;
		/* libdw decompresses its sections in this Elf when it opens
		 * them; one still compressed is not read here */
		if ((sh.sh_flags & SHF_COMPRESSED) || sh.sh_type == SHT_NOBITS)
			return NULL;
		Elf_Data *d = elf_getdata(scn, NULL);
		if (!d || !d->d_buf)
			return NULL;
		s->data = d->d_buf;
		s->size = d->d_size;
	}
	if (!line.data)
		return NULL;
	FtlLineFiles *lf = g_new0(FtlLineFiles, 1);
	lf->line = line;
	lf->line_str = line_str;
	lf->str = str;
	lf->tables = g_hash_table_new_full(g_int64_hash, g_int64_equal, g_free, lf_table_free);
	lf->strings = g_string_chunk_new(4096);
	return lf;
}

void ftl_linefiles_free(FtlLineFiles *lf)
{
	if (!lf)
		return;
	g_hash_table_destroy(lf->tables);
	g_string_chunk_free(lf->strings);
	g_free(lf);
}

/* A bounded little-endian reader: any overrun clears ok. */
typedef struct {
	const guchar *p, *end;
	gboolean ok;
} LfReader;

static guint64 lf_u(LfReader *r, guint n)
{
	if (!r->ok || (gsize)(r->end - r->p) < n) {
		r->ok = FALSE;
		return 0;
	}
	guint64 v = 0;
	for (guint i = 0; i < n; i++)
		v |= (guint64)r->p[i] << (8 * i);
	r->p += n;
	return v;
}

static guint64 lf_uleb(LfReader *r)
{
	guint64 v = 0;
	for (guint shift = 0; r->ok; shift += 7) {
		if (r->p >= r->end || shift > 63) {
			r->ok = FALSE;
			break;
		}
		guchar b = *r->p++;
		v |= (guint64)(b & 0x7f) << shift;
		if (!(b & 0x80))
			return v;
	}
	return 0;
}

static void lf_skip(LfReader *r, guint64 n)
{
	if (!r->ok || (guint64)(r->end - r->p) < n)
		r->ok = FALSE;
	else
		r->p += n;
}

/* A NUL-terminated string at r (DW_FORM_string) or at off of s. */
static const char *lf_cstr(LfReader *r)
{
	const guchar *nul = r->ok ? memchr(r->p, 0, r->end - r->p) : NULL;
	if (!nul) {
		r->ok = FALSE;
		return NULL;
	}
	const char *s = (const char *)r->p;
	r->p = nul + 1;
	return s;
}

static const char *lf_strp(LfReader *r, const LfSection *s, guint offset_size)
{
	guint64 off = lf_u(r, offset_size);
	if (!r->ok || !s->data || off >= s->size || !memchr(s->data + off, 0, s->size - off)) {
		r->ok = FALSE;
		return NULL;
	}
	return (const char *)s->data + off;
}

/* One attribute of an entry of a DWARF 5 table in form: its string (path)
 * or number (directory index); the other forms skipped. FALSE for a form
 * this reader does not know (strx, which needs the unit's offsets table). */
static gboolean lf_form(FtlLineFiles *lf, LfReader *r, guint64 form, guint offset_size,
			const char **s, guint64 *u)
{
	switch (form) {
	case DW_FORM_string:
		*s = lf_cstr(r);
		break;
	case DW_FORM_line_strp:
		*s = lf_strp(r, &lf->line_str, offset_size);
		break;
	case DW_FORM_strp:
		*s = lf_strp(r, &lf->str, offset_size);
		break;
	case DW_FORM_udata:
		*u = lf_uleb(r);
		break;
	case DW_FORM_data1:
		*u = lf_u(r, 1);
		break;
	case DW_FORM_data2:
		*u = lf_u(r, 2);
		break;
	case DW_FORM_data4:
		*u = lf_u(r, 4);
		break;
	case DW_FORM_data8:
		*u = lf_u(r, 8);
		break;
	case DW_FORM_data16:
		lf_skip(r, 16);
		break;
	case DW_FORM_block:
		lf_skip(r, lf_uleb(r));
		break;
	case DW_FORM_block1:
		lf_skip(r, lf_u(r, 1));
		break;
	default:
		return FALSE;
	}
	return TRUE;
}

/* A DWARF 5 table (directories or files): its entry format, then its
 * entries' paths and directory indexes. FALSE when not read. */
static gboolean lf_v5_entries(FtlLineFiles *lf, LfReader *r, guint offset_size, gboolean files,
			      guint *n, const char ***paths, guint64 **dir_of)
{
	guint n_forms = (guint)lf_u(r, 1);
	guint64 desc[256], form[256];
	gboolean has_path = FALSE, has_dir = FALSE;
	for (guint i = 0; i < n_forms && r->ok; i++) {
		desc[i] = lf_uleb(r);
		form[i] = lf_uleb(r);
		has_path |= desc[i] == DW_LNCT_path;
		has_dir |= desc[i] == DW_LNCT_directory_index;
	}
	guint64 count = lf_uleb(r);
	/* as libdw: a file needs both, and at least a byte per entry and
	 * form (bigger counts are refused) */
	if (!r->ok || (n_forms && (!has_path || (files && !has_dir))) || (!n_forms && count) ||
	    (n_forms && count > (guint64)(r->end - r->p) / n_forms))
		return FALSE;
	*n = (guint)count;
	*paths = g_new0(const char *, count + 1);
	*dir_of = g_new0(guint64, count + 1);
	for (guint k = 0; k < count; k++) {
		for (guint i = 0; i < n_forms; i++) {
			const char *s = NULL;
			guint64 u = 0;
			if (!lf_form(lf, r, form[i], offset_size, &s, &u) || !r->ok)
				return FALSE;
			if (desc[i] == DW_LNCT_path)
				(*paths)[k] = s;
			else if (desc[i] == DW_LNCT_directory_index)
				(*dir_of)[k] = u;
		}
		if (!(*paths)[k])
			return FALSE;
	}
	return TRUE;
}

/* Reads the header at off into t; FALSE when libdw should answer. */
static gboolean lf_read(FtlLineFiles *lf, guint64 off, const char *comp_dir, LfTable *t)
{
	if (off >= lf->line.size)
		return FALSE;
	LfReader r = { lf->line.data + off, lf->line.data + lf->line.size, TRUE };
	guint offset_size = 4;
	guint64 len = lf_u(&r, 4);
	if (len == 0xffffffff) {
		offset_size = 8;
		len = lf_u(&r, 8);
	}
	if (!r.ok || len > (guint64)(r.end - r.p))
		return FALSE;
	r.end = r.p + len;
	guint version = (guint)lf_u(&r, 2);
	if (version < 2 || version > 5)
		return FALSE;
	if (version >= 5)
		lf_skip(&r, 2); /* address and segment selector sizes */
	guint64 header_length = lf_u(&r, offset_size);
	if (!r.ok || header_length > (guint64)(r.end - r.p))
		return FALSE;
	r.end = r.p + header_length; /* the tables end with the header */
	lf_skip(&r, version >= 4 ? 5 : 4); /* min_inst_length .. line_range */
	guint opcode_base = (guint)lf_u(&r, 1);
	lf_skip(&r, opcode_base ? opcode_base - 1 : 0);
	if (!r.ok)
		return FALSE;
	if (version >= 5) {
		guint64 *unused = NULL;
		gboolean ok = lf_v5_entries(lf, &r, offset_size, FALSE, &t->n_dirs, &t->dirs, &unused);
		g_free(unused);
		if (!ok || !lf_v5_entries(lf, &r, offset_size, TRUE, &t->n_files, &t->names, &t->dir_of))
			return FALSE;
	} else {
		/* directories 1..n, then files 1..n (0 is "???": never asked) */
		GPtrArray *dirs = g_ptr_array_new();
		g_ptr_array_add(dirs, (gpointer)comp_dir);
		while (r.ok && r.p < r.end && *r.p)
			g_ptr_array_add(dirs, (gpointer)lf_cstr(&r));
		lf_skip(&r, 1);
		t->n_dirs = dirs->len;
		t->dirs = (const char **)g_ptr_array_free(dirs, FALSE);
		GPtrArray *names = g_ptr_array_new();
		GArray *dir_of = g_array_new(FALSE, TRUE, sizeof(guint64));
		g_ptr_array_add(names, (gpointer) "???");
		g_array_set_size(dir_of, 1);
		while (r.ok && r.p < r.end && *r.p) {
			g_ptr_array_add(names, (gpointer)lf_cstr(&r));
			guint64 d = lf_uleb(&r);
			g_array_append_val(dir_of, d);
			lf_uleb(&r); /* mtime */
			lf_uleb(&r); /* length */
		}
		lf_skip(&r, 1);
		t->n_files = names->len;
		t->names = (const char **)g_ptr_array_free(names, FALSE);
		t->dir_of = (guint64 *)(void *)g_array_free(dir_of, FALSE);
	}
	/* libdw checks the tables end the header (a CUBIN's has 4 bytes more) */
	if (!r.ok || (r.p != r.end && r.end - r.p != 4))
		return FALSE;
	for (guint i = 0; i < t->n_files; i++)
		if (t->dir_of[i] >= t->n_dirs) /* libdw refuses the whole table */
			return FALSE;
	t->joined = g_new0(const char *, t->n_files + 1);
	return TRUE;
}

const char *ftl_linefiles_name(FtlLineFiles *lf, guint64 stmt_list, const char *comp_dir,
			       guint64 idx, gboolean *fallback)
{
	*fallback = FALSE;
	gint64 key = (gint64)stmt_list;
	LfTable *t = g_hash_table_lookup(lf->tables, &key);
	if (!t) {
		t = g_new0(LfTable, 1);
		t->bad = !lf_read(lf, stmt_list, comp_dir, t);
		g_hash_table_insert(lf->tables, g_memdup2(&key, sizeof key), t);
	}
	if (t->bad) {
		*fallback = TRUE;
		return NULL;
	}
	if (idx == 0 || idx >= t->n_files)
		return NULL;
	if (!t->joined[idx]) {
		const char *name = t->names[idx], *dir = t->dirs[t->dir_of[idx]];
		if (name[0] == '/' || !dir) {
			t->joined[idx] = name;
		} else {
			g_autofree char *j = g_strconcat(dir, "/", name, NULL);
			t->joined[idx] = g_string_chunk_insert_const(lf->strings, j);
		}
	}
	return t->joined[idx];
}
