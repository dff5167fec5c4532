#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# usage: tools/bench/uaccess/kernel-layout.sh [KSRC=<tree>] IMAGE
#   IMAGE: a vmlinux, a vmlinuz/bzImage, a linux-image .deb, or the
#   object file arch/x86/lib/copy_user_64.o
#
# Where a built kernel puts rep_movs_alternative(), in the terms of the
# model's layouts (Makefile: *_ENTRY_OFF, RET_BYTES, ENDBR): the entry's
# offset in its 64-byte cache line, whether it starts with endbr64
# (CONFIG_X86_KERNEL_IBT), the padding in front of it (CONFIG_CALL_PADDING)
# and the size of its first return (1: ret, 2: ret; int3, 5: a jmp to the
# return thunk, CONFIG_MITIGATION_RETHUNK, which apply_returns() turns
# into ret and four int3 on CPUs that need no thunk).  The bench's
# layouts are otherwise a choice; this reads the one a distribution ships.
#
# The routine is found by its symbol, or, in a stripped image (a
# distribution's vmlinuz), by the code bytes of 6.12's entry (cmp $64,
# %rcx; jae; cmp $8,%ecx; jae; test %ecx,%ecx; je; movb (%rsi),%al): the
# layout read there is 6.12's, which a patched routine without .p2align
# (the first version of patch 8) inherits, while one with .p2align 6
# lands at 0, or at 16 behind CONFIG_CALL_PADDING's padding.
# A vmlinuz is decompressed with KSRC's scripts/extract-vmlinux (default:
# the harness's base tree); a .deb is unpacked with dpkg-deb.
# What is read is the image: at boot an endbr64 may be sealed into a
# 4-byte nop and a return-thunk jmp patched, neither of which moves a
# byte.  The first return is the first ret, or the first jmp out of the
# routine (a tail call would count too; 6.12's routine has none); the
# padding is the run of nop and int3 right in front (it may include the
# fill that aligns it), for information.
set -eu

USAGE_LINES=4,6
. "$(dirname "$0")/lib.sh"

KSRC=$TOP/build/debian/old/src
IMAGE=
while [ $# -gt 0 ]; do
	case $1 in
	KSRC=?*) KSRC=${1#KSRC=} ;;
	-h | --help) usage ;;
	-*)
		echo "$PROG: unknown argument '$1'" >&2
		usage
		;;
	*)
		[ -z "$IMAGE" ] || usage
		IMAGE=$1
		;;
	esac
	shift
done
[ -n "$IMAGE" ] || usage
ARG=$IMAGE
[ -f "$IMAGE" ] || die "$IMAGE: no such file"
command -v objdump >/dev/null || die "objdump not found (binutils)"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# IMAGE -> an ELF vmlinux in $elf
elf=$IMAGE
how=
case $IMAGE in
*.deb)
	dpkg-deb -x "$IMAGE" "$tmp/deb" || die "$IMAGE: dpkg-deb cannot unpack it"
	set -- "$tmp"/deb/boot/vmlinuz-*
	[ -f "$1" ] || die "$IMAGE: no boot/vmlinuz-* in the package"
	IMAGE=$1
	how="boot/$(basename "$1") of the package, "
	;;
esac
if ! head -c 4 "$IMAGE" | grep -q 'ELF'; then
	x=$KSRC/scripts/extract-vmlinux
	[ -f "$x" ] || die "$x: not found (KSRC=<kernel tree> to decompress $IMAGE)"
	if ! sh "$x" "$IMAGE" >"$tmp/vmlinux" 2>"$tmp/err" || [ ! -s "$tmp/vmlinux" ]; then
		die "$IMAGE: not an ELF, and extract-vmlinux cannot decompress it"
	fi
	elf=$tmp/vmlinux
	how="${how}decompressed"
fi
how=${how:-ELF}

# the entry address
size=256
read -r addr sz < <(nm -S "$elf" 2>/dev/null |
	awk '$4 == "rep_movs_alternative" { print $1, $2; exit }') || true
if [ -n "$addr" ]; then
	found="its symbol"
	size=$((0x$sz))
