#!/bin/bash
# The traced user-copy lengths (issue 14): the guest benchmark
# tools/bench/uaccess/guest/tests/45-uaccess-lengths.sh parses as POSIX sh;
# tools/bench/uaccess/extract-lengths turns its LENSEQ/LENHIST lines (with
# the serial port's \r) into DIR/W.len and DIR/W.hist, refuses a log
# without them, and bench --replay times what it wrote.
. "$(dirname "$0")/lib.sh"
U=$TOP/tools/bench/uaccess
sh -n "$U/guest/tests/45-uaccess-lengths.sh" || fail "45-uaccess-lengths.sh does not parse"
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT

printf '%s\r\n' '# uaccess-lengths 1/2: tar' 'LENHIST,tar,8,3' 'LENHIST,tar,4096+,1' \
	'LENSEQ,tar,8 8 4096' 'LENSEQ,tar,8' 'LENHIST,udp,64,2' 'LENSEQ,udp,64 64' \
	'LENSEQ,bad/name,1' 'SAMPLE,uaccess-lengths-tar-below-64,% of calls,75.00' >"$d/log"
"$U/extract-lengths" "$d/log" "$d/out" >"$d/msg" || fail "extract-lengths failed on a good log"
[ "$(cat "$d/out/tar.len" | tr '\n' ' ')" = "8 8 4096 8 " ] || fail "tar.len: $(tr '\n' ' ' <"$d/out/tar.len")"
[ "$(cat "$d/out/tar.hist" | tr '\n' ,)" = "8 3,4096+ 1," ] || fail "tar.hist: $(tr '\n' , <"$d/out/tar.hist")"
[ "$(wc -l <"$d/out/udp.len")" = 2 ] || fail "udp.len has $(wc -l <"$d/out/udp.len") lines"
[ ! -e "$d/out/bad" ] && [ "$(ls "$d/out" | wc -l)" = 4 ] || fail "a bad workload name made a file: $(ls "$d/out")"
grep -q '^tar: 4 lengths in the sequence, 4 calls in the histogram$' "$d/msg" || fail "summary: $(cat "$d/msg")"
echo "ok: extract-lengths writes the sequence and the histogram of each workload"

expect_fail nonzero "no LENSEQ lines" "$U/extract-lengths" /dev/null "$d/none"
expect_fail nonzero "cannot read" "$U/extract-lengths" "$d/missing" "$d/none"
expect_fail 2 "usage" "$U/extract-lengths" "$d/log"
expect_fail nonzero "no \\*.len files" "$U/run.sh" --quick --no-callgrind --replay "$d/none"

make -s -C "$U" O="$d/b" OLD="$OLD_SRC" NEW="$NEW_SRC" >/dev/null || fail "bench did not build"
"$d/b/bench" --quick --replay "$d/out" --only replay >"$d/replay" || fail "bench --replay failed"
grep -q '^tar  *|  *4 |' "$d/replay" && grep -q '^udp  *|  *2 |' "$d/replay" ||
	fail "the replay table lacks a workload: $(cat "$d/replay")"
echo "ok: bench --replay times both workloads"

# lib.sh's helpers, in a subshell (lib.sh sets TOP from $0, which is
# this test): mixes.sh's synthetic mixes (mix_lengths) are 65536
# lengths, the seeded ones the same every time, cN the one length N;
# patch_at refuses a commit or a file that gives no patch
(
	T=$TOP
	. "$U/lib.sh"
	TOP=$T OLD=$OLD_SRC
	[ "$(mix_lengths c512 | sort -u | tr '\n' ' ')" = "512 " ] &&
		[ "$(mix_lengths c512 | wc -l)" = 65536 ] || fail "mix_lengths c512 is not 65536 times 512"
	! mix_lengths c131073 >/dev/null || fail "mix_lengths took c131073 (above bench's REPLAY_MAX_LEN)"
	# (the first lengths of the seed every result since 2026-12-07 was timed with)
	[ "$(mix_lengths half8 | head -4 | tr '\n' ' ')" = "8 8 177 8 " ] &&
		[ "$(mix_lengths half8 | sort -n | uniq | sed -n '1p;2p;$p' | tr '\n' ' ')" = "8 64 511 " ] ||
		fail "mix_lengths half8 is not the seeded 8-or-64..511 sequence"
	echo "ok: mix_lengths gives 65536 lengths, cN the length N"
	expect_fail nonzero "no patches/0008-.* at 0000000 in" patch_at "$d/pa" 0000000
	expect_fail nonzero "README.md of HEAD does not apply" patch_at "$d/pb" HEAD README.md
	patch_at "$d/pc" HEAD
	cmp -s "$d/pc/arch/x86/lib/copy_user_64.S" "$NEW_SRC/arch/x86/lib/copy_user_64.S" ||
		echo "note: patch 8 at HEAD is not NEW's file (a tree being edited)"
	echo "ok: patch_at applies patch 8 of a commit and refuses what gives none"
	m=$(grep -m1 '^model[[:space:]]*:' /proc/cpuinfo | sed 's/.*: //')
	case $(cpu_model) in
	?*", family $(grep -m1 '^cpu family' /proc/cpuinfo | sed 's/.*: //') model $m") ;;
	*) fail "cpu_model: '$(cpu_model)'" ;;
	esac
	echo "ok: cpu_model names the CPU: $(cpu_model)"
)
