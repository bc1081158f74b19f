#!/bin/sh
# `ftlens arm-oops` in a real kernel, then a crash: the kernel prints the
# ring buffer arm-oops prepared (function_graph, sched events, the markers
# examples/simple_trace wrote through libftlens-marker) to the console before
# it dies. Needs run-vm.sh --with-binary for ftlens and simple_trace (the
# sanitizer builds run as they are; leak checking is off in the guest, which
# never exits those programs in a way worth checking). No ftrace_dump_on_oops
# on the command line: arm-oops sets it. console.log is the output.
#@expect panic
#@timeout 240
# shellcheck source=SCRIPTDIR/../guest-lib.sh
. /guest-lib.sh
set -eu
export ASAN_OPTIONS=detect_leaks=0 FTLENS_STATE_DIR=/tmp/ftlens-state
reset_tracing
# function_graph on every function is far too slow under TCG: a few roots
# (arm-oops leaves set_graph_function alone).
set_graph ksys_read do_sys_openat2 __handle_sysrq
w 4 max_graph_depth
echo "scenario: ftrace_enabled before: $(cat /proc/sys/kernel/ftrace_enabled)"
ftlens arm-oops -p function_graph -e sched -b 16
echo "scenario: ftrace_enabled after: $(cat /proc/sys/kernel/ftrace_enabled)"
echo "scenario: ftrace_dump_on_oops: $(cat /proc/sys/kernel/ftrace_dump_on_oops)"
# No FTLENS_TRACE_MARKER: the library finds tracefs in /proc/mounts. The
# crash follows at once: a 16 KiB buffer holds only the last moments.
simple_trace --keep-on arm-oops-vm
# Through printk, not the tty: the console prints kernel records in order,
# while a tty write still queued for the UART may come out after the oops,
# or never.
echo "FTLENS-VM: crashing now" >/dev/kmsg
echo c >/proc/sysrq-trigger
