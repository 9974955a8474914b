#!/bin/sh
# steps on a synthetic GPU profile (tests/gen-xplane) against the breakdown
# the generator worked out while writing it (OUTDIR/expected/breakdown.csv,
# in ps): per-step compute, collective, transfer and idle time, --skip, the
# --summary statistics and the --skew across hosts.
. "$(dirname "$0")/lib.sh"

[ -n "${GEN_XPLANE:-}" ] && [ -x "$GEN_XPLANE" ] ||
    fail "GEN_XPLANE is not set to the generator"

G=$tmp/gen
BRK=$G/expected/breakdown.csv

# `jaxprof steps --format=csv` columns: run,host,device,step,name,start_us,
# duration_us,compute_us,collective_us,transfer_us,idle_us,outlier.
# Projected to host,device,step,start..idle, sorted by host, device, step.
project_steps() {
	awk -F, 'NR > 1 { print $2 "," $3 "," $4 "," $6 "," $7 "," $8 "," \
	    $9 "," $10 "," $11 }' "$out" | sort -t, -k1,1 -k2,2 -k3,3n
}

# expected/breakdown.csv rows kept by the awk condition $1 (on the ps
# values), in us with 3 decimals, sorted the same way.
want_steps() {
	awk -F, "NR > 1 && ($1)"' {
		printf "%s,%s,%d,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f\n", $1, $2,
		    $3, $4 / 1e6, $5 / 1e6, $6 / 1e6, $7 / 1e6, $8 / 1e6,
		    $9 / 1e6
	}' "$BRK" | sort -t, -k1,1 -k2,2 -k3,3n
}

# Per device (host,device) from expected/breakdown.csv, steps >= $1 only:
# host,device,steps,min,median,mean,p90,max in us.  Percentiles as numpy's
# linear: rank p/100 * (n - 1) between the two closest ranks.
want_summary() {
	awk -F, -v skip="$1" 'NR > 1 && $3 >= skip { print $1 "," $2 "," $5 }' \
	    "$BRK" | sort -t, -k1,1 -k2,2 -k3,3n | awk -F, '
	function pct(p,    r, lo) {
		r = p / 100 * (n - 1)
		lo = int(r)
		if (lo + 1 >= n)
			return v[n]
		return v[lo + 1] + (v[lo + 2] - v[lo + 1]) * (r - lo)
	}
	function flush(    i, sum) {
		if (n == 0)
			return
		sum = 0
		for (i = 1; i <= n; i++)
			sum += v[i]
		printf "%s,%d,%.3f,%.3f,%.3f,%.3f,%.3f\n", key, n,
		    v[1] / 1e6, pct(50) / 1e6, sum / n / 1e6, pct(90) / 1e6,
		    v[n] / 1e6
		n = 0
	}
	$1 "," $2 != key { flush(); key = $1 "," $2 }
	{ v[++n] = $3 }
	END { flush() }'
}

# The skew from expected/breakdown.csv: a host's step time is its slowest
# device's; per step: hosts,min,max,skew in us, and the slowest host.
want_skew() {
	awk -F, 'NR > 1 {
		k = $3 SUBSEP $1
		if (!(k in t) || $5 > t[k])
			t[k] = $5
		if (!($1 in seen)) {
			seen[$1] = 1
			hosts[++nh] = $1
		}
		if ($3 > maxstep)
			maxstep = $3
	} END {
		for (s = 0; s <= maxstep; s++) {
			n = 0
			for (i = 1; i <= nh; i++) {
				k = s SUBSEP hosts[i]
				if (!(k in t))
					continue
				if (n == 0 || t[k] < lo)
					lo = t[k]
				if (n == 0 || t[k] > hi) {
					hi = t[k]
					slow = hosts[i]
				}
				n++
			}
			if (n >= 2)
				printf "%d,%d,%.3f,%.3f,%.3f,%s\n", s, n,
				    lo / 1e6, hi / 1e6, (hi - lo) / 1e6, slow
		}
	}' "$BRK"
}

