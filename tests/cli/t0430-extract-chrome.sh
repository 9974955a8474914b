#!/bin/sh
# extract --to=chrome: an XSpace converted to Chrome-trace JSON, checked by
# Python's json (syntax, nesting per thread, windows) and read back by our
# own reader (the same op table as the source); --step, --window; errors.
. "$(dirname "$0")/lib.sh"

T=$TESTDATA/jax-mlp
R0=$T/plugins/profile/2026_01_01_00_00_00
X=$R0/testhost.xplane.pb
[ -f "$X" ] || fail "no $X"
cd "$tmp"

if python_has json gzip decimal; then
	have_python=1
else
	have_python=0
	note_skip "the Python checks: no $PYTHON with json, gzip, decimal"
fi

# check_json FILE [START_US END_US]: Python parses FILE (gzip or not) and
# checks it: an object with traceEvents, no empty {} event, every event
# with ph and pid, X events with ts, dur >= 0 and a name, X events of one
# (pid, tid) nested or disjoint, never partly overlapping; with a window,
# every X event overlapping [START_US, END_US).  Prints the number of X
# events.
check_json() {
	"$PYTHON" - "$@" <<'PY'
import gzip, json, sys
from decimal import Decimal
path = sys.argv[1]
opener = gzip.open if path.endswith(".gz") else open
with opener(path, "rt", encoding="utf-8") as f:
    d = json.load(f, parse_float=Decimal)
def die(msg):
    sys.exit("%s: %s" % (path, msg))
if not isinstance(d, dict) or not isinstance(d.get("traceEvents"), list):
    die("no traceEvents array")
lanes = {}
for e in d["traceEvents"]:
    if not e:
        die("an empty {} event")
    if "ph" not in e or "pid" not in e:
        die("an event without ph or pid: %r" % e)
    if e["ph"] == "X":
        if not isinstance(e.get("name"), str) or e["dur"] < 0:
            die("a bad X event: %r" % e)
        lanes.setdefault((e["pid"], e["tid"]), []).append(
            (Decimal(e["ts"]), Decimal(e["dur"]), e["name"]))
n = 0
for key, evs in lanes.items():
    evs.sort(key=lambda x: (x[0], -x[1]))
    stack = []
    for ts, dur, name in evs:
        end = ts + dur
        while stack and stack[-1][1] <= ts:
            stack.pop()
        if stack and end > stack[-1][1]:
            die("%r at %s partly overlaps %r on %r" %
                (name, ts, stack[-1][2], key))
        stack.append((ts, end, name))
        n += 1
if len(sys.argv) > 2:
    a, b = Decimal(sys.argv[2]), Decimal(sys.argv[3])
    for evs in lanes.values():
        for ts, dur, name in evs:
            if not (ts < b and (ts + dur > a or (dur == 0 and ts >= a))):
                die("%r at %s+%s is outside [%s, %s)" % (name, ts, dur, a, b))
print(n)
PY
}

test_case 'convert run 00 to out.json.gz'
expect_code 0 jaxprof extract --to=chrome -o out.json.gz "$X"
expect_stdout_empty
expect_stderr_empty
[ "$(head -c 2 out.json.gz | od -An -tx1 | tr -d ' ')" = 1f8b ] ||
    fail "out.json.gz is not gzip"

test_case 'convert the run folder to out.json: the same JSON, not compressed'
expect_code 0 jaxprof extract --to=chrome -o out.json "$R0"
expect_stdout_empty
expect_stderr_empty
head -c 40 out.json >got
printf '{"displayTimeUnit":"ns","traceEvents":[\n' | head -c 40 >want
expect_files_equal want got "out.json does not start as write-chrome.h says"
gzip -dc out.json.gz >unzipped.json || fail "gzip -d out.json.gz failed"
expect_files_equal out.json unzipped.json "the .gz holds other JSON"

test_case '-o - writes the JSON to standard output, no file named -'
expect_code 0 jaxprof extract --to=chrome -o - "$R0"
expect_stderr_empty
expect_files_equal out.json "$out" "-o - wrote other JSON than -o out.json"
[ ! -e ./- ] || fail "a file named '-' was written"

