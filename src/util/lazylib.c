/* SPDX-License-Identifier: GPL-2.0-or-later */
/* libxml2, json-glib and libarchive, loaded on first use.
 *
 * Only the SVG views and --format json use them, yet linked in they cost
 * every run about 12 ms of start-up (14 more shared objects: ICU and
 * libstdc++ behind libxml2, GIO behind json-glib), a third of a 1 ms
 * --time window's answer. So ftlens is not linked with them: the functions
 * the code calls are defined here under their own names, with the
 * libraries' own prototypes (their headers are included, so a mismatch is
 * a compile error), and each resolves its library's function with dlsym()
 * the first time it runs. A function used by the code but missing here is
 * an undefined symbol at link time, never a silent gap.
 *
 * A library that cannot be loaded (removed, or a broken file) ends the
 * process with one line naming it and its Debian package, after removing
 * any output not yet committed (util/output.h), as a signal would. Callers
 * get no error to handle: the packages are dependencies, and the first
 * call comes before any output of the view is written. */
#include "config.h"

#include <archive.h>
#include <archive_entry.h>
#include <dlfcn.h>
#include <json-glib/json-glib.h>
#include <libxml/parser.h>
#include <libxml/xmlwriter.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "util/output.h"

typedef struct {
	const char *soname;
	const char *what;
	const char *package;
	gsize handle; /* void *, set once (g_once_init_*) */
} LazyLib;

static LazyLib lazy_xml = { "libxml2.so.2", "libxml2", "libxml2", 0 };
static LazyLib lazy_json = { "libjson-glib-1.0.so.0", "json-glib", "libjson-glib-1.0-0", 0 };
/* libarchive pulls in libxml2 (for xar) and more: linked, it would undo
 * the two above for every run; only a tar capture needs it */
static LazyLib lazy_archive = { "libarchive.so.13", "libarchive", "libarchive13", 0 };

static G_GNUC_NORETURN void lazy_fail(const LazyLib *lib, const char *why)
{
	ftl_output_remove_pending();
	fflush(stdout);
	fprintf(stderr, "ftlens: cannot load %s (%s): %s; apt-get install %s\n", lib->what,
		lib->soname, why ? why : "unknown error", lib->package);
	exit(EXIT_FAILURE);
}

static void *lazy_open(LazyLib *lib)
{
	if (g_once_init_enter(&lib->handle)) {
		void *h = dlopen(lib->soname, RTLD_NOW | RTLD_LOCAL);
		if (!h)
			lazy_fail(lib, dlerror());
		g_once_init_leave(&lib->handle, (gsize)h);
	}
	return (void *)lib->handle;
}

/* name's address in lib, found once per call site (*slot caches it). */
static void *lazy_sym(LazyLib *lib, const char *name, void **slot)
{
	void *fn = g_atomic_pointer_get(slot);
	if (fn)
		return fn;
	void *h = lazy_open(lib);
	dlerror();
	fn = dlsym(h, name);
	if (!fn) {
		g_autofree char *why = g_strdup_printf("no symbol %s", name);
		lazy_fail(lib, why);
	}
	g_atomic_pointer_set(slot, fn);
	return fn;
}

