#!/bin/bash
# tools/tap-summary counts nested kselftest results, programs that fail
# without a failing result (crash, timeout), skips, KUnit cases (not their
# parameters), and a log with no exit marker as a failure.
. "$(dirname "$0")/lib.sh"
fx=$TOP/selftests/fixtures/results-sample.log
set +e
out=$("$TOP/tools/tap-summary" k="$fx")
rc=$?
set -e
echo "$out"
# harness topology (pass); cs_prctl_test: a pass, b fail, c skip;
# crashes: first pass + program failure; plain pass; skipped skip;
# kunit: param_case pass, valid pass, invalid fail.
[ "$(echo "$out" | tail -1)" = "6 passed, 3 failed, 2 skipped" ] || fail "wrong summary: $(echo "$out" | tail -1)"
[ $rc -eq 1 ] || fail "exit status $rc with failures, want 1"
echo "$out" | grep -q '^not ok [0-9]* k: sched: crashes.*exit=139' || fail "a crashed program is not reported"
echo "$out" | grep -q '^not ok [0-9]* k: kunit: usercopy: usercopy_test_invalid' || fail "a failed KUnit case is not reported"

nomark=$(mktemp)
trap 'rm -f "$nomark"' EXIT
grep -v HARNESS-EXIT "$fx" | sed 's/^not ok 2 global.b/ok 2 global.b/' >"$nomark"
set +e
out=$("$TOP/tools/tap-summary" k="$nomark")
rc=$?
set -e
echo "$out" | grep -q 'not ok .*guest report' || fail "a log without HARNESS-EXIT is not a failure"
[ $rc -eq 1 ] || fail "exit $rc for a log without the marker"
expect_fail 2 "not LABEL=RESULTS_LOG" "$TOP/tools/tap-summary" "$fx"
expect_fail 2 "no such file" "$TOP/tools/tap-summary" k=/nonexistent
