#!/bin/sh
# usage: sh 40-coresched-table.sh   (run by /bench/run-guest; REPEAT, QUICK)
#
# Core scheduling latency table (issue 7), the 2019 "Core scheduling v2"
# measurement (Aubrey Li, LKML 2019-04-27): N sysbench CPU threads in one
# cgroup (cs-table-sysbench), N vecload threads (AVX2 matrix products, or
# SSE2 where the CPU lacks AVX2) in another (cs-table-vecload), for N = 1,
# 2, 4, ... up to twice the online CPUs (QUICK=1: 1 and the CPU count,
# shorter runs), in three modes:
#   baseline   no core scheduling;
#   coresched  both cgroups tagged (cpu.core_tag=1); skipped, saying so, on
#              kernels without cpu.core_tag (6.12 has only the prctl);
#   coresched-nowait
#              as coresched, with the sched feature CORE_SIBLING_WAIT off
#              (NO_CORE_SIBLING_WAIT in /sys/kernel/debug/sched/features:
#              a core switching cookies does not wait for the siblings to
#              take their IPI); run interleaved with coresched (one run of
#              each per repeat and N) in the same boot; skipped, saying so,
#              where the kernel has no such feature;
#   nosmt      SMT off (/sys/devices/system/cpu/smt/control), back on after.
# Each run ($REPEAT per mode and N) uses fresh cgroups and prints
#   SAMPLE,coresched-<mode>-<N>x<N>-sysbench-p95,ms,<sysbench 95th percentile>
#   SAMPLE,coresched-<mode>-<N>x<N>-forceidle,ms,<core_sched.force_idle_usec
#          of both cgroups' cpu.stat, summed, in ms>
# and at the end the 2019 table (mean and std% over the repeats; +/- is
# (baseline - mode) / baseline: positive means a lower p95 than baseline).
# kernel.sched_schedstats is set to 1 for the forced-idle accounting.
# Cgroups, processes, SMT, sched_schedstats and the feature are restored on
# any exit.
# Under TCG the figures show the machinery works, not speed.
set -eu

cg=/sys/fs/cgroup
smt=/sys/devices/system/cpu/smt/control
features=/sys/kernel/debug/sched/features
sstat=/proc/sys/kernel/sched_schedstats
cpudir=/sys/devices/system/cpu
cgA=$cg/cs-table-sysbench
cgB=$cg/cs-table-vecload
tmp=/tmp/coresched-table.$$

repeat=${REPEAT:-1}
case $repeat in '' | *[!0-9]* | 0) echo "# coresched: REPEAT '$repeat' is not a positive number"; exit 1 ;; esac
secs=8
[ "${QUICK:-0}" = 1 ] && secs=3

# State to restore.
vpid=
smt_off=0
sstat_old=
cpu_enabled=0
feat_old=

say() { echo "# coresched: $*"; }

# Kill whatever is left in a cgroup and remove it.
drop_cgroup() {
	[ -d "$1" ] || return 0
	if [ -f "$1/cgroup.kill" ]; then
		echo 1 >"$1/cgroup.kill" 2>/dev/null || true
	fi
	# shellcheck disable=SC2013 # pids, one a line
	for p in $(cat "$1/cgroup.procs" 2>/dev/null); do
		kill -KILL "$p" 2>/dev/null || true
	done
	for _ in 1 2 3 4 5 6 7 8 9 10; do
		rmdir "$1" 2>/dev/null && return 0
		sleep 1
	done
	say "could not remove $1"
	return 1
}

