#!/bin/sh
# usage: sh 30-selinux-latency.sh   (run by /bench/run-guest; REPEAT, QUICK)
#
# SELinux lookup latency (issue 3): selinux-lat loads the policy if none is
# loaded (/etc/selinux/policy.33), then times with the function_graph
# tracer, $REPEAT times:
#  - the AVC: avc_has_perm() (avc_lookup() is inlined into it, and
#    avc_has_perm_noaudit() is notrace), for stat()/open() of 480 tmpfs
#    files labelled with 480 types from one domain, after an AVC flush and
#    an untimed round;
#  - the avtab: avtab_search_node() under writes to /sys/fs/selinux/access
#    (security_compute_av_user()) for subjects x targets x {file,dir};
# printing min/q1/median/q3/max in ns, the AVC hash_stats after the AVC
# workload, and the avtab chain statistics printed at policy load.  Under
# TCG the times are not speed results; the chain statistics are exact.
# Fails if it timed nothing.
set -eu
files=480
rounds=50
subjects=32
targets=48
arounds=1
if [ "${QUICK:-0}" = 1 ]; then
	rounds=3
	subjects=4
	targets=16
fi
out=/tmp/selinux-lat.$$
rc=0
selinux-lat -n "${REPEAT:-1}" -f $files -r $rounds -s $subjects -t $targets \
	-R $arounds >"$out" 2>&1 || rc=$?
cat "$out"
n=$(grep -c '^SAMPLE,selinux-.*-latency,' "$out" || true)
rm -f "$out"
[ "$rc" = 0 ] || { echo "# selinux-lat failed (status $rc)"; exit 1; }
[ "$n" -gt 0 ] || { echo "# selinux-lat timed nothing"; exit 1; }
