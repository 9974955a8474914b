#!/bin/sh
# The command files are options, one report call and output: no SQL in
# src/cmd/ (the queries are the reports', src/report/), and no file of the
# two top layers grows past what a reader takes in (issue 45): a command
# file is its row, its options and one report call.
. "$(dirname "$0")/lib.sh"

src=$SRCDIR/src
lib=$(dirname "$JAXPROF")/libjaxprof.a
max_lines=800
max_cmd_lines=250

test_case 'the command files are there to check'
[ "$(cd "$src" && ls cmd/cmd-*.c | wc -l)" -gt 10 ] ||
    fail "too few command files under '$src/cmd'"

test_case 'no command file calls SQLite'
calls=$(cd "$src" && grep -n 'sqlite3_[a-z_]*[ (]' cmd/*.[ch] |
    tr '\n' ' ') || :
[ -z "$calls" ] || fail "SQLite calls in cmd/: $calls"

test_case 'no command file includes sqlite3.h'
inc=$(cd "$src" && grep -n '^#[[:space:]]*include[[:space:]]*[<"]sqlite3\.h' \
    cmd/*.[ch] | tr '\n' ' ') || :
[ -z "$inc" ] || fail "cmd/ includes sqlite3.h: $inc"

test_case "no command file over $max_cmd_lines lines"
long=$(cd "$src" && wc -l cmd/cmd-*.c |
    awk -v max="$max_cmd_lines" '$2 != "total" && $1 > max { print $2 " (" $1 ")" }' |
    tr '\n' ' ')
[ -z "$long" ] || fail "over $max_cmd_lines lines: $long"

test_case "no .c file in cmd/ or report/ over $max_lines lines"
long=$(cd "$src" && wc -l cmd/*.c report/*.c |
    awk -v max="$max_lines" '$2 != "total" && $1 > max { print $2 " (" $1 ")" }' |
    tr '\n' ' ')
[ -z "$long" ] || fail "over $max_lines lines: $long"

test_case 'no two source files include each other, through others or not'
# "file header" for each include of a layer's header; a file that reaches
# itself through them is on a cycle.
(cd "$src" && grep -o '^#include "[a-z]*/[^"]*"' */*.[ch]) |
    sed 's|^\([^:]*\):#include "\(.*\)"$|\1 \2|' | grep -v ' proto/' \
    >"$tmp/inc" || :
[ "$(wc -l <"$tmp/inc")" -gt 200 ] || fail "too few includes under '$src'"
cycles=$(awk '
	{ r[$1, $2] = 1; node[$1]; node[$2] }
	END {
		for (k in node) for (i in node) if ((i, k) in r)
			for (j in node) if ((k, j) in r) r[i, j] = 1
		for (i in node) if ((i, i) in r) print i
	}' "$tmp/inc" | sort | tr '\n' ' ')
[ -z "$cycles" ] || fail "files on an include cycle: $cycles"

command -v nm >/dev/null 2>&1 || skip "no nm (install binutils)"
[ -f "$lib" ] || skip "no '$lib'"

test_case 'no command object links a SQLite function'
# The compiled code too: a macro or an inline function hides no call.
objs=$(nm -A "$lib" 2>/dev/null | awk '$2 == "U" && $3 ~ /^sqlite3_/ {
	split($1, p, ":"); f = p[2]; sub(/^libjaxprof_a-/, "", f)
	if (f ~ /^cmd-|^cmd\.o$|^main\.o$/) print f ": " $3 }' | sort -u |
    tr '\n' ' ')
[ -z "$objs" ] || fail "SQLite calls in cmd/ objects: $objs"

test_done
