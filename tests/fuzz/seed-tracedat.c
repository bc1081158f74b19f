/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Seeds for the trace.dat fuzz target: a raw page directory written as a
 * trace.dat by ftlens's own writer (make-corpus.sh runs it). */
#include "config.h"

#include <stdio.h>

#include "capture/tracedat-write.h"

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: seed-tracedat RAW_DIR OUT\n");
		return 2;
	}
	g_autoptr(GError) error = NULL;
	FtlTracedatWriteOptions opt = { .uname = "Linux fuzz 6.1.0 x86_64" };
	if (!ftl_tracedat_write(argv[1], argv[2], &opt, &error)) {
		fprintf(stderr, "seed-tracedat: %s\n", error->message);
		return 1;
	}
	return 0;
}
