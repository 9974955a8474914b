#!/bin/sh
# The library's modules depend one way (no file calls into a file that
# calls back into it), and a command file is options, one call into the
# library, output: extract's archive checks and writing live in extract.c.
. "$(dirname "$0")/lib.sh"

lib=$(dirname "$JAXPROF")/libjaxprof.a
command -v nm >/dev/null 2>&1 || skip "no nm (install binutils)"
[ -f "$lib" ] || skip "no '$lib'"

# "from to" for each call from one object file into another.
nm -A "$lib" 2>/dev/null | awk '
	{ split($1, p, ":"); f = p[2]; sub(/^libjaxprof_a-/, "", f) }
	$2 ~ /^[TDBR]$/ { def[$3] = f }
	$2 == "U" { n++; uf[n] = f; us[n] = $3 }
	END { for (i = 1; i <= n; i++) if ((us[i] in def) && def[us[i]] != uf[i])
		print uf[i], def[us[i]] }' | sort -u >"$tmp/edges"

test_case 'the library has call edges to check'
[ "$(wc -l <"$tmp/edges")" -gt 50 ] || fail "too few edges in '$lib'"

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
bad=$(nm "$(dirname "$JAXPROF")/src/libjaxprof_a-cmd-extract.o" 2>/dev/null |
    awk '$1 == "U" { print $2 }' |
    grep -E '^(arc_|openat|mkdirat|unlinkat|fnmatch|load_file|convert_)' |
    tr '\n' ' ') || :
[ -z "$bad" ] || fail "cmd-extract.o calls $bad"

test_done
