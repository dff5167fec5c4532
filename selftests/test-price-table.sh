#!/bin/bash
# tools/bench/coresched/price-table: the feature off/on table from a
# samples.csv, mean and sd of the repeats; refuses a file without
# coresched-price samples, or a missing one, with a message.
. "$(dirname "$0")/lib.sh"
T=$TOP/tools/bench/coresched/price-table
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
{
	echo "source,kernel,metric,unit,value"
	for v in 40 44 48; do echo "guest-tcg,new,coresched-price-cpu2-prctl-off-share,%,$v"; done
	for v in 0 0 0; do echo "guest-tcg,new,coresched-price-cpu2-prctl-on-share,%,$v"; done
	echo "guest-tcg,new,coresched-price-cpu2-prctl-on-waits,1/s,110"
	echo "guest-tcg,old,coresched-price-cpu2-prctl-off-share,%,99"
} >"$d/s.csv"
"$T" "$d/s.csv" >"$d/out" || fail "price-table failed"
grep -q '^| cpu2 | prctl | off | 44 ±4 |' "$d/out" || fail "off row: $(cat "$d/out")"
grep -q '^| cpu2 | prctl | on | 0 ±0 | - | 110 |' "$d/out" || fail "on row: $(cat "$d/out")"
[ "$(grep -c '^| cpu2' "$d/out")" = 2 ] || fail "rows: $(cat "$d/out")"
echo "ok: price-table pools the repeats of one kernel, feature off and on"
expect_fail nonzero "no coresched-price samples for kernel new" "$T" /dev/null
expect_fail nonzero "error" "$T" "$d/missing.csv"
expect_fail nonzero "usage" "$T"
