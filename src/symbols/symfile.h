/* SPDX-License-Identifier: GPL-2.0-or-later */
/* One ELF file with its DWARF (a vmlinux, a module's .ko, any program), read
 * through elfutils' libdwfl: an address to its function, file:line and the
 * chain of functions inlined there, innermost first, as `addr2line -f -i`
 * prints it; a symbol's name (and size) to its address. */
#pragma once

#include <glib.h>

/* One level of the inline chain. Strings live as long as the FtlSymFile. */
typedef struct {
	const char *func; /* "??" when no DWARF or symbol names it */
	const char *file; /* as the line table names it, NULL when unknown */
	guint line;	  /* 0 when unknown */
	guint discriminator;
} FtlSrcFrame;

typedef struct _FtlSymFile FtlSymFile;

/* Opens path (nothing of its DWARF is read until asked). Free with
 * ftl_symfile_free(). Errors name the file. */
FtlSymFile *ftl_symfile_open(const char *path, GError **error);
void ftl_symfile_free(FtlSymFile *f);
const char *ftl_symfile_path(const FtlSymFile *f);
/* The GNU build id in hex, NULL when the file has none. Borrowed. */
const char *ftl_symfile_build_id(const FtlSymFile *f);

/* The address of the function symbol name; with size > 0 the one whose
 * span to the next symbol is size (static functions share names; the
 * kernel prints func+off/size with that span), else the one of that
 * st_size, else the only one no larger.
 * Addresses of a relocatable file (.ko) are libdwfl's layout of its
 * sections: use them with ftl_symfile_lookup() of the same file only.
 * FALSE when no symbol matches. The first call reads the symbol table. */
gboolean ftl_symfile_symbol(FtlSymFile *f, const char *name, guint64 size, guint64 *addr);
/* The nearest function symbol at or before addr, its start and its size
 * in the symbol table (may be NULL), as binutils names code that no DWARF
 * function covers. NULL when none. */
const char *ftl_symfile_symbol_at(FtlSymFile *f, guint64 addr, guint64 *start, guint64 *size);
/* The contents of the object symbol name as a string (the kernel's
 * linux_banner), NULL when absent. Free with g_free(). */
char *ftl_symfile_string(FtlSymFile *f, const char *name);

/* Appends addr's frames to frames (FtlSrcFrame), innermost first; the last
 * one is the function the code belongs to. Returns how many were appended:
 * 0 when the file has no line information for addr. Reads the compilation
 * unit holding addr on first use (its address ranges first). */
guint ftl_symfile_lookup(FtlSymFile *f, guint64 addr, GArray *frames);
/* Where function func (the symbol, size as above) is defined:
 * DW_AT_decl_file and decl_line of its DWARF entry. FALSE when unknown. */
gboolean ftl_symfile_definition(FtlSymFile *f, const char *func, guint64 size, const char **file,
				guint *line);
/* The part of a path from this file to cut before showing it: the kernel
 * build's source directory ("debian/build/build_amd64_none_cloud-amd64/"),
 * found from where start_kernel is defined; "" for other files. */
const char *ftl_symfile_tree_prefix(FtlSymFile *f);
/* Compilation units read so far (each one's DIEs and lines stay cached). */
guint ftl_symfile_n_units(const FtlSymFile *f);

G_DEFINE_AUTOPTR_CLEANUP_FUNC(FtlSymFile, ftl_symfile_free)
