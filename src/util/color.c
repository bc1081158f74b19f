/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Whether and how text output is coloured: the one decision and the codes. */
#include "config.h"

#include "util/color.h"

#include <string.h>
#include <unistd.h>

gboolean ftl_color_parse(const char *text, FtlColorWhen *out)
{
	if (!text || strcmp(text, "auto") == 0)
		*out = FTL_COLOR_AUTO;
	else if (strcmp(text, "always") == 0)
		*out = FTL_COLOR_ALWAYS;
	else if (strcmp(text, "never") == 0)
		*out = FTL_COLOR_NEVER;
	else
		return FALSE;
	return TRUE;
}

gboolean ftl_color_decide(FtlColorWhen when, int fd)
{
	const char *term = g_getenv("TERM");
	const char *no_color = g_getenv("NO_COLOR");
	if (when != FTL_COLOR_AUTO)
		return when == FTL_COLOR_ALWAYS;
	return isatty(fd) && term && *term && strcmp(term, "dumb") != 0 && !(no_color && *no_color);
}

FtlColorRole ftl_color_duration_role(gint64 ns)
{
	static const struct {
		gint64 over;
		FtlColorRole role;
	} marks[] = {
		{ 1000000000, FTL_COLOR_DUR_1S },  { 100000000, FTL_COLOR_DUR_100MS },
		{ 10000000, FTL_COLOR_DUR_10MS },  { 1000000, FTL_COLOR_DUR_1MS },
		{ 100000, FTL_COLOR_DUR_100US },   { 10000, FTL_COLOR_DUR_10US },
	};
	for (guint i = 0; i < G_N_ELEMENTS(marks); i++)
		if (ns > marks[i].over)
			return marks[i].role;
	return FTL_COLOR_NONE;
}

const char *ftl_color_code(gboolean on, FtlColorRole role)
{
	/* the heat of a duration grows from green to bold red, as the
	 * kernel's marks grow from '+' to '$' */
	static const char *const codes[] = {
		[FTL_COLOR_NONE] = "",
		[FTL_COLOR_HEADER] = "\033[1m",
		[FTL_COLOR_ALERT] = "\033[1;33m",
		[FTL_COLOR_DUR_10US] = "\033[32m",
		[FTL_COLOR_DUR_100US] = "\033[36m",
		[FTL_COLOR_DUR_1MS] = "\033[33m",
		[FTL_COLOR_DUR_10MS] = "\033[35m",
		[FTL_COLOR_DUR_100MS] = "\033[31m",
		[FTL_COLOR_DUR_1S] = "\033[1;31m",
	};
	if (!on || (guint)role >= G_N_ELEMENTS(codes))
		return "";
	return codes[role];
}

const char *ftl_color_reset(gboolean on)
{
	return on ? "\033[m" : "";
}

void ftl_color_append(GString *out, gboolean on, FtlColorRole role, const char *visible)
{
	const char *code = ftl_color_code(on, role);
	if (!*code) {
		g_string_append(out, visible);
		return;
	}
	g_string_append(out, code);
	g_string_append(out, visible);
	g_string_append(out, ftl_color_reset(on));
}
