#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# usage: tools/bench/uaccess/const-sites.sh [--top N] [--list] [VMLINUX=<path> | <path>]
#        (default build/debian/new/obj/vmlinux under the repository root)
#
# How many copy_from_user()/copy_to_user() sites of an x86-64 vmlinux
# (Linux 6.12) copy a length that is a compile-time constant, and how many
# of those are below 64 bytes: what an inline expansion of the user copy
# for small constant sizes would cover.  Built-in code only: modules are
# not looked at.  Needs objdump, readelf, nm, od, awk; no debug info.
#
# Sites, two kinds:
#  I  inline copy_user_generic() (arch/x86/include/asm/uaccess_64.h), what
#     raw_copy_{from,to}_user() expand to: stac, then
#     ALTERNATIVE("rep movsb", "call rep_movs_alternative",
#     ALT_NOT(X86_FEATURE_FSRM)), then clac; the length is in %rcx.  Found
#     exactly, through .altinstructions: every entry whose replacement is
#     the 5-byte `call rep_movs_alternative`; the original instruction
#     there must disassemble as `rep movsb` (else the script stops).  Other
#     rep movsb (memcpy) and rep stos (clear_user) are not sites.  Users:
#     __copy_{from,to}_user(), *_nofault(), copy_mc_to_user() and the two
#     out-of-line bodies _copy_{from,to}_user() themselves.
#  C  a direct call (or tail jmp) to _copy_from_user() or _copy_to_user():
#     x86 does not define INLINE_COPY_{FROM,TO}_USER, so every
#     copy_{from,to}_user() (copy_struct_from_user(), ...) in vmlinux is
#     such a call; the length is the third argument, %rdx.
#
# Rule (the "block" rule, the counted one): from the site, walk back
# through its basic block.  The block starts at the function start or at
# any branch target: direct jumps in the function, jumps from other
# symbols (.cold parts, .altinstr_aux, .altinstr_replacement), the
# targets of jump tables read from .rodata, __ex_table fixups and
# __jump_table targets; it also ends after any jmp/jcc/ret/ud2.  The last
# instruction in the block that writes the length register decides:
# `mov $imm` (32 or 64 bit) is the constant imm, `xor %r,%r` is 0, a
# register copy (`mov`/`movslq` between 32/64-bit registers) is followed
# in the same block; anything else (a load, lea, arithmetic, a call that
# clobbers the register, a partial-register write, no writer in the
# block) counts as not constant.
# The "paths" rule, printed as what the block rule may miss: the same walk
# continued into every predecessor inside the function (up to 8 blocks
# deep); constant only when every path gives the same immediate; a
# predecessor outside the function (entry, other symbols, jump tables,
# fixups) stops it.
#
# Blind spots (both rules): a length that reaches the register through
# memory (spilled and reloaded) or arithmetic on a constant; a constant
# passed as an argument to a function that was not inlined (the size is
# constant in the caller only); symbols that split a function (asm
# labels); indirect jumps whose table is not `disp(,%reg,8)` in .rodata.
# The last lines give the reasons and the paths rule's extra finds.
#
# --list prints every site (address, kind, function+offset, block rule
# result, paths rule result) after the tables.
# Exit status: 0, 1 on an error (named), 2 on bad arguments.
set -eu
set -o pipefail

. "$(dirname "$0")/lib.sh"

VMLINUX=
NTOP=15
LIST=0
while [ $# -gt 0 ]; do
	case $1 in
	--top)
		[ $# -ge 2 ] || usage
		case $2 in '' | *[!0-9]*) usage ;; esac
		NTOP=$2
		shift
		;;
	--list) LIST=1 ;;
	-h | --help) usage ;;
	VMLINUX=*) [ -z "$VMLINUX" ] || usage; VMLINUX=${1#VMLINUX=} ;;
	-*) usage ;;
	*) [ -z "$VMLINUX" ] || usage; VMLINUX=$1 ;;
	esac
	shift
done
[ -n "$VMLINUX" ] || VMLINUX=$TOP/build/debian/new/obj/vmlinux
{ [ -f "$VMLINUX" ] && [ -r "$VMLINUX" ]; } || die "cannot read vmlinux $VMLINUX"

for t in objdump readelf nm od awk; do
	command -v $t >/dev/null || die "$t not found in PATH"
done

