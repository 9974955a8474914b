#!/bin/sh
# Trace JSON beside an XSpace (issue 36, point 12): the XSpace is read in
# its place, even when the JSON is named on its own; when the XSpace cannot
# be read, the JSON is, and said so; neither counts twice after the other.
# On the H200 command-buffer profile, the JSON's graph kernels get the ops
# their names tell.
. "$(dirname "$0")/lib.sh"

gen_xplane --steps=3 "$tmp/gen" || fail "gen-xplane failed"
RUN=$tmp/gen/plugins/profile/2026_01_01_00_00_00
expect_code 0 jaxprof extract --to=chrome -o "$tmp/host0.trace.json" \
    "$RUN/host0.xplane.pb"
mv "$tmp/host0.trace.json" "$RUN/"

test_case 'the folder: the XSpace alone is read'
expect_code 0 jaxprof top -n 0 --format=csv "$RUN"
expect_stderr_empty
save xspace
expect_stdout_match '^1,.*,[0-9.]+,[0-9.]+,,[0-9]+,[0-9]+,'	# GFLOP/s and GB/s: an XSpace

test_case 'the JSON named on its own: the XSpace beside it is read, and said'
expect_code 0 jaxprof top -n 0 --format=csv "$RUN/host0.trace.json"
expect_stderr_is "jaxprof: top: note: reading 'host0.xplane.pb' beside '$RUN/host0.trace.json': the same events, with the HLO that trace JSON lacks"
expect_stdout_file "$tmp/xspace"

# The JSON alone, then a cut XSpace beside it.
mkdir -p "$tmp/cut/r"
cp "$RUN/host0.trace.json" "$tmp/cut/r/"
expect_code 0 jaxprof top -n 0 --format=csv "$tmp/cut/r/host0.trace.json"
expect_stderr_empty
save json
size=$(wc -c <"$RUN/host0.xplane.pb")
head -c $((size / 2)) "$RUN/host0.xplane.pb" >"$tmp/cut/r/host0.xplane.pb"

test_case 'a cut XSpace: its JSON is read in its place, and said; a report was made (exit 0, t0057)'
expect_code 0 jaxprof top -n 0 --format=csv "$tmp/cut"
expect_stderr_match "^jaxprof: top: cannot read '$tmp/cut/r/host0.xplane.pb': "
expect_stderr_match "^jaxprof: top: note: reading the trace JSON in '$tmp/cut/r' in place of its XSpace, which cannot be read$"
sed 's/^\([0-9]*\),\([^,]*\),.*/\1,\2/' "$tmp/json" >"$tmp/want"
sed 's/^\([0-9]*\),\([^,]*\),.*/\1,\2/' "$out" >"$tmp/got"
expect_files_equal "$tmp/want" "$tmp/got" "the ops are not the JSON's"

test_case 'the XSpace mended: it alone counts, not the JSON read before'
cp "$RUN/host0.xplane.pb" "$tmp/cut/r/host0.xplane.pb"
expect_code 0 jaxprof top -n 0 --format=csv "$tmp/cut"
expect_stderr_empty
expect_stdout_file "$tmp/xspace"

C=$CORPUS/h200/cmdbuf-warm/plugins/profile/2026_11_26_03_51_57
if [ ! -f "$C/vm.xplane.pb" ] || [ ! -f "$C/perfetto_trace.json.gz" ]; then
	note_skip "the H200 command-buffer cases ($C is absent)"
	test_done
fi
if ! python_has json gzip; then
	note_skip "the H200 command-buffer cases ($PYTHON lacks json, gzip)"
	test_done
fi

test_case 'H200 command buffers, the JSON named: the XSpace beside it is read'
expect_code 0 jaxprof top -n 0 --format=csv "$C"
save h200
expect_code 0 jaxprof top -n 0 --format=csv "$C/perfetto_trace.json.gz"
expect_stderr_match "note: reading 'vm.xplane.pb' beside"
expect_stdout_file "$tmp/h200"

test_case 'H200 command buffers, a cut XSpace: the JSON, its fusions named by kernel'
mkdir -p "$tmp/h200cut/r"
cp "$C/perfetto_trace.json.gz" "$tmp/h200cut/r/"
head -c 800000 "$C/vm.xplane.pb" >"$tmp/h200cut/r/vm.xplane.pb"
expect_code 0 jaxprof top -n 0 --format=csv "$tmp/h200cut"
expect_stderr_match "note: reading the trace JSON in '$tmp/h200cut/r' in place of its XSpace"
grep -q '^[0-9]*,command_buffer_1,' "$out" && fail "command_buffer_1 is ranked as an op"
# Independently: each graph kernel named like a fusion, its op by XLA's
# naming (the last _N is .N), counted from the JSON.
"$PYTHON" -c '
import gzip, json, re, sys, collections
tr = json.load(gzip.open(sys.argv[1], "rt"))
n = collections.Counter()
for e in tr["traceEvents"]:
    a = e.get("args") or {}
    if e.get("ph") != "X" or "cuda_graph_id" not in a or "kernel_details" not in a:
        continue
    k = e["name"]
    if re.fullmatch(r"[A-Za-z0-9_]+", k) and ("fusion" in k or k.startswith("wrapped_")):
        n[re.sub(r"_([0-9]+)$", r".\1", k)] += 1
for op in sorted(n):
    print("%s,%d" % (op, n[op]))
' "$C/perfetto_trace.json.gz" >"$tmp/want" || fail "the reference script failed"
[ -s "$tmp/want" ] || fail "the reference found no fusion kernels"
awk -F, 'NR > 1 && $4 != "unattributed" { print $2 "," $5 }' "$out" |
    sort >"$tmp/got"
expect_files_equal "$tmp/want" "$tmp/got" "the fusion ops differ from their kernels'"
awk -F, 'NR > 1 && $4 == "unattributed" && $2 ~ /fusion/ { print; bad = 1 } END { exit bad }' \
    "$out" || fail "a fusion kernel is left unattributed"

test_case 'H200 command buffers, the table says what the JSON cannot tell'
expect_code 0 jaxprof top "$tmp/h200cut"
expect_stdout_match "in CUDA graphs matched no HLO op \(trace JSON has no HLO: fusions are named after their kernels"
test_done
