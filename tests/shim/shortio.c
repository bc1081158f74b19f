/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A fault-injection shim for tests (LD_PRELOAD): write(), pwrite() and
 * pwrite64() on regular files fail with EINTR on every third call and
 * otherwise take half of what they are given, as a signal or a file system
 * near full can make them do. Kernel control files (tracefs, debugfs, proc,
 * sysfs) and the standard streams are left alone. At exit the number of
 * calls cut short is appended to $FTL_SHORTIO_LOG, so that a test knows
 * the shim did its work. stdio writes through glibc's internal __write and
 * is not seen here: it loops over short writes by itself. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/vfs.h>
#include <unistd.h>

#define MAGIC_TRACEFS 0x74726163
#define MAGIC_DEBUGFS 0x64626720
#define MAGIC_PROC 0x9fa0
#define MAGIC_SYSFS 0x62656572

static unsigned long shortio_calls, shortio_cut, shortio_eintr;

static int shortio_applies(int fd)
{
	struct stat st;
	struct statfs sf;
	if (fd <= 2 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || fstatfs(fd, &sf) != 0)
		return 0;
	switch ((unsigned long)sf.f_type) {
	case MAGIC_TRACEFS:
	case MAGIC_DEBUGFS:
	case MAGIC_PROC:
	case MAGIC_SYSFS:
		return 0;
	}
	return 1;
}

/* How much of count this call may take; 0 with errno EINTR for none. */
static size_t shortio_allow(int fd, size_t count)
{
	if (count == 0 || !shortio_applies(fd))
		return count;
	if (++shortio_calls % 3 == 0) {
		shortio_eintr++;
		errno = EINTR;
		return 0;
	}
	if (count > 1) {
		shortio_cut++;
		return count / 2;
	}
	return count;
}

ssize_t write(int fd, const void *buf, size_t count)
{
	static ssize_t (*real)(int, const void *, size_t);
	if (!real)
		real = (ssize_t(*)(int, const void *, size_t))dlsym(RTLD_NEXT, "write");
	size_t n = shortio_allow(fd, count);
	return n || !count ? real(fd, buf, n) : -1;
}

ssize_t pwrite(int fd, const void *buf, size_t count, off_t off)
{
	static ssize_t (*real)(int, const void *, size_t, off_t);
	if (!real)
		real = (ssize_t(*)(int, const void *, size_t, off_t))dlsym(RTLD_NEXT, "pwrite");
	size_t n = shortio_allow(fd, count);
	return n || !count ? real(fd, buf, n, off) : -1;
}

ssize_t pwrite64(int fd, const void *buf, size_t count, off64_t off)
{
	static ssize_t (*real)(int, const void *, size_t, off64_t);
	if (!real)
		real = (ssize_t(*)(int, const void *, size_t, off64_t))dlsym(RTLD_NEXT, "pwrite64");
	size_t n = shortio_allow(fd, count);
	return n || !count ? real(fd, buf, n, off) : -1;
}

__attribute__((destructor)) static void shortio_report(void)
{
	const char *log = getenv("FTL_SHORTIO_LOG");
	FILE *f = log ? fopen(log, "a") : NULL;
	if (!f)
		return;
	fprintf(f, "%d cut=%lu eintr=%lu\n", (int)getpid(), shortio_cut, shortio_eintr);
	fclose(f);
}
