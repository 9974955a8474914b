#!/bin/sh
# The source folders are layers (src/README.md) that depend one way: a
# folder includes headers of its own and of the folders below it only,
# its object files call only into those, no two files call each other,
# and a command file is options, one call into the library, output.
. "$(dirname "$0")/lib.sh"

# From the bottom up, as src/README.md draws them.
layers='lib model input read classify load index output report cmd'
lib=$(dirname "$JAXPROF")/libjaxprof.a
src=$SRCDIR/src

test_case 'every source file is in a layer folder'
stray=$(cd "$src" && find . -name '*.[ch]' | sed 's|^\./||' |
    awk -v layers="$layers" 'BEGIN { n = split(layers, l, " ")
	for (i = 1; i <= n; i++) ok[l[i]] = 1 }
	{ d = $0; sub(/\/.*/, "", d); if (!(d in ok) || $0 !~ /\//) print }' |
    tr '\n' ' ')
[ -z "$stray" ] || fail "not in a layer folder of '$layers': $stray"

# "folder-of-file included-folder file:line" for each quoted include of a
# layer's header (config.h and the generated proto/ headers are no layer).
(cd "$src" && grep -n '^#include "[a-z]*/' */*.[ch]) |
    sed 's|^\([a-z]*\)/\([^:]*\):\([0-9]*\):#include "\([a-z]*\)/.*|\1 \4 \1/\2:\3|' |
    grep -v ' proto ' >"$tmp/includes" || :

test_case 'the includes have folders to check'
[ "$(wc -l <"$tmp/includes")" -gt 200 ] ||
    fail "too few folder includes under '$src'"

# Prints "what" lines whose second folder is above the first.
upward() {
	awk -v layers="$layers" 'BEGIN { n = split(layers, l, " ")
		for (i = 1; i <= n; i++) rank[l[i]] = i }
		!($1 in rank) || !($2 in rank) || rank[$2] > rank[$1]' "$1"
}

test_case 'a folder includes only itself and the folders below it'
up=$(upward "$tmp/includes" | awk '{ print $3 " includes " $2 "/" }')
[ -z "$up" ] || fail "includes that run up: $up"

test_case 'only cmd and report print through output/'
bad=$(awk '$2 == "output" && $1 != "output" && $1 != "report" &&
    $1 != "cmd" { print $3 }' "$tmp/includes" | tr '\n' ' ')
[ -z "$bad" ] || fail "output/ included by $bad"

command -v nm >/dev/null 2>&1 || skip "no nm (install binutils)"
[ -f "$lib" ] || skip "no '$lib'"

# "from to" for each call from one object file into another, by file stem.
nm -A "$lib" 2>/dev/null | awk '
	{ split($1, p, ":"); f = p[2]; sub(/^libjaxprof_a-/, "", f)
	  sub(/\.o$/, "", f) }
	$2 ~ /^[TDBR]$/ { def[$3] = f }
	$2 == "U" { n++; uf[n] = f; us[n] = $3 }
	END { for (i = 1; i <= n; i++) if ((us[i] in def) && def[us[i]] != uf[i])
		print uf[i], def[us[i]] }' | sort -u >"$tmp/edges"

test_case 'the library has call edges to check'
[ "$(wc -l <"$tmp/edges")" -gt 50 ] || fail "too few edges in '$lib'"

test_case 'calls run down the folders too'
# Each stem's folder, from the sources (stems are unique across folders).
(cd "$src" && ls */*.c) | sed 's|^\([a-z]*\)/\(.*\)\.c$|\2 \1|' >"$tmp/folder"
awk 'NR == FNR { dir[$1] = $2; next }
	{ print dir[$1], dir[$2], $1 "->" $2 }' "$tmp/folder" "$tmp/edges" \
    >"$tmp/calls"
up=$(upward "$tmp/calls" | awk '{ print $3 }' | tr '\n' ' ')
[ -z "$up" ] || fail "calls that run up a folder: $up"

test_case 'no import cycles between source files'
# Transitive closure; a file that reaches itself is on a cycle.
awk '
	{ r[$1, $2] = 1; node[$1]; node[$2] }
	END {
		for (k in node) for (i in node) if ((i, k) in r)
			for (j in node) if ((k, j) in r) r[i, j] = 1
		for (i in node) for (j in node)
			if (i < j && (i, j) in r && (j, i) in r)
				print i " <-> " j
	}' "$tmp/edges" | sort >"$tmp/cycles"
[ ! -s "$tmp/cycles" ] || fail "files on a cycle: $(cat "$tmp/cycles")"

test_case 'cmd-extract.c leaves archives, paths and conversion to the library'
bad=$(nm "$(dirname "$JAXPROF")/src/cmd/libjaxprof_a-cmd-extract.o" 2>/dev/null |
    awk '$1 == "U" { print $2 }' |
    grep -E '^(arc_|openat|mkdirat|unlinkat|fnmatch|load_file|convert_)' |
    tr '\n' ' ') || :
[ -z "$bad" ] || fail "cmd-extract.o calls $bad"

test_done
