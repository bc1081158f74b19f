/* SPDX-License-Identifier: GPL-2.0-or-later */
/* tracefs's small text files, parsed once for capture/ and parse/. */
#include "config.h"

#include "util/tracefs-text.h"

#include <string.h>

#include "util/scan.h"

/* "\tfield: local_t commit;\toffset:8;\tsize:8;\tsigned:1;": the last word
 * before the first ';' (without an array suffix), offset and size. */
static gboolean header_field(const char *line, char *name, gsize name_len, gint *off, gint *size)
{
	const char *f = strstr(line, "field:");
	const char *semi = f ? strchr(f, ';') : NULL;
	const char *o = semi ? strstr(semi, "offset:") : NULL;
	const char *s = o ? strstr(o, "size:") : NULL;
	if (!s)
		return FALSE;
	const char *e = semi;
	while (e > f && (e[-1] == ' ' || e[-1] == ']' || g_ascii_isdigit(e[-1]) || e[-1] == '['))
		e--; /* "char data[]" style array suffixes */
	const char *b = e;
	while (b > f && (g_ascii_isalnum(b[-1]) || b[-1] == '_'))
		b--;
	if (b == e || (gsize)(e - b) >= name_len)
		return FALSE;
	memcpy(name, b, (gsize)(e - b));
	name[e - b] = 0;
	guint64 ov, sv;
	const char *oe = o + 7 + strspn(o + 7, " "), *se = s + 5 + strspn(s + 5, " ");
	if (!ftl_scan_u64(oe, oe + strlen(oe), &ov) || !ftl_scan_u64(se, se + strlen(se), &sv) ||
	    ov > (1 << 24) || sv > (1 << 24))
		return FALSE;
	*off = (gint)ov;
	*size = (gint)sv;
	return TRUE;
}

gboolean ftl_header_page_parse(const char *text, FtlHeaderPage *hp)
{
	*hp = (FtlHeaderPage){ -1, -1, -1, -1, -1 };
	g_auto(GStrv) lines = g_strsplit(text, "\n", -1);
	for (guint i = 0; lines[i]; i++) {
		char name[64];
		gint off, size;
		if (!header_field(lines[i], name, sizeof name, &off, &size))
			continue;
		if (strcmp(name, "timestamp") == 0) {
			hp->ts_size = size;
		} else if (strcmp(name, "commit") == 0) {
			hp->commit_off = off;
			hp->commit_size = size;
		} else if (strcmp(name, "data") == 0) {
			hp->data_off = off;
			hp->data_size = size;
		}
	}
	return hp->ts_size == 8 && (hp->commit_size == 4 || hp->commit_size == 8) &&
	       hp->commit_off == 8 && hp->data_off >= 12 && hp->data_size > 0 &&
	       hp->data_off + hp->data_size <= (1 << 24);
}

guint ftl_header_page_size(const FtlHeaderPage *hp)
{
	return (guint)(hp->data_off + hp->data_size);
}

void ftl_cpustats_parse(const char *text, FtlCpuStats *st)
{
	static const struct {
		const char *key;
		gsize off;
	} keys[] = {
		{ "entries:", G_STRUCT_OFFSET(FtlCpuStats, entries) },
		{ "overrun:", G_STRUCT_OFFSET(FtlCpuStats, overrun) },
		{ "commit overrun:", G_STRUCT_OFFSET(FtlCpuStats, commit_overrun) },
		{ "bytes:", G_STRUCT_OFFSET(FtlCpuStats, bytes) },
		{ "dropped events:", G_STRUCT_OFFSET(FtlCpuStats, dropped) },
		{ "read events:", G_STRUCT_OFFSET(FtlCpuStats, read) },
	};
	memset(st, 0, sizeof *st);
	for (const char *line = text; line && *line;) {
		const char *nl = strchr(line, '\n');
		const char *le = nl ? nl : line + strlen(line);
		for (guint i = 0; i < G_N_ELEMENTS(keys); i++) {
			gsize n = strlen(keys[i].key);
			if (strncmp(line, keys[i].key, n) == 0) {
				const char *p = line + n;
				while (p < le && *p == ' ')
					p++;
				guint64 v;
				if (ftl_scan_u64(p, le, &v))
					G_STRUCT_MEMBER(guint64, st, keys[i].off) = v;
				break;
			}
		}
		line = nl ? nl + 1 : NULL;
	}
}

guint64 ftl_cpustats_lost(const FtlCpuStats *st)
{
	guint64 a = st->overrun, b = st->commit_overrun, c = st->dropped;
	guint64 ab = a + b < a ? G_MAXUINT64 : a + b;
	return ab + c < ab ? G_MAXUINT64 : ab + c;
}

void ftl_cpustats_parse_all(const char *text,
			    void (*func)(gint cpu, const FtlCpuStats *st, gpointer data),
			    gpointer data)
{
	const char *p = text;
	while (p && (p = strstr(p, "CPU: "))) {
		const char *q = p + 5;
		guint64 cpu;
		const char *qe = ftl_scan_u64(q, q + strlen(q), &cpu);
		const char *next = strstr(q, "CPU: ");
		if (qe && cpu < 65536) {
			g_autofree char *block = next ? g_strndup(qe, (gsize)(next - qe)) : g_strdup(qe);
			FtlCpuStats st;
			ftl_cpustats_parse(g_strchug(block), &st);
			func((gint)cpu, &st, data);
		}
		p = next;
	}
}

char *ftl_trace_clock_selected(const char *text)
{
	const char *a = text ? strchr(text, '[') : NULL;
	const char *b = a ? strchr(a, ']') : NULL;
	return b && b > a + 1 ? g_strndup(a + 1, (gsize)(b - a - 1)) : NULL;
}

guint64 ftl_buffer_size_kb_parse(const char *text)
{
	const char *ex = strstr(text, "(expanded:");
	const char *p = ex ? ex + strlen("(expanded:") : text;
	while (*p == ' ')
		p++;
	guint64 kb;
	return ftl_scan_u64(p, p + strlen(p), &kb) ? kb : 0;
}
