#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Core scheduling by cgroup (cpu.core_tag) with a sched_ext scheduler
# loaded: the guest test of the sched_ext lane (tools/check-scx), installed
# as the kselftest scx:cs_scx.sh next to scx_simple and scx_qmap, run by
# the guest's /init under the kselftest runner.  TAP on stdout.
#
# First the control, without a BPF scheduler: cs_cgroup_isolation's short
# runs, counting the sibling wait's held-pick waits (.core_wait_count, over
# the cpu#N sections of /sys/kernel/debug/sched/debug, with
# kernel.sched_schedstats=1).  They must happen, or the guard check below
# would prove nothing.  Then, for each scheduler:
#   - start it; /sys/kernel/sched_ext/state must read "enabled" and
#     root/ops its name within CS_SCX_ENABLE_TIMEOUT seconds;
#   - cs_cgroup_isolation, the same runs: its untagged control and its
#     one-cookie-per-group checks (its results 1-3) must pass; its share
#     checks (4-7) are printed, not applied: with a BPF scheduler the
#     IPI window that the sibling wait closes is open again (see below);
#   - cs_cgroup_test: every case passes;
#   - the held picks did not wait while it was loaded (core_wait_count did
#     not move): sched_core_sibling_unsafe() returns false when
#     scx_enabled(), since SCX_KICK_WAIT can deadlock against the wait in
#     this kernel (Documentation/sched-ext-core-sched.md);
#   - it is still enabled after the tests: not kicked out (a stall or an
#     error disables it with "sched_ext: BPF scheduler ... disabled (...)");
#   - on SIGINT it unregisters: "EXIT: unregistered from user space", state
#     "disabled".
# The co-execution share (tasks of two cookies on sibling CPUs, as a share
# of both-busy time) under SCX is a diagnostic line ("# cs_scx: ..."):
# with the guard, the reschedule-IPI window of 6.12 without the wait is
# expected (under TCG, tens of percent).
#
# Everything is skipped, with the reason, without /sys/kernel/sched_ext.
# Environment (the guest gets NAME=value kernel parameters as variables):
#   CS_SCX_SCHEDULERS        programs, in this directory ("scx_simple scx_qmap")
#   CS_SCX_SECONDS           each prctl and cgroup run of the isolation check (5)
#   CS_SCX_CONTROL_SECONDS   its untagged run (3)
#   CS_SCX_REPEATS           its runs of each way (1)
#   CS_SCX_TASKS             its tasks per group (default: its own, two per core)
#   CS_SCX_OFF_SECONDS       its feature-off run of each way (-o; 0: none, the
#                            default: under SCX the guard makes on and off alike)
#   CS_SCX_ENABLE_TIMEOUT    seconds for a scheduler to be enabled (120)
#   CS_SCX_RUN_TIMEOUT       seconds for each test program (600)
#   CS_SCX_SYSROOT           a directory standing for / in the paths of
#                            sysfs, debugfs, procfs and /dev/kmsg (the host
#                            test selftests/test-scx.sh, with mock programs)
# Exit status: 0 all passed, 1 a failure, 4 everything skipped.

here=$(cd "$(dirname "$0")" && pwd)
ksft=$(dirname "$here")
iso=$ksft/sched/cs_cgroup_isolation
cgt=$ksft/sched/cs_cgroup_test
sysroot=${CS_SCX_SYSROOT:-}
scx=$sysroot/sys/kernel/sched_ext
dbg=$sysroot/sys/kernel/debug/sched
schedstats=$sysroot/proc/sys/kernel/sched_schedstats
kmsg=$sysroot/dev/kmsg
scheds=${CS_SCX_SCHEDULERS:-scx_simple scx_qmap}
secs=${CS_SCX_SECONDS:-5}
ctl_secs=${CS_SCX_CONTROL_SECONDS:-3}
repeats=${CS_SCX_REPEATS:-1}
tasks=${CS_SCX_TASKS:-}
off_secs=${CS_SCX_OFF_SECONDS:-0}
enable_tmo=${CS_SCX_ENABLE_TIMEOUT:-120}
run_tmo=${CS_SCX_RUN_TIMEOUT:-600}
per_sched=6

