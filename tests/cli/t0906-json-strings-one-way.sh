#!/bin/sh
# JSON strings are escaped one way (issue 45.5): a name holding controls
# (C0, DEL, C1), quotes, backslashes and non-ASCII letters is spelled the
# same, byte for byte, in --format=json and in a baseline file, which once
# had writers of their own (yajl wrote "\u001B" where reports wrote
# "\u001b", DEL and C1 raw).
. "$(dirname "$0")/lib.sh"

python_has json || skip "no $PYTHON"
cd "$tmp"

mkdir -p prof
"$PYTHON" - prof/names.trace.json <<'PY' || fail "cannot write the trace"
import json, sys
NAMES = ["esc\x1b[2Jclear", "cr\rlf\nnl", "tab\tbs\bff\fnul\x01",
         "del\x7f", "csi\u009b31m", "quote\"back\\slash",
         "caf\u00e9 \u65e5\u672c"]
ev = [{"ph": "M", "pid": 1, "name": "process_name",
       "args": {"name": "/device:GPU:0"}},
      {"ph": "M", "pid": 1, "tid": 1, "name": "thread_name",
       "args": {"name": "XLA Ops"}}]
t = 0
for i, n in enumerate(NAMES):
    ev.append({"ph": "X", "pid": 1, "tid": 1, "name": n, "ts": t,
               "dur": 10 + i})
    t += 100
json.dump({"traceEvents": ev}, open(sys.argv[1], "w"))
PY

test_case 'top --format=json'
expect_code 0 jaxprof top --format=json --db="$tmp/db" prof
cp "$out" top.json

test_case 'baseline save'
expect_code 0 jaxprof baseline save -o base.json --db="$tmp/db" prof

test_case 'each name is spelled the same in both, and reads back'
"$PYTHON" - top.json base.json <<'PY' || fail "the writers differ (above)"
import json, re, sys
NAMES = {"esc\x1b[2Jclear", "cr\rlf\nnl", "tab\tbs\bff\fnul\x01",
         "del\x7f", "csi\u009b31m", "quote\"back\\slash",
         "caf\u00e9 \u65e5\u672c"}
# The "name" strings as written, escapes and all.
token = re.compile(rb'"name": ("(?:[^"\\]|\\.)*")')
def names(path):
    return {t for t in token.findall(open(path, "rb").read())
            if json.loads(t) in NAMES}
top, base = names(sys.argv[1]), names(sys.argv[2])
ok = True
if {json.loads(t) for t in top} != NAMES:
    print("top lacks", NAMES - {json.loads(t) for t in top}); ok = False
if top != base:
    print("top only:", sorted(top - base)); print("baseline only:",
          sorted(base - top)); ok = False
# The one way: controls as \n, \t or \u00xx (lower case), UTF-8 as is.
for want in [rb'"esc\u001b[2Jclear"', rb'"cr\u000dlf\nnl"',
             rb'"tab\tbs\u0008ff\u000cnul\u0001"', rb'"del\u007f"',
             rb'"csi\u009b31m"', rb'"quote\"back\\slash"',
             '"caf\u00e9 \u65e5\u672c"'.encode()]:
    if want not in base:
        print("baseline lacks", want); ok = False
sys.exit(0 if ok else 1)
PY

test_done
