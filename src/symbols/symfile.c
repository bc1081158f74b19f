/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Addresses to source lines and inline chains through libdwfl's offline
 * reporting: the one user of elfutils. */
#include "symbols/symfile.h"

#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
#include <dwarf.h>
#include <gelf.h>
#include <string.h>

#include "symbols/linefiles.h"
#include "util/error.h"

typedef struct {
	guint64 addr, size; /* addr first: symfile_upper_bound() */
	const char *name;   /* interned */
	gint32 next;	  /* the next symbol of the same name, -1 none */
} SymEntry;

/* One address range of a function of a unit (a DW_TAG_subprogram among
 * the unit's top-level entries), in the unit's DWARF addresses. */
typedef struct {
	Dwarf_Addr lo, hi; /* [lo, hi); lo first: symfile_upper_bound() */
	Dwarf_Die die;
} SymRange;

/* What is kept of a unit once read: its functions' ranges, sorted, so an
 * address finds its function without walking the unit's entries (a kernel
 * unit has thousands of top-level entries from the headers it includes,
 * and dwarf_getscopes walked them all for every address asked). */
typedef struct {
	Dwarf_Die cu;
	GArray *ranges; /* SymRange by lo */
} SymUnit;

struct _FtlSymFile {
	char *path;
	Dwfl *dwfl;
	Dwfl_Module *mod;
	char *build_id;
	/* every string handed out: names and paths outlive nothing of libdw */
	GStringChunk *strings;
	/* function symbols by name (read on first ftl_symfile_symbol()) */
	GHashTable *by_name; /* interned name -> index + 1 into syms */
	GArray *syms;	     /* SymEntry */
	GHashTable *units;   /* CU offset -> SymUnit*, the units read so far */
	/* libdwfl's address = the file's + bias: a PIE or a .ko is laid out
	 * where the offline reporting puts it; callers see file addresses */
	Dwarf_Addr bias;
	char *tree_prefix;   /* NULL until asked */
	/* answers by address: a stack names the same return addresses over
	 * and over, and getscopes walks the unit's entries each time */
	GHashTable *answers; /* file address -> (index << 8 | count) + 1 into answer_frames */
	GArray *answer_frames;
	/* the line programs' file tables, read from their headers; NULL
	 * when libdw's dwarf_decl_file answers (linefiles_tried) */
	FtlLineFiles *linefiles;
	gboolean linefiles_tried;
};

static void symfile_unit_free(gpointer p)
{
	SymUnit *u = p;
	g_array_unref(u->ranges);
	g_free(u);
}

static char *symfile_debuginfo_path = NULL;
static const Dwfl_Callbacks symfile_callbacks = {
	.find_elf = dwfl_build_id_find_elf,
	.find_debuginfo = dwfl_standard_find_debuginfo,
	.section_address = dwfl_offline_section_address,
	.debuginfo_path = &symfile_debuginfo_path,
};

FtlSymFile *ftl_symfile_open(const char *path, GError **error)
{
	Dwfl *dwfl = dwfl_begin(&symfile_callbacks);
	if (!dwfl) {
		g_set_error(error, FTL_ERROR, FTL_ERROR_IO, "'%s': %s", path, dwfl_errmsg(-1));
		return NULL;
	}
	dwfl_report_begin(dwfl);
	g_autofree char *base = g_path_get_basename(path);
	Dwfl_Module *mod = dwfl_report_offline(dwfl, base, path, -1);
	if (!mod || dwfl_report_end(dwfl, NULL, NULL) != 0) {
		g_set_error(error, FTL_ERROR, FTL_ERROR_IO, "'%s': %s", path, dwfl_errmsg(-1));
		dwfl_end(dwfl);
		return NULL;
	}
	FtlSymFile *f = g_new0(FtlSymFile, 1);
	f->path = g_strdup(path);
	f->dwfl = dwfl;
	f->mod = mod;
	f->strings = g_string_chunk_new(4096);
	f->units = g_hash_table_new_full(g_int64_hash, g_int64_equal, g_free, symfile_unit_free);
	f->answers = g_hash_table_new_full(g_int64_hash, g_int64_equal, g_free, NULL);
	f->answer_frames = g_array_new(FALSE, FALSE, sizeof(FtlSrcFrame));
	if (!dwfl_module_getelf(mod, &f->bias)) {
		g_set_error(error, FTL_ERROR, FTL_ERROR_FORMAT, "'%s': %s", path, dwfl_errmsg(-1));
		ftl_symfile_free(f);
		return NULL;
	}
	const unsigned char *bits;
	GElf_Addr vaddr;
	int n = dwfl_module_build_id(mod, &bits, &vaddr);
	if (n > 0) {
		GString *s = g_string_sized_new(2 * (gsize)n);
		for (int i = 0; i < n; i++)
			g_string_append_printf(s, "%02x", bits[i]);
		f->build_id = g_string_free(s, FALSE);
	}
	return f;
}

