#!/bin/sh
# transfers: device copies of a synthetic GPU profile against the totals
# the generator worked out (OUTDIR/expected/transfers.csv), --events, and
# the host calls of the committed CPU JAX profiles (testdata/README.md).
. "$(dirname "$0")/lib.sh"

# The generated profile is one run: its column goes, and the columns
# after it line up with expected/transfers.csv.
drop_run() {
	[ "$(head -c 4 "$out")" = "run," ] || fail "transfers csv does not start with run"
	cut -d, -f2- "$out" >"$tmp/cut" && mv "$tmp/cut" "$out"
}

[ -n "${GEN_XPLANE:-}" ] && [ -x "$GEN_XPLANE" ] ||
    fail "GEN_XPLANE is not set to the generator"

G=$tmp/gen
T=$TESTDATA/jax-mlp
STEPS=5

test_case 'generate 2 hosts x 3 devices'
expect_code 0 gen_xplane --seed=3 --hosts=2 --devices=3 --steps=$STEPS "$G"
expect_stderr_empty
[ "$(grep -c . "$G/expected/transfers.csv")" -eq 13 ] ||
    fail "expected/transfers.csv has not 12 rows"

test_case 'totals --format=csv: the device copies of expected/transfers.csv'
expect_code 0 jaxprof transfers --format=csv "$G"
drop_run
expect_stderr_empty
[ "$(head -n 1 "$out")" = host,device,direction,kind,count,bytes,time_us,wait_us,gbps ] ||
    fail "transfers --format=csv has not the header expected"
save totals
awk -F, 'NR > 1 && $4 == "device copy" { print $1 "," $2 "," $3 "," $5 \
    "," $6 "," $7 "," $9 }' "$out" | sort >"$tmp/got"
# host,device,direction,count,bytes,time_ps -> time in us; GB/s = bytes /
# ps * 1e3, computed with the same doubles as jaxprof.
awk -F, 'NR > 1 { printf "%s,%s,%s,%d,%d,%.3f,%.3f\n", $1, $2, $3, $4,
    $5, $6 / 1e6, $5 / $6 * 1e3 }' "$G/expected/transfers.csv" |
    sort >"$tmp/want"
expect_files_equal "$tmp/want" "$tmp/got" "transfers differ from expected/transfers.csv"

test_case 'totals: one DevicePut host call per step on each host, bytes unknown'
[ "$(awk -F, '$4 == "host call" { print $1 "," $2 "," $3 "," $5 "," $6 \
    "," $9 }' "$tmp/totals")" = "host0,/host:CPU,H2D,$STEPS,,
host1,/host:CPU,H2D,$STEPS,," ] || fail "not $STEPS H2D host calls per host"

test_case '--events: one row per copy; as many as the totals count'
expect_code 0 jaxprof transfers --events --format=csv "$G"
drop_run
expect_stderr_empty
[ "$(head -n 1 "$out")" = \
    host,device,line,name,direction,kind,bytes,start_us,duration_us,wait_us,gbps,module,step ] ||
    fail "transfers --events has not the header expected"
save events
n=$(awk -F, 'NR > 1 { n += $5 } END { print n }' "$tmp/totals")
[ "$(grep -c . "$out")" -eq $((n + 1)) ] ||
    fail "--events has not the $n rows the totals count"
want=$(awk -F, 'NR > 1 { n += $4 } END { print n }' "$G/expected/transfers.csv")
[ "$(grep -c ',device copy,' "$out")" -eq "$want" ] ||
    fail "--events has not the $want device copies of expected/transfers.csv"

test_case '--events: counts and bytes add up to expected/transfers.csv'
# The stream line's name has a comma, so it is quoted: fields from the end.
# Times are rounded to 1 ns per event: their sum is within 0.5 ns each.
awk -F, '/,device copy,/ { k = $1 "," $2 "," $(NF - 8)
	n[k]++; b[k] += $(NF - 6); t[k] += $(NF - 4) }
    END { for (k in n) printf "%s,%d,%d,%.4f\n", k, n[k], b[k], t[k] }' \
    "$out" | sort >"$tmp/got"
awk -F, 'NR > 1 { printf "%s,%s,%s,%d,%d,%.4f\n", $1, $2, $3, $4, $5,
    $6 / 1e6 }' "$G/expected/transfers.csv" | sort >"$tmp/want"
