#!/bin/sh
# A test that skips for want of Python modules says what to install, not
# a path that exists on one machine.
. "$(dirname "$0")/lib.sh"

printf '#!/bin/sh\nexit 1\n' >"$tmp/nopython"
chmod +x "$tmp/nopython"

for t in t0022-top-reference t0090-e2e-jax; do
	test_case "$t without Python modules names what to install"
	expect_code 77 env PYTHON="$tmp/nopython" sh "$CLI_DIR/$t.sh"
	expect_stdout_match "^SKIP: $t: .*install it: "
	! grep -q '/opt/' "$out" || fail "the hint names a path under /opt"
done

test_case 't0110 notes the skipped protobuf check with what to install'
expect_code 0 env PYTHON="$tmp/nopython" sh "$CLI_DIR/t0110-steps-testdata.sh"
expect_stdout_match '^note: .*google.protobuf; install it: apt-get install python3-protobuf'

test_done
