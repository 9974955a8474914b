#!/bin/sh
# diff on generator profiles: identical profiles, one op made 2x slower,
# a saved baseline in place of the profile, and the markdown output.
. "$(dirname "$0")/lib.sh"

[ -n "${GEN_XPLANE:-}" ] && [ -x "$GEN_XPLANE" ] ||
    fail "GEN_XPLANE is not set to the generator"

A=$tmp/a
B=$tmp/b
SLOW=input_reduce_fusion.5

test_case 'generate a profile and the same one with one op 2x slower'
expect_code 0 gen_xplane --seed=3 --steps=6 "$A"
expect_code 0 gen_xplane --seed=3 --steps=6 --slow-op=$SLOW "$B"
grep -q "^$SLOW," "$A/expected/top.csv" || fail "no op $SLOW in $A"

test_case 'identical profiles: no op changed'
expect_code 0 jaxprof diff -n 0 --format=csv "$A" "$A"
expect_stderr_empty
awk -F, 'NR > 1 && ($5 != "same" || $12 != "0.000") { exit 1 }' "$out" ||
    fail "a change between a profile and itself"

test_case 'the slow op comes first, 2x, with all of the change'
expect_code 0 jaxprof diff --by=self-time --format=csv "$A" "$B"
expect_stderr_empty
expect_stdout_match "^$SLOW,,jit_train_step,input fusion,changed,12,12,.*,2\\.000,100\\.00,.*,step,$SLOW,,name\$"
[ "$(sed -n 2p "$out" | cut -d, -f1)" = $SLOW ] ||
    fail "$SLOW is not the first row"

test_case 'markdown, ready for a pull-request comment (golden)'
expect_code 0 jaxprof diff -n 5 --format=markdown "$A" "$B"
expect_stderr_empty
filter_stdout sed -e "s|$tmp/|TMP/|g"
compare_golden markdown

test_case 'baseline save writes a versioned baseline'
expect_code 0 jaxprof baseline save -o "$tmp/a.json" "$A"
expect_stdout_empty
expect_stderr_empty
grep -q '"format": "jaxprof-baseline"' "$tmp/a.json" ||
    fail "no format in the baseline"
grep -q '"version": 2,' "$tmp/a.json" || fail "no version 2 in the baseline"

test_case 'baseline to stdout is the same file'
SOURCE_DATE_EPOCH=0 expect_code 0 jaxprof baseline save "$A"
save stdout.json
SOURCE_DATE_EPOCH=0 expect_code 0 jaxprof baseline save -o "$tmp/a0.json" "$A"
expect_files_equal "$tmp/a0.json" "$tmp/stdout.json"
grep -q '"created": "1970-01-01T00:00:00Z"' "$tmp/a0.json" ||
    fail "SOURCE_DATE_EPOCH=0 is not the creation time"

for fmt in csv json table markdown; do
	test_case "diff against the saved baseline equals diff against the profile ($fmt)"
	expect_code 0 jaxprof diff -n 0 --skip=1 --format=$fmt "$A" "$B"
	expect_stderr_empty
	# The "base:" title line names the side; the rest must be equal.
	grep -v '^base: ' "$out" >"$tmp/want"
	expect_code 0 jaxprof diff -n 0 --skip=1 --format=$fmt "$tmp/a.json" "$B"
	expect_stderr_empty
	grep -v '^base: ' "$out" >"$tmp/got"
	expect_files_equal "$tmp/want" "$tmp/got" \
	    "diff against the baseline differs ($fmt)"
done

for g in category module kernel framework-op source; do
	test_case "--group=$g: baseline and profile agree"
	expect_code 0 jaxprof diff -n 0 --group=$g --by=count --format=csv \
	    "$A" "$B"
	save want
	expect_code 0 jaxprof diff -n 0 --group=$g --by=count --format=csv \
	    "$tmp/a.json" "$B"
	expect_stdout_file "$tmp/want"
done