cut -d, -f1-5 "$tmp/want" >"$tmp/want5"
cut -d, -f1-5 "$tmp/got" >"$tmp/got5"
expect_files_equal "$tmp/want5" "$tmp/got5" "--events do not add up to expected/transfers.csv"
paste -d, "$tmp/want" "$tmp/got" | awk -F, '{ d = $6 - $12
	if (d < 0) d = -d
	if (d > $4 * 0.0005 + 1e-6) exit 1 }' ||
    fail "--events durations do not add up to expected/transfers.csv time_ps"

test_case '--events: one H2D and one D2H per device and step, MemcpyH2D/D2H'
awk -F, '/,device copy,/ { print $1 "," $2 "," $(NF - 9) "," $(NF - 8) \
    "," $NF }' "$out" | sort | uniq -c |
    awk '$1 != 1 { exit 1 }' || fail "a device step has not one copy each way"
awk -F, '/,device copy,/ && !(($(NF - 9) == "MemcpyH2D" && $(NF - 8) == "H2D") ||
    ($(NF - 9) == "MemcpyD2H" && $(NF - 8) == "D2H")) { exit 1 }' "$out" ||
    fail "a copy's name and direction disagree"
[ "$(awk -F, '/,device copy,/ { print $NF }' "$out" | sort -u |
    tr '\n' ' ')" = "0 1 2 3 4 " ] || fail "the copies' steps are not 0..4"

test_case '--device=GPU:1 --host=host1: that device only'
expect_code 0 jaxprof transfers --format=csv --device=GPU:1 --host=host1 "$G"
drop_run
expect_stderr_empty
awk -F, 'NR > 1 { print $1 "," $2 "," $3 "," $5 "," $6 }' "$out" |
    sort >"$tmp/got"
awk -F, '$1 == "host1" && $2 == "/device:GPU:1" { print $1 "," $2 "," $3 \
    "," $4 "," $5 }' "$G/expected/transfers.csv" | sort >"$tmp/want"
expect_files_equal "$tmp/want" "$tmp/got" "--device=GPU:1 --host=host1 differs from expected"

test_case 'testdata: host calls (csv golden): H2D 16, D2H 20, D2D 4'
expect_code 0 jaxprof transfers --format=csv "$T"
compare_golden csv
expect_stderr_empty
# One row per run: the two runs' counts add up.
[ "$(awk -F, 'NR > 1 { n[$4 ":" $5] += $6 }
    END { for (k in n) print k ":" n[k] }' "$out" | sort | tr '\n' ' ')" = \
    "D2D:host call:4 D2H:host call:20 H2D:host call:16 " ] ||
    fail "not 16 DevicePutWithSharding, 20 device_get calls, 4 batched copies"

test_case 'testdata: the table'
expect_code 0 jaxprof transfers "$T"
compare_golden table
expect_stderr_empty
expect_stdout_match '^Copies on the devices \(Memcpy events: bytes from memcpy_details; TPU async copies\), memsets'

test_case 'testdata run 1 --events (golden): DevicePutWithSharding H2D, device_get D2H'
expect_code 0 jaxprof transfers --events --format=csv --run='*00' "$T"
compare_golden events-run00
expect_stderr_empty
awk -F, 'NR > 1 { print $5 "," $6 }' "$out" | sort | uniq -c |
    awk '{ printf "%s:%s ", $2, $1 }' >"$tmp/got"
printf '%s ' 'ArrayImpl.copy_to_host_async,D2H:7' \
    'DevicePutWithSharding,H2D:13' \
    'batched_copy_array_to_devices_with_sharding,D2D:3' \
    'np.asarray(jax.Array),D2H:7' >"$tmp/want"
expect_files_equal "$tmp/want" "$tmp/got" "run 1 host calls differ from README's counts"

test_case 'np.asarray host calls: most of their time is waiting, not copying'
# The first np.asarray of run 0 waits for the first train step to finish.
awk -F, '$5 == "np.asarray(jax.Array)" && $11 > $10 * 0.9 { n++ }
    END { exit n > 0 ? 0 : 1 }' "$out" ||
    fail "no np.asarray call with wait_us above 90% of duration_us"
awk -F, 'NR > 1 && $11 > $10 { exit 1 }' "$out" ||
    fail "a wait_us longer than its duration_us"
awk -F, '$5 == "DevicePutWithSharding" && $11 != "0.000" { exit 1 }' "$out" ||
    fail "an H2D DevicePut waits"

test_done
