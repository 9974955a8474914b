#!/bin/sh
# diff groups the ops a change added by what they are (framework op, else
# source line): on CPU-JAX profiles of make_gpu_profiles.py's "warm" and
# "slow" scenarios (slow adds the extra_work function), the note under the
# table names extra_work's ops, with counts and times equal to the added
# rows of diff's own csv, grouped here independently.
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
expect_stdout_match '^New ops by what they are \(device time in the new profile\): `[^`]+` [0-9]+ ops? .*extra_work'
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
top = sorted(kinds.items(), key=lambda kv: -kv[1][1])[:len(got)]
bad = []
for (what, n, v, u), (w2, (n2, us2)) in zip(got, top):
    if what != w2 or int(n) != n2 or abs(float(v) * scale[u] - us2) > 0.01 * scale[u] + 0.002:
        bad.append((what, n, v, u, w2, n2, us2))
if len(kinds) > len(got) and "%d more kinds" % (len(kinds) - len(got)) not in note:
    bad.append("no 'more kinds' for %d kinds" % len(kinds))
print("\n".join(map(str, bad)))
sys.exit(1 if bad else 0)
PY
test_done
