#!/bin/sh
# Time linear in what a file holds (issue 37, points 2 and 3): 100,000
# planes, trace JSON processes or `XLA Ops` lines, made here.  Read in
# about a second (ten under ASan); the quadratic code took over a minute, so
# a limit of 60 s tells them apart on any machine.  Memory that follows what
# the lines hold (point 4): 5 million empty lines (10 MB) took 835 MB.
. "$(dirname "$0")/lib.sh"

limit=60

test_case '100,000 planes'
# Each file a run of its own (a folder), but for the case of two.
mkdir "$tmp/planes" "$tmp/pids" "$tmp/lines" "$tmp/empty" "$tmp/two"
gen_xplane --stress=planes:100000 "$tmp/planes/planes.xplane.pb"
expect_code 0 timeout $limit "$JAXPROF" top --format=csv "$tmp/planes/planes.xplane.pb"
expect_stdout_match '^1,fusion\.1,,fusion,100000,'

test_case '100,000 planes listed'
expect_code 0 timeout $limit "$JAXPROF" list --format=csv "$tmp/planes/planes.xplane.pb"
expect_stdout_match ',GPU:99998,GPU:99999",'

test_case '100,000 trace JSON processes'
gen_xplane --stress=pids:100000 "$tmp/pids/pids.trace.json"
expect_code 0 timeout $limit "$JAXPROF" top --format=csv "$tmp/pids/pids.trace.json"
expect_stdout_match '^1,fusion\.1,,fusion,100000,'

test_case "100,000 'XLA Ops' lines in one plane"
gen_xplane --stress=lines:100000 "$tmp/lines/lines.xplane.pb"
expect_code 0 timeout $limit "$JAXPROF" top --format=csv "$tmp/lines/lines.xplane.pb"
expect_stdout_match '^1,fusion\.1,,fusion,100000,'

test_case '5,000,000 empty lines: memory bounded by what they hold'
gen_xplane --stress=empty:5000000 "$tmp/empty/empty.xplane.pb"
if [ -x /usr/bin/time ]; then
	# Under ASan, what is freed waits in its quarantine (256 MB): not here.
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}quarantine_size_mb=0:thread_local_quarantine_size_kb=0 \
	    expect_code 0 timeout $limit /usr/bin/time -f 'peak %M KB' \
	    -o "$tmp/peak" "$JAXPROF" top --format=csv "$tmp/empty/empty.xplane.pb"
	expect_stderr_line "no ops in the selection"
	kb=$(sed -n 's/^peak \([0-9]*\) KB$/\1/p' "$tmp/peak")
	# 14 MB here, 835 MB before; ASan's shadow adds a share of it.
	[ -n "$kb" ] && [ "$kb" -lt 204800 ] ||
	    fail "peak memory $kb KB for 5,000,000 empty lines (10 MB)"
else
	note_skip "the memory bound: no /usr/bin/time"
fi
expect_code 0 jaxprof sql --format=csv 'SELECT lines, events FROM files f WHERE f.path LIKE "%empty%"' "$tmp/empty/empty.xplane.pb"
expect_stdout_match '^5000000,0$'

# A run's totals per device name (run-totals.c) scanned every plane of the
# run for each name: over 100 s for this, 5 s now.
test_case 'a run of two files of 30,000 planes each'
gen_xplane --stress=planes:30000 "$tmp/two/a.xplane.pb"
cp "$tmp/two/a.xplane.pb" "$tmp/two/b.xplane.pb"
expect_code 0 timeout $limit "$JAXPROF" top --format=csv "$tmp/two"
expect_stdout_match '^1,fusion\.1,,fusion,60000,'

test_done
