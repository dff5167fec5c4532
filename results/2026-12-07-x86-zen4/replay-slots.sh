#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# usage: results/2026-12-07-x86-zen4/replay-slots.sh [--runs N] [--cpu N]
#            --lengths DIR OLD=<6.12 tree> NEW=<tree>
#
# run.sh's replay table (bench --only replay, 64 copies a sample) run
# --runs times (default 60), NEW against OLD and OLD against itself (the
# A/A: 6.12's code in the new routine's slot) in turn, and, per workload
# and return kind, the ticks per copy compared run by run: in how many
# runs the second column ("new") was slower, faster or equal, and the
# mean and median of new - old.  Where the A/A shows the same difference
# as NEW against OLD, the difference belongs to the slot (the order of
# the interleaved routines, their addresses), not to NEW's code.
set -eu

USAGE_LINES=4,5
# shellcheck source=../../tools/bench/uaccess/lib.sh
. "$(dirname "$0")/../../tools/bench/uaccess/lib.sh"

OLD='' NEW='' RUNS=60 CPU='' LENGTHS=''
while [ $# -gt 0 ]; do
	case $1 in
	--runs | --cpu | --lengths)
		[ $# -ge 2 ] || usage
		case $1 in
		--runs) RUNS=$2 ;;
		--cpu) CPU=$2 ;;
		--lengths) LENGTHS=$2 ;;
		esac
		shift
		;;
	*) common_arg "$1" ;;
	esac
	shift
done
if [ -z "$OLD" ] || [ -z "$NEW" ] || [ -z "$LENGTHS" ]; then usage; fi
case $RUNS in '' | *[!0-9]* | 0) die "--runs: '$RUNS' is not a positive number" ;; esac
case $CPU in *[!0-9]*) die "--cpu: '$CPU' is not a CPU number" ;; esac
ls "$LENGTHS"/*.len >/dev/null 2>&1 || die "--lengths $LENGTHS: no *.len files there"
kernel_trees
pick_cpu

B_NEW=$(pair_bench "$OLD" "$NEW")
B_AA=$(pair_bench "$OLD" "$OLD")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

echo "# $PROG --runs $RUNS --cpu $CPU --lengths $LENGTHS OLD=$OLD NEW=$NEW"
echo "# cpu: $(cpu_model); pinned to cpu $CPU; $(date -u +%Y-%m-%dT%H:%MZ)"

# one run of PAIR's replay table: lines "PAIR WORKLOAD RET OLD NEW"
one() {
	taskset -c "$CPU" "$2" --only replay --replay "$LENGTHS" >"$tmp/out" ||
		die "bench failed: $2"
	awk -F'|' -v p="$1" '
		NF >= 9 {
			w = $1; gsub(/ /, "", w)
			if (w != "" && w != "workload") cur = w
			t = $5; gsub(/ /, "", t)
			if (t != "plain" && t != "SRSO" && t != "ITS") next
			split($6, o, " "); split($7, n, " ")
			print p, cur, t, o[1], n[1]
		}' "$tmp/out"
}
: >"$tmp/all"
for i in $(seq "$RUNS"); do
	echo "run $i of $RUNS" >&2
	one new "$B_NEW" >>"$tmp/all"
	one A/A "$B_AA" >>"$tmp/all"
done

echo
echo "ticks per copy, run by run: the second column (new) against the first (old)"
printf '%-10s %-5s %-4s | %4s %6s %5s | %13s %13s | %10s %12s\n' \
	workload ret pair slower faster equal "old median" "new median" \
	"mean diff" "median diff"
sort -k2,2 -k3,3 -k1,1r "$tmp/all" | awk '
	function med(a, n,   i, j, t) {
		for (i = 2; i <= n; i++)
			for (j = i; j > 1 && a[j - 1] > a[j]; j--) {
				t = a[j]; a[j] = a[j - 1]; a[j - 1] = t
			}
		return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
	}
	function flush() {
		if (n == 0) return
		printf "%-10s %-5s %-4s | %4d %6d %5d | %13.2f %13.2f | %+10.2f %+12.2f\n",
			w, t, p, sl, fa, eq, med(o, n), med(nw, n), sum / n, med(d, n)
		n = sl = fa = eq = sum = 0
	}
	$1 != p || $2 != w || $3 != t { flush(); p = $1; w = $2; t = $3 }
	{
		n++; o[n] = $4; nw[n] = $5; d[n] = $5 - $4; sum += d[n]
		if ($5 > $4) sl++; else if ($5 < $4) fa++; else eq++
	}
	END { flush() }'
