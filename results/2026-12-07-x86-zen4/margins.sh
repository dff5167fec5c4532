#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# usage: results/2026-12-07-x86-zen4/margins.sh [--rounds N] [--cpu N]
#            [--layouts N] [--layout O,N,R,E] OLD=<6.12 tree> NEW=<tree>
#
# Issue 14 asks that patch 8 stay "faster on average by at least the
# 2026-12-01 margins" (-53.7% fixed, -61.6% random 0..63, measured on an
# Intel Xeon model 167 with the bench of that day).  A margin is a ratio
# to 6.12 on one CPU, so this times, on the CPU at hand, the code that
# made those margins next to the code of NEW: "v1201" is 6.12's
# copy_user_64.S (OLD's) with patch 0006 of commit d48403b applied, the
# patch that results/2026-12-01-6.12.117/host-uaccess.txt measured.
#
# Three benches (tools/bench/uaccess, bench --only fixed,random,srso,its),
# one per pair: old/v1201, old/new and v1201/new, run one after the
# other for --rounds rounds (the order rotating every round), pinned to
# one CPU.  Printed: per pair and regime (the rows of bench's summary),
# the median over the rounds of "new vs old" and its quartiles, and how
# many rounds put the pair's second routine ahead.
#
# The rounds time both routines of a pair at the start of a cache line
# with a 2-byte RET, or, with --layout O,N,R,E, OLD and v1201 with their
# entry O bytes into the line, NEW's at N, RETs of R bytes and endbr64 at
# the entries if E is 1 (the model's OLD_ENTRY_OFF, NEW_ENTRY_OFF,
# RET_BYTES, ENDBR).  tools/bench/uaccess/kernel-layout.sh reads them off
# a built kernel: Debian's 6.12.118 amd64 image gives 32,16,5,1 (6.12's
# entry at 32 behind endbr64, 5-byte return-thunk jmps; NEW's .p2align 6
# and CONFIG_CALL_PADDING's 16 bytes put it at 16).  v1201 had no .p2align: in a kernel its entry lands
# at 0, 16, 32 or 48 in its line, NEW's at 0 (16 behind endbr64).
# --layouts N adds NEW against v1201 at each of those layouts, paired
# (tools/bench/uaccess/layouts.sh, median of N runs, OLD = v1201): RET 1,
# 2 and 5 bytes, without and with endbr64, 24 layouts; printed are
# layouts.sh's verdict line per layout and the mean over the layouts.
set -eu

# usage, die, kernel_trees, patch_at, cpu_model (lib.sh's TOP is three levels up
# from the script; this one is two)
# shellcheck source=../../tools/bench/uaccess/lib.sh
. "$(dirname "$0")/../../tools/bench/uaccess/lib.sh"
TOP=$(cd "$HERE/../.." && pwd)
B=$TOP/tools/bench/uaccess
V1201_COMMIT=d48403b
V1201_PATCH=patches/0006-x86-lib-copy-short-user-copies-without-loops-in-rep_.patch

OLD='' NEW='' ROUNDS=15 CPU=1 LAYOUTS=0 LAYOUT=0,0,2,0
while [ $# -gt 0 ]; do
	case $1 in
	--rounds | --cpu | --layouts | --layout)
		[ $# -ge 2 ] || usage
		case $1 in
		--rounds) ROUNDS=$2 ;;
		--cpu) CPU=$2 ;;
		--layouts) LAYOUTS=$2 ;;
		--layout) LAYOUT=$2 ;;
		esac
		shift
		;;
	*) common_arg "$1" ;;
	esac
	shift
done
if [ -z "$OLD" ] || [ -z "$NEW" ]; then usage; fi
case $ROUNDS in '' | *[!0-9]* | 0) die "--rounds: '$ROUNDS' is not a positive number" ;; esac
case $CPU in '' | *[!0-9]*) die "--cpu: '$CPU' is not a CPU number" ;; esac
case $LAYOUTS in '' | *[!0-9]*) die "--layouts: '$LAYOUTS' is not a number of runs" ;; esac
IFS=, read -r LO LN LR LE extra <<<"$LAYOUT,"
case $LR:$LE:$extra in
[125]:[01]:) ;;
*) die "--layout: '$LAYOUT' is not OLD_OFF,NEW_OFF,RET_BYTES(1|2|5),ENDBR(0|1)" ;;
esac
for x in "$LO" "$LN"; do
	case $x in 0 | 16 | 32 | 48) ;; *) die "--layout: entry offset '$x' is not 0, 16, 32 or 48" ;; esac
done
kernel_trees

# the 2026-12-01 code, rebuilt from this repository's history
V=$TOP/build/margins-v1201
rm -rf "$V"
patch_at "$V" "$V1201_COMMIT" "$V1201_PATCH"

