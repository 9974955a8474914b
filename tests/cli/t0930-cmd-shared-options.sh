#!/bin/sh
# A command's row declares the shared options it takes (src/cmd/cmd.h):
# each command accepts exactly those its --help lists, and refuses the
# others as unknown (exit 2).  And every option a command's help lists
# reaches it: diff --include-compile-work was refused as a misuse.
. "$(dirname "$0")/lib.sh"

test_case 'the commands, from jaxprof --help'
expect_code 0 jaxprof --help
sed -n 's/^  \([a-z][a-z]*\)  .*/\1/p' "$out" >"$tmp/commands"
[ "$(wc -l <"$tmp/commands")" -ge 17 ] ||
	fail "too few commands in jaxprof --help: $(tr '\n' ' ' <"$tmp/commands")"

for c in $(cat "$tmp/commands"); do
	test_case "$c: the shared options its help lists, and no other"
	expect_code 0 jaxprof "$c" --help
	cp "$out" "$tmp/help"
	for o in db device format host latest run wide; do
		listed=no
		grep -q -- "--$o\\b" "$tmp/help" && listed=yes
		# With an argument or without, an option it does not take is
		# unknown; one it takes fails later (no such path), or not.
		"$JAXPROF" "$c" "--$o=x" /nonexistent/p >"$tmp/o1" 2>&1 || :
		"$JAXPROF" "$c" "--$o" /nonexistent/p >"$tmp/o2" 2>&1 || :
		taken=yes
		cat "$tmp/o1" "$tmp/o2" | grep -q "unrecognized option '--$o" &&
		    taken=no
		[ "$listed" = "$taken" ] ||
			fail "$c: --$o listed in its help: $listed, taken: $taken"
	done
done

test_case 'baseline refuses --format, which it never honoured: exit 2'
expect_code 2 jaxprof baseline save --format=csv "$TESTDATA/jax-mlp"
expect_stderr_match "^jaxprof: baseline: unrecognized option '--format=csv'$"

P=$CORPUS/h200/cmdbuf-train
[ -d "$P" ] || skip "no corpus profile at '$P'"

test_case 'diff --include-compile-work: the autotuner modules come back'
expect_code 0 jaxprof diff -n 0 --format=csv "$P" "$P"
awk -F, 'NR > 1 && $3 ~ /^gemm_fusion_dot/ { n++ } END { exit n > 0 }' \
    "$out" || fail "diff shows the autotuner's modules without the option"
expect_code 0 jaxprof diff -n 0 --include-compile-work --format=csv "$P" "$P"
awk -F, 'NR > 1 && $3 == "gemm_fusion_dot.67" { n++ } END { exit n == 0 }' \
    "$out" || fail "gemm_fusion_dot.67 is not a module with --include-compile-work"

test_done
