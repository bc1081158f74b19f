#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The -j race hunt under valgrind's two thread checkers (issue 31 item 5):
# helgrind (lock sets and happens-before) and DRD, on dump, info and report
# at -j2, -j4 and -j8 over three small inputs, one per threaded reader: a
# generated text trace (parse threads over 4 KB chunks), its per_cpu split
# (a line reader per CPU file sharing the pool) and a trace.dat (page
# readers). GLib 2.74's GMutex, GCond and GThreadPool queue are futexes the
# tools cannot see, so bench/glib-pthread-shim.c is preloaded, built with
# -DSHIM_HELGRIND or -DSHIM_DRD (ftlens's locks on pthreads, a pool job
# after its push), and G_SLICE=always-malloc. Trial children are not
# followed (--child-silent-after-fork). Every report's log is kept; the
# distinct reports (first ftlens frame or first frame) are listed at the
# end for classification (bench/fuzz-results.md says what each was).
#
# usage: bench/race-helgrind.sh -b BUILD [-w WORK] [-t "helgrind drd"] [-j "2 4 8"] [INPUT...]
#   -b BUILD  a non-sanitized build, best -O1 -g (../configure CFLAGS='-O1 -g')
#   -w WORK   work directory (default /tmp/ftlens-helgrind)
#   -t TOOLS  valgrind tools (default "helgrind drd")
#   -j JOBS   -j values (default "2 4 8")
#   INPUT     trace files or directories (default: the generated text trace
#             and per_cpu set in WORK, and tests/data/overrun/overrun.dat)
# Exit status: 1 when any run reported an error, else 0.
set -u
build='' work=/tmp/ftlens-helgrind tools='helgrind drd' jobs='2 4 8'
while getopts b:w:t:j: opt; do
	case $opt in
	b) build=$OPTARG ;;
	w) work=$OPTARG ;;
	t) tools=$OPTARG ;;
	j) jobs=$OPTARG ;;
	*) sed -n 's/^# \{0,1\}//; /^usage/,/^Exit/p' "$0" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
src=$(cd "$(dirname "$0")/.." && pwd)
[ -x "$build/ftlens" ] || { echo "race-helgrind: no $build/ftlens (-b BUILD)" >&2; exit 2; }
command -v valgrind >/dev/null || { echo "race-helgrind: valgrind is not installed" >&2; exit 2; }
mkdir -p "$work" || exit 1
work=$(cd "$work" && pwd)
for tool in $tools; do
	def=$(echo "$tool" | tr a-z A-Z)
	cc -O1 -g -fPIC -shared -DSHIM_"$def" -o "$work/shim-$tool.so" \
		"$src/bench/glib-pthread-shim.c" -lpthread -ldl || exit 2
done
# An access made by GLib's own code (its pool's queue and workers, its
# hash tables) is ordered by GLib's futex locks, which neither tool sees,
# and only ftlens's own locks go through the shim: reports whose access is
# in libglib are suppressed, as race-tsan.sh's called_from_lib does. A race
# on ftlens's data still shows where ftlens's side of it is the access
# reported; one whose only reported side is inside GLib would not.
# And helgrind's own pthread_mutex_destroy() wrapper compares the mutex
# with PTHREAD_MUTEX_INITIALIZER byte by byte: that read is reported
# against glibc's unlock in the last job (which writes the mutex's user
# count after helgrind's happens-before edge is sent, before the lock word
# is released), although the destroying thread took the same mutex after
# that unlock (linereader.c's lr_stop() waits for running == 0 under it).
cat >"$work/glib-internal.supp" <<'SUPP'
{
   glib-internal-helgrind
   Helgrind:Race
   obj:*/libglib-2.0.so*
}
{
   glib-internal-drd
   drd:ConflictingAccess
   obj:*/libglib-2.0.so*
}
{
   helgrind-mutex-destroy-own-memcmp
   Helgrind:Race
   obj:*/vgpreload_helgrind-amd64-linux.so
   obj:*/vgpreload_helgrind-amd64-linux.so
   fun:g_mutex_clear
}
SUPP
supp="--suppressions=$work/glib-internal.supp"
for s in /usr/share/glib-2.0/valgrind/glib.supp; do
	[ -f "$s" ] && supp="$supp --suppressions=$s"
done

if [ $# -eq 0 ]; then
	# 3,000 events over 8 CPUs, task switches and markers: ~40 chunks of 4 KB
	FTLENS=$build/ftlens sh "$src/bench/race-stress.sh" -n 0 -e 3000 -w "$work" >/dev/null 2>&1
	set -- "$work/gen.txt" "$work/percpu" "$src/tests/data/overrun/overrun.dat"
fi

runs=0 bad=0
printf '%-9s %-14s %-7s %3s %7s %s\n' tool input command -j errors "contexts suppressed"
for tool in $tools; do
	for in in "$@"; do
		for cmd in dump info report; do
			for j in $jobs; do
				log=$work/$tool-$(basename "$in")-$cmd-j$j.log
				# shellcheck disable=SC2086
				FTLENS_CHUNK_BYTES=4096 G_SLICE=always-malloc LD_PRELOAD="$work/shim-$tool.so" \
					valgrind --tool="$tool" --child-silent-after-fork=yes $supp \
					--log-file="$log" --num-callers=30 \
					"$build/ftlens" "$cmd" --no-index -j "$j" "$in" >"$work/out" 2>"$work/err"
				rc=$?
				sum=$(sed -n 's/.*ERROR SUMMARY: \([0-9]*\) errors from \([0-9]*\) contexts (suppressed: \([0-9]*\).*/\1 \2 \3/p' "$log" | tail -1)
				n=${sum%% *}
				runs=$((runs + 1))
				[ "${n:-1}" -gt 0 ] || [ "$rc" -ne 0 ] && bad=$((bad + 1))
				printf '%-9s %-14s %-7s %3s %7s %s%s\n' "$tool" "$(basename "$in" | cut -c1-14)" "$cmd" "$j" \
					"${n:-?}" "${sum#* }" "$([ "$rc" -ne 0 ] && echo " (exit $rc)")"
			done
		done
	done
done
echo "total: $runs runs, $bad with errors or a nonzero exit"
if [ "$bad" -gt 0 ]; then
	echo "distinct reports (first ftlens frame, else the first frame), by count:"
	for log in "$work"/*.log; do
		awk '/^==[0-9]+== (Possible data race|Conflicting|Lock order|Thread #[0-9]+ (unlocked|.*invalid)|.*Invalid|.*not locked)/ { want = 1; what = $0; sub(/^==[0-9]+== /, "", what); first = ""; next }
			want && /(at|by) 0x/ { f = $0; sub(/.*: /, "", f); if (first == "") first = f; if (f ~ /\/src\/|ftl_|\(ftlens\)/) { print what " @ " f; want = 0 } }
			want && /^==[0-9]+== *$/ { if (first != "") print what " @ " first; want = 0 }' "$log"
	done | sed 's/ (in [^)]*)//; s/ at 0x[0-9A-Fa-f]*//' | sort | uniq -c | sort -rn | head -40
fi
[ "$bad" -eq 0 ]
