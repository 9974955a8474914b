#!/bin/sh
# A folder of several runs (issue 36, point 11): one rule for every report
# (jaxprof(1), DESCRIPTION).  The reports that sum runs say under their
# table that they did, naming the runs and how to choose; --run and
# --latest choose; list, which shows each run apart, says nothing; summary
# and steps analyse the newest run alone (t0058).
. "$(dirname "$0")/lib.sh"

T=$TESTDATA/jax-mlp
NOTE="2 runs summed ('2026_01_01_00_00_00', '2026_01_01_00_00_01'); choose one with --run=GLOB or --latest."

# Whether stdout has the line $1 exactly (-F: the parentheses as they are).
has_line() {
	grep -Fqx -e "$1" "$out"
}

for cmd in top compile transfers idle; do
	for fmt in table markdown; do
		test_case "$cmd --format=$fmt over two runs says it summed them"
		expect_code 0 jaxprof $cmd --format=$fmt "$T"
		has_line "$NOTE" || fail "$cmd does not say it summed two runs"
	done
	test_case "$cmd --latest, --run: one run, no note"
	expect_code 0 jaxprof $cmd --latest "$T"
	! grep -q 'runs summed' "$out" || fail "a note on one run"
	expect_code 0 jaxprof $cmd --run='*00' "$T"
	! grep -q 'runs summed' "$out" || fail "a note on one run"
	test_case "$cmd --format=csv: the rows alone"
	expect_code 0 jaxprof $cmd --format=csv "$T"
	! grep -q 'runs summed' "$out" || fail "a note in the csv"
done

test_case 'diff: each side that sums runs says so'
expect_code 0 jaxprof diff --run='*00' "$T" "$T"
! grep -q 'runs summed' "$out" || fail "a note on one run"
expect_code 0 jaxprof diff "$T" "$T"
has_line "base: $NOTE" || fail "diff does not say the base summed two runs"
has_line "new: $NOTE" || fail "diff does not say the new side summed two runs"

test_case 'check: each side that sums runs says so'
expect_code 0 jaxprof check --baseline="$T" "$T"
has_line "baseline: $NOTE" || fail "check does not say the baseline summed two runs"
has_line "new: $NOTE" || fail "check does not say the new side summed two runs"

for cmd in list; do
	test_case "$cmd shows each run apart: no note"
	expect_code 0 jaxprof $cmd "$T"
	! grep -q 'runs summed' "$out" || fail "$cmd says it summed runs"
	expect_code 0 jaxprof $cmd --format=csv "$T"
	[ "$(awk -F, 'NR > 1 { print $1 }' "$out" | sort -u | wc -l)" -eq 2 ] ||
	    fail "$cmd does not show both runs"
done
test_done
