#!/bin/sh
# usage: sh 45-coresched-price.sh   (run by /bench/run-guest; REPEAT, QUICK)
#
# The price of core scheduling's wait for the siblings (issue 16): the
# series' kselftest cs_cgroup_isolation (from $CS_ISOLATION, default
# /kselftest/sched/cs_cgroup_isolation) in its feature A/B mode (-F):
# in one boot, the prctl and cgroup ways each run with the sched feature
# CORE_SIBLING_WAIT on and off, interleaved (ABBA), $REPEAT runs of
# $CS_PRICE_SECONDS (10; QUICK=1: 2 s, one run) each, for the loads
#   cpu1    one CPU-bound task per core in each of two groups (-n cores)
#   cpu2    two per core and group (-n 2*cores): cookies time-share cores
#   mixed2  group A two CPU-bound tasks per core, group B as many sleepers
#           (pipe ping-pong pairs, a round trip every millisecond) (-m)
# (QUICK=1, make check's smoke run: mixed2 only, which takes both -F and
# -m through.)  Its "# price," lines become
#   SAMPLE,coresched-price-<load>-<way>-<on|off>-<metric>,<unit>,<value>
# one per metric and run: share %, episodes count, longest us, switches
# 1/s, ipis 1/s, ipis-per-switch ratio, waits 1/s, wait-share %,
# wait-mean us, wait-max us, forceidle ms/s, forceidle-task ms/s, work M/s,
# and for mixed2 rtt-rate 1/s, rtt-median us(median), rtt-p95 us
# (cs_cgroup_isolation.c says what each is).  The wait histogram
# (wait-hist-*) is summed into the table only, not made samples.
# At the end, per load and way, the table: feature on and off, mean(std%)
# over the runs, and the price ((on - off) / off).  On a kernel without the
# feature (6.12 as released: no cpu.core_tag either, so prctl only) every
# run is the feature-off equivalent and only that column is printed.
# The kselftest's own pass/fail checks are shown, not applied: short runs
# make some of them noise here; the kselftest run is their gate.
# Under TCG the durations, rates and latencies are emulation.
set -eu

prog=coresched-price
iso=${CS_ISOLATION:-/kselftest/sched/cs_cgroup_isolation}
tmp=/tmp/coresched-price.$$

repeat=${REPEAT:-1}
case $repeat in '' | *[!0-9]* | 0) echo "# $prog: REPEAT '$repeat' is not a positive number"; exit 1 ;; esac
secs=${CS_PRICE_SECONDS:-10}
ctl=3
loads="cpu1 cpu2 mixed2"
if [ "${QUICK:-0}" = 1 ]; then
	secs=2
	ctl=1
	repeat=1
	loads=mixed2
fi
case $secs in '' | *[!0-9]* | 0) echo "# $prog: CS_PRICE_SECONDS '$secs' is not a positive number"; exit 1 ;; esac

say() { echo "# $prog: $*"; }

cleanup() {
	rc=$?
	rm -rf "$tmp"
	exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

[ -x "$iso" ] || { say "no $iso (tools/build-selftests installs it)"; exit 1; }
mkdir -p "$tmp"

cores=$(cat /sys/devices/system/cpu/cpu*/topology/core_cpus_list 2>/dev/null | sort -u | wc -l)
[ "$cores" -gt 0 ] || cores=$(grep -c '^processor' /proc/cpuinfo)
model=$(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo)
say "kernel $(uname -r), $(grep -c '^processor' /proc/cpuinfo) CPUs on $cores cores ($model)"
case $model in
*"QEMU TCG"*) say "accelerator TCG: durations, rates and latencies are emulation, not speed" ;;
esac
say "loads: $loads; $secs s per run, $repeat runs of each way and feature"

start=$(date +%s)
for load in $loads; do
	case $load in
	cpu1) args="-n $cores" ;;
	cpu2) args="-n $((2 * cores))" ;;
	mixed2) args="-m -n $((2 * cores))" ;;
	esac
	say "$load: $iso -F $args -d $secs -c $ctl -r $repeat"
	rc=0
	# shellcheck disable=SC2086 # $args: several options
	"$iso" -F $args -d "$secs" -c "$ctl" -r "$repeat" >"$tmp/$load.out" 2>&1 || rc=$?
	# Its TAP, as comments of this benchmark.
	sed 's/^/# /' "$tmp/$load.out"
	case $rc in
	0) ;;
	1) say "$load: cs_cgroup_isolation reported failed checks (shown above, not applied here)" ;;
	4)
		say "$load: cs_cgroup_isolation skipped (see above): nothing measured"
		continue
		;;
	*)
		say "$load: cs_cgroup_isolation failed (status $rc)"
		exit 1
		;;
	esac
	grep -q '^# price,' "$tmp/$load.out" || { say "$load: no price lines in its output"; exit 1; }
	grep '^# price,' "$tmp/$load.out" >>"$tmp/price"
	grep '^# price-config,' "$tmp/$load.out" | head -1 >>"$tmp/config"
	say "$load done ($(($(date +%s) - start)) s elapsed)"