test_case 'generate 2 hosts x 3 devices, 6 steps, with all-reduce ops'
expect_code 0 gen_xplane --seed=1 --hosts=2 --devices=3 --steps=6 --ops=12 "$G"
expect_stdout_empty
expect_stderr_empty
[ "$(head -n 1 "$BRK")" = \
    host,device,step,start_ps,duration_ps,compute_ps,collective_ps,transfer_ps,idle_ps ] ||
    fail "expected/breakdown.csv has not the header expected"
[ "$(grep -c . "$BRK")" -eq 37 ] || fail "expected/breakdown.csv has not 36 rows"
grep -q ',all-reduce,' "$G/expected/top.csv" ||
    fail "the profile has no all-reduce op"
# The while's all-reduce child runs inside it: collective comes first,
# so it still shows, and the classes and idle add up to the step.
awk -F, 'NR > 1 && ($7 == 0 || $8 == 0 || $9 <= 0 ||
    $6 + $7 + $8 + $9 != $5) { exit 1 }' "$BRK" ||
    fail "expected/breakdown.csv lacks collective, transfer or idle, or does not add up"
# The breakdown's steps are the Steps events of steps.csv.
cut -d, -f1-5 "$BRK" >"$tmp/brk-steps"
expect_files_equal "$G/expected/steps.csv" "$tmp/brk-steps" \
    "breakdown.csv and steps.csv have different steps"

test_case 'steps --format=csv: every step as in expected/breakdown.csv'
expect_code 0 jaxprof steps --format=csv "$G"
expect_stderr_empty
[ "$(head -n 1 "$out")" = \
    run,host,device,step,name,start_us,duration_us,compute_us,collective_us,transfer_us,idle_us,outlier ] ||
    fail "steps --format=csv has not the header expected"
awk -F, 'NR > 1 && ($1 != "2026_01_01_00_00_00" || $4 != $5) { exit 1 }' \
    "$out" || fail "a step is not in the run, or not named by its number"
project_steps >"$tmp/got"
want_steps 1 >"$tmp/want"
expect_files_equal "$tmp/want" "$tmp/got" "steps differ from expected/breakdown.csv"
save all

test_case 'a file whose planes all come twice: each copy keeps its steps'
# Two XSpaces one after the other are one XSpace with the planes of both
# (protobuf merges them): every plane name comes twice, so every plane's
# steps are measured once the whole file is read, from the first
# plane of its name, as the first pass did.
D=$tmp/twice/plugins/profile/2026_01_01_00_00_00
mkdir -p "$D"
f=$(find "$G" -name 'host0.xplane.pb') || fail "no host0.xplane.pb"
cat "$f" "$f" >"$D/host0.xplane.pb"
expect_code 0 jaxprof steps --host=host0 --format=csv "$G"
awk -F, 'NR > 1 { print; print }' "$out" | cut -d, -f2-11 | sort >"$tmp/want"
expect_code 0 jaxprof steps --format=csv "$tmp/twice"
expect_stderr_empty
awk -F, 'NR > 1' "$out" | cut -d, -f2-11 | sort >"$tmp/got"
[ -s "$tmp/want" ] || fail "host0 has no steps"
expect_files_equal "$tmp/want" "$tmp/got" "the doubled planes' steps are not each step twice"

test_case 'steps: the table'
expect_code 0 jaxprof steps "$G"
expect_stderr_empty
compare_golden table
expect_stdout_match '^Steps from the devices. "Steps" lines\.$'

test_case '--skip=2 drops exactly the first two steps of each device'
expect_code 0 jaxprof steps --skip=2 --format=csv "$G"
expect_stderr_empty
project_steps >"$tmp/got"
want_steps '$3 >= 2' >"$tmp/want"
expect_files_equal "$tmp/want" "$tmp/got" "--skip=2 differs from expected/breakdown.csv steps 2..5"
[ "$(grep -c . "$tmp/got")" -eq 24 ] || fail "--skip=2 does not leave 24 steps"

test_case '--skip=6 leaves no step: a warning, just the header'
expect_code 0 jaxprof steps --skip=6 --format=csv "$G"
expect_stderr_is 'jaxprof: steps: no steps in the selection'
[ "$(grep -c . "$out")" -eq 1 ] || fail "steps left after --skip=6"

