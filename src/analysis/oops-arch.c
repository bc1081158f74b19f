/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Which architecture a kernel report came from, read from the lines only
 * that architecture prints (its register dump, its fault line, its
 * syscall entry frames) and the width of the addresses it prints. */
#include "analysis/oops-arch.h"

#include <string.h>

#include "analysis/oops-lines.h"

/* A line's start (or, marked '*', any part of it) that one architecture
 * prints; arch64 when its addresses are 64 bits wide. In order of trust:
 * register dumps first, frame names last. */
static const struct {
	const char *text, *arch32, *arch64;
} arch_hints[] = {
	{ "Krnl PSW : ", "s390", "s390" },
	{ "NIP [", "ppc", "ppc64" },
	{ "NIP:  ", "ppc", "ppc64" },
	{ "GPR00: ", "ppc", "ppc64" },
	{ "RIP: ", "x86_64", "x86_64" },
	{ "EIP: ", "i386", "i386" },
	{ "pstate: ", "arm64", "arm64" },
	{ "x29: ", "arm64", "arm64" },
	{ "*psr: ", "arm", "arm" },
	{ "*Mode SVC_32", "arm", "arm" },
	{ "epc   : ", "mips", "mips64" },
	{ "$ 0   : ", "mips", "mips64" },
	{ "era   : ", "loongarch64", "loongarch64" },
	{ "status: ", "riscv32", "riscv64" }, /* "status: ... badaddr: ... cause: ..." */
	{ "epc : ", "riscv32", "riscv64" },
	{ "TPC: ", "sparc64", "sparc64" },
	{ "*__x64_sys_", "x86_64", "x86_64" },
	{ "*entry_SYSCALL_64", "x86_64", "x86_64" },
	{ "*entry_SYSCALL64_slow_path", "x86_64", "x86_64" }, /* 4.x */
	{ "*return_from_SYSCALL_64", "x86_64", "x86_64" },
	{ "*__arm64_sys_", "arm64", "arm64" },
	{ "*el1h_64_", "arm64", "arm64" },
	{ "*__riscv_sys_", "riscv32", "riscv64" },
	{ "*__s390x_sys_", "s390", "s390" },
	{ "*sysenter_past_esp", "i386", "i386" },
	{ "*) from [<", "arm", "arm" },
	{ "*QEMU Standard PC (", "i386", "x86_64" },
	{ "x86/", "i386", "x86_64" }, /* a boot log: "x86/fpu: Supporting XSAVE..." */
};

/* The longest run of hex digits, after an optional "0x", that stands alone
 * on the line: 16 on a 64-bit kernel's addresses, 8 on a 32-bit one's. */
static guint arch_hex_width(const char *s)
{
	guint best = 0;
	for (const char *p = s; *p;) {
		gboolean alone = p == s || !g_ascii_isalnum(p[-1]);
		if (p[0] == '0' && p[1] == 'x')
			p += 2;
		const char *q = p;
		while (g_ascii_isxdigit(*q))
			q++;
		alone = alone && !g_ascii_isalnum(*q);
		if (alone && (guint)(q - p) > best && q - p <= 16)
			best = (guint)(q - p);
		p = q > p ? q : p + 1;
	}
	return best;
}

static gboolean arch_line_has(const char *s, const char *hint)
{
	return hint[0] == '*' ? strstr(s, hint + 1) != NULL : g_str_has_prefix(s, hint);
}

const char *ftl_oops_arch_guess(const FtlConsole *con, GArray *lines)
{
	guint width = 0;
	for (guint k = 0; k < lines->len; k++) {
		const char *s = ftl_console_line(con, g_array_index(lines, guint, k))->text;
		/* "---[ end trace be33d503d2af084b ]---" is a hash, no address */
		if (strstr(s, "---["))
			continue;
		guint w = arch_hex_width(s);
		if (w == 16 || (w == 8 && !width))
			width = w;
	}
	for (guint h = 0; h < G_N_ELEMENTS(arch_hints); h++) {
		for (guint k = 0; k < lines->len; k++) {
			const char *s = ftl_console_line(con, g_array_index(lines, guint, k))->text;
			if (arch_line_has(oops_trim(s), arch_hints[h].text))
				return width == 16 ? arch_hints[h].arch64 : arch_hints[h].arch32;
		}
	}
	return NULL;
}
