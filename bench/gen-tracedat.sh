#!/bin/sh
# Make a large trace.dat from live tracefs for bench/tracedat.sh: a private
# instance with every event enabled and BUFKB per CPU, a few seconds of load
# (file system walks, forks, pipes), then `trace-cmd extract`. Needs root.
# usage: bench/gen-tracedat.sh OUT.dat [BUFKB (default 65536)] [SECONDS (default 4)]
set -eu
out=${1:?usage: gen-tracedat.sh OUT.dat [BUFKB] [SECONDS]}
kb=${2:-65536}
secs=${3:-4}
[ "$(id -u)" = 0 ] || { echo "gen-tracedat.sh: needs root" >&2; exit 1; }
command -v trace-cmd >/dev/null || { echo "gen-tracedat.sh: trace-cmd is not installed" >&2; exit 1; }
TR=/sys/kernel/tracing
mounted=""
if [ ! -e "$TR/instances" ]; then
	mount -t tracefs nodev "$TR"
	mounted=1
fi
inst=ftlens-bench-$$
I=$TR/instances/$inst
cleanup() {
	[ -d "$I" ] && { echo 0 >"$I/tracing_on"; rmdir "$I"; }
	[ -n "$mounted" ] && umount "$TR"
	return 0
}
trap cleanup EXIT INT TERM
mkdir "$I"
echo "$kb" >"$I/buffer_size_kb"
echo 1 >"$I/events/enable"
echo 1 >"$I/tracing_on"
end=$(($(date +%s) + secs))
while [ "$(date +%s)" -lt "$end" ]; do
	find /usr/share -maxdepth 3 >/dev/null 2>&1
	i=0
	while [ $i -lt 50 ]; do echo "bench $i" >"$I/trace_marker"; i=$((i + 1)); done
	seq 1 2000 | sort -r | head -1 >/dev/null
done
echo 0 >"$I/tracing_on"
trace-cmd extract -B "$inst" -o "$out" >/dev/null 2>&1
ls -l "$out"
