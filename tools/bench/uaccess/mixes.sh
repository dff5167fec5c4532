#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# usage: tools/bench/uaccess/mixes.sh [--runs N] [--cpu N] [--aa] [--batch N]
#            [--mixes "M.."] [--keep DIR | --lengths DIR] OLD=<tree> NEW=<tree>
#
# The averages of the model's tables are over two length mixes, each
# length 0..63 alike (fixed) or uniform random 0..63, and the replays are
# six traced workloads.  This times NEW against OLD on other mixes, made
# here with a fixed seed (Park-Miller, the same sequence everywhere):
#
#   u0-7 u8-15 u16-31 u32-63   uniform within one of the short paths
#   u0-15 u0-31 u8-63 u0-63    uniform across two or more of them
#                              (u0-63: the random table, finer grained)
#   pow2      1, 2, 4, 8, 16 or 32          (sizeof of scalars)
#   ints      4 or 8                        (an int or a long)
#   words     8, 16, 24, .. 56              (small structures)
#   zero-one  0 or 1                        (the lengths closest to 6.12)
#   alt8-16   8, 16, 8, 16, ..              (periodic)
#   ramp      0, 1, .., 63, 0, 1, ..        (periodic)
#   half8     8, or uniform 64..511, half and half
#
# --mixes "M.." times those instead: any of the above, half8.sh's halves
# of half8, or cN, the one length N every time (e.g. "c64 c512 c4096":
# the path of 64 bytes and more at fixed lengths; N up to 131072).
#
# 65536 lengths each, timed with bench --only replay (old, new and inline
# rep movsb interleaved; plain ret, SRSO and ITS thunks), --batch copies a
# sample (default 1024), in --runs runs (default 5).  Printed: per mix
# and return kind, the median of new vs old over the runs, its range and
# in how many runs new was slower (replay-medians).  --aa also times OLD
# against itself, run for run in turn with NEW, and adds its median and
# largest value per mix: a mix where NEW's median is above both 0 and the
# A/A's largest value is named in the last line.  --keep DIR writes the
# .len files (and the runs) to DIR.  --lengths DIR replays DIR/*.len
# instead of the mixes (e.g. the traced workloads of a tools/run result,
# at --batch 1024 and with the A/A, where run.sh's replay table takes 64
# copies a sample; --batch 64 gives run.sh's samples, run after run, with
# the A/A).
set -eu

USAGE_LINES=4,5
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

OLD='' NEW='' RUNS=5 CPU='' KEEP='' LENGTHS='' AA=0 BATCH=1024 MIXES=
while [ $# -gt 0 ]; do
	case $1 in
	--runs | --cpu | --keep | --lengths | --batch | --mixes)
		[ $# -ge 2 ] || usage
		case $1 in
		--runs) RUNS=$2 ;;
		--mixes) MIXES=$2 ;;
		--batch) BATCH=$2 ;;
		--cpu) CPU=$2 ;;
		--keep) KEEP=$2 ;;
		--lengths) LENGTHS=$2 ;;
		esac
		shift
		;;
	--aa) AA=1 ;;
	*) common_arg "$1" ;;
	esac
	shift
