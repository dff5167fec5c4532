#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# usage: tools/bench/uaccess/distro-layout.sh [--version V] [--package P]
#            OLD=<6.12 tree> NEW=<tree>
#
# The layout Debian's own amd64 kernel gives rep_movs_alternative(), 6.12's
# and NEW's, as margins.sh --layout takes it (OLD_OFF,NEW_OFF,RET,ENDBR):
#  - 6.12's: read off the vmlinuz of Debian's linux-image package of
#    version V (default: the base-version this series is exported on;
#    fetched with apt-get download) by kernel-layout.sh;
#  - NEW's: its copy_user_64.o built with that package's config (make
#    olddefconfig, then the one object, in a scratch O= directory: a
#    few minutes, for scripts/ and objtool), read by kernel-layout.sh.
#    NEW aligns its entry itself, so its place in the line does not
#    depend on what is linked before it; 6.12's does, and the first
#    version of patch 8 (no .p2align) would inherit it.
# P: the package name (default linux-image-<upstream>+deb<N>-amd64-unsigned
# for a version <upstream>-<rev>~deb<N>u<M>).
set -eu -o pipefail

USAGE_LINES=4,5
. "$(dirname "$0")/lib.sh"
# shellcheck source=../../lib/base-version.sh
. "$TOP/tools/lib/base-version.sh"

VERSION=$(recorded_base "$TOP/base-version")
PKG=
OLD=
NEW=
while [ $# -gt 0 ]; do
	case $1 in
	--version | --package)
		[ $# -ge 2 ] || usage
		case $1 in --version) VERSION=$2 ;; --package) PKG=$2 ;; esac
		shift
		;;
	*) common_arg "$1" ;;
	esac
	shift
done
if [ -z "$OLD" ] || [ -z "$NEW" ]; then usage; fi
case $VERSION in
'' | *[!0-9A-Za-z.+~:-]*) die "--version: '$VERSION' is not a Debian version" ;;
esac
if [ -z "$PKG" ]; then
	case $VERSION in
	*-*~deb[0-9]*u[0-9]*)
		n=${VERSION##*~deb}
		PKG=linux-image-${VERSION%%-*}+deb${n%%u*}-amd64-unsigned
		;;
	*) die "--version $VERSION: no ~debNuM suffix to name the package from (--package P)" ;;
	esac
fi
kernel_trees
K=$HERE/kernel-layout.sh

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "# $PROG --version $VERSION --package $PKG OLD=$OLD NEW=$NEW"

echo "fetching $PKG=$VERSION" >&2
(cd "$tmp" && apt-get download "$PKG=$VERSION" >"$tmp/apt.log" 2>&1) ||
	die "apt-get download $PKG=$VERSION failed: $(tail -1 "$tmp/apt.log")"
deb=$(echo "$tmp"/*.deb)
[ -f "$deb" ] || die "apt-get download left no .deb"
dpkg-deb -x "$deb" "$tmp/x" || die "$deb: dpkg-deb cannot unpack it"
cfg=$(echo "$tmp"/x/boot/config-*)
[ -f "$cfg" ] || die "$deb: no boot/config-*"

echo
echo "## 6.12's routine in the package's vmlinuz"
"$K" KSRC="$OLD" "$deb" | tee "$tmp/old"

echo "building NEW's copy_user_64.o with the package's config (scratch O=)" >&2
o=$tmp/obj
mkdir -p "$o"
cp "$cfg" "$o/.config"
# (prepare in parallel, the object alone: a single-object target built
# with -j can run its recipe twice at once, and the two race)
if ! make -C "$NEW" O="$o" olddefconfig >"$tmp/make.log" 2>&1 ||
	! make -C "$NEW" O="$o" -j"$(nproc)" prepare >>"$tmp/make.log" 2>&1 ||
	! make -C "$NEW" O="$o" arch/x86/lib/copy_user_64.o >>"$tmp/make.log" 2>&1; then
	tail -20 "$tmp/make.log" >&2
	die "cannot build NEW's copy_user_64.o with $(basename "$cfg")"
fi
echo
echo "## NEW's routine in copy_user_64.o built with $(basename "$cfg")"
grep -E '^CONFIG_(X86_KERNEL_IBT|CALL_PADDING|FUNCTION_ALIGNMENT|MITIGATION_RETHUNK)=' "$o/.config" |
	sed 's/^/# /'
"$K" "$o/arch/x86/lib/copy_user_64.o" | tee "$tmp/new"

for f in old new; do
	grep -q '^model layout: ENTRY_OFF=[0-9]* RET_BYTES=[125] ENDBR=[01]$' "$tmp/$f" ||
		die "kernel-layout.sh gave no complete layout for $f's routine"
done
field() { sed -n "s/^model layout: .*$1=\([0-9?]*\).*/\1/p" "$2"; }
lo=$(field ENTRY_OFF "$tmp/old") ln=$(field ENTRY_OFF "$tmp/new")
r=$(field RET_BYTES "$tmp/old") e=$(field ENDBR "$tmp/old")
if [ "$r" != "$(field RET_BYTES "$tmp/new")" ] || [ "$e" != "$(field ENDBR "$tmp/new")" ]; then
	die "6.12's and NEW's RET or endbr64 differ: not one layout"
fi
grep -q 'aligned to 64 bytes' "$tmp/new" ||
	die "NEW's .text is not aligned to 64: its entry's offset is the linker's choice"
echo
echo "margins.sh --layout $lo,$ln,$r,$e"
