#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# usage: results/2026-12-07-x86-zen4/replay-medians.sh FILE
#
# FILE holds several runs of bench's replay table (replay-10runs.txt):
# print, per workload and return kind, the median of the delta% column
# over the runs, its range and in how many runs it was positive.
set -eu
if [ $# -ne 1 ] || [ ! -f "$1" ]; then
	sed -n 's/^# \{0,1\}//; 4p' "$0" >&2
	exit 2
fi
awk -F'|' 'NF >= 9 {
		w = $1; gsub(/ /, "", w)
		if (w != "" && w != "workload") cur = w
		t = $5; gsub(/ /, "", t)
		if (t != "plain" && t != "SRSO" && t != "ITS") next
		d = $9; gsub(/[ %]/, "", d)
		print cur, t, d + 0
	}' "$1" | sort -k1,1 -k2,2 -k3,3g | awk '
	function flush(   m) {
		if (n == 0) return
		m = n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
		printf "%-10s %-5s median %+6.2f%%  range %+.1f .. %+.1f  positive in %d of %d\n",
			key1, key2, m, v[1], v[n], pos, n
		n = 0; pos = 0
	}
	$1 != key1 || $2 != key2 { flush(); key1 = $1; key2 = $2 }
	{ v[++n] = $3; if ($3 > 0) pos++ }
	END { flush() }'