/* A function of LIB returning RET, and one returning nothing. */
#define LAZY_FN(lib, ret, name, params, args)                                                      \
	ret name params                                                                            \
	{                                                                                          \
		static void *slot;                                                                 \
		ret(*fn) params = (ret(*) params)lazy_sym(&lib, #name, &slot);                     \
		return fn args;                                                                    \
	}
#define LAZY_VOID(lib, name, params, args)                                                         \
	void name params                                                                           \
	{                                                                                          \
		static void *slot;                                                                 \
		void(*fn) params = (void(*) params)lazy_sym(&lib, #name, &slot);                   \
		fn args;                                                                           \
	}

/* libarchive: a board's capture in a tar (parse/rawtar.c) */
LAZY_FN(lazy_archive, struct archive *, archive_read_new, (void), ())
LAZY_FN(lazy_archive, int, archive_read_support_filter_all, (struct archive * a), (a))
LAZY_FN(lazy_archive, int, archive_read_support_format_tar, (struct archive * a), (a))
LAZY_FN(lazy_archive, int, archive_read_open_filename,
	(struct archive * a, const char *filename, size_t block_size), (a, filename, block_size))
LAZY_FN(lazy_archive, int, archive_read_open_fd, (struct archive * a, int fd, size_t block_size),
	(a, fd, block_size))
LAZY_FN(lazy_archive, int, archive_read_next_header,
	(struct archive * a, struct archive_entry **entry), (a, entry))
LAZY_FN(lazy_archive, la_ssize_t, archive_read_data, (struct archive * a, void *buf, size_t size),
	(a, buf, size))
LAZY_FN(lazy_archive, int, archive_read_free, (struct archive * a), (a))
LAZY_FN(lazy_archive, const char *, archive_error_string, (struct archive * a), (a))
LAZY_FN(lazy_archive, const char *, archive_entry_pathname, (struct archive_entry * e), (e))
LAZY_FN(lazy_archive, const char *, archive_entry_hardlink, (struct archive_entry * e), (e))
LAZY_FN(lazy_archive, __LA_MODE_T, archive_entry_filetype, (struct archive_entry * e), (e))

/* libxml2: the SVG writer (views/svg-*.c) */
LAZY_VOID(lazy_xml, xmlInitParser, (void), ())
/* ... and the check of the SVG gnuplot writes (views/plot-gnuplot.c) */
LAZY_FN(lazy_xml, xmlDocPtr, xmlReadMemory,
	(const char *buffer, int size, const char *URL, const char *encoding, int options),
	(buffer, size, URL, encoding, options))
LAZY_VOID(lazy_xml, xmlFreeDoc, (xmlDocPtr cur), (cur))
LAZY_FN(lazy_xml, xmlNodePtr, xmlDocGetRootElement, (const xmlDoc *doc), (doc))
LAZY_FN(lazy_xml, xmlBufferPtr, xmlBufferCreate, (void), ())
LAZY_VOID(lazy_xml, xmlBufferFree, (xmlBufferPtr buf), (buf))
LAZY_FN(lazy_xml, const xmlChar *, xmlBufferContent, (const xmlBuffer *buf), (buf))
LAZY_FN(lazy_xml, int, xmlBufferLength, (const xmlBuffer *buf), (buf))
LAZY_FN(lazy_xml, xmlOutputBufferPtr, xmlOutputBufferCreateFile,
	(FILE * file, xmlCharEncodingHandlerPtr encoder), (file, encoder))
LAZY_FN(lazy_xml, xmlOutputBufferPtr, xmlOutputBufferCreateIO,
	(xmlOutputWriteCallback iowrite, xmlOutputCloseCallback ioclose, void *ioctx,
	 xmlCharEncodingHandlerPtr encoder),
	(iowrite, ioclose, ioctx, encoder))
LAZY_FN(lazy_xml, int, xmlOutputBufferClose, (xmlOutputBufferPtr out), (out))
LAZY_FN(lazy_xml, xmlTextWriterPtr, xmlNewTextWriter, (xmlOutputBufferPtr out), (out))
LAZY_FN(lazy_xml, xmlTextWriterPtr, xmlNewTextWriterMemory, (xmlBufferPtr buf, int compression),
	(buf, compression))
LAZY_VOID(lazy_xml, xmlFreeTextWriter, (xmlTextWriterPtr writer), (writer))
LAZY_FN(lazy_xml, int, xmlTextWriterStartDocument,
	(xmlTextWriterPtr writer, const char *version, const char *encoding,
	 const char *standalone),
	(writer, version, encoding, standalone))
LAZY_FN(lazy_xml, int, xmlTextWriterEndDocument, (xmlTextWriterPtr writer), (writer))
LAZY_FN(lazy_xml, int, xmlTextWriterFlush, (xmlTextWriterPtr writer), (writer))
LAZY_FN(lazy_xml, int, xmlTextWriterStartElement, (xmlTextWriterPtr writer, const xmlChar *name),
	(writer, name))
LAZY_FN(lazy_xml, int, xmlTextWriterEndElement, (xmlTextWriterPtr writer), (writer))
LAZY_FN(lazy_xml, int, xmlTextWriterWriteAttribute,
	(xmlTextWriterPtr writer, const xmlChar *name, const xmlChar *content),
	(writer, name, content))
LAZY_FN(lazy_xml, int, xmlTextWriterWriteVFormatAttribute,
	(xmlTextWriterPtr writer, const xmlChar *name, const char *format, va_list argptr),
	(writer, name, format, argptr))
LAZY_FN(lazy_xml, int, xmlTextWriterWriteString, (xmlTextWriterPtr writer, const xmlChar *content),
	(writer, content))
LAZY_FN(lazy_xml, int, xmlTextWriterWriteCDATA, (xmlTextWriterPtr writer, const xmlChar *content),
	(writer, content))
LAZY_FN(lazy_xml, int, xmlTextWriterWriteRawLen,
	(xmlTextWriterPtr writer, const xmlChar *content, int len), (writer, content, len))

/* The one variadic function: through its va_list form. */
int xmlTextWriterWriteFormatAttribute(xmlTextWriterPtr writer, const xmlChar *name,
				      const char *format, ...)
{
	va_list ap;
	va_start(ap, format);
	int r = xmlTextWriterWriteVFormatAttribute(writer, name, format, ap);
	va_end(ap);
	return r;
}

/* json-glib: --format json (views/table.c and the views' builders) */
LAZY_FN(lazy_json, JsonBuilder *, json_builder_new, (void), ())
LAZY_FN(lazy_json, JsonNode *, json_builder_get_root, (JsonBuilder * builder), (builder))
LAZY_FN(lazy_json, JsonBuilder *, json_builder_begin_object, (JsonBuilder * builder), (builder))
LAZY_FN(lazy_json, JsonBuilder *, json_builder_end_object, (JsonBuilder * builder), (builder))
LAZY_FN(lazy_json, JsonBuilder *, json_builder_begin_array, (JsonBuilder * builder), (builder))
LAZY_FN(lazy_json, JsonBuilder *, json_builder_end_array, (JsonBuilder * builder), (builder))
LAZY_FN(lazy_json, JsonBuilder *, json_builder_set_member_name,
	(JsonBuilder * builder, const gchar *member_name), (builder, member_name))
LAZY_FN(lazy_json, JsonBuilder *, json_builder_add_int_value, (JsonBuilder * builder, gint64 value),
	(builder, value))
LAZY_FN(lazy_json, JsonBuilder *, json_builder_add_double_value,
	(JsonBuilder * builder, gdouble value), (builder, value))
LAZY_FN(lazy_json, JsonBuilder *, json_builder_add_boolean_value,
	(JsonBuilder * builder, gboolean value), (builder, value))
LAZY_FN(lazy_json, JsonBuilder *, json_builder_add_string_value,
	(JsonBuilder * builder, const gchar *value), (builder, value))
LAZY_FN(lazy_json, JsonBuilder *, json_builder_add_null_value, (JsonBuilder * builder), (builder))
LAZY_FN(lazy_json, JsonGenerator *, json_generator_new, (void), ())
LAZY_VOID(lazy_json, json_generator_set_pretty, (JsonGenerator * generator, gboolean is_pretty),
	  (generator, is_pretty))
LAZY_VOID(lazy_json, json_generator_set_root, (JsonGenerator * generator, JsonNode *node),
	  (generator, node))
LAZY_FN(lazy_json, gchar *, json_generator_to_data, (JsonGenerator * generator, gsize *length),
	(generator, length))
LAZY_FN(lazy_json, JsonNode *, json_node_alloc, (void), ())
LAZY_FN(lazy_json, JsonNode *, json_node_init_string, (JsonNode * node, const char *value),
	(node, value))
LAZY_FN(lazy_json, JsonObject *, json_node_get_object, (JsonNode * node), (node))
LAZY_VOID(lazy_json, json_node_unref, (JsonNode * node), (node))
LAZY_FN(lazy_json, JsonNode *, json_object_dup_member,
	(JsonObject * object, const gchar *member_name), (object, member_name))
LAZY_VOID(lazy_json, json_object_set_member,
	  (JsonObject * object, const gchar *member_name, JsonNode *node),
	  (object, member_name, node))
LAZY_FN(lazy_json, gchar *, json_to_string, (JsonNode * node, gboolean pretty), (node, pretty))