for v in "$secs" "$ctl_secs" "$repeats" "$off_secs" "$enable_tmo" "$run_tmo" "${tasks:-0}"; do
	case $v in
	'' | *[!0-9]*)
		echo "cs_scx.sh: CS_SCX_* values must be numbers, got '$v'" >&2
		exit 1
		;;
	esac
done

tmp=$(mktemp -d "${TMPDIR:-/tmp}/cs_scx.XXXXXX") || exit 1
n=0
fails=0
passes=0
pid=
stats_saved=
# alive PID: running (a zombie, exited but not yet waited for, is not).
alive() {
	[ -r "/proc/$1/status" ] && ! grep -q '^State:[[:space:]]*Z' "/proc/$1/status"
}
# shellcheck disable=SC2317 # the EXIT trap
cleanup() {
	[ -z "$pid" ] || stop "$pid" 5
	[ -z "$stats_saved" ] || echo "$stats_saved" >"$schedstats"
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

ok() {
	n=$((n + 1))
	passes=$((passes + 1))
	echo "ok $n $*"
}
fail() {
	n=$((n + 1))
	fails=$((fails + 1))
	echo "not ok $n $*"
}
# skip REASON DESCRIPTION
skip() {
	n=$((n + 1))
	echo "ok $n $2 # SKIP $1"
}
diag() {
	echo "# $*"
}
# indent FILE: a program's output as diagnostics (never counted as results).
indent() {
	sed 's/^/#   /' "$1"
}

# waits: the held-pick waits so far, summed over the CPUs; "none" when the
# kernel does not print them (no wait schedstats, or schedstats off).
waits() {
	awk '/^[ \t]*\.core_wait_count[ \t]/ { s += $NF; found = 1 }
	END { if (found) print s + 0; else print "none" }' "$dbg/debug" 2>/dev/null || echo none
}

# feature: "on", "off" or "none" for the CORE_SIBLING_WAIT sched feature.
feature() {
	f=$(cat "$dbg/features" 2>/dev/null)
	case " $f " in
	*" NO_CORE_SIBLING_WAIT "*) echo off ;;
	*" CORE_SIBLING_WAIT "*) echo on ;;
	*) echo none ;;
	esac
}

# with_timeout SECS CMD...: run CMD, killed after SECS; status 124 then.
with_timeout() {
	t=$1
	shift
	"$@" &
	wpid=$!
	# The watcher ends within a second of CMD and holds none of its output
	# (a sleeping watcher left behind would keep the kselftest runner's
	# output pipe open).
	(
		i=0
		while [ "$i" -lt "$t" ]; do
			sleep 1
			alive "$wpid" || exit 0
			i=$((i + 1))
		done
		kill -KILL "$wpid" && echo timeout >"$tmp/timeout.$wpid"
	) </dev/null >/dev/null 2>&1 &
	spid=$!
	wait "$wpid"
	wrc=$?
	kill "$spid" 2>/dev/null
	wait "$spid" 2>/dev/null
	if [ -f "$tmp/timeout.$wpid" ]; then
		rm -f "$tmp/timeout.$wpid"
		return 124
	fi
	return $wrc
}

# run_iso LABEL: cs_cgroup_isolation's short runs, output in $tmp/iso-LABEL;
# sets iso_rc.
run_iso() {
	set -- -d "$secs" -c "$ctl_secs" -r "$repeats" -o "$off_secs"
	[ -z "$tasks" ] || set -- "$@" -n "$tasks"
	with_timeout "$run_tmo" "$iso" "$@" >"$tmp/iso-$label" 2>&1
	iso_rc=$?
}

