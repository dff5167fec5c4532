#!/bin/bash
# The sched_ext lane (tools/check-scx) without its kernel:
# - tools/build-scx refuses, with the reason and before any compiler runs,
#   a vmlinux that is missing, not ELF, without BTF, or whose BTF has no
#   sched_ext types;
# - the guest test tools/bench/coresched/scx/cs_scx.sh, run by busybox sh
#   (the guest's shell) on mock programs and a mock sysfs/debugfs
#   (CS_SCX_SYSROOT): TAP with the planned number of results, a pass when
#   all is well, the failures it exists for (held picks that wait under
#   SCX, a scheduler kicked out, one that does not load), and SKIP without
#   /sys/kernel/sched_ext.
. "$(dirname "$0")/lib.sh"
d=$(mktemp -d)
trap '[ -n "${KEEP:-}" ] || rm -rf "$d"' EXIT

# --- tools/build-scx: the vmlinux checks --------------------------------
mkdir -p "$d"/{none,notelf,nobtf,noscx}
echo "not a kernel" >"$d/notelf/vmlinux"
cp /bin/true "$d/nobtf/vmlinux"
printf 'task_struct\0rq\0' >"$d/blob"
objcopy --add-section .BTF="$d/blob" /bin/true "$d/noscx/vmlinux"
for c in "none:no vmlinux at $d/none/vmlinux" "notelf:is not an ELF file" \
	"nobtf:has no BTF \(no .BTF section\)" "noscx:has no sched_ext types"; do
	expect_fail nonzero "${c#*:}" env SCX_OBJ="$d/${c%%:*}" SCX_OUT="$d/out" "$TOP/tools/build-scx"
done
[ ! -e "$d/out" ] || fail "tools/build-scx made $d/out for a vmlinux it refused"

# --- cs_scx.sh on mocks ---------------------------------------------------
command -v busybox >/dev/null || skip "no busybox (the guest's shell) on this machine"
command -v python3 >/dev/null || skip "no python3 for the mock schedulers"
k=$d/ksft
mkdir -p "$k/scx" "$k/sched"
cp "$TOP/tools/bench/coresched/scx/cs_scx.sh" "$k/scx/"
# The schedulers: Python, since a shell started in the background with
# SIGINT ignored cannot trap it (the real programs set a handler, as
# these do).  MOCK_<NAME>=good|kick|noload.
cat >"$k/scx/scx_simple" <<'EOF'
#!/usr/bin/env python3
import os, signal, sys, time
root = os.environ["CS_SCX_SYSROOT"]
name = os.path.basename(sys.argv[0])[len("scx_"):]
scx = root + "/sys/kernel/sched_ext"
mode = os.environ.get("MOCK_" + name.upper(), "good")
def put(path, s):
    with open(path, "w") as f:
        f.write(s + "\n")
def kmsg(s):
    with open(root + "/dev/kmsg", "a") as f:
        f.write("[ 1.0] " + s + "\n")
if mode == "noload":
    print("libbpf: failed to load object '%s'" % name, file=sys.stderr)
    sys.exit(1)
stop = False
def on_signal(sig, frame):
    global stop
    stop = True
signal.signal(signal.SIGINT, on_signal)
signal.signal(signal.SIGTERM, on_signal)
os.makedirs(scx + "/root", exist_ok=True)
put(scx + "/root/ops", name)
put(scx + "/state", "enabled")
kmsg('sched_ext: BPF scheduler "%s" enabled' % name)
while not stop:
    print("local=1 global=2", flush=True)
    if mode == "kick" and os.path.exists(root + "/kick"):
        put(scx + "/state", "disabled")
        kmsg('sched_ext: BPF scheduler "%s" disabled (runnable task stall)' % name)
        print("EXIT: runnable task stall (mock)", file=sys.stderr)
        sys.exit(0)
    time.sleep(0.1)
