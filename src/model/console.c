/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The console model: storage for prefix-free console lines and dump sections. */
#include "model/console.h"

#include <string.h>

#include "util/error.h"

FtlConsole *ftl_console_new(const char *path)
{
	FtlConsole *c = g_new0(FtlConsole, 1);
	c->path = g_strdup(path);
	c->lines = g_array_new(FALSE, TRUE, sizeof(FtlConsoleLine));
	c->dumps = g_ptr_array_new_with_free_func((GDestroyNotify)ftl_console_dump_free);
	c->diags = ftl_diags_new();
	c->text = g_string_chunk_new(64 * 1024);
	return c;
}

void ftl_console_free(FtlConsole *c)
{
	if (!c)
		return;
	g_free(c->path);
	g_array_unref(c->lines);
	g_ptr_array_unref(c->dumps);
	ftl_diags_free(c->diags);
	g_string_chunk_free(c->text);
	g_free(c);
}

FtlConsoleLine *ftl_console_append(FtlConsole *c, const char *text, gsize len)
{
	FtlConsoleLine l = {
		.text = g_string_chunk_insert_len(c->text, text, (gssize)len),
		.len = (guint32)len,
		.ts = FTL_TS_NONE,
		.caller = -1,
		.level = -1,
	};
	g_array_append_val(c->lines, l);
	return &g_array_index(c->lines, FtlConsoleLine, c->lines->len - 1);
}

gboolean ftl_console_same_context(const FtlConsoleLine *a, const FtlConsoleLine *b)
{
	if (a->caller_kind || b->caller_kind)
		return a->caller_kind == b->caller_kind && a->caller == b->caller;
	return (a->ts == FTL_TS_NONE) == (b->ts == FTL_TS_NONE);
}

FtlConsoleDump *ftl_console_dump_new(void)
{
	FtlConsoleDump *d = g_new0(FtlConsoleDump, 1);
	d->content = g_array_new(FALSE, FALSE, sizeof(guint));
	return d;
}

void ftl_console_dump_free(FtlConsoleDump *d)
{
	if (!d)
		return;
	g_free(d->instance);
	g_array_unref(d->content);
	g_free(d);
}

guint64 ftl_console_dump_input_line(const FtlConsole *c, guint i, guint64 line)
{
	if (i >= c->dumps->len)
		return 0;
	const FtlConsoleDump *d = g_ptr_array_index(c->dumps, i);
	/* line 1 is the comment naming where the dump came from */
	if (line < 2 || line - 2 >= d->content->len)
		return 0;
	return ftl_console_line(c, g_array_index(d->content, guint, line - 2))->lineno;
}

gboolean ftl_console_pick_dump(const FtlConsole *c, gint which, guint *dump, GError **error)
{
	guint d = 0;
	if (!c->dumps->len) {
		g_set_error(error, FTL_ERROR, FTL_ERROR_FORMAT,
			    "'%s': no ftrace dump (\"Dumping ftrace buffer:\") in this log", c->path);
		return FALSE;
	}
	if (which > 0)
		d = MIN((guint)which, c->dumps->len) - 1;
	else
		while (d + 1 < c->dumps->len &&
		       !((const FtlConsoleDump *)g_ptr_array_index(c->dumps, d))->content->len)
			d++;
	const FtlConsoleDump *cd = g_ptr_array_index(c->dumps, d);
	if (!cd->content->len) {
		g_set_error(error, FTL_ERROR, FTL_ERROR_EMPTY,
			    "'%s': line %" G_GUINT64_FORMAT ": ftrace dump %u is empty%s", c->path,
			    ftl_console_line(c, cd->header)->lineno, d + 1,
			    cd->empty ? " (\"(ftrace buffer empty)\")" : "");
		return FALSE;
	}
	*dump = d;
	return TRUE;
}
