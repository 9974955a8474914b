#!/bin/sh
# jaxprof memory against xprof 2.24 on real profiles: each allocator's peak
# (memory_profile), each program's peak and the largest program's top
# buffers (get_peak_allocations), within 1%.  xprof's answers are golden
# files made by tests/xprof/memory.sh, so no xprof is needed here.
. "$(dirname "$0")/lib.sh"

"$PYTHON" -c 'import csv' 2>/dev/null || skip "no Python at '$PYTHON'"
TPU=$CORPUS/xprof/xprof/convert/test_xplanes/tpu_inference_2.xplane.pb
nfound=0
for name in cmdbuf-warm cmdbuf-train tpu; do
	case $name in
	tpu) path=$TPU ;;
	*) path=$CORPUS/h200/$name ;;
	esac
	if [ ! -e "$path" ]; then
		note_skip "$name: no '$path'"
		continue
	fi
	nfound=$((nfound + 1))
	golden=$EXPECT_DIR/$TEST_NAME-$name.out

	test_case "$name: the peak of each allocator is xprof's"
	expect_code 0 jaxprof memory --format=csv "$path"
	expect_stderr_empty
	save "alloc-$name"
	expect_code 0 jaxprof memory --group=program -n 0 --format=csv "$path"
	save "prog-$name"
	expect_code 0 jaxprof memory --group=buffer -n 0 --format=csv "$path"
	save "buf-$name"
	"$PYTHON" - "$golden" "$tmp/alloc-$name" "$tmp/prog-$name" \
	    "$tmp/buf-$name" >"$tmp/cmp" 2>&1 <<'PY' || fail "$(cat "$tmp/cmp")"
import csv, sys

def near(a, b):
    return abs(a - b) <= 0.01 * max(abs(b), 1)

want = {"allocator": {}, "program": {}, "buffer": {}}
for line in open(sys.argv[1]):
    f = line.split()
    if f[0] == "buffer":
        want["buffer"][f[2]] = (int(f[3]), int(f[4]))
    else:
        want[f[0]][f[1]] = int(f[2])
bad = []
got = {r["allocator"]: int(r["peak_bytes"])
       for r in csv.DictReader(open(sys.argv[2]))}
if set(got) != set(want["allocator"]):
    bad.append("allocators %s, xprof %s" % (sorted(got),
               sorted(want["allocator"])))
for k, v in want["allocator"].items():
    if k in got and not near(got[k], v):
        bad.append("allocator %s: peak %d, xprof %d" % (k, got[k], v))
got = {}
for r in csv.DictReader(open(sys.argv[3])):
    pid = int(r["program_id"]) % 2**64
    got["%s(%d)" % (r["program"], pid)] = int(r["peak_bytes"])
if set(got) != set(want["program"]):
    bad.append("programs %s, xprof %s" % (sorted(set(got) ^
               set(want["program"])), ""))
for k, v in want["program"].items():
    if k in got and not near(got[k], v):
        bad.append("program %s: peak %d, xprof %d" % (k, got[k], v))
rows = list(csv.DictReader(open(sys.argv[4])))
got = {r["buffer"]: (int(r["count"]), int(r["size_bytes"]))
       for r in rows if r["size_bytes"] and int(r["size_bytes"]) >= 2**20}
for k, (n, size) in want["buffer"].items():
    if k not in got:
        bad.append("buffer %s: not among ours" % k)
    elif got[k][0] != n or not near(got[k][1], size):
        bad.append("buffer %s: %d of %d, xprof %d of %d" %
                   (k, got[k][0], got[k][1], n, size))
for k in set(got) - set(want["buffer"]):
    bad.append("buffer %s: not among xprof's" % k)
print("\n".join(bad))
sys.exit(1 if bad else 0)
PY
done
[ "$nfound" -gt 0 ] || skip "none of the corpus profiles is here"

if [ -d "$CORPUS/h200/cmdbuf-warm" ]; then
	test_case 'cmdbuf-warm: the top buffers of jit_train_step, with sources'
	expect_code 0 jaxprof memory --group=buffer -n 5 --format=csv \
	    --program=jit_train_step "$CORPUS/h200/cmdbuf-warm"
	[ "$(wc -l <"$out")" -eq 6 ] || fail "not 5 buffers"
	# Each names its instruction, its shape and the Python line.
	"$PYTHON" - "$out" >"$tmp/nosrc" <<'PY' || fail "rows without shape or source: $(cat "$tmp/nosrc")"
import csv, re, sys
bad = [r["buffer"] for r in csv.DictReader(open(sys.argv[1]))
       if not re.fullmatch(r"f32\[[0-9,]+\]", r["shape"]) or
       not re.search(r"\.py:[0-9]+$", r["source"])]
print(" ".join(bad))
sys.exit(1 if bad else 0)
PY
	expect_code 0 jaxprof memory --group=buffer -n 3 \
	    --program='jit_train_step(355977)' "$CORPUS/h200/cmdbuf-warm"
	expect_stdout_match '^2026_11_26_03_51_57 +vm +jit_train_step\(355977\) +fusion\.\* +4 +128\.00 MiB +512\.00 MiB'
fi
test_done