else
	# a stripped image: the file offset of 6.12's entry, then its address
	off=$(LC_ALL=C grep -obUaP '(?s)\x48\x83\xf9\x40\x73.\x83\xf9\x08\x73.\x85\xc9\x74.\x8a\x06\x88\x07' "$elf" |
		cut -d: -f1)
	case $off in
	'') die "$IMAGE: no symbol rep_movs_alternative and no 6.12 entry bytes" ;;
	*[!0-9]*) die "$IMAGE: 6.12's entry bytes found more than once ($(echo "$off" | tr '\n' ' '))" ;;
	esac
	addr=
	while read -r fo va sz; do
		if [ "$off" -ge $((fo)) ] && [ "$off" -lt $((fo + sz)) ]; then
			addr=$(printf '%x' $((va + off - fo)))
			break
		fi
	done < <(readelf -lW "$elf" | awk '$1 == "LOAD" { print $2, $3, $5 }')
	[ -n "$addr" ] || die "$IMAGE: offset $off lies in no LOAD segment"
	# endbr64 in front of the cmp is the entry
	if [ "$(od -An -tx1 -j $((off - 4)) -N 4 "$elf" | tr -d ' \n')" = f30f1efa ]; then
		addr=$(printf '%x' $((0x$addr - 4)))
	fi
	found="6.12's code bytes (stripped image)"
fi

# (bash arithmetic is signed: kernel addresses print back unsigned with printf)
a=$((0x$addr))
addr=$(printf '%016x' "$a")
from=$((a - 64))
[ "$a" -lt 0 ] || [ "$a" -ge 64 ] || from=0
# two ranges, so that the routine's own instructions are decoded from its
# entry even where the bytes in front do not decode in step (no symbols)
dis() {
	objdump -dr -j .text --no-show-raw-insn --start-address="$(printf '0x%x' "$1")" \
		--stop-address="$(printf '0x%x' "$2")" "$elf" 2>/dev/null ||
		die "objdump cannot disassemble $IMAGE at 0x$addr"
}
{
	[ "$from" = "$a" ] || dis "$from" "$a"
	dis "$a" $((a + size))
} >"$tmp/dis"
# an object file: the offset is the section's, a line's only if the section
# is aligned to 64 (.p2align 6 in the file)
rel=
if readelf -hW "$elf" | grep -q 'Type: *REL '; then
	al=$(readelf -SW "$elf" | awk '/ \.text / { print $NF; exit }')
	rel="object file: offsets in .text, aligned to ${al:-?} bytes"
	[ "${al:-0}" -ge 64 ] 2>/dev/null || rel="$rel (the line's offset is the linker's choice)"
fi

# addresses are compared as 16-digit hex strings (awk's numbers are doubles)
awk -v a="$(printf '%016x' "$a")" -v end="$(printf '%016x' $((a + size)))" \
	-v pos=$((0x${addr: -2} % 64)) -v found="$found" -v img="$ARG" -v how="$how" -v rel="$rel" '
	function h16(s) { sub(/^0x/, "", s); while (length(s) < 16) s = "0" s; return s }
	function low(s,  i, v) {	# the last 4 hex digits as a number
		for (i = 13; i <= 16; i++) v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
		return v
	}
	# an object file: a jmp relocated to the return thunk
	/^\t+[0-9a-f]+: R_X86_64_[A-Z0-9]+\t.*return_thunk/ { if (jmpat && !ret) { ret = 5; retat = jmpat } next }
	/^ *[0-9a-f]+:\t/ {
		jmpat = ""
		split($0, f, "\t"); x = f[1]; sub(/:$/, "", x); sub(/^ +/, "", x)
		at = h16(x); ins = f[2]
		if (at < a) {	# the run of nops or int3s right in front of the entry
			if (ins ~ /^(nop|int3)/) { if (run == "") run = at } else run = ""
			next
		}
		if (at == a) endbr = ins ~ /^endbr64/ ? "yes" : "no"
		if (ret) next
		if (retat) {	# after a ret: its int3s (SLS, or a patched thunk jmp)
			if (ins ~ /^int3/) { n3++; next }
			ret = 1 + n3; next
		}
		if (ins ~ /^ret/) { retat = x; next }
		if (ins ~ /^jmpq? +(0x)?[0-9a-f]+/) {
			jmpat = x
			split(ins, j, " "); t = h16(j[2])
			if (t < a || t >= end) { ret = 5; retat = x }
		}
	}
	END {
		if (endbr == "") { print "no instruction at the entry " a > "/dev/stderr"; exit 1 }
		printf "image: %s (%s)\n", img, how
		if (rel != "") print rel
		printf "rep_movs_alternative at %s, found by %s\n", a, found
		printf "entry: %d bytes into its 64-byte line; endbr64: %s; padding in front: %d bytes (of the 64 read)\n",
			pos, endbr, run != "" ? (low(a) - low(run) + 65536) % 65536 : 0
		if (retat && !ret) ret = 1 + n3
		if (ret) printf "first return at %s: %d bytes (%s)\n", retat, ret,
			!n3 && ret == 5 ? "jmp to the return thunk" : ret == 1 ? "ret" : "ret and " n3 " int3"
		else print "first return: not found"
		printf "model layout: ENTRY_OFF=%d RET_BYTES=%s ENDBR=%d\n", pos, ret ? ret : "?", endbr == "yes"
	}' "$tmp/dis"
