# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0
#
# Sourced by the uaccess model's scripts (run.sh, layouts.sh, thresholds.sh,
# const-sites.sh, branches.sh, mixes.sh, kernel-layout.sh, distro-layout.sh):
# HERE, TOP, PROG, and
#   usage          the script's usage lines (header lines $USAGE_LINES,
#                  "4,5" unless the script sets it), exit 2
#   die MSG        "PROG: error: MSG", exit 1
#   common_arg ARG OLD=, NEW=, -h/--help; else "unknown argument", usage
#   pair_bench A B [VAR=VALUE...]
#                  builds bench for OLD=A NEW=B (and the Makefile's layout
#                  variables VAR=VALUE) in the model's build/, one
#                  directory per pair and layout; prints the binary's path
#   kernel_trees   OLD and NEW must be kernel trees with
#                  arch/x86/lib/copy_user_64.S; made absolute
#   mix_lengths NAME
#                  65536 lengths of the synthetic mix NAME (fixed seed)
#   cpu_model      "<model name>, family F model M", for result headers
#   pick_cpu       CPU defaults to the last CPU this process may run on
#                  (taskset, which the timing runs need anyway)
#   patch_at DIR COMMIT [PATCH]
#                  DIR/arch/x86/lib/copy_user_64.S = OLD's file with PATCH
#                  (default: patch 8) as this repository exported it at
#                  COMMIT, to time an earlier version of the patch
#   icount_dumps BENCH DIR [VALGRIND OPTION...]
#                  runs BENCH --icount under valgrind --tool=callgrind
#                  (files in DIR) and prints one line per dump: its
#                  "routine length calls", the conditional branches it
#                  took (jcnd= lines, with --collect-jumps=yes
#                  --dump-instr=yes; else 0) and its totals (Ir first)
HERE=$(cd "$(dirname "$0")" && pwd)
TOP=$(cd "$HERE/../../.." && pwd)
PROG=${0##*/}

usage() {
	sed -n "s/^# \{0,1\}//; ${USAGE_LINES:-4,5}p" "$0" >&2
	exit 2
}

die() {
	echo "$PROG: error: $*" >&2
	exit 1
}

# the last arguments of the option loops of run.sh, layouts.sh, thresholds.sh,
# mixes.sh, branches.sh, distro-layout.sh and margins.sh: OLD=<tree>,
# NEW=<tree> and -h/--help; any other argument is unknown: a message and
# usage (exit 2)
common_arg() {
	case $1 in
	OLD=?*) OLD=${1#OLD=} ;;
	NEW=?*) NEW=${1#NEW=} ;;
	-h | --help) usage ;;
	*)
		echo "$PROG: unknown argument '$1'" >&2
		usage
		;;
	esac
}

kernel_trees() {
	local t
	for t in "$OLD" "$NEW"; do
		[ -f "$t/arch/x86/lib/copy_user_64.S" ] ||
			die "$t: no arch/x86/lib/copy_user_64.S (not a kernel tree?)"
	done
	OLD=$(cd "$OLD" && pwd)
	NEW=$(cd "$NEW" && pwd)
}

MODEL=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
pair_bench() {
	local o
	o=$MODEL/build/$(printf '%s\n' "$@" | sha1sum | cut -c1-12)
	make -s -C "$MODEL" O="$o" OLD="$1" NEW="$2" "${@:3}" >&2 ||
		die "bench build failed (OLD=$1 NEW=$2${3:+ ${*:3}})"
	echo "$o/bench"
}

icount_dumps() {
	local bench=$1 dir=$2 f
	shift 2
	valgrind --tool=callgrind --collect-atstart=no "$@" \
		--callgrind-out-file="$dir/cg.out" "$bench" --icount \
		>"$dir/log" 2>&1 || { cat "$dir/log" >&2; die "callgrind run failed"; }
	for f in "$dir"/cg.out.*; do
		awk '/^desc: Trigger: Client Request: / { sub(/^desc: Trigger: Client Request: /, ""); d = $0 }
			/^jcnd=/ { split(substr($1, 6), a, "/"); t += a[1] }
			/^totals: / { sub(/^totals: /, ""); tot = $0 }
			END { print d, t + 0, tot }' "$f"
	done
}

