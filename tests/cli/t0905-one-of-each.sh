#!/bin/sh
# One of each (issue 45.4, 45.5): a profile format is a row of
# src/load/formats.c, the only place that names a kind; JSON strings are
# escaped in one place (src/lib/json-string.c) whatever writes them; the
# commands are listed once (src/cmd/commands.def), a line per cmd-NAME.c.
. "$(dirname "$0")/lib.sh"

src=$SRCDIR/src

test_case 'a file kind is named only in load/formats.c and .h'
bad=$(cd "$src" && grep -ln 'KIND_' */*.[ch] |
    grep -v '^load/formats\.[ch]$' | tr '\n' ' ') || :
[ -z "$bad" ] || fail "KIND_ outside load/formats.[ch]: $bad"
grep -q 'KIND_XPLANE' "$src/load/formats.c" ||
    fail "no KIND_XPLANE in '$src/load/formats.c'"

test_case 'JSON strings are escaped only by lib/json-string.c'
# The escapes of a control and of a byte that is not UTF-8, and yajl's
# generator: a second writer would spell one of them.
bad=$(cd "$src" && grep -ln -e '\\\\u%04' -e '\\\\ufffd' -e 'yajl_gen' \
    */*.[ch] | grep -v '^lib/json-string\.c$' | tr '\n' ' ') || :
[ -z "$bad" ] || fail "JSON string escapes outside lib/json-string.c: $bad"
grep -q '\\\\ufffd' "$src/lib/json-string.c" ||
    fail "no escape in '$src/lib/json-string.c'"

test_case 'the commands are listed once, a line per command file'
listed=$(sed -n 's/^COMMAND(\([a-z]*\))$/\1/p' "$src/cmd/commands.def" |
    tr '\n' ' ')
files=$(cd "$src/cmd" && ls cmd-*.c | sed 's/^cmd-\(.*\)\.c$/\1/' |
    tr '\n' ' ')
[ -n "$listed" ] || fail "no COMMAND() lines in '$src/cmd/commands.def'"
[ "$listed" = "$files" ] ||
    fail "commands.def lists '$listed', src/cmd has '$files'"
again=$(grep -n -e 'extern const struct cmd cmd_[a-z]' -e '&cmd_[a-z]' \
    "$src/cmd/cmd.h" "$src/cmd/main.c") || :
[ -z "$again" ] || fail "commands listed again: $again"

test_case "--help lists every command of commands.def, in its order"
expect_code 0 jaxprof --help
helped=$(sed -n 's/^  \([a-z][a-z]*\)  .*/\1/p' "$out" | tr '\n' ' ')
[ "$helped" = "$listed" ] || fail "--help lists '$helped', not '$listed'"

test_done
