#!/bin/sh
# hosts on the committed 4-process CPU JAX runs (testdata/make-multihost.py):
# host2 the straggler of multihost-straggler, none in multihost-even, in
# every format; the numbers against tests/cli/hosts_reference.py, the rule
# computed again from the XSpace files with the protobuf package; the
# rows it reads, in SQL; --host; misuse.
. "$(dirname "$0")/lib.sh"

S=$TESTDATA/multihost-straggler
E=$TESTDATA/multihost-even
REF=$CLI_DIR/hosts_reference.py

for fmt in table csv json markdown; do
	test_case "straggler run, --format=$fmt"
	expect_code 0 jaxprof hosts --format=$fmt "$S"
	expect_stderr_empty
	compare_golden "straggler-$fmt"
done

test_case 'json: a boolean straggler per host, host2 alone, with evidence'
expect_code 0 jaxprof hosts --format=json "$S"
"$PYTHON" - "$out" <<'PY' || fail "json rows are not as expected"
import json, sys
rows = json.load(open(sys.argv[1]))
assert [r["host"] for r in rows] == ["host0", "host1", "host2", "host3"], rows
assert all(type(r["straggler"]) is bool for r in rows)
assert [r["host"] for r in rows if r["straggler"]] == ["host2"]
ev = rows[2]["evidence"]
assert ev.startswith("host2 arrives last at psum_invariant.") and \
    " in 10 of 10 steps, " in ev and \
    " per step in load_batch; the other 3 hosts wait " in ev, ev
assert all(r["evidence"] == "" for r in rows if not r["straggler"])
# The sleep is 30 ms: host2's load_batch and lateness show it.
assert 30000 <= rows[2]["idle_in_us"] <= 45000, rows[2]
assert 25000 <= rows[2]["lateness_us"] <= 45000, rows[2]
PY

test_case 'even run: no straggler'
expect_code 0 jaxprof hosts "$E"
expect_stderr_empty
compare_golden even
expect_stdout_match '^2026_02_01_00_00_00: no straggler among 4 hosts\.$'
expect_code 0 jaxprof hosts --format=csv "$E"
[ "$(cut -d, -f16 "$out" | sort | uniq -c | tr -s ' ')" = " 4 false
 1 straggler" ] || fail "the even run has a straggler: $(cat "$out")"

test_case 'the rows it reads: 5 collectives a step, 10 steps, 4 hosts'
# An index of this run alone: the even run has the same run and hosts.
JAXPROF_DB=$tmp/straggler.sqlite
expect_code 0 jaxprof sql --format=csv "SELECT f.host, count(*),
    count(DISTINCT c.step), count(DISTINCT c.name) FROM step_collectives c
    JOIN files f ON f.id = c.file_id GROUP BY f.host ORDER BY f.host" "$S"
expect_stderr_empty
printf '%s\n' 'host,count(*),count(DISTINCT c.step),count(DISTINCT c.name)' \
    host0,50,10,5 host1,50,10,5 host2,50,10,5 host3,50,10,5 >"$tmp/want"
expect_files_equal "$tmp/want" "$out" "step_collectives rows"
expect_code 0 jaxprof sql --format=csv "SELECT f.host, a.step, a.count
    FROM step_annotations a JOIN files f ON f.id = a.file_id
    WHERE a.name = 'load_batch' AND a.dur_ps >= 30000000000
    ORDER BY f.host, a.step" "$S"
[ "$(grep -c '^host2,[0-9],1$' "$out")" -eq 10 ] &&
    [ "$(grep -c . "$out")" -eq 11 ] ||
    fail "host2 alone has a load_batch of 30 ms in each step: $(cat "$out")"
JAXPROF_DB=$tmp/index.sqlite

test_case 'numbers equal an independent computation from the files'
if python_has google.protobuf && { command -v protoc >/dev/null 2>&1 ||
    python_has grpc_tools.protoc; }; then
	for d in "$S" "$E"; do
		expect_code 0 "$PYTHON" "$REF" "$SRCDIR/proto" \
		    "$d"/plugins/profile/*/*.xplane.pb
		expect_stderr_empty
		save ref
		expect_code 0 jaxprof hosts --format=csv "$d"
		cut -d, -f2,3,4,5,8,11,12,13,14,15,16 "$out" >"$tmp/ours"
		expect_files_equal "$tmp/ref" "$tmp/ours" \
		    "hosts of $d differ from hosts_reference.py"
	done
else
	note_skip "the reference: '$PYTHON' lacks protobuf or protoc; $(install_hint google.protobuf)"
fi

test_case '--host: the rule compares the selected hosts only'
expect_code 0 jaxprof hosts --host='host[013]' --format=csv "$S"
expect_stderr_empty
[ "$(cut -d, -f2 "$out" | tr '\n' ' ')" = "host host0 host1 host3 " ] ||
    fail "--host did not select host0, host1, host3"
! grep -q ',true,' "$out" || fail "a straggler among hosts that wait"
expect_code 0 jaxprof hosts --host=host2 "$S"
expect_stdout_match '^2026_02_01_00_00_00: no straggler among 1 host\.$'

test_case 'summary: the verdict names the straggler, not on the even run'
expect_code 0 jaxprof summary --format=json "$S"
"$PYTHON" - "$out" <<'PY' || fail "summary's verdict does not name host2"
import json, sys
s = json.load(open(sys.argv[1]))
v = s["verdict"]
assert v["rule"] == "straggler", v
assert v["text"].startswith("straggler host2: host2 arrives last at "), v
assert s["hosts"] == ["host0", "host1", "host2", "host3"], s["hosts"]
PY
expect_code 0 jaxprof summary "$E"
! grep -q straggler "$out" || fail "summary of the even run names a straggler"

test_case 'misuse'
expect_code 2 jaxprof hosts
expect_stderr_is "jaxprof: hosts: no PATH given; see 'jaxprof hosts --help'"
expect_code 2 jaxprof hosts --device=CPU "$S"
expect_stderr_match "^jaxprof: hosts: unrecognized option '--device=CPU'$"
expect_stderr_match '^usage: jaxprof hosts '

expect_code 2 jaxprof hosts --format=xml "$S"
expect_stderr_match "invalid --format 'xml'"
expect_code 2 jaxprof hosts --run=nope "$S"
expect_stderr_is "jaxprof: hosts: --run='nope' matches no run; runs found: '2026_02_01_00_00_00'"

test_done
