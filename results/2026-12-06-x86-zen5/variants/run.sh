#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# usage: results/2026-12-06-x86-zen5/variants/run.sh [--runs N] [--cpu N]
#            [--samples N] [--rets "1 5"] [--offs "0 32"] [--lfence |
#            --lfence-before] [--no-warm] [--thunk srso|its] [--replay DIR]
#            [--diffs DIR] OLD=<6.12 tree> NEW=<tree> VARIANT...
#
# The variants of rep_movs_alternative() in this directory, timed paired
# against OLD's (bench --only paired) in one round-robin run, so that all
# of them see the same state of the host.  VARIANT is "base" (patch 8 as
# exported before 2026-12-06, rebuilt from this repository's history),
# "prev" (patch 8 of the afternoon of 2026-12-06, 8 bytes tested alone
# first, rebuilt from commit 70f2719: what NEW was when the n-*.diff
# variants were made), "new" (NEW's file as it is), "old" (OLD's file in
# NEW's place: an A/A column), "v1201" (patch 0006 of commit d48403b,
# the code of the 2026-12-01 margins), "eve" (patch 8 of commit fd1a333,
# the order of the evening of 2026-12-06) or the name of a <name>.diff
# here (applied to base, to prev if the name starts with "n-", to eve if
# it starts with "c-"; --diffs DIR looks for the .diff files in DIR).  For every layout (OLD's entry at
# each of --offs, NEW's at 0, RET of each of --rets bytes) and variant:
# the median over --runs of the paired difference new - old per length,
# the lengths where that median is above 0.3 ticks, how many runs put
# each length above 0.3, and the average of old and of new - old.  --no-warm passes bench --no-warm.
# --thunk srso|its: the same with every ret through that return thunk
# (bench's paired SRSO or ITS table; RET is then a 5-byte jmp).
# --replay DIR times, instead, the recorded length sequences DIR/*.len
# (bench --only replay,fixed, plain ret, the default layout) and prints
# per variant and run new vs old in % for each workload and for the fixed
# lengths 64..127 (the copies the short paths must not slow down).
set -eu

USAGE_LINES=4,7
# HERE (this directory), TOP, usage, die, patch_at, cpu_model
# shellcheck source=../../../tools/bench/uaccess/lib.sh
. "$(dirname "$0")/../../../tools/bench/uaccess/lib.sh"
B=$TOP/tools/bench/uaccess
BASE_COMMIT=ccd3f42
PREV_COMMIT=70f2719
V1201_COMMIT=d48403b
EVE_COMMIT=fd1a333
V1201_PATCH=patches/0006-x86-lib-copy-short-user-copies-without-loops-in-rep_.patch

DIFFS=$HERE OLD= NEW= CPU=1 RUNS=3 SAMPLES=1001 RETS="1 5" OFFS="0 32" BENCHARGS= REPLAY= THUNK=
VARS=()
while [ $# -gt 0 ]; do
	case $1 in
	--runs | --cpu | --samples | --rets | --offs | --replay | --thunk | --diffs)
		[ $# -ge 2 ] || usage
		case $1 in
		--runs) RUNS=$2 ;;
		--cpu) CPU=$2 ;;
		--samples) SAMPLES=$2 ;;
		--rets) RETS=$2 ;;
		--offs) OFFS=$2 ;;
		--replay) REPLAY=$2 ;;
		--thunk) THUNK=$2 ;;
		--diffs) DIFFS=$2 ;;
		esac
		shift
		;;
	--lfence | --lfence-before | --no-warm) BENCHARGS="$BENCHARGS $1" ;;
	OLD=?*) OLD=${1#OLD=} ;;
	NEW=?*) NEW=${1#NEW=} ;;
	-h | --help) usage ;;
	-*) echo "run.sh: unknown option '$1'" >&2; usage ;;
	*) VARS+=("$1") ;;
	esac
	shift
done
[ -n "$OLD" ] && [ -n "$NEW" ] && [ ${#VARS[@]} -gt 0 ] || usage
for t in "$OLD" "$NEW"; do
	[ -f "$t/arch/x86/lib/copy_user_64.S" ] || die "$t: not a kernel tree"
done
case $THUNK in
'') TABLE="plain ret" ONLY=paired ;;
srso) TABLE="SRSO return thunk" ONLY=paired,srso RETS=5 ;;
its) TABLE="ITS return thunk" ONLY=paired,its RETS=5 ;;
*) die "--thunk: '$THUNK' is not srso or its" ;;
esac
case $RUNS in '' | *[!0-9]* | 0) die "--runs: '$RUNS' is not a positive number" ;; esac

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# $tmp/NAME: OLD's file with patch 8 (or 0006) as exported at COMMIT
patch_at "$tmp/base" "$BASE_COMMIT"
patch_at "$tmp/prev" "$PREV_COMMIT"
patch_at "$tmp/v1201" "$V1201_COMMIT" "$V1201_PATCH"
patch_at "$tmp/eve" "$EVE_COMMIT"
for v in "${VARS[@]}"; do
	case $v in base | prev | v1201 | eve) continue ;; esac
	case $v in
	old) from=$OLD ;;
	new) from=$NEW ;;
	c-*) from=$tmp/eve ;;
	n-*) from=$tmp/prev ;;
	*) from=$tmp/base ;;
	esac
	mkdir -p "$tmp/$v/arch/x86/lib"
	cp "$from/arch/x86/lib/copy_user_64.S" "$tmp/$v/arch/x86/lib/"
	case $v in
	old | new) ;;
	*)
		[ -f "$DIFFS/$v.diff" ] || die "no variant '$v' ($DIFFS/$v.diff)"
		patch -s -d "$tmp/$v" -p1 <"$DIFFS/$v.diff" || die "$v.diff does not apply"
		;;
	esac
