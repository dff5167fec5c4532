#!/bin/bash
# The host-side models run (--quick) on the old and new trees and print
# SAMPLE lines for both kernels that tools/compare accepts, so a broken
# model or benchmark fails make check.
. "$(dirname "$0")/lib.sh"
[ -f "$NEW_SRC/Makefile" ] || skip "no new tree (run tools/apply)"
csv=$(mktemp)
out=$(mktemp)
trap 'rm -f "$csv" "$out"' EXIT
echo "source,kernel,metric,unit,value" >"$csv"
for h in "$TOP"/tools/bench/*/run-host; do
	area=$(basename "$(dirname "$h")")
	OLD=$OLD_SRC NEW=$NEW_SRC "$h" --quick >"$out" 2>&1 || { tail -20 "$out"; fail "$area run-host --quick failed"; }
	n_old=$(grep -c '^SAMPLE,old,' "$out" || true)
	n_new=$(grep -c '^SAMPLE,new,' "$out" || true)
	[ "$n_old" -gt 0 ] && [ "$n_new" -gt 0 ] || fail "$area: no SAMPLE lines for old ($n_old) or new ($n_new)"
	grep '^SAMPLE,' "$out" | sed 's/^SAMPLE,/host,/' >>"$csv"
	echo "ok: $area: $n_old old and $n_new new samples"
done
"$TOP/tools/compare" "$csv" >"$out" || fail "tools/compare rejected the host samples"
echo "ok: tools/compare made $(grep -c '^| ' "$out") table rows"
