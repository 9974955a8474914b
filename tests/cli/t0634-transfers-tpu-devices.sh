#!/bin/sh
# TPU copies on every device: on the TPU corpus profile TPU:1-3 ran the
# same host-offload copies as TPU:0, but only TPU:0's "Async XLA Ops" line
# has them; the others' copies come from their "XLA Ops" line, each from
# its copy-start to its copy-done.  Each device counts TPU:0's copies and
# bytes, in about TPU:0's time, and TPU:0 counts each copy once.
. "$(dirname "$0")/lib.sh"

T=$CORPUS/xprof/xprof/convert/test_xplanes/tpu_inference_2.xplane.pb
[ -f "$T" ] || skip "no TPU profile '$T'"

test_case "transfers: every TPU's copies, as many as TPU:0's"
expect_code 0 jaxprof transfers --format=csv "$T"
expect_stderr_empty
awk -F, '$3 ~ /TPU/ && $5 == "device copy" {
		k = $4; dev[$3] = 1
		if ($3 == "/device:TPU:0") { c0[k] = $6; b0[k] = $7; t0[k] = $8 }
		c[$3, k] = $6; b[$3, k] = $7; t[$3, k] = $8 }
	function off(a, w) { return (a > w ? a - w : w - a) > 0.05 * w }
	END {
		for (d in dev) n++
		if (n != 4) { print n " TPUs with copies, want 4"; bad = 1 }
		if (c0["H2D"] != 300 || c0["D2H"] != 300) {
			print "TPU:0: " c0["H2D"] " H2D, " c0["D2H"] " D2H, want 300"
			bad = 1 }
		for (d in dev) for (k in c0) {
			if (c[d, k] != c0[k] || b[d, k] != b0[k] ||
			    off(t[d, k], t0[k])) {
				print d " " k ": " c[d, k] " copies " b[d, k] \
				    " B " t[d, k] " us, want " c0[k] " " b0[k] \
				    " ~" t0[k]
				bad = 1 } }
		exit bad }' "$out" >"$tmp/off" || fail "$(head -n 5 "$tmp/off")"

test_case "the index: 600 copies of 5 GiB a device, each with a duration"
expect_code 0 jaxprof sql --format=csv "SELECT p.name, count(*),
    sum(t.dur_ps > 0), sum(t.bytes = 5 * 1024 * 1024 * 1024)
    FROM transfers t JOIN planes p ON p.id = t.plane
    WHERE p.name LIKE '/device:TPU:%' GROUP BY 1 ORDER BY 1" "$T"
sed 1d "$out" >"$tmp/got"
printf '/device:TPU:%s,600,600,600\n' 0 1 2 3 >"$tmp/want"
expect_files_equal "$tmp/want" "$tmp/got" "copy rows per device differ"

test_done
