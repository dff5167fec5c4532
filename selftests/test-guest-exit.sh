#!/bin/bash
# tools/qemu-run turns what the guest did into distinct exit statuses with
# a one-line reason: a failure the guest reports (1), a hang (3), a panic (4).
. "$(dirname "$0")/lib.sh"
[ -f "$W/old/obj/arch/x86/boot/bzImage" ] && [ -f "$W/old/initramfs.cpio.gz" ] ||
	skip "no old kernel and initramfs built yet"
r=$TOP/tools/qemu-run
expect_fail 1 "" "$r" -m fail -t 300 -n selftest-fail old
grep -q '^not ok .*failure requested' "$LOGS/selftest-fail.results.log" || fail "the failing guest's TAP is not in its results log"
expect_fail 4 "kernel splat in the console log: .*Kernel panic" "$r" -a "rdinit=/bin/false" -t 300 -n selftest-panic old
expect_fail 3 "guest hung: no report within 20s" "$r" -a "rdinit=/bin/cat" -t 20 -n selftest-hang old
