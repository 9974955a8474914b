#!/bin/sh
# Hostile input (issue 12): the hand-made files of fuzz/crashers (written by
# fuzz/make-hostile.py), one per class of finding.  jaxprof(1), UNTRUSTED
# INPUT, is the specification.
. "$(dirname "$0")/lib.sh"

C=$SRCDIR/fuzz/crashers
at='at byte [0-9]+: '

# Class 3: impossible times reject the file, naming where and the value.
test_case 'XSpace: negative duration'
expect_code 2 jaxprof top "$C/xspace/negative-duration.xplane.pb"
expect_stderr_line "cannot read '.*negative-duration.xplane.pb': ${at}plane '/device:GPU:0' line 'XLA Ops' event 'fusion.1': impossible duration_ps -1 \(must be 0 to 2305843009213693952\)$"

test_case 'XSpace: INT64_MIN duration'
expect_code 2 jaxprof top "$C/xspace/int64-min-duration.xplane.pb"
expect_stderr_match "impossible duration_ps -9223372036854775808 "

test_case 'XSpace: negative offset'
expect_code 2 jaxprof steps "$C/xspace/negative-offset.xplane.pb"
expect_stderr_match "event 'fusion.1': impossible offset_ps -5 "

test_case 'XSpace: lines stamped 2^62 ns apart'
expect_code 2 jaxprof list "$C/xspace/huge-line-timestamp.xplane.pb"
expect_stderr_match "line 'XLA Ops': impossible timestamp_ns 4611686018427387905 \(must be from the earliest line's, 1, to 2305843009213693 ns after it\)$"

test_case 'JSON: negative dur'
expect_code 2 jaxprof top "$C/json/negative-duration.trace.json"
expect_stderr_line "cannot read '.*negative-duration.trace.json': ${at}pid 1 tid 1 event 'fusion.1': impossible dur -1000000 ps \(must be 0 to 2305843009213693952\)$"

test_case 'JSON: negative ts'
expect_code 2 jaxprof top "$C/json/negative-ts.trace.json"
expect_stderr_match "event 'fusion.1': impossible ts -5000000 ps "

test_case 'JSON: ts 1 us and 9223372036854 us in one trace'
expect_code 2 jaxprof top "$C/json/huge-ts.trace.json"
expect_stderr_match "event 'fusion.1': ts 9223372036854000 ns is more than 2305843009213693952 ps after an earlier event's$"

test_case "JSON: an 'E' before its 'B'"
expect_code 2 jaxprof top "$C/json/end-before-begin.trace.json"
expect_stderr_match "pid 1 tid 1: impossible 'E' at ts 5000000 ps, before its 'B' at 10000000 ps"

# Class 2: the largest valid times add up past int64: totals saturate.
for f in xspace/huge-durations.xplane.pb json/huge-durations.trace.json; do
	test_case "$f: totals saturate"
	expect_code 0 jaxprof top --format=csv "$C/$f"
	expect_stdout_match '^1,fusion\.1,,fusion,6,9223372036854\.775,'
done

test_case 'device_offset_ps and device_duration_ps at INT64_MAX are ignored'
expect_code 0 jaxprof top --format=csv "$C/xspace/device-span-int64-max.xplane.pb"
expect_stdout_match '^1,fusion\.1,,fusion,1,0\.000,'

test_case 'an archive entry dated 1e13 s'
expect_code 0 jaxprof list --format=csv "$C/archive/mtime-1e13.tar.gz"
expect_stdout_match '^r,host0,host0\.xplane\.pb,'

# Class 5: --format=json is valid UTF-8 whatever the names hold.
test_case 'a name that is not UTF-8, as JSON'
expect_code 0 jaxprof top --format=json "$C/xspace/invalid-utf8-name.xplane.pb"
expect_stdout_match '"name": "fusion\\ufffd\\ufffd\\ufffd\.1"'
if python_has json; then
	"$PYTHON" -c 'import json, sys; json.loads(open(sys.argv[1], "rb").read().decode("utf-8"))' "$out" ||
	    fail "the JSON output does not parse as UTF-8 JSON"
else
	note_skip "the JSON parse ($PYTHON has no json)"
fi
test_done