if [ $have_python = 1 ]; then
	test_case 'Python parses both; X events nested per thread'
	n=$(check_json out.json.gz) || fail "out.json.gz fails the check"
	n2=$(check_json out.json) || fail "out.json fails the check"
	[ "$n" -gt 1000 ] || fail "only $n X events"
	[ "$n" = "$n2" ] || fail "$n X events in out.json.gz, $n2 in out.json"
	all=$n

	test_case 'the nesting check sees a partial overlap'
	printf '%s\n' '{"traceEvents":[' \
	    '{"ph":"X","pid":1,"tid":1,"ts":1.000000,"dur":5.000000,"name":"a"},' \
	    '{"ph":"X","pid":1,"tid":1,"ts":2.000000,"dur":5.000000,"name":"b"}]}' \
	    >overlap.json
	if check_json overlap.json >/dev/null 2>&1; then
		fail "a partial overlap passed the check"
	fi

	test_case 'every X event keeps its name and times (µs, 6 decimals)'
	"$PYTHON" - out.json <<'PY' || fail "bad ts or dur"
import json, re, sys
for line in open(sys.argv[1], encoding="utf-8"):
    if '"ph":"X"' in line:
        m = re.search(r'"ts":(-?[0-9]+\.[0-9]{6}),"dur":([0-9]+\.[0-9]{6}),', line)
        if not m:
            sys.exit("no ts, dur with 6 decimals: " + line)
PY
else
	all=0
fi

# The JSON, read back by jaxprof as a trace JSON file.
mkdir back
cp out.json.gz back/x.trace.json.gz

test_case 'top of the source XSpace'
expect_code 0 jaxprof top -n 0 --format=csv "$X"
expect_stderr_empty
save top-src

test_case 'round trip: top of the JSON is top of the XSpace'
expect_code 0 jaxprof top -n 0 --format=csv back
expect_stderr_empty
save top-back
expect_same_ops "$tmp/top-src" "$tmp/top-back"

# Categories may differ: the XSpace's come from its HLO, which trace JSON
# does not carry.
test_case 'round trip: the same modules and counts'
cut -d, -f2,3,5 "$tmp/top-src" | sort >want
cut -d, -f2,3,5 "$tmp/top-back" | sort >got
expect_files_equal want got

test_case 'round trip: as many events as the source'
expect_code 0 jaxprof sql --format=csv \
    "SELECT sum(events) AS events FROM files WHERE id IN (SELECT file_id FROM selected)" "$X"
save events-src
expect_code 0 jaxprof sql --format=csv \
    "SELECT sum(events) AS events FROM files WHERE id IN (SELECT file_id FROM selected)" back
expect_stdout_file "$tmp/events-src"
[ "$all" = 0 ] || [ "$(tail -n 1 "$out")" -eq "$all" ] ||
    fail "sql counts $(tail -n 1 "$out") events, Python $all"

test_case 'round trip: the same steps'
expect_code 0 jaxprof steps --format=csv "$X"
expect_stderr_empty
save steps-src
cut -d, -f4- "$out" >want
expect_code 0 jaxprof steps --format=csv back
expect_stderr_empty
cut -d, -f4- "$out" >got
expect_files_equal want got

