#!/bin/sh
# top on synthetic GPU profiles (tests/gen-xplane) against the answers the
# generator worked out while writing them (OUTDIR/expected/*.csv, in ps).
. "$(dirname "$0")/lib.sh"

[ -n "${GEN_XPLANE:-}" ] && [ -x "$GEN_XPLANE" ] ||
    fail "GEN_XPLANE is not set to the generator"

G=$tmp/gen
GZ=$tmp/gen-gz

test_case 'generate 2 hosts x 3 devices'
expect_code 0 gen_xplane --seed=42 --hosts=2 --devices=3 --steps=4 --ops=12 "$G"
expect_stdout_empty
expect_stderr_empty
[ -f "$G/plugins/profile/2026_01_01_00_00_00/host1.xplane.pb" ] ||
    fail "the generator wrote no host1.xplane.pb"
[ "$(sed -n 2p "$G/expected/top.csv" | cut -d, -f4)" -gt 0 ] 2>/dev/null ||
    fail "expected/top.csv has no rows"

test_case 'top -n 0: every op of expected/top.csv, in its order'
expect_code 0 jaxprof top -n 0 --format=csv "$G"
expect_stderr_empty
project_top >"$tmp/got"
tail -n +2 "$G/expected/top.csv" | ps_to_us >"$tmp/want"
expect_files_equal "$tmp/want" "$tmp/got" "top differs from expected/top.csv"
save all
[ "$(grep -c . "$tmp/want")" -ge 12 ] || fail "too few expected rows"

test_case 'the table says how many planes, and is not CPU-only'
expect_code 0 jaxprof top -n 3 "$G"
expect_stderr_empty
expect_stdout_match '^6 planes; times summed over hosts and devices\.$'
if grep -q 'CPU-only' "$out"; then
	fail "a GPU profile is called CPU-only"
fi

test_case "--device='GPU:0': expected/top-by-device.csv, /device:GPU:0 over hosts"
expect_code 0 jaxprof top -n 0 --format=csv --device='GPU:0' "$G"
expect_stderr_empty
project_top >"$tmp/got"
sum_by_device '$2 == "/device:GPU:0"' "$G/expected/top-by-device.csv" |
    ps_to_us >"$tmp/want"
expect_files_equal "$tmp/want" "$tmp/got" "--device='GPU:0' differs from expected"

test_case "--device='/device:GPU:2' (the full plane name)"
expect_code 0 jaxprof top -n 0 --format=csv --device='/device:GPU:2' "$G"
expect_stderr_empty
project_top >"$tmp/got"
sum_by_device '$2 == "/device:GPU:2"' "$G/expected/top-by-device.csv" |
    ps_to_us >"$tmp/want"
expect_files_equal "$tmp/want" "$tmp/got" "--device='/device:GPU:2' differs from expected"

test_case '--host=host1'
expect_code 0 jaxprof top -n 0 --format=csv --host=host1 "$G"
expect_stderr_empty
project_top >"$tmp/got"
sum_by_device '$1 == "host1"' "$G/expected/top-by-device.csv" |
    ps_to_us >"$tmp/want"
expect_files_equal "$tmp/want" "$tmp/got" "--host=host1 differs from expected"

test_case "--host=host0 --device='GPU:[12]'"
expect_code 0 jaxprof top -n 0 --format=csv --host=host0 --device='GPU:[12]' "$G"
expect_stderr_empty
project_top >"$tmp/got"
sum_by_device '$1 == "host0" && $2 != "/device:GPU:0"' \
    "$G/expected/top-by-device.csv" | ps_to_us >"$tmp/want"
expect_files_equal "$tmp/want" "$tmp/got" "host0, GPU:1 and GPU:2 differ from expected"

test_case 'list: planes and events per file as expected/list.csv'
expect_code 0 jaxprof list --format=csv "$G"
expect_stderr_empty
awk -F, 'NR > 1 { print $2 "," $6 "," $7 }' "$out" >"$tmp/got"
tail -n +2 "$G/expected/list.csv" >"$tmp/want"
expect_files_equal "$tmp/want" "$tmp/got" "list differs from expected/list.csv"
expect_stdout_match ',host0\.xplane\.pb,xplane,[0-9]+,4,[0-9]+,"GPU:0,GPU:1,GPU:2",'

test_case 'the same profile gzipped: the same answers'
expect_code 0 gen_xplane --seed=42 --hosts=2 --devices=3 --steps=4 --ops=12 \
    --gzip "$GZ"
expect_stderr_empty
[ -f "$GZ/plugins/profile/2026_01_01_00_00_00/host0.xplane.pb.gz" ] ||
    fail "the generator wrote no host0.xplane.pb.gz"
expect_files_equal "$G/expected/top.csv" "$GZ/expected/top.csv" \
    "--gzip changed the generator's expected answers"
expect_code 0 jaxprof top -n 0 --format=csv "$GZ"
expect_stderr_empty
expect_stdout_file "$tmp/all"

test_case 'gzipped: list shows the .gz files as xplane'
expect_code 0 jaxprof list --format=csv "$GZ"
expect_stderr_empty
expect_stdout_match '^2026_01_01_00_00_00,host1,host1\.xplane\.pb\.gz,xplane,[0-9]+,4,'

test_case 'another shape: 1 host, 1 device, --repeat=3, another seed'
expect_code 0 gen_xplane --seed=7 --devices=1 --steps=3 --ops=25 --repeat=3 \
    "$tmp/one"
expect_code 0 jaxprof top -n 0 --format=csv "$tmp/one"
expect_stderr_empty
project_top >"$tmp/got"
tail -n +2 "$tmp/one/expected/top.csv" | ps_to_us >"$tmp/want"
expect_files_equal "$tmp/want" "$tmp/got" "top differs from expected/top.csv"

test_case 'a host-only profile (--devices=0) has no ops'
expect_code 0 gen_xplane --devices=0 "$tmp/nodev"
expect_code 0 jaxprof top --format=csv "$tmp/nodev"
expect_stdout_match '^rank,name,'
[ "$(grep -c . "$out")" -eq 1 ] || fail "ops in a profile without devices"
expect_stderr_is 'jaxprof: top: no ops in the selection'

test_done