test_case '--summary --format=csv: min, median, mean, p90, max per device'
expect_code 0 jaxprof steps --summary --format=csv "$G"
expect_stderr_empty
[ "$(head -n 1 "$out")" = \
    run,host,device,source,steps,min_us,median_us,mean_us,p90_us,max_us,stddev_us,compute_percent,collective_percent,transfer_percent,idle_percent,outliers ] ||
    fail "steps --summary has not the header expected"
awk -F, 'NR > 1 { print $2 "," $3 "," $5 "," $6 "," $7 "," $8 "," $9 "," \
    $10 }' "$out" >"$tmp/got"
want_summary 0 >"$tmp/want"
expect_files_equal "$tmp/want" "$tmp/got" "--summary differs from expected/breakdown.csv"
awk -F, 'NR > 1 && $4 != "device" { exit 1 }' "$out" ||
    fail "the steps' source is not the device"

test_case '--summary --skip=2: the statistics of steps 2..5 (4 each)'
expect_code 0 jaxprof steps --summary --skip=2 --format=csv "$G"
expect_stderr_empty
awk -F, 'NR > 1 { print $2 "," $3 "," $5 "," $6 "," $7 "," $8 "," $9 "," \
    $10 }' "$out" >"$tmp/got"
want_summary 2 >"$tmp/want"
expect_files_equal "$tmp/want" "$tmp/got" "--summary --skip=2 differs from expected/breakdown.csv"

test_case '--skew --format=csv: per step, the spread of the hosts'"'"' step times'
expect_code 0 jaxprof steps --skew --format=csv "$G"
expect_stderr_empty
[ "$(head -n 1 "$out")" = run,step,hosts,min_us,max_us,skew_us,slowest_host ] ||
    fail "steps --skew has not the header expected"
awk -F, 'NR > 1 { print $2 "," $3 "," $4 "," $5 "," $6 "," $7 }' "$out" |
    sort -t, -k1,1n >"$tmp/got"
want_skew >"$tmp/want"
[ "$(grep -c . "$tmp/want")" -eq 6 ] || fail "want_skew found not 6 steps"
expect_files_equal "$tmp/want" "$tmp/got" "--skew differs from expected/breakdown.csv"

test_case '--skew on one host: no rows (skew needs two hosts), and a note why'
expect_code 0 jaxprof steps --skew --host=host0 --format=csv "$G"
expect_stderr_is "jaxprof: steps: --skew compares the hosts of each step; the selection has one host ('host0'): nothing to compare"
[ "$(grep -c . "$out")" -eq 1 ] || fail "skew rows with one host"

test_case '--skew on two runs, with a tie: in the rows'"'"' order, first host slowest'
# Run 2 is run 1 without host1; host3 is host0's file again, so each step
# of host0 and host3 ties, and the slowest host named is the first row's.
S=$tmp/skewdir
expect_code 0 gen_xplane --seed=7 --hosts=3 --devices=2 --steps=5 --ops=2 "$S"
run1=$(ls "$S/plugins/profile")
cp "$S/plugins/profile/$run1/host0.xplane.pb" "$S/plugins/profile/$run1/host3.xplane.pb"
cp -r "$S/plugins/profile/$run1" "$S/plugins/profile/2026_02_02_00_00_00"
rm "$S/plugins/profile/2026_02_02_00_00_00/host1.xplane.pb"
expect_code 0 jaxprof steps --run='*' --format=csv "$S"
# Per (run, step) in the order of its first row: hosts, the fastest and
# slowest host's time (its slowest device's) and the first host that is
# slowest; a duration keeps its printed text.
awk -F, 'NR > 1 {
	rs = $1 "," $4
	if (!(rs in nhost))
		order[++ng] = rs
	k = rs SUBSEP $2
	if (!(k in t)) {
		host[rs, ++nhost[rs]] = $2
		t[k] = $7
	} else if ($7 + 0 > t[k] + 0)
		t[k] = $7
} END {
	for (g = 1; g <= ng; g++) {
		rs = order[g]
		if (nhost[rs] < 2)
			continue
		for (i = 1; i <= nhost[rs]; i++) {
			v = t[rs SUBSEP host[rs, i]]
			if (i == 1 || v + 0 < lo + 0)
				lo = v
			if (i == 1 || v + 0 > hi + 0) {
				hi = v
				slow = host[rs, i]
			}
		}
		print rs "," nhost[rs] "," lo "," hi "," slow
	}
}' "$out" >"$tmp/want"
[ "$(grep -c . "$tmp/want")" -eq 10 ] || fail "not 10 steps of two runs"
[ "$(grep -c ',host0$' "$tmp/want")" -ge 1 ] || fail "no tie went to host0"
expect_code 0 jaxprof steps --run='*' --skew --format=csv "$S"
expect_stderr_empty
awk -F, 'NR > 1 { d = $6 - ($5 - $4); if (d < -0.0015 || d > 0.0015) exit 1 }' \
    "$out" || fail "a skew is not max - min"
