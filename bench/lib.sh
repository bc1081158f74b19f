# SPDX-License-Identifier: GPL-2.0-or-later
# Helpers for the bench scripts (sourced, POSIX sh). Set bench_dir (where
# the helpers are built) and bench_src (bench/) first; CC picks the compiler.

# bench_build NAME: compiles bench/NAME.c into $bench_dir/NAME unless that is
# up to date (the helpers are not part of ftlens, so not built by make).
bench_build() {
	if [ ! -x "$bench_dir/$1" ] || [ -n "$(find "$bench_src/$1.c" -newer "$bench_dir/$1")" ]; then
		"${CC:-cc}" -O2 -o "$bench_dir/$1.tmp$$" "$bench_src/$1.c" -lm &&
			mv "$bench_dir/$1.tmp$$" "$bench_dir/$1"
	fi
}

# bench_build_linked NAME BUILD OUT: compiles bench/NAME.c against the
# build tree BUILD (its libftlens.a, made when stale; its compiler, flags
# and libraries) into OUT. Fails when BUILD is no build tree.
bench_build_linked() {
	[ -f "$2/Makefile" ] && make -s -C "$2" libftlens.a >/dev/null 2>&1 || return 1
	_vars=$(printf 'bench-vars:\n\t@echo "$(CC) $(CFLAGS) $(AM_CFLAGS) $(AM_CPPFLAGS) $(DEFS)"\n\t@echo "$(FTL_LIBS) $(NCURSES_LIBS) $(LIBS)"\n' |
		make -s -C "$2" -f Makefile -f - bench-vars)
	_cc=$(printf '%s\n' "$_vars" | sed -n 1p)
	_libs=$(printf '%s\n' "$_vars" | sed -n 2p)
	# shellcheck disable=SC2086 # the flags are words
	(cd "$2" && $_cc -I"$bench_src/../src" -o "$3" "$bench_src/$1.c" libftlens.a $_libs)
}

# bench_measure RUNS CMD...: runs CMD RUNS times, stdout to /dev/null, and
# sets m_wall, m_user, m_sys (seconds) and m_rss (KiB) from the fastest run;
# m_code is the first nonzero exit status (then the figures are not set);
# m_runs holds every run's "wall user sys rss" line, for medians.
# Before each run, CMD's last argument, when it is a regular file (the
# input everywhere here), is read once into the page cache: a kernel may
# drop pages it deems cold soon after (seen here: of a 1 GiB trace just
# read, 998 MiB stayed cached 10 s later, 952 MiB after 30 s, 382 MiB
# after some minutes), and the run would then time the disk too.
bench_measure() {
	_runs=$1
	shift
	m_wall='' m_code=0 m_runs=''
	_i=0
	while [ $_i -lt "$_runs" ]; do
		for _last in "$@"; do :; done
		if [ -f "$_last" ]; then
			cat "$_last" >/dev/null
		fi
		_res=$("$bench_dir/measure" "$@")
		read -r _w _u _s _r _c <<EOF
$_res
EOF
		if [ "$_c" != 0 ]; then
			m_code=$_c
			return 0
		fi
		m_runs="$m_runs$_w $_u $_s $_r
"
		if [ -z "$m_wall" ] || awk -v a="$_w" -v b="$m_wall" 'BEGIN { exit !(a < b) }'; then
			m_wall=$_w m_user=$_u m_sys=$_s m_rss=$_r
		fi
		_i=$((_i + 1))
	done
}

# bench_host: one line about the machine the figures come from.
bench_host() {
	echo "host: $(uname -r), $(nproc) CPUs online, load $(cut -d' ' -f1-3 /proc/loadavg)," \
		"$(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo | head -n 1)"
}

# bench_ftlens SCRIPT CALLER_DIR: sets ftlens to $FTLENS (a relative path
# taken from CALLER_DIR) or this tree's ./ftlens; exits 2 naming SCRIPT
# when that is not executable.
bench_ftlens() {
	ftlens=${FTLENS:-$bench_src/../ftlens}
	case $ftlens in
	/*) ;;
	*) ftlens=$2/$ftlens ;;
	esac
	[ -x "$ftlens" ] || {
		echo "$1: '$ftlens' is not executable (build ftlens, or set FTLENS)" >&2
		exit 2
	}
}

# bench_sizes SCRIPT SIZE...: exits 2 naming SCRIPT on a SIZE that is not
# a number with an optional K, M or G.
bench_sizes() {
	_script=$1
	shift
	for _s in "$@"; do
		echo "$_s" | grep -Eq '^[0-9]+[KMG]?$' || {
			echo "$_script: '$_s': a size is a number with an optional K, M or G" >&2
			exit 2
		}
	done
}
