#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Makes the large trace.dat captures bench/tracedat.sh times: a private
# tracefs instance with every event enabled and BUFKB per CPU, load (file
# system walks, forks, pipes, trace_marker writes) until the ring buffers
# hold MIN_EVENTS events or SECONDS pass, `trace-cmd extract`, then
# `trace-cmd convert` into both file formats:
#   OUT-v6.dat       version 6, uncompressed
#   OUT-v7zstd.dat   version 7, zstd-compressed sections
# Needs root and trace-cmd >= 3.0. The top buffer is not touched; `extract
# -B` copies whatever it holds too (other users' leftovers, often nothing),
# and both readers read it.
# usage: bench/gen-tracedat.sh OUT [MIN_EVENTS (2500000)] [BUFKB (262144)] [SECONDS (60)]
set -eu
out=${1:?usage: gen-tracedat.sh OUT [MIN_EVENTS] [BUFKB] [SECONDS]}
min=${2:-2500000}
kb=${3:-262144}
secs=${4:-60}
[ "$(id -u)" = 0 ] || { echo "gen-tracedat.sh: needs root" >&2; exit 1; }
command -v trace-cmd >/dev/null || { echo "gen-tracedat.sh: trace-cmd is not installed" >&2; exit 1; }
trace-cmd convert -h 2>&1 | grep -q -- --file-version ||
	{ echo "gen-tracedat.sh: this trace-cmd has no 'convert --file-version' (3.0 or later has)" >&2; exit 1; }
TR=/sys/kernel/tracing
mounted=""
if [ ! -e "$TR/instances" ]; then
	mount -t tracefs nodev "$TR"
	mounted=1
fi
inst=ftlens-bench-$$
I=$TR/instances/$inst
raw=$out.raw$$.dat
cleanup() {
	if [ -d "$I" ]; then
		echo 0 >"$I/tracing_on" || true
		echo 0 >"$I/events/enable" || true
		rmdir "$I" || true
	fi
	[ -n "$mounted" ] && umount "$TR"
	rm -f "$raw" "$raw.err" "$out-v6.dat.tmp" "$out-v7zstd.dat.tmp"
	return 0
}
trap cleanup EXIT INT TERM
entries() { sed -n 's/^entries: //p' "$I"/per_cpu/cpu*/stats | awk '{ n += $1 } END { print n + 0 }'; }

mkdir "$I"
echo "$kb" >"$I/buffer_size_kb"
echo 1 >"$I/events/enable"
echo 1 >"$I/tracing_on"
end=$(($(date +%s) + secs))
while [ "$(entries)" -lt "$min" ] && [ "$(date +%s)" -lt "$end" ]; do
	find /usr/share -maxdepth 3 >/dev/null 2>&1
	i=0
	while [ $i -lt 50 ]; do echo "bench $i" >"$I/trace_marker"; i=$((i + 1)); done
	seq 1 2000 | sort -r | head -1 >/dev/null
done
echo 0 >"$I/tracing_on"
n=$(entries)
echo "gen-tracedat.sh: $n events in the instance ($(sed -n 's/^overrun: //p' "$I"/per_cpu/cpu*/stats |
	awk '{ n += $1 } END { print n + 0 }') overwritten)"
[ "$n" -ge "$min" ] || echo "gen-tracedat.sh: warning: fewer than $min events after $secs s" >&2
trace-cmd extract -B "$inst" -o "$raw" >/dev/null 2>&1
# convert VERSION COMPRESSION SUFFIX: one format of the capture, quietly
# unless trace-cmd fails.
convert() {
	if ! trace-cmd convert -i "$raw" -o "$out-$3.dat.tmp" --file-version "$1" \
		--compression "$2" >/dev/null 2>"$raw.err"; then
		cat "$raw.err" >&2
		exit 1
	fi
}
convert 6 none v6
convert 7 zstd v7zstd
mv "$out-v6.dat.tmp" "$out-v6.dat"
mv "$out-v7zstd.dat.tmp" "$out-v7zstd.dat"
ls -l "$out-v6.dat" "$out-v7zstd.dat"
