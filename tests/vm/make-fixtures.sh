#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Run every scenario in tests/vm/scenarios/ under the VM rig and refresh the
# fixtures made from them: tests/data/vm/<scenario>/, the VM section of
# tests/data/README.md, and the bundled sample: a scenario with a line
# "#@sample PATH" has its trace.txt moved to PATH (data/sample-fgraph.txt,
# from scenarios/sample.sh) instead of kept in tests/data/vm/<scenario>/.
#
# usage: make-fixtures.sh [SCENARIO-NAME...]   (default: all)
set -eu

me=${0##*/}
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
dest=$top/tests/data/vm
readme=$top/tests/data/README.md
max_total_kb=3072

say() { printf '%s: %s\n' "$me" "$*" >&2; }

set +e
kernel=$("$here/setup.sh")
rc=$?
set -e
[ $rc -eq 0 ] || { say "setup.sh failed ($rc)"; exit "$rc"; }
export FTLENS_VM_KERNEL="$kernel"

if [ $# -gt 0 ]; then
	names=$*
else
	names=$(for f in "$here"/scenarios/*.sh; do basename "$f" .sh; done)
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/ftlens-fixtures.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM
mkdir -p "$dest"
failed=""

for name in $names; do
	scen=$here/scenarios/$name.sh
	[ -r "$scen" ] || { say "no scenario $name"; failed="$failed $name"; continue; }
	# A test's own scenario (it needs the ftlens under test), not a fixture.
	if grep -q '^#@fixture no' "$scen"; then say "$name: not a fixture, skipped"; continue; fi
	out=$work/$name
	start=$(date +%s)
	if "$here/run-vm.sh" "$scen" "$out"; then
		end=$(date +%s)
		secs=$((end - start))
		rm -rf "${dest:?}/$name"
		mkdir -p "$dest/$name"
		# The boot log is only kept where it is the output (oops).
		if grep -q '^#@expect panic' "$scen"; then
			cp "$out/console.log" "$dest/$name/console.log"
			# No transfer after a panic: take the version from the log.
			grep -a -m 1 -o 'Linux version .*' "$out/console.log" | tr -d '\r' \
				>"$dest/$name/uname.txt" || true
		fi
		sample=$(sed -n 's/^#@sample[[:space:]]\{1,\}//p' "$scen")
		if [ -n "$sample" ]; then
			size=$(wc -c <"$out/trace.txt")
			[ "$size" -lt 102400 ] || say "$name: trace.txt is $size bytes, big for a sample"
			mkdir -p "$(dirname "$top/$sample")"
			mv "$out/trace.txt" "$top/$sample"
		fi
		(cd "$out" && find . -mindepth 1 -maxdepth 1 ! -name console.log \
			! -name xfer.tar ! -name scenario-rc.txt -exec cp -a {} "$dest/$name/" \;)
		{
			echo "command: tests/vm/run-vm.sh tests/vm/scenarios/$name.sh OUT"
			echo "seconds: $secs"
			echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
			echo "kernel: $kernel"
			echo "qemu: $(qemu-system-x86_64 --version | head -n 1)"
		} >"$dest/$name/run-info.txt"
		say "$name: ok in ${secs}s"
	else
		say "$name: FAILED (kept the old fixture if any)"
		failed="$failed $name"
	fi
done

# ---- tests/data/README.md: the VM section, between markers ----
kver=$(sed -n 1p "$(find "$dest" -name uname.txt | sort | head -n 1)" 2>/dev/null || echo unknown)
qver=$(qemu-system-x86_64 --version | head -n 1)
section=$work/section.md
{
	echo '<!-- vm-fixtures: begin (written by tests/vm/make-fixtures.sh; edit the scenarios instead) -->'
	echo '## vm/: real ftrace output from a kernel booted under qemu'
	echo
	echo "Made by \`tests/vm/make-fixtures.sh\` (run-info.txt in each directory says"
	echo "when and how long it took), which runs"
	echo "\`tests/vm/run-vm.sh tests/vm/scenarios/NAME.sh OUT\` for each scenario:"
	echo "$qver, TCG (\`-accel tcg,thread=single -cpu max -smp 2 -m 512M\`),"
	echo "kernel \`${kernel}\` from Debian's linux-image-cloud-amd64:"
	echo
	echo "    $kver"
	echo
	echo "with a busybox-static initramfs (tests/vm/build-initramfs.sh). The guest"
	echo "runs the scenario, which writes to /out/; /out/ comes back as a tar over a"
	echo "second serial port, checked against the size and sha256 the guest prints."
	echo "Every directory also holds uname.txt, cmdline.txt (kernel command line),"
	echo "available_tracers.txt, trace_options.txt, trace_clock.txt. NAME.options is"
	echo "the trace_options in force for NAME.txt. The workload is busybox ls, cat"
	echo "of /proc and /sys files, echo, usleep, pinned to CPU 0 and CPU 1 with"
	echo "taskset. The trace clock is \"global\": this kernel finds the TSC unstable"
	echo "under TCG and switches away from \"local\" at boot. Single-threaded TCG"
	echo "because with multi-threaded TCG switching the tracer back to nop (code"
	echo "patching on two vCPUs) sometimes hung the guest for good."
	echo
	# Every fixture, not only the ones just re-made.
	for scen in "$here"/scenarios/*.sh; do
		name=$(basename "$scen" .sh)
		[ -d "$dest/$name" ] || continue
		echo "### vm/$name"
		echo
		# The scenario's opening comment says what it makes.
		sed -n '2,/^[^#]/{/^#@/d;/^# shellcheck/d;/^# \{0,1\}/!d;s/^# \{0,1\}//;p}' "$scen"
		echo
		secs=$(sed -n 's/^seconds: //p' "$dest/$name/run-info.txt" 2>/dev/null || true)
		if [ -r "$dest/$name/cmdline.txt" ]; then
			cmdl=$(cat "$dest/$name/cmdline.txt")
		else
			cmdl=$(sed -n 's/.*Command line: //p' "$dest/$name/console.log" 2>/dev/null | head -n 1 | tr -d '\r')
		fi
		echo "- command: \`tests/vm/run-vm.sh tests/vm/scenarios/$name.sh OUT\` (${secs:-?}s here)"
		echo "- kernel command line: \`$cmdl\`"
		for f in set_graph_function set_ftrace_filter set_event; do
			if [ -s "$dest/$name/$f.txt" ]; then
				echo "- $f: \`$(tr -s '\n' ' ' <"$dest/$name/$f.txt" | sed 's/ $//')\`"
			fi
		done
		if [ -r "$dest/$name/missing-options.txt" ]; then
			echo "- options this kernel lacks (no capture made): $(tr '\n' ' ' <"$dest/$name/missing-options.txt" | sed 's/ $//')"
		fi
		echo "- files:"
		(cd "$dest/$name" && find . -type f | sed 's|^\./||' | sort | while read -r f; do
			# shellcheck disable=SC2016
			printf '  - `%s` (%s bytes)\n' "$f" "$(wc -c <"$f" | tr -d ' ')"
		done)
		echo
	done
	echo '<!-- vm-fixtures: end -->'
} >"$section"

if [ -r "$readme" ] && grep -q '^<!-- vm-fixtures: begin' "$readme"; then
	awk -v sect="$section" '
		/^<!-- vm-fixtures: begin/ { while ((getline l < sect) > 0) print l; skip = 1; next }
		/^<!-- vm-fixtures: end/ { skip = 0; next }
		!skip { print }' "$readme" >"$work/README.new"
else
	{
		if [ -r "$readme" ]; then
			cat "$readme"
			echo
		else
			echo '# Test fixtures'
			echo
			echo 'Small inputs the project made itself. Each section says how.'
			echo
		fi
		cat "$section"
	} >"$work/README.new"
fi
mv "$work/README.new" "$readme"

total_kb=$(du -sk "$dest" | cut -f1)
say "tests/data/vm is ${total_kb} KiB"
if [ "$total_kb" -gt "$max_total_kb" ]; then
	say "warning: over ${max_total_kb} KiB; shrink the scenarios"
fi
if [ -n "$failed" ]; then
	say "failed:$failed"
	exit 1
fi
