#!/bin/sh
# jaxprof memory on generated allocator events with known answers
# (gen-xplane --memory), a CPU JAX profile without any, damaged events,
# and bad usage; the summary's memory table and page on them.
. "$(dirname "$0")/lib.sh"
. "$CLI_DIR/summary-page.sh"

gen_xplane --memory=ok --steps=4 "$tmp/ok" || fail "gen-xplane failed"
gen_xplane --memory=damaged --steps=4 "$tmp/bad" || fail "gen-xplane failed"
exp=$tmp/ok/expected/memory.csv
read_exp() { awk -F, -v c="$1" 'NR == 2 { print $c }' "$exp"; }

test_case 'the peak, its time and its step are the generator'"'"'s'
expect_code 0 jaxprof memory --format=csv "$tmp/ok"
expect_stderr_empty
awk -F, -v peak="$(read_exp 3)" -v ps="$(read_exp 4)" '
	NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
	{ n++
	  if ($col["allocator"] != "GPU_0_bfc") bad = "allocator " $col["allocator"]
	  if ($col["peak_bytes"] != peak) bad = "peak " $col["peak_bytes"]
	  d = $col["peak_time_us"] - ps / 1e6
	  if (d > 0.001 || d < -0.001) bad = "time " $col["peak_time_us"]
	  if ($col["step"] != 3) bad = "step " $col["step"]
	  if ($col["stack_bytes"] != 0) bad = "stack " $col["stack_bytes"]
	  if ($col["capacity_bytes"] != 16 * 2^30) bad = "capacity"
	  if ($col["events"] != 8) bad = "events " $col["events"] }
	END { if (n != 1) bad = n " rows"; if (bad != "") { print bad; exit 1 } }
	' "$out" >"$tmp/why" || fail "$(cat "$tmp/why")"

test_case 'the allocations live at the peak: the last step'"'"'s and the rest'
expect_code 0 jaxprof memory --group=allocation --format=csv "$tmp/ok"
# 4 MiB allocated in the capture, 64 MiB before it.
cut -d, -f4,5,7 "$out" >"$tmp/got"
printf '%s\n' 'allocation_bytes,requested_bytes,op' \
    "$(read_exp 5),$(($(read_exp 5) - 4))," \
    "67108864,,(allocated before the capture)" >"$tmp/want"
expect_files_equal "$tmp/want" "$tmp/got"

test_case 'the timeline keeps the peak in at most --points points'
expect_code 0 jaxprof memory --group=timeline --points=3 --format=csv "$tmp/ok"
[ "$(wc -l <"$out")" -eq 4 ] || fail "not 3 points"
awk -F, -v peak="$(read_exp 3)" 'NR > 1 && $5 > max { max = $5 }
	END { exit max == peak ? 0 : 1 }' "$out" || fail "the peak is lost"
expect_code 0 jaxprof memory --group=timeline --format=json "$tmp/ok"
[ "$(grep -c '"bytes_in_use"' "$out")" -eq 8 ] || fail "not all 8 samples"

test_case 'a profile without memory events says so in one line'
expect_code 0 jaxprof memory "$TESTDATA/jax-mlp"
[ "$(wc -l <"$out")" -eq 1 ] || fail "not one line"
expect_stdout_match '^No memory events'
expect_code 0 jaxprof memory --format=csv "$TESTDATA/jax-mlp"
expect_stderr_line 'no memory events|No memory events'

test_case 'damaged memory events are refused'
expect_code 2 jaxprof memory "$tmp/bad"
expect_stderr_line "^jaxprof: memory: damaged memory event in '.*host0\.xplane\.pb': bytes_allocated is not a byte count$"
expect_code 2 jaxprof memory --group=allocation "$tmp/bad"

test_case 'bad usage exits 2'
expect_code 2 jaxprof memory --group=bogus "$tmp/ok"
expect_stderr_match "invalid --group 'bogus'"
expect_code 2 jaxprof memory --program=x "$tmp/ok"
expect_stderr_match 'goes with --group=buffer'
expect_code 2 jaxprof memory --points=0 --group=timeline "$tmp/ok"
test_case 'summary: the peak the generator made, and no memory without events'
expect_code 0 jaxprof summary --format=json "$tmp/ok"
"$PYTHON" - "$out" "$exp" <<'PY' || fail "summary's memory is not the generator's"
import csv, json, sys
rep = json.load(open(sys.argv[1]))
exp = list(csv.DictReader(open(sys.argv[2])))[0]
m = rep["memory"]
print(m and {k: m[0][k] for k in ("allocator", "peak_bytes", "peak_time_us")}, exp)
sys.exit(0 if len(m) >= 1 and m[0]["peak_bytes"] == int(exp["peak_bytes"])
         and m[0]["timeline"] else 1)
PY
expect_code 0 jaxprof summary --format=json "$TESTDATA/jax-mlp"
grep -q '"memory":\[\],' "$out" || fail "jax-mlp has memory in its summary"
expect_code 0 jaxprof summary "$TESTDATA/jax-mlp"
! grep -q 'Device memory' "$out" || fail "jax-mlp has a memory table"

check_page memory-ok "$tmp/ok"

test_done
