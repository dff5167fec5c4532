#!/bin/bash
# tools/bench/uaccess/kernel-layout.sh reads the layout of
# rep_movs_alternative() off a built kernel.  Here the "kernels" are 6.12's
# copy_user_64.S assembled through the model's shim at known layouts (entry
# offset, RET size, endbr64) and linked at a kernel address: the script must
# report each layout, by the symbol and, stripped, by 6.12's code bytes; and
# refuse an image without the routine.
. "$(dirname "$0")/lib.sh"
U=$TOP/tools/bench/uaccess
S=$OLD_SRC/arch/x86/lib/copy_user_64.S
[ -f "$S" ] || skip "no old tree (run tools/base-tree)"
command -v objdump >/dev/null || skip "objdump is not installed"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# shim_as SRC OUT [-DSHIM_...]: SRC assembled through the model's shim
# (ERMS and FSRM), and linked at a kernel address: link OBJ... ELF
shim_as() {
	local src=$1 out=$2
	shift 2
	(cd "$U" && gcc -nostdinc -I shim -D__ASSEMBLY__ -DSHIM_FEATURES=3 "$@" \
		-Wa,--noexecstack -c "$src" -o "$out")
}
link() {
	local out=${*: -1}
	ld -Ttext=0xffffffff81000000 -e rep_movs_alternative "${@:1:$#-1}" -o "$out"
}

for l in 0,1,0 16,2,0 32,5,1 48,5,1 48,1,1; do
	IFS=, read -r off ret endbr <<<"$l"
	shim_as "$S" "$tmp/r.o" -DSHIM_ENTRY_OFF="$off" -DSHIM_RET_BYTES="$ret" \
		-DSHIM_ENDBR="$endbr" || fail "cannot assemble $S"
	link "$tmp/r.o" "$tmp/vmlinux" || fail "cannot link"
	strip "$tmp/vmlinux" -o "$tmp/stripped"
	want="model layout: ENTRY_OFF=$off RET_BYTES=$ret ENDBR=$endbr"
	for img in vmlinux stripped; do
		out=$("$U/kernel-layout.sh" KSRC="$OLD_SRC" "$tmp/$img") || fail "kernel-layout.sh failed on $img ($l)"
		echo "$out" | grep -qx "$want" || { echo "$out"; fail "$img at $l: not '$want'"; }
		case $img in stripped) by="6.12's code bytes" ;; *) by="its symbol" ;; esac
		echo "$out" | grep -q "found by $by" || { echo "$out"; fail "$img: not found by $by"; }
		echo "ok: $img, $want"
	done
done

# 5-byte returns as a kernel image has them, jmps to the return thunk
# (CONFIG_MITIGATION_RETHUNK): in the object file, relocations (and the
# section's alignment, which tells whether the offset is the line's);
# linked, a jmp out of the routine to a thunk 4 KiB further on
shim_as "$S" "$tmp/t.o" -DSHIM_ENTRY_OFF=32 -DSHIM_ENDBR=1 \
	-DSHIM_RETHUNK=__x86_return_thunk || fail "cannot assemble $S with a return thunk"
printf '\t.text\n\t.skip 4096, 0xcc\n\t.globl __x86_return_thunk\n__x86_return_thunk:\n\tret\n' >"$tmp/thunk.s"
as --noexecstack "$tmp/thunk.s" -o "$tmp/thunk.o"
link "$tmp/t.o" "$tmp/thunk.o" "$tmp/vmlinux"
strip "$tmp/vmlinux" -o "$tmp/stripped"
for img in t.o vmlinux stripped; do
	out=$("$U/kernel-layout.sh" "$tmp/$img") || fail "kernel-layout.sh failed on $img (return thunk)"
	echo "$out" | grep -qx "model layout: ENTRY_OFF=32 RET_BYTES=5 ENDBR=1" ||
		{ echo "$out"; fail "$img: not ENTRY_OFF=32 RET_BYTES=5 ENDBR=1"; }
	echo "$out" | grep -q "5 bytes (jmp to the return thunk)" || { echo "$out"; fail "$img: no thunk jmp"; }
	echo "ok: $img, jmp to the return thunk"
done
"$U/kernel-layout.sh" "$tmp/t.o" | grep -q '^object file: offsets in .text, aligned to 64 bytes$' ||
	fail "t.o: the .text alignment (64) not reported"

# a kernel without the routine (its entry's bytes changed), and bad arguments
# shellcheck disable=SC2016 # $64 is the instruction's, not the shell's
sed 's/cmpq \$64,%rcx/cmpq $65,%rcx/' "$S" >"$tmp/other.S"
# shellcheck disable=SC2016
grep -q 'cmpq \$65,%rcx' "$tmp/other.S" || fail "6.12's entry test not found in $S"
shim_as "$tmp/other.S" "$tmp/o.o" || fail "cannot assemble the changed copy"
link "$tmp/o.o" "$tmp/o.elf"
strip "$tmp/o.elf"
expect_fail 1 "no symbol rep_movs_alternative and no 6.12 entry bytes" "$U/kernel-layout.sh" "$tmp/o.elf"
expect_fail 1 "not an ELF, and extract-vmlinux cannot decompress it" \
	"$U/kernel-layout.sh" KSRC="$OLD_SRC" "$S"
expect_fail 1 "no such file" "$U/kernel-layout.sh" /nonexistent
expect_fail 2 "usage" "$U/kernel-layout.sh"
expect_fail 2 "unknown argument" "$U/kernel-layout.sh" --bogus "$tmp/vmlinux"
