#!/bin/sh
# x86 user copies (issue 14): the length of every copy_to_user() and
# copy_from_user() that reaches rep_movs_alternative() under a few real
# workloads, with no new kernel code: a kprobe event on the routine
# reading %rcx (the length), a hist trigger for the exact histogram of
# every call, and the trace buffer for the call sequence (its first
# $keep calls, in time order over all CPUs), which the host model replays
# (tools/bench/uaccess/extract-lengths, bench --replay).
# Only CPUs without FSRM call rep_movs_alternative() for every length; on
# FSRM CPUs (not TCG) copy_user_generic() inlines rep movsb and the probe
# sees nothing: the benchmark then says so and records nothing.
# Output, per workload W:
#   LENHIST,W,<len>,<calls>   len 0..63, then 64-127, 128-255, 256-1023,
#                             1024-4095 and 4096+ as ranges
#   LENSEQ,W,<len> <len> ...  the sequence, 256 lengths a line
#   SAMPLE,uaccess-lengths-W-below-64,% of calls,<share>
# Runs once whatever $REPEAT: the lengths are the workload's, not noise.
set -eu
T=/sys/kernel/tracing
[ -d $T/events ] || mount -t tracefs nodev $T 2>/dev/null || true
[ -w $T/kprobe_events ] || { echo "# uaccess-lengths: no $T/kprobe_events (CONFIG_KPROBE_EVENTS)"; exit 1; }
if grep -qw fsrm /proc/cpuinfo; then
	echo "# uaccess-lengths: this CPU has FSRM: copies do not call rep_movs_alternative(), nothing to trace"
	exit 0
fi
keep=50000
secs=3
if [ "${QUICK:-0}" = 1 ]; then
	keep=2000
	secs=1
fi
ev=$T/events/uacc/len
tmp=/tmp/uaccess-lengths
mkdir -p $tmp

probe_off() {
	echo 0 >$T/tracing_on
	[ -d $ev ] && echo 0 >$ev/enable
	[ -d $ev ] && echo '!hist:keys=len:size=8192' >$ev/trigger 2>/dev/null
	echo '-:uacc/len' >>$T/kprobe_events 2>/dev/null || true
}
trap probe_off EXIT

echo 'p:uacc/len rep_movs_alternative len=%cx:u64' >>$T/kprobe_events ||
	{ echo "# uaccess-lengths: cannot place a kprobe on rep_movs_alternative"; exit 1; }
echo 8192 >$T/buffer_size_kb

# The workloads: each a shell command, run with the probe on.
wl_tar() { tar cf - /bench /kselftest /usr 2>/dev/null | cat >/dev/null; }
wl_stat() { ls -lR /bench /kselftest /usr /bin /lib >/dev/null 2>&1; }
wl_fileio() {
	(cd $tmp && sysbench fileio --file-total-size=8M --file-num=4 prepare >/dev/null &&
		sysbench fileio --file-total-size=8M --file-num=4 --file-test-mode=rndrw \
			--file-block-size=4096 --time=$secs run >/dev/null &&
		sysbench fileio --file-total-size=8M --file-num=4 cleanup >/dev/null)
}
wl_messaging() { perf bench sched messaging -g 2 -l 20 >/dev/null 2>&1; }
wl_udp() { /bench/bin/udp_flood --size 64 --time $secs --runs 1 >/dev/null; }
wl_syscalls() { stress-ng --get 1 --sysinfo 1 --fstat 1 --timeout ${secs}s --quiet >/dev/null 2>&1; }

n=0
for w in tar stat fileio messaging udp syscalls; do
	n=$((n + 1))
	echo "# uaccess-lengths $n/6: $w"
	echo 0 >$T/tracing_on
	echo >$T/trace
	echo 'hist:keys=len:size=8192' >$ev/trigger
	echo 1 >$ev/enable
	echo 1 >$T/tracing_on
	wl_$w || { echo "# uaccess-lengths: workload $w failed"; exit 1; }
	echo 0 >$T/tracing_on
	echo 0 >$ev/enable
	# "{ len:         16 } hitcount:        123"
	sed -n 's/^{ len: *\([0-9]*\) } hitcount: *\([0-9]*\).*/\1 \2/p' $ev/hist >$tmp/hist
	echo '!hist:keys=len:size=8192' >$ev/trigger
	sed -n 's/.* len=\([0-9]*\)$/\1/p' $T/trace | head -n $keep >$tmp/seq
	awk -v w=$w '
		{ c[$1 < 64 ? $1 : $1 < 128 ? "64-127" : $1 < 256 ? "128-255" :
		    $1 < 1024 ? "256-1023" : $1 < 4096 ? "1024-4095" : "4096+"] += $2
		  all += $2; if ($1 < 64) lo += $2 }
		END {
			if (!all) { print "# uaccess-lengths: " w ": the probe saw no copy"; exit 1 }
			for (l = 0; l < 64; l++) if (l in c) printf "LENHIST,%s,%d,%d\n", w, l, c[l]
			split("64-127 128-255 256-1023 1024-4095 4096+", r, " ")
			for (i = 1; i <= 5; i++) if (r[i] in c) printf "LENHIST,%s,%s,%d\n", w, r[i], c[r[i]]
			printf "# uaccess-lengths: %s: %d copies, %.1f%% below 64 bytes\n", w, all, 100 * lo / all
			printf "SAMPLE,uaccess-lengths-%s-below-64,%% of calls,%.2f\n", w, 100 * lo / all
		}' $tmp/hist
	echo "# uaccess-lengths: $w: $(wc -l <$tmp/seq) calls of the sequence kept (at most $keep)"
	awk -v w=$w '{ s = s (NR % 256 == 1 ? "" : " ") $1 }
		NR % 256 == 0 { print "LENSEQ," w "," s; s = "" }
		END { if (s != "") print "LENSEQ," w "," s }' $tmp/seq
done
rm -rf $tmp
