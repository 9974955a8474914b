#!/bin/sh
# Memory without silent loss: an allocator refused for a damaged event,
# or a program whose buffer assignment is unreadable, is said on stderr
# (the file and what) and in the report, and the exit status is 2; no
# report answers as if the profile had no such memory.
. "$(dirname "$0")/lib.sh"

[ -n "${GEN_XPLANE:-}" ] && [ -x "$GEN_XPLANE" ] ||
    fail "GEN_XPLANE is not set to the generator"
gen_xplane --memory=damaged "$tmp/bad" || fail "gen-xplane failed"
F=$(find "$tmp/bad" -name '*.xplane.pb')
LOST="damaged memory event in '$F': bytes_allocated is not a byte count"
ALLOC="allocator 'GPU_0_bfc'"

test_case 'summary of a damaged memory event: stderr, table and markdown'
for fmt in table markdown; do
	expect_code 0 jaxprof summary --format=$fmt "$tmp/bad"
	expect_stderr_line "^jaxprof: summary: $LOST; $ALLOC left out of the summary$"
	expect_stdout_match "^Incomplete: $LOST; $ALLOC left out\\.$"
done

test_case 'summary --format=json lists what memory lacks'
expect_code 0 jaxprof summary --format=json "$tmp/bad"
expect_stderr_line "^jaxprof: summary: $LOST"
"$PYTHON" - "$out" "$F" <<'PY' || fail "memory_incomplete is not right"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["memory"] == [], d["memory"]
assert d["memory_incomplete"] == [{"file": sys.argv[2],
    "allocator": "GPU_0_bfc",
    "damage": "bytes_allocated is not a byte count"}], d["memory_incomplete"]
PY

test_case 'summary --format=html says so on the page'
expect_code 0 jaxprof summary --format=html -o "$tmp/page.html" "$tmp/bad"
expect_stderr_line "^jaxprof: summary: $LOST"
grep -q '<p class="incomplete"><strong>Incomplete:</strong> damaged memory event in' \
    "$tmp/page.html" || fail "the page does not say memory is incomplete"

test_case 'baseline save and diff of a damaged memory event'
expect_code 2 jaxprof baseline save -o "$tmp/b.json" "$tmp/bad"
expect_stderr_line "^jaxprof: baseline: $LOST; $ALLOC left out of the memory peaks$"
expect_code 2 jaxprof diff "$tmp/bad" "$tmp/bad"
expect_stderr_match "$LOST; $ALLOC left out of the memory peaks$"

test_case 'an intact profile: memory_incomplete empty, exit 0'
gen_xplane --memory=ok "$tmp/ok" || fail "gen-xplane failed"
expect_code 0 jaxprof summary --format=json "$tmp/ok"
expect_stderr_empty
"$PYTHON" -c 'import json, sys
d = json.load(open(sys.argv[1]))
assert d["memory_incomplete"] == [] and len(d["memory"]) == 1' "$out" ||
    fail "an intact profile's memory is not whole"

# A buffer assignment made unreadable in the H200 profile: the largest
# program's (5.41 GiB), every byte of it an invalid key, its length kept.
H200=$CORPUS/h200/cmdbuf-warm
[ -d "$H200" ] || skip "no H200 corpus under $CORPUS"
mkdir "$tmp/h200"
cp -R "$H200"/. "$tmp/h200/"
chmod -R u+w "$tmp/h200"
V=$(find "$tmp/h200" -name '*.xplane.pb')
"$PYTHON" - "$V" <<'PY' >"$tmp/damaged-program" || fail "cannot damage '$V'"
import sys

def varint(b, i):
    v = s = 0
    while True:
        c = b[i]
        i += 1
        v |= (c & 0x7f) << s
        s += 7
        if c < 0x80:
            return v, i

def fields(b, start, end):
    """Each field's number, wire type, and where its value lies."""
    i = start
    while i < end:
        key, i = varint(b, i)
        f, wt = key >> 3, key & 7
        if wt == 0:
            j = varint(b, i)[1]
        elif wt == 1:
            j = i + 8
        elif wt == 5:
            j = i + 4
        elif wt == 2:
            n, i = varint(b, i)
            j = i + n
        else:
            raise ValueError("wire type %d" % wt)
        yield f, wt, i, j
        i = j

data = bytearray(open(sys.argv[1], "rb").read())
protos = []
# XSpace.planes: /host:metadata's event metadata, each stat's bytes an
# xla.HloProto whose field 3 is its buffer assignment.
for f, _, ps, pe in fields(data, 0, len(data)):
    if f != 1:
        continue
    plane = list(fields(data, ps, pe))
    if not any(g == 2 and data[s:e] == b"/host:metadata"
               for g, _, s, e in plane):
        continue
    for g, _, s, e in plane:
        if g != 4:
            continue
        for h, _, ms, me in fields(data, s, e):
            if h != 2:
                continue
            meta = list(fields(data, ms, me))
            name = [bytes(data[a:b]) for k, _, a, b in meta if k == 2]
            for k, _, ks, ke in meta:
                if k != 5:
                    continue
                for x, _, xs, xe in fields(data, ks, ke):
                    if x != 6:
                        continue
                    for y, yw, ys, ye in fields(data, xs, xe):
                        if y == 3 and yw == 2:
                            protos.append((xe - xs, name[0], ys, ye))
protos.sort(reverse=True)
_, name, s, e = protos[0]
data[s:e] = b"\x07" * (e - s)
open(sys.argv[1], "wb").write(data)
print(name.decode())
PY
NAME=$(sed 's/(.*//' "$tmp/damaged-program")
[ "$NAME" = jit_train_step ] || fail "damaged '$NAME', not jit_train_step"
PLOST="unreadable buffer assignment of program 'jit_train_step' in '$V': a damaged buffer assignment"

test_case 'memory --group=program and --group=buffer refuse it, naming it'
for g in program buffer; do
	expect_code 2 jaxprof memory --group=$g "$tmp/h200"
	expect_stdout_empty
	expect_stderr_line "^jaxprof: memory: $PLOST$"
done

test_case 'the allocators of that profile are whole'
expect_code 0 jaxprof memory "$tmp/h200"
expect_stderr_empty
expect_stdout_match ' GPU_0_bfc +5\.42 GiB'

test_case 'baseline save says the program is left out'
expect_code 2 jaxprof baseline save -o "$tmp/h.json" "$tmp/h200"
expect_stderr_line "^jaxprof: baseline: $PLOST; program 'jit_train_step' left out of the memory peaks$"

test_case 'the intact profile has the program'
expect_code 0 jaxprof memory --group=program "$H200"
expect_stdout_match 'jit_train_step +355977 +5\.41 GiB'

test_done
