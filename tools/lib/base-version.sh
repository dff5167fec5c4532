# shellcheck shell=sh
# recorded_base FILE: the package version FILE (a base-version file)
# records: its last line that is not empty once comments ("#" to the end
# of the line) and blanks are taken out.  Prints nothing if there is none.
# Sourced, never executed: by common.sh (RECORDED_BASE), tools/rebase and
# tools/bench/uaccess/distro-layout.sh.
recorded_base() {
	sed -e 's/#.*//' -e 's/[[:space:]]//g' "$1" | awk NF | tail -1
}
