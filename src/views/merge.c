/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The mergeable parts of JSON results: schema names and histograms. */
#include "views/merge.h"

#include "util/timefmt.h"
#include "views/table.h"

void ftl_merge_add_schema(JsonBuilder *b, const char *name)
{
	json_builder_set_member_name(b, "schema");
	json_builder_add_string_value(b, name);
}

/* The members every histogram object has; the buckets follow. */
static void merge_histo_head(JsonBuilder *b, const char *scheme, guint64 count, gint64 sum,
			     gint64 min, gint64 max)
{
	json_builder_set_member_name(b, "scheme");
	json_builder_add_string_value(b, scheme);
	ftl_json_member_int(b, "count", (gint64)count);
	ftl_json_member_int(b, "sum_ns", count ? sum : 0);
	ftl_json_member_opt(b, "min_ns", count ? min : FTL_TS_NONE, FTL_TS_NONE);
	ftl_json_member_opt(b, "max_ns", count ? max : FTL_TS_NONE, FTL_TS_NONE);
	json_builder_set_member_name(b, "buckets");
}

static void merge_bucket(JsonBuilder *b, gint64 lo, gint64 hi, guint64 n)
{
	json_builder_begin_array(b);
	json_builder_add_int_value(b, lo);
	json_builder_add_int_value(b, hi);
	json_builder_add_int_value(b, (gint64)n);
	json_builder_end_array(b);
}

void ftl_merge_add_histo(JsonBuilder *b, const char *name, const FtlHisto *h)
{
	json_builder_set_member_name(b, name);
	json_builder_begin_object(b);
	merge_histo_head(b, FTL_HISTO_SCHEME, ftl_histo_count(h), ftl_histo_sum(h),
			 ftl_histo_min(h), ftl_histo_max(h));
	json_builder_begin_array(b);
	guint pos = 0;
	gint64 lo, hi;
	guint64 n;
	while (ftl_histo_next_bucket(h, &pos, &lo, &hi, &n))
		merge_bucket(b, lo, hi, n);
	json_builder_end_array(b);
	json_builder_end_object(b);
}

void ftl_merge_add_funcstats(JsonBuilder *b, FtlFuncStats *s)
{
	json_builder_set_member_name(b, "function_histograms");
	json_builder_begin_array(b);
	GPtrArray *rows = ftl_funcstats_sorted(s, FTL_FUNCSTATS_SORT_NAME);
	for (guint i = 0; i < rows->len; i++) {
		const FtlFuncStat *st = rows->pdata[i];
		json_builder_begin_object(b);
		ftl_json_member_text(b, "function", st->func);
		ftl_json_member_opt(b, "cpu", st->cpu, -1);
		ftl_json_member_opt(b, "pid", st->pid, -1);
		ftl_json_member_int(b, "calls", (gint64)st->calls);
		ftl_json_member_int(b, "timed_calls", (gint64)st->timed);
		ftl_json_member_int(b, "total_ns", st->timed ? st->total_ns : 0);
		ftl_json_member_int(b, "self_ns", st->timed ? st->self_ns : 0);
		ftl_json_member_int(b, "repaired", (gint64)st->flagged);
		json_builder_set_member_name(b, "histogram");
		json_builder_begin_object(b);
		merge_histo_head(b, FTL_FUNCSTATS_HISTO_SCHEME, st->timed, st->total_ns, st->min_ns,
				 st->max_ns);
		json_builder_begin_array(b);
		guint pos = 0;
		gint64 lo, hi;
		guint64 n;
		while (ftl_funcstats_next_bucket(s, st, &pos, &lo, &hi, &n))
			merge_bucket(b, lo, hi, n);
		json_builder_end_array(b);
		json_builder_end_object(b);
		json_builder_end_object(b);
	}
	json_builder_end_array(b);
}
