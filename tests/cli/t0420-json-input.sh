#!/bin/sh
# Trace JSON input: the same run read as .xplane.pb and as the trace JSON
# beside it gives the same op table; a folder's JSON is not counted again
# when it has an XSpace, and perfetto_trace.json.gz not when another trace
# JSON is there; bad JSON is exit 2 with the byte offset; the quirks real
# files have (trailing {}, B/E pairs, numbers as strings, instants).
. "$(dirname "$0")/lib.sh"

T=$TESTDATA/jax-mlp
R0=$T/plugins/profile/2026_01_01_00_00_00
R1=$T/plugins/profile/2026_01_01_00_00_01
[ -f "$R0/testhost.xplane.pb" ] || fail "no $R0/testhost.xplane.pb"
cd "$tmp"

# The rows of the files a query's PATH selected.
SEL='file_id IN (SELECT file_id FROM selected)'

mkdir xp pf both
cp "$R0/testhost.xplane.pb" xp/
cp "$R0/perfetto_trace.json.gz" pf/
cp "$R0/testhost.trace.json.gz" "$R0/perfetto_trace.json.gz" both/

test_case 'top of run 00 read as .xplane.pb'
expect_code 0 jaxprof top -n 0 --format=csv xp
expect_stderr_empty
save top-xp
[ "$(wc -l <"$out")" -gt 10 ] || fail "expected more than 9 ops"

test_case 'top of run 00 read as perfetto_trace.json.gz: the same ops'
expect_code 0 jaxprof top -n 0 --format=csv pf
expect_stderr_empty
save top-pf
expect_same_ops "$tmp/top-xp" "$tmp/top-pf"

test_case 'the comparison sees a changed count and a changed time'
# So that the cases above can fail: one count off by one, one total off
# by more than the rounding allows.
awk -F, 'BEGIN { OFS = "," } NR == 2 { $5 = $5 + 1 } { print }' \
    "$tmp/top-pf" >bad-count
if (expect_same_ops "$tmp/top-xp" bad-count) >/dev/null 2>&1; then
	fail "a wrong count was not noticed"
fi
awk -F, 'BEGIN { OFS = "," } NR == 3 { $6 = $6 + 0.003 * $5 + 0.01 } { print }' \
    "$tmp/top-pf" >bad-total
if (expect_same_ops "$tmp/top-xp" bad-total) >/dev/null 2>&1; then
	fail "a wrong total was not noticed"
fi

test_case 'a folder with <host>.trace.json.gz and perfetto_trace.json.gz counts once'
expect_code 0 jaxprof top -n 0 --format=csv both
expect_stderr_empty
expect_stdout_file "$tmp/top-pf"
expect_same_ops "$tmp/top-xp" "$out"

test_case '... and reads the host file, not perfetto_trace.json.gz'
expect_code 0 jaxprof sql --format=csv \
    "SELECT f.path FROM files f WHERE f.id IN (SELECT file_id FROM selected) AND f.events > 0" both
expect_stderr_empty
[ "$(grep -c . "$out")" -eq 2 ] || fail "expected one file with events"
expect_stdout_match '/both/testhost\.trace\.json\.gz$'

test_case 'list of the testdata shows the JSON files'
expect_code 0 jaxprof list --format=csv "$T"
expect_stderr_empty
[ "$(grep -c ',trace-json,' "$out")" -eq 4 ] ||
    fail "expected 4 trace-json rows"
[ "$(grep -c ',xplane,' "$out")" -eq 2 ] || fail "expected 2 xplane rows"
expect_stdout_match '^2026_01_01_00_00_00,,perfetto_trace\.json\.gz,trace-json,'
expect_stdout_match '^2026_01_01_00_00_01,testhost,testhost\.trace\.json\.gz,trace-json,'

test_case 'top of the testdata counts each op once: as its XSpace files alone'
mkdir -p xponly/plugins/profile/2026_01_01_00_00_00 \
    xponly/plugins/profile/2026_01_01_00_00_01
cp "$R0/testhost.xplane.pb" xponly/plugins/profile/2026_01_01_00_00_00/
cp "$R1/testhost.xplane.pb" xponly/plugins/profile/2026_01_01_00_00_01/
expect_code 0 jaxprof top -n 0 --format=csv xponly
expect_stderr_empty
save top-xponly
expect_code 0 jaxprof top -n 0 --format=csv "$T"
expect_stderr_empty
expect_stdout_file "$tmp/top-xponly"

