# shellcheck shell=bash
# Helpers for selftests/test-*.sh.  Sourced.
set -eu
TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
. "$TOP/tools/lib/common.sh"
PROG=$(basename "$0" .sh)

fail() {
	echo "FAIL: $*"
	exit 1
}

skip() {
	echo "$*"
	exit 4
}

# expect_fail STATUS PATTERN CMD...: CMD must exit with STATUS ("nonzero"
# for any failure) and print a line matching PATTERN on stdout or stderr.
expect_fail() {
	local want=$1 pat=$2 out rc
	shift 2
	set +e
	out=$("$@" 2>&1)
	rc=$?
	set -e
	if [ "$want" = nonzero ]; then
		[ $rc -ne 0 ] || fail "'$*' succeeded, expected a failure"
	else
		[ $rc -eq "$want" ] || fail "'$*' exited $rc, expected $want; output: $(echo "$out" | tail -3)"
	fi
	echo "$out" | grep -qE "$pat" || fail "'$*' did not say /$pat/; it said: $(echo "$out" | tail -3)"
	echo "ok: '$*' -> exit $rc: $(echo "$out" | grep -E "$pat" | head -1)"
}