# mix_lengths NAME: 65536 lengths of the synthetic mix NAME, from one fixed
# seed, so that every script that names a mix replays the same sequence:
# mixes.sh's fifteen, and half8.sh's halves of half8 (large, e8or64, h3,
# h16, h40; results/2026-12-07-x86-zen4).  Park-Miller: x = 16807 x mod
# (2^31 - 1); every product is below 2^46, exact in awk's doubles.  cN
# (N 0..131072, bench's REPLAY_MAX_LEN) is the one length N every time.
# An unknown NAME: exit status 1.
mix_lengths() {
	awk -v mix="$1" 'BEGIN {
		if (mix ~ /^c(0|[1-9][0-9]*)$/) {
			fixed = substr(mix, 2) + 0
			if (fixed > 131072) exit 1
		}
		x = 20261207
		for (i = 0; i < 65536; i++) {
			x = (16807 * x) % 2147483647
			r = x % 65536
			big = 64 + int(r / 2) % 448
			if (mix == "u0-7") l = r % 8
			else if (mix == "u8-15") l = 8 + r % 8
			else if (mix == "u16-31") l = 16 + r % 16
			else if (mix == "u32-63") l = 32 + r % 32
			else if (mix == "u0-15") l = r % 16
			else if (mix == "u0-31") l = r % 32
			else if (mix == "u8-63") l = 8 + r % 56
			else if (mix == "u0-63") l = r % 64
			else if (mix == "pow2") l = 2 ^ (r % 6)
			else if (mix == "ints") l = 4 + 4 * (r % 2)
			else if (mix == "words") l = 8 * (1 + r % 7)
			else if (mix == "zero-one") l = r % 2
			else if (mix == "alt8-16") l = 8 + 8 * (i % 2)
			else if (mix == "ramp") l = i % 64
			else if (mix == "half8") l = r % 2 ? 8 : big
			else if (mix == "large") l = big
			else if (mix == "e8or64") l = r % 2 ? 8 : 64
			else if (mix == "h3") l = r % 2 ? 3 : big
			else if (mix == "h16") l = r % 2 ? 16 : big
			else if (mix == "h40") l = r % 2 ? 40 : big
			else if (mix ~ /^c/ && fixed != "") l = fixed
			else exit 1
			print l
		}
	}'
}

# cpu_model: "<model name>, family F model M" of this machine's first CPU,
# for the header of a result
cpu_model() {
	awk -F': ' '$1 ~ /^model name/ && !n { n = $2 }
		$1 ~ /^cpu family/ && f == "" { f = $2 }
		$1 ~ /^model[[:space:]]*$/ && m == "" { m = $2 }
		END { printf "%s, family %s model %s\n", n, f, m }' /proc/cpuinfo
}

pick_cpu() {
	command -v taskset >/dev/null || die "taskset not found (util-linux)"
	[ -n "$CPU" ] || CPU=$(taskset -cp $$ | sed 's/.*: //; s/.*[,-]//')
}

PATCH8=patches/0008-x86-lib-copy-short-user-copies-without-loops-in-rep_.patch
patch_at() {
	local diff f=$1/arch/x86/lib/copy_user_64.S
	diff=$(git -C "$TOP" show "$2:${3:-$PATCH8}") ||
		die "no ${3:-$PATCH8} at $2 in $TOP"
	mkdir -p "$1/arch/x86/lib"
	cp "$OLD/arch/x86/lib/copy_user_64.S" "$f"
	printf '%s\n' "$diff" | patch -s -d "$1" -p1 ||
		die "${3:-patch 8} of $2 does not apply to OLD (is OLD 6.12.118?)"
	! cmp -s "$OLD/arch/x86/lib/copy_user_64.S" "$f" ||
		die "${3:-patch 8} of $2 does not change copy_user_64.S"
}
