#!/bin/sh
# A panic whose call trace goes through modules: a keyboard made with
# /dev/uhid types Alt+SysRq+C, so sysrq_handle_crash runs under
# uhid_char_write [uhid] and hid_safe_input_report [hid]. console.log is the
# output. The helper and the modules come from helpers/uhid-setup.sh.
#@setup helpers/uhid-setup.sh
#@expect panic
#@timeout 240
# shellcheck source=SCRIPTDIR/../guest-lib.sh
. /guest-lib.sh
set -eu
uhid_keyboard_setup
echo "FTLENS-VM: crashing now"
uhid-sysrq
