/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Payloads left to libtraceevent's printing (print formats ftlens does not
 * compile): the library trusts a record to hold every field of its format
 * whole and the data its __data_loc fields point to, and trusts the format's
 * offsets and sizes. A record that holds less is given to it as a copy
 * followed by zeros; a format with a field of negative or page-exceeding size
 * is never given to it (its payloads are empty, each record a bad-format
 * diagnostic). Records here are heap blocks of exactly their size, so the
 * sanitizer build sees any read past one. */
#include "config.h"

#include <string.h>
#include <traceevent/event-parse.h>

#include "parse/tep.h"
#include "unit.h"

#define COMMON                                                                                     \
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"                     \
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"                     \
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"             \
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"

/* %o: outside what ftlens compiles, so the library prints these. */
static const char array_fmt[] =
	"name: arr\nID: 1\nformat:\n" COMMON "\tfield:char c;\toffset:8;\tsize:1;\tsigned:1;\n"
	"\tfield:char name[16];\toffset:9;\tsize:16;\tsigned:1;\n\n"
	"print fmt: \"c=%o name=%s\", REC->c, REC->name\n";
static const char loc_fmt[] =
	"name: loc\nID: 2\nformat:\n" COMMON "\tfield:char c;\toffset:8;\tsize:1;\tsigned:1;\n"
	"\tfield:__data_loc char[] msg;\toffset:12;\tsize:4;\tsigned:1;\n\n"
	"print fmt: \"c=%o msg=%s\", REC->c, __get_str(msg)\n";
/* size -1, as a fuzzed "size:1611...1" overflows to */
static const char bad_fmt[] =
	"name: bad\nID: 3\nformat:\n" COMMON "\tfield:char c;\toffset:8;\tsize:1;\tsigned:1;\n"
	"\tfield:char name[16];\toffset:9;\tsize:4294967295;\tsigned:1;\n\n"
	"print fmt: \"c=%o name=%s\", REC->c, REC->name\n";

/* the same field, which the print format does not name: ftlens's own
 * printing could render it, but the format is refused whole */
static const char unused_fmt[] =
	"name: unused\nID: 4\nformat:\n" COMMON "\tfield:char c;\toffset:8;\tsize:1;\tsigned:1;\n"
	"\tfield:char name[16];\toffset:9;\tsize:4294967295;\tsigned:1;\n\n"
	"print fmt: \"c=%d\", REC->c\n";

typedef struct {
	struct tep_handle *tep;
	FtlTrace *trace;
	FtlTepDecoder *dec;
} Fixture;

static void fixture_open(Fixture *fx)
{
	fx->tep = tep_alloc();
	tep_set_long_size(fx->tep, 8);
	tep_set_file_bigendian(fx->tep, TEP_LITTLE_ENDIAN);
	tep_set_local_bigendian(fx->tep, TEP_LITTLE_ENDIAN);
	CU_ASSERT_EQUAL_FATAL(tep_parse_event(fx->tep, array_fmt, strlen(array_fmt), "t"), 0);
	CU_ASSERT_EQUAL_FATAL(tep_parse_event(fx->tep, loc_fmt, strlen(loc_fmt), "t"), 0);
	CU_ASSERT_EQUAL_FATAL(tep_parse_event(fx->tep, bad_fmt, strlen(bad_fmt), "t"), 0);
	CU_ASSERT_EQUAL_FATAL(tep_parse_event(fx->tep, unused_fmt, strlen(unused_fmt), "t"), 0);
	fx->trace = ftl_trace_new("unit", FTL_OPEN_NONE);
	fx->dec = ftl_tep_decoder_new(fx->tep, fx->trace, "test");
}

static void fixture_close(Fixture *fx)
{
	ftl_tep_decoder_free(fx->dec);
	ftl_trace_free(fx->trace);
	tep_free(fx->tep);
}

/* The payload of a record of id holding bytes (size of them) after the
 * common fields, in a heap block of exactly 8 + size bytes. */
static char *payload(Fixture *fx, guint16 id, const void *bytes, gsize size, gboolean *known)
{
	guint8 *data = g_malloc0(8 + size);
	memcpy(data, &id, 2);
	memcpy(data + 8, bytes, size);
	struct tep_record r = { 0 };
	r.data = data;
	r.size = (int)(8 + size);
	FtlEvent ev;
	gint got;
	*known = ftl_tep_decode(fx->dec, &r, &ev, &got);
	GString *out = g_string_new(NULL);
	ftl_tep_payload(fx->dec, &r, out);
	g_free(data);
	return g_string_free(out, FALSE);
}

