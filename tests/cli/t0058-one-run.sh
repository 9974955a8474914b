#!/bin/sh
# summary and steps analyse one run when a folder holds several: the
# newest, naming the others and how to choose (--run); --run chooses,
# and a glob of several runs is asked for; top keeps summing and says so.
. "$(dirname "$0")/lib.sh"

T=$TESTDATA/jax-mlp
R0=2026_01_01_00_00_00
R1=2026_01_01_00_00_01
NOTE="The newest run, '$R1', of 2; the other: '$R0'; choose one with --run=NAME."

for cmd in summary steps; do
	test_case "$cmd of two runs: the newest alone, the other named"
	expect_code 0 jaxprof $cmd "$T"
	expect_stderr_is "jaxprof: $cmd: note: $NOTE"
	expect_code 0 jaxprof $cmd --run="$R1" "$T"
	expect_stderr_empty
	save one
	expect_code 0 jaxprof $cmd "$T"
	# The same report as --run names it, and the note under it.
	grep -Fvx "$NOTE" "$out" | sed -e '${/^$/d;}' >"$tmp/without"
	sed -e '${/^$/d;}' "$tmp/one" | diff -u - "$tmp/without" ||
	    fail "$cmd of the folder is not the newest run's"
done

test_case 'summary: the steps are those of the one run'
expect_code 0 jaxprof steps --format=csv --run="$R1" "$T"
n1=$(($(wc -l <"$out") - 1))
expect_code 0 jaxprof summary --format=json "$T"
grep -q "\"steps\":$n1," "$out" || fail "summary does not count the one run's $n1 steps"
grep -q "\"runs\":\[\"$R1\"\]" "$out" || fail "summary covers more than the newest run"

test_case 'steps csv: one run'
expect_code 0 jaxprof steps --format=csv "$T"
[ "$(awk -F, 'NR > 1 { print $1 }' "$out" | sort -u)" = "$R1" ] ||
    fail "steps shows more than the newest run"
! grep -q 'newest run' "$out" || fail "a note in the csv"

test_case '--run of several: asked for, both'
expect_code 0 jaxprof steps --format=csv --run='2026*' "$T"
expect_stderr_empty
[ "$(awk -F, 'NR > 1 { print $1 }' "$out" | sort -u | wc -l)" -eq 2 ] ||
    fail "steps --run='2026*' does not show both runs"

test_case 'top still sums the runs, saying so'
expect_code 0 jaxprof top "$T"
expect_stdout_match "^2 runs summed \('$R0', '$R1'\); choose one with --run=GLOB or --latest\.\$"

test_done
