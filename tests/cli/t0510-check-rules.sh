#!/bin/sh
# check: rules, verdicts and exit codes on generator profiles, a real
# recompiling JAX profile, and the committed CI baseline.
. "$(dirname "$0")/lib.sh"

[ -n "${GEN_XPLANE:-}" ] && [ -x "$GEN_XPLANE" ] ||
    fail "GEN_XPLANE is not set to the generator"

A=$tmp/a
B=$tmp/b
SLOW=input_reduce_fusion.5
RUN1=2026_01_01_00_00_00

test_case 'generate a profile and the same one with one op 2x slower'
expect_code 0 gen_xplane --seed=3 --steps=6 "$A"
expect_code 0 gen_xplane --seed=3 --steps=6 --slow-op=$SLOW "$B"

test_case 'identical profiles pass the default rules'
expect_code 0 jaxprof check --baseline="$A" "$A"
expect_stderr_empty
expect_stdout_match '^max-step-regression +p50 of 12 steps .* PASS +default$'
expect_stdout_match '^max-op-regression .* PASS +default .*the rule; noise '
expect_stdout_match '^max-new-op-share +0 new ops, .* PASS +default$'
expect_stdout_match '^PASS: all 3 rules passed\.$'

test_case 'the 2x slower op fails the op rule, by name (golden)'
expect_code 1 jaxprof check --baseline="$A" --max-op-regression=10% \
    --min-op-share=1% "$B"
expect_stderr_empty
filter_stdout sed -e "s|$tmp/|TMP/|g"
compare_golden slow-op
expect_stdout_match "^max-op-regression +$SLOW \\(per step\\) +.* \\+100\\.00% +10\\.00% +FAIL +option +$SLOW +the rule; noise [0-9.]+% = 2x the (op's|steps') spread [0-9.]+% / sqrt\\([0-9]+\\)\$"
grep -q '^max-op-regression  *while' "$out" &&
    fail "the loop around the slow op failed too"

test_case 'csv: one row per rule, machine-readable'
expect_code 1 jaxprof check --baseline="$A" --max-op-regression=10 \
    --format=csv "$B"
expect_stdout_match "^max-op-regression,$SLOW \\(per step\\),254\\.937,509\\.873,us,100,10,%,FAIL,option,$SLOW,,the rule; noise [0-9.]+% = 2x the (op's|steps') spread [0-9.]+% / sqrt\\([0-9]+\\)\$"

test_case 'a lenient op rule passes, and so does a large --min-op-share'
expect_code 0 jaxprof check --baseline="$A" --max-op-regression=150% "$B"
expect_code 0 jaxprof check --baseline="$A" --max-op-regression=10% \
    --min-op-share=20% "$B"

test_case 'the saved baseline gives the same verdict as the profile'
expect_code 0 jaxprof baseline save -o "$tmp/a.json" "$A"
expect_code 1 jaxprof check --baseline="$A" --max-op-regression=10% \
    --max-step-regression=1% --format=csv "$B"
save want
expect_code 1 jaxprof check --baseline="$tmp/a.json" \
    --max-op-regression=10% --max-step-regression=1% --format=csv "$B"
expect_stdout_file "$tmp/want"

test_case 'step rules: --max-step-time, --skip, --step-percentile'
expect_code 0 jaxprof check --baseline="$A" --max-step-time=10ms \
    --max-op-regression=off "$B"
expect_stdout_match '^max-step-time +p50 of 12 steps .* PASS +option$'
expect_stdout_match '^Rules: .*max-op-regression = off \(option\), .*max-step-time = 10\.000 ms \(option\)$'
grep -q '^max-op-regression' "$out" && fail "a rule turned off was checked"
expect_code 1 jaxprof check --baseline="$A" --max-step-time=1ms --skip=2 \
    --step-percentile=90 "$B"
expect_stdout_match '^max-step-time +p90 of 8 steps .* 1\.000 ms +FAIL +option$'

test_case 'a recompiling profile fails --max-compiles=1, naming the function'
expect_code 1 jaxprof check --baseline="$TESTDATA/jax-mlp" --run=$RUN1 \
    --max-compiles=1 "$TESTDATA/jax-mlp"
