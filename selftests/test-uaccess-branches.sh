#!/bin/bash
# The short user copies (patch 8) pass no more conditional branches than
# 6.12's loops at any length 0..63, nor more executed plus taken (a taken
# branch counts twice): callgrind's exact counts, through
# tools/bench/uaccess/branches.sh --check.  The
# same check with the trees swapped must fail (6.12's loops pass more),
# so the check can fail.
. "$(dirname "$0")/lib.sh"
U=$TOP/tools/bench/uaccess
[ -f "$NEW_SRC/Makefile" ] || skip "no new tree (run tools/apply)"
command -v valgrind >/dev/null || skip "valgrind is not installed"
out=$(mktemp)
trap 'rm -f "$out"' EXIT
"$U/branches.sh" --check OLD="$OLD_SRC" NEW="$NEW_SRC" >"$out" 2>&1 ||
	{ cat "$out"; fail "new passes more conditional branches than 6.12, or more executed plus taken"; }
tail -1 "$out"
grep -qE '^ +8 \| +3 / +2 \|' "$out" || { cat "$out"; fail "6.12's 8-byte copy is not 3 branches, 2 taken"; }
echo "ok: branches.sh --check passes on the series"
expect_fail 1 "more conditional branches than old, or more executed plus taken, at [0-9]+ of 64" \
	"$U/branches.sh" --check OLD="$NEW_SRC" NEW="$OLD_SRC"
expect_fail 2 "usage" "$U/branches.sh" OLD="$OLD_SRC"
expect_fail 1 "not a kernel tree" "$U/branches.sh" OLD=/nonexistent NEW="$NEW_SRC"