static guint64 bad_formats(Fixture *fx)
{
	const FtlDiagEntry *e = ftl_diags_get(ftl_trace_diags(fx->trace), FTL_DIAG_BAD_FORMAT);
	return e ? e->count : 0;
}

/* A char[16] of which the record holds 3 bytes: the library copies all 16
 * (c is printed in octal). */
static void test_short_array(void)
{
	Fixture fx;
	fixture_open(&fx);
	gboolean known;
	g_autofree char *whole = payload(&fx, 1, "Aabcdefghijklmno", 17, &known);
	CU_ASSERT_TRUE(known);
	CU_ASSERT_STRING_EQUAL(whole, "c=101 name=abcdefghijklmno");
	g_autofree char *cut = payload(&fx, 1, "Bxy", 4, &known);
	CU_ASSERT_TRUE(known);
	CU_ASSERT_STRING_EQUAL(cut, "c=102 name=xy");
	CU_ASSERT_EQUAL(bad_formats(&fx), 0);
	fixture_close(&fx);
}

/* A __data_loc string inside the record, and one pointing past it. */
static void test_location_past_the_record(void)
{
	Fixture fx;
	fixture_open(&fx);
	gboolean known;
	/* c, 3 bytes of padding, the location (offset 16, length 6), "hello" */
	guint8 in[14] = { 'C', 0, 0, 0, 16, 0, 6, 0, 'h', 'e', 'l', 'l', 'o', 0 };
	g_autofree char *inside = payload(&fx, 2, in, sizeof in, &known);
	CU_ASSERT_STRING_EQUAL(inside, "c=103 msg=hello");
	/* the same location over a record of 16 bytes: offset 16 is its end and
	 * the 6 bytes are past it (zeros as the library is given them) */
	g_autofree char *past = payload(&fx, 2, in, 8, &known);
	CU_ASSERT_STRING_EQUAL(past, "c=103 msg=");
	/* the furthest a location can point: offset and length 0xffff */
	guint8 far[8] = { 'D', 0, 0, 0, 0xff, 0xff, 0xff, 0xff };
	g_autofree char *furthest = payload(&fx, 2, far, sizeof far, &known);
	CU_ASSERT_STRING_EQUAL(furthest, "c=104 msg=");
	CU_ASSERT_EQUAL(bad_formats(&fx), 0);
	fixture_close(&fx);
}

/* A field of size -1: never given to the library; each record counted. */
static void test_bad_field_size(void)
{
	Fixture fx;
	fixture_open(&fx);
	gboolean known;
	g_autofree char *one = payload(&fx, 3, "Eabcdefghijklmno", 17, &known);
	CU_ASSERT_TRUE(known);
	CU_ASSERT_STRING_EQUAL(one, "");
	g_autofree char *two = payload(&fx, 3, "F", 1, &known);
	CU_ASSERT_STRING_EQUAL(two, "");
	CU_ASSERT_EQUAL(bad_formats(&fx), 2);
	const FtlDiagEntry *e = ftl_diags_get(ftl_trace_diags(fx.trace), FTL_DIAG_BAD_FORMAT);
	CU_ASSERT_PTR_NOT_NULL_FATAL(e);
	CU_ASSERT_PTR_NOT_NULL(strstr(e->first_text, "field name has offset 9 and size -1"));
	/* the first record of an event goes to the library, the next ones to
	 * ftlens's compiled printing: neither prints what the diagnostic says is
	 * left empty */
	for (guint i = 0; i < 3; i++) {
		g_autofree char *p = payload(&fx, 4, "G", 1, &known);
		CU_ASSERT_TRUE(known);
		CU_ASSERT_STRING_EQUAL(p, "");
	}
	CU_ASSERT_EQUAL(bad_formats(&fx), 5);
	fixture_close(&fx);
}

int main(void)
{
	static const UnitTest tests[] = {
		{ "an array the record holds part of", test_short_array },
		{ "a __data_loc pointing past the record", test_location_past_the_record },
		{ "a field of size -1 is not given to the library", test_bad_field_size },
		{ NULL, NULL },
	};
	return unit_run("tep-library", tests);
}
