#!/bin/sh
# End to end: JAX writes fresh profiles (testdata/make-profiles.py) and
# jaxprof finds in them what testdata/README.md says is stable across
# regenerations.
. "$(dirname "$0")/lib.sh"

python_has jax || skip "JAX not installed ('$PYTHON' cannot import jax); $(install_hint jax)"

O=$tmp/out
L=$O/jax-mlp

test_case 'make-profiles.py writes two runs'
expect_code 0 env JAX_PLATFORMS=cpu "$PYTHON" "$SRCDIR/testdata/make-profiles.py" "$O"
for run in 2026_01_01_00_00_00 2026_01_01_00_00_01; do
	[ -s "$L/plugins/profile/$run/testhost.xplane.pb" ] ||
	    fail "no $run/testhost.xplane.pb"
done

test_case 'the fresh profiles name their source relative to the repository'
expect_code 0 jaxprof top -n 0 --format=csv "$L"
grep -Eq ',testdata/make-profiles\.py:[0-9]*(,|$)' "$out" ||
    fail "no op with source testdata/make-profiles.py:LINE"
for f in "$L"/plugins/profile/*/*.xplane.pb; do
	! tr -c '[:print:]' '\n' <"$f" | grep -q "$SRCDIR" ||
	    fail "$f holds the checkout's path '$SRCDIR'"
done

test_case 'list: 2 runs, one xplane file each'
expect_code 0 jaxprof list --format=csv "$L"
expect_stderr_empty
awk -F, '$4 == "xplane" { print $1 "," $2 "," $3 "," $6 "," $8 }' "$out" >"$tmp/got"
cat >"$tmp/want" <<'EOF'
2026_01_01_00_00_00,testhost,testhost.xplane.pb,3,CPU
2026_01_01_00_00_01,testhost,testhost.xplane.pb,3,CPU
EOF
expect_files_equal "$tmp/want" "$tmp/got" "list of the fresh profiles"
[ "$(cut -d, -f1 "$out" | sort -u | grep -c '^2026')" -eq 2 ] ||
    fail "list does not show 2 runs"

test_case 'top on run 1: the ops of jit_train_step and jit_normalize'
expect_code 0 jaxprof top -n 0 --format=csv --run='*00' "$L"
expect_stderr_empty
awk -F, 'NR > 1 { n[$3] += $5 } END { for (m in n) print m, n[m] }' "$out" |
    sort >"$tmp/got"
printf 'jit_normalize 21\njit_train_step 150\n' >"$tmp/want"
expect_files_equal "$tmp/want" "$tmp/got" "op events per module in run 1"

test_case 'top --group=module on run 2: jit_predict, once per launch'
expect_code 0 jaxprof compile --format=csv --run='*01' "$L"
launches=$(awk -F, 'NR > 1 && $2 == "jit_predict" { print $2 "," $5 }' "$out")
expect_code 0 jaxprof top --group=module --format=csv --run='*01' "$L"
expect_stderr_empty
[ "$(awk -F, 'NR > 1 { print $2 "," $5 }' "$out")" = "$launches" ] ||
    fail "run 2 is not jit_predict counted per launch ($launches)"

test_case 'the table of run 1 says CPU-only'
expect_code 0 jaxprof top -n 5 --run='*00' "$L"
expect_stderr_empty
expect_stdout_match '^CPU-only profile: '
expect_stdout_match '^ *1  [^ ]+ .*  jit_train_step  '

test_case 'sql: 6 host steps named train, step_num 0..5'
expect_code 0 jaxprof sql --format=csv "SELECT s.name, s.step FROM steps s JOIN files f ON f.id = s.file_id WHERE f.run = '2026_01_01_00_00_00' AND s.source = 'host' ORDER BY s.step" "$L"
expect_stderr_empty
printf 'name,step\n' >"$tmp/want"
for i in 0 1 2 3 4 5; do echo "train,$i"; done >>"$tmp/want"
expect_stdout_file "$tmp/want"

test_case 'sql: 3 compiles in run 1: normalize, train_step, normalize'
expect_code 0 jaxprof sql --format=csv "SELECT c.name, c.function FROM compiles c JOIN files f ON f.id = c.file_id WHERE f.run = '2026_01_01_00_00_00' ORDER BY c.start_ps" "$L"
expect_stderr_empty
printf 'name,function\n' >"$tmp/want"
for fn in normalize train_step normalize; do
	echo "backend_compile_and_load,$fn"
done >>"$tmp/want"
expect_stdout_file "$tmp/want"

test_case 'sql: 1 compile in run 2, of predict, inside step 0'
expect_code 0 jaxprof sql --format=csv "SELECT c.function, s.step FROM compiles c JOIN files f ON f.id = c.file_id JOIN steps s ON s.file_id = c.file_id AND c.start_ps >= s.start_ps AND c.start_ps < s.start_ps + s.dur_ps WHERE f.run = '2026_01_01_00_00_01'" "$L"
expect_stderr_empty
printf 'function,step\npredict,0\n' >"$tmp/want"
expect_stdout_file "$tmp/want"

test_done
