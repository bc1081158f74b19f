/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Benchmark helper (not part of ftlens): runs a command with its output
 * thrown away and prints what it cost, from wait4()'s rusage and the
 * monotonic clock, with microsecond resolution (GNU time rounds to 10 ms):
 *
 *   wall_s user_s sys_s peak_rss_kib exit_status
 *
 * usage: measure [-o FILE] COMMAND [ARG...]   (stdout to FILE, default /dev/null) */
#define _GNU_SOURCE 1
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double secs(struct timeval tv)
{
	return (double)tv.tv_sec + (double)tv.tv_usec / 1e6;
}

int main(int argc, char **argv)
{
	const char *out = "/dev/null";
	int a = 1;
	if (argc > 2 && !strcmp(argv[1], "-o")) {
		out = argv[2];
		a = 3;
	}
	if (a >= argc) {
		fprintf(stderr, "usage: measure [-o FILE] COMMAND [ARG...]\n");
		return 2;
	}
	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	pid_t pid = fork();
	if (pid < 0) {
		perror("measure: fork");
		return 2;
	}
	if (pid == 0) {
		int fd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (fd < 0 || dup2(fd, 1) < 0) {
			perror(out);
			_exit(127);
		}
		execvp(argv[a], argv + a);
		perror(argv[a]);
		_exit(127);
	}
	int status;
	struct rusage ru;
	if (wait4(pid, &status, 0, &ru) < 0) {
		perror("measure: wait4");
		return 2;
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	double wall = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
	int code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
	printf("%.6f %.6f %.6f %ld %d\n", wall, secs(ru.ru_utime), secs(ru.ru_stime), ru.ru_maxrss,
	       code);
	return 0;
}