expect_stderr_empty
expect_stdout_match '^max-compiles +normalize +2 +2 +2 +1 +FAIL +option$'
expect_stdout_match '^FAIL: 1 of 4 rules failed\.$'
expect_code 0 jaxprof check --baseline="$TESTDATA/jax-mlp" --run=$RUN1 \
    --max-compiles=2 "$TESTDATA/jax-mlp"
expect_stdout_match '^max-compiles +normalize .* PASS +option$'

test_case 'the committed CI rules pass on the profile they were made from'
cd "$SRCDIR"
expect_code 0 jaxprof check --rules=testdata/baselines/jax-mlp.rules \
    --run=$RUN1 testdata/jax-mlp
expect_stderr_empty
expect_stdout_match '^PASS: all 3 rules passed\.$'

test_case 'options override the rules file'
expect_code 1 jaxprof check --rules=testdata/baselines/jax-mlp.rules \
    --max-compiles=1 --run=$RUN1 testdata/jax-mlp
expect_stdout_match '^max-compiles +normalize .* FAIL +option$'
cd - >/dev/null

test_case 'a missing baseline is exit 2 with a clear message'
expect_code 2 jaxprof check --baseline="$tmp/x.json" "$A"
expect_stdout_empty
expect_stderr_is "jaxprof: check: cannot read baseline '$tmp/x.json': No such file or directory"

test_case 'not a baseline, a newer version, a broken file: exit 2'
printf '{"format": "something-else", "version": 1}\n' >"$tmp/other.json"
expect_code 2 jaxprof check --baseline="$tmp/other.json" "$A"
expect_stdout_empty
expect_stderr_is "jaxprof: check: '$tmp/other.json' is not a jaxprof baseline (its \"format\" is not \"jaxprof-baseline\")"
sed 's/"version": 2,/"version": 3,/' "$tmp/a.json" >"$tmp/v3.json"
expect_code 2 jaxprof check --baseline="$tmp/v3.json" "$A"
expect_stderr_is "jaxprof: check: baseline '$tmp/v3.json' has version 3; this jaxprof reads versions 1 to 2"
grep -v '"self_ps"' "$tmp/a.json" >"$tmp/broken.json"
expect_code 2 jaxprof check --baseline="$tmp/broken.json" "$A"
expect_stderr_is "jaxprof: check: invalid baseline '$tmp/broken.json': missing or non-integer 'self_ps'"
printf '{"format": ' >"$tmp/cut.json"
expect_code 2 jaxprof check --baseline="$tmp/cut.json" "$A"
expect_stderr_match "^jaxprof: check: '$tmp/cut.json' is not a jaxprof baseline: "

test_case 'usage errors are exit 2'
expect_code 2 jaxprof check "$A"
expect_stderr_match '^jaxprof: check: no --baseline given$'
expect_code 2 jaxprof check --baseline="$A" --max-step-regression=five "$A"
expect_stderr_is "jaxprof: check: invalid --max-step-regression 'five' (expected a percentage such as 5%, or off)"
expect_code 2 jaxprof check --baseline="$A" --max-step-time=150 "$A"
expect_stderr_is "jaxprof: check: invalid --max-step-time '150' (expected a time such as 150ms, with ns, us, ms or s, or off)"
expect_code 2 jaxprof check --baseline="$A" --max-compiles=1.5 "$A"
expect_stderr_is "jaxprof: check: invalid --max-compiles '1.5' (expected a whole number, or off)"
printf 'max-compiles = 1\nmax-speed = 3\n' >"$tmp/bad.rules"
expect_code 2 jaxprof check --baseline="$A" --rules="$tmp/bad.rules" "$A"
expect_stderr_is "jaxprof: check: rules '$tmp/bad.rules' line 2: unknown key 'max-speed'"
expect_code 2 jaxprof check --baseline="$A" --rules="$tmp/none.rules" "$A"
expect_stderr_is "jaxprof: check: cannot read rules '$tmp/none.rules': No such file or directory"

test_done
