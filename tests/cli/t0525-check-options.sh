#!/bin/sh
# check: its long options and rules-file keys come from the rules' rows
# (report/check-rules.c): every rule jaxprof-check(1) lists is an option
# and a key, shown in the "Rules:" line with where its value came from;
# getopt's messages list the options by name, as they always did.
. "$(dirname "$0")/lib.sh"

T=$TESTDATA/jax-mlp
BASE=$TESTDATA/baselines/jax-mlp.json
MAN=$SRCDIR/man/jaxprof-check.1
[ -f "$BASE" ] && [ -f "$MAN" ] || fail "no $BASE or $MAN"
cd "$tmp"
RUN='--run=2026_01_01_00_00_00'

rules=$(sed -n 's/^\.It Fl -\(max-[a-z-]*\) .*/\1/p' "$MAN")
[ "$(echo "$rules" | wc -l)" -ge 7 ] || fail "too few rules in $MAN: $rules"

test_case 'each rule of the man page is an option: off, said so'
for r in $rules; do
	expect_code 0 jaxprof check --baseline="$BASE" --"$r"=off $RUN "$T"
	grep -q "^Rules:.* $r = off (option)" "$out" ||
	    fail "--$r=off: no '$r = off (option)' in: $(head -n 3 "$out")"
done

test_case 'each rule of the man page is a rules-file key'
: >all.rules
for r in $rules; do
	echo "$r = off" >>all.rules
done
expect_code 0 jaxprof check --baseline="$BASE" --rules=all.rules $RUN "$T"
for r in $rules; do
	grep -q "^Rules:.* $r = off (rules file)" "$out" ||
	    fail "key $r: not '$r = off (rules file)'"
done
expect_stdout_match '^PASS: all 0 rules passed\.$'

test_case 'a unique prefix is its option; the command line wins'
echo 'max-compiles = 5' >five.rules
expect_code 0 jaxprof check --baseline="$BASE" --rules=five.rules \
    --max-c=100 $RUN "$T"
expect_stdout_match '^Rules: max-compiles = 100 \(option\),'

test_case 'an ambiguous prefix lists its options by name: exit 2'
expect_code 2 jaxprof check --max-s=1 x
expect_stderr_match "^jaxprof: check: option '--max-s=1' is ambiguous; possibilities: '--max-step-regression' '--max-step-time'$"

test_case 'an unknown option names the closest: exit 2'
expect_code 2 jaxprof check --basline=x y
expect_stderr_match "^jaxprof: check: did you mean '--baseline'\?$"
expect_code 2 jaxprof check --max-step-regresion=1 y
expect_stderr_match "^jaxprof: check: did you mean '--max-step-regression'\?$"

test_case '--rules is no key of a rules file: exit 2'
echo 'rules = x' >self.rules
expect_code 2 jaxprof check --baseline="$BASE" --rules=self.rules "$T"
expect_stderr_is "jaxprof: check: rules 'self.rules' line 1: unknown key 'rules'"

test_done
