#!/bin/bash
# recorded_base (tools/lib/base-version.sh, what the harness, tools/rebase
# and distro-layout.sh read base-version with) takes the last version
# line, comments and blanks aside.
# tools/rebase: a version the registry does not serve fails at once; a
# rebase onto the recorded base itself gives back the series byte for
# byte; a patch that conflicts stops the rebase with its name and changes
# nothing (patches/, series and base-version as they were).
. "$(dirname "$0")/lib.sh"
base=$(base_commit)
d=$(mktemp -d "$BUILD/selftest-rebase.XXXXXX")
cleanup() {
	git -C "$OLD_SRC" worktree remove -f "$d/wt" >/dev/null 2>&1 || true
	git -C "$OLD_SRC" branch -D "selftest-rebase-${d##*.}" >/dev/null 2>&1 || true
	git -C "$OLD_SRC" worktree prune
	rm -rf "$d"
}
trap cleanup EXIT

printf '# a comment\n6.12.1-1~deb12u1  # older\n\n  6.12.118-1~deb12u1 \n# end\n\n' >"$d/bv"
[ "$(recorded_base "$d/bv")" = 6.12.118-1~deb12u1 ] || fail "recorded_base: '$(recorded_base "$d/bv")'"
printf '# only a comment\n\n' >"$d/bv"
[ -z "$(recorded_base "$d/bv")" ] || fail "recorded_base of a file without a version: '$(recorded_base "$d/bv")'"
echo "ok: recorded_base takes the last version line, comments and blanks aside"

expect_fail nonzero "6.12.0-0 is not served by the registry" "$TOP/tools/rebase" --no-check 6.12.0-0
expect_fail nonzero "usage" "$TOP/tools/rebase" --sideways
expect_fail nonzero "needs --no-check" env REBASE_TOP="$d" "$TOP/tools/rebase" "$RECORDED_BASE"

# 1. Onto the recorded base: the same bytes.
mkdir -p "$d/same"
cp -a "$TOP/patches" "$TOP/series" "$TOP/base-version" "$d/same/"
REBASE_TOP=$d/same "$TOP/tools/rebase" --no-check "$RECORDED_BASE" >"$d/log" 2>&1 ||
	{ tail -5 "$d/log"; fail "rebase onto the recorded base failed"; }
diff -r "$TOP/patches" "$d/same/patches" && diff "$TOP/series" "$d/same/series" &&
	diff "$TOP/base-version" "$d/same/base-version" || fail "rebase onto the recorded base changed the series"
echo "ok: rebase onto $RECORDED_BASE itself gives back the series byte for byte"

# 2. A conflict made on purpose: a first patch that rewrites a line the
#    series' first patch removes, so git am -3 cannot merge that patch.
first=$(sed -e 's/#.*//' "$TOP/series" | awk 'NF {print $1; exit}')
# The first file of that patch that loses a line, and the line.
pick='/^diff --git / { f = substr($3, 3); h = 0; next }
	/^@@/ { h = 1; next }
	h && /^-/ && !/^--- / { print (want == "file" ? f : substr($0, 2)); exit }'
file=$(awk -v want=file "$pick" "$TOP/patches/$first")
line=$(awk -v want=line "$pick" "$TOP/patches/$first")
[ -n "$line" ] || skip "the first patch removes no line: no conflict to make"
git -C "$OLD_SRC" worktree add -q --no-checkout -b "selftest-rebase-${d##*.}" "$d/wt" "$base"
echo "/$file" | git -C "$d/wt" sparse-checkout set --no-cone --stdin
git -C "$d/wt" checkout -q "selftest-rebase-${d##*.}"
LINE=$line perl -i -pe 'if (!$done && $_ eq "$ENV{LINE}\n") { s/$/ \/\/ conflict/; $done = 1 }' "$d/wt/$file"
git -C "$d/wt" -c user.name=selftest -c user.email=selftest@localhost commit -q -a -m "selftest: conflict with $first"
mkdir -p "$d/bad"
cp -a "$TOP/patches" "$TOP/series" "$TOP/base-version" "$d/bad/"
git -C "$d/wt" format-patch -q -1 --stdout >"$d/bad/patches/0000-selftest-conflict.patch"
sed -i "0,/^$first\$/s//0000-selftest-conflict.patch\n$first/" "$d/bad/series"
cp -a "$d/bad" "$d/bad.orig"
before=$(git -C "$OLD_SRC" worktree list --porcelain | grep '^worktree ' | sort)
expect_fail nonzero "patch 2/[0-9]+ $first conflicts on .*nothing changed" \
	env REBASE_TOP="$d/bad" "$TOP/tools/rebase" --no-check "$RECORDED_BASE"
diff -r "$d/bad.orig" "$d/bad" >/dev/null || fail "a conflicting rebase changed patches/, series or base-version"
[ "$(git -C "$OLD_SRC" worktree list --porcelain | grep '^worktree ' | sort)" = "$before" ] ||
	fail "a conflicting rebase left a worktree behind"
echo "ok: the conflict stops the rebase at $first, nothing changed, no worktree left"