done
[ -s "$tmp/price" ] || { say "no load was measured"; exit 0; }

# "# price,LOAD,WAY,FEATURE,METRIC,UNIT,VALUE" -> SAMPLE lines
awk -F, '
$5 ~ /^wait-hist-/ { next }
{
	unit = $6
	if ($5 == "rtt-median") unit = "us(median)"
	printf "SAMPLE,coresched-price-%s-%s-%s-%s,%s,%s\n", $2, $3, $4, $5, unit, $7
}' "$tmp/price"

feature=present
grep -q 'feature=absent' "$tmp/config" && feature=absent
[ "$feature" = absent ] &&
	say "this kernel has no CORE_SIBLING_WAIT: its runs are the feature-off equivalent (column off only)"

# The table: per load and way, metric rows, on and off columns.
awk -F, -v feature="$feature" '
# (busybox awk may lack libm: no sqrt(), so Newton iterations)
function root(x,   y, i) {
	if (x <= 0) return 0
	y = x > 1 ? x : 1
	for (i = 0; i < 100; i++) y = (y + x / y) / 2
	return y
}
function mean(k) { return sum[k] / cnt[k] }
function stdp(k,   m, i, d, acc) {
	if (cnt[k] < 2) return 0
	m = mean(k)
	for (i = 1; i <= cnt[k]; i++) { d = val[k, i] - m; acc += d * d }
	return m != 0 ? 100 * root(acc / (cnt[k] - 1)) / (m < 0 ? -m : m) : 0
}
function cell(k) {
	if (!cnt[k]) return sprintf("%22s", "n/a")
	return sprintf("%12.4g(%6.1f%%)", mean(k), stdp(k))
}
{
	if (!($2 in loadseen)) { loadseen[$2] = 1; ls[++nl] = $2 }
	k = $2 SUBSEP $3 SUBSEP $4 SUBSEP $5
	if ($5 ~ /^wait-hist-/) { hist[k] += $7; seenh[$2 SUBSEP $3 SUBSEP $4] = 1; next }
	cnt[k]++; sum[k] += $7; val[k, cnt[k]] = $7
	seen[$2 SUBSEP $3] = 1
}
END {
	nm = split("share episodes longest switches ipis ipis-per-switch waits wait-share wait-mean wait-max forceidle forceidle-task work rtt-rate rtt-median rtt-p95", ms, " ")
	split("% count us 1/s 1/s ratio 1/s % us us ms/s ms/s M/s 1/s us us", us, " ")
	nh = split("lt4us lt16us lt64us lt256us lt1ms lt4ms lt16ms ge16ms", hb, " ")
	for (i = 1; i <= nl; i++)
		for (w = 1; w <= 2; w++) {
			way = w == 1 ? "prctl" : "cgroup"
			if (!((ls[i] SUBSEP way) in seen)) continue
			printf "# %s, %s: mean(std%%) over the runs%s\n", ls[i], way,
				feature == "absent" ? "" : "; price = (on - off) / off"
			if (ls[i] ~ /^mixed/)
				print "# (work: the CPU-bound tasks of A; rtt-*: the round trips of B)"
			if (feature == "absent")
				printf "# %-16s %-6s %22s\n", "metric", "unit", "off (no feature)"
			else
				printf "# %-16s %-6s %22s %22s %9s\n", "metric", "unit", "on", "off", "price"
			for (j = 1; j <= nm; j++) {
				kon = ls[i] SUBSEP way SUBSEP "on" SUBSEP ms[j]
				koff = ls[i] SUBSEP way SUBSEP "off" SUBSEP ms[j]
				if (!cnt[kon] && !cnt[koff]) continue
				if (feature == "absent") {
					printf "# %-16s %-6s %s\n", ms[j], us[j], cell(koff)
					continue
				}
				p = "n/a"
				if (cnt[kon] && cnt[koff] && mean(koff) != 0)
					p = sprintf("%+8.1f%%", 100 * (mean(kon) - mean(koff)) / mean(koff))
				printf "# %-16s %-6s %s %s %9s\n", ms[j], us[j], cell(kon), cell(koff), p
			}
			for (f = 1; f <= 2; f++) {
				ft = f == 1 ? "on" : "off"
				if (!((ls[i] SUBSEP way SUBSEP ft) in seenh)) continue
				line = sprintf("# %-16s %-6s", "waits, " ft, "count")
				for (b = 1; b <= nh; b++)
					line = line sprintf(" %s:%d", hb[b], hist[ls[i] SUBSEP way SUBSEP ft SUBSEP "wait-hist-" hb[b]])
				print line
			}
		}
}' "$tmp/price"
say "done in $(($(date +%s) - start)) s"
