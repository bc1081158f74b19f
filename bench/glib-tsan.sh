#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# GLib and GObject built with ThreadSanitizer, from Debian's source of the
# version installed, for bench/race-tsan.sh -g (issue 31 item 5: "a
# ThreadSanitizer build with an instrumented GLib"). With them TSan sees
# GLib's own mutexes, conditions, queues and thread pools, and no shim or
# suppression stands between it and a race in or through GLib.
#
# usage: bench/glib-tsan.sh SRC OUT
#   SRC  the unpacked source: apt-get source glib2.0 (a deb-src line is
#        needed for it), e.g. glib2.0-2.74.6
#   OUT  the build directory; the libraries land in OUT/glib and
#        OUT/gobject (LD_LIBRARY_PATH for ftlens)
# Needs clang (the TSan runtime is the one linked into ftlens's clang
# build), meson and ninja.
set -eu
[ $# -eq 2 ] || { sed -n 's/^# \{0,1\}//; /^usage/,/^Needs/p' "$0" >&2; exit 2; }
src=$1 out=$2
# b_lundef=false: a shared library's TSan calls resolve in the program
CC=clang meson setup "$out" "$src" --buildtype=debugoptimized -Db_sanitize=thread \
	-Db_lundef=false -Dtests=false -Dinstalled_tests=false -Dselinux=disabled \
	-Dlibmount=disabled -Dxattr=false -Dnls=disabled -Dman=false -Dgtk_doc=false \
	-Dlibelf=disabled -Dsysprof=disabled -Ddtrace=false -Dsystemtap=false >/dev/null
meson compile -C "$out" glib-2.0 gobject-2.0
ls "$out"/glib/libglib-2.0.so.0 "$out"/gobject/libgobject-2.0.so.0