void ftl_symfile_free(FtlSymFile *f)
{
	if (!f)
		return;
	dwfl_end(f->dwfl);
	g_free(f->path);
	g_free(f->build_id);
	g_free(f->tree_prefix);
	g_string_chunk_free(f->strings);
	g_clear_pointer(&f->by_name, g_hash_table_unref);
	g_clear_pointer(&f->syms, g_array_unref);
	g_hash_table_destroy(f->units);
	g_hash_table_destroy(f->answers);
	g_array_unref(f->answer_frames);
	ftl_linefiles_free(f->linefiles);
	g_free(f);
}

const char *ftl_symfile_path(const FtlSymFile *f)
{
	return f->path;
}

const char *ftl_symfile_build_id(const FtlSymFile *f)
{
	return f->build_id;
}

guint ftl_symfile_n_units(const FtlSymFile *f)
{
	return g_hash_table_size(f->units);
}

static const char *symfile_intern(FtlSymFile *f, const char *s)
{
	return s ? g_string_chunk_insert_const(f->strings, s) : NULL;
}

/* How many elements of a (sorted by a guint64 that opens each element:
 * SymEntry.addr, SymRange.lo) have that key at or below key. */
static guint symfile_upper_bound(GArray *a, guint64 key)
{
	guint size = g_array_get_element_size(a), lo = 0, hi = a->len;
	while (lo < hi) {
		guint mid = lo + (hi - lo) / 2;
		guint64 k;
		memcpy(&k, a->data + (gsize)mid * size, sizeof k);
		if (k <= key)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static gint symfile_cmp_addr(gconstpointer a, gconstpointer b)
{
	const SymEntry *x = a, *y = b;
	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* The function symbols, by address and by name, once. */
static void symfile_read_symbols(FtlSymFile *f)
{
	if (f->by_name)
		return;
	f->by_name = g_hash_table_new(g_str_hash, g_str_equal);
	f->syms = g_array_new(FALSE, FALSE, sizeof(SymEntry));
	int n = dwfl_module_getsymtab(f->mod);
	for (int i = 1; i < n; i++) {
		GElf_Sym sym;
		GElf_Addr addr;
		GElf_Word shndx;
		const char *name =
			dwfl_module_getsym_info(f->mod, i, &sym, &addr, &shndx, NULL, NULL);
		if (!name || !*name || shndx == SHN_UNDEF || shndx >= SHN_LORESERVE)
			continue;
		int type = GELF_ST_TYPE(sym.st_info);
		if (type != STT_FUNC && type != STT_NOTYPE)
			continue;
		SymEntry e = { addr - f->bias, sym.st_size, symfile_intern(f, name), -1 };
		g_array_append_val(f->syms, e);
	}
	g_array_sort(f->syms, symfile_cmp_addr);
	/* chains of one name, in address order */
	for (guint k = f->syms->len; k-- > 0;) {
		SymEntry *e = &g_array_index(f->syms, SymEntry, k);
		gpointer first = g_hash_table_lookup(f->by_name, e->name);
		e->next = first ? GPOINTER_TO_INT(first) - 1 : -1;
		g_hash_table_insert(f->by_name, (gpointer)e->name, GINT_TO_POINTER(k + 1));
	}
}

/* How far symbol k runs before the next one starts: the size kallsyms
 * prints (func+off/SIZE), which is not st_size. */
static guint64 symfile_span(FtlSymFile *f, guint k)
{
	const SymEntry *e = &g_array_index(f->syms, SymEntry, k);
	for (guint j = k + 1; j < f->syms->len; j++) {
		const SymEntry *n = &g_array_index(f->syms, SymEntry, j);
		if (n->addr > e->addr)
			return n->addr - e->addr;
	}
	return e->size;
}

gboolean ftl_symfile_symbol(FtlSymFile *f, const char *name, guint64 size, guint64 *addr)
{
	symfile_read_symbols(f);
	gpointer first = g_hash_table_lookup(f->by_name, name);
	if (!first)
		return FALSE;
	/* one of that size as kallsyms counts it, else as the symbol table
	 * does, else the only one that fits, else the first */
	gint32 best = -1, fits = -1, n_fits = 0;
	for (gint32 k = GPOINTER_TO_INT(first) - 1; k >= 0;
	     k = g_array_index(f->syms, SymEntry, k).next) {
		const SymEntry *e = &g_array_index(f->syms, SymEntry, k);
		if (!size || symfile_span(f, (guint)k) == size) {
			best = k;
			break;
		}
		if (e->size == size && best < 0)
			best = k;
		if (e->size <= size) {
			n_fits++;
			fits = k;
		}
	}
	if (best < 0)
		best = n_fits == 1 ? fits : GPOINTER_TO_INT(first) - 1;
	*addr = g_array_index(f->syms, SymEntry, best).addr;
	return TRUE;
}

const char *ftl_symfile_symbol_at(FtlSymFile *f, guint64 addr, guint64 *start, guint64 *size)
{
	/* the nearest symbol at or before addr, as binutils names code that
	 * no DWARF function covers (a noreturn call's return address) */
	symfile_read_symbols(f);
	guint lo = symfile_upper_bound(f->syms, addr);
	if (!lo)
		return NULL;
	const SymEntry *e = &g_array_index(f->syms, SymEntry, lo - 1);
	if (start)
		*start = e->addr;
	if (size)
		*size = e->size;
	return e->name;
}

char *ftl_symfile_string(FtlSymFile *f, const char *name)
{
	int n = dwfl_module_getsymtab(f->mod);
	for (int i = 1; i < n; i++) {
		GElf_Sym sym;
		GElf_Addr addr;
		GElf_Word shndx;
		Elf *elf = NULL;
		const char *sn = dwfl_module_getsym_info(f->mod, i, &sym, &addr, &shndx, &elf, NULL);
		if (!sn || strcmp(sn, name) || GELF_ST_TYPE(sym.st_info) != STT_OBJECT || !elf)
			continue;
		Elf_Scn *scn = elf_getscn(elf, shndx);
		GElf_Shdr shdr;
		GElf_Ehdr ehdr;
		if (!scn || !gelf_getshdr(scn, &shdr) || !gelf_getehdr(elf, &ehdr) ||
		    shdr.sh_type == SHT_NOBITS)
			return NULL;
		Elf_Data *data = elf_getdata(scn, NULL);
		guint64 off = ehdr.e_type == ET_REL ? sym.st_value : sym.st_value - shdr.sh_addr;
		if (!data || off >= data->d_size || sym.st_size > data->d_size - off)
			return NULL;
		return g_strndup((const char *)data->d_buf + off, sym.st_size);
	}
	return NULL;
}

/* A path from cu's line table as binutils prints it: a relative one joined
 * to the unit's DW_AT_comp_dir (libdw leaves a relative directory alone). */
static const char *symfile_path(FtlSymFile *f, Dwarf_Die *cu, const char *name)
{
	if (!name || name[0] == '/' || !cu)
		return symfile_intern(f, name);
	Dwarf_Attribute attr;
	const char *dir = dwarf_attr(cu, DW_AT_comp_dir, &attr) ? dwarf_formstring(&attr) : NULL;
	if (!dir || !*dir)
		return symfile_intern(f, name);
	g_autofree char *joined = g_strconcat(dir, "/", name, NULL);
	return symfile_intern(f, joined);
}

/* The DWARF name of a function entry (through its abstract origin). */
static const char *symfile_die_name(FtlSymFile *f, Dwarf_Die *die)
{
	Dwarf_Attribute attr;
	const char *name = NULL;
	/* a linkage name first, as binutils does */
	if (dwarf_attr_integrate(die, DW_AT_linkage_name, &attr))
		name = dwarf_formstring(&attr);
	if (!name)
		name = dwarf_diename(die);
	return symfile_intern(f, name ? name : "??");
}

static void symfile_push(GArray *frames, const char *func, const char *file, guint line,
			 guint disc)
{
	FtlSrcFrame fr = { func, file, line, disc };
	g_array_append_val(frames, fr);
}

/* The file DW_AT_call_file of an inlined instance names. */
static const char *symfile_call_file(FtlSymFile *f, Dwarf_Die *cu, Dwarf_Die *inl)
{
	Dwarf_Attribute attr;
	Dwarf_Word idx;
	Dwarf_Files *files;
	size_t nfiles;
	if (!dwarf_attr(inl, DW_AT_call_file, &attr) || dwarf_formudata(&attr, &idx) != 0 ||
	    dwarf_getsrcfiles(cu, &files, &nfiles) != 0 || idx >= nfiles)
		return NULL;
	return symfile_path(f, cu, dwarf_filesrc(files, idx, NULL, NULL));
}

static guint symfile_call_line(Dwarf_Die *inl)
{
	Dwarf_Attribute attr;
	Dwarf_Word v;
	if (!dwarf_attr(inl, DW_AT_call_line, &attr) || dwarf_formudata(&attr, &v) != 0)
		return 0;
	return (guint)MIN(v, G_MAXUINT);
}

static gint symfile_cmp_range(gconstpointer a, gconstpointer b)
{
	const SymRange *x = a, *y = b;
	return x->lo < y->lo ? -1 : x->lo > y->lo;
}

/* The unit holding addr (a libdwfl address; aranges find it), its
 * functions indexed on first use by one walk over its top-level entries.
 * *bias: libdwfl's address = the unit's + bias. NULL when no unit. */
static SymUnit *symfile_unit(FtlSymFile *f, guint64 addr, Dwarf_Addr *bias)
{
	Dwarf_Die *cu = dwfl_module_addrdie(f->mod, addr, bias);
	if (!cu)
		return NULL;
	gint64 off = (gint64)dwarf_dieoffset(cu);
	SymUnit *u = g_hash_table_lookup(f->units, &off);
	if (u)
		return u;
	u = g_new0(SymUnit, 1);
	u->cu = *cu;
	u->ranges = g_array_new(FALSE, FALSE, sizeof(SymRange));
	Dwarf_Die die;
	if (dwarf_child(cu, &die) == 0)
		do {
			if (dwarf_tag(&die) != DW_TAG_subprogram)
				continue;
			Dwarf_Addr base, lo, hi;
			for (ptrdiff_t o = 0; (o = dwarf_ranges(&die, o, &base, &lo, &hi)) > 0;)
				if (hi > lo) {
					SymRange r = { lo, hi, die };
					g_array_append_val(u->ranges, r);
				}
		} while (dwarf_siblingof(&die, &die) == 0);
	g_array_sort(u->ranges, symfile_cmp_range);
	g_hash_table_insert(f->units, g_memdup2(&off, sizeof off), u);
	return u;
}

/* The function of u holding a (the unit's address), NULL when none. */
static Dwarf_Die *symfile_unit_function(SymUnit *u, Dwarf_Addr a)
{
	guint lo = symfile_upper_bound(u->ranges, a);
	if (!lo)
		return NULL;
	SymRange *r = &g_array_index(u->ranges, SymRange, lo - 1);
	return a < r->hi ? &r->die : NULL;
}

/* The scopes holding addr (a libdwfl address), innermost first, as they
 * nest in the unit: an inlined instance, the blocks and instances around
 * it, then the function it is in. Walks down that function's entries only.
 * g_array_unref() the result (Dwarf_Die); NULL when no function holds addr. */
static GArray *symfile_scopes(FtlSymFile *f, guint64 addr, Dwarf_Die *cu)
{
	Dwarf_Addr bias = 0;
	SymUnit *u = symfile_unit(f, addr, &bias);
	Dwarf_Die *fn = u ? symfile_unit_function(u, addr - bias) : NULL;
	if (!fn)
		return NULL;
	*cu = u->cu;
	Dwarf_Addr a = addr - bias;
	GArray *chain = g_array_new(FALSE, FALSE, sizeof(Dwarf_Die));
	Dwarf_Die cur = *fn, child;
	g_array_append_val(chain, cur);
	/* one child at each level holds a: descend into it. The depth is the
	 * DWARF's nesting, walked without recursion. */
	for (gboolean deeper = TRUE; deeper;) {
		deeper = FALSE;
		if (dwarf_child(&cur, &child) != 0)
			break;
		do {
			int tag = dwarf_tag(&child);
			if ((tag == DW_TAG_lexical_block || tag == DW_TAG_inlined_subroutine) &&
			    dwarf_haspc(&child, a) > 0) {
				cur = child;
				g_array_append_val(chain, cur);
				deeper = TRUE;
				break;
			}
		} while (dwarf_siblingof(&child, &child) == 0);
	}
	/* innermost first */
	for (guint i = 0, j = chain->len - 1; i < j; i++, j--) {
		Dwarf_Die t = g_array_index(chain, Dwarf_Die, i);
		g_array_index(chain, Dwarf_Die, i) = g_array_index(chain, Dwarf_Die, j);
		g_array_index(chain, Dwarf_Die, j) = t;
	}
	return chain;
}

static guint symfile_lookup_uncached(FtlSymFile *f, guint64 file_addr, GArray *frames);

guint ftl_symfile_lookup(FtlSymFile *f, guint64 file_addr, GArray *frames)
{
	gint64 key = (gint64)file_addr;
	gpointer hit = g_hash_table_lookup(f->answers, &key);
	if (hit) {
		guint64 v = *(guint64 *)hit;
		guint n = (guint)(v & 0xff), at = (guint)(v >> 8);
		g_array_append_vals(frames, &g_array_index(f->answer_frames, FtlSrcFrame, at), n);
		return n;
	}
	guint before = frames->len;
	guint n = symfile_lookup_uncached(f, file_addr, frames);
	guint kept = MIN(n, 0xff);
	guint64 *v = g_new(guint64, 2);
	v[0] = key;
	v[1] = (guint64)f->answer_frames->len << 8 | kept;
	g_array_append_vals(f->answer_frames, &g_array_index(frames, FtlSrcFrame, before), kept);
	g_hash_table_insert(f->answers, &v[0], &v[1]);
	return n;
}

static guint symfile_lookup_uncached(FtlSymFile *f, guint64 file_addr, GArray *frames)
{
	guint64 addr = file_addr + f->bias;
	Dwfl_Line *ln = dwfl_module_getsrc(f->mod, addr);
	if (!ln)
		return 0;
	int lineno = 0;
	const char *file = dwfl_lineinfo(ln, NULL, &lineno, NULL, NULL, NULL);
	unsigned int disc = 0;
	Dwarf_Addr lbias;
	Dwarf_Line *dl = dwfl_dwarf_line(ln, &lbias);
	if (dl)
		dwarf_linediscriminator(dl, &disc);
	const char *cur_file = NULL;
	guint cur_line = lineno > 0 ? (guint)lineno : 0;
	guint before = frames->len;
	Dwarf_Die cu;
	g_autoptr(GArray) scopes = symfile_scopes(f, addr, &cu);
	Dwarf_Addr cbias;
	Dwarf_Die *cup = scopes ? &cu : dwfl_module_addrdie(f->mod, addr, &cbias);
	cur_file = symfile_path(f, cup, file);
	for (guint i = 0; scopes && i < scopes->len; i++) {
		Dwarf_Die *sc = &g_array_index(scopes, Dwarf_Die, i);
		int tag = dwarf_tag(sc);
		if (tag != DW_TAG_inlined_subroutine && tag != DW_TAG_subprogram)
			continue;
		symfile_push(frames, symfile_die_name(f, sc), cur_file, cur_line, disc);
		if (tag == DW_TAG_subprogram)
			break;
		cur_file = symfile_call_file(f, &cu, sc);
		cur_line = symfile_call_line(sc);
	}
	if (frames->len == before) {
		/* code without a function entry (assembly): the symbol names it */
		const char *sym = ftl_symfile_symbol_at(f, file_addr, NULL, NULL);
		symfile_push(frames, sym ? sym : "??", cur_file, cur_line, disc);
	}
	return frames->len - before;
}

/* dwarf_decl_file(die), its file table read from the line program's
 * header alone where linefiles.c can (dwarf_decl_file decodes the whole
 * line program of the unit for it). */
static const char *symfile_decl_file(FtlSymFile *f, Dwarf_Die *die)
{
	if (!f->linefiles_tried) {
		f->linefiles_tried = TRUE;
		Dwarf_Addr bias;
		Dwarf *dw = dwfl_module_getdwarf(f->mod, &bias);
		f->linefiles = dw ? ftl_linefiles_new(dwarf_getelf(dw)) : NULL;
	}
	Dwarf_Attribute attr, sl, cd;
	Dwarf_Word idx, stmt;
	Dwarf_Die cu;
	if (!f->linefiles)
		return dwarf_decl_file(die);
	/* the unit of the attribute found (through an abstract origin or a
	 * specification), as dwarf_decl_file takes it */
	if (!dwarf_attr_integrate(die, DW_AT_decl_file, &attr) || dwarf_formudata(&attr, &idx) != 0)
		return NULL;
	if (!dwarf_cu_die(attr.cu, &cu, NULL, NULL, NULL, NULL, NULL, NULL) ||
	    !dwarf_attr(&cu, DW_AT_stmt_list, &sl) || dwarf_formudata(&sl, &stmt) != 0)
		return dwarf_decl_file(die);
	const char *comp_dir = dwarf_attr(&cu, DW_AT_comp_dir, &cd) ? dwarf_formstring(&cd) : NULL;
	gboolean fallback;
	const char *name = ftl_linefiles_name(f->linefiles, stmt, comp_dir, idx, &fallback);
	return fallback ? dwarf_decl_file(die) : name;
}

gboolean ftl_symfile_definition(FtlSymFile *f, const char *func, guint64 size, const char **file,
				guint *line)
{
	guint64 addr;
	if (!ftl_symfile_symbol(f, func, size, &addr))
		return FALSE;
	/* the function holding the symbol's address: its declaration,
	 * through its abstract origin or specification */
	Dwarf_Addr bias = 0;
	SymUnit *u = symfile_unit(f, addr + f->bias, &bias);
	Dwarf_Die *fn = u ? symfile_unit_function(u, addr + f->bias - bias) : NULL;
	const char *df = fn ? symfile_decl_file(f, fn) : NULL;
	if (!df)
		return FALSE;
	int dl = 0;
	dwarf_decl_line(fn, &dl);
	*file = symfile_path(f, &u->cu, df);
	*line = dl > 0 ? (guint)dl : 0;
	return TRUE;
}

const char *ftl_symfile_tree_prefix(FtlSymFile *f)
{
	if (f->tree_prefix)
		return f->tree_prefix;
	const char *file = NULL;
	guint line = 0;
	static const char main_c[] = "init/main.c";
	if (ftl_symfile_definition(f, "start_kernel", 0, &file, &line) &&
	    g_str_has_suffix(file, main_c))
		f->tree_prefix = g_strndup(file, strlen(file) - strlen(main_c));
	else
		f->tree_prefix = g_strdup("");
	return f->tree_prefix;
}