test_case 'sql over the testdata: 189 op events, not more'
expect_code 0 jaxprof sql --format=csv "SELECT sum(count) AS n FROM ops WHERE $SEL" "$T"
expect_stderr_empty
printf 'n\n189\n' >want
expect_stdout_file want

if [ -d "$CORPUS/ampere" ]; then
	A=$(find "$CORPUS/ampere" -name 690019ccf0dc.xplane.pb | head -n 1)
	[ -n "$A" ] || fail "no 690019ccf0dc.xplane.pb under $CORPUS/ampere"
	mkdir axp ajs
	cp "$A" axp/
	cp "${A%.xplane.pb}.trace.json.gz" ajs/

	test_case 'ampere TF CPU run: top of the .xplane.pb'
	expect_code 0 jaxprof top -n 0 --format=csv axp
	expect_stderr_empty
	save top-axp

	test_case 'ampere TF CPU run: top of the .trace.json.gz is the same'
	expect_code 0 jaxprof top -n 0 --format=csv ajs
	expect_stderr_empty
	expect_same_ops "$tmp/top-axp" "$out"

	test_case 'ampere: both files hold 3117 events'
	for d in axp ajs; do
		expect_code 0 jaxprof sql --format=csv \
		    "SELECT events FROM files WHERE id IN (SELECT file_id FROM selected)" $d
		printf 'events\n3117\n' >want
		expect_stdout_file want
	done
else
	note_skip "the ampere TF CPU run: no $CORPUS/ampere"
fi

# Bad files: exit 2, one line naming the file and where it went wrong.
mkdir bad
gzip -dc "$R0/perfetto_trace.json.gz" | head -c 5000 >bad/cut.trace.json
printf 'garbage, not JSON\n' >bad/garbage.trace.json
head -c 3000 "$R0/perfetto_trace.json.gz" >bad/cut.trace.json.gz
# A gzip header, then a deflate stream that is not one.
printf '\037\213\010\000\000\000\000\000\000\003garbage in the deflate stream' \
    >bad/corrupt.trace.json.gz
printf '{"traceEvents":[{"ph":"X","pid":1,"tid":1,"ts":1,"dur":2,"name":"a"},]}' \
    >bad/comma.trace.json

for f in cut.trace.json garbage.trace.json comma.trace.json; do
	test_case "bad JSON: $f"
	mkdir "one-$f"
	cp "bad/$f" "one-$f/"
	expect_code 2 jaxprof top "one-$f"
	expect_stdout_empty
	expect_stderr_line "^jaxprof: top: cannot read '.*/one-$f/$f': at (uncompressed )?byte [0-9]+: .*(error|EOF)"
done

test_case 'bad JSON: the offset of a cut file is where it ends'
expect_code 2 jaxprof top bad/cut.trace.json
expect_stderr_line "^jaxprof: top: cannot read '.*/bad/cut\.trace\.json': at byte 5000: parse error: premature EOF$"

test_case 'bad JSON: garbage at byte 1'
expect_code 2 jaxprof top bad/garbage.trace.json
expect_stderr_line "^jaxprof: top: cannot read '.*/bad/garbage\.trace\.json': at byte 1: lexical error"

test_case 'bad gzip: a cut file'
expect_code 2 jaxprof top bad/cut.trace.json.gz
expect_stdout_empty
expect_stderr_line "^jaxprof: top: cannot read '.*/bad/cut\.trace\.json\.gz': truncated gzip data at byte 3000$"

test_case 'bad gzip: a corrupt deflate stream'
expect_code 2 jaxprof top bad/corrupt.trace.json.gz
expect_stdout_empty
expect_stderr_line "^jaxprof: top: cannot read '.*/bad/corrupt\.trace\.json\.gz': corrupt gzip data at byte [1-9][0-9]*: "

test_case 'bad JSON: other commands say the same'
expect_code 2 jaxprof list bad/garbage.trace.json
expect_stdout_empty
expect_stderr_line "^jaxprof: list: cannot read '.*/bad/garbage\.trace\.json': at byte 1: "

