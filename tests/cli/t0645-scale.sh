#!/bin/sh
# Time linear in what a file holds (issue 37, points 2 and 3): 100,000
# planes, trace JSON processes or `XLA Ops` lines, made here.  Read in
# about a second (ten under ASan); the quadratic code took over a minute, so
# a limit of 60 s tells them apart on any machine.
. "$(dirname "$0")/lib.sh"

limit=60

test_case '100,000 planes'
gen_xplane --stress=planes:100000 "$tmp/planes.xplane.pb"
expect_code 0 timeout $limit "$JAXPROF" top --format=csv "$tmp/planes.xplane.pb"
expect_stdout_match '^1,fusion\.1,,fusion,100000,'

test_case '100,000 planes listed'
expect_code 0 timeout $limit "$JAXPROF" list --format=csv "$tmp/planes.xplane.pb"
expect_stdout_match ',GPU:99998,GPU:99999",'

test_case '100,000 trace JSON processes'
awk 'BEGIN {
	printf "{\"traceEvents\":[";
	for (i = 0; i < 100000; i++)
		printf "%s{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":%d," \
		    "\"args\":{\"name\":\"/device:GPU:%d\"}}," \
		    "{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":%d,\"tid\":1," \
		    "\"args\":{\"name\":\"XLA Ops\"}}," \
		    "{\"ph\":\"X\",\"name\":\"fusion.1\",\"pid\":%d,\"tid\":1," \
		    "\"ts\":%d,\"dur\":1}", i ? "," : "", i, i, i, i, i;
	print "]}";
}' >"$tmp/pids.trace.json"
expect_code 0 timeout $limit "$JAXPROF" top --format=csv "$tmp/pids.trace.json"
expect_stdout_match '^1,fusion\.1,,fusion,100000,'

test_case "100,000 'XLA Ops' lines in one plane"
gen_xplane --stress=lines:100000 "$tmp/lines.xplane.pb"
expect_code 0 timeout $limit "$JAXPROF" top --format=csv "$tmp/lines.xplane.pb"
expect_stdout_match '^1,fusion\.1,,fusion,100000,'

test_done
