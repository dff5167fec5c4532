#!/bin/bash
# extract-kfunc.sh - print one definition from a kernel source file, verbatim.
#
# The model compiles the kernel's own code; this pulls a single function,
# struct or group of #defines out of a kernel .c/.h file so that it can be
# compiled in user space against the shim headers.  It fails loudly (exit 1)
# when the definition is missing or ambiguous, so a renamed or reworked
# function in a tree can never silently fall back to something else.
set -eu

usage() {
	echo "usage: $0 func|proto|struct|defines|lines NAME FILE" >&2
	echo "  func    NAME: the function definition NAME(...) { ... } (kernel style, '}' in column 0)" >&2
	echo "  proto   NAME: the same function's signature as a declaration (no body)" >&2
	echo "  struct  NAME: 'struct NAME { ... };'" >&2
	echo "  defines NAME: every '#define NAME...' line (NAME is a prefix), with continuations" >&2
	echo "  lines   NAME: every line matching the extended regex NAME" >&2
	exit 2
}

[ $# -eq 3 ] || usage
kind=$1 name=$2 file=$3
case $kind in
func|proto|struct)
	[[ $name =~ ^[A-Za-z_][A-Za-z0-9_]*$ ]] ||
		{ echo "extract-kfunc: '$name' is not a C identifier" >&2; exit 2; } ;;
defines|lines) ;;
*) usage ;;
esac
[ -r "$file" ] || { echo "extract-kfunc: cannot read '$file'" >&2; exit 1; }

out=$(awk -v kind="$kind" -v name="$name" '
BEGIN { state = 0; found = 0; prev = ""; text = "" }
kind == "struct" {
	if (state == 0 && $0 ~ ("^struct " name " \\{")) { state = 1; found++ }
	if (state == 1) { text = text $0 "\n"; if ($0 ~ /^\};/) state = 0 }
	next
}
kind == "defines" {
	if (state == 0 && index($0, "#define " name) == 1) { state = 1; found++ }
	if (state == 1) { text = text $0 "\n"; if ($0 !~ /\\$/) state = 0 }
	next
}
kind == "lines" {
	if ($0 ~ name) { text = text $0 "\n"; found++ }
	next
}
# func / proto: state 0 outside, 1 in the signature, 2 signature done
# (waiting for "{" in column 0), 3 in the body (until "}" in column 0).
state == 0 && ($0 ~ ("^[A-Za-z_].*[ *]" name "\\(") || $0 ~ ("^" name "\\(")) {
	cand = ($0 ~ ("^" name "\\(")) ? prev "\n" $0 "\n" : $0 "\n"
	if ($0 ~ /;[ \t]*$/) state = 0			# a prototype
	else if ($0 ~ /\)[ \t]*$/) state = 2
	else state = 1
	prev = $0
	next
}
state == 1 {
	cand = cand $0 "\n"
	if ($0 ~ /;[ \t]*$/) state = 0			# a prototype
	else if ($0 ~ /\)[ \t]*$/) state = 2
	prev = $0
	next
}
state == 2 {
	if ($0 ~ /^\{[ \t]*$/) { state = 3; found++; sig = cand; body = $0 "\n" }
	else state = 0
	prev = $0
	next
}
state == 3 {
	body = body $0 "\n"
	if ($0 ~ /^\}/) { text = text sig body; state = 0 }
	prev = $0
	next
}
{ prev = $0 }
END {
	if (found == 0 || (found > 1 && (kind == "func" || kind == "proto" || kind == "struct"))) {
		print "FOUND " found
		exit
	}
	if (kind == "proto") {
		s = sig
		sub(/^\n+/, "", s); sub(/[ \t\n]+$/, "", s)
		print s ";"
		exit
	}
	sub(/^\n+/, "", text)
	printf "%s", text
}
' "$file")

case $out in
"FOUND 0")
	echo "extract-kfunc: no $kind '$name' in $file" >&2
	exit 1 ;;
"FOUND "*)
	echo "extract-kfunc: ${out#FOUND } definitions of $kind '$name' in $file (#ifdef variants?)" >&2
	exit 1 ;;
esac
printf '/* %s %s: from %s */\n%s\n' "$kind" "$name" "$file" "$out"
