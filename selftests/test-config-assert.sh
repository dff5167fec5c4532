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
# One configuration run with both (each run costs a kconfig build here):
# every bad option is named, not just the first.
set +e
out=$(OBJ="$d/obj1" "$TOP/tools/kconfig" old "$TOP/configs/base.config" "$d/bogus.config" "$d/dropped.config" 2>&1)
rc=$?
set -e
[ $rc -ne 0 ] || fail "tools/kconfig accepted a bogus and a dropped option"
for want in "bogus.config: CONFIG_HARNESS_NO_SUCH_OPTION=y wanted, got unset" \
	"dropped.config: CONFIG_CGROUP_SCHED=y wanted, got unset"; do
	echo "$out" | grep -qF "$want" || fail "tools/kconfig did not say '$want'; it said: $(echo "$out" | tail -3)"
	echo "ok: tools/kconfig -> exit $rc: $want"
done
# And the real fragments pass.
OBJ="$d/obj3" "$TOP/tools/kconfig" old
echo "ok: the project's fragments are all honoured"
