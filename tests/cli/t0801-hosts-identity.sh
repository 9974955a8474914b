#!/bin/sh
# A host is its file's name in the run folder, not the hostname the file
# records (the same in every file of one machine): two copies of one
# profile under two names stay two hosts in list, summary, steps, hosts
# and --host.
. "$(dirname "$0")/lib.sh"

R=$tmp/logs/plugins/profile/r1
F=$TESTDATA/multihost-even/plugins/profile/2026_02_01_00_00_00/host0.xplane.pb
mkdir -p "$R"
cp "$F" "$R/alpha.xplane.pb"
cp "$F" "$R/beta.xplane.pb"

test_case 'both files record the same hostname'
expect_code 0 jaxprof sql --format=csv \
    "SELECT count(DISTINCT hostname), count(*) FROM files" "$tmp/logs"
[ "$(tail -n 1 "$out")" = 1,2 ] ||
    fail "the copies do not share one hostname: $(cat "$out")"

test_case 'list: two hosts'
expect_code 0 jaxprof list --format=csv "$tmp/logs"
expect_stderr_empty
[ "$(cut -d, -f2 "$out" | tr '\n' ' ')" = "host alpha beta " ] ||
    fail "list does not show hosts alpha and beta"

test_case 'summary: hosts alpha, beta'
expect_code 0 jaxprof summary --format=json "$tmp/logs"
expect_stderr_empty
"$PYTHON" -c 'import json, sys
assert json.load(open(sys.argv[1]))["hosts"] == ["alpha", "beta"]' "$out" ||
    fail "summary's hosts are not alpha and beta"
expect_code 0 jaxprof summary "$tmp/logs"
expect_stdout_match '^hosts +alpha, beta$'

test_case 'steps and hosts: a row per host'
expect_code 0 jaxprof steps --format=csv "$tmp/logs"
[ "$(awk -F, 'NR > 1 { print $2 }' "$out" | sort | uniq -c | tr -s ' ')" = \
    " 10 alpha
 10 beta" ] || fail "steps does not give 10 steps to each of alpha and beta"
expect_code 0 jaxprof hosts --format=csv "$tmp/logs"
[ "$(cut -d, -f2,3 "$out" | tr '\n' ' ')" = "host,steps alpha,10 beta,10 " ] ||
    fail "hosts does not give alpha and beta a row each"

test_case '--host picks one of them in every report'
for c in list steps hosts summary; do
	expect_code 0 jaxprof $c --host=beta --format=json "$tmp/logs"
	! grep -q alpha "$out" || fail "$c --host=beta shows alpha"
	grep -q beta "$out" || fail "$c --host=beta does not show beta"
done

test_done
