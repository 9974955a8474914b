#!/bin/sh
# extract --step: a number past int64, a sign or blank space is an
# invalid --step (exit 2), never read as the largest step or a range from
# 0 to it (issue 41.9: every numeric option checked).
. "$(dirname "$0")/lib.sh"

F=$TESTDATA/jax-mlp/plugins/profile/2026_01_01_00_00_01/testhost.xplane.pb
[ -f "$F" ] || fail "no $F"
cd "$tmp"

test_case 'steps in range: converted'
expect_code 0 jaxprof extract --step=1-2 --to=chrome -o a.json "$F"
expect_stderr_empty

test_case 'too large, signed or spaced: exit 2, named'
for s in 99999999999999999999 0-99999999999999999999 \
    9223372036854775808 +1 ' 1' 1-+2 -1; do
	expect_code 2 jaxprof extract --step="$s" --to=chrome -o b.json "$F"
	expect_stdout_empty
	expect_stderr_is "jaxprof: extract: invalid --step '$s' (expected N or N-M)"
	[ ! -e b.json ] || fail "--step=$s wrote b.json"
done

test_done
