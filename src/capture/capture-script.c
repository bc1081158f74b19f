/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Writes the settings of `ftlens capture-script` into the capture script
 * template (data/capture.sh): shell variables, each value single-quoted,
 * every name checked first so that the board's shell splits them as meant. */
#include "config.h"

#include "capture/capture-script.h"

#include <string.h>

#include "util/error.h"

#define SCRIPT_SETTINGS_LINE "#@SETTINGS@\n"
/* tracing_cpumask takes 32-bit groups; a bound on the CPU numbers asked for */
#define SCRIPT_MAX_CPU 8191

static gboolean script_bad(GError **error, const char *opt, const char *value, const char *why)
{
	g_set_error(error, FTL_ERROR, FTL_ERROR_USAGE, "capture-script: %s '%s': %s", opt, value,
		    why);
	return FALSE;
}

/* A word the script splits lists on blanks with: no blank, quote,
 * backslash or control byte, and not empty. */
static gboolean script_word_ok(const char *s)
{
	if (!*s)
		return FALSE;
	for (const guchar *p = (const guchar *)s; *p; p++)
		if (*p <= ' ' || *p == 0x7f || strchr("'\"\\`$;&|<>(){}", *p))
			return FALSE;
	return TRUE;
}

static gboolean script_check_words(const char *opt, const char *const *words, GError **error)
{
	for (guint i = 0; words && words[i]; i++)
		if (!script_word_ok(words[i]))
			return script_bad(error, opt, words[i],
					  "not a name the board's shell can take (blanks, quotes "
					  "and shell characters are refused)");
	return TRUE;
}

/* SYSTEM, SYSTEM:EVENT, SYSTEM/EVENT or all; globs are fine. */
static gboolean script_check_events(const char *const *events, GError **error)
{
	if (!script_check_words("-e", events, error))
		return FALSE;
	for (guint i = 0; events && events[i]; i++) {
		const char *e = events[i];
		guint n = 0;
		for (const char *p = e; *p; p++)
			n += *p == ':' || *p == '/';
		if (n > 1 || *e == ':' || *e == '/' || e[strlen(e) - 1] == ':' ||
		    e[strlen(e) - 1] == '/')
			return script_bad(error, "-e", e, "expected SYSTEM, SYSTEM:EVENT or all");
	}
	return TRUE;
}

/* --stop-on SYSTEM:EVENT[:FILTER]: the filter is free text but one line. */
static gboolean script_check_stop_on(const char *s, GError **error)
{
	g_auto(GStrv) parts = g_strsplit(s, ":", 3);
	if (!parts[0] || !parts[1] || !script_word_ok(parts[0]) || !script_word_ok(parts[1]) ||
	    strchr(parts[0], '*') || strchr(parts[1], '*'))
		return script_bad(error, "--stop-on", s, "expected SYSTEM:EVENT[:FILTER]");
	for (const guchar *p = (const guchar *)s; *p; p++)
		if (*p < ' ' || *p == 0x7f)
			return script_bad(error, "--stop-on", s, "a control character in the filter");
	return TRUE;
}

static gboolean script_check(const FtlCaptureScriptOptions *o, GError **error)
{
	const char *one[] = { NULL, NULL };
	if (o->tracer) {
		one[0] = o->tracer;
		if (!script_check_words("-p", one, error))
			return FALSE;
	}
	if (o->clock) {
		one[0] = o->clock;
		if (!script_check_words("-C", one, error))
			return FALSE;
	}
	if (!script_check_events(o->events, error) || !script_check_words("-l", o->filter, error) ||
	    !script_check_words("-n", o->notrace, error) ||
	    !script_check_words("-g", o->graph, error) ||
	    !script_check_words("-O", o->options, error))
		return FALSE;
	for (guint i = 0; i < o->n_cpus; i++)
		if (o->cpus[i] < 0 || o->cpus[i] > SCRIPT_MAX_CPU) {
			g_autofree char *v = g_strdup_printf("%d", o->cpus[i]);
			return script_bad(error, "--cpu", v, "CPU numbers go from 0 to 8191");
		}
	if (o->stop_on && !script_check_stop_on(o->stop_on, error))
		return FALSE;
	return TRUE;
}

static void script_var(GString *out, const char *name, const char *value)
{
	g_autofree char *q = g_shell_quote(value ? value : "");
	g_string_append_printf(out, "%s=%s\n", name, q);
}

static void script_var_words(GString *out, const char *name, const char *const *words)
{
	g_autofree char *joined = words ? g_strjoinv(" ", (char **)words) : NULL;
	script_var(out, name, joined);
}

