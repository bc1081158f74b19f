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

# bench_measure RUNS CMD...: runs CMD RUNS times, stdout to /dev/null, and
# sets m_wall, m_user, m_sys (seconds) and m_rss (KiB) from the fastest run;
# m_code is the first nonzero exit status (then the figures are not set).
bench_measure() {
	_runs=$1
	shift
	m_wall='' m_code=0
	_i=0
	while [ $_i -lt "$_runs" ]; do
		_res=$("$bench_dir/measure" "$@")
		read -r _w _u _s _r _c <<EOF
$_res
EOF
		if [ "$_c" != 0 ]; then
			m_code=$_c
			return 0
		fi
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

# bench_ftlens: sets ftlens to $FTLENS (relative to the caller's directory)
# or this tree's ./ftlens, and fails with a message when it cannot run.
bench_ftlens() {
	ftlens=${FTLENS:-$bench_src/../ftlens}
	case $ftlens in
	/*) ;;
	*) ftlens=$(pwd)/$ftlens ;;
	esac
	[ -x "$ftlens" ] || {
		echo "$0: '$ftlens' is not executable (build ftlens, or set FTLENS)" >&2
		exit 2
	}
}
