#!/bin/sh
# --run, --host and --latest select files before they are read (issue 9):
# a broken file of another run is never read, so it neither warns nor
# changes the exit status of a report or a check about the runs selected.
. "$(dirname "$0")/lib.sh"

gen_xplane --steps=4 --devices=1 "$tmp/gen"
P=$tmp/two
mkdir -p "$P/plugins/profile/r1" "$P/plugins/profile/r2"
cp "$tmp"/gen/plugins/profile/*/host0.xplane.pb "$P/plugins/profile/r1/"
head -c 3000 "$tmp"/gen/plugins/profile/*/host0.xplane.pb \
    >"$P/plugins/profile/r2/host0.xplane.pb"

test_case 'check --run=r1: the truncated file of r2 is not read'
expect_code 0 jaxprof check --baseline="$P" --run=r1 "$P"
expect_stderr_empty
expect_stdout_match '^PASS: all 3 rules passed\.$'

test_case 'top --run=r1 and --host: exit 0, no warning'
expect_code 0 jaxprof top --run=r1 "$P"
expect_stderr_empty
expect_code 0 jaxprof top --run='r[1]' --host='host*' "$P"
expect_stderr_empty

test_case 'the truncated file itself still fails when it is all there is'
expect_code 2 jaxprof top --run=r2 "$P"
expect_stderr_match "cannot read '.*/r2/host0\.xplane\.pb'"

test_case 'beside a readable run it is skipped, said so (t0057 in full)'
expect_code 0 jaxprof top --latest "$P"
expect_stderr_match "cannot read '.*/r2/host0\.xplane\.pb'"
expect_code 0 jaxprof top "$P"
expect_stdout_match '^1 damaged file skipped'
expect_code 2 jaxprof check --baseline="$P" "$P"

test_done
