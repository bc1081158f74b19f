/* SPDX-License-Identifier: GPL-2.0-or-later */
/* parse/kallsyms.c: the shared table finds, for every address, the name
 * and start libtraceevent's own tep_parse_kallsyms() map finds, and two
 * traces of one text share one table. */
#include "config.h"

#include <string.h>

#include <event-parse.h>

#include "parse/kallsyms.h"
#include "unit.h"

/* Duplicated addresses (in the order a kernel lists them), module symbols,
 * absolute and '$' symbols left out, blanks, a 0x prefix, an address
 * wider than 16 digits, a symbol at the top of the address space. */
static const char ks_text[] = "ffffffff81000000 T srso_alias_untrain_ret\n"
			      "ffffffff81000000 T _stext\n"
			      "ffffffff81000000 T _text\n"
			      "ffffffff81000010 T __entry_text_start\n"
			      "0000000000000000 A fixed_percpu_data\n"
			      "0000000000001000 a cpu_debug_store\n"
			      "ffffffff81000040 t $x.1\n"
			      "\n"
			      "ffffffff81000100 t short_one\n"
			      "ffffffff81000100 W weak_alias\n"
			      "  ffffffff81000200   T   spaced_out\n"
			      "0xffffffff81000300 T prefixed\n"
			      "ffffffff81000400 T with_mod\t[ext4]\n"
			      "ffffffff81000400 T with_mod_too\t[xfs]\n"
			      "ffffffff810005001 T seventeen_digits\n"
			      "ffffffff81000600 D data_symbol\n"
			      "ffffffffc0000000 t module_text\t[kvm]\n"
			      "fffffffffffff000 T top_of_it\n";

/* A table in address order, as a kernel without modules lists it (read
 * without a sort): runs of two and four names at one address, with
 * probes inside the range each run's last name covers. (ks_text is out of
 * order: its 0x-prefixed address reads as 14 digits.) */
static const char ks_sorted[] = "ffffffff81000000 T a1\n"
				"ffffffff81000000 T a2\n"
				"ffffffff81000010 T b\n"
				"ffffffff81000100 t c1\n"
				"ffffffff81000100 W c2\n"
				"ffffffff81000100 t c3\n"
				"ffffffff81000100 t c4\n"
				"ffffffff81000200 T d\n"
				"ffffffff81000400 T e1\t[ext4]\n"
				"ffffffff81000400 T e2\t[xfs]\n"
				"ffffffff81000600 D f\n"
				"ffffffffc0000000 t g\t[kvm]\n"
				"fffffffffffff000 T top\n";

/* The same symbols as a kernel with modules lists them: a module's
 * symbols before the core's, and one run of a duplicated address split
 * by another, so that the table must be sorted, not only its runs
 * reversed. */
static const char ks_unsorted[] = "ffffffffc0000000 t module_text\t[kvm]\n"
				  "ffffffffc0000000 t module_alias\t[kvm]\n"
				  "ffffffff81000100 t short_one\n"
				  "ffffffff81000000 T srso_alias_untrain_ret\n"
				  "ffffffff81000000 T _stext\n"
				  "ffffffff81000010 T __entry_text_start\n"
				  "ffffffff81000000 T _text\n"
				  "ffffffff81000400 T with_mod\t[ext4]\n"
				  "ffffffff81000100 W weak_alias\n"
				  "ffffffff81000600 D data_symbol\n"
				  "fffffffffffff000 T top_of_it\n";

/* The first line that stops libtraceevent's parsing, and one after it. */
static const char ks_broken[] = "ffffffff81000000 T first\n"
				"ffffffff81000100 T second\n"
				"not_an_address T third\n"
				"ffffffff81000300 T fourth\n";

static const guint64 ks_probe[] = {
	0x0ULL,
	0x1000ULL,
	0xffffffff80ffffffULL,
	0xffffffff81000000ULL,
	0xffffffff81000001ULL,
	0xffffffff8100000fULL,
	0xffffffff81000010ULL,
	0xffffffff81000041ULL,
	0xffffffff810000ffULL,
	0xffffffff81000100ULL,
	0xffffffff81000180ULL,
	0xffffffff81000200ULL,
	0xffffffff81000300ULL,
	0xffffffff81000301ULL,
	0xffffffff81000400ULL,
	0xffffffff81000450ULL,
	0xffffffff81000500ULL,
	0xffffffff81000501ULL,
	0xffffffff81000600ULL,
	0xffffffff81000601ULL,
	0xffffffffbfffffffULL,
	0xffffffffc0000000ULL,
	0xffffffffc0000010ULL,
	0xfffffffffffff000ULL,
	0xfffffffffffff001ULL,
	0xffffffffffffffffULL,
};

