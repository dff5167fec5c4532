#!/bin/bash
# tools/kconfig fails, naming the option, when a fragment asks for an
# option that the tree does not have or that olddefconfig drops.
. "$(dirname "$0")/lib.sh"
[ -f "$OLD_SRC/Makefile" ] || skip "no base tree (run tools/base-tree)"
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
printf 'CONFIG_HARNESS_NO_SUCH_OPTION=y\n' >"$d/bogus.config"
# CGROUP_SCHED without CGROUPS cannot be had: a dropped dependency.
printf 'CONFIG_CGROUP_SCHED=y\n' >"$d/dropped.config"
expect_fail nonzero "CONFIG_HARNESS_NO_SUCH_OPTION=y wanted, got unset" \
	env OBJ="$d/obj1" "$TOP/tools/kconfig" old "$TOP/configs/base.config" "$d/bogus.config"
expect_fail nonzero "CONFIG_CGROUP_SCHED=y wanted, got unset" \
	env OBJ="$d/obj2" "$TOP/tools/kconfig" old "$TOP/configs/base.config" "$d/dropped.config"
# And the real fragments pass.
OBJ="$d/obj3" "$TOP/tools/kconfig" old
echo "ok: the project's fragments are all honoured"
