#!/bin/bash
# The series applies with git am onto the base; exporting the result gives
# back patches/ and series byte for byte on the recorded base (on another
# base: the same patch ids and messages, the changed header lines reported); quilt push -a gives the same tree;
# a patch that does not apply stops with its name and leaves the tree at the
# base commit, not half-applied.
. "$(dirname "$0")/lib.sh"
base=$(base_commit)
d=$(mktemp -d "$BUILD/selftest-apply.XXXXXX")
cleanup() {
	git -C "$OLD_SRC" worktree remove -f "$d/src" >/dev/null 2>&1 || true
	git -C "$OLD_SRC" branch -D "selftest-${d##*.}" >/dev/null 2>&1 || true
	rm -rf "$d"
	git -C "$OLD_SRC" worktree prune
}
trap cleanup EXIT
# A sparse worktree: the files the series touches and the .gitattributes
# (export's hunk headers follow them); git am, quilt and export need no
# others, and a full checkout of the kernel costs a minute of I/O here.
git -C "$OLD_SRC" worktree add -q --no-checkout -b "selftest-${d##*.}" "$d/src" "$base"
{
	sed -n 's|^diff --git a/\([^ ]*\) b/.*|/\1|p' "$TOP"/patches/*.patch
	echo .gitattributes
} | sort -u | git -C "$d/src" sparse-checkout set --no-cone --stdin
git -C "$d/src" checkout -q "selftest-${d##*.}"

# 1. Round trip.
NEW_SRC=$d/src "$TOP/tools/apply"
NEW_SRC=$d/src EXPORT_TO=$d/out "$TOP/tools/export"
if [ -z "${KSRC:-}" ] && [ "$BASE_PKGVER" = "$RECORDED_BASE" ]; then
	diff -u "$TOP/series" "$d/out/series" || fail "export after apply changed series"
	diff -r -u "$TOP/patches" "$d/out/patches" || fail "export after apply changed patches/"
	echo "ok: apply + export reproduces series and $(ls "$TOP"/patches/*.patch 2>/dev/null | wc -l) patch files byte for byte on the recorded base $RECORDED_BASE"
else
	# Another base: the same changes, not the same bytes.  Each patch must
	# have the same patch id (git patch-id --stable: the diff without line
	# numbers and blob ids) and the same message; the lines that do
	# differ (base-commit, index, hunk headers, the series' base line) are
	# reported.
	base_note
	diff -q <(grep -v '^#' "$TOP/series") <(grep -v '^#' "$d/out/series") >/dev/null ||
		fail "export on this base lists other patches than series"
	msg() { sed -n "/^Subject: /,/^---$/p" "$1"; }
	for f in "$TOP"/patches/*.patch; do
		p=$(basename "$f")
		[ -f "$d/out/patches/$p" ] || fail "export on this base has no $p"
		[ "$p" = 0000-cover-letter.patch ] && continue
		a=$(git patch-id --stable <"$f" | cut -d' ' -f1)
		b=$(git patch-id --stable <"$d/out/patches/$p" | cut -d' ' -f1)
		[ "$a" = "$b" ] || fail "$p: another patch id on this base ($a vs $b)"

		diff -q <(msg "$f") <(msg "$d/out/patches/$p") >/dev/null || fail "$p: subject or message changed"
	done
	changed=$(diff -r "$TOP/patches" "$d/out/patches" | grep -E '^[<>]' | sed 's/^[<>] //' | cut -c1-100 | sort | uniq -c | sort -rn | head -8 || true)
	echo "ok: on $(cat "$W/base-version"), apply + export gives the same patches (patch-id --stable) and messages; header lines that differ from the recorded export:"
	printf '%s\n' "${changed:-    (none)}" | sed 's/^/    /'
	diff "$TOP/series" "$d/out/series" | grep -E '^[<>]' | sed 's/^/    series: /' || true
fi
applied=$(git -C "$d/src" rev-parse HEAD)

# 2. quilt push -a on the base gives the same tree (the same worktree,
#    checked out at the base again).
n=$(sed -e 's/#.*//' "$TOP/series" | awk 'NF' | wc -l)
if [ "$n" -gt 0 ]; then
	tree=$(git -C "$d/src" rev-parse 'HEAD^{tree}')
	git -C "$d/src" checkout -q --detach "$base"
	(cd "$d/src" && QUILT_PATCHES="$TOP/patches" QUILT_SERIES="$TOP/series" QUILT_PC="$d/pc" \
		quilt push -a -q >/dev/null) || fail "quilt push -a failed"
	git -C "$d/src" add -A -f .
	[ "$(git -C "$d/src" write-tree)" = "$tree" ] ||
		fail "quilt push -a and git am give different trees"
	git -C "$d/src" reset -q --hard
	git -C "$d/src" clean -q -f -d -x
	git -C "$d/src" checkout -q "selftest-${d##*.}"
	[ "$(git -C "$d/src" rev-parse HEAD)" = "$applied" ] || fail "the worktree lost the applied series"
	echo "ok: quilt push -a gives the tree git am gives"
else
	echo "series is empty: quilt check not applicable"
fi

# 3. A patch that does not apply.
mkdir -p "$d/bad/patches"
cp "$TOP"/patches/*.patch "$d/bad/patches/" 2>/dev/null || true
cp "$TOP/series" "$d/bad/series"
cat >"$d/bad/patches/9999-broken.patch" <<'P'
From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001
From: Nobody <nobody@localhost>
Date: Thu, 1 Jan 2026 00:00:00 +0000
Subject: [PATCH] broken: patch against text that is not there

---
 MAINTAINERS | 1 +
 1 file changed, 1 insertion(+)

diff --git a/MAINTAINERS b/MAINTAINERS
--- a/MAINTAINERS
+++ b/MAINTAINERS
@@ -1,3 +1,4 @@
 this line is not in MAINTAINERS
+neither is this one
 nor this
 nor that
P
echo 9999-broken.patch >>"$d/bad/series"
expect_fail nonzero "patch $((n + 1))/$((n + 1)) 9999-broken.patch does not apply" \
	env NEW_SRC="$d/src" SERIES="$d/bad/series" PATCHES="$d/bad/patches" FORCE=1 "$TOP/tools/apply"
[ "$(git -C "$d/src" rev-parse HEAD)" = "$base" ] || fail "tree not reset to the base after a failed apply"
[ -z "$(git -C "$d/src" status --porcelain)" ] || fail "tree left dirty after a failed apply"
[ ! -e "$d/src/.git/rebase-apply" ] && [ ! -d "$(git -C "$d/src" rev-parse --git-dir)/rebase-apply" ] ||
	fail "git am left in progress"
[ ! -e "$d/applied" ] || fail "a failed apply left its stamp"
echo "ok: the tree is back at the base commit, clean"

# 4. Unexported commits are not thrown away.
NEW_SRC=$d/src "$TOP/tools/apply" >/dev/null 2>&1
[ "$(git -C "$d/src" rev-parse HEAD)" = "$applied" ] || fail "re-apply gave different commits"
git -C "$d/src" commit -q --allow-empty -m "local work"
expect_fail nonzero "not in patches/" env NEW_SRC="$d/src" "$TOP/tools/apply"
