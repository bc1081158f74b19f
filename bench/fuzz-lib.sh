# SPDX-License-Identifier: GPL-2.0-or-later
# What bench/fuzz.sh and bench/fuzz-cost.sh share (sourced, POSIX sh).

# max_len TARGET: libFuzzer's -max_len for it. Inputs bigger than a
# fixture's useful part only slow a target down.
max_len() {
	case $1 in
	tracedat) echo 65536 ;;
	rawdir) echo 32768 ;;
	percpu | console) echo 8192 ;;
	options | filter) echo 512 ;;
	index) echo 16384 ;;
	tui) echo 2048 ;;
	*) echo 4096 ;;
	esac
}
