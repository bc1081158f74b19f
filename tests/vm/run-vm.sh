#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Boot a Debian cloud kernel under qemu (TCG) with a busybox initramfs that
# runs one scenario, and bring the files it wrote to /out/ back to the host.
#
# usage: run-vm.sh SCENARIO OUTDIR [--cmdline EXTRA] [--timeout S]
#                  [--with-binary PATH]... [--extra DIR] [--kernel PATH]
#
# OUTDIR gets console.log (serial console, bytes as captured, CRLF kept),
# xfer.tar (the raw transfer, removed once verified) and the files of /out/.
# A scenario may carry directives in comment lines:
#   #@cmdline ARGS   appended to the kernel command line
#   #@timeout S      default timeout for this scenario
#   #@expect panic   the guest is meant to die; success is a console log
#                    with "Kernel panic" (no transfer happens then)
#   #@fixture no     a test's own scenario: make-fixtures.sh skips it
#   #@sample PATH    make-fixtures.sh moves its trace.txt to PATH (the sample)
#   #@setup SCRIPT   runs tests/vm/SCRIPT EXTRA_DIR KERNEL on the host first:
#                    what it puts in EXTRA_DIR lands in the initramfs root
#                    (helpers, modules); its exit 77 skips the scenario
# Exit: 0 ok, 1 failure (no end marker, bad transfer, timeout), 2 usage,
# 77 qemu or the kernel missing and not installable.
set -eu

me=${0##*/}
here=$(cd "$(dirname "$0")" && pwd)
die() { printf '%s: %s\n' "$me" "$*" >&2; exit "${2:-1}"; }
usage() { printf '%s\n' "usage: $me SCENARIO OUTDIR [--cmdline EXTRA] [--timeout S] [--with-binary PATH]... [--extra DIR] [--kernel PATH]" >&2; exit 2; }

scenario=""
outdir=""
cmdline_extra=""
timeout_s=""
extra=""
kernel=${FTLENS_VM_KERNEL:-}
set -- "$@" --end-of-args--
while [ "$1" != --end-of-args-- ]; do
	case $1 in
	--cmdline) [ "$2" != --end-of-args-- ] || usage; cmdline_extra="$cmdline_extra $2"; shift 2 ;;
	--timeout) [ "$2" != --end-of-args-- ] || usage; timeout_s=$2; shift 2 ;;
	--extra) [ "$2" != --end-of-args-- ] || usage; extra=$2; shift 2 ;;
	--kernel) [ "$2" != --end-of-args-- ] || usage; kernel=$2; shift 2 ;;
	--with-binary) [ "$2" != --end-of-args-- ] || usage; set -- "$@" --with-binary "$2"; shift 2 ;;
	-h|--help) usage ;;
	-*) usage ;;
	*)
		if [ -z "$scenario" ]; then scenario=$1
		elif [ -z "$outdir" ]; then outdir=$1
		else usage
		fi
		shift ;;
	esac
done
shift # --end-of-args--; what is left are --with-binary pairs
if [ -z "$scenario" ] || [ -z "$outdir" ]; then usage; fi
[ -r "$scenario" ] || die "cannot read scenario $scenario" 2

# Directives from the scenario itself.
directive() { sed -n "s/^#@$1[[:space:]]\{1,\}//p" "$scenario" | tr '\n' ' ' | sed 's/[[:space:]]*$//'; }
cmdline_extra="$(directive cmdline) $cmdline_extra"
expect=$(directive expect)
[ -n "$timeout_s" ] || timeout_s=$(directive timeout)
[ -n "$timeout_s" ] || timeout_s=240
case $timeout_s in *[!0-9]*|"") die "bad --timeout $timeout_s" 2 ;; esac

if ! command -v qemu-system-x86_64 >/dev/null 2>&1 || [ -z "$kernel" ]; then
	set +e
	k=$("$here/setup.sh")
	rc=$?
	set -e
	if [ $rc -ne 0 ]; then
		if [ $rc -eq 77 ]; then
			die "qemu or a cloud kernel is missing and cannot be installed" 77
		fi
		die "setup.sh failed ($rc)" 77
	fi
	[ -n "$kernel" ] || kernel=$k
