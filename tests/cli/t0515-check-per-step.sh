#!/bin/sh
# check and diff compare op cost per step (issue 9): a 40-step run of the
# program a 10-step baseline was saved from passes --max-op-regression,
# where totals would show +300%; a run whose op costs more per step fails
# naming it; diff says what it compared.  On the corpus: a baseline of the
# H200 cmdbuf-warm run against the same program compiled inside the trace
# (cmdbuf-train), whose autotuning is compile work and left out.
. "$(dirname "$0")/lib.sh"

gen_xplane --steps=10 "$tmp/s10"
gen_xplane --steps=40 "$tmp/s40"
gen_xplane --steps=40 --slow-op=fusion.18 --slow-factor=1.5 "$tmp/slow"

test_case 'baseline of 10 steps, run of 40: passes per step'
expect_code 0 jaxprof baseline save -o "$tmp/base.json" "$tmp/s10"
expect_code 0 jaxprof check --baseline="$tmp/base.json" \
    --max-op-regression=10% "$tmp/s40"
expect_stderr_empty
expect_stdout_match '^max-op-regression  *[0-9]* paired ops with >= 1\.00% share, summed \(per step\) .*PASS  *option  .*the rule; noise'
expect_stdout_match '^PASS: all 3 rules passed\.$'

test_case 'an op 1.5 times slower per step fails, named'
expect_code 1 jaxprof check --baseline="$tmp/base.json" \
    --max-op-regression=10% "$tmp/slow"
expect_stderr_empty
expect_stdout_match '^max-op-regression  *fusion\.18 \(per step\) .*FAIL  *option  *fusion\.18  .*noise'
[ "$(grep -c FAIL "$out")" -eq 2 ] ||
	fail "more ops than fusion.18 fail"

test_case 'diff: says it compares per step, ratio near 1'
expect_code 0 jaxprof diff -n 0 --format=csv "$tmp/base.json" "$tmp/s40"
expect_stderr_empty
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	$c["normalized_per"] != "step" { bad = 1 }
	$c["ratio"] < 0.9 || $c["ratio"] > 1.1 { bad = 1 }
	END { exit bad }' "$out" ||
	fail "diff rows are not per step with a ratio near 1"
expect_code 0 jaxprof diff "$tmp/base.json" "$tmp/s40"
expect_stdout_match '^Compared: per step, base 10 steps, new 40 steps'

if [ ! -d "$CORPUS/h200" ]; then
	note_skip "the H200 part: no corpus at '$CORPUS/h200'"
	test_done
fi

test_case 'H200: cmdbuf-warm baseline, cmdbuf-train run (--skip=1)'
expect_code 0 jaxprof baseline save -o "$tmp/h200.json" "$CORPUS/h200/cmdbuf-warm"
expect_code 0 jaxprof check --baseline="$tmp/h200.json" --skip=1 \
    --max-op-regression=10% --max-step-regression=10% "$CORPUS/h200/cmdbuf-train"
expect_stdout_match '^max-op-regression .*summed \(per step\) .*PASS  *option  .*noise'
expect_stdout_match '^PASS: all 3 rules passed\.$'

test_done
