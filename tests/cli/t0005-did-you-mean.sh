#!/bin/sh
# A mistyped command, option or --fields column names the closest one;
# a word too far from any says nothing more; --fields takes the table's
# headers as well as the csv names.
. "$(dirname "$0")/lib.sh"

test_case 'a mistyped command: the closest one'
expect_code 2 jaxprof topp
expect_stdout_empty
expect_stderr_is "jaxprof: 'topp' is not a jaxprof command; did you mean 'top'? See 'jaxprof --help'"
expect_code 2 jaxprof summray "$TESTDATA/jax-mlp"
expect_stderr_is "jaxprof: 'summray' is not a jaxprof command; did you mean 'summary'? See 'jaxprof --help'"
expect_code 2 jaxprof help dif
expect_stderr_is "jaxprof: 'dif' is not a jaxprof command; did you mean 'diff'? See 'jaxprof --help'"

test_case 'a word far from every command: no guess'
expect_code 2 jaxprof frobnicate
expect_stderr_is "jaxprof: 'frobnicate' is not a jaxprof command; see 'jaxprof --help'"
expect_code 2 jaxprof xy
expect_stderr_is "jaxprof: 'xy' is not a jaxprof command; see 'jaxprof --help'"

test_case 'a mistyped option: the closest of that command'
expect_code 2 jaxprof top --grup=kernel "$TESTDATA/jax-mlp"
expect_stdout_empty
expect_stderr_match "^jaxprof: top: unrecognized option '--grup=kernel'$"
expect_stderr_match "^jaxprof: top: did you mean '--group'\?$"
expect_stderr_match "^usage: jaxprof top "
expect_code 2 jaxprof check --basline=x "$TESTDATA/jax-mlp"
expect_stderr_match "^jaxprof: check: did you mean '--baseline'\?$"
expect_code 2 jaxprof --verison
expect_stderr_match "^jaxprof: did you mean '--version'\?$"

test_case 'an option far from every one: no guess'
expect_code 2 jaxprof top --bogus "$TESTDATA/jax-mlp"
! grep -q "did you mean" "$err" || fail "a guess for --bogus"

test_case '--fields takes the headers the table shows'
expect_code 0 jaxprof top --fields=name,count,total_us,percent --format=csv "$TESTDATA/jax-mlp"
save by-name.csv
expect_code 0 jaxprof top --fields=name,count,total,% --format=csv "$TESTDATA/jax-mlp"
expect_stderr_empty
expect_stdout_file "$tmp/by-name.csv"
expect_code 0 jaxprof top --fields='#,name,%' "$TESTDATA/jax-mlp"
expect_stdout_match '^ *#  name  +%$'

test_case '--fields: a mistyped column names the closest'
expect_code 2 jaxprof top --fields=name,totl_us "$TESTDATA/jax-mlp"
expect_stderr_match "^jaxprof: top: invalid --fields 'name,totl_us': no column 'totl_us'; did you mean 'total_us'\? \(choose from rank, name,"

test_done