test_case 'a baseline on both sides'
expect_code 0 jaxprof diff -n 0 --skip=1 --format=csv "$A" "$B"
save want
expect_code 0 jaxprof baseline save -o "$tmp/b.json" "$B"
expect_code 0 jaxprof diff -n 0 --skip=1 --format=csv "$tmp/a.json" "$tmp/b.json"
expect_stderr_empty
expect_stdout_file "$tmp/want"

test_case 'JSON carries the summary the table shows: {"summary": [...], "ops": [...]}'
expect_code 0 jaxprof diff -n 0 --skip=1 --format=table "$A" "$B"
save table
expect_code 0 jaxprof diff -n 0 --skip=1 --format=json "$A" "$B"
expect_stderr_empty
save json
if "$PYTHON" -c 'import json' 2>/dev/null; then
	"$PYTHON" - "$tmp/json" "$tmp/table" <<'PY' || fail "the JSON summary is not the table's"
import json, re, sys
d = json.load(open(sys.argv[1]))
assert set(d) == {"summary", "ops"}, sorted(d)
m = {r["metric"]: r for r in d["summary"]}
for k in ("device_time_us", "steps", "step_median_us", "step_p90_us",
          "compiles", "compile_time_us", "most_compiles_of_one_function"):
    assert k in m, k
table = open(sys.argv[2]).read()
s = re.search(r"^Steps \(.*\): (\d+) -> (\d+);", table, re.M)
assert (m["steps"]["base"], m["steps"]["new"]) == (int(s[1]), int(s[2])), s
c = re.search(r"^Compiles: (\d+) -> (\d+),", table, re.M)
assert (m["compiles"]["base"], m["compiles"]["new"]) == (int(c[1]), int(c[2]))
for t in re.finditer(r"^Transfers (\S+) \((host calls|device copies)\): (\d+) -> (\d+),", table, re.M):
    r = m["transfers_%s_%s" % (t[1], t[2].replace(" ", "_"))]
    assert (r["base"], r["new"]) == (int(t[3]), int(t[4])), t[0]
assert len(d["ops"]) == len([l for l in table.splitlines() if l.startswith(("dot", "fusion", "copy", "all-", "conv", "reduce", "transpose"))]) or len(d["ops"]) > 0
PY
else
	note_skip "the JSON check: no $PYTHON"
fi

test_case 'CSV: --summary gives the summary as rows'
expect_code 0 jaxprof diff --summary --skip=1 --format=csv "$A" "$B"
expect_stderr_empty
[ "$(head -n 1 "$out")" = metric,base,new,change_percent ] ||
    fail "diff --summary --format=csv has not the header expected"
for k in device_time_us steps step_median_us step_p90_us compiles \
    compile_time_us most_compiles_of_one_function; do
	grep -q "^$k," "$out" || fail "no $k row"
done
grep -q '^transfers_H2D_device_copies,' "$out" || fail "no transfers rows"

test_case 'usage errors exit 2'
expect_code 2 jaxprof diff "$A"
expect_stdout_empty
expect_stderr_match '^usage: jaxprof diff '
expect_code 2 jaxprof diff --by=speed "$A" "$B"
expect_stderr_is "jaxprof: diff: invalid --by 'speed' (choose from device-time, self-time, count, avg)"
expect_code 2 jaxprof diff "$A" "$tmp/missing.json"
expect_stdout_empty
expect_stderr_is "jaxprof: diff: cannot read baseline '$tmp/missing.json': No such file or directory"
expect_code 2 jaxprof baseline keep "$A"
expect_stderr_match "^jaxprof: baseline: unknown action 'keep'"

test_case '--summary: values to the nanosecond at most (testdata runs)'
R=$TESTDATA/jax-mlp/plugins/profile
expect_code 0 jaxprof diff --summary --format=csv "$R/2026_01_01_00_00_00" \
    "$R/2026_01_01_00_00_01"
expect_stderr_empty
awk -F, 'NR > 1 { for (i = 2; i <= 3; i++) if ($i !~ /^-?[0-9]+(\.[0-9]?[0-9]?[0-9]?)?$/) { print; bad = 1 } }
    END { exit bad }' "$out" || fail "a value with more than 3 decimals"

test_done
