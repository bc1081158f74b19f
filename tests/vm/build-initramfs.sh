#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Build a busybox-static initramfs for the ftrace VM rig.
#
# usage: build-initramfs.sh [--scenario FILE] [--with-binary PATH]... OUT.cpio.gz [EXTRA_DIR]
#
# The /init it writes mounts proc, sysfs, devtmpfs and tracefs, runs
# /scenario.sh (which writes its results under /out/), ships /out/ to the
# host as a tar stream on the second serial port (/dev/ttyS1), prints an end
# marker on the console and powers off. EXTRA_DIR, when given, is copied
# into the initramfs root; each --with-binary PATH is copied to /usr/bin/
# together with the shared libraries ldd lists for it.
set -eu

me=${0##*/}
die() { printf '%s: %s\n' "$me" "$*" >&2; exit 1; }
usage() { die "usage: $me [--scenario FILE] [--with-binary PATH]... OUT.cpio.gz [EXTRA_DIR]"; }

scenario=""
binaries=""
while [ $# -gt 0 ]; do
	case $1 in
	--scenario) [ $# -ge 2 ] || usage; scenario=$2; shift 2 ;;
	--scenario=*) scenario=${1#*=}; shift ;;
	--with-binary) [ $# -ge 2 ] || usage; binaries="$binaries
$2"; shift 2 ;;
	--with-binary=*) binaries="$binaries
${1#*=}"; shift ;;
	--) shift; break ;;
	-*) usage ;;
	*) break ;;
	esac
done
if [ $# -lt 1 ] || [ $# -gt 2 ]; then usage; fi
out=$1
extra=${2:-}

busybox=${BUSYBOX:-/bin/busybox}
[ -x "$busybox" ] || die "$busybox not found (apt-get install busybox-static)"
# A dynamic busybox would need its libraries too; insist on the static one.
if command -v file >/dev/null 2>&1 && file -L "$busybox" | grep -q dynamic; then
	die "$busybox is dynamically linked; install busybox-static"
fi
command -v cpio >/dev/null 2>&1 || die "cpio not found"
[ -z "$scenario" ] || [ -r "$scenario" ] || die "cannot read scenario $scenario"
[ -z "$extra" ] || [ -d "$extra" ] || die "EXTRA_DIR $extra is not a directory"

root=$(mktemp -d "${TMPDIR:-/tmp}/ftlens-initramfs.XXXXXX")
trap 'rm -rf "$root"' EXIT INT TERM

mkdir -p "$root/bin" "$root/sbin" "$root/usr/bin" "$root/usr/sbin" "$root/dev" \
	"$root/proc" "$root/sys" "$root/tmp" "$root/out" "$root/etc" "$root/root"
cp "$busybox" "$root/bin/busybox"
for applet in $("$busybox" --list); do
	[ "$applet" = busybox ] || ln -s busybox "$root/bin/$applet"
done
# The kernel's built-in cpio usually provides these, but do not rely on it.
if [ "$(id -u)" -eq 0 ]; then
	mknod -m 600 "$root/dev/console" c 5 1
	mknod -m 666 "$root/dev/null" c 1 3
fi
printf 'root:x:0:0:root:/root:/bin/sh\n' >"$root/etc/passwd"
printf 'root:x:0:\n' >"$root/etc/group"

# copy_with_libs PATH: the binary into /usr/bin, its libraries (and the ELF
# interpreter) at their host paths so the host's ld.so finds them as-is.
copy_with_libs() {
	bin=$1
	[ -x "$bin" ] || die "--with-binary $bin: not an executable"
	cp -L "$bin" "$root/usr/bin/"
	# ldd prints "name => /path (addr)", "/path (addr)" or "statically linked".
	# (IFS is set here: the caller loops with IFS=newline.)
	ldd "$bin" 2>/dev/null | while IFS=' 	' read -r a b c _; do
		case $b in
		"=>") lib=$c ;;
		*) lib=$a ;;
		esac
		case $lib in
		/*) ;;
		*) continue ;;
		esac
		[ -e "$lib" ] || continue
		mkdir -p "$root$(dirname "$lib")"
		cp -L "$lib" "$root$lib"
	done
}

old_ifs=$IFS
IFS='
'
for b in $binaries; do
	[ -n "$b" ] && copy_with_libs "$b"
done
IFS=$old_ifs

if [ -n "$extra" ]; then
	# Trailing /. copies the contents, dotfiles included.
	cp -a "$extra/." "$root/"
fi
cp "$(dirname "$0")/guest-lib.sh" "$root/guest-lib.sh"
if [ -n "$scenario" ]; then
	cp "$scenario" "$root/scenario.sh"
fi
[ -e "$root/scenario.sh" ] || printf '#!/bin/sh\necho "no scenario given"\n' >"$root/scenario.sh"
chmod 755 "$root/scenario.sh"

cat >"$root/init" <<'INIT'
#!/bin/sh
# /init of the ftlens VM rig (see tests/vm/build-initramfs.sh).
export PATH=/usr/bin:/usr/sbin:/bin:/sbin
export HOME=/root
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev 2>/dev/null
mount -t tracefs nodev /sys/kernel/tracing
mount -t tmpfs tmpfs /tmp
exec </dev/console >/dev/console 2>&1
mkdir -p /out
uname -a >/out/uname.txt
cat /proc/version >>/out/uname.txt
cat /proc/cmdline >/out/cmdline.txt
echo "FTLENS-VM: scenario start: $(uname -r) cpus=$(nproc)"
cd /out || exit 1
sh /scenario.sh
rc=$?
cd /
echo "FTLENS-VM: scenario exit $rc"
echo "$rc" >/out/scenario-rc.txt
# Ship /out as one tar stream on the second serial port. raw -echo turns
# off output post-processing (no NL->CRNL), so the host file is byte-exact;
# the size and checksum printed here let the host verify that.
tar -C /out -cf /tmp/out.tar .
size=$(wc -c </tmp/out.tar)
sum=$(sha256sum /tmp/out.tar)
if [ -c /dev/ttyS1 ] &&
	(stty raw -echo -ixon -ixoff && cat /tmp/out.tar) </dev/ttyS1 >/dev/ttyS1; then
	echo "FTLENS-VM: xfer tar size=$size sha256=${sum%% *}"
else
	echo "FTLENS-VM: no /dev/ttyS1, no transfer"
fi
sync
echo "FTLENS-VM: end"
poweroff -f
INIT
chmod 755 "$root/init"

(cd "$root" && find . -print | sort | cpio -o -H newc --quiet -R 0:0) | gzip -1 >"$out.tmp"
mv "$out.tmp" "$out"