put(scx + "/state", "disabled")
os.remove(scx + "/root/ops")
kmsg('sched_ext: BPF scheduler "%s" disabled (unregistered from user space)' % name)
print("EXIT: unregistered from user space", file=sys.stderr)
EOF
cp "$k/scx/scx_simple" "$k/scx/scx_qmap"
# The isolation check: its summary and results; each run adds held-pick
# waits unless a BPF scheduler is enabled (MOCK_GUARD_BROKEN=1: always);
# MOCK_KICK=NAME asks that scheduler, in mode "kick", to leave.
cat >"$k/sched/cs_cgroup_isolation" <<'EOF'
#!/bin/sh
r=$CS_SCX_SYSROOT
if [ "$(cat "$r/sys/kernel/sched_ext/state")" != enabled ] || [ -n "${MOCK_GUARD_BROKEN:-}" ]; then
	awk '/core_wait_count/ { $NF = $NF + 3 } { print }' "$r/sys/kernel/debug/sched/debug" >"$r/dbg.tmp"
	mv "$r/dbg.tmp" "$r/sys/kernel/debug/sched/debug"
fi
if [ -n "${MOCK_KICK:-}" ] && [ "$(cat "$r/sys/kernel/sched_ext/root/ops" 2>/dev/null)" = "$MOCK_KICK" ]; then
	touch "$r/kick"
	sleep 1
fi
cat <<'EOT'
TAP version 13
1..6
# untagged 3 s, then prctl and cgroup 5 s each, 1 times
# prctl  12.5000% (runs 12.5000%..12.5000%), longest 800.0 us
# cgroup 11.2500% (runs 11.2500%..11.2500%), longest 700.0 us
ok 1 untagged: siblings run A and B together 100.00% of both-busy time (>= 10%)
ok 2 prctl: one cookie per group, traces complete, in all 1 runs
ok 3 cgroup: one cookie per group, traces complete, in all 1 runs
ok 4 # SKIP cgroup: 11.2500% vs bound 0.05%: 5 s runs, it needs 30 s
not ok 5 cgroup 11.2500% <= prctl 12.5000% + noise 0.0000%
ok 6 cgroup longest episode 700.0 us <= prctl longest 800.0 us
# Totals: pass:4 fail:1 xfail:0 xpass:0 skip:1 error:0
EOT
exit 1
EOF
cat >"$k/sched/cs_cgroup_test" <<'EOF'
#!/bin/sh
echo "ok 1 cg.root_has_no_tag"
echo "# Totals: pass:11 fail:0 xfail:0 xpass:0 skip:0 error:0"
EOF
chmod +x "$k/scx/"* "$k/sched/"*

# mkroot: a fresh mock of the files cs_scx.sh reads and writes.
mkroot() {
	r=$d/root
	rm -rf "$r"
	mkdir -p "$r/sys/kernel/sched_ext" "$r/sys/kernel/debug/sched" "$r/proc/sys/kernel" "$r/dev"
	echo disabled >"$r/sys/kernel/sched_ext/state"
	echo 1 >"$r/sys/kernel/sched_ext/switch_all"
	echo 0 >"$r/sys/kernel/sched_ext/enable_seq"
	echo 0 >"$r/sys/kernel/sched_ext/nr_rejected"
	echo "GENTLE_FAIR_SLEEPERS CORE_SIBLING_WAIT RT_RUNTIME_SHARE" >"$r/sys/kernel/debug/sched/features"
	printf 'cpu#0, 2000.000 MHz\n  .nr_running                    : 0\n  .core_wait_count               : 5\ncpu#1, 2000.000 MHz\n  .core_wait_count               : 7\n' \
		>"$r/sys/kernel/debug/sched/debug"
	echo 0 >"$r/proc/sys/kernel/sched_schedstats"
	: >"$r/dev/kmsg"
}

