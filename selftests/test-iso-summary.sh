#!/bin/bash
# tools/bench/coresched/iso-summary: per-log and summed figures of
# cs_cgroup_isolation runs, read from a results log of a guest (fixture:
# one boot with 2 prctl and 2 cgroup runs of 30 s); a log without runs and
# bad arguments are errors.
. "$(dirname "$0")/lib.sh"
sum=$TOP/tools/bench/coresched/iso-summary
fx=$TOP/selftests/fixtures/iso-results.log
out=$("$sum" "$fx")
echo "$out"
line() { echo "$out" | grep -E "^$1 +$2 " || fail "no $2 line for $1"; }
line 'iso-results.log \(2/group\)' prctl |
	grep -q '2 runs  30.0 s    0.0473%..  0.0562%  mean   0.0518%  episodes 4..4  longest   12080.0 us' ||
	fail "wrong prctl figures"
line 'iso-results.log \(2/group\)' cgroup |
	grep -q '2 runs  30.0 s    0.0131%..  0.0132%  mean   0.0132%  episodes 1..1  longest    7888.0 us' ||
	fail "wrong cgroup figures"
line 'iso-results.log \(2/group\)' untagged | grep -q '1 runs  10.0 s  100.0000%' ||
	fail "wrong untagged figures"
! echo "$out" | grep -q '^all' || fail "a single log got a sum line"

# Two logs: the sum counts the runs of both.
out=$("$sum" "$fx" "$fx")
echo "$out"
line 'all 2 logs' prctl | grep -q '4 runs  30.0 s    0.0473%..  0.0562%  mean   0.0518%' ||
	fail "wrong sum over two logs"

d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
echo "no runs here" >"$d/empty.log"
expect_fail 1 "no cs_cgroup_isolation runs in: $d/empty.log" "$sum" "$fx" "$d/empty.log"
expect_fail 2 "usage" "$sum"
expect_fail 2 "cannot read /nonexistent" "$sum" /nonexistent
