#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Fills EXTRA_DIR for the oops-module and nmi-backtrace scenarios: a
# static uhid-sysrq and the HID modules of the kernel being booted (hid,
# hid-generic, uhid), taken from /lib/modules/RELEASE (the release is the
# kernel file's suffix).
# usage: uhid-setup.sh EXTRA_DIR KERNEL. Exit 77 when gcc -static or the
# modules are missing.
set -eu
me=${0##*/}
here=$(cd "$(dirname "$0")" && pwd)
extra=$1
kernel=$2
rel=${kernel##*/vmlinuz-}
mods=/lib/modules/$rel/kernel/drivers/hid
for m in hid hid-generic uhid; do
	[ -r "$mods/$m.ko" ] || { echo "$me: no $mods/$m.ko" >&2; exit 77; }
done
command -v gcc >/dev/null 2>&1 || { echo "$me: no gcc" >&2; exit 77; }
mkdir -p "$extra/usr/bin" "$extra/lib/modules"
gcc -static -O2 -o "$extra/usr/bin/uhid-sysrq" "$here/uhid-sysrq.c" ||
	{ echo "$me: gcc -static failed (libc6-dev)" >&2; exit 77; }
for m in hid hid-generic uhid; do
	cp "$mods/$m.ko" "$extra/lib/modules/"
done