# share FILE WAY: "X% (longest Y us)" of the isolation check's summary line.
share() {
	sed -n "s/^# $2  *\([0-9.]*%\).*longest \([0-9.]*\) us.*/\1 (longest episode \2 us)/p" "$1" | head -1
}

# kmsg_since MARK: the kernel log from the line MARK on.
kmsg_since() {
	if [ -n "$sysroot" ]; then
		cat "$kmsg"
	else
		dmesg
	fi 2>/dev/null | awk -v m="$1" 'index($0, m) { on = 1 } on'
}

# stop PID SECS: SIGINT, then SIGKILL if it still runs after SECS seconds;
# reaps it.  Status 0 when SIGINT was enough; stop_t: the seconds it took.
stop() {
	kill -INT "$1" 2>/dev/null
	stop_t=0
	while alive "$1" && [ "$stop_t" -lt "$2" ]; do
		sleep 1
		stop_t=$((stop_t + 1))
	done
	if alive "$1"; then
		kill -KILL "$1" 2>/dev/null
		wait "$1" 2>/dev/null
		return 1
	fi
	return 0
}

nsched=0
for s in $scheds; do
	nsched=$((nsched + 1))
done
echo "TAP version 13"
echo "1..$((1 + per_sched * nsched))"

if [ ! -d "$scx" ]; then
	why="no $scx: this kernel has no sched_ext (CONFIG_SCHED_CLASS_EXT)"
	skip "$why" "control: held picks wait without a BPF scheduler"
	for s in $scheds; do
		for t in enabled isolation cgroup_test guard still_enabled stop; do
			skip "$why" "$s: $t"
		done
	done
	exit 4
fi
for p in "$iso" "$cgt"; do
	[ -x "$p" ] || { echo "cs_scx.sh: no $p (the sched kselftests)" >&2; exit 1; }
done

diag "cs_scx: $(uname -r), $(grep -c '^processor' /proc/cpuinfo) CPUs," \
	"cpu0 siblings $(cat /sys/devices/system/cpu/cpu0/topology/thread_siblings_list 2>/dev/null)," \
	"sched_ext state $(cat "$scx/state"), CORE_SIBLING_WAIT $(feature)"
stats_saved=$(cat "$schedstats" 2>/dev/null)
echo 1 >"$schedstats" 2>/dev/null

# The control: no BPF scheduler.
guard_why=
feat=$(feature)
label=control
w0=$(waits)
run_iso
w1=$(waits)
ctl_prctl=$(share "$tmp/iso-control" prctl)
ctl_cgroup=$(share "$tmp/iso-control" cgroup)
indent "$tmp/iso-control"
desc="control: without a BPF scheduler, held picks waited during cs_cgroup_isolation"
if [ "$feat" = off ]; then
	guard_why="CORE_SIBLING_WAIT is off ($dbg/features): no wait to guard against"
	skip "$guard_why" "$desc"
elif [ "$w0" = none ] || [ "$w1" = none ]; then
	guard_why="no .core_wait_count in $dbg/debug (schedstats off, or a kernel without the wait schedstats)"
	skip "$guard_why" "$desc"
elif [ "$iso_rc" = 124 ]; then
	guard_why="the control did not finish"
	fail "$desc: it did not finish within $run_tmo s"
elif [ $((w1 - w0)) -gt 0 ]; then
	ok "$desc ($((w1 - w0)) waits, CORE_SIBLING_WAIT on)"
else
	guard_why="the control saw no held-pick wait: the guard checks would prove nothing"
	fail "$desc: 0 waits with CORE_SIBLING_WAIT on (exit $iso_rc)"
fi
dw='?'
[ "$w0" = none ] || [ "$w1" = none ] || dw=$((w1 - w0))
diag "cs_scx: control (no BPF scheduler): co-execution prctl ${ctl_prctl:-?}, cgroup ${ctl_cgroup:-?}; held-pick waits +$dw"

