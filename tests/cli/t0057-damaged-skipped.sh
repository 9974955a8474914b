#!/bin/sh
# A logdir with a good run and a truncated file in a newer run: the
# reports read every readable file, name the damaged one on stderr with
# its byte offset, say how many they skipped and exit 0; --latest keeps
# the newest run that could be read (by its profile's start, not the
# damaged one's name); diff and check on damaged input still exit 2.
. "$(dirname "$0")/lib.sh"

GOOD=$TESTDATA/jax-mlp/plugins/profile/2026_01_01_00_00_00
P=$tmp/logdir
mkdir -p "$P/plugins/profile/2026_01_01_00_00_00" "$P/plugins/profile/2099_01_01_00_00_00"
cp "$GOOD/testhost.xplane.pb" "$P/plugins/profile/2026_01_01_00_00_00/"
head -c 3000 "$GOOD/testhost.xplane.pb" \
    >"$P/plugins/profile/2099_01_01_00_00_00/testhost.xplane.pb"
BAD="cannot read '$P/plugins/profile/2099_01_01_00_00_00/testhost\\.xplane\\.pb': at byte [0-9]+: "
SKIPPED='1 damaged file skipped \(named on standard error\); the report covers the files that could be read\.'

expect_code 0 jaxprof top -n 0 --format=csv "$TESTDATA/jax-mlp/plugins/profile/2026_01_01_00_00_00"
save good-top.csv

for cmd in top summary steps compile transfers idle memory; do
	test_case "$cmd: the good run is reported, the damaged file named, exit 0"
	expect_code 0 jaxprof $cmd "$P"
	expect_stderr_match "^jaxprof: $cmd: $BAD"
	expect_stderr_match "^jaxprof: $cmd: $SKIPPED\$"
	[ -s "$out" ] || fail "$cmd reported nothing"
done

test_case 'top: what it shows is the good run, and it says it skipped one'
expect_code 0 jaxprof top -n 0 --format=csv "$P"
expect_stdout_file "$tmp/good-top.csv"
expect_code 0 jaxprof top "$P"
expect_stdout_match "^$SKIPPED\$"
! grep -q 'runs summed' "$out" || fail "a run of damaged files counted as summed"

test_case '--latest: the newest run that could be read'
expect_code 0 jaxprof top --latest -n 0 --format=csv "$P"
expect_stdout_file "$tmp/good-top.csv"
expect_code 0 jaxprof summary --latest --format=json "$P"
grep -q '"runs":\["2026_01_01_00_00_00"\]' "$out" || fail "summary --latest did not pick the good run"

test_case '--latest goes by the profile start, not the name'
# Two good runs whose names sort against their start times.
Q=$tmp/renamed
mkdir -p "$Q/plugins/profile/b_first" "$Q/plugins/profile/a_second"
cp "$TESTDATA"/jax-mlp/plugins/profile/2026_01_01_00_00_00/testhost.xplane.pb "$Q/plugins/profile/b_first/"
cp "$TESTDATA"/jax-mlp/plugins/profile/2026_01_01_00_00_01/testhost.xplane.pb "$Q/plugins/profile/a_second/"
expect_code 0 jaxprof sql --format=csv "SELECT run FROM files ORDER BY profile_start_ns DESC LIMIT 1" "$Q"
[ "$(sed -n 2p "$out")" = a_second ] || fail "a_second is not the later profile"
expect_code 0 jaxprof summary --latest --format=json "$Q"
grep -q '"runs":\["a_second"\]' "$out" || fail "--latest did not keep the run that started last"

test_case 'nothing readable: exit 2'
expect_code 2 jaxprof top --run='2099*' "$P"
expect_stderr_match "^jaxprof: top: $BAD"

test_case 'diff, check, baseline, sql on damaged input: exit 2'
expect_code 2 jaxprof diff "$P" "$P"
expect_stderr_match "^jaxprof: diff: $BAD"
expect_code 2 jaxprof check --baseline="$P" "$P"
expect_stderr_match "^jaxprof: check: $BAD"
expect_code 2 jaxprof baseline save -o "$tmp/b.json" "$P"
expect_code 2 jaxprof sql "SELECT 1" "$P"

test_done