# scenario NAME WANT_STATUS ENV...: run cs_scx.sh; its output in $d/NAME.out.
scenario() {
	local name=$1 want=$2 rc plan got
	shift 2
	mkroot
	[ "$name" != nosysfs ] || rm -rf "$d/root/sys/kernel/sched_ext"
	set +e
	env CS_SCX_SYSROOT="$d/root" CS_SCX_ENABLE_TIMEOUT=5 "$@" \
		busybox sh "$k/scx/cs_scx.sh" >"$d/$name.out" 2>&1
	rc=$?
	set -e
	[ "$rc" = "$want" ] || fail "$name: cs_scx.sh exited $rc, expected $want; output: $(tail -5 "$d/$name.out")"
	plan=$(sed -n 's/^1\.\.\([0-9]*\)$/\1/p' "$d/$name.out")
	got=$(grep -cE '^(not )?ok [0-9]+ ' "$d/$name.out")
	{ [ -n "$plan" ] && [ "$got" = "$plan" ]; } || fail "$name: plan 1..$plan but $got results: $(cat "$d/$name.out")"
	[ "$(cat "$d/root/proc/sys/kernel/sched_schedstats")" = 0 ] || fail "$name: kernel.sched_schedstats not restored"
	echo "ok: $name: exit $rc, $got results as planned"
}
# want NAME PATTERN: a line of NAME's output matches.
want() {
	grep -qE "$2" "$d/$1.out" || fail "$1: no line /$2/ in: $(cat "$d/$1.out")"
}

scenario good 0
want good '^1\.\.13$'
[ "$(grep -c '^ok ' "$d/good.out")" = 13 ] || fail "good: not 13 passes: $(cat "$d/good.out")"
! grep -qE '^ok .*# SKIP' "$d/good.out" || fail "good: a skip: $(grep -E '^ok .*# SKIP' "$d/good.out")"
want good '^ok 1 control: .*\(6 waits, CORE_SIBLING_WAIT on\)'
want good '^ok [0-9]+ scx_qmap: held picks did not wait .*core_wait_count \+0'
want good '^ok [0-9]+ scx_simple: unregisters on SIGINT'
want good '^# cs_scx: scx_qmap: co-execution prctl 12\.5000% \(longest episode 800\.0 us\)'
# Its nested results stay diagnostics (a kselftest runner must not count them).
! grep -qE '^not ok 5 cgroup' "$d/good.out" || fail "good: the isolation check's own results leaked out as TAP"

# Under the kselftest runner (its "# " prefix) tools/tap-summary counts
# the script's results, and only them.
tap_of() {
	{
		echo "TAP version 13"
		echo "1..1"
		echo "# selftests: scx: cs_scx.sh"
		sed 's/^/# /' "$d/$1.out"
		echo "$2 1 selftests: scx: cs_scx.sh"
		echo "HARNESS-EXIT: 0"
	} >"$d/$1.results.log"
	"$TOP/tools/tap-summary" new-scx="$d/$1.results.log" | tail -1
}
[ "$(tap_of good ok)" = "13 passed, 0 failed, 0 skipped" ] || fail "tap-summary of good: $(tap_of good ok)"
echo "ok: tap-summary counts good as 13 passed"

scenario broken 1 MOCK_GUARD_BROKEN=1 MOCK_QMAP=kick MOCK_KICK=qmap
want broken '^not ok [0-9]+ scx_simple: held picks did not wait .*core_wait_count \+6'
want broken '^not ok [0-9]+ scx_qmap: still enabled after the tests .*disabled \(runnable task stall\)'
want broken '^ok [0-9]+ scx_qmap: unregisters on SIGINT.* # SKIP scx_qmap had already exited: EXIT: runnable task stall'
[ "$(tap_of broken "not ok")" = "9 passed, 3 failed, 1 skipped" ] || fail "tap-summary of broken: $(tap_of broken "not ok")"
echo "ok: tap-summary counts broken as 9 passed, 3 failed, 1 skipped"

scenario noload 1 CS_SCX_SCHEDULERS=scx_simple MOCK_SIMPLE=noload
want noload '^1\.\.7$'
want noload '^not ok 2 scx_simple: enabled within 5 s: it exited with status 1'
[ "$(grep -c '# SKIP scx_simple did not load' "$d/noload.out")" = 5 ] || fail "noload: not 5 skips"

scenario nosysfs 4
[ "$(grep -c '# SKIP no .*/sys/kernel/sched_ext: this kernel has no sched_ext' "$d/nosysfs.out")" = 13 ] ||
	fail "nosysfs: not 13 skips: $(cat "$d/nosysfs.out")"
