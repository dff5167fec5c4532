#!/bin/sh
# x86 user copies (issue 4), from tools/bench/uaccess/guest.
# uaccess_bench.ko (built against this kernel, carrying the OLD and the NEW
# tree's rep_movs_alternative()): the fault check of this kernel's
# copy_*_user(), both routines and an inline rep movsb (fails the
# benchmark when any is wrong), then ticks per copy, this kernel's
# copy_from_user()/copy_to_user() at a few lengths and with a random
# length 0..63 per copy, and the UDP small-packet recvfrom rate.
# Under TCG the numbers only show that it runs; speed needs KVM.
set -eu
mod=/bench/modules/uaccess_bench.ko
udp=/bench/bin/udp_flood
d=/sys/kernel/debug/uaccess_bench
[ -f $mod ] || { echo "# uaccess: no $mod"; exit 1; }
[ -x $udp ] || { echo "# uaccess: no $udp"; exit 1; }
params="samples=201 batch=16"
secs=3
if [ "${QUICK:-0}" = 1 ]; then
	params="samples=21 batch=8"
	secs=1
fi
# shellcheck disable=SC2086 # $params is a list of module parameters
grep -q '^uaccess_bench ' /proc/modules || insmod $mod $params
[ -d $d ] || { echo "# uaccess: $d missing (debugfs not mounted?)"; exit 1; }

cat $d/check >/tmp/uaccess-check.txt
sed 's/^/# /' /tmp/uaccess-check.txt
grep -q '^check: all ok' /tmp/uaccess-check.txt || { rmmod uaccess_bench; exit 1; }

r=1
while [ $r -le "${REPEAT:-1}" ]; do
	cat $d/bench >/tmp/uaccess-bench.txt
	[ $r = 1 ] && sed 's/^/# /' /tmp/uaccess-bench.txt
	# "   len |  kernel old new movsb |  kernel old new movsb"
	awk -F'|' '
		{ l = $1; gsub(/ /, "", l) }
		l ~ /^(8|16|32|63|64|256|r0\.\.63)$/ {
			split($2, f, " "); split($3, t, " ")
			printf "SAMPLE,uaccess-copy_from_user-%s,ticks (median),%s\n", l, f[1]
			printf "SAMPLE,uaccess-copy_to_user-%s,ticks (median),%s\n", l, t[1]
		}
		l == "r0..63" {
			printf "SAMPLE,uaccess-module-old-rma-from-r0..63,ticks (median),%s\n", f[2]
			printf "SAMPLE,uaccess-module-new-rma-from-r0..63,ticks (median),%s\n", f[3]
		}' /tmp/uaccess-bench.txt
	for size in 16 64 256; do
		out=$($udp --size $size --time $secs --runs 1)
		echo "# $out"
		pps=$(echo "$out" | awk '{ for (i = 1; i < NF; i++) if ($i == "recvfrom") { print $(i + 1); exit } }')
		[ -n "$pps" ] || { echo "# udp_flood printed no rate"; exit 1; }
		echo "SAMPLE,udp-recvfrom-${size}B,packets/s,$pps"
	done
	r=$((r + 1))
done
rmmod uaccess_bench
