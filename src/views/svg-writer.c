/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The SVG views' shared writer: libxml2's xmlTextWriter over a stream. */
#include "config.h"

#include "views/svg-writer.h"

#include <libxml/parser.h>

#include "util/datadir.h"
#include "util/error.h"
#include "util/escape.h"
#include "util/timefmt.h"

static int svg_writer_io(void *ctx, const char *buf, int len)
{
	FtlSvgWriter *sw = ctx;
	if (len > 0 && fwrite(buf, 1, (size_t)len, sw->out) != (size_t)len)
		return -1;
	sw->bytes += (guint64)MAX(len, 0);
	return len;
}

FtlSvgWriter *ftl_svg_writer_new(FILE *out, GError **error)
{
	/* before any thread writes: libxml2 sets its globals up once */
	xmlInitParser();
	FtlSvgWriter *sw = g_new0(FtlSvgWriter, 1);
	sw->out = out;
	xmlOutputBufferPtr ob = xmlOutputBufferCreateIO(svg_writer_io, NULL, sw, NULL);
	sw->w = ob ? xmlNewTextWriter(ob) : NULL;
	if (!sw->w) {
		if (ob)
			xmlOutputBufferClose(ob);
		g_free(sw);
		g_set_error(error, FTL_ERROR, FTL_ERROR_IO, "cannot start the SVG writer");
		return NULL;
	}
	xmlTextWriterStartDocument(sw->w, NULL, "UTF-8", NULL);
	return sw;
}

gboolean ftl_svg_writer_end(FtlSvgWriter *sw, GError **error)
{
	int rc = xmlTextWriterEndDocument(sw->w);
	xmlFreeTextWriter(sw->w);
	sw->w = NULL;
	if (rc < 0) {
		g_set_error(error, FTL_ERROR, FTL_ERROR_IO, "writing the SVG failed");
		return FALSE;
	}
	return TRUE;
}

void ftl_svg_writer_free(FtlSvgWriter *sw)
{
	if (!sw)
		return;
	if (sw->w)
		xmlFreeTextWriter(sw->w);
	g_free(sw);
}

void ftl_svg_text(xmlTextWriterPtr w, const char *s)
{
	g_autofree char *vis = ftl_escape_markup(s, -1);
	xmlTextWriterWriteString(w, BAD_CAST vis);
}

void ftl_svg_attr_int(xmlTextWriterPtr w, const char *name, gint64 v)
{
	char buf[32];
	FTL_SVG_STR(w, name, ftl_int_format(v, buf, sizeof buf));
}

void ftl_svg_attr_num(xmlTextWriterPtr w, const char *name, double v, guint decimals)
{
	char buf[64];
	FTL_SVG_STR(w, name, ftl_fixed_format(v, decimals, buf, sizeof buf));
}

void ftl_svg_line(xmlTextWriterPtr w, double x1, double y1, double x2, double y2)
{
	FTL_SVG_START(w, "line");
	ftl_svg_attr_num(w, "x1", x1, 1);
	ftl_svg_attr_num(w, "y1", y1, 1);
	ftl_svg_attr_num(w, "x2", x2, 1);
	ftl_svg_attr_num(w, "y2", y2, 1);
	FTL_SVG_END(w);
}

void ftl_svg_label(xmlTextWriterPtr w, const char *id, const char *cls, double x, double y,
		   const char *text)
{
	FTL_SVG_START(w, "text");
	if (id)
		FTL_SVG_STR(w, "id", id);
	if (cls)
		FTL_SVG_STR(w, "class", cls);
	ftl_svg_attr_num(w, "x", x, 1);
	ftl_svg_attr_num(w, "y", y, 1);
	if (text)
		ftl_svg_text(w, text);
	FTL_SVG_END(w);
}

gboolean ftl_svg_write_assets(xmlTextWriterPtr w, gboolean script, GError **error)
{
	g_autofree char *css = ftl_datadir_read("flame.css", NULL, error);
	if (!css)
		return FALSE;
	g_autofree char *js = script ? ftl_datadir_read("flame.js", NULL, error) : NULL;
	if (script && !js)
		return FALSE;
	/* CDATA: neither file holds "]]>" */
	FTL_SVG_START(w, "style");
	FTL_SVG_STR(w, "type", "text/css");
	xmlTextWriterWriteCDATA(w, BAD_CAST css);
	FTL_SVG_END(w);
	if (js) {
		FTL_SVG_START(w, "script");
		FTL_SVG_STR(w, "type", "text/ecmascript");
		xmlTextWriterWriteCDATA(w, BAD_CAST js);
		FTL_SVG_END(w);
	}
	return TRUE;
}