done

if [ -n "$REPLAY" ]; then
	[ -d "$REPLAY" ] || die "--replay: $REPLAY is not a directory"
	REPLAY=$(cd "$REPLAY" && pwd)
	echo "# variants/run.sh --replay $REPLAY OLD=$OLD NEW=$NEW (cpu $CPU: $(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //'))"
	echo "# bench --only replay,fixed, plain ret, $RUNS runs round robin: new vs old per workload (median ticks per copy), and over the fixed lengths 64..127"
	for v in "${VARS[@]}"; do
		make -s -C "$B" O="$tmp/$v/b" OLD="$OLD" NEW="$tmp/$v" >/dev/null ||
			die "build of $v failed"
	done
	for i in $(seq "$RUNS"); do
		for v in "${VARS[@]}"; do
			printf '%-6s' "$v"
			taskset -c "$CPU" "$tmp/$v/b/bench" --only replay,fixed --replay "$REPLAY" |
				awk -F'|' '/^== fixed length, plain ret ==/ { f = 1; next }
					/^== / { f = 0 }
					f && $1 + 0 >= 64 && $1 + 0 < 128 { o += $2; n += $3 }
					/ plain / && NF > 8 { w = $1; gsub(/ /, "", w); printf " %s %s", w, $9 }
					END { printf " | 64..127 %+.1f%%\n", 100 * (n - o) / o }' ||
				die "bench of $v failed"
		done
	done
	exit 0
fi

echo "# variants/run.sh OLD=$OLD NEW=$NEW (cpu $CPU: $(cpu_model))"
echo "# $RUNS runs of bench --only $ONLY --batch 1024 --samples $SAMPLES$BENCHARGS, round robin; table: $TABLE; variants: ${VARS[*]}"
for r in $RETS; do
	for o in $OFFS; do
		for v in "${VARS[@]}"; do
			make -s -C "$B" O="$tmp/$v/b-$r-$o" OLD="$OLD" NEW="$tmp/$v" \
				OLD_ENTRY_OFF="$o" NEW_ENTRY_OFF=0 RET_BYTES="$r" >/dev/null ||
				die "build of $v failed"
		done
		for i in $(seq "$RUNS"); do
			for v in "${VARS[@]}"; do
				# shellcheck disable=SC2086 # BENCHARGS is a list
				taskset -c "$CPU" "$tmp/$v/b-$r-$o/bench" --only "$ONLY" --batch 1024 \
					--samples "$SAMPLES" $BENCHARGS >"$tmp/out.$v.$i" ||
					die "bench of $v failed"
			done
		done
		echo
		echo "## RET $r bytes, OLD's entry at $o, NEW's at 0"
		for v in "${VARS[@]}"; do
			for i in $(seq "$RUNS"); do
				awk -F'|' -v t="== fixed length, paired, $TABLE ==" '$0 == t { f = 1; next }
					/^== / { f = 0 }
					f && $1 ~ /^ *[0-9]+ *$/ { print $1 + 0, $2 + 0, $4 + 0 }' "$tmp/out.$v.$i"
			done | awk -v v="$v" -v runs="$RUNS" '
				{ d[$1] = d[$1] " " $3; o[$1] += $2; if ($3 > 0.3) c[$1]++ }
				function med(s,   a, k, i, j, t) {
					k = split(s, a, " ")
					for (i = 1; i <= k; i++)
						for (j = i + 1; j <= k; j++)
							if (a[j] + 0 < a[i] + 0) { t = a[i]; a[i] = a[j]; a[j] = t }
					return k % 2 ? a[(k + 1) / 2] : (a[k / 2] + a[k / 2 + 1]) / 2
				}
				END {
					sum = 0; so = 0; x = ""; y = ""
					for (l = 0; l < 64; l++) {
						m = med(d[l]); sum += m; so += o[l] / runs
						if (m > 0.3) x = x sprintf(" %d(%+.2f)", l, m)
						if (c[l]) y = y " " l ":" c[l]
					}
					printf "%-6s old avg %5.2f, new - old avg %+5.2f (%+5.1f%%); median > 0.3 at:%s; runs > 0.3 (length:runs):%s\n",
					       v, so / 64, sum / 64, 100 * sum / so, x == "" ? " none" : x, y == "" ? " none" : y
				}'
		done
	done
done