test_case 'bad gzip JSON in an archive: the entry as archive/entry, the offset uncompressed'
mkdir -p arc/warm/plugins/profile/r1
printf '{"traceEvents":[{"ph":"X",' | gzip >arc/warm/plugins/profile/r1/h.trace.json.gz
tar -czf warm.tar.gz -C arc warm
expect_code 2 jaxprof list warm.tar.gz
expect_stderr_line "^jaxprof: list: cannot read '.*/warm\.tar\.gz/warm/plugins/profile/r1/h\.trace\.json\.gz': at uncompressed byte 26: parse error: premature EOF$"
! grep -q '//' "$err" || fail "a path with '//' in a message"

# Quirks, by hand: a trailing {}, ts/dur/pid/tid as strings, a fractional
# µs, a B/E pair, an instant, a counter (skipped), a B never closed
# (skipped), events of one name on two threads.
mkdir quirks
cat >quirks/h.trace.json <<'EOF'
{"displayTimeUnit":"ns","traceEvents":[
{"ph":"M","pid":7,"name":"process_name","args":{"name":"/host:CPU"}},
{"ph":"M","pid":7,"tid":2,"name":"thread_name","args":{"name":"tf_XLAPjRtCpuClient/1"}},
{"ph":"M","pid":7,"tid":1,"name":"thread_name","args":{"name":"python"}},
{"ph":"X","pid":7,"tid":2,"ts":100,"dur":10.5,"name":"dot.1","args":{"hlo_op":"dot.1","hlo_module":"jit_f"}},
{"ph":"X","pid":"7","tid":"2","ts":"200.25","dur":"20","name":"dot.1","args":{"hlo_op":"dot.1","hlo_module":"jit_f"}},
{"ph":"B","pid":7,"tid":2,"ts":300,"name":"add.2","args":{"hlo_op":"add.2","hlo_module":"jit_f"}},
{"ph":"E","pid":7,"tid":2,"ts":304.001},
{"ph":"i","pid":7,"tid":1,"ts":50,"name":"marker","s":"t"},
{"ph":"C","pid":7,"tid":1,"ts":60,"name":"counter","args":{"v":1}},
{"ph":"B","pid":7,"tid":1,"ts":70,"name":"never_closed"},
{"ph":"X","pid":7,"tid":1,"ts":40,"dur":300,"name":"outer"},
{}
]}
EOF

test_case 'quirks: top sees the X events, strings as numbers, the B/E pair'
expect_code 0 jaxprof top -n 0 --format=csv quirks
expect_stderr_empty
cut -d, -f2-7,9,10 "$out" >got
cat >want <<'EOF'
name,module,category,count,total_us,self_us,min_us,max_us
dot.1,jit_f,dot,2,30.500,30.500,10.500,20.000
add.2,jit_f,add,1,4.001,4.001,4.001,4.001
EOF
expect_files_equal want got

test_case 'quirks: sql sees the ops to the picosecond'
expect_code 0 jaxprof sql --format=csv \
    "SELECT name, count, total_ps, min_ps, max_ps FROM ops WHERE $SEL ORDER BY name" quirks
expect_stderr_empty
cat >want <<'EOF'
name,count,total_ps,min_ps,max_ps
add.2,1,4001000,4001000,4001000
dot.1,2,30500000,10500000,20000000
EOF
expect_stdout_file want

test_case 'quirks: 5 events on 2 lines (instant in, counter and open B out, no {})'
expect_code 0 jaxprof sql --format=csv \
    "SELECT planes, lines, events, start_ps, end_ps FROM files WHERE id IN (SELECT file_id FROM selected)" quirks
expect_stderr_empty
printf 'planes,lines,events,start_ps,end_ps\n1,2,5,40000000,340000000\n' >want
expect_stdout_file want

test_case 'quirks: the plane is named by process_name'
expect_code 0 jaxprof sql --format=csv \
    "SELECT name, kind, lines, events FROM planes WHERE $SEL" quirks
expect_stderr_empty
printf 'name,kind,lines,events\n/host:CPU,host,2,5\n' >want
expect_stdout_file want

test_case 'quirks: the python thread holds the host event'
expect_code 0 jaxprof sql --format=csv \
    "SELECT line, name, depth, start_ps, dur_ps FROM host_events WHERE $SEL ORDER BY start_ps" quirks
expect_stderr_empty
printf 'line,name,depth,start_ps,dur_ps\npython,outer,0,40000000,300000000\n' >want
expect_stdout_file want

