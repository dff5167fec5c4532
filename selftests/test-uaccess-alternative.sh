#!/bin/bash
# The uaccess model lays rep_movs_alternative() out as a kernel build does:
# the ALTERNATIVE()'s original instruction assembled in place (gas sizes a
# jmp by its distance there), padded to the replacement's length, and bench
# patches it before it runs anything, as apply_alternatives() does at boot:
# the replacement and a NOP, or the original and a NOP over the padding.
#  1. bench --alternatives prints, per site, the bytes after patching: with
#     ERMS "rep movsb" and the kernel's NOP for the rest, without it the
#     original.
#  2. Where the kernel's own object of NEW is built (the harness's config:
#     no endbr64, RET 1 byte), the model's NEW has every instruction at the
#     offset the kernel build gives it.
. "$(dirname "$0")/lib.sh"
U=$TOP/tools/bench/uaccess
[ -f "$NEW_SRC/arch/x86/lib/copy_user_64.S" ] || skip "no new tree (run tools/apply)"
[ -f "$OLD_SRC/arch/x86/lib/copy_user_64.S" ] || skip "no old tree (run tools/base-tree)"
command -v objdump >/dev/null || skip "objdump is not installed"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# routine OBJ NAME [OBJDUMP-OPTION...]: the disassembly of NAME in OBJ
routine() {
	local obj=$1 name=$2
	shift 2
	objdump -d "$@" "$obj" | awk -v f="<$name>:" '
		index($0, f) { on = 1; next }
		on && /^$/ { exit }
		on'
}

# the bytes of the instruction at NAME+OFF in OBJ, as "xx xx ..."
insn_at() {
	routine "$1" "$2" | awk -v off="$3" '
		$1 == off ":" { s = ""
			for (i = 2; i <= NF && $i ~ /^[0-9a-f][0-9a-f]$/; i++) s = s (s ? " " : "") $i
			print s; exit }'
}

for feat in 1 0; do
	make -s -C "$U" O="$tmp/b$feat" OLD="$OLD_SRC" NEW="$NEW_SRC" FEATURES=$feat \
		RET_BYTES=1 >"$tmp/log" 2>&1 || { tail "$tmp/log"; fail "cannot build the model (FEATURES=$feat)"; }
	out=$("$tmp/b$feat/bench" --alternatives) || fail "bench --alternatives failed"
	echo "$out"
	for r in old new; do
		line=$(echo "$out" | grep "^${r}_rep_movs_alternative+0x") ||
			fail "no ALTERNATIVE site reported in $r"
		off=$(echo "$line" | sed -n 's/^[a-z_]*+0x\([0-9a-f]*\):.*/\1/p')
		len=$(echo "$line" | sed -n 's/.*: \([0-9]*\) bytes:.*/\1/p')
		got=${line##*bytes: }
		orig=$(insn_at "$tmp/b$feat/$r.o" "${r}_rep_movs_alternative" "$off")
		[ -n "$orig" ] || fail "$r: no instruction at +0x$off in $r.o"
		norig=$(echo "$orig" | wc -w)
		[ "$len" -ge "$norig" ] || fail "$r: $len bytes in place, the original has $norig"
		case $feat,$len in
		1,2) want="f3 a4" ;;
		1,3) want="f3 a4 90" ;;
		1,4) want="f3 a4 66 90" ;;
		1,5) want="f3 a4 0f 1f 00" ;;
		0,*) want=$orig ;;
		*) fail "$r: $len bytes in place: not modelled by this test" ;;
		esac
		[ "$got" = "$want" ] || fail "$r (FEATURES=$feat): '$got' at +0x$off, expected '$want'"
		echo "ok: $r, FEATURES=$feat: $len bytes in place at +0x$off ($orig before patching): $got"
	done
done

# 2: the kernel's object against the model's, instruction by instruction
K=$W/new/obj/arch/x86/lib/copy_user_64.o
if [ ! -f "$K" ]; then
	echo "# skipped the comparison with the kernel's object: $K is not built"
	exit 0
fi
grep -q '^CONFIG_MITIGATION_RETHUNK=y\|^CONFIG_X86_KERNEL_IBT=y\|^CONFIG_MITIGATION_SLS=y' \
	"$W/new/obj/.config" && {
	echo "# skipped the comparison with the kernel's object: its config is not the harness's (RET 1, no endbr64)"
	exit 0
}
# offset and mnemonic of every instruction of the routine, jump targets left out
listing() {
	routine "$1" "$2" --no-show-raw-insn | awk 'NF >= 2 { print $1, $2 }'
}
listing "$K" rep_movs_alternative >"$tmp/kernel"
listing "$tmp/b1/new.o" new_rep_movs_alternative >"$tmp/model"
[ -s "$tmp/kernel" ] || fail "no rep_movs_alternative in $K"
diff "$tmp/kernel" "$tmp/model" >"$tmp/diff" ||
	{ head -20 "$tmp/diff"; fail "the model lays NEW out differently from the kernel build"; }
echo "ok: the model's NEW and $K: $(wc -l <"$tmp/kernel") instructions at the same offsets"
