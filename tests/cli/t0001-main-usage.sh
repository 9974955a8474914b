#!/bin/sh
# The global options, the command table, help, and usage errors (exit 2).
. "$(dirname "$0")/lib.sh"

test_case '--help lists the commands on stdout'
expect_code 0 jaxprof --help
compare_golden help
expect_stderr_empty
save help
# Every command --help lists gets the per-command cases below.
commands=$(awk '/^Commands:$/ { on = 1; next } on && /^$/ { exit }
    on { print $1 }' "$out")
for c in index list sql top; do
	echo "$commands" | grep -qx "$c" || fail "--help does not list '$c'"
done
[ "$(echo "$commands" | sort | tr '\n' ' ')" = "$(echo "$commands" | tr '\n' ' ')" ] ||
    fail "--help does not list the commands sorted by name"

test_case '-h is --help'
expect_code 0 jaxprof -h
expect_stdout_file "$tmp/help"
expect_stderr_empty

test_case 'help with no command is --help'
expect_code 0 jaxprof help
expect_stdout_file "$tmp/help"
expect_stderr_empty

test_case '--version'
expect_code 0 jaxprof --version
[ "$(wc -l <"$out")" -eq 1 ] || fail "--version printed more than one line"
expect_stdout_match '^jaxprof [0-9]+\.[0-9]+(\.[0-9]+)?$'
expect_stderr_empty

test_case 'no arguments: usage on stderr, exit 2'
expect_code 2 jaxprof
expect_stdout_empty
cp "$err" "$out"
expect_stdout_file "$tmp/help"

test_case 'unknown command'
expect_code 2 jaxprof topp
expect_stdout_empty
expect_stderr_is "jaxprof: 'topp' is not a jaxprof command; did you mean 'top'? See 'jaxprof --help'"

test_case 'help of an unknown command'
expect_code 2 jaxprof help topp
expect_stdout_empty
expect_stderr_is "jaxprof: 'topp' is not a jaxprof command; did you mean 'top'? See 'jaxprof --help'"

test_case 'unknown global option: message, then usage on stderr'
expect_code 2 jaxprof --bogus top
expect_stdout_empty
expect_stderr_match "^jaxprof: unrecognized option '--bogus'$"
expect_stderr_match '^usage: jaxprof \[--help\]'

for c in $commands; do
	test_case "$c --help"
	expect_code 0 jaxprof "$c" --help
	expect_stderr_empty
	case $(head -n 1 "$out") in
	"usage: jaxprof $c "*) ;;
	*) fail "'$c --help' does not start with 'usage: jaxprof $c '" ;;
	esac
	expect_stdout_match '^Options:$'
	# extract and view read no index.
	case $c in
	extract | view) ;;
	*) expect_stdout_match '^  --db=FILE  ' ;;
	esac
	compare_golden "help-$c"
	save "help-$c"

	test_case "help $c is $c --help"
	expect_code 0 jaxprof help "$c"
	expect_stdout_file "$tmp/help-$c"
	expect_stderr_empty

	test_case "$c -h is $c --help"
	expect_code 0 jaxprof "$c" -h
	expect_stdout_file "$tmp/help-$c"
	expect_stderr_empty

	test_case "$c with an unknown option"
	expect_code 2 jaxprof "$c" --bogus "$TESTDATA/jax-mlp"
	expect_stdout_empty
	expect_stderr_match "^jaxprof: $c: unrecognized option '--bogus'$"
	expect_stderr_match "^usage: jaxprof $c "
	expect_stderr_match "^See 'jaxprof $c --help'\.$"
	[ "$(wc -l <"$err")" -eq 3 ] || fail "expected 3 lines on stderr"
	[ ! -e "$JAXPROF_DB" ] || fail "a usage error opened the index"
done

test_case 'top --by=bogus'
expect_code 2 jaxprof top --by=bogus "$TESTDATA/jax-mlp"
expect_stdout_empty
expect_stderr_is "jaxprof: top: invalid --by 'bogus' (choose from device-time, self-time, count, avg)"

test_case 'top --group=bogus'
expect_code 2 jaxprof top --group=bogus "$TESTDATA/jax-mlp"
expect_stdout_empty
expect_stderr_is "jaxprof: top: invalid --group 'bogus' (choose from op, category, module, kernel, framework-op, source, scope)"

test_case 'top --format=yaml'
expect_code 2 jaxprof top --format=yaml "$TESTDATA/jax-mlp"
expect_stdout_empty
expect_stderr_is "jaxprof: top: invalid --format 'yaml' (choose from table, csv, json, markdown)"

test_case 'list --format=yaml'
expect_code 2 jaxprof list --format=yaml "$TESTDATA/jax-mlp"
expect_stdout_empty
expect_stderr_is "jaxprof: list: invalid --format 'yaml' (choose from table, csv, json, markdown)"

test_case 'summary --format=yaml names the formats summary takes, html too'
expect_code 2 jaxprof summary --format=yaml "$TESTDATA/jax-mlp"
expect_stdout_empty
expect_stderr_is "jaxprof: summary: invalid --format 'yaml' (choose from table, json, markdown, html)"

for n in ten -1 5x '' 1000000001 99999999999999999999; do
	test_case "top -n '$n'"
	expect_code 2 jaxprof top -n "$n" "$TESTDATA/jax-mlp"
	expect_stdout_empty
	expect_stderr_is "jaxprof: top: invalid --limit '$n' (expected a whole number from 0 to 1000000000)"
done

test_case 'top --limit=ten'
expect_code 2 jaxprof top --limit=ten "$TESTDATA/jax-mlp"
expect_stdout_empty
expect_stderr_is "jaxprof: top: invalid --limit 'ten' (expected a whole number from 0 to 1000000000)"

test_case 'top -n without its value'
expect_code 2 jaxprof top -n
expect_stdout_empty
expect_stderr_match "^jaxprof: top: option requires an argument -- 'n'$"
expect_stderr_match '^usage: jaxprof top '

test_case 'top --by without its value'
expect_code 2 jaxprof top --by
expect_stdout_empty
expect_stderr_match "^jaxprof: top: option '--by' requires an argument$"

for c in index list top; do
	test_case "$c without a path"
	expect_code 2 jaxprof "$c"
	expect_stdout_empty
	expect_stderr_is "jaxprof: $c: no PATH given; see 'jaxprof $c --help'"
done

test_case 'sql without a path: usage'
expect_code 2 jaxprof sql 'SELECT 1'
expect_stdout_empty
expect_stderr_match '^usage: jaxprof sql '

test_case 'sql without a query: usage'
expect_code 2 jaxprof sql
expect_stdout_empty
expect_stderr_match '^usage: jaxprof sql '

[ ! -e "$JAXPROF_DB" ] || fail "a usage error created the index"
test_done