TMP=$(mktemp -d "${TMPDIR:-/tmp}/const-sites.XXXXXX") || die "mktemp failed"
trap 'rm -rf "$TMP"' EXIT

readelf -SW "$VMLINUX" >"$TMP/sections" 2>"$TMP/err" ||
	die "readelf -S $VMLINUX failed: $(head -1 "$TMP/err")"
grep -q 'Machine:.*X86-64' <(readelf -h "$VMLINUX") ||
	die "$VMLINUX is not an x86-64 ELF file"

# sect NAME: "ADDR OFF SIZE" (hex) of section NAME, empty if none
sect() {
	awk -v n="$1" '{ sub(/^ *\[ *[0-9]+\] */, "") } $1 == n { print $3, $4, $5; exit }' "$TMP/sections"
}

# bytes NAME: the section's bytes, hex, 16 a line, preceded by a line
# "@ <low 32 bits of its address, decimal>"
bytes() {
	local s a o z
	s=$(sect "$1")
	[ -n "$s" ] || return 0
	read -r a o z <<<"$s"
	case $a in ffffffff*) ;; *) die "section $1 of $VMLINUX is at $a, not in the top 4 GiB" ;; esac
	echo "@ $((16#${a#ffffffff}))"
	od -An -v -tx1 -j $((16#$o)) -N $((16#$z)) "$VMLINUX" || die "od of section $1 failed"
}

for s in .text .altinstructions .altinstr_replacement .rodata; do
	[ -n "$(sect $s)" ] || die "$VMLINUX has no $s section"
done

nm "$VMLINUX" >"$TMP/nm" 2>"$TMP/err" || die "nm $VMLINUX failed: $(head -1 "$TMP/err")"
symaddr() {
	awk -v n="$1" '$3 == n { print $1; exit }' "$TMP/nm"
}
RMA=$(symaddr rep_movs_alternative)
CFU=$(symaddr _copy_from_user)
CTU=$(symaddr _copy_to_user)
[ -n "$RMA" ] || die "$VMLINUX has no symbol rep_movs_alternative (not x86-64 6.x?)"
{ [ -n "$CFU" ] && [ -n "$CTU" ]; } || die "$VMLINUX has no _copy_from_user/_copy_to_user symbols"

BANNER=$(grep -a -m1 -o 'Linux version [^ ]* ([^)]*)[^%]*' "$VMLINUX" | sed -n 1p | cut -c1-120) ||
	BANNER="(no linux_banner found)"

# --- tables: alternatives that call rep_movs_alternative, __ex_table fixups,
# __jump_table edges.  Output "A site", "X target" (block start, edge from
# outside the function's own code), "J code target".
{
	echo "ALT"; bytes .altinstructions
	echo "REPL"; bytes .altinstr_replacement
	echo "EX"; bytes __ex_table
	echo "JL"; bytes __jump_table
} | awk -v rma="$RMA" '
function h2n(s,   i, v) { v = 0; for (i = 1; i <= length(s); i++) v = v * 16 + H[substr(s, i, 1)]; return v }
function s32(i,   v) { v = b[i] + b[i + 1] * 256 + b[i + 2] * 65536 + b[i + 3] * 16777216; return v >= 2147483648 ? v - 4294967296 : v }
function u32(v) { v %= 4294967296; return v < 0 ? v + 4294967296 : v }
function addr(v) { return sprintf("ffffffff%08x", u32(v)) }
function flush(   i, e, site, repl, t, n) {
	if (sec == "ALT") { nalt = nb; for (i = 0; i < nb; i++) ab[i] = b[i]; abase = base }
	else if (sec == "REPL") { for (i = 0; i < nb; i++) rb[i] = b[i]; rbase = base; nrb = nb }
	else if (sec == "EX") {
		for (e = 0; e + 12 <= nb; e += 12)
			printf "X %s\n", addr(base + e + 4 + s32(e + 4))
	} else if (sec == "JL") {
		for (e = 0; e + 16 <= nb; e += 16)
			printf "J %s %s\n", addr(base + e + s32(e)), addr(base + e + 4 + s32(e + 4))
	}
	nb = 0
}
BEGIN {
	for (i = 0; i < 10; i++) H[i ""] = i
	H["a"] = 10; H["b"] = 11; H["c"] = 12; H["d"] = 13; H["e"] = 14; H["f"] = 15
	if (rma !~ /^ffffffff/) { print "E rep_movs_alternative not in the top 4 GiB"; exit }
	rman = h2n(substr(rma, 9))
}
/^[A-Z]+$/ { flush(); sec = $1; next }
$1 == "@" { base = $2; next }
{ for (i = 1; i <= NF; i++) b[nb++] = H[substr($i, 1, 1)] * 16 + H[substr($i, 2, 1)] }
END {
	flush()
	for (i = 0; i < nalt; i++) b[i] = ab[i]
	for (e = 0; e + 14 <= nalt; e += 14) {
		site = abase + e + s32(e)
		repl = abase + e + 4 + s32(e + 4)
		if (b[e + 13] != 5) continue		# replacementlen
		t = repl - rbase
		if (t < 0 || t + 5 > nrb || rb[t] != 232) continue	# e8: call rel32
		n = rb[t + 1] + rb[t + 2] * 256 + rb[t + 3] * 65536 + rb[t + 4] * 16777216
		if (n >= 2147483648) n -= 4294967296
		if (u32(repl + 5 + n) != rman) continue
		printf "A %s %d\n", addr(site), b[e + 12]
		na++
	}
	if (!na) print "E no .altinstructions entry is a call to rep_movs_alternative"
}' >"$TMP/tables" || die "parsing .altinstructions/__ex_table failed"
if grep -q '^E ' "$TMP/tables"; then
	die "$(sed -n 's/^E //p' "$TMP/tables" | head -1) in $VMLINUX"
fi

# --- pass 1: stream the disassembly; keep the functions that hold a site,
# note every jump that leaves its function ("X target") and the jump
# table candidates of the kept functions ("T func base").
SECS="-j .text"
for s in .init.text .exit.text .altinstr_aux .altinstr_replacement; do
	[ -z "$(sect $s)" ] || SECS="$SECS -j $s"
done
# shellcheck disable=SC2086
objdump -d --no-show-raw-insn $SECS "$VMLINUX" 2>"$TMP/err" | awk -v tables="$TMP/tables" \
	-v cfu="$CFU" -v ctu="$CTU" -v funcs="$TMP/funcs" -v meta="$TMP/meta" '
function finish(   i, t, k) {
	if (n == 0) return
	last = A[n] ""
	for (i = 1; i <= nj; i++) {
		t = JT[i] ""
		if (t < A[1] "" || t > last) print "X", t > meta
	}
	if (hs) {
		print "F", fname, A[1] > funcs
		for (i = 1; i <= n; i++) {
			k = (A[i] in SITE) ? SITE[A[i]] : "-"
			print A[i], k, T[i] > funcs
			if (index(T[i], ",8)") && match(T[i], /-0x[0-9a-f]+\(,%r[a-z0-9]+,8\)/))
				print "T", fname, substr(T[i], RSTART + 3, index(substr(T[i], RSTART), "(") - 4), A[1], last > meta
		}
	}
	n = 0; nj = 0; hs = 0
}
BEGIN {
	while ((getline l < tables) > 0) {
		split(l, w, " ")
		if (w[1] == "A") { ALT[w[2]] = 1; nalt++ }
	}
	ccfu = "<_copy_from_user>"; cctu = "<_copy_to_user>"
}
substr($0, 17, 1) == ":" {
	a = substr($0, 1, 16); t = substr($0, 19)
	A[++n] = a; T[n] = t
	c = substr(t, 1, 1)
	if (c == "j" || (c ~ /[bnd]/ && t ~ /^(bnd|notrack|ds) +j/)) {
		split(t, w, " ")
		if (w[1] !~ /^j/) { w[2] = w[3] }
		if (length(w[2]) == 16 && substr(w[2], 1, 1) != "*") JT[++nj] = w[2]
	}
	if (a in ALT) {
		if (t !~ /^rep movsb/) { print "rep_movs_alternative alternative at " a " is not rep movsb: " t > "/dev/stderr"; bad = 1 }
		SITE[a] = "I"; hs = 1; nI++
	} else if ((c == "c" || c == "j") && (index(t, ccfu) || index(t, cctu))) {
		split(t, w, " ")
		if ((w[1] == "call" || w[1] == "jmp") && (w[3] == ccfu || w[3] == cctu)) {
			SITE[a] = w[3] == ccfu ? "F" : "U"; hs = 1; nC++
		}
	}
	next
}
substr($0, 17, 2) == " <" && substr($0, length($0) - 1) == ">:" {
	finish(); fname = substr($0, 19, length($0) - 20); next
}
/^Disassembly of section/ { finish(); fname = "?"; next }
END {
	finish()
	if (nI != nalt) { print "found " nI " of the " nalt " alternative sites in the disassembly" > "/dev/stderr"; bad = 1 }
	exit bad
}' || die "disassembly pass failed (objdump: $(head -1 "$TMP/err"))"
[ -s "$TMP/funcs" ] || die "no site found in $VMLINUX"

# --- jump tables: for each candidate, read 8-byte entries from .rodata
# while they point into the function; each is a block start ("X").
read -r RA RO RZ <<<"$(sect .rodata)"
RA=$((16#${RA#ffffffff})); RO=$((16#$RO)); RZ=$((16#$RZ))
{ grep '^T ' "$TMP/meta" || true; } | sort -u | while read -r _ _ disp lo hi; do
	base=$((4294967296 - 16#$disp))
	off=$((base - RA))
	[ $off -ge 0 ] && [ $off -lt $RZ ] || continue
	od -An -v -tx8 -j $((RO + off)) -N $((RZ - off < 4096 ? RZ - off : 4096)) "$VMLINUX" |
		awk -v lo="$lo" -v hi="$hi" '!out { for (i = 1; i <= NF && !out; i++) if ($i "" < lo "" || $i "" > hi "") out = 1; else print "X", $i }'
done >"$TMP/jt" || die "reading jump tables from .rodata failed"

# --- pass 2: the rules, on the kept functions.
NALT=$(grep -c '^A ' "$TMP/tables") || true
NEX=$(grep -c '^X ' "$TMP/tables") || true
NJT=$(sort -u "$TMP/jt" | grep -c .) || true
awk -v top="$NTOP" -v list="$LIST" -v vmlinux="$VMLINUX" -v banner="$BANNER" \
	-v inputs="$NALT alternatives call rep_movs_alternative; $NEX __ex_table fixups; $NJT jump-table targets in the site functions" '
function lastop(s,   i, d, c, p) {
	d = 0; p = 0
	for (i = 1; i <= length(s); i++) {
		c = substr(s, i, 1)
		if (c == "(") d++; else if (c == ")") d--; else if (c == "," && d == 0) p = i
	}
	return substr(s, p + 1)
}
function firstop(s,   i, d, c) {
	d = 0
	for (i = 1; i <= length(s); i++) {
		c = substr(s, i, 1)
		if (c == "(") d++; else if (c == ")") d--; else if (c == "," && d == 0) return substr(s, 1, i - 1)
	}
	return s
}
# split instruction text t into MN (mnemonic), OPS, REP (rep prefix seen)
function parse(t,   p, m) {
	REP = 0
	p = index(t, "#"); if (p) t = substr(t, 1, p - 1)
	sub(/ +$/, "", t)
	while (1) {
		p = index(t, " ")
		if (p == 0) { MN = t; OPS = ""; return }
		m = substr(t, 1, p - 1)
		t = substr(t, p + 1); sub(/^ +/, "", t)
		if (m in PFX) { if (m ~ /^rep/) REP = 1; continue }
		MN = m; OPS = t; return
	}
}
function mentions(reg,   s, n, i, o) {
	n = split(OPS, o, ",")
	for (i = 1; i <= n; i++) { s = o[i]; gsub(/[()]/, "", s); if ((s in RA) && RA[s] == reg) return 1 }
	return 0
}
# effect of instruction i on reg: "" none, "C:value", "M:src" (copy), "N:why"
function eff(reg, i,   f, d, m, str) {
	parse(T[i]); m = MN
	if (m == "call") return (reg in CLOB) && OPS !~ /<__fentry__>$/ ? "N:call" : ""
	if (m ~ /^j/) return ""
	str = OPS ~ /%[de]s:\(%r[sd]i\)/ || OPS == "" && m ~ /^(movs|stos|lods|cmps|scas)[bwlq]$/
	if (str) {
		if (REP && reg == "rcx") return "N:rep-" m
		if (reg == "rsi" || reg == "rdi" || (reg == "rax" && m ~ /^lods/)) return "N:" m
		return ""
	}
	if (m == "cpuid" && reg ~ /^r[abcd]x$/) return "N:" m
	if (m ~ /^(rdtsc|rdmsr|rdpmc|xgetbv|rdpkru|cltd|cqto|cwtd|cmpxchg8b|cmpxchg16b)$/ && (reg == "rdx" || reg == "rax")) return "N:" m
	if (m == "rdtscp" && reg ~ /^r[acd]x$/) return "N:" m
	if (m ~ /^(syscall|sysret)/ && (reg == "rcx" || reg == "r11")) return "N:" m
	if (m ~ /^loop/ && reg == "rcx") return "N:" m
	if (m ~ /^(mul|div|idiv)[bwlq]?$/ && (reg == "rax" || reg == "rdx")) return "N:" m
	if (m ~ /^imul[bwlq]?$/ && index(OPS, ",") == 0 && (reg == "rax" || reg == "rdx")) return "N:" m
	if (m ~ /^cmpxchg/ && reg == "rax") return "N:" m
	if (m ~ /^xchg/ && firstop(OPS) == lastop(OPS)) return ""
	if (m ~ /^(xchg|xadd|cmpxchg)/) return mentions(reg) ? "N:" m : ""
	if (m == "leave" && (reg == "rsp" || reg == "rbp")) return "N:" m
	if (m ~ /^(cmp|test|bt[wlq]?$|push|ucomis|comis|vucomis|vcomis|nop|prefetch|clflush|out|ret|ud2|int3)/) return ""
	d = lastop(OPS)
	if (!(d in RA) || RA[d] != reg) return ""
	f = firstop(OPS)
	if (m ~ /^mov(abs)?$/ && f ~ /^\$/) return W[d] >= 32 ? "C:" substr(f, 2) : "N:partial-mov"
	if ((m == "xor" || m == "sub") && f == d) return "C:0x0"
	if ((m == "mov" || m == "movslq") && (f in RA) && W[f] >= 32 && W[d] >= 32) return "M:" RA[f]
	if (m == "mov" && f ~ /\(/) return "N:load:" f
	if (W[d] < 32) return "N:partial-" m
	return "N:" m
}
# value of reg just before instruction i; mode 0: block rule, 1: paths rule
function before(reg, i, mode, depth,   r, k, res, key, nonc, differ) {
	while (1) {
		if (BS[i]) {
			if (mode == 0) return i == 1 ? "U:function-entry" : "U:block-start"
			if (i == 1) return "U:function-entry"
			if (UNK[i]) return "U:outside-edge"
			if (depth >= 8) return "U:too-deep"
			key = reg SUBSEP i
			if (key in MEMO) return MEMO[key]
			if (key in VIS) return "U:loop"
			VIS[key] = 1; res = ""; nonc = ""; differ = 0
			for (k = 1; k <= NP[i]; k++) {
				r = after(reg, P[i, k], mode, depth + 1)
				if (r ~ /^C:/) { if (res == "") res = r; else if (r != res) differ = 1 }
				else if (r == "N:paths-differ") differ = 1
				else if (nonc == "") nonc = r
			}
			delete VIS[key]
			if (nonc != "") res = nonc
			else if (differ) res = "N:paths-differ"
			else if (res == "") res = "U:no-predecessor"
			if (res !~ /loop/) MEMO[key] = res
			return res
		}
		i--
		r = eff(reg, i)
		if (r == "") continue
		if (r ~ /^M:/) { reg = substr(r, 3); continue }
		return r
	}
}
function after(reg, p, mode, depth,   r) {
	r = eff(reg, p)
	if (r == "") return before(reg, p, mode, depth)
	if (r ~ /^M:/) return before(substr(r, 3), p, mode, depth)
	return r
}
function h2n(s,   i, v) { v = 0; s = tolower(s); sub(/^0x/, "", s); for (i = 1; i <= length(s); i++) v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1; return v }
function cls(r) { if (r !~ /^C:/) return "nc"; return h2n(substr(r, 3)) < 64 ? "lt" : "ge" }
function analyse(   i, j, t, w, tg, r, e, k, kind, reg) {
	split("", BS); split("", UNK); split("", NP); split("", P); split("", IDX); split("", MEMO)
	for (i = 1; i <= n; i++) IDX[A[i]] = i
	BS[1] = 1
	for (i = 1; i <= n; i++) {
		parse(T[i])
		if (A[i] in XT) { BS[i] = 1; UNK[i] = 1 }
		if (A[i] in JLC) {		# a patchable nop/jmp: both ways
			tg = JLC[A[i]]; if (tg in IDX) { j = IDX[tg]; BS[j] = 1; P[j, ++NP[j]] = i }
			if (i < n) { BS[i + 1] = 1; P[i + 1, ++NP[i + 1]] = i }
			continue
		}
		if (MN ~ /^j/ || MN ~ /^(ret|ud2|int3|iret|sysret)/) {
			if (i < n) BS[i + 1] = 1
			split(OPS, w, " ")
			if (MN ~ /^j/ && (w[1] in IDX)) { j = IDX[w[1]]; BS[j] = 1; P[j, ++NP[j]] = i }
			if (MN ~ /^(j[a-ln-z]|loop)/ && MN != "jmp" && i < n) P[i + 1, ++NP[i + 1]] = i
		} else if (i < n) P[i + 1, ++NP[i + 1]] = i
	}
	for (i = 1; i <= n; i++) {
		kind = K[i]
		if (kind == "-") continue
		reg = kind == "I" ? "rcx" : "rdx"
		r = before(reg, i, 0, 0)
		e = r ~ /^C:/ ? r : before(reg, i, 1, 0)
		report(i, kind, r, e)
	}
}
function report(i, kind, r, e,   c, ce, v, off, slot, j) {
	c = cls(r); ce = cls(e); ns++
	CNT[kind, c]++; CNT["all", c]++; CNT[kind, "tot"]++; CNT["all", "tot"]++
	if (c == "nc") {
		if (r == "U:block-start") BSTOP++
		v = ce != "nc" ? "constant on every path (below)" : substr(e, 3)
		if (v ~ /^load:/) {		# a spilled constant? an immediate stored to the slot
			slot = substr(v, 6); v = "load"
			for (j = 1; j <= n; j++)
				if (T[j] ~ /^mov[lq]? +\$/ && lastop(substr(T[j], index(T[j], "$"))) == slot) { SLOTIMM++; SV = SV " " fname "+" slot; break }
		}
		WHY[v]++
		if (ce != "nc") { EXTRA[ce]++; XV[ce] = XV[ce] " " fname "(" h2n(substr(e, 3)) ")" }
		else if (e == "N:paths-differ") { DIFF++; DV = DV " " fname }
	}
	if (c != "nc") {
		v = h2n(substr(r, 3))
		if (c == "lt") { HIST[v, kind]++; HS[v] = 1 }
		FC[fname, c]++; FSZ[fname] = FSZ[fname] " " v; FN[fname] = 1
	}
	if (list) {
		off = h2n(substr(A[i], 9)) - h2n(substr(A[1], 9))
		L[++nl] = sprintf("%s %s %s+0x%x block=%s paths=%s", A[i], kind, fname, off, r, e)
	}
}
BEGIN {
	split("rep repz repnz repe repne lock notrack bnd cs ds es ss fs gs data16 addr32", pf, " ")
	for (i in pf) PFX[pf[i]] = 1
	split("ax bx cx dx", g, " ")
	for (i = 1; i <= 4; i++) {
		r = "r" g[i]; h = substr(g[i], 1, 1)
		RA["%r" g[i]] = r; W["%r" g[i]] = 64; RA["%e" g[i]] = r; W["%e" g[i]] = 32
		RA["%" g[i]] = r; W["%" g[i]] = 16; RA["%" h "l"] = r; W["%" h "l"] = 8; RA["%" h "h"] = r; W["%" h "h"] = 8
	}
	split("si di bp sp", g, " ")
	for (i = 1; i <= 4; i++) {
		r = "r" g[i]
		RA["%r" g[i]] = r; W["%r" g[i]] = 64; RA["%e" g[i]] = r; W["%e" g[i]] = 32
		RA["%" g[i]] = r; W["%" g[i]] = 16; RA["%" g[i] "l"] = r; W["%" g[i] "l"] = 8
	}
	for (i = 8; i <= 15; i++) {
		r = "r" i
		RA["%" r] = r; W["%" r] = 64; RA["%" r "d"] = r; W["%" r "d"] = 32
		RA["%" r "w"] = r; W["%" r "w"] = 16; RA["%" r "b"] = r; W["%" r "b"] = 8
	}
	split("rax rcx rdx rsi rdi r8 r9 r10 r11", g, " ")
	for (i in g) CLOB[g[i]] = 1
	KN["I"] = "inline"; KN["F"] = "call from"; KN["U"] = "call to"
}
FILENAME != "-" && $1 == "X" { XT[$2] = 1; next }
FILENAME != "-" && $1 == "J" { JLC[$2] = $3; next }
FILENAME != "-" { next }
$1 == "F" { if (n) analyse(); fname = $2; n = 0; next }
{ A[++n] = $1; K[n] = $2; T[n] = substr($0, length($1) + length($2) + 3) }
END {
	if (n) analyse()
	printf "copy_{from,to}_user() sites with a compile-time-constant length\n"
	printf "vmlinux: %s\n", vmlinux
	printf "kernel:  %s\n", banner
	printf "kinds:   inline = copy_user_generic() expansions (ALTERNATIVE rep movsb / call\n"
	printf "         rep_movs_alternative, length %%rcx); call from/to = calls of\n"
	printf "         _copy_from_user()/_copy_to_user() (length %%rdx); rule: see the script header\n"
	printf "inputs:  %s\n\n", inputs
	printf "%-18s %8s %10s %8s %8s\n", "bucket", "inline", "call from", "call to", "total"
	split("lt ge nc tot", b, " ")
	split("constant <64|constant >=64|not constant|all sites", bn, "|")
	for (j = 1; j <= 4; j++)
		printf "%-18s %8d %10d %8d %8d\n", bn[j], CNT["I", b[j]], CNT["F", b[j]], CNT["U", b[j]], CNT["all", b[j]]
	printf "\nconstant sizes below 64 bytes (size: sites; inline/from/to)\n"
	for (v = 0; v < 64; v++) if (v in HS)
		printf "%4d: %4d   (%d/%d/%d)\n", v, HIST[v, "I"] + HIST[v, "F"] + HIST[v, "U"], HIST[v, "I"], HIST[v, "F"], HIST[v, "U"]
	nf = 0
	for (f in FN) { nf++; FK[nf] = f; FV[nf] = (FC[f, "lt"] + FC[f, "ge"]) * 10000 + FC[f, "lt"] }
	for (i = 2; i <= nf; i++) {		# insertion sort: count desc, name asc
		x = FK[i]; y = FV[i]
		for (j = i - 1; j >= 1 && (FV[j] < y || (FV[j] == y && FK[j] > x)); j--) { FK[j + 1] = FK[j]; FV[j + 1] = FV[j] }
		FK[j + 1] = x; FV[j + 1] = y
	}
	printf "\ntop %d of %d functions with constant-size sites (sites, of them <64; sizes)\n", top, nf
	for (i = 1; i <= nf && i <= top; i++)
		printf "%3d %3d  %-40s %s\n", FC[FK[i], "lt"] + FC[FK[i], "ge"], FC[FK[i], "lt"], FK[i], FSZ[FK[i]]
	printf "\nnot constant, why: the last writer of the length register (on the first non-constant\n"
	printf "path of the paths rule; %d of the %d stop the block rule at a block start)\n", BSTOP, CNT["all", "nc"]
	fflush()
	if ("load" in WHY) {
		WHY["load (" SLOTIMM + 0 " from a slot a mov $imm in the function also writes:" SV ")"] = WHY["load"]
		delete WHY["load"]
	}
	for (w in WHY) printf "%6d  %s\n", WHY[w], w | "sort -k1,1nr -k2"
	close("sort -k1,1nr -k2")
	printf "\nmissed by the block rule, constant on every in-function path (paths rule):\n"
	printf "%6d  constant <64: %s\n", EXTRA["lt"], XV["lt"] == "" ? "-" : XV["lt"]
	printf "%6d  constant >=64: %s\n", EXTRA["ge"], XV["ge"] == "" ? "-" : XV["ge"]
	printf "%6d  constant on every path but not the same constant (not a compile-time\n", DIFF
	printf "        constant; an inline expansion would not see it): %s\n", DIFF ? DV : "-"
	if (list) { printf "\nall sites:\n"; for (i = 1; i <= nl; i++) print L[i] }
}' "$TMP/tables" "$TMP/meta" "$TMP/jt" - <"$TMP/funcs" || die "analysis pass failed"
