#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# usage: run-guest.sh [--quick] [DIR]
#
# In the guest (busybox sh): load DIR/uaccess_bench.ko (default: this
# script's directory), print its fault check and its per-length timing of
# copy_from_user()/copy_to_user() (this kernel's, the OLD and the NEW
# rep_movs_alternative(), inline rep movsb), then the UDP small-packet
# recvfrom rate over loopback (DIR/udp_flood).  Needs debugfs mounted and
# lo up.  Exit status 1 when the fault check fails.
set -eu

quick=
case ${1:-} in
--quick)
	quick=1
	shift
	;;
-*)
	echo "usage: run-guest.sh [--quick] [DIR]" >&2
	exit 2
	;;
esac
[ $# -le 1 ] || { echo "usage: run-guest.sh [--quick] [DIR]" >&2; exit 2; }
dir=${1:-$(dirname "$0")}
[ -f "$dir/uaccess_bench.ko" ] || { echo "run-guest.sh: no $dir/uaccess_bench.ko" >&2; exit 1; }
[ -d /sys/kernel/debug/uaccess_bench ] || [ -d /sys/kernel/debug ] ||
	{ echo "run-guest.sh: debugfs not mounted at /sys/kernel/debug" >&2; exit 1; }

if [ -n "$quick" ]; then
	params="samples=21 batch=8"
	udp="--time 1 --runs 1"
else
	params="samples=201 batch=16"
	udp="--time 3 --runs 5"
fi
grep -q '^uaccess_bench ' /proc/modules || insmod "$dir/uaccess_bench.ko" $params

echo "== uaccess_bench: kernel $(uname -r)"
rc=0
cat /sys/kernel/debug/uaccess_bench/check | tee /tmp/uaccess_check.txt
grep -q '^check: all ok' /tmp/uaccess_check.txt || rc=1
cat /sys/kernel/debug/uaccess_bench/bench
for size in 16 64 256; do
	"$dir/udp_flood" --size $size $udp
done
rmmod uaccess_bench 2>/dev/null || true
exit $rc