awk -F, 'NR > 1 { print $1 "," $2 "," $3 "," $4 "," $5 "," $7 }' "$out" >"$tmp/got"
expect_files_equal "$tmp/want" "$tmp/got" "--skew differs from the steps' rows"

test_case '--summary and --skew together: exit 2'
expect_code 2 jaxprof steps --summary --skew "$G"
expect_stdout_empty
expect_stderr_match 'cannot be combined'

test_case 'a table of over 4096 steps (filled as read): the rows of csv'
expect_code 0 gen_xplane --seed=3 --hosts=2 --devices=8 --steps=260 --ops=2 \
    "$tmp/many"
# compare_table_csv FMT [OPTION]: run, host, device, step and outlier of
# each row of the FMT table are csv's.
compare_table_csv() {
	expect_code 0 jaxprof steps --format="$1" ${2:+"$2"} "$tmp/many"
	save "table-$1${2:-}"
	sed '/^|-/d; s/^| //; s/ |$//; s/ | / /g' "$out" |
	    awk 'f && NF { print $1 "," $2 "," $3 "," $4 "," $NF }
	    /^run / { f = 1 }' >"$tmp/got"
	expect_code 0 jaxprof steps --format=csv ${2:+"$2"} "$tmp/many"
	awk -F, 'NR > 1 { print $1 "," $2 "," $3 "," $4 "," $12 }' "$out" \
	    >"$tmp/want"
	expect_files_equal "$tmp/want" "$tmp/got" \
	    "the $1 rows ${2:-} differ from csv's"
}
for fmt in table markdown; do
	compare_table_csv $fmt
	[ "$(grep -c . "$tmp/want")" -eq 4160 ] || fail "not 4160 steps in csv"
	compare_table_csv $fmt --skip=3
	[ "$(grep -c . "$tmp/want")" -eq 4112 ] || fail "not 4112 steps after --skip=3"
done

test_case 'a file stored again comes last in the index: the same tables'
# Its rows are read after the other host's, out of the report's order:
# filled once sorted.
touch "$tmp/many/plugins/profile/"*/host0.xplane.pb
for fmt in table markdown; do
	expect_code 0 jaxprof steps --format=$fmt "$tmp/many"
	expect_stdout_file "$tmp/table-$fmt"
	expect_code 0 jaxprof steps --format=$fmt --skip=3 "$tmp/many"
	expect_stdout_file "$tmp/table-$fmt--skip=3"
done
expect_code 0 jaxprof sql --format=csv \
    "SELECT f.host FROM files f ORDER BY f.id DESC LIMIT 1" "$tmp/many"
expect_stdout_match '^host0$'

test_case 'another shape: 1 host, 1 device, --repeat=2, seed 42'
expect_code 0 gen_xplane --seed=42 --devices=1 --steps=5 --ops=25 --repeat=2 \
    "$tmp/one"
BRK=$tmp/one/expected/breakdown.csv
expect_code 0 jaxprof steps --format=csv "$tmp/one"
expect_stderr_empty
project_steps >"$tmp/got"
want_steps 1 >"$tmp/want"
expect_files_equal "$tmp/want" "$tmp/got" "steps differ from expected/breakdown.csv"
expect_code 0 jaxprof steps --summary --format=csv "$tmp/one"
awk -F, 'NR > 1 { print $2 "," $3 "," $5 "," $6 "," $7 "," $8 "," $9 "," \
    $10 }' "$out" >"$tmp/got"
want_summary 0 >"$tmp/want"
expect_files_equal "$tmp/want" "$tmp/got" "--summary (5 steps) differs from expected/breakdown.csv"

test_done
