#!/bin/bash
# Every harness command rejects bad arguments with a message and a
# non-zero exit, and changes nothing.
. "$(dirname "$0")/lib.sh"
t=$TOP/tools
expect_fail 2 "unknown kernel 'sideways'" "$t/qemu-run" sideways
expect_fail 2 "usage" "$t/qemu-run"
expect_fail 2 "unknown mode 'fast'" "$t/qemu-run" -m fast old
expect_fail 2 "not a number" "$t/qemu-run" -t soon old
expect_fail nonzero "usage" "$t/build-kernel"
expect_fail nonzero "unknown kernel 'both'" "$t/build-kernel" both
expect_fail nonzero "usage" "$t/kconfig"
expect_fail nonzero "no such file" "$t/kconfig" old /nonexistent.config
expect_fail nonzero "usage" "$t/apply" extra
expect_fail nonzero "usage" "$t/export" extra
expect_fail nonzero "usage" "$t/initramfs"
expect_fail nonzero "ACCEL=fast: want kvm or tcg" env ACCEL=fast "$t/accel" /dev/null
# An unknown KSRC: a clear reason, and no build directory made for it.
expect_fail nonzero "KSRC=/nonexistent/linux: no such directory" env KSRC=/nonexistent/linux "$t/base-tree"
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
expect_fail nonzero "not a Linux kernel tree" env KSRC="$d" "$t/base-tree"
flavor=ksrc-$(printf '%s' "$d" | sha1sum | cut -c1-8)
[ ! -e "$BUILD/$flavor/old" ] || fail "a rejected KSRC left $BUILD/$flavor/old behind"
expect_fail nonzero "usage: tools/run \[--quick\]" "$t/run" --fast
expect_fail 2 "usage" "$t/compare"
expect_fail 2 "header is not" "$t/compare" "$TOP/selftests/fixtures/results-sample.log"
expect_fail nonzero "usage: tools/check-bisect \[--quick\]" "$t/check-bisect" --all
expect_fail nonzero "usage" "$t/check-debug" extra
expect_fail nonzero "usage" "$t/build-bench"
expect_fail nonzero "usage" "$t/build-selftests" extra
expect_fail nonzero "usage" "$t/check" extra
expect_fail nonzero "usage: tools/check-scx" "$t/check-scx" extra
expect_fail nonzero "usage: tools/build-scx" "$t/build-scx" extra
expect_fail nonzero "usage: tools/deps \[scx\]" "$t/deps" sideways
expect_fail nonzero "EXTRA_DIR=/nonexistent/dir: no such directory" env EXTRA_DIR=/nonexistent/dir "$t/initramfs" new
u=$TOP/tools/bench/uaccess
expect_fail 2 "unknown argument '--bogus'" "$u/run.sh" --bogus
expect_fail 2 "unknown argument '--lfence-after'" "$u/layouts.sh" --lfence-after
expect_fail nonzero "/nonexistent: no arch/x86/lib/copy_user_64.S" "$u/layouts.sh" --lfence-before OLD=/nonexistent NEW=/nonexistent
expect_fail 2 "unknown argument '--bogus'" "$u/mixes.sh" --bogus
expect_fail nonzero "runs: 'many' is not a positive number" "$u/mixes.sh" --runs many OLD=/x NEW=/y
expect_fail nonzero "batch: '0' is not a positive number" "$u/mixes.sh" --batch 0 OLD=/x NEW=/y
expect_fail nonzero "mixes: no mix .c131073." "$u/mixes.sh" --mixes "c64 c131073" OLD=/x NEW=/y
expect_fail nonzero "mixes and --lengths exclude each other" "$u/mixes.sh" --mixes c64 --lengths /tmp OLD=/x NEW=/y
expect_fail nonzero "/nonexistent: no arch/x86/lib/copy_user_64.S" "$u/mixes.sh" OLD=/nonexistent NEW=/nonexistent
expect_fail nonzero "lengths /nonexistent: no \*.len files there" "$u/mixes.sh" --lengths /nonexistent OLD=/x NEW=/y
expect_fail 2 "usage" "$u/replay-medians" /nonexistent
expect_fail nonzero "layouts: 'x' is not a number of runs" "$TOP/results/2026-12-07-x86-zen4/margins.sh" --layouts x OLD=/x NEW=/y
m=$TOP/results/2026-12-07-x86-zen4/margins.sh
expect_fail nonzero "layout: '32,16,3,1' is not OLD_OFF,NEW_OFF,RET_BYTES" "$m" --layout 32,16,3,1 OLD=/x NEW=/y
expect_fail nonzero "layout: entry offset '8' is not 0, 16, 32 or 48" "$m" --layout 8,16,5,1 OLD=/x NEW=/y
expect_fail 2 "usage: tools/bench/uaccess/distro-layout.sh" "$u/distro-layout.sh" OLD=/x
expect_fail 2 "unknown argument '--bogus'" "$u/distro-layout.sh" --bogus
expect_fail nonzero "version: 'a b' is not a Debian version" "$u/distro-layout.sh" --version 'a b' OLD=/x NEW=/y
expect_fail nonzero "no ~debNuM suffix" "$u/distro-layout.sh" --version 6.12.1-1 OLD=/x NEW=/y
expect_fail nonzero "/nonexistent: no arch/x86/lib/copy_user_64.S" "$u/distro-layout.sh" OLD=/nonexistent NEW=/nonexistent
expect_fail 2 "unknown argument '--bogus'" "$u/thresholds.sh" --bogus
expect_fail 2 "usage: tools/bench/uaccess/thresholds.sh" "$u/thresholds.sh" -h
a=$TOP/results/2026-12-07-x86-zen4/variants/against-new.sh
expect_fail 2 "usage: results/2026-12-07-x86-zen4/variants/against-new.sh" "$a" OLD=/x NEW=/y
expect_fail 2 "unknown argument '--bogus'" "$a" --bogus
expect_fail nonzero "runs: 'x' is not a positive number" "$a" --runs x OLD=/x NEW=/y c-g
expect_fail nonzero "/nonexistent: no arch/x86/lib/copy_user_64.S" "$a" OLD=/nonexistent NEW=/nonexistent c-g
