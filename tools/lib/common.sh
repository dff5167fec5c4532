# shellcheck shell=bash
# Common paths and helpers for the harness commands in tools/.
# Sourced, never executed.  Every command that sources it gets:
#   TOP      the project checkout
#   BUILD    where everything generated lives (git-ignored)
#   RECORDED_BASE  the package version in base-version (what the series is made on)
#   BASE_PKGVER    the package version this run uses (BASE_VERSION=, default recorded)
#   FLAVOR   "debian-<version>" for Debian's linux-source-6.12, "ksrc-<hash>" for KSRC=
#   W        $BUILD/$FLAVOR: old/src (base repo), new/src (worktree), */obj
set -eu

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
BUILD=${BUILD:-$TOP/build}

export ARCH=x86_64

# The base: the Debian package version recorded in base-version, unless
# BASE_VERSION= names another one ("newest": the newest the registry serves).
DEBIAN_PKG=linux-source-6.12
# shellcheck source=base-version.sh
. "$TOP/tools/lib/base-version.sh"
RECORDED_BASE=$(recorded_base "$TOP/base-version" 2>/dev/null)
[ -n "$RECORDED_BASE" ] || { echo "${0##*/}: error: $TOP/base-version names no package version" >&2; exit 1; }

# served_versions: the versions of the package the registry serves, newest first.
served_versions() {
	apt-cache madison "$DEBIAN_PKG" 2>/dev/null | awk -F'|' '{ gsub(/ /, "", $2); print $2 }' | awk '!s[$0]++'
}

case ${BASE_VERSION:-} in
"") BASE_PKGVER=$RECORDED_BASE ;;
newest)
	BASE_PKGVER=$(served_versions | head -1)
	[ -n "$BASE_PKGVER" ] || { echo "${0##*/}: error: BASE_VERSION=newest: the registry serves no $DEBIAN_PKG (apt-get update?)" >&2; exit 1; }
	;;
*[!0-9A-Za-z.+~:-]*) echo "${0##*/}: error: BASE_VERSION=$BASE_VERSION: not a Debian version" >&2; exit 1 ;;
*) BASE_PKGVER=$BASE_VERSION ;;
esac

if [ -n "${KSRC:-}" ]; then
	FLAVOR=ksrc-$(printf '%s' "$(realpath -m "$KSRC")" | sha1sum | cut -c1-8)
else
	# One directory per package version (~ is not welcome in paths):
	# build/debian-6.12.117-1-deb12u1; build/debian links to the recorded one.
	FLAVOR=debian-$(printf '%s' "$BASE_PKGVER" | tr '~:' '--')
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

# base_note: one line when this run's base is not the recorded one, else nothing.
base_note() {
	if [ -n "${KSRC:-}" ]; then
		echo "note: base is KSRC=$KSRC, not the recorded base $DEBIAN_PKG $RECORDED_BASE"
	elif [ "$BASE_PKGVER" != "$RECORDED_BASE" ]; then
		echo "note: base is $DEBIAN_PKG $BASE_PKGVER, not the recorded base $RECORDED_BASE (BASE_VERSION=${BASE_VERSION:-})"
	fi
}

# check_base_version: fail at once, with the versions the registry has, when
# it does not serve this run's base.
check_base_version() {
	[ -z "${KSRC:-}" ] || return 0
	local served
	served=$(served_versions)
	[ -n "$served" ] || die "the registry serves no $DEBIAN_PKG at all (apt-get update?)"
	printf '%s\n' "$served" | grep -qxF "$BASE_PKGVER" ||
		die "$DEBIAN_PKG $BASE_PKGVER is not served by the registry (it has: $(echo $served))"
}

# package_tarball VERSION: the path of linux-source-6.12.tar.xz of that
# package version: the installed package's when it is that version, else
# fetched once with apt-get download into $BUILD/debs/<version>/.
package_tarball() {
	local ver=$1 debs deb
	if [ "$(dpkg-query -W -f '${Status} ${Version}' "$DEBIAN_PKG" 2>/dev/null)" = "install ok installed $ver" ]; then
		[ -f /usr/src/linux-source-6.12.tar.xz ] ||
			die "$DEBIAN_PKG $ver is installed but /usr/src/linux-source-6.12.tar.xz is missing"
		echo /usr/src/linux-source-6.12.tar.xz
		return
	fi
	debs=$BUILD/debs/$(printf '%s' "$ver" | tr '~:' '--')
	if [ ! -f "$debs/linux-source-6.12.tar.xz" ]; then
		BASE_PKGVER=$ver check_base_version
		say "fetching $DEBIAN_PKG=$ver (not the installed version) into $debs"
		rm -rf "$debs.tmp"
		mkdir -p "$debs.tmp"
		(cd "$debs.tmp" && apt-get download -q "$DEBIAN_PKG=$ver" >download.log 2>&1) ||
			{ tail -5 "$debs.tmp/download.log" >&2; die "apt-get download $DEBIAN_PKG=$ver failed"; }
		deb=$(ls "$debs.tmp"/*.deb)
		[ "$(dpkg-deb -f "$deb" Version)" = "$ver" ] || die "$deb is not version $ver"
		dpkg-deb --fsys-tarfile "$deb" | tar -xO ./usr/src/linux-source-6.12.tar.xz >"$debs.tmp/linux-source-6.12.tar.xz" ||
			die "no linux-source-6.12.tar.xz in $deb"
		rm -f "$deb"
		rm -rf "$debs"
		mv "$debs.tmp" "$debs"
	fi
	echo "$debs/linux-source-6.12.tar.xz"
}
