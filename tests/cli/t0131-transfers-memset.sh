#!/bin/sh
# Memsets no op launched (no hlo_op) land in transfers as direction
# "memset", with num_bytes from Memset_details (issue 9: every device
# event lands in some report); a memset an op launched stays that op's.
. "$(dirname "$0")/lib.sh"

P=$tmp/p
mkdir -p "$P/plugins/profile/r1"
cat >"$P/plugins/profile/r1/h.trace.json" <<'EOF2'
{"displayTimeUnit":"ns","traceEvents":[
{"ph":"M","pid":1,"name":"process_name","args":{"name":"/device:GPU:0"}},
{"ph":"M","pid":1,"tid":14,"name":"thread_name","args":{"name":"Stream #14(Memset,Compute)"}},
{"ph":"X","pid":1,"tid":14,"ts":10,"dur":2,"name":"Memset","args":{"Memset_details":"kind:device num_bytes:4096 async:1"}},
{"ph":"X","pid":1,"tid":14,"ts":20,"dur":5,"name":"fusion_1","args":{"hlo_op":"fusion.1","hlo_module":"jit_f","kernel_details":"regs:1"}},
{"ph":"X","pid":1,"tid":14,"ts":30,"dur":1,"name":"Memset","args":{"Memset_details":"kind:device num_bytes:64 async:1","hlo_op":"fusion.2","hlo_module":"jit_f"}}
]}
EOF2

test_case 'the memset without hlo_op is a memset transfer'
expect_code 0 jaxprof transfers --format=csv "$P"
expect_stderr_empty
# Not a device copy, and no GB/s: a memset fills, it copies nothing.
expect_stdout_match '^r1,h,/device:GPU:0,memset,memset,1,4096,2\.000,0\.000,$'
[ "$(grep -c memset "$out")" -eq 1 ] || fail "more than one memset row"

test_case 'the memset fusion.2 launched is that op'
expect_code 0 jaxprof top --format=csv "$P"
expect_stdout_match '^2,fusion\.2,jit_f,fusion,1,1\.000,'

test_done