declare -A BENCH
pairs=(old:v1201 old:new v1201:new)
tree() { case $1 in old) echo "$OLD" ;; new) echo "$NEW" ;; v1201) echo "$V" ;; esac; }
# the layout variables of a pair: v1201 sits where OLD does (no .p2align)
lay() {
	[ "$LAYOUT" != 0,0,2,0 ] || return 0
	local n=$LN
	[ "$1" != old:v1201 ] || n=$LO
	echo "OLD_ENTRY_OFF=$LO NEW_ENTRY_OFF=$n RET_BYTES=$LR ENDBR=$LE"
}
for p in "${pairs[@]}"; do
	# shellcheck disable=SC2046 # lay prints words or nothing
	BENCH[$p]=$(pair_bench "$(tree "${p%%:*}")" "$(tree "${p##*:}")" $(lay "$p"))
done

echo "# margins.sh --rounds $ROUNDS --cpu $CPU --layouts $LAYOUTS --layout $LAYOUT OLD=$OLD NEW=$NEW"
[ "$LAYOUT" = 0,0,2,0 ] || echo "# rounds at: $(lay old:new) (v1201 at OLD's offset)"
echo "# v1201: $V1201_PATCH of $V1201_COMMIT on OLD's copy_user_64.S"
echo "# new: $NEW ($(git -C "$NEW" log -1 --format='%h %s' 2>/dev/null || echo 'not a git tree'))"
echo "# cpu: $(cpu_model); pinned to cpu $CPU; kernel $(uname -r); $(date -u +%Y-%m-%dT%H:%MZ)"

raw=$(mktemp)
trap 'rm -f "$raw"' EXIT
for r in $(seq 1 "$ROUNDS"); do
	echo "round $r of $ROUNDS" >&2
	for i in 0 1 2; do
		p=${pairs[$(((r + i) % 3))]}
		taskset -c "$CPU" "${BENCH[$p]}" --only fixed,random,srso,its |
			sed -n '/^== summary/,$p' |
			awk -F'|' -v p="$p" -v r="$r" 'NF >= 5 && $1 !~ /^regime/ {
				g = $1; sub(/ +$/, "", g)
				printf "%s|%s|%s|%s|%s\n", p, r, g, $2 + 0, $3 + 0 }' >>"$raw"
	done
done

echo
echo "per pair and regime: median over $ROUNDS rounds of the two averages (ticks per copy,"
echo "lengths 0..63) and of second vs first in % with its quartiles; 'ahead' = rounds"
echo "where the second is faster"
printf '%-10s | %-24s | %6s | %6s | %8s | %17s | %s\n' pair regime first second "vs first" "q1 .. q3" ahead
for p in "${pairs[@]}"; do
	awk -F'|' -v p="$p" '$1 == p { print $3 }' "$raw" | awk '!s[$0]++' | while read -r g; do
		awk -F'|' -v p="$p" -v g="$g" '$1 == p && $3 == g { print $4, $5 }' "$raw" |
			sort -k1,1n | awk -v p="$p" -v g="$g" '
			function med(a, n) { return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2 }
			function q(a, n, f,  i) { i = int(f * (n - 1)) + 1; return a[i] }
			function srt(a, n,  i, j, x) {
				for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++)
					if (a[j] < a[i]) { x = a[i]; a[i] = a[j]; a[j] = x } }
			{ n++; x[n] = $1; y[n] = $2; d[n] = 100 * ($2 - $1) / $1; if ($2 < $1) w++ }
			END {
				srt(x, n); srt(y, n); srt(d, n)
				printf "%-10s | %-24s | %6.2f | %6.2f | %+7.1f%% | %+6.1f .. %+6.1f%% | %d of %d\n",
					p, g, med(x, n), med(y, n), med(d, n), q(d, n, 0.25), q(d, n, 0.75), w, n
			}'
	done
done

[ "$LAYOUTS" -gt 0 ] || exit 0
echo
echo "NEW against v1201, paired, per layout (layouts.sh --runs $LAYOUTS OLD=v1201 NEW=NEW;"
echo "d-<v1201's entry offset>-<RET bytes>, NEW at 0, or at 16 behind endbr64):"
lay=$(mktemp)
trap 'rm -f "$raw" "$lay" "$lay.v"' EXIT
: >"$lay.v"
for e in 0 1; do
	if [ "$e" = 1 ]; then opts=(--endbr --new-off 16); else opts=(--new-off 0); fi
	echo "layouts, endbr64 $e" >&2
	"$B/layouts.sh" --cpu "$CPU" --runs "$LAYOUTS" --rets "1 2 5" "${opts[@]}" \
		OLD="$V" NEW="$NEW" >"$lay" || die "layouts.sh failed"
	echo
	echo "#### endbr64 $e: layouts.sh ${opts[*]}"
	sed -n '/^== /,$p' "$lay"
	grep '^# d-' "$lay" | sed "s/^# /endbr64 $e, /" >>"$lay.v"
done
[ -s "$lay.v" ] || die "layouts.sh printed no verdict lines"
echo
awk -F'new - old avg ' '{ split($2, a, " "); s += a[1]; n++; if (a[1] < 0) w++ }
	END { printf "mean over %d layouts: NEW - v1201 %+.2f ticks per copy; NEW ahead at %d of %d\n", n, s / n, w, n }' "$lay.v"