done
if [ -z "$OLD" ] || [ -z "$NEW" ]; then usage; fi
case $RUNS in '' | *[!0-9]* | 0) die "--runs: '$RUNS' is not a positive number" ;; esac
case $CPU in *[!0-9]*) die "--cpu: '$CPU' is not a CPU number" ;; esac
case $BATCH in '' | *[!0-9]* | 0) die "--batch: '$BATCH' is not a positive number" ;; esac
if [ -n "$LENGTHS" ]; then
	[ -z "$KEEP" ] || die "--keep and --lengths exclude each other"
	[ -z "$MIXES" ] || die "--mixes and --lengths exclude each other"
	ls "$LENGTHS"/*.len >/dev/null 2>&1 || die "--lengths $LENGTHS: no *.len files there"
fi
for m in $MIXES; do
	mix_lengths "$m" >/dev/null || die "--mixes: no mix '$m'"
done
kernel_trees
pick_cpu

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
dir=${LENGTHS:-${KEEP:-$tmp/mixes}}
[ -n "$LENGTHS" ] || mkdir -p "$dir" || die "cannot create $dir"
if [ -n "$KEEP" ] && ls "$KEEP"/*.len >/dev/null 2>&1; then
	die "--keep $KEEP: holds .len files already (bench would replay them too)"
fi

MIXES=${MIXES:-u0-7 u8-15 u16-31 u32-63 u0-15 u0-31 u8-63 u0-63 pow2 ints words zero-one alt8-16 ramp half8}
if [ -z "$LENGTHS" ]; then
	for m in $MIXES; do
		mix_lengths "$m" >"$dir/$m.len" || die "no mix '$m'"
	done
fi

B_NEW=$(pair_bench "$OLD" "$NEW")
[ "$AA" = 0 ] || B_AA=$(pair_bench "$OLD" "$OLD")

opts="--runs $RUNS --cpu $CPU"
[ "$BATCH" = 1024 ] || opts="$opts --batch $BATCH"
[ -n "$LENGTHS" ] || opts="$opts --mixes \"$MIXES\""
[ "$AA" = 0 ] || opts="$opts --aa"
[ -z "$KEEP" ] || opts="$opts --keep $KEEP"
[ -z "$LENGTHS" ] || opts="$opts --lengths $LENGTHS"
echo "# $PROG $opts OLD=$OLD NEW=$NEW"
echo "# cpu: $(cpu_model); pinned to cpu $CPU; $(date -u +%Y-%m-%dT%H:%MZ)"

replay() { # BENCH RUN OUT: one run of BENCH's replay table, appended to OUT
	taskset -c "$CPU" "$1" --only replay --batch "$BATCH" --replay "$dir" >"$tmp/out" ||
		die "bench failed (run $2): $1"
	{
		echo "## run $2"
		sed -n '/^== replay/,$p' "$tmp/out"
	} >>"$3"
}
: >"$tmp/runs"
: >"$tmp/aa"
for i in $(seq "$RUNS"); do
	echo "run $i of $RUNS" >&2
	replay "$B_NEW" "$i" "$tmp/runs"
	[ "$AA" = 0 ] || replay "$B_AA" "$i" "$tmp/aa"
done
if [ -n "$KEEP" ]; then
	cp "$tmp/runs" "$KEEP/runs.txt"
	[ "$AA" = 0 ] || cp "$tmp/aa" "$KEEP/runs-aa.txt"
fi
echo
echo "The first run's table (ticks per copy, median [IQR] over the batches):"
awk '/^## run 2/ { exit } /^== replay/ { f = 1 } f' "$tmp/runs"
echo
echo "new vs old over $RUNS runs (positive: new slower):"
if [ "$AA" = 0 ]; then
	"$HERE/replay-medians" "$tmp/runs"
	exit 0
fi
"$HERE/replay-medians" "$tmp/runs" >"$tmp/m.new"
"$HERE/replay-medians" "$tmp/aa" >"$tmp/m.aa"
[ -s "$tmp/m.new" ] || die "no results"
# lines "MIX RET median X% range A .. B positive in K of N": add the
# A/A's median and largest value to NEW's line of the same MIX and RET
awk -v q="'" '
	NR == FNR { aa[$1, $2] = $4 + 0; top[$1, $2] = $8 + 0; next }
	{
		if (!(($1, $2) in aa)) { print "no A/A line for " $1 " " $2; err = 1; exit 1 }
		printf "%s  | A/A median %+6.2f%%, largest %+.1f\n", $0, aa[$1, $2], top[$1, $2]
		if ($4 + 0 > 0 && $4 + 0 > top[$1, $2]) bad = bad " " $1 "/" $2
	}
	END {
		if (err) exit 1
		print "slower than old beyond the A/A (median above 0 and above the A/A" q "s largest):" (bad == "" ? " none" : bad)
	}' "$tmp/m.aa" "$tmp/m.new" || die "the A/A runs do not cover the same mixes"