cleanup() {
	rc=$?
	set +e
	trap - EXIT INT TERM
	if [ -n "$vpid" ]; then
		kill "$vpid" 2>/dev/null
		wait "$vpid" 2>/dev/null
	fi
	drop_cgroup "$cgA" || rc=1
	drop_cgroup "$cgB" || rc=1
	if [ "$cpu_enabled" = 1 ]; then
		echo -cpu >"$cg/cgroup.subtree_control" 2>/dev/null ||
			say "note: could not disable the cpu controller again"
	fi
	if [ "$smt_off" = 1 ]; then
		if echo on >"$smt" && [ "$(cat "$smt")" = on ]; then
			say "SMT back on, online CPUs $(cat $cpudir/online)"
		else
			say "FAILED to turn SMT back on ($smt: $(cat "$smt"))"
			rc=1
		fi
	fi
	if [ -n "$sstat_old" ]; then
		echo "$sstat_old" >"$sstat" 2>/dev/null || say "could not restore $sstat"
	fi
	if [ -n "$feat_old" ]; then
		echo "$feat_old" >"$features" 2>/dev/null || say "could not restore $feat_old in $features"
	fi
	rm -rf "$tmp"
	exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# What the guest has.
[ -f "$cg/cgroup.controllers" ] || { say "no cgroup2 at $cg"; exit 1; }
grep -qw cpu "$cg/cgroup.controllers" || { say "no cpu controller in $cg/cgroup.controllers"; exit 1; }
command -v sysbench >/dev/null || { say "no sysbench on PATH"; exit 1; }
vl=$(command -v vecload 2>/dev/null || echo /bench/bin/vecload)
[ -x "$vl" ] || { say "no vecload (tools/bench/coresched/guest)"; exit 1; }
mkdir -p "$tmp"
drop_cgroup "$cgA"
drop_cgroup "$cgB"

cpus=$(grep -c '^processor' /proc/cpuinfo)
# Threads per core from cpu0's siblings ("0-1", "0,2", "0").
tpc=0
if [ -f $cpudir/cpu0/topology/thread_siblings_list ]; then
	tpc=$(awk -F, '{ for (i = 1; i <= NF; i++) n += split($i, r, "-") == 2 ? r[2] - r[1] + 1 : 1 } END { print n + 0 }' \
		$cpudir/cpu0/topology/thread_siblings_list)
fi
model=$(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo)
avx2=no
grep -qw avx2 /proc/cpuinfo && avx2=yes
say "kernel $(uname -r), $cpus CPUs ($model), $tpc threads per core, siblings:" \
	"$(cat $cpudir/cpu*/topology/thread_siblings_list 2>/dev/null | sort -u | tr '\n' ' ')"
visa=$("$vl" -i)
say "cpuinfo avx2 flag: $avx2; vecload uses $visa"
case $avx2/$visa in
yes/avx2*) ;;
yes/*) say "note: the CPU has AVX2 but vecload runs its $visa kernel" ;;
esac
case $model in
*"QEMU TCG"*) say "accelerator TCG (emulated: these figures show the machinery, not speed)" ;;
esac

# The cpu controller for our cgroups (cpu.core_tag lives there).
if ! grep -qw cpu "$cg/cgroup.subtree_control"; then
	echo +cpu >"$cg/cgroup.subtree_control"
	cpu_enabled=1
fi

# Forced-idle accounting needs schedstats (kernel.sched_schedstats).
if [ -w "$sstat" ]; then
	sstat_old=$(cat "$sstat")
	echo 1 >"$sstat"
else
	say "no $sstat: forced idle is not accounted"
fi

# Modes this kernel and this guest can run.
modes=baseline
skipped=
mkdir "$cgA"
if [ "$tpc" -lt 2 ]; then
	say "no SMT siblings: coresched, coresched-nowait and nosmt skipped"
	skipped="coresched coresched-nowait nosmt"
else
	if [ -f "$cgA/cpu.core_tag" ]; then
		modes="$modes coresched"
		# The wait for the siblings, a sched feature (on by default).
		if grep -qw CORE_SIBLING_WAIT "$features" 2>/dev/null; then
			feat_old=CORE_SIBLING_WAIT
		elif grep -qw NO_CORE_SIBLING_WAIT "$features" 2>/dev/null; then
			feat_old=NO_CORE_SIBLING_WAIT
		fi
		if [ -n "$feat_old" ] && [ -w "$features" ]; then
			modes="$modes coresched-nowait"
		else
			feat_old=
			say "no CORE_SIBLING_WAIT in $features: coresched-nowait mode skipped"
			skipped=coresched-nowait
		fi
	else
		say "no cpu.core_tag (kernel without cgroup core scheduling): coresched modes skipped"
		skipped="coresched coresched-nowait"
	fi
	s=$(cat "$smt" 2>/dev/null || echo missing)
	if [ "$s" = on ] && [ -w "$smt" ]; then
		modes="$modes nosmt"
	else
		say "$smt is '$s', not 'on': nosmt mode skipped"
		skipped="${skipped:+$skipped }nosmt"
	fi
fi
rmdir "$cgA"

if [ "${QUICK:-0}" = 1 ]; then
	counts=1
	[ "$cpus" -gt 1 ] && counts="1 $cpus"
else
	counts=
	n=1
	while [ $n -le $((2 * cpus)) ]; do
		counts="${counts:+$counts }$n"
		n=$((n * 2))
	done
fi
say "modes: $modes; threads: $counts; $secs s per run, $repeat runs each"

# sh -c "$into" NAME CGROUP PROGRAM ARGS...: a shell moves itself into
# CGROUP, then becomes PROGRAM (so that $! is PROGRAM's pid).
# shellcheck disable=SC2016 # expanded by that shell
into='echo $$ >"$1/cgroup.procs" && shift && exec "$@"'

# The wait for the siblings on ($1 = CORE_SIBLING_WAIT) or off (NO_...).
set_feature() {
	[ -n "$feat_old" ] || return 0
	if ! echo "$1" >"$features" || ! grep -qw "$1" "$features"; then
		say "writing $1 to $features failed"
		exit 1
	fi
}

# One run: mode $1, $2 threads of each, repeat $3.
run_one() {
	mode=$1 n=$2 r=$3
	mkdir "$cgA" "$cgB"
	case $mode in
	coresched) set_feature CORE_SIBLING_WAIT ;;
	coresched-nowait) set_feature NO_CORE_SIBLING_WAIT ;;
	esac
	case $mode in
	coresched*)
		if ! echo 1 >"$cgA/cpu.core_tag" || ! echo 1 >"$cgB/cpu.core_tag"; then
			say "tagging the cgroups failed"
			exit 1
		fi
		;;
	esac
	sh -c "$into" into-vecload "$cgB" "$vl" "$n" $((secs + 60)) >"$tmp/vecload.out" 2>&1 &
	vpid=$!
	sleep 1
	if ! kill -0 "$vpid" 2>/dev/null || ! grep -qx "$vpid" "$cgB/cgroup.procs"; then
		say "vecload did not start in $cgB:"
		sed 's/^/#   /' "$tmp/vecload.out"
		exit 1
	fi
	if ! sh -c "$into" into-sysbench "$cgA" sysbench cpu --threads="$n" --time="$secs" run >"$tmp/sysbench.out" 2>&1; then
		say "sysbench failed:"
		sed 's/^/#   /' "$tmp/sysbench.out"
		exit 1
	fi
	# "    95th percentile:                        2.03"
	p95=$(awk '/95th percentile:/ { print $3; exit }' "$tmp/sysbench.out")
	case $p95 in
	[0-9]*) ;;
	*)
		say "sysbench printed no 95th percentile:"
		sed 's/^/#   /' "$tmp/sysbench.out"
		exit 1
		;;
	esac
	# core_forceidle_sum (ms) of the vecload threads while they still live.
	fip=$(cat /proc/"$vpid"/task/*/sched 2>/dev/null |
		awk -F: '$1 ~ /^core_forceidle_sum *$/ { s += $2; f = 1 } END { if (f) printf "%.3f", s }')
	kill "$vpid" 2>/dev/null || true
	vrc=0
	wait "$vpid" || vrc=$?
	vpid=
	[ "$vrc" = 0 ] || { say "vecload failed (status $vrc):"; sed 's/^/#   /' "$tmp/vecload.out"; exit 1; }
	rate=$(awk '{ for (i = 2; i <= NF; i++) if ($i == "matmul/s,") { print $(i - 1); exit } }' "$tmp/vecload.out")
	# core_sched.force_idle_usec of both cgroups (all their tasks, exited too).
	fia=$(awk '$1 == "core_sched.force_idle_usec" { print $2 }' "$cgA/cpu.stat" 2>/dev/null || true)
	fib=$(awk '$1 == "core_sched.force_idle_usec" { print $2 }' "$cgB/cpu.stat" 2>/dev/null || true)
	drop_cgroup "$cgA"
	drop_cgroup "$cgB"
	set_feature "$feat_old"
	echo "SAMPLE,coresched-$mode-${n}x$n-sysbench-p95,ms,$p95"
	fi_ms=
	if [ -n "$fia" ] && [ -n "$fib" ]; then
		fi_ms=$(awk -v a="$fia" -v b="$fib" 'BEGIN { printf "%.3f", (a + b) / 1000 }')
		echo "SAMPLE,coresched-$mode-${n}x$n-forceidle,ms,$fi_ms"
	fi
	echo "# $mode ${n}x$n run $r: p95 $p95 ms; forced idle ${fi_ms:-n/a} ms" \
		"(cpu.stat usec: sysbench ${fia:-n/a}, vecload ${fib:-n/a};" \
		"vecload core_forceidle_sum ${fip:-n/a} ms); vecload ${rate:-?} matmul/s"
	echo "$mode $n $p95 ${fi_ms:--}" >>"$tmp/results"
}