# Step 2 starts, step 3 ends: the window --step=2-3 covers.
w=$(awk -F, '$4 == 2 { a = $6 } $4 == 3 { b = $6 + $7 }
    END { if (a != "" && b != "") printf "%.3f %.3f\n", a, b }' \
    "$tmp/steps-src")
[ -n "$w" ] || fail "no steps 2 and 3 in the source"
set -- $w
s2=$1
e3=$2

test_case '--step=2-3'
expect_code 0 jaxprof extract --to=chrome --step=2-3 -o step.json.gz "$X"
expect_stdout_empty
expect_stderr_empty
if [ $have_python = 1 ]; then
	n=$(check_json step.json.gz "$s2" "$e3") ||
	    fail "--step=2-3 wrote events outside [$s2, $e3)"
	[ "$n" -gt 0 ] && [ "$n" -lt "$all" ] ||
	    fail "--step=2-3 kept $n of $all events"
	nstep=$n
fi

test_case 'the window check sees an event outside'
if [ $have_python = 1 ]; then
	if check_json out.json.gz "$s2" "$e3" >/dev/null 2>&1; then
		fail "the whole profile passed the window check"
	fi
fi

test_case '--step=2-3 read back: ops of steps 2 and 3 only'
mkdir back-step
cp step.json.gz back-step/x.trace.json.gz
expect_code 0 jaxprof top -n 0 --format=csv back-step
expect_stderr_empty
save top-step
n_src=$(awk -F, 'NR > 1 { n += $5 } END { print n + 0 }' "$tmp/top-src")
n_step=$(awk -F, 'NR > 1 { n += $5 } END { print n + 0 }' "$tmp/top-step")
[ "$n_step" -gt 0 ] && [ "$n_step" -lt "$n_src" ] ||
    fail "--step=2-3 has $n_step op events, the source $n_src"

test_case '--step=2: a subset of --step=2-3'
expect_code 0 jaxprof extract --to=chrome --step=2 -o step2.json "$X"
expect_stderr_empty
if [ $have_python = 1 ]; then
	n=$(check_json step2.json "$s2" "$e3") || fail "events outside"
	[ "$n" -gt 0 ] && [ "$n" -lt "$nstep" ] ||
	    fail "--step=2 kept $n events, --step=2-3 $nstep"
fi

test_case '--window=A:B, the window of steps 2 and 3'
expect_code 0 jaxprof extract --to=chrome --window="$s2:$e3" -o win.json "$X"
expect_stdout_empty
expect_stderr_empty
if [ $have_python = 1 ]; then
	n=$(check_json win.json "$s2" "$e3") ||
	    fail "--window wrote events outside [$s2, $e3)"
	[ "$n" -gt 0 ] && [ "$n" -lt "$all" ] ||
	    fail "--window kept $n of $all events"
fi

test_case '--window around one op keeps the op, whole, and its parents'
# The longest dot.2, from the source XSpace's index.
expect_code 0 jaxprof sql --format=csv "SELECT max_ps FROM ops WHERE name = 'dot.2' AND file_id IN (SELECT file_id FROM selected)" "$X"
expect_stderr_empty
expect_stdout_match '^[0-9]+$'
if [ $have_python = 1 ]; then
	"$PYTHON" - out.json <<'PY' >dot2 || fail "no dot.2 in out.json"
import json, sys
from decimal import Decimal
d = json.load(open(sys.argv[1]), parse_float=Decimal)
e = max((e for e in d["traceEvents"] if e.get("name") == "dot.2"),
        key=lambda e: e["dur"])
mid = e["ts"] + e["dur"] / 2
print(mid, mid + Decimal("0.5"), e["ts"], e["dur"])
PY
	read -r mid mid2 ts dur <dot2
	expect_code 0 jaxprof extract --to=chrome --window="$mid:$mid2" -o one.json "$X"
	expect_stderr_empty
	grep -q "\"ts\":$ts,\"dur\":$dur,\"name\":\"dot.2\"" one.json ||
	    fail "the dot.2 at $ts is not in the window, or clipped"
	n=$(check_json one.json "$mid" "$mid2") || fail "events outside"
	[ "$n" -ge 2 ] && [ "$n" -lt 20 ] || fail "$n events around one op"
fi

test_case 'an existing output without --force: exit 2, kept'
echo keep >exists.json
expect_code 2 jaxprof extract --to=chrome -o exists.json "$X"
expect_stdout_empty
expect_stderr_is "jaxprof: extract: 'exists.json' exists; --force overwrites it"
[ "$(cat exists.json)" = keep ] || fail "exists.json was changed"

test_case '--force overwrites it'
expect_code 0 jaxprof extract --to=chrome --force -o exists.json "$X"
expect_stderr_empty
expect_files_equal out.json exists.json

test_case 'a PATH with two XSpace files: exit 2'
expect_code 2 jaxprof extract --to=chrome -o two.json "$T"
expect_stdout_empty
expect_stderr_is "jaxprof: extract: '$T' holds 2 XSpace files; --to=chrome converts one: name it, or choose with --run or --latest"
[ ! -e two.json ] || fail "wrote two.json"

test_case '... --latest chooses one'
expect_code 0 jaxprof extract --to=chrome --latest -o latest.json "$T"
expect_stderr_empty
expect_code 0 jaxprof extract --to=chrome -o one1.json \
    "$T/plugins/profile/2026_01_01_00_00_01/testhost.xplane.pb"
expect_files_equal one1.json latest.json

test_case 'a PATH with no XSpace: exit 2'
mkdir jsononly
cp "$R0/perfetto_trace.json.gz" jsononly/
expect_code 2 jaxprof extract --to=chrome -o none.json jsononly
expect_stdout_empty
expect_stderr_line '^jaxprof: extract: '
[ ! -e none.json ] || fail "wrote none.json"

test_case '--step without --to: exit 2'
expect_code 2 jaxprof extract --step=2 -o s.json "$X"
expect_stdout_empty
expect_stderr_is "jaxprof: extract: --step and --window go with --to=chrome"

test_case '--window without --to: exit 2'
expect_code 2 jaxprof extract --window=1:2 -o s.json "$X"
expect_stdout_empty
expect_stderr_is "jaxprof: extract: --step and --window go with --to=chrome"

test_case '--to=bogus: exit 2'
expect_code 2 jaxprof extract --to=bogus -o s.json "$X"
expect_stdout_empty
expect_stderr_is "jaxprof: extract: invalid --to 'bogus' (the one choice is chrome)"

test_case '--window=5:3: exit 2'
expect_code 2 jaxprof extract --to=chrome --window=5:3 -o s.json "$X"
expect_stdout_empty
expect_stderr_is "jaxprof: extract: invalid --window '5:3' (expected START_US:END_US, START below END)"

for s in 3-2 x 2- -1; do
	test_case "--step=$s: exit 2"
	expect_code 2 jaxprof extract --to=chrome --step="$s" -o s.json "$X"
	expect_stdout_empty
	expect_stderr_is "jaxprof: extract: invalid --step '$s' (expected N or N-M)"
done

test_case '--step=99, a step the profile lacks: exit 2, the steps it has said'
expect_code 2 jaxprof extract --to=chrome --step=99 -o s.json "$X"
expect_stdout_empty
expect_stderr_is "jaxprof: extract: $X: no step 99 in the profile; its steps are 0 to 5"
expect_code 2 jaxprof extract --to=chrome --step=20-30 -o s.json "$X"
expect_stderr_is "jaxprof: extract: $X: no step 20 to 30 in the profile; its steps are 0 to 5"

test_case 'the steps said are those there are'
for s in 0 5; do
	expect_code 0 jaxprof extract --to=chrome --step=$s -o s$s.json "$X"
done
expect_code 2 jaxprof extract --to=chrome --step=6 -o s6.json "$X"

test_case '--to=chrome without -o: exit 2'
expect_code 2 jaxprof extract --to=chrome "$X"
expect_stdout_empty
expect_stderr_is "jaxprof: extract: --to=chrome needs -o FILE"

test_case '--step and --window together: exit 2'
expect_code 2 jaxprof extract --to=chrome --step=2 --window=1:5 -o s.json "$X"
expect_stdout_empty
expect_stderr_is "jaxprof: extract: --step and --window cannot be combined"
[ ! -e s.json ] || fail "a usage error wrote s.json"

TPU=$CORPUS/xprof/xprof/convert/test_xplanes/tpu_inference_2.xplane.pb
if [ -f "$TPU" ]; then
	test_case 'the TPU corpus file converts'
	expect_code 0 jaxprof extract --to=chrome -o tpu.json.gz "$TPU"
	expect_stdout_empty
	expect_stderr_empty
	if [ $have_python = 1 ]; then
		n=$(check_json tpu.json.gz) || fail "tpu.json.gz fails the check"
		[ "$n" -gt 19270 ] || fail "only $n X events"
	fi

	test_case 'the TPU corpus file: the same op names, counts and times back'
	expect_code 0 jaxprof top -n 0 --format=csv "$TPU"
	save top-tpu
	mkdir back-tpu
	cp tpu.json.gz back-tpu/x.trace.json.gz
	expect_code 0 jaxprof top -n 0 --format=csv back-tpu
	expect_stderr_empty
	expect_same_ops "$tmp/top-tpu" "$out"
else
	note_skip "the TPU corpus file: no $TPU"
fi

# Messages (issue 37.6): a full standard output is said once; a damaged
# input gives standard output nothing, not a short, valid-looking trace.
test_case 'extract -o - onto a full standard output: one line, exit 2'
expect_code 2 sh -c '"$JAXPROF" extract --to=chrome -o - "$1" >/dev/full' sh "$X"
[ "$(wc -l <"$err")" -eq 1 ] || fail "more than one line of stderr"
expect_stderr_line "^jaxprof: extract: cannot convert '.*testhost\.xplane\.pb' to '-': cannot write 'standard output': No space left on device$"

test_case 'a report onto a full standard output: one line, exit 2'
expect_code 2 sh -c '"$JAXPROF" top "$1" >/dev/full' sh "$T"
[ "$(wc -l <"$err")" -eq 1 ] || fail "more than one line of stderr"
expect_stderr_line "^jaxprof: top: cannot write standard output: No space left on device$"

test_case 'extract -o - of a damaged XSpace: nothing on standard output'
head -c 3000 "$X" >cut.xplane.pb
expect_code 2 jaxprof extract --to=chrome -o - cut.xplane.pb
expect_stdout_empty
expect_stderr_line "^jaxprof: extract: cannot convert '.*cut\.xplane\.pb' to '-': at byte 1: length [0-9]+ in XSpace runs past the end"

test_done
