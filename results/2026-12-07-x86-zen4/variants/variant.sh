# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0
#
# Sourced by against-new.sh and ../half8.sh, after tools/bench/uaccess/lib.sh
# (die, patch_at) and with OLD and NEW set (kernel_trees):
#   is_variant SPEC  SPEC names a variant: c-X, n-X, p-X or
#                    LABEL=N[,LABEL=N...]
#   make_variant DIR SPEC
#                    DIR/arch/x86/lib/copy_user_64.S = the variant SPEC:
#                    c-X: patch 8 of commit fd1a333 ("eve") with c-X.diff of
#                    this directory (as variants/run.sh builds it);
#                    n-X: patch 8 of commit a3f0e4f (the version
#                    of the fourth session, before n-h.diff went into
#                    patch 8) with n-X.diff of this directory;
#                    p-X: patch 8 of commit 30cc1e2 (the sixth session's,
#                    a NOP after rep movsb) with p-X.diff of this directory;
#                    LABEL=N,...: NEW's file with ".p2align N" in front of
#                    each LABEL: (e.g. .Lshort_16_63=4)
VARIANTS=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

is_variant() {
	case $1 in c-?* | n-?* | p-?* | .L?*=*) return 0 ;; *) return 1 ;; esac
}

# on_commit DIR SPEC TAG COMMIT: DIR's file = patch 8 of COMMIT (kept in
# DIR.TAG) with SPEC.diff of this directory
on_commit() {
	local d=$1 v=$2 base=$1.$3
	[ -f "$VARIANTS/$v.diff" ] || die "no variant '$v' ($VARIANTS/$v.diff)"
	[ -d "$base" ] || patch_at "$base" "$4"
	cp "$base/arch/x86/lib/copy_user_64.S" "$d/arch/x86/lib/copy_user_64.S"
	patch -s -d "$d" -p1 <"$VARIANTS/$v.diff" || die "$v.diff does not apply"
}

make_variant() {
	local d=$1 v=$2 f spec lab n
	f=$d/arch/x86/lib/copy_user_64.S
	mkdir -p "$d/arch/x86/lib"
	case $v in
	c-*) on_commit "$d" "$v" eve fd1a333 ;;
	n-*) on_commit "$d" "$v" s4 a3f0e4f ;;
	p-*) on_commit "$d" "$v" s6 30cc1e2 ;;
	*)
		cp "$NEW/arch/x86/lib/copy_user_64.S" "$f"
		for spec in $(echo "$v" | tr ',' ' '); do
			lab=${spec%%=*} n=${spec#*=}
			case $n in [0-9]) ;; *) die "$v: '.p2align $n'?" ;; esac
			grep -q "^$lab:\$" "$f" || die "$v: no label $lab in NEW's file"
			sed -i "s/^$lab:\$/\t.p2align $n\n$lab:/" "$f"
		done
		;;
	esac
}
