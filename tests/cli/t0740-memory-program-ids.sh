#!/bin/sh
# Program ids are unsigned 64-bit (jaxprof(1), INDEX SCHEMA): on the TPU
# corpus profile, three of whose four ids are 2^63 or more, every command
# and format prints each id as the profile's metadata names it (read here
# from the file's bytes), and the index keeps them distinct.
. "$(dirname "$0")/lib.sh"

T=$CORPUS/xprof/xprof/convert/test_xplanes/tpu_inference_2.xplane.pb
[ -f "$T" ] || skip "no TPU profile '$T'"

# The programs as /host:metadata's event names give them: "jit_f(ID)".
LC_ALL=C grep -a -o 'jit_[A-Za-z0-9_]*([0-9]*)' "$T" | sort -u >"$tmp/want"
[ "$(wc -l <"$tmp/want")" -eq 4 ] || fail "not 4 programs in '$T'"
grep -q '(1[0-9]\{19\})' "$tmp/want" || fail "no id of 2^63 or more"

test_case "memory --group=program: the ids as the profile has them"
for fmt in table csv json; do
	expect_code 0 jaxprof memory --group=program --format=$fmt "$T"
	expect_stderr_empty
	case $fmt in
	table)	awk 'NR > 3 && NF > 3 { print $3 "(" $4 ")" }' "$out" ;;
	csv)	awk -F, 'NR > 1 { print $3 "(" $4 ")" }' "$out" ;;
	json)	sed -n 's/.*"program": "\([^"]*\)", "program_id": \([0-9]*\),.*/\1(\2)/p' "$out" ;;
	esac | sort >"$tmp/got"
	expect_files_equal "$tmp/want" "$tmp/got" "$fmt: program ids differ"
	grep -q -- '-[0-9]\{18\}' "$out" && fail "$fmt: a negative id"
done

test_case "memory --group=buffer --program=NAME(ID) finds each, named alike"
while read -r p; do
	expect_code 0 jaxprof memory --group=buffer -n 1 --format=csv \
	    --program="$p" "$T"
	[ "$(sed -n 2p "$out" | cut -d, -f3)" = "$p" ] ||
	    fail "--program=$p: $(sed -n 2p "$out" | cut -d, -f3)"
done <"$tmp/want"

test_case "summary lists each compile's program as the profile names it"
expect_code 0 jaxprof summary --format=json "$T"
grep -o 'jit_[A-Za-z0-9_]*([0-9-]*)' "$out" | sort -u >"$tmp/got"
expect_files_equal "$tmp/want" "$tmp/got" "summary: program ids differ"

test_case "the index's programs: one distinct id each, their bits kept"
expect_code 0 jaxprof sql --format=csv "SELECT module || '(' ||
    printf('%llu', program_id) || ')' AS p FROM programs
    WHERE module LIKE 'jit_%' ORDER BY 1" "$T"
sed 1d "$out" >"$tmp/got"
expect_files_equal "$tmp/want" "$tmp/got" "programs: ids differ"
for table in programs modules executions memory_buffers hlo_instructions; do
	expect_code 0 jaxprof sql --format=csv "SELECT count(*) FROM
	    (SELECT DISTINCT printf('%llu', program_id) AS id FROM $table
	    WHERE program_id IS NOT NULL) WHERE id NOT IN ($(sed \
	    's/.*(\([0-9]*\))/'"'"'\1'"'"'/' "$tmp/want" | paste -sd,))" "$T"
	[ "$(sed -n 2p "$out")" = 0 ] ||
	    fail "$table: ids the profile has not: $(cat "$out")"
done

test_done
