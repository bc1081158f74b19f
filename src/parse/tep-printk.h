/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The printk strings libtraceevent was given (a trace.dat's printk section,
 * a raw directory's printk_formats), by address, read as the library reads
 * them: what a print fmt's %s of a pointer-sized field prints (rcu's
 * rcu_utilization, REC->s), so that ftlens's compiled formats (tep-print.c)
 * render those events too. */
#pragma once

#include <glib.h>

typedef struct _FtlPrintkMap FtlPrintkMap;

FtlPrintkMap *ftl_printk_map_new(void);
FtlPrintkMap *ftl_printk_map_ref(FtlPrintkMap *m);
void ftl_printk_map_unref(FtlPrintkMap *m);
/* Adds the lines of text, the text tep_parse_printk_formats() was given
 * ("ADDR : \"STRING\\n\"" per line), as that function and
 * tep_register_print_string() read them. */
void ftl_printk_map_add_text(FtlPrintkMap *m, const char *text);
/* 1 and *str: the string at addr; 0: none there; -1: strings that differ
 * there (the library's bsearch picks one: its rendering is left to it). */
gint ftl_printk_map_find(const FtlPrintkMap *m, guint64 addr, const char **str);

G_DEFINE_AUTOPTR_CLEANUP_FUNC(FtlPrintkMap, ftl_printk_map_unref)
