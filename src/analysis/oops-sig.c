/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Crash signatures: what stays the same when the same bug fires on another
 * machine or another kernel build, so a fleet of console logs can count
 * each bug once (syzbot's dedup by title, with the top frames added). */
#include "analysis/oops.h"

#include <string.h>

#define SIG_FRAMES 5

/* Frames of the machinery that prints a report, not of the bug: a report
 * made by KASAN or WARN() starts with them on every kernel alike. */
static gboolean sig_reporting_frame(const char *func)
{
	static const char *const prefixes[] = {
		"dump_stack",	    "__dump_stack",	"show_stack",	   "show_regs",
		"print_address_description", "print_report", "kasan_report", "__kasan_report",
		"kasan_check",	    "__asan_",		"kmsan_report",	   "__msan_",
		"kcsan_report",	    "ubsan_",		"__ubsan_",	   "report_bug",
		"__warn",	    "warn_slowpath",	"panic",	   "nmi_cpu_backtrace",
		"nmi_trigger_cpumask_backtrace", "arch_trigger_cpumask_backtrace",
		"lock_acquire",	    "__lock_acquire",	"lock_release",	   "check_noncircular",
		"print_circular_bug", "check_prev_add", "lockdep_",	   "handle_bug",
		"exc_invalid_op",   "asm_exc_",		"do_trap",	   "do_error_trap",
		"_raw_",	    "do_raw_",		"queued_spin_lock", "native_queued_spin",
	};
	for (guint i = 0; i < G_N_ELEMENTS(prefixes); i++)
		if (g_str_has_prefix(func, prefixes[i]))
			return TRUE;
	return FALSE;
}

void ftl_oops_sign(FtlOopsReport *r, const FtlOopsTitler *t)
{
	g_autofree char *title = ftl_oops_title_normalize(t, r->title ? r->title : "");
	g_autoptr(GString) sig = g_string_new(title);
	const FtlOopsStack *st = ftl_oops_report_trace(r);
	guint n = 0;
	for (guint i = 0; st && i < st->frames->len && n < SIG_FRAMES; i++) {
		const FtlOopsFrame *f = &g_array_index(st->frames, FtlOopsFrame, i);
		if (!f->func || !f->reliable || sig_reporting_frame(f->func))
			continue;
		/* compiler clones (.isra.0, .constprop.3, .cold) differ by build */
		gsize len = strcspn(f->func, ".");
		g_string_append(sig, n ? " < " : " @ ");
		g_string_append_len(sig, f->func, (gssize)len);
		n++;
	}
	if (!n && r->has_fault && r->fault.func) {
		g_string_append(sig, " @ ");
		g_string_append_len(sig, r->fault.func, (gssize)strcspn(r->fault.func, "."));
	}
	g_autofree char *sum = g_compute_checksum_for_string(G_CHECKSUM_SHA256, sig->str, -1);
	r->signature_id = g_strndup(sum, 16);
	r->signature = g_string_free(g_steal_pointer(&sig), FALSE);
}
