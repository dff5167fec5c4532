# shellcheck shell=bash
# Common paths and helpers for the harness commands in tools/.
# Sourced, never executed.  Every command that sources it gets:
#   TOP      the project checkout
#   BUILD    where everything generated lives (git-ignored)
#   FLAVOR   "debian" for Debian's linux-source-6.12, "ksrc-<hash>" for KSRC=
#   W        $BUILD/$FLAVOR: old/src (base repo), new/src (worktree), */obj
set -eu

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
BUILD=${BUILD:-$TOP/build}
DEBIAN_SRC_TARBALL=${DEBIAN_SRC_TARBALL:-/usr/src/linux-source-6.12.tar.xz}
export ARCH=x86_64

if [ -n "${KSRC:-}" ]; then
	FLAVOR=ksrc-$(printf '%s' "$(realpath -m "$KSRC")" | sha1sum | cut -c1-8)
else
	FLAVOR=debian
fi
W=$BUILD/$FLAVOR
OLD_SRC=$W/old/src
NEW_SRC=${NEW_SRC:-$W/new/src}
LOGS=$W/logs

# Kernel builds: both trees sit at the same depth below $W, so ccache
# (CCACHE_BASEDIR=$W) sees identical relative paths for old and new and
# unchanged files hit the cache across the two builds.
export CCACHE_DIR=${CCACHE_DIR:-$BUILD/ccache}
export CCACHE_BASEDIR=$W
export CCACHE_NOHASHDIR=1
export CCACHE_SLOPPINESS=time_macros,include_file_mtime,include_file_ctime
# kbuild passes -fmacro-prefix-map=<abs srctree>/= ; both trees map to "",
# so the option does not change the object and must not split the cache.
export CCACHE_IGNOREOPTIONS='-fmacro-prefix-map=*'
export CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-5G}
JOBS=${JOBS:-$(nproc)}

PROG=$(basename "$0")

die() {
	printf '%s: error: %s\n' "$PROG" "$*" >&2
	exit 1
}

say() {
	printf '==> %s: %s\n' "$PROG" "$*" >&2
}

# The commit that is the base of the series (the only root commit of the base repo).
base_commit() {
	git -C "$OLD_SRC" rev-parse --verify -q refs/tags/harness-base ||
		die "no base tree in $OLD_SRC (run tools/base-tree)"
}

# "which" is old or new; prints that kernel's source dir.
src_of() {
	case "$1" in
	old) echo "$OLD_SRC" ;;
	new) echo "$NEW_SRC" ;;
	*) die "unknown kernel '$1' (want old or new)" ;;
	esac
}

elapsed() {
	local s=$(($(date +%s) - $1))
	printf '%dm%02ds' $((s / 60)) $((s % 60))
}