fi
command -v qemu-system-x86_64 >/dev/null 2>&1 || die "qemu-system-x86_64 missing" 77
[ -r "$kernel" ] || die "kernel $kernel not readable" 77

mkdir -p "$outdir"
outdir=$(cd "$outdir" && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/ftlens-vm.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM

setup=$(directive setup)
if [ -n "$setup" ]; then
	mkdir -p "$work/extra"
	[ -z "$extra" ] || cp -a "$extra/." "$work/extra/"
	set +e
	"$here/$setup" "$work/extra" "$kernel"
	src=$?
	set -e
	[ $src -eq 0 ] || die "setup $setup failed ($src)" "$([ $src -eq 77 ] && echo 77 || echo 1)"
	extra=$work/extra
fi
"$here/build-initramfs.sh" --scenario "$scenario" "$@" "$work/initramfs.cpio.gz" ${extra:+"$extra"}

console=$outdir/console.log
xfer=$outdir/xfer.tar
rm -f "$console" "$xfer"
: >"$xfer"

# console=ttyS0 is the log; ttyS1 carries the tar. panic=-1 with -no-reboot
# makes a guest panic end qemu at once; poweroff -f ends it normally.
append="console=ttyS0,115200 panic=-1 oops=panic $cmdline_extra"
append=$(printf '%s' "$append" | tr -s ' ' | sed 's/ *$//')
printf '%s\n' "$append" >"$work/append"

start=$(date +%s)
set +e
timeout --kill-after=10 "$timeout_s" \
	qemu-system-x86_64 -accel "${FTLENS_VM_ACCEL:-tcg,thread=single}" -cpu max -smp 2 -m 512M -nographic \
	-no-reboot -monitor none \
	-kernel "$kernel" -initrd "$work/initramfs.cpio.gz" -append "$append" \
	-serial "file:$console" -serial "file:$xfer" \
	</dev/null >"$work/qemu.out" 2>&1
qrc=$?
set -e
end=$(date +%s)
elapsed=$((end - start))

if [ -s "$work/qemu.out" ]; then
	sed 's/^/qemu: /' "$work/qemu.out" >&2
fi
if [ $qrc -eq 124 ] || [ $qrc -eq 137 ]; then
	printf '%s: timeout after %ss\n' "$me" "$timeout_s" >&2
fi
printf '%s: %s: qemu exit %s after %ss\n' "$me" "${scenario##*/}" "$qrc" "$elapsed" >&2

# The console uses CRLF; strip CR only for matching.
clean=$work/console.txt
tr -d '\r' <"$console" >"$clean"

if [ "$expect" = panic ]; then
	rm -f "$xfer"
	grep -q '^FTLENS-VM: scenario start' "$clean" || die "guest never reached the scenario"
	grep -q 'Kernel panic' "$clean" || die "expected a panic, none in console.log"
	exit 0
fi

grep -q '^FTLENS-VM: scenario start' "$clean" || die "guest never reached the scenario"
grep -q '^FTLENS-VM: end' "$clean" || die "guest never reached the end marker"
line=$(grep '^FTLENS-VM: xfer tar ' "$clean" | tail -n 1) || die "guest sent no transfer"
want_size=$(printf '%s\n' "$line" | sed -n 's/.* size=\([0-9]*\).*/\1/p')
want_sum=$(printf '%s\n' "$line" | sed -n 's/.* sha256=\([0-9a-f]*\).*/\1/p')
got_size=$(wc -c <"$xfer" | tr -d ' ')
got_sum=$(sha256sum "$xfer" | cut -d' ' -f1)
if [ "$got_size" != "$want_size" ] || [ "$got_sum" != "$want_sum" ]; then
	die "transfer damaged: guest sent $want_size bytes $want_sum, host got $got_size bytes $got_sum"
fi
tar -C "$outdir" --no-same-owner -xf "$xfer"
rm -f "$xfer"
rc=$(cat "$outdir/scenario-rc.txt" 2>/dev/null || echo '?')
[ "$rc" = 0 ] || die "scenario exited $rc"
exit 0
