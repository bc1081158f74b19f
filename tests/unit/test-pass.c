/* SPDX-License-Identifier: GPL-2.0-or-later */
/* FtlPass over hand-built events: each consumer gets the events of its
 * kinds, in the order the consumers were added, and every one is finished. */
#include "config.h"

#include <string.h>

#include "analysis/pass.h"
#include "evbuild.h"
#include "unit.h"

/* Every consumer writes "<its letter><the kind's number>," to one log. */
typedef struct {
	char letter;
	GString *log;
} Logger;

static void ftl_logger_feed(Logger *l, const FtlEvent *ev)
{
	g_string_append_printf(l->log, "%c%d,", l->letter, (int)ev->kind);
}

static void ftl_logger_finish(Logger *l)
{
	g_string_append_printf(l->log, "%c.", l->letter);
}

FTL_CONSUMER_DEFINE(logger, Logger);

static void ftl_markers_lost_feed(Logger *l, const FtlEvent *ev)
{
	ftl_logger_feed(l, ev);
}

static void ftl_markers_lost_finish(Logger *l)
{
	ftl_logger_finish(l);
}

FTL_CONSUMER_DEFINE_KINDS(markers_lost, Logger,
			  FTL_PASS_KIND(FTL_EVENT_MARKER) | FTL_PASS_KIND(FTL_EVENT_LOST));

static void ftl_funcs_feed(Logger *l, const FtlEvent *ev)
{
	ftl_logger_feed(l, ev);
}

static void ftl_funcs_finish(Logger *l)
{
	ftl_logger_finish(l);
}

FTL_CONSUMER_DEFINE_KINDS(funcs, Logger, FTL_PASS_KIND(FTL_EVENT_FUNC));

static void test_pass_kinds(void)
{
	g_autoptr(GString) log = g_string_new(NULL);
	Logger a = { 'a', log }, m = { 'm', log }, f = { 'f', log }, z = { 'z', log };
	g_autoptr(FtlPass) pass = ftl_pass_new();
	ftl_pass_add(pass, &ftl_markers_lost_consumer, &m);
	ftl_pass_add(pass, &ftl_logger_consumer, &a);
	ftl_pass_add(pass, &ftl_funcs_consumer, &f);
	ftl_pass_add(pass, &ftl_logger_consumer, &z);
	FtlEvent evs[] = {
		evb_generic(1, 0, 1, "x", "sys_exit", ""),
		evb_marker(2, 0, 1, "hello"),
		evb_base(FTL_EVENT_FUNC, "function", 3, 0, 1),
		evb_lost(1, 7),
		evb_switch(4, 0, "a", 1, "b", 2),
	};
	for (guint i = 0; i < G_N_ELEMENTS(evs); i++)
		ftl_pass_feed(pass, &evs[i]);
	/* a kind beyond the known (a parser's bug) still reaches every one */
	FtlEvent odd = evb_generic(5, 0, 1, "x", "odd", "");
	odd.kind = FTL_EVENT_N_KINDS + 3;
	ftl_pass_feed(pass, &odd);
	ftl_pass_finish(pass);
	g_autofree char *want = g_strdup_printf(
		"a%d,z%d,m%d,a%d,z%d,a%d,f%d,z%d,m%d,a%d,z%d,a%d,z%d,m%d,a%d,f%d,z%d,m.a.f.z.",
		FTL_EVENT_GENERIC, FTL_EVENT_GENERIC, FTL_EVENT_MARKER, FTL_EVENT_MARKER,
		FTL_EVENT_MARKER, FTL_EVENT_FUNC, FTL_EVENT_FUNC, FTL_EVENT_FUNC, FTL_EVENT_LOST,
		FTL_EVENT_LOST, FTL_EVENT_LOST, FTL_EVENT_SCHED_SWITCH, FTL_EVENT_SCHED_SWITCH,
		FTL_EVENT_N_KINDS + 3, FTL_EVENT_N_KINDS + 3, FTL_EVENT_N_KINDS + 3,
		FTL_EVENT_N_KINDS + 3);
	CU_ASSERT_STRING_EQUAL(log->str, want);
}

int main(void)
{
	static const UnitTest tests[] = {
		{ "consumers get their kinds, in the order added", test_pass_kinds },
		{ NULL, NULL },
	};
	return unit_run("pass", tests);
}
