#!/bin/sh
# top against bench/top_reference.py, an independent implementation of the
# op table on the official protobuf package: byte-identical CSV on the
# committed testdata and on every *.xplane.pb of the corpus ($CORPUS).
. "$(dirname "$0")/lib.sh"

REF=$SRCDIR/bench/top_reference.py
[ -f "$REF" ] || skip "no $REF"
need_protobuf

# The reference prints every row without -n (its -n 0 prints none).
reference() {
	"$PYTHON" "$REF" "$@"
}

# Compares both programs on PATH; the case is already named.
same_as_reference() {
	expect_code 0 reference "$1"
	expect_stderr_empty
	save ref
	[ "$(grep -c . "$tmp/ref")" -gt 1 ] || fail "the reference found no ops"
	# The reference knows nothing of compile work (autotuning).
	expect_code 0 jaxprof top -n 0 --include-compile-work --format=csv "$1"
	expect_stderr_empty
	# The reference reads no HLO: its columns only, and our GFLOP/s and
	# GB/s where it has them (the HLO's costs: t0628-top-cost-h200.sh).
	"$PYTHON" - "$tmp/ref" "$out" >"$tmp/ours" <<'PY'
import csv, sys
ref = list(csv.reader(open(sys.argv[1])))
w = csv.writer(sys.stdout, lineterminator="\n")
for i, row in enumerate(csv.reader(open(sys.argv[2]))):
    row = row[:len(ref[0])]
    if 0 < i < len(ref):
        for c in (12, 13):
            if ref[i][c] == "":
                row[c] = ""
    w.writerow(row)
PY
	expect_files_equal "$tmp/ref" "$tmp/ours"
}

test_case 'testdata/jax-mlp (both runs)'
same_as_reference "$TESTDATA/jax-mlp"

for run in 2026_01_01_00_00_00 2026_01_01_00_00_01; do
	test_case "testdata/jax-mlp run $run alone"
	same_as_reference "$TESTDATA/jax-mlp/plugins/profile/$run/testhost.xplane.pb"
done

test_case 'a generated GPU profile, 2 hosts, gzipped'
expect_code 0 gen_xplane --seed=11 --hosts=2 --devices=2 --steps=3 --gzip "$tmp/gen"
same_as_reference "$tmp/gen"

test_case 'a generated launch profile with HLO: a custom call of two kernels, a loop'
expect_code 0 gen_xplane --steps=4 --launches=attention "$tmp/attn"
same_as_reference "$tmp/attn"

if [ ! -d "$CORPUS" ]; then
	note_skip "the corpus part: no corpus at '$CORPUS'"
	test_done
fi
find "$CORPUS" -type f \( -name '*.xplane.pb' -o -name '*.xplane.pb.gz' \) |
    LC_ALL=C sort >"$tmp/corpus-files"
if [ ! -s "$tmp/corpus-files" ]; then
	note_skip "the corpus part: no *.xplane.pb under '$CORPUS'"
	test_done
fi
while IFS= read -r f; do
	test_case "corpus: ${f#"$CORPUS"/}"
	# Each file gets its own index: no state carries over between them.
	JAXPROF_DB=$tmp/corpus.sqlite
	rm -f "$JAXPROF_DB" "$JAXPROF_DB-journal" "$JAXPROF_DB-wal" "$JAXPROF_DB-shm"
	same_as_reference "$f"
done <"$tmp/corpus-files"

test_done
