#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# usage: results/2026-12-07-x86-zen4/variants/against-new.sh [--runs N]
#            [--full] OLD=<6.12 tree> NEW=<tree> VARIANT...
#
# Each VARIANT of rep_movs_alternative() against NEW's, per length 0..63,
# paired (tools/bench/uaccess/layouts.sh, NEW in OLD's place), at the 12
# layouts a kernel can give a routine that aligns itself with .p2align 6:
# the entry at 0 or at 16 (CONFIG_CALL_PADDING), RET 1, 2 or 5 bytes,
# without and with endbr64.  VARIANT is c-X (patch 8 of commit fd1a333,
# "eve", with c-X.diff of this directory, as variants/run.sh builds it),
# n-X (patch 8 of commit a3f0e4f, the fourth session's version, with
# n-X.diff of this directory), p-X (patch 8 of commit 30cc1e2, the
# sixth session's, with p-X.diff) or LABEL=N[,LABEL=N...] (NEW's file
# with ".p2align N" in front of each LABEL:, e.g. .Lshort_16_63=4).
# Per variant and layout one line: the average of variant - NEW, the
# average per class (0..7, 8..15, 16..31, 32..63), the lengths above
# +0.3 ticks and the largest A/A (NEW against itself) of that layout;
# then the layouts where the variant is ahead or behind by more than
# 0.1 on average.  --full also prints layouts.sh's tables.  OLD is only
# used to rebuild eve.
set -eu

USAGE_LINES=4,5
# shellcheck source=../../../tools/bench/uaccess/lib.sh
. "$(dirname "$0")/../../../tools/bench/uaccess/lib.sh"
# shellcheck source=variant.sh
. "$(dirname "$0")/variant.sh"
L=$TOP/tools/bench/uaccess/layouts.sh

OLD='' NEW='' RUNS=3 FULL=0
VARS=()
while [ $# -gt 0 ]; do
	case $1 in
	--runs)
		[ $# -ge 2 ] || usage
		RUNS=$2
		shift
		;;
	--full) FULL=1 ;;
	*)
		if is_variant "$1"; then VARS+=("$1"); else common_arg "$1"; fi
		;;
	esac
	shift
done
if [ -z "$OLD" ] || [ -z "$NEW" ] || [ ${#VARS[@]} -eq 0 ]; then usage; fi
case $RUNS in '' | *[!0-9]* | 0) die "--runs: '$RUNS' is not a positive number" ;; esac
kernel_trees

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
i=0
for v in "${VARS[@]}"; do
	i=$((i + 1))
	make_variant "$tmp/v$i" "$v"
done

echo "# $PROG --runs $RUNS OLD=$OLD NEW=$NEW ${VARS[*]}"
echo "# cpu: $(cpu_model); $(date -u +%Y-%m-%dT%H:%MZ)"
echo "# variant - NEW, ticks per copy, median of $RUNS paired runs; classes: average over their lengths; aa: largest |A/A| of the layout"
i=0
for v in "${VARS[@]}"; do
	i=$((i + 1))
	for off in 0 16; do
		for e in "" --endbr; do
			for r in 1 2 5; do
				lay="entry $off, RET $r${e:+, endbr64}"
				# shellcheck disable=SC2086 # $e is one option or none
				"$L" --offs "$off" --new-off "$off" --rets "$r" $e --aa \
					--runs "$RUNS" OLD="$NEW" NEW="$tmp/v$i" >"$tmp/out" ||
					die "layouts.sh failed ($v, $lay)"
				[ "$FULL" = 0 ] || cat "$tmp/out"
				awk -v v="$v" -v lay="$lay" '
				/^ +[0-9]+ \|/ {
					l = $1; d = $3; a = $5 < 0 ? -$5 : $5
					c = l < 8 ? 1 : l < 16 ? 2 : l < 32 ? 3 : 4
					s[c] += d; n[c]++; t += d; nt++
					if (a > aa) aa = a
					if (d > 0.3) slow = slow " " l "(" d ")"
				}
				END {
					if (nt != 64) exit 1
					printf "%-22s %-24s avg %+.2f | 0-7 %+.2f 8-15 %+.2f 16-31 %+.2f 32-63 %+.2f | aa %.2f | slower:%s\n",
						v, lay, t / nt, s[1] / n[1], s[2] / n[2], s[3] / n[3], s[4] / n[4], aa, slow ? slow : " none"
				}' "$tmp/out" || die "no 64-length table from layouts.sh ($v, $lay)"
			done
		done
	done | tee "$tmp/sum"
	awk -v v="$v" '{ a = $0; sub(/.* avg /, "", a); a += 0
		if (a < -0.1) ahead++; else if (a > 0.1) behind++; m += a; n++ }
		END { printf "# %s: ahead of NEW at %d of %d layouts, behind at %d, mean %+.2f\n", v, ahead, n, behind, m / n }' "$tmp/sum"
done
