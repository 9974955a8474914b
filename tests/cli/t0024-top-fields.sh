#!/bin/sh
# top --fields=LIST: the columns named, in that order, with the values the
# full report gives them in every format; a name that is no column, one
# given twice or none at all is exit 2 with the list of columns.
. "$(dirname "$0")/lib.sh"

gen_xplane --seed=5 --devices=2 --steps=3 --ops=6 "$tmp/g" || fail "gen-xplane failed"
G=$tmp/g
DB=$tmp/idx.sqlite
COLUMNS='rank, name, what, module, category, count, total_us, self_us, avg_us, min_us, max_us, percent, cum_percent, gflops_per_s, gbps, source, flops, bytes_accessed, flops_per_call, intensity, bound, roofline_pct, above_roof, precision, op, framework_op, registers_per_thread, shared_mem_bytes, block, grid, occupancy_pct, tensor_core, depth, parent_rank'

# cut_columns FILE NAME...: the columns NAME... of a CSV without quotes.
cut_columns() {
	f=$1
	shift
	awk -F, -v want="$*" '
	NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; n = split(want, w, " ") }
	{ line = ""; for (i = 1; i <= n; i++) line = line (i > 1 ? "," : "") $(col[w[i]]); print line }' "$f"
}

test_case 'the default columns, as without --fields'
expect_code 0 jaxprof top -n 0 --format=csv --db="$DB" "$G"
save all
head -1 "$tmp/all" | grep -qx 'rank,name,module,category,count,total_us,self_us,avg_us,min_us,max_us,percent,cum_percent,gflops_per_s,gbps,source,flops,bytes_accessed,intensity,bound,roofline_pct,above_roof' ||
    fail "the default CSV header changed: $(head -1 "$tmp/all")"

test_case 'csv: the columns chosen, in the order given, with the same values'
expect_code 0 jaxprof top -n 0 --format=csv --fields=total_us,name,percent,rank --db="$DB" "$G"
expect_stderr_empty
cut_columns "$tmp/all" total_us name percent rank >"$tmp/want"
expect_stdout_file "$tmp/want"

test_case 'json: the keys chosen, in order'
expect_code 0 jaxprof top -n 2 --format=json --fields=name,count --db="$DB" "$G"
"$PYTHON" -c 'import json, sys
rows = json.load(open(sys.argv[1]))
assert len(rows) == 2, rows
assert all(list(r) == ["name", "count"] for r in rows), rows' "$out" ||
    fail "json rows are not {name, count}: $(cat "$out")"

test_case 'table: the headers of the columns chosen'
expect_code 0 jaxprof top -n 1 --fields=name,total_us,gflops_per_s --db="$DB" "$G"
expect_stdout_match '^name +total +GFLOP/s$'

test_case 'intensity: FLOPs over bytes accessed, as gen-xplane wrote them'
expect_code 0 jaxprof top -n 0 --format=csv --fields=name,intensity --db="$DB" "$G"
# expected/top.csv: name,module,category,count,total_ps,self_ps,min_ps,max_ps,flops,bytes_accessed
awk -F, 'NR == FNR { if (FNR > 1 && $9 > 0 && $10 > 0) want[$1] = $9 / $10; next }
	FNR == 1 { next }
	{ seen++
	  if (($1 in want) != ($2 != "")) { print "row " $1 ": " $2; bad = 1 }
	  else if ($2 != "" && (want[$1] - $2 > 0.0006 || $2 - want[$1] > 0.0006)) { print $1 ": " $2 " != " want[$1]; bad = 1 } }
	END { exit bad || seen == 0 }' "$G/expected/top.csv" "$out" ||
    fail "intensity differs from expected/top.csv"

test_case 'flops_per_call: FLOPs over count, as gen-xplane wrote them'
expect_code 0 jaxprof top -n 0 --format=csv --fields=name,flops_per_call --db="$DB" "$G"
awk -F, 'NR == FNR { if (FNR > 1 && $9 > 0) want[$1] = $9 / $4; next }
	FNR == 1 { next }
	{ seen++
	  if (($1 in want) != ($2 != "")) { print "row " $1 ": " $2; bad = 1 }
	  else if ($2 != "" && (want[$1] - $2 > 1e-6 * want[$1] || $2 - want[$1] > 1e-6 * want[$1])) { print $1 ": " $2 " != " want[$1]; bad = 1 } }
	END { exit bad || seen == 0 }' "$G/expected/top.csv" "$out" ||
    fail "flops_per_call differs from expected/top.csv"

test_case 'scopes too'
expect_code 0 jaxprof top --group=scope -n 0 --format=csv --db="$DB" "$G"
save scopes
expect_code 0 jaxprof top --group=scope -n 0 --format=csv --fields=name,self_us --db="$DB" "$G"
cut_columns "$tmp/scopes" name self_us >"$tmp/want"
expect_stdout_file "$tmp/want"

for bad in 'name,bogus' 'name,name' ''; do
	test_case "--fields='$bad': exit 2, the columns listed"
	expect_code 2 jaxprof top --fields="$bad" --db="$DB" "$G"
	expect_stdout_empty
	expect_stderr_match "^jaxprof: top: invalid --fields '$bad': .*\\(choose from $COLUMNS; a table header names its column too\\)\$"
done

test_done
