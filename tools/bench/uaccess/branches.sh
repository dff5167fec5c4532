#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# usage: tools/bench/uaccess/branches.sh [--check] OLD=<6.12 tree> NEW=<tree>
#
# How many conditional branches one call of OLD's and of NEW's
# rep_movs_alternative() executes, and how many of them it takes, at every
# length 0..63, counted by valgrind --tool=callgrind (bench --icount: 2
# and 10 calls per routine and length, the difference over 8, less the
# same for an empty routine): executed from --branch-sim's Bc event, taken
# from the jcnd= lines of --collect-jumps.  The counts are exact and do not
# depend on the CPU or on the load of the machine.
#
# On some CPUs every conditional branch on a copy's path costs throughput
# once it has ever been taken, even when it is predicted (the results of
# issue 14: one more than 6.12's loops made 0, 1, 8 or 16 bytes a cycle
# slower on an AMD Zen 3 or Zen 5), and a taken one costs more: it also
# ends the block of code the CPU fetches in that cycle (32..63 bytes
# through three taken branches were a cycle slower on an AMD Zen 4 than
# through two of the same four).  The rule: at no length does NEW execute
# more conditional branches than OLD, nor more executed plus taken (a
# taken branch counts twice).  The last line says at how many lengths
# NEW breaks it; with --check the exit status is 1 if there is any.
set -eu
USAGE_LINES=4
. "$(dirname "$0")/lib.sh"

OLD='' NEW='' CHECK=''
while [ $# -gt 0 ]; do
	case $1 in
	--check) CHECK=1 ;;
	*) common_arg "$1" ;;
	esac
	shift
done
if [ -z "$OLD" ] || [ -z "$NEW" ]; then usage; fi
kernel_trees
command -v valgrind >/dev/null || die "valgrind is not installed"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
make -s -C "$HERE" O="$tmp/b" OLD="$OLD" NEW="$NEW" >/dev/null || die "bench did not build"
# executed: the Bc event of --branch-sim (the second of the totals);
# taken: the jcnd= lines of --collect-jumps
icount_dumps "$tmp/b/bench" "$tmp" --collect-jumps=yes --dump-instr=yes \
	--branch-sim=yes >"$tmp/dumps"
grep -q '^events: Ir Bc ' "$tmp"/cg.out.1 || die "callgrind gave no Bc event"

echo "# $PROG OLD=$OLD NEW=$NEW"
echo "# conditional branches per call, executed / taken (valgrind --tool=callgrind)"
awk -v check="$CHECK" '
	$1 == "warmup" { next }
	{ e[$1 " " $2 " " $3] = $6; t[$1 " " $2 " " $3] = $4 }
	function pc(a, r, l) { return (a[r " " l " 10"] - a[r " " l " 2"]) / 8 }
	END {
		printf "%4s | %12s | %12s |\n", "len", "old", "new"
		more = ""; n = 0
		for (l = 0; l < 64; l++) {
			if (!((("old " l " 10") in e) && (("new " l " 10") in e))) {
				print "branches.sh: error: no counts for length " l > "/dev/stderr"
				exit 1
			}
			oe = pc(e, "old", l) - pc(e, "null", l); ot = pc(t, "old", l) - pc(t, "null", l)
			ne = pc(e, "new", l) - pc(e, "null", l); nt = pc(t, "new", l) - pc(t, "null", l)
			if (oe < 1) {
				print "branches.sh: error: no conditional branch counted for old at length " l > "/dev/stderr"
				exit 1
			}
			mark = ""
			if (ne > oe || ne + nt > oe + ot) { mark = " more"; more = more " " l; n++ }
			printf "%4d | %5g / %4g | %5g / %4g |%s\n", l, oe, ot, ne, nt, mark
			soe += oe; sot += ot; sne += ne; snt += nt
		}
		printf " avg | %5.2f / %4.2f | %5.2f / %4.2f |\n", soe / 64, sot / 64, sne / 64, snt / 64
		if (n)
			printf "# new executes more conditional branches than old, or more executed plus taken, at %d of 64 lengths:%s\n", n, more
		else
			print "# new executes no more conditional branches than old at any length 0..63, nor more executed plus taken"
		exit check && n ? 1 : 0
	}' "$tmp/dumps"
