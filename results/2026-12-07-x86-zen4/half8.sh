#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# usage: results/2026-12-07-x86-zen4/half8.sh [--runs N] OLD=<6.12 tree>
#            NEW=<tree> [VARIANT...]
#
# The one mix of tools/bench/uaccess/mixes.sh where NEW was slower than
# 6.12 beyond the A/A: 8 bytes or 64..511, half and half (half8).  This
# takes it apart: the same seed (lib.sh's mix_lengths, mixes.sh's too) gives
#   half8   8, or 64..511                (mixes.sh's half8)
#   large   64..511 alone                (the long half)
#   e8or64  8 or 64                      (no rep movsb length spread)
#   h3 h16 h40  3, 16 or 40, or 64..511  (other short halves)
# and mixes.sh --lengths times them, OLD against NEW and against itself
# (--aa), then OLD against each VARIANT (variants/variant.sh: c-X, n-X,
# p-X or LABEL=N[,..]: NEW with .p2align N in front of LABEL).  Printed: the
# plain-ret lines of mixes.sh (median of --runs, default 11) per tree.
set -eu

USAGE_LINES=4,5
# usage, die, kernel_trees, patch_at, mix_lengths (lib.sh's TOP is three levels up
# from the script; this one is two)
# shellcheck source=../../tools/bench/uaccess/lib.sh
. "$(dirname "$0")/../../tools/bench/uaccess/lib.sh"
TOP=$(cd "$HERE/../.." && pwd)
# shellcheck source=variants/variant.sh
. "$(dirname "$0")/variants/variant.sh"

OLD='' NEW='' RUNS=11
VARS=()
while [ $# -gt 0 ]; do
	case $1 in
	--runs)
		[ $# -ge 2 ] || usage
		RUNS=$2
		shift
		;;
	*)
		if is_variant "$1"; then VARS+=("$1"); else common_arg "$1"; fi
		;;
	esac
	shift
done
if [ -z "$OLD" ] || [ -z "$NEW" ]; then usage; fi
case $RUNS in '' | *[!0-9]* | 0) die "--runs: '$RUNS' is not a positive number" ;; esac
kernel_trees

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/len"
for m in half8 large e8or64 h3 h16 h40; do
	mix_lengths "$m" >"$tmp/len/$m.len"
done

echo "# $PROG --runs $RUNS OLD=$OLD NEW=$NEW ${VARS[*]}"
one() { # label tree
	echo "## $1"
	"$TOP/tools/bench/uaccess/mixes.sh" --runs "$RUNS" --aa --lengths "$tmp/len" OLD="$OLD" NEW="$2" |
		awk '/^# cpu:/ || / plain +median/ || /^slower than old/' ||
		die "mixes.sh failed ($1)"
}
one NEW "$NEW"
i=0
for v in "${VARS[@]}"; do
	i=$((i + 1))
	make_variant "$tmp/v$i" "$v"
	one "$v" "$tmp/v$i"
done
