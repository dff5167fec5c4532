#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# usage: tools/bench/uaccess/layouts.sh [--cpu N] [--samples N] [--batch N]
#            [--offs "0 16 32 48"] [--rets "1 5"] [--new-off N] [--endbr]
#            [--runs N] [--thunks] [--aa] [--lfence | --lfence-before]
#            OLD=<tree> NEW=<tree>
#
# NEW's rep_movs_alternative against OLD's at every fixed length 0..63, at
# every entry layout a kernel can give them: the entry at 0, 16, 32 or 48
# in its 64-byte line (SYM_FUNC_START aligns to 16 only; where it lands
# depends on what is linked before), RET 1 byte (plain ret, the harness's
# config) or 5 (a patched return-thunk jmp, a distribution kernel).  For
# each layout, bench --only paired (old and new back to back in every
# sample, all lengths interleaved) gives the median paired difference
# new - old; the table has one column per layout.  --aa adds the same for
# OLD against itself (the noise floor); --thunks adds the SRSO and ITS
# thunk tables (paired_table per thunk, at RET 5 only: a thunk is a jmp).
# --new-off N puts NEW's entry at N in every layout (a NEW that aligns
# itself: .p2align 6 before SYM_FUNC_START gives 0, or 16 with
# CONFIG_CALL_PADDING's 16 bytes of padding); --endbr adds the endbr64 of
# CONFIG_X86_KERNEL_IBT at both entries.  --lfence puts an lfence after
# every copy (each copy done before the next starts: latency instead of
# throughput), as run.sh's second half does, but paired; --lfence-before
# puts it before every copy, after the copy's length is loaded (bench.c).
# --runs N (default 3) runs each binary N times, one layout after the
# other in turn: the difference moves from run to run by more than within
# one (the VM's clock, the placement of the process), so a cell is the
# median over the runs and the last lines also give the worst run.
# Exit status 0; the verdict is in the last lines.
set -eu

USAGE_LINES=4,8
. "$(dirname "$0")/lib.sh"

OLD=
NEW=
CPU=
SAMPLES=2001
BATCH=1024
OFFS="0 16 32 48"
RETS="1 5"
AA=
THUNKS=
NEWOFF=
ENDBR=0
LFENCE=
RUNS=3
while [ $# -gt 0 ]; do
	case $1 in
	--cpu | --samples | --batch | --offs | --rets | --new-off | --runs)
		[ $# -ge 2 ] || usage
		case $1 in
		--cpu) CPU=$2 ;;
		--samples) SAMPLES=$2 ;;
		--batch) BATCH=$2 ;;
		--offs) OFFS=$2 ;;
		--rets) RETS=$2 ;;
		--new-off) NEWOFF=$2 ;;
		--runs) RUNS=$2 ;;
		esac
		shift
		;;
	--aa) AA=1 ;;
	--endbr) ENDBR=1 ;;
	--lfence | --lfence-before) LFENCE=$1 ;;
	--thunks) THUNKS=1 ;;
	*) common_arg "$1" ;;
	esac
	shift
done
[ -n "$OLD" ] && [ -n "$NEW" ] || usage
kernel_trees
for o in $OFFS $NEWOFF; do
	case $o in 0 | 16 | 32 | 48) ;; *) die "--offs: '$o' is not 0, 16, 32 or 48" ;; esac
done
for r in $RETS; do
	case $r in 1 | 2 | 5) ;; *) die "--rets: '$r' is not 1, 2 or 5" ;; esac
done
case $RUNS in '' | *[!0-9]* | 0) die "--runs: '$RUNS' is not a positive number" ;; esac
pick_cpu

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# build one pair at one layout; run it later (runall)
one() {	# old new old-off new-off ret label
	local o=$HERE/build/layout-$(printf '%s\n%s\n%s %s %s %s\n' "$1" "$2" "$3" "$4" \
		"$5" "$ENDBR" | sha1sum | cut -c1-12)
	make -s -C "$HERE" O="$o" OLD="$1" NEW="$2" OLD_ENTRY_OFF="$3" \
		NEW_ENTRY_OFF="$4" RET_BYTES="$5" ENDBR="$ENDBR" >&2 ||
		die "build failed (OLD=$1 NEW=$2 OLD_ENTRY_OFF=$3 NEW_ENTRY_OFF=$4 RET_BYTES=$5)"
	local only=paired
	[ -n "$THUNKS" ] && [ "$5" = 5 ] && only=paired,srso,its
	echo "$6 $o/bench --only $only" >>"$tmp/jobs"
}

# run every job RUNS times, round robin; the outputs go to $tmp/<label>.<run>
runall() {
	local r label cmd
	for r in $(seq "$RUNS"); do
		while read -r label cmd; do
			# shellcheck disable=SC2086 # $cmd is a command line
			taskset -c "$CPU" $cmd $LFENCE --batch "$BATCH" --samples "$SAMPLES" \
				>"$tmp/$label.$r" || die "$label: bench failed"
		done <"$tmp/jobs"
	done
}

