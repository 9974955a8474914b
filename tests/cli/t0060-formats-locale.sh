#!/bin/sh
# Numbers never depend on the locale (STYLE.md 7): a German locale, whose
# decimal point is ',', prints the same bytes as LC_ALL=C in every format.
. "$(dirname "$0")/lib.sh"

T=$TESTDATA/jax-mlp

# A locale with ',' as its decimal point, if one is installed.
LOC=
for l in de_DE.UTF-8 de_DE.utf8 fr_FR.UTF-8 fr_FR.utf8 de_DE fr_FR; do
	if locale -a 2>/dev/null | grep -qix "$l"; then
		LOC=$l
		break
	fi
done
[ -n "$LOC" ] || skip "no de_DE or fr_FR locale installed (locale -a)"
# Make sure the locale really writes a decimal comma, else this proves nothing.
[ "$(env LC_ALL="$LOC" printf '%.1f' 1.5 2>/dev/null || :)" = "1,5" ] ||
    skip "printf(1) in $LOC does not write 1.5 as 1,5"

# in_locale LOCALE cmd...: cmd with LC_ALL and LANG set to LOCALE.
in_locale() {
	l=$1
	shift
	LC_ALL=$l LANG=$l LC_NUMERIC=$l "$@"
}

compare_locales() {
	expect_code 0 in_locale C "$JAXPROF" "$@"
	expect_stderr_empty
	save c-out
	expect_code 0 in_locale "$LOC" "$JAXPROF" "$@"
	expect_stderr_empty
	expect_stdout_file "$tmp/c-out"
}

for fmt in csv table json markdown; do
	test_case "top --format=$fmt in $LOC is the same as in C"
	compare_locales top -n 0 --format="$fmt" "$T"
done

test_case "the csv and the table have decimal points"
expect_code 0 in_locale "$LOC" "$JAXPROF" top -n 1 --format=csv "$T"
expect_stdout_match '^1,dot\.2,jit_train_step,gemm,6,[0-9]+\.[0-9]{3},'
expect_code 0 in_locale "$LOC" "$JAXPROF" top -n 1 "$T"
expect_stdout_match '^ *1  dot\.2  .*  [0-9]+\.[0-9]{3} ms .* [0-9]+\.[0-9]{2}%'

for fmt in csv table json; do
	test_case "list --format=$fmt in $LOC is the same as in C"
	compare_locales list --format="$fmt" "$T"
done

test_case "sql of a real number in $LOC"
compare_locales sql --format=csv 'SELECT 1.5 AS x, 2.25 AS y' "$T"
printf 'x,y\n1.5,2.25\n' >"$tmp/want"
expect_stdout_file "$tmp/want"

test_case "a generated GPU profile (GFLOP/s, GB/s) in $LOC"
expect_code 0 gen_xplane --seed=3 --devices=2 "$tmp/gen"
compare_locales top -n 0 --format=csv "$tmp/gen"
compare_locales top --format=table --by=avg "$tmp/gen"

test_done
