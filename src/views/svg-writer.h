/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What every SVG view shares: a libxml2 text writer over a stdio stream
 * that counts its bytes, trace text made safe for it, the inlined style
 * and script from data/. */
#pragma once

#include <glib.h>
#include <libxml/xmlwriter.h>
#include <stdio.h>

typedef struct {
	xmlTextWriterPtr w;
	FILE *out;
	guint64 bytes; /* written so far */
} FtlSvgWriter;

/* A writer over out, the XML declaration written. Free with
 * ftl_svg_writer_free() after ftl_svg_writer_end(). */
FtlSvgWriter *ftl_svg_writer_new(FILE *out, GError **error);
/* Ends the document and flushes it: FALSE with error when a write failed. */
gboolean ftl_svg_writer_end(FtlSvgWriter *sw, GError **error);
void ftl_svg_writer_free(FtlSvgWriter *sw);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(FtlSvgWriter, ftl_svg_writer_free)

/* Text from a trace as element content: valid UTF-8 (U+FFFD for bad
 * bytes), control characters made visible; the writer escapes markup. */
void ftl_svg_text(xmlTextWriterPtr w, const char *s);
/* <line> from (x1,y1) to (x2,y2). */
void ftl_svg_line(xmlTextWriterPtr w, double x1, double y1, double x2, double y2);
/* <text id= class=> (id, cls and text may be NULL) at (x,y) with trace text. */
void ftl_svg_label(xmlTextWriterPtr w, const char *id, const char *cls, double x, double y,
		   const char *text);
/* Attribute name = v, as "%" G_GINT64_FORMAT and as "%.Nf" (decimals N)
 * would write it, without a printf per number. */
void ftl_svg_attr_int(xmlTextWriterPtr w, const char *name, gint64 v);
void ftl_svg_attr_num(xmlTextWriterPtr w, const char *name, double v, guint decimals);
/* <style> with data/flame.css and, with script, <script> with data/flame.js. */
gboolean ftl_svg_write_assets(xmlTextWriterPtr w, gboolean script, GError **error);

#define FTL_SVG_STR(w, name, value) xmlTextWriterWriteAttribute(w, BAD_CAST(name), BAD_CAST(value))
#define FTL_SVG_FMT(w, name, ...)   xmlTextWriterWriteFormatAttribute(w, BAD_CAST(name), __VA_ARGS__)
#define FTL_SVG_START(w, name)	    xmlTextWriterStartElement(w, BAD_CAST(name))
#define FTL_SVG_END(w)		    xmlTextWriterEndElement(w)
