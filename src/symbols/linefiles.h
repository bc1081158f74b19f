/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The file tables of a DWARF file's line programs, read from their headers
 * alone. A function's DW_AT_decl_file indexes its unit's file table, and
 * libdw 0.188's dwarf_decl_file (through dwarf_getsrcfiles) decodes the
 * unit's whole line program to give it: a row allocated per line, the rows
 * sorted, for every unit of a kernel when all its functions are asked.
 * Reading the header is what a definition needs. */
#pragma once

#include <gelf.h>
#include <glib.h>

typedef struct _FtlLineFiles FtlLineFiles;

/* The line sections of elf (as libdw reads them: the Elf of a Dwarf).
 * NULL when they cannot be read directly here (a relocatable file, whose
 * sections libdwfl relocates, a big-endian or compressed section, none):
 * then libdw's way is the one to use. */
FtlLineFiles *ftl_linefiles_new(Elf *elf);
void ftl_linefiles_free(FtlLineFiles *lf);

/* File idx of the line program at stmt_list (a unit's DW_AT_stmt_list),
 * named as libdw 0.188's dwarf_filesrc names it: joined to its directory
 * entry (DWARF 2-4: directory 0 is comp_dir, which may be NULL), an
 * absolute name alone. NULL when idx is 0 (dwarf_decl_file's "no file")
 * or past the table, or when the header is not one read here (*fallback
 * is then set: the header uses a form this reader does not know, and
 * libdw's answer is the one to take). Strings live as long as lf. */
const char *ftl_linefiles_name(FtlLineFiles *lf, guint64 stmt_list, const char *comp_dir,
			       guint64 idx, gboolean *fallback);

G_DEFINE_AUTOPTR_CLEANUP_FUNC(FtlLineFiles, ftl_linefiles_free)
