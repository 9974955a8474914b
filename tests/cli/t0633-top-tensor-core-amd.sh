#!/bin/sh
# AMD matrix cores are tensor cores (as xprof says) on real MI300X
# profiles: Tensile's MFMA kernels (_MI16x16x16x1_) and XLA's Triton gemm
# fusions (gemm_fusion_*.kd) say tensor_core yes; elementwise code
# objects, copies and MIOpen's im2col say no (jaxprof-top(1)).
. "$(dirname "$0")/lib.sh"

M=$CORPUS/tracelens/tests/traces/mi300
[ -d "$M" ] || skip "no MI300X profiles under '$M'"

test_case "MI300X kernels: matrix-core ones yes, the others no"
expect_code 0 jaxprof top --group=kernel -n 0 --format=csv \
    --fields=name,category,tensor_core "$M"
awk -F, 'NR == 1 { next }
	{ want = ($1 ~ /_MI[1-9][0-9]*x[0-9]/ ||
	    ($1 ~ /\.kd$/ && ($2 == "gemm" || $2 == "gemm fusion" ||
	    $2 == "convolution"))) ? "yes" : "no" }
	$3 != want { print $1 " (" $2 "): " $3 ", want " want; bad = 1 }
	$3 == "yes" { yes++ } $1 ~ /^gemm_fusion.*\.kd$/ { triton++ }
	$1 ~ /^Im3d2Col/ { im2col++ }
	END { if (yes < 6 || !triton || !im2col) {
		print yes " yes, " triton " Triton, " im2col " im2col"; bad = 1 }
	    exit bad }' "$out" >"$tmp/off" || fail "$(head -n 5 "$tmp/off")"

test_done
