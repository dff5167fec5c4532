#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# usage: tools/bench/uaccess/run.sh [--quick] [--cpu N] [--lfence] [--no-callgrind]
#                                   [--replay DIR] [OLD=<kernel tree>] [NEW=<kernel tree>]
#
# Build bench from OLD's and NEW's arch/x86/lib/copy_user_64.S (through
# shim/, see Makefile), then, pinned to one CPU:
#   1. bench --check   fault semantics of every routine (exit 1 on failure)
#   2. bench           fixed-length, random-length, return-thunk and
#                      large-copy tables (old vs new vs inline rep movsb)
#   3. bench --lfence  the same with an lfence after every copy (--lfence,
#                      or always without --quick)
#   4. instructions per call, counted by valgrind --tool=callgrind
# --replay DIR: also replay the recorded length sequences DIR/*.len (from
# a guest, tools/bench/uaccess/extract-lengths) in step 2, and time the
# FSRM designs on them.
# OLD defaults to build/debian/old/src, NEW to build/debian/new/src.
# --quick (for CI) takes under a minute: fewer samples, no lfence tables,
# the racing-munmap check at one misalignment instead of three.
set -eu

. "$(dirname "$0")/lib.sh"

OLD=$TOP/build/debian/old/src
NEW=$TOP/build/debian/new/src
QUICK=
REPLAY=
LFENCE=
CALLGRIND=1
CPU=
while [ $# -gt 0 ]; do
	case $1 in
	--quick) QUICK=--quick ;;
	--lfence) LFENCE=1 ;;
	--no-callgrind) CALLGRIND= ;;
	--cpu | --replay)
		[ $# -ge 2 ] || usage
		case $1 in --cpu) CPU=$2 ;; --replay) REPLAY=$2 ;; esac
		shift
		;;
	*) common_arg "$1" ;;
	esac
	shift
done
[ -z "$QUICK" ] && LFENCE=1

kernel_trees
if [ -n "$REPLAY" ]; then
	ls "$REPLAY"/*.len >/dev/null 2>&1 || die "--replay $REPLAY: no *.len files there"
fi
pick_cpu
case $CPU in
'' | *[!0-9]*) die "--cpu: '$CPU' is not a CPU number" ;;
esac

# one build directory per (OLD, NEW) pair, so runs on other trees do not
# overwrite each other
BENCH=$(pair_bench "$OLD" "$NEW")
run() { taskset -c "$CPU" "$BENCH" "$@"; }

describe() {
	local t=$1
	if git -C "$t" rev-parse -q --verify HEAD >/dev/null 2>&1; then
		printf '%s (%s%s)' "$t" "$(git -C "$t" log -1 --format='%h %s' HEAD)" \
			"$(git -C "$t" diff --quiet HEAD -- arch/x86/lib/copy_user_64.S ||
				echo ', copy_user_64.S modified')"
	else
		printf '%s' "$t"
	fi
}

echo "# $PROG${QUICK:+ $QUICK}${LFENCE:+ --lfence} OLD=$OLD NEW=$NEW (cpu $CPU)"
echo "# old: $(describe "$OLD")"
echo "# new: $(describe "$NEW")"
echo "# kernel: $(uname -r); $(date -u +%Y-%m-%dT%H:%MZ)"
echo
echo "== fault semantics (bench --check) =="
run $QUICK --check

echo
run $QUICK ${REPLAY:+--replay "$REPLAY"}

if [ -n "$LFENCE" ]; then
	echo
	echo "######## the same, with an lfence after every copy ########"
	run $QUICK --lfence | grep -v '^# cpu\|^# pinned'
fi

if [ -n "$CALLGRIND" ]; then
	echo
	echo "== instructions per call (valgrind --tool=callgrind), including call and ret =="
	if ! command -v valgrind >/dev/null; then
		echo "# valgrind not installed: skipped"
		exit 0
	fi
	cg=$(mktemp -d)
	trap 'rm -rf "$cg"' EXIT
	icount_dumps "$BENCH" "$cg" >"$cg/dumps"
	awk '
		$1 == "warmup" { next }
		{ tot[$1 " " $2 " " $3] = $5; lens[$2] = 1 }
		function pc(r, l) { return (tot[r " " l " 10"] - tot[r " " l " 2"]) / 8 }
		END {
			printf "%5s | %9s | %9s | %14s | %14s\n", "len", "old", "new",
			       "old+srso thunk", "new+srso thunk"
			n = 0
			for (l in lens)
				ls[n++] = l + 0
			for (i = 0; i < n; i++)	# sort numerically
				for (j = i + 1; j < n; j++)
					if (ls[j] < ls[i]) { x = ls[i]; ls[i] = ls[j]; ls[j] = x }
			for (i = 0; i < n; i++) {
				l = ls[i]; z = pc("null", l)
				# wrap_X runs "call X" where wrap_null runs a nop:
				# the difference is X including its ret; +1 for the call
				o = pc("old", l) - z + 1; w = pc("new", l) - z + 1
				so = pc("old_srso", l) - z + 1; sw = pc("new_srso", l) - z + 1
				printf "%5d | %9g | %9g | %14g | %14g\n", l, o, w, so, sw
				if (l < 64) { so_ += o; sn_ += w; c++ }
			}
			printf "avg<64 | %8.2f | %9.2f |\n", so_ / c, sn_ / c
		}' "$cg/dumps"
	echo "# from 64 bytes on both take rep movsb, which callgrind counts once per"
	echo "# iteration (byte); the inline rep movsb column is left out for that reason"
fi
