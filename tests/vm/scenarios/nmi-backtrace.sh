#!/bin/sh
# Kernel-mode registers from the rig: CPU 1 is kept busy in the kernel
# (dd from /dev/urandom: chacha20, get_random_bytes_user) while the uhid
# keyboard types Alt+SysRq+C on CPU 0, as in oops-module. panic_print=0x40
# makes the panic send an NMI to CPU 1, which prints its registers with a
# real "RIP: 0010:func+off/size" and its call trace, beside the panic's
# own trace through uhid_char_write [uhid] and hid_safe_input_report [hid].
# Where the RIP lands varies from run to run (chacha_permute, C, or
# copy_user_enhanced_fast_string, assembly); tests take it from the log.
# console.log is the output. Helpers and modules come from
# helpers/uhid-setup.sh.
#@setup helpers/uhid-setup.sh
#@cmdline panic_print=0x40
#@expect panic
#@timeout 240
# shellcheck source=SCRIPTDIR/../guest-lib.sh
. /guest-lib.sh
set -eu
uhid_keyboard_setup
taskset -c 1 dd if=/dev/urandom of=/dev/null bs=64k 2>/dev/null &
sleep 1
echo "FTLENS-VM: crashing now"
taskset -c 0 uhid-sysrq
