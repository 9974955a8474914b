#!/bin/sh
# A TensorFlow GPU profile: its device planes have kernels but no XLA op
# (no hlo_op), so the kernels are the ops, named by their tf_op, and the
# profile is ranked by device time, not by the host's TF ops (issue 9).
. "$(dirname "$0")/lib.sh"

P=$tmp/p
mkdir -p "$P/plugins/profile/r1"
cat >"$P/plugins/profile/r1/h.trace.json" <<'EOF2'
{"displayTimeUnit":"ns","traceEvents":[
{"ph":"M","pid":1,"name":"process_name","args":{"name":"/device:GPU:0"}},
{"ph":"M","pid":1,"tid":7,"name":"thread_name","args":{"name":"Stream #7(Compute)"}},
{"ph":"M","pid":2,"name":"process_name","args":{"name":"/host:CPU"}},
{"ph":"M","pid":2,"tid":1,"name":"thread_name","args":{"name":"tf_Compute"}},
{"ph":"X","pid":2,"tid":1,"ts":1,"dur":50,"name":"dense/MatMul:MatMul","args":{}},
{"ph":"X","pid":2,"tid":1,"ts":60,"dur":40,"name":"dense/Relu:Relu","args":{}},
{"ph":"X","pid":1,"tid":7,"ts":10,"dur":30,"name":"volta_sgemm_128x64_nn","args":{"tf_op":"dense/MatMul:MatMul","kernel_details":"regs:1"}},
{"ph":"X","pid":1,"tid":7,"ts":70,"dur":4,"name":"Relu_GPU_DT_FLOAT","args":{"tf_op":"dense/Relu:Relu","kernel_details":"regs:1"}},
{"ph":"X","pid":1,"tid":70,"ts":90,"dur":2,"name":"some_library_kernel","args":{"kernel_details":"regs:1"}}
]}
EOF2

test_case 'the device kernels are the ops, by device time'
expect_code 0 jaxprof top --format=csv "$P"
expect_stderr_empty
awk -F, 'NR > 1 { printf "%s,%s,%s,%s\n", $2, $4, $5, $6 }' "$out" >"$tmp/got"
printf '%s\n' 'dense/MatMul,MatMul,1,30.000' 'dense/Relu,Relu,1,4.000' \
    'some_library_kernel,kernel,1,2.000' >"$tmp/want"
expect_files_equal "$tmp/want" "$tmp/got" "top is not the device's kernels"

test_done