/* "0 2 3" and tracing_cpumask's "d" (32-bit groups, high first). */
static void script_cpus(GString *out, const gint32 *cpus, guint n)
{
	if (!cpus || !n) {
		script_var(out, "CPUS", NULL);
		script_var(out, "CPUMASK", NULL);
		return;
	}
	gint32 max = 0;
	for (guint i = 0; i < n; i++)
		max = MAX(max, cpus[i]);
	guint groups = (guint)max / 32 + 1;
	g_autofree guint32 *mask = g_new0(guint32, groups);
	for (guint i = 0; i < n; i++)
		mask[cpus[i] / 32] |= 1u << (cpus[i] % 32);
	g_autoptr(GString) list = g_string_new(NULL);
	for (gint32 c = 0; c <= max; c++)
		if (mask[c / 32] & (1u << (c % 32)))
			g_string_append_printf(list, "%s%d", list->len ? " " : "", c);
	g_autoptr(GString) hex = g_string_new(NULL);
	for (guint g = groups; g-- > 0;)
		g_string_append_printf(hex, g == groups - 1 ? "%x" : ",%08x", mask[g]);
	script_var(out, "CPUS", list->str);
	script_var(out, "CPUMASK", hex->str);
}

static char *script_settings(const FtlCaptureScriptOptions *o)
{
	static const char *const modes[] = { "record", "flight", "oops" };
	GString *s = g_string_new("# ---- settings, from ftlens capture-script ----\n");
	char num[G_ASCII_DTOSTR_BUF_SIZE];
	script_var(s, "VERSION", PACKAGE_VERSION);
	script_var(s, "MODE", modes[o->mode]);
	script_var(s, "TRACER", o->tracer);
	script_var_words(s, "EVENTS", o->events);
	g_snprintf(num, sizeof num, "%u", o->buffer_kb);
	script_var(s, "BUFFER_KB", o->buffer_kb ? num : NULL);
	script_var(s, "CLOCK", o->clock);
	script_var_words(s, "FILTER", o->filter);
	script_var_words(s, "NOTRACE", o->notrace);
	script_var_words(s, "GRAPH", o->graph);
	g_snprintf(num, sizeof num, "%d", o->max_depth);
	script_var(s, "MAX_DEPTH", o->max_depth >= 0 ? num : NULL);
	script_var_words(s, "OPTIONS", o->options);
	script_cpus(s, o->cpus, o->n_cpus);
	g_snprintf(num, sizeof num, "%d", o->pid);
	script_var(s, "PID", o->pid > 0 ? num : NULL);
	script_var(s, "PID_FILTER", o->pid_filter ? "1" : "0");
	g_ascii_formatd(num, sizeof num, "%g", o->duration);
	script_var(s, "DURATION", o->duration > 0 ? num : NULL);
	g_snprintf(num, sizeof num, "%.0f", MAX(1.0, o->duration * 100));
	script_var(s, "DURATION_CS", o->duration > 0 ? num : NULL);
	script_var(s, "UNTIL_OFF", o->until_off ? "1" : "0");
	g_autoptr(GString) cmd = g_string_new(NULL);
	for (guint i = 0; o->argv && o->argv[i]; i++) {
		g_autofree char *q = g_shell_quote(o->argv[i]);
		g_string_append_printf(cmd, "%s%s", i ? " " : "", q);
	}
	script_var(s, "COMMAND", cmd->str);
	g_snprintf(num, sizeof num, "%u", o->hits ? o->hits : 1);
	script_var(s, "HITS", num);
	script_var(s, "STOP_ON", o->stop_on);
	g_snprintf(num, sizeof num, "%d", o->oops_dump ? o->oops_dump : 1);
	script_var(s, "OOPS_DUMP", num);
	g_string_append(s, "# ---- end of the settings ----\n");
	return g_string_free(s, FALSE);
}

char *ftl_capture_script_render(const FtlCaptureScriptOptions *o, const char *template_text,
				GError **error)
{
	if (!script_check(o, error))
		return NULL;
	const char *at = strstr(template_text, "\n" SCRIPT_SETTINGS_LINE);
	if (!at) {
		g_set_error(error, FTL_ERROR, FTL_ERROR_FORMAT,
			    "capture-script: the template has no '%.11s' line (a damaged data "
			    "file?)",
			    SCRIPT_SETTINGS_LINE);
		return NULL;
	}
	g_autofree char *settings = script_settings(o);
	GString *out = g_string_new_len(template_text, at + 1 - template_text);
	g_string_append(out, settings);
	g_string_append(out, at + 1 + strlen(SCRIPT_SETTINGS_LINE));
	return g_string_free(out, FALSE);
}
