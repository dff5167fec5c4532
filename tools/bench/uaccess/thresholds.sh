#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# usage: tools/bench/uaccess/thresholds.sh [--quick] [--cpu N] [OLD=<tree>] [NEW=<tree>]
#
# Compare the short-copy threshold of NEW's rep_movs_alternative (64) with
# 32 and 128: thresholds/<T>.patch turns NEW's arch/x86/lib/copy_user_64.S
# into the variant with threshold T (32: lengths 32..63 go back to the word
# loop; 128: lengths 64..127 also take unrolled moves instead of rep movsb).
# Each variant is written to a temporary tree, checked (bench --check) and
# timed against OLD with run.sh; the lines that decide are printed.
set -eu

USAGE_LINES=4
. "$(dirname "$0")/lib.sh"

OLD=$TOP/build/debian/old/src
NEW=$TOP/build/debian/new/src
ARGS=()
while [ $# -gt 0 ]; do
	case $1 in
	--quick) ARGS+=(--quick) ;;
	--cpu)
		[ $# -ge 2 ] || usage
		ARGS+=(--cpu "$2")
		shift
		;;
	*) common_arg "$1" ;;
	esac
	shift
done
src=$NEW/arch/x86/lib/copy_user_64.S
[ -f "$src" ] || die "$src not found"
if ! grep -q 'cmpq [$]64,%rcx' "$src" || ! grep -q COPY_HEAD "$src"; then
	die "$src is not the 64-byte short-copy version these patches apply to"
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "# $PROG ${ARGS[*]} OLD=$OLD NEW=$NEW"
for t in 32 64 128; do
	mkdir -p "$tmp/t$t/arch/x86/lib"
	cp "$src" "$tmp/t$t/arch/x86/lib/copy_user_64.S"
	if [ "$t" != 64 ]; then
		patch -s -d "$tmp/t$t" -p1 <"$HERE/thresholds/$t.patch" ||
			die "thresholds/$t.patch does not apply"
	fi
	"$HERE/run.sh" --no-callgrind "${ARGS[@]}" OLD="$OLD" NEW="$tmp/t$t" >"$tmp/out$t"
	grep -q '^check: all ok' "$tmp/out$t" ||
		{ cat "$tmp/out$t"; die "threshold $t fails bench --check"; }
done

# first table of each run: the plain-ret one (the lfence ones follow later)
row() { # file label -> the first line starting with label
	awk -v l="$2" 'index($0, l) == 1 { print; exit }' "$1"
}
lrow() { # the same in the lfence half of run.sh's output
	awk -v l="$2" '/^######## the same/ { f = 1 } f && index($0, l) == 1 { print; exit }' "$1"
}
echo
echo "== threshold: 32 / 64 / 128 (new column; old and rep movsb from the same run) =="
printf '%-9s | %-55s\n' threshold "line of bench's output"
for label in "avg<64 " "avg64+ " " 0..63 |" "0..127 |" "0..255 |" "fixed, SRSO thunk " \
	"random 0..63, SRSO" "  4096 |" " 65536 |"; do
	for t in 32 64 128; do
		printf '%-9s | %s\n' "$t" "$(row "$tmp/out$t" "$label")"
	done
done
if grep -q '^######## the same' "$tmp/out64"; then
	echo
	echo "== the same with an lfence after every copy =="
	for label in "avg<64 " "avg64+ " " 0..63 |" "0..127 |" "0..255 |"; do
		for t in 32 64 128; do
			printf '%-9s | %s\n' "$t" "$(lrow "$tmp/out$t" "$label")"
		done
	done
fi
echo "# avg<64 / avg64+: fixed length, plain ret, 0..63 and 64..127 (step 8);"
echo "# 0..63 / 0..127 / 0..255: random length, uniform in that range, plain ret"