start=$(date +%s)
for mode in $modes; do
	# coresched-nowait runs beside coresched, interleaved: see below.
	[ "$mode" = coresched-nowait ] && continue
	with=
	if [ "$mode" = coresched ] && [ -n "$feat_old" ]; then
		with=coresched-nowait
	fi
	if [ "$mode" = nosmt ]; then
		smt_off=1
		echo off >"$smt"
		say "SMT off, online CPUs $(cat $cpudir/online)"
	fi
	r=1
	while [ $r -le "$repeat" ]; do
		for n in $counts; do
			run_one "$mode" "$n" "$r"
			[ -z "$with" ] || run_one "$with" "$n" "$r"
		done
		r=$((r + 1))
	done
	if [ "$mode" = nosmt ]; then
		echo on >"$smt"
		smt_off=0
		say "SMT on, online CPUs $(cat $cpudir/online)"
	fi
	say "$mode${with:+ and $with} done ($(($(date +%s) - start)) s elapsed)"
done

# The 2019 table: sysbench p95 (ms), mean(std%) over the runs, then forced idle.
awk -v counts="$counts" -v skipped="$skipped" '
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
	return m > 0 ? 100 * root(acc / (cnt[k] - 1)) / m : 0
}
{
	k = $1 SUBSEP $2
	cnt[k]++; sum[k] += $3; val[k, cnt[k]] = $3
	if ($4 != "-") { ficnt[k]++; fisum[k] += $4 }
}
END {
	nc = split(counts, cs, " ")
	print "# sysbench 95th percentile latency (ms), mean(std%), +/- vs baseline"
	print "# (coresched-nowait: coresched with NO_CORE_SIBLING_WAIT, the same boot)"
	printf "# %-8s%19s%19s%9s%19s%9s%19s%9s\n", "NA/AVX", "baseline(std%)", "coresched(std%)", "+/-", "nowait(std%)", "+/-", "nosmt(std%)", "+/-"
	for (i = 1; i <= nc; i++) {
		t = cs[i]
		b = "baseline" SUBSEP t
		line = sprintf("# %-8s", t "/" t)
		line = line (cnt[b] ? sprintf(" %9.3f(%6.2f%%)", mean(b), stdp(b)) : sprintf(" %18s", "n/a"))
		split("coresched coresched-nowait nosmt", ms, " ")
		for (j = 1; j <= 3; j++) {
			k = ms[j] SUBSEP t
			if (cnt[k] && cnt[b] && mean(b) > 0)
				line = line sprintf(" %9.3f(%6.2f%%) %7.2f%%", mean(k), stdp(k), 100 * (mean(b) - mean(k)) / mean(b))
			else if (cnt[k])
				line = line sprintf(" %9.3f(%6.2f%%) %8s", mean(k), stdp(k), "n/a")
			else
				line = line sprintf(" %18s %8s", "skipped", "")
		}
		sub(/ +$/, "", line)
		print line
	}
	print "# forced idle (ms, core_sched.force_idle_usec of both cgroups), mean"
	printf "# %-8s %12s %12s %12s %12s\n", "NA/AVX", "baseline", "coresched", "nowait", "nosmt"
	for (i = 1; i <= nc; i++) {
		t = cs[i]
		line = sprintf("# %-8s", t "/" t)
		split("baseline coresched coresched-nowait nosmt", ms, " ")
		for (j = 1; j <= 4; j++) {
			k = ms[j] SUBSEP t
			line = line (ficnt[k] ? sprintf(" %12.3f", fisum[k] / ficnt[k]) : sprintf(" %12s", "n/a"))
		}
		print line
	}
	if (skipped != "") print "# skipped modes: " skipped
}' "$tmp/results"