for s in $scheds; do
	name=${s#scx_}
	bin=$here/$s
	if [ ! -x "$bin" ]; then
		for t in enabled isolation cgroup_test guard still_enabled stop; do
			skip "no $bin" "$s: $t"
		done
		continue
	fi
	mark="cs_scx: starting $s at $(cut -d' ' -f1 /proc/uptime)"
	echo "$mark" >>"$kmsg" 2>/dev/null
	enable_seq0=$(cat "$scx/enable_seq" 2>/dev/null)
	"$bin" >"$tmp/$s.out" 2>"$tmp/$s.err" &
	pid=$!
	t=0
	up=0
	while [ "$t" -lt "$enable_tmo" ]; do
		if [ "$(cat "$scx/state" 2>/dev/null)" = enabled ] &&
			[ "$(cat "$scx/root/ops" 2>/dev/null)" = "$name" ]; then
			up=1
			break
		fi
		alive "$pid" || break
		sleep 1
		t=$((t + 1))
	done
	if [ $up = 0 ]; then
		if alive "$pid"; then
			fail "$s: enabled within $enable_tmo s (state $(cat "$scx/state" 2>/dev/null))"
		else
			wait "$pid"
			fail "$s: enabled within $enable_tmo s: it exited with status $? (state $(cat "$scx/state" 2>/dev/null))"
		fi
		tail -20 "$tmp/$s.err" | sed 's/^/#   /'
		kmsg_since "$mark" | tail -20 | sed 's/^/#   /'
		stop "$pid" 5
		wait "$pid" 2>/dev/null
		pid=
		for t in isolation cgroup_test guard still_enabled stop; do
			skip "$s did not load" "$s: $t"
		done
		continue
	fi
	# /proc/self: awk itself, a task of this test.
	onscx=$(awk '/^ext\.enabled/ { print $NF }' /proc/self/sched 2>/dev/null)
	ok "$s: enabled in ${t} s (ops $name, switch_all $(cat "$scx/switch_all" 2>/dev/null), enable_seq ${enable_seq0:-?} -> $(cat "$scx/enable_seq" 2>/dev/null), ext.enabled ${onscx:-?} for a task of this test)"

	label=$s
	sw0=$(waits)
	run_iso
	with_timeout "$run_tmo" "$cgt" >"$tmp/cgt-$s" 2>&1
	cgt_rc=$?
	sw1=$(waits)

	# The isolation check: ran to the end; its control and cookie checks.
	indent "$tmp/iso-$s"
	f=$tmp/iso-$s
	desc="$s: cs_cgroup_isolation: untagged control shares cores, one cookie per group, traces complete"
	if [ "$iso_rc" = 124 ]; then
		fail "$desc: it did not finish within $run_tmo s"
	elif grep -q '^1\.\.0 # SKIP' "$f"; then
		skip "$(sed -n 's/^1\.\.0 # SKIP *//p' "$f" | head -1)" "$desc"
	elif grep -q '^ok 1 ' "$f" && grep -q '^ok 2 ' "$f" && grep -q '^ok 3 ' "$f" &&
		grep -q '^# Totals:' "$f"; then
		ok "$desc"
	else
		fail "$desc (exit $iso_rc; its results: $(grep -cE '^(not )?ok [0-9]' "$f"), failed: $(grep -E '^not ok' "$f" | cut -c1-60 | tr '\n' ';'))"
	fi
	diag "cs_scx: $s: co-execution prctl $(share "$f" prctl), cgroup $(share "$f" cgroup)" \
		"(without a BPF scheduler: prctl ${ctl_prctl:-?}, cgroup ${ctl_cgroup:-?}); expected" \
		"under SCX: the IPI window of 6.12 without the wait (the guard keeps it off)"

	# cs_cgroup_test.
	grep -E '^# Totals:|^not ok|^# +FAIL' "$tmp/cgt-$s" | sed 's/^/#   /'
	desc="$s: cs_cgroup_test"
	case $cgt_rc in
	0) ok "$desc: every case passed" ;;
	4) skip "$(tail -1 "$tmp/cgt-$s")" "$desc" ;;
	124) fail "$desc: it did not finish within $run_tmo s" ;;
	*) fail "$desc: exit $cgt_rc" ;;
	esac

	# The guard: no held-pick wait with the scheduler loaded.
	desc="$s: held picks did not wait with $s loaded (the scx_enabled() guard)"
	if [ -n "$guard_why" ]; then
		skip "$guard_why" "$desc"
	elif [ "$sw0" = none ] || [ "$sw1" = none ]; then
		skip "no .core_wait_count in $dbg/debug" "$desc"
	elif [ "$sw1" -eq "$sw0" ]; then
		ok "$desc: core_wait_count +0"
	else
		fail "$desc: core_wait_count +$((sw1 - sw0))"
	fi

	# Not kicked out during the tests.
	state=$(cat "$scx/state" 2>/dev/null)
	ops=$(cat "$scx/root/ops" 2>/dev/null)
	kicked=$(kmsg_since "$mark" | grep 'sched_ext: BPF scheduler .* disabled' | head -3)
	running=yes
	alive "$pid" || running=no
	desc="$s: still enabled after the tests (not kicked out)"
	if [ "$state" = enabled ] && [ "$ops" = "$name" ] && [ $running = yes ] && [ -z "$kicked" ]; then
		ok "$desc: state enabled, nr_rejected $(cat "$scx/nr_rejected" 2>/dev/null)"
	else
		fail "$desc: state ${state:-?}, ops ${ops:-none}, process running $running, ${kicked:-no disable message}"
		kmsg_since "$mark" | grep 'sched_ext' | tail -10 | sed 's/^/#   /'
		grep -E '^EXIT:' "$tmp/$s.err" | sed 's/^/#   /'
	fi
	diag "cs_scx: $s: last stats: $(grep -E '^(stats|local=)' "$tmp/$s.out" | tail -1)"

	# Stop it: SIGINT, a clean unregistration.
	desc="$s: unregisters on SIGINT (EXIT: unregistered from user space, state disabled)"
	if [ $running = no ]; then
		wait "$pid" 2>/dev/null
		pid=
		skip "$s had already exited: $(grep -m1 '^EXIT:' "$tmp/$s.err")" "$desc"
		continue
	fi
	if ! stop "$pid" 30; then
		pid=
		fail "$desc: still running 30 s after SIGINT (killed)"
		continue
	fi
	wait "$pid"
	rc=$?
	pid=
	t2=0
	while [ "$(cat "$scx/state" 2>/dev/null)" != disabled ] && [ "$t2" -lt 10 ]; do
		sleep 1
		t2=$((t2 + 1))
	done
	state=$(cat "$scx/state" 2>/dev/null)
	exitline=$(grep -m1 '^EXIT:' "$tmp/$s.err")
	disabled=$(kmsg_since "$mark" | grep 'sched_ext: BPF scheduler .* disabled')
	bad=$(printf '%s\n' "$disabled" | grep -v 'disabled (unregistered from user space)' | grep .)
	clean=no
	case $exitline in "EXIT: unregistered from user space"*) clean=yes ;; esac
	if [ "$rc" = 0 ] && [ "$state" = disabled ] && [ $clean = yes ] &&
		[ -n "$disabled" ] && [ -z "$bad" ]; then
		ok "$desc: in $stop_t s"
	else
		fail "$desc: exit status $rc, state ${state:-?}, '${exitline:-no EXIT line}', ${bad:-${disabled:-no disable message}}"
		tail -10 "$tmp/$s.err" | sed 's/^/#   /'
	fi
done

diag "cs_scx: $passes passed, $fails failed, $((n - passes - fails)) skipped"
[ $fails -eq 0 ] || exit 1
[ $passes -gt 0 ] || exit 4
exit 0