/* Every probe, and every known address and its neighbours, resolve in k
 * as in a tep that parsed text itself. */
static void ks_compare(const char *text)
{
	struct tep_handle *ref = tep_alloc();
	CU_ASSERT_FATAL(ref != NULL);
	tep_parse_kallsyms(ref, text);
	FtlKallsyms *k = ftl_kallsyms_share(text);
	CU_ASSERT_EQUAL(ftl_kallsyms_count(k), (guint)tep_get_function_count(ref));
	g_autoptr(GArray) addrs = g_array_new(FALSE, FALSE, sizeof(guint64));
	g_array_append_vals(addrs, ks_probe, G_N_ELEMENTS(ks_probe));
	for (guint i = 0; i < G_N_ELEMENTS(ks_probe); i++)
		for (gint64 d = -2; d <= 2; d++) {
			guint64 a = ks_probe[i] + (guint64)d;
			g_array_append_val(addrs, a);
		}
	guint found = 0;
	for (guint i = 0; i < addrs->len; i++) {
		guint64 a = g_array_index(addrs, guint64, i), start = 0;
		const char *want = tep_find_function(ref, a);
		const char *got = ftl_kallsyms_find(k, a, &start);
		CU_ASSERT_STRING_EQUAL(got ? got : "(none)", want ? want : "(none)");
		if (want && got) {
			CU_ASSERT_EQUAL(start, tep_find_function_address(ref, a));
			found++;
		}
	}
	CU_ASSERT(found > 0);
	/* and through the resolver, as the decoder asks */
	struct tep_handle *tep = tep_alloc();
	ftl_kallsyms_attach(k, tep);
	for (guint i = 0; i < addrs->len; i++) {
		guint64 a = g_array_index(addrs, guint64, i);
		const char *want = tep_find_function(ref, a);
		const char *got = tep_find_function(tep, a);
		CU_ASSERT_STRING_EQUAL(got ? got : "(none)", want ? want : "(none)");
		if (want && got)
			CU_ASSERT_EQUAL(tep_find_function_address(tep, a),
					tep_find_function_address(ref, a));
	}
	tep_free(tep);
	ftl_kallsyms_unref(k);
	tep_free(ref);
}

static void test_as_libtraceevent(void)
{
	ks_compare(ks_text);
}

static void test_unsorted_as_libtraceevent(void)
{
	ks_compare(ks_unsorted);
}

static void test_sorted_as_libtraceevent(void)
{
	ks_compare(ks_sorted);
}

static void test_stops_where_libtraceevent_does(void)
{
	ks_compare(ks_broken);
	FtlKallsyms *k = ftl_kallsyms_share(ks_broken);
	CU_ASSERT_EQUAL(ftl_kallsyms_count(k), 2);
	ftl_kallsyms_unref(k);
}

static void test_shared(void)
{
	FtlKallsyms *a = ftl_kallsyms_share(ks_text);
	FtlKallsyms *b = ftl_kallsyms_share(ks_text);
	FtlKallsyms *c = ftl_kallsyms_share(ks_broken);
	CU_ASSERT_PTR_EQUAL(a, b);
	CU_ASSERT_PTR_NOT_EQUAL(a, c);
	guint64 start;
	const char *name = ftl_kallsyms_find(a, 0xffffffff81000450ULL, &start);
	CU_ASSERT_PTR_EQUAL(name, ftl_kallsyms_find(b, 0xffffffff81000450ULL, &start));
	ftl_kallsyms_unref(a);
	/* b still holds it */
	CU_ASSERT_STRING_EQUAL(ftl_kallsyms_find(b, 0xffffffff81000450ULL, &start), name);
	ftl_kallsyms_unref(b);
	ftl_kallsyms_unref(c);
}

int main(void)
{
	static const UnitTest tests[] = {
		{ "same names as tep_parse_kallsyms", test_as_libtraceevent },
		{ "same names from a table out of order (modules first)",
		  test_unsorted_as_libtraceevent },
		{ "same names from a table in order, runs of one address",
		  test_sorted_as_libtraceevent },
		{ "a bad line ends the table as in libtraceevent",
		  test_stops_where_libtraceevent_does },
		{ "one table per text", test_shared },
		{ NULL, NULL },
	};
	return unit_run("kallsyms", tests);
}
