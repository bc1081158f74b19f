#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Install what the VM rig needs (qemu, a Debian cloud kernel, busybox-static,
# cpio) if missing, then print the path of the newest cloud kernel.
# Idempotent; never prompts. Exit 77 when the tools cannot be had.
set -eu

PKGS="qemu-system-x86 linux-image-cloud-amd64 busybox-static cpio"

say() { printf '%s\n' "setup.sh: $*" >&2; }

have_pkg() {
	dpkg-query -W -f='${Status}\n' "$1" 2>/dev/null | grep -q '^install ok installed$'
}

find_kernel() {
	# Newest first by version sort; only cloud kernels (small, fast to boot).
	# shellcheck disable=SC2012
	ls -1 /boot/vmlinuz-*-cloud-amd64 2>/dev/null | sort -V | tail -n 1
}

missing=""
for p in $PKGS; do
	have_pkg "$p" || missing="$missing $p"
done

if [ -n "$missing" ]; then
	if [ "$(id -u)" -ne 0 ]; then
		say "need root to install:$missing"
		exit 77
	fi
	if ! command -v apt-get >/dev/null 2>&1; then
		say "no apt-get; install by hand:$missing"
		exit 77
	fi
	export DEBIAN_FRONTEND=noninteractive DEBCONF_NONINTERACTIVE_SEEN=true
	export APT_LISTCHANGES_FRONTEND=none NEEDRESTART_MODE=a
	# The kernel package's postinst runs the initramfs and bootloader hooks
	# (/etc/kernel/postinst.d). Without grub they are no-ops; with it they
	# run unattended under the settings above. Either way the host is not
	# booted from this kernel: only its vmlinuz is used.
	apt_opts="-y -q -o Dpkg::Options::=--force-confdef -o Dpkg::Options::=--force-confold --no-install-recommends"
	# shellcheck disable=SC2086
	if ! apt-get install $apt_opts $missing >/dev/null 2>&1; then
		say "apt-get install failed, updating package lists first"
		apt-get update -q >/dev/null 2>&1 || say "apt-get update failed"
		# shellcheck disable=SC2086
		if ! apt-get install $apt_opts $missing; then
			say "could not install:$missing"
			exit 77
		fi
	fi
fi

command -v qemu-system-x86_64 >/dev/null 2>&1 || { say "qemu-system-x86_64 not found"; exit 77; }
[ -x /bin/busybox ] || { say "/bin/busybox not found"; exit 77; }
kernel=$(find_kernel)
if [ -z "$kernel" ] || [ ! -r "$kernel" ]; then
	say "no readable /boot/vmlinuz-*-cloud-amd64"
	exit 77
fi
printf '%s\n' "$kernel"