echo "# $PROG OLD=$OLD NEW=$NEW (cpu $CPU, $(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //'))"
echo "# $SAMPLES samples of $BATCH copies${LFENCE:+, $LFENCE}; entry offsets: $OFFS${NEWOFF:+ (NEW always at $NEWOFF)}; RET bytes: $RETS; endbr64: $ENDBR"
cols=
for r in $RETS; do
	for o in $OFFS; do
		one "$OLD" "$NEW" "$o" "${NEWOFF:-$o}" "$r" "d-$o-$r"
		cols="$cols d-$o-$r"
		if [ -n "$AA" ]; then
			one "$OLD" "$OLD" "$o" "$o" "$r" "a-$o-$r"
			cols="$cols a-$o-$r"
		fi
	done
done
runall

# one table per thunk kind found in the outputs
for kind in "plain ret" "SRSO return thunk" "ITS return thunk"; do
	present=
	for c in $cols; do
		grep -q "^== fixed length, paired, $kind ==" "$tmp/$c.1" && present="$present $c"
	done
	[ -n "$present" ] || continue
	echo
	echo "== new - old, ticks per copy (median paired difference), $kind =="
	echo "# columns: d-<entry offset>-<RET bytes> = NEW - OLD; a-... = OLD - OLD (A/A);"
	echo "# median of $RUNS runs"
	(cd "$tmp" && awk -v kind="$kind" -v cols="$present" -v runs="$RUNS" '
		BEGIN { nc = split(cols, c, " ") }
		FNR == 1 { f = FILENAME; sub(/\.[0-9]+$/, "", f); on = 0 }
		/^== / { on = ($0 == "== fixed length, paired, " kind " =="); next }
		on && $1 ~ /^[0-9]+$/ {
			k = ++nr[f, $1]; v[f, $1, k] = $7; ov[f, $1, k] = $3
			if (k == 1 || $7 > w[f, $1]) w[f, $1] = $7
		}
		function med(f, l, a,   i, j, t, m, x) {
			m = nr[f, l]
			for (i = 1; i <= m; i++) x[i] = (a == "o") ? ov[f, l, i] : v[f, l, i]
			for (i = 1; i <= m; i++)
				for (j = i + 1; j <= m; j++)
					if (x[j] < x[i]) { t = x[i]; x[i] = x[j]; x[j] = t }
			return m % 2 ? x[(m + 1) / 2] : (x[m / 2] + x[m / 2 + 1]) / 2
		}
		END {
			for (i = 1; i <= nc; i++)
				for (l = 0; l < 64; l++) {
					d[c[i], l] = med(c[i], l, "d")
					o[c[i], l] = med(c[i], l, "o")
				}
			printf "%4s", "len"
			for (i = 1; i <= nc; i++)
				printf " | %7s", c[i]
			printf "\n"
			for (l = 0; l < 64; l++) {
				printf "%4d", l
				for (i = 1; i <= nc; i++)
					printf " | %+7.2f", d[c[i], l]
				printf "\n"
			}
			printf "%4s", "avg"
			for (i = 1; i <= nc; i++) {
				s = 0; so = 0
				for (l = 0; l < 64; l++) { s += d[c[i], l]; so += o[c[i], l] }
				printf " | %+7.2f", s / 64
				avg_o[i] = so / 64; avg_d[i] = s / 64
			}
			printf "\n%4s", "max"
			for (i = 1; i <= nc; i++) {
				m = -1e9
				for (l = 0; l < 64; l++) if (d[c[i], l] > m) { m = d[c[i], l]; ml[i] = l }
				mx[i] = m
				printf " | %+7.2f", m
			}
			printf "\n%4s", "@len"
			for (i = 1; i <= nc; i++)
				printf " | %7d", ml[i]
			printf "\n"
			for (i = 1; i <= nc; i++) {
				if (c[i] !~ /^d-/)
					continue
				n = 0; list = ""
				for (l = 0; l < 64; l++)
					if (d[c[i], l] > 0.3) { n++; list = list " " l "(" sprintf("%+.2f", d[c[i], l]) ")" }
				printf "# %s: old avg %.2f, new - old avg %+.2f (%+.1f%%); slower by > 0.3 at %d lengths%s\n",
				       c[i], avg_o[i], avg_d[i], 100 * avg_d[i] / avg_o[i], n, list
				n = 0; list = ""
				for (l = 0; l < 64; l++)
					if (w[c[i], l] > 0.3) { n++; list = list " " l "(" sprintf("%+.2f", w[c[i], l]) ")" }
				printf "#   worst of %d runs: slower by > 0.3 at %d lengths%s\n", runs, n, list
			}
			for (i = 1; i <= nc; i++) {
				if (c[i] !~ /^a-/)
					continue
				m = 0
				for (l = 0; l < 64; l++)
					for (k = 1; k <= nr[c[i], l]; k++) {
						x = v[c[i], l, k]; if (x < 0) x = -x
						if (x > m) m = x
					}
				printf "# %s (A/A): largest |old - old| of any length and run %.2f\n", c[i], m
			}
		}' $(for c in $present; do echo $c.*; done))
done
