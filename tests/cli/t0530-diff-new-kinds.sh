#!/bin/sh
# diff groups the ops a change added by what they are (framework op, else
# source line): on CPU-JAX profiles of make_gpu_profiles.py's "warm" and
# "slow" scenarios (slow adds the extra_work function), the note under the
# table names the kinds of most time with counts and times equal to the
# added rows of diff's own csv, grouped here independently.  The times of
# a CPU run vary from run to run, so which kinds lead is not expected by
# name: only that they are the csv's, in its order of time.
. "$(dirname "$0")/lib.sh"

MAKE=${CORPUS%/corpus}/gpu/make_gpu_profiles.py
[ -f "$MAKE" ] || skip "no '$MAKE' to make the profiles"
python_has jax || skip "JAX not installed ('$PYTHON' cannot import jax); $(install_hint jax)"
python_has optax || skip "optax not installed for '$PYTHON' (make_gpu_profiles.py needs it); pip install optax"

O=$tmp/gen
test_case 'make_gpu_profiles.py --small writes warm and slow'
expect_code 0 env JAX_PLATFORMS=cpu "$PYTHON" "$MAKE" "$O" --small \
    --only=slow,warm

test_case 'diff --format=csv: the added rows'
expect_code 0 jaxprof diff -n 0 --format=csv "$O/warm" "$O/slow"
save diff.csv
! grep -q '^New ops' "$out" || fail "csv carries the table's note"

test_case 'diff: the new ops grouped by what they are, as the csv adds up'
expect_code 0 jaxprof diff "$O/warm" "$O/slow"
expect_stdout_match '^New ops by what they are \(device time in the new profile\): `[^`]+` [0-9]+ ops? '
grep '^New ops' "$out" >"$tmp/note"
"$PYTHON" - "$tmp/diff.csv" "$tmp/note" <<'PY' || fail "the note is not the csv's added rows grouped"
import csv, re, sys
kinds = {}
for r in csv.DictReader(open(sys.argv[1])):
    if r["match"] != "added":
        continue
    fw = r["framework_op"]
    if fw:
        parts = fw.split("/")
        while len(parts) > 1 and re.fullmatch(r"p?jit\(.*\)", parts[0]):
            parts.pop(0)
        what = "/".join(parts[-2:])
    else:
        what = r["source"].rsplit("/", 1)[-1] or r["name"]
    n, us = kinds.get(what, (0, 0.0))
    kinds[what] = (n + 1, us + float(r["new_total_us"]))
note = open(sys.argv[2]).read()
got = re.findall(r"`([^`]*)` (\d+) ops? ([0-9.]+) (ns|us|ms|s)\b", note)
scale = {"ns": 1e-3, "us": 1, "ms": 1e3, "s": 1e6}
assert got, note
# What is stable from run to run: each kind named is the csv's, with its
# count and time (the note rounds to 3 digits); they are the kinds of
# most time, in that order; the rest are counted.  Which kinds those are
# varies with the times of a CPU run, so none is expected by name here.
bad = []
shown = {}
for what, n, v, u in got:
    us = float(v) * scale[u]
    tol = 0.0005 * scale[u] + 0.002 * kinds.get(what, (1, 0))[0]
    shown[what] = us
    if what not in kinds:
        bad.append("%r is not a kind of the csv's added ops" % what)
    elif int(n) != kinds[what][0] or abs(us - kinds[what][1]) > tol:
        bad.append("%r: note %s ops %.3f us, csv %d ops %.3f us" %
                   (what, n, us, kinds[what][0], kinds[what][1]))
times = [shown[w] for w, n, v, u in got]
if any(x < y - 0.01 for x, y in zip(times, times[1:])):
    bad.append("not the most time first: %r" % times)
if times:
    missed = [w for w, (n, us) in kinds.items()
              if w not in shown and us > min(times) + 0.01 * scale["ms"]]
    if missed:
        bad.append("left out but more time: %r" % missed)
left = len(kinds) - len(got)
if left > 0 and "%d more kinds" % left not in note:
    bad.append("no '%d more kinds'" % left)
if not any("extra_work" in w for w in kinds):
    bad.append("the csv adds no op of extra_work")
print("\n".join(map(str, bad)))
sys.exit(1 if bad else 0)
PY
test_done