# Planes are classified apart, on threads: a device plane whose steps are
# the host's, named only by a plane read after it (or beside it), and an
# error one plane's events hold, found when the file is first read.
mkdir twoplanes
cat >twoplanes/h.trace.json <<'EOF'
{"traceEvents":[
{"ph":"M","pid":1,"name":"process_name","args":{"name":"/device:GPU:0"}},
{"ph":"M","pid":1,"tid":1,"name":"thread_name","args":{"name":"XLA Ops"}},
{"ph":"M","pid":2,"name":"process_name","args":{"name":"/host:CPU"}},
{"ph":"X","pid":1,"tid":1,"ts":10,"dur":20,"name":"dot.1","args":{"hlo_op":"dot.1","hlo_module":"jit_f"}},
{"ph":"X","pid":1,"tid":1,"ts":40,"dur":30,"name":"add.2","args":{"hlo_op":"add.2","hlo_module":"jit_f"}},
{"ph":"X","pid":1,"tid":1,"ts":110,"dur":10,"name":"dot.1","args":{"hlo_op":"dot.1","hlo_module":"jit_f"}},
{"ph":"X","pid":2,"tid":5,"ts":0,"dur":100,"name":"train","args":{"step_num":"1","_r":"1"}},
{"ph":"X","pid":2,"tid":5,"ts":100,"dur":100,"name":"train","args":{"step_num":"2","_r":"1"}}
]}
EOF

test_case 'two planes: the device is measured in the host steps that follow it'
expect_code 0 jaxprof steps --format=csv twoplanes
expect_stderr_empty
cut -d, -f3- "$out" >got
cat >want <<'EOF'
device,step,name,start_us,duration_us,compute_us,collective_us,transfer_us,idle_us,outlier
/device:GPU:0,1,train,0.000,100.000,50.000,0.000,0.000,50.000,0
/device:GPU:0,2,train,100.000,100.000,10.000,0.000,0.000,90.000,0
EOF
expect_files_equal want got

mkdir lateerror
printf '%s' '[{"ph":"B","pid":1,"tid":1,"ts":10,"name":"a"},{"ph":"E","pid":1,"tid":1,"ts":5},{"ph":"X","pid":2,"tid":1,"ts":1,"dur":1,"name":"b"}]' \
    >lateerror/h.trace.json

test_case 'an error in the first plane of two: exit 2, where it is'
expect_code 2 jaxprof top lateerror
expect_stdout_empty
expect_stderr_line "^jaxprof: top: cannot read '.*/lateerror/h\.trace\.json': at byte 80: pid 1 tid 1: impossible 'E' at ts 5000000 ps, before its 'B' at 10000000 ps \(a negative duration\)$"

mkdir escapes
printf '%s' '{"traceEvents":[{"ph":"M","name":"process_name","pid":1,"args":{"name":"/device:GPU:0"}},{"ph":"M","name":"thread_name","pid":1,"tid":1,"args":{"name":"XLA Ops"}},{"ph":"X","pid":1,"tid":1,"ts":0,"dur":1,"name":"a\u0000b"},{"ph":"X","pid":1,"tid":1,"ts":2,"dur":2,"name":"\ud800\u0041"},{"ph":"X","pid":1,"tid":1,"ts":5,"dur":3,"name":"\udc00\ud83d\ude00"}]}' \
    >escapes/h.trace.json

# By the JSON rules (issue 37.7): bad surrogates are U+FFFD, the text after
# them and after a NUL is kept; names cannot hold a NUL: U+FFFD too.
test_case 'string escapes: surrogates and NUL decoded by the JSON rules'
expect_code 0 jaxprof top --format=csv escapes
expect_stderr_empty
cut -d, -f2,5 "$out" >got
printf 'name,count\n\357\277\275\360\237\230\200,1\n\357\277\275A,1\na\357\277\275b,1\n' >want
expect_files_equal want got

# Last, as it states what the reports should do on JSON rather than what
# they all do yet: steps of run 00 from either file.
test_case 'steps of run 00 read as .xplane.pb'
expect_code 0 jaxprof steps --format=csv xp
expect_stderr_empty
cut -d, -f4,5 "$out" >steps-xp
[ "$(wc -l <steps-xp)" -gt 2 ] || fail "expected steps"

test_case 'steps of run 00 read as perfetto_trace.json.gz: the same steps'
expect_code 0 jaxprof steps --format=csv pf
cut -d, -f4,5 "$out" >steps-pf
expect_files_equal "$tmp/steps-xp" steps-pf \
    "step numbers or names from the JSON differ from the XSpace's"

test_done
