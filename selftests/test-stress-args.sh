#!/bin/bash
# The stress programs (tools/stress) reject bad arguments with their usage
# line and exit status 2 (KSFT_USAGE) before touching anything; run-stress
# rejects unknown scales and names.  Builds the programs into a scratch
# directory with the host's compiler.
. "$(dirname "$0")/lib.sh"
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
make -s -C "$TOP/tools/stress" OUT="$d" >"$d/build.log" 2>&1 ||
	fail "tools/stress does not build: $(tail -3 "$d/build.log")"
expect_fail 2 "usage: stress-selinux" "$d/stress-selinux" -c 8
expect_fail 2 "usage: stress-selinux" "$d/stress-selinux" -c 513
expect_fail 2 "usage: stress-selinux" "$d/stress-selinux" -c 32x
expect_fail 2 "usage: stress-selinux" "$d/stress-selinux" -n 0
expect_fail 2 "usage: stress-selinux" "$d/stress-selinux" -w 17
expect_fail 2 "usage: stress-selinux" "$d/stress-selinux" extra
expect_fail 2 "usage: stress-uaccess" "$d/stress-uaccess" -t 0
expect_fail 2 "usage: stress-coresched" "$d/stress-coresched" -m 99
expect_fail 2 "usage: bad-input" "$d/bad-input" -t 5
expect_fail 2 "usage: run-stress \[--short\|--debug\]" "$d/run-stress" --fast
expect_fail 2 "usage: run-stress" "$d/run-stress" --debug uaccess sideways
